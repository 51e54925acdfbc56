#!/usr/bin/env bash
# mkroot.sh DIR - a fake system tree for `vmtune --root DIR`: the knob files of a
# 6.x kernel with their usual defaults (no 2.4-aa vm_* knobs), THP and mTHP
# sysfs files in the kernel's "a [b] c" form, debugfs fault_around_bytes.
set -eu
d=$1
vm=$d/proc/sys/vm
thp=$d/sys/kernel/mm/transparent_hugepage
mkdir -p "$vm" "$thp" "$d/sys/kernel/debug" "$d/proc/sys/kernel/random" "$d/run"
# the boot the journal is written in (a test "reboots" by changing it)
echo 0b8d3c52-7d0e-4a5e-9f43-2a1d6a8e1f00 >"$d/proc/sys/kernel/random/boot_id"
while read -r k v; do printf '%s\n' "$v" >"$vm/$k"; done <<'KNOBS'
page-cluster 3
swappiness 60
vfs_cache_pressure 100
dirty_ratio 20
dirty_background_ratio 10
dirty_bytes 0
dirty_background_bytes 0
dirty_expire_centisecs 3000
dirty_writeback_centisecs 500
min_free_kbytes 67584
watermark_scale_factor 10
watermark_boost_factor 15000
compaction_proactiveness 20
overcommit_memory 0
overcommit_ratio 50
zone_reclaim_mode 0
panic_on_oom 0
KNOBS
echo 'always [madvise] never' >"$thp/enabled"
echo 'always defer defer+madvise [madvise] never' >"$thp/defrag"
mkdir -p "$thp/hugepages-8kB" # as on 6.18: no enabled file for 8kB
for kb in 16 32 64 128 256 512 1024; do
	mkdir -p "$thp/hugepages-${kb}kB"
	echo 'always inherit madvise [never]' >"$thp/hugepages-${kb}kB/enabled"
done
mkdir -p "$thp/hugepages-2048kB"
echo 'always [inherit] madvise never' >"$thp/hugepages-2048kB/enabled"
echo 65536 >"$d/sys/kernel/debug/fault_around_bytes"
printf 'MemTotal:        1048576 kB\n' >"$d/proc/meminfo"
