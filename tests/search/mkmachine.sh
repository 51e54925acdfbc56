#!/bin/sh
# mkmachine.sh NAME MEM_GB SWAP_KIND [CPUS] - a simulated machine's fingerprint (the
# JSON `vmtune machine --json` prints) on stdout, for --machine. SWAP_KIND is a
# device kind (rotational, ssd, nvme, zram, file-on-ssd, ...) or none.
name=$1 gb=$2 kind=$3 cpus=${4:-4}
kb=$((gb * 1048576))
if [ "$kind" = none ]; then
	swaps='[]' swap_kb=0
else
	swap_kb=$((kb / 2))
	swaps="[{\"name\":\"/dev/sim-$kind\",\"kind\":\"$kind\",\"size_kb\":$swap_kb}]"
fi
cat <<JSON
{"hostname":"$name","kernel":"6.1.0-sim","cpus":$cpus,"numa_nodes":1,"mem_total_kb":$kb,
 "swap_total_kb":$swap_kb,"page_size":4096,"swap_devices":$swaps,"zswap":false,"thp":true,"mthp_sizes":""}
JSON
