#!/usr/bin/env bash
# test-live-tools.sh - the tools as workloads on the live kernel (root only): fio,
# stress-ng and sysbench run in the sandbox's cgroup and their own numbers are read;
# redis-server and postgres run inside the cgroup under pressure (swap used) with
# their clients outside it, their data built once, and end with the run; a server
# that cannot start, a tool not installed, output that holds no number and kill -9
# of vmtune in a server's run each leave nothing behind; the services mix runs once with
# every server at its cgroup's limit; a Redis search killed in its trials is restored and
# resumed to its decision. The machine must be exactly
# as it was afterwards (live_snapshot counts the servers and their data too).
. "$(dirname "$0")/../lib.sh"

if [ "$(id -u)" != 0 ]; then
	skip_live "live tool workload tests" "not root"
	done_testing
	exit
fi
live_begin
wait_for() { local i; for i in $(seq 1200); do eval "$1" && return 0; sleep 0.1; done; return 1; }
num() { awk -v k="$1:" '$1 == k { print $2 }' "$T/out"; }
positive() { awk -v v="$1" 'BEGIN { exit !(v + 0 > 0) }'; }
swapped() { awk '/^Swap:/ { exit !($2 + $4 > 0) }' "$T/out"; }
# at_limit MIB: the cgroup's footprint reached 90% of its MIB limit in some run: what was
# in it (the page cache, a server's memory) was squeezed by the limit
at_limit() { awk -v lim="$1" '/^Footprint:/ { f = $2 } END { exit !(f >= 0.9 * lim) }' "$T/out"; }
footprint() { awk '/^Footprint:/ { print $2 }' "$T/out"; }
no_data_left() { test -z "$(find "$STATE" -maxdepth 1 -name 'data-*')" && test -z "$(ls -d /var/tmp/vmtune-pg-* 2>/dev/null)"; }

lexpect 0 "sysbench memory in a 128M cgroup" run -w 'sysbench:memory --memory-total-size=2G run' -n 2 \
	--memory-limit 128M
check "its MiB/s is read ($(num mib_s))" positive "$(num mib_s)"
check "and its events/s, the primary metric ($(num events_s))" positive "$(num events_s)"

# (a bogo op of --vm is a pass over all of --vm-bytes: 300M in 4 s here did not finish
# one pass in one run of two, and stress-ng rightly said 0 ops/s)
lexpect 0 "stress-ng --vm 200M in a 128M cgroup with 512M of swap" run \
	-w 'stress-ng:--vm 1 --vm-bytes 200M --vm-keep -t 8' -n 1 --memory-limit 128M --swap 512M
check "its bogo ops/s is read ($(num vm.bogo_ops_s))" positive "$(num vm.bogo_ops_s)"
check "it ran under pressure: swap was used" swapped
as_before "sysbench and stress-ng"

# buffered reads of a file twice the cgroup's memory: the page cache is what is under pressure
lexpect 0 "fio buffered sequential read of 256M in a 128M cgroup" run \
	-w 'fio:--name=pc --rw=read --size=256M --bs=64k --ioengine=psync' -n 2 --memory-limit 128M
check "its IOPS are read ($(num iops))" positive "$(num iops)"
check "and its p99 completion latency ($(num read_clat_p99_ms) ms)" positive "$(num read_clat_p99_ms)"
check "it ran at its cgroup's limit: the page cache was under pressure ($(footprint) MiB of 128)" at_limit 128
check "its file was laid out in vmtune's data directory, now removed" no_data_left
as_before "fio"

# Redis: a keyspace of 200000 values of 1000 bytes (about 230M) in 128M
lexpect 0 "redis-server with a keyspace past the cgroup's memory, redis-benchmark outside" run \
	-w 'redis:-t get -n 20000 -r 200000 -d 1000 -c 4' -n 2 --memory-limit 128M --swap 512M
check "its requests/s are read ($(num rps))" positive "$(num rps)"
check "and its p99 latency ($(num p99_ms) ms)" positive "$(num p99_ms)"
check "it swapped" swapped
check "its keyspace was built once, before the runs" test "$(grep -c 'redis: building its data once' "$T/err")" = 1
check "no server and no data are left" no_data_left
as_before "redis"

# where each side runs, and kill -9 of vmtune in the middle of a server's run
"$VMTUNE" --state-dir "$STATE" run -w 'redis:-t get -n 2000000 -r 200000 -d 1000 -c 4' -n 3 --memory-limit 128M \
	--swap 512M >"$T/out" 2>"$T/err" &
