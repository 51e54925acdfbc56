#!/usr/bin/env bash
# tools.sh - a search for each of the services in the sandbox (root, live kernel):
# Redis with a keyspace past the cgroup's memory, pgbench's selects from tables
# twice the cgroup's memory, and a buffered fio read of a file larger than the
# cgroup. Each search varies every available knob for --time (default 5m) and
# walks back to the smallest change; its report, decision and guards go to
# OUT/NAME.out (default /var/tmp/vmtune-tools), its profile to OUT/NAME.yaml.
# bench/RESULTS.md ("Searches for the services") holds what it printed. VMTUNE: the
# binary (default build/vmtune).
set -u
cd "$(dirname "$0")/.." || exit 4
OUT=${OUT:-/var/tmp/vmtune-tools}
TIME=${TIME:-5m}
mkdir -p "$OUT"
search() { # NAME METRIC SPEC
	local t0=$SECONDS
	"${VMTUNE:-build/vmtune}" --state-dir "$OUT/state-$1" search -w "$3" --metric "$2" --time "$TIME" \
		--memory-limit 256M --swap 1G -o "$OUT/$1.yaml" >"$OUT/$1.out" 2>"$OUT/$1.err"
	echo "$1: exit $?, $((SECONDS - t0)) s"
	sed -n '/^CHANGED KNOB/,$p' "$OUT/$1.out"
}
search redis p99_ms 'redis:-t get -n 50000 -r 300000 -d 1000 -c 4'
search pgbench tps 'pgbench:-s 30 -S -T 5 -c 2 -j 2'
search fio iops 'fio:--name=pagecache --rw=read --size=512M --bs=64k --ioengine=psync'