pid=$! BG=$!
check "redis-benchmark is running" wait_for 'pgrep -f "redis-benchmark -s $STATE/" >/dev/null'
# ours, by their socket in this state dir (not a redis the machine may run itself)
srv=$(pgrep -f "redis-server unixsocket:$STATE/" | head -1)
cli=$(pgrep -f "redis-benchmark -s $STATE/" | head -1)
scg=$(grep -E '^[0-9]+:memory:' "/proc/$srv/cgroup" 2>/dev/null | cut -d: -f3)
ccg=$(grep -E '^[0-9]+:memory:' "/proc/$cli/cgroup" 2>/dev/null | cut -d: -f3)
echo "# redis-server in memory cgroup '$scg', redis-benchmark in '$ccg'"
check "the server runs in vmtune's memory cgroup" eval '[[ "$scg" == /vmtune* ]]'
check "the client runs outside it" eval '[[ "$ccg" != /vmtune* ]]'
kill -9 "$pid"
wait "$pid" 2>/dev/null
BG=
check "kill -9 of vmtune: the server (pid ${srv:-none}) dies with it" eval 'test -n "$srv" && wait_for "! kill -0 $srv 2>/dev/null"'
lexpect 0 "vmtune restore after kill -9" restore
check "the data directory is gone" no_data_left
as_before "redis and kill -9"

# PostgreSQL: pgbench's tables at scale 20 (about 300M) in 128M, the server as postgres
lexpect 0 "postgres with pgbench's tables past the cgroup's memory, pgbench outside" run \
	-w 'pgbench:-s 20 -S -T 3 -c 2 -j 2' -n 2 --memory-limit 128M --swap 512M
check "its TPS is read ($(num tps))" positive "$(num tps)"
check "and its p99 latency from the per-transaction log ($(num lat_p99_ms) ms)" positive "$(num lat_p99_ms)"
check "the server ran at its cgroup's limit ($(footprint) MiB of 128)" at_limit 128
check "no server and no data are left" no_data_left
as_before "pgbench"

# kill -9 of vmtune while pgbench runs: the client dies with vmtune, the server and its
# backends with its cgroup and data directory at restore
"$VMTUNE" --state-dir "$STATE" run -w 'pgbench:-s 5 -S -T 60 -c 2 -j 2' -n 1 --memory-limit 128M \
	>"$T/out" 2>"$T/err" &
pid=$! BG=$!
check "pgbench is running against vmtune's server" wait_for 'pgrep -f "pgbench .*-h /var/tmp/vmtune-pg-" >/dev/null'
pgd=$(ls -d /var/tmp/vmtune-pg-* 2>/dev/null | head -1)
kill -9 "$pid"
wait "$pid" 2>/dev/null
BG=
check "kill -9 of vmtune: its pgbench dies with it" wait_for '! pgrep -f "pgbench .*-h /var/tmp/vmtune-pg-" >/dev/null'
lexpect 0 "vmtune restore after kill -9 in a PostgreSQL run" restore
check "no postgres process is left in its data directory (${pgd:-none})" \
	eval 'test -n "$pgd" && wait_for "! pgrep -f \"postgres -D $pgd\" >/dev/null"'
check "and the data directory is gone" eval 'test -n "$pgd" && test ! -e "$pgd"'
as_before "pgbench and kill -9"

# what goes wrong says why and leaves nothing
lvt run -w 'pgbench:-s 1 -S -T 1 --shared-buffers=1kB' -n 1 --memory-limit 128M
check "a server that cannot start fails the run ($RC)" test "$RC" != 0
check "saying so, with its log" err_has 'postgres exited before it answered .*its log .*server.log ends: .*shared_buffers'
check "nothing is left running or on disk" no_data_left
mkdir -p "$T/bin"
ln -sf "$(command -v redis-server)" "$T/bin/redis-server"
lvt() { env PATH="$T/bin" "$VMTUNE" --state-dir "$STATE" "$@" >"$T/out" 2>"$T/err"; RC=$?; }
lvt run -w 'redis:-t get -n 100 -r 100' -n 1
check "a tool that is not installed is refused ($RC)" test "$RC" = 2
check "naming its Debian package" err_has "redis: the program 'redis-benchmark' is not installed \\(Debian's redis-server, redis-tools"
lvt() { V "$@" >"$T/out" 2>"$T/err"; RC=$?; }
lexpect 0 "exec: with a regex that finds nothing" run -w 'exec:echo done' --metric-regex 'x=took ([0-9.]+)' -n 1 --no-settle
check "says what did not match" err_has 'completed, but its numbers could not be read: x: the output does not match /took \(\[0-9\.\]\+\)/'
lexpect 3 "a search whose exec: metric never matches stops at the original" search -w 'exec:echo done' \
	--metric-regex 'x=took ([0-9.]+)' --knobs vm.swappiness --trials 3 --settle none -o "$T/none.yaml"
check "naming the rule" err_has 'x: the output does not match'
as_before "error paths"

# the services mix (workloads/mixes/services.yaml) once: each server in its 256M cgroup
# under pressure, each metric read, the probe playing beside each, nothing left after
lexpect 0 "the services mix once: Redis, pgbench and a buffered fio read, the probe beside each" run --json \
	--mix "$TOP/workloads/mixes/services.yaml" -n 1 --warmup 0
jv() { jq -r "$1" "$T/out" 2>/dev/null; }
check "Redis's requests/s are read ($(jv '.workloads[0].per_run[0].results.rps'))" \
	positive "$(jv '.workloads[0].per_run[0].results.rps')"
check "pgbench's TPS ($(jv '.workloads[1].per_run[0].results.tps'))" positive "$(jv '.workloads[1].per_run[0].results.tps')"
check "fio's IOPS ($(jv '.workloads[2].per_run[0].results.iops'))" positive "$(jv '.workloads[2].per_run[0].results.iops')"
check "the probe played beside each of the three" \
	test "$(jv '[.workloads[].per_run[0].probe.played | select(. > 0)] | length')" = 3
check "the servers swapped ($(jv '[.workloads[0,1].per_run[0].results["sys.so_pages"]] | add') pages out)" \
	positive "$(jv '[.workloads[0,1].per_run[0].results["sys.so_pages"]] | add')"
check "each one's footprint reached 90% of its 256M cgroup ($(jv '[.workloads[].per_run[0].results["sys.peak_kb"] / 1024 | floor] | join(", ")') MiB)" \
	test "$(jv '[.workloads[].per_run[0].results["sys.peak_kb"] | select(. >= 0.9 * 262144)] | length')" = 3
check "no server and no data are left" no_data_left
as_before "the services mix"

# a search of Redis: the keyspace is built once for the whole search
lexpect 0 "a 3-trial search of swappiness for Redis" search -w 'redis:-t get -n 20000 -r 150000 -d 1000 -c 4' \
	--metric p99_ms --knobs vm.swappiness --trials 3 --race-rounds 0 --finalists 1 --memory-limit 128M --swap 512M \
	-o "$T/redis.yaml"
sed -n '/^CHANGED KNOB/,$p' "$T/out" | sed 's/^/# /'
check "its keyspace was built once for every run of the search" \
	test "$(grep -c 'redis: building its data once' "$T/err")" = 1
check "scored by p99_ms, lower is better" grep -q 'p99_ms' "$T/redis.yaml"
decision_agrees "the Redis search" "$T/redis.yaml"
check "no server and no data are left" no_data_left
as_before "Redis search"

# kill -9 of a Redis search in its trials, vmtune restore, then --resume: the run goes on
# from its stored trials with a keyspace built again (the first went with the restore)
"$VMTUNE" --state-dir "$STATE" search -w 'redis:-t get -n 10000 -r 150000 -d 1000 -c 4' --metric p99_ms \
	--knobs vm.swappiness --trials 5 --race-rounds 0 --finalists 1 --memory-limit 128M --swap 512M \
	-o "$T/rr.yaml" >"$T/out" 2>"$T/err" &
pid=$! BG=$!
check "the Redis search is in its trials" wait_for 'grep -q "^trial 3/" "$T/err"'
kill -9 "$pid"
wait "$pid" 2>/dev/null
BG=
rid=$(sqlite3 "$STATE/vmtune.db" "select id from runs order by id desc limit 1")
check "its run is left running in the store (run ${rid:-none})" \
	test "$(sqlite3 "$STATE/vmtune.db" "select status from runs where id = ${rid:-0}")" = running
check "kill -9 of the search: its server dies with it" wait_for '! pgrep -f "redis-server unixsocket:$STATE/" >/dev/null'
lexpect 0 "vmtune restore after it" restore
check "and no server and no data are left" no_data_left
as_before "Redis search and kill -9"
lexpect 0 "search --resume of the killed Redis search" search --resume "${rid:-0}" -o "$T/rr.yaml"
check "it went on from the stored trials" err_has "resuming run ${rid:-0}: [1-9][0-9]* measurements, [1-9][0-9]* trials done"
check "its keyspace was built again, once" test "$(grep -c 'redis: building its data once' "$T/err")" = 1
check "the resumed run is done" test "$(sqlite3 "$STATE/vmtune.db" "select status from runs where id = ${rid:-0}")" = done
decision_agrees "the resumed Redis search" "$T/rr.yaml"
check "no server and no data are left" no_data_left
as_before "Redis search resumed"

done_testing
