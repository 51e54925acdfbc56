#!/usr/bin/env bash
# test-pg.sh - the fleet store: a real PostgreSQL server (Debian's postgresql, started
# here on a socket of its own, no TCP), two searches of two simulated machines writing
# into it at once, and the checks that no trial is lost or duplicated: every workload
# run the scorers saw is a measurement in the store, once. Then export/import between
# PostgreSQL and SQLite, idempotent both ways, and recommend over the shared store.
# The live system must not change.
. "$(dirname "$0")/../lib.sh"

BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
if [ -z "$BIN" ] || [ ! -x "$BIN/initdb" ]; then
	fail "PostgreSQL server binaries not found (make installs Debian's postgresql)"
	done_testing
	exit
fi
LIVE_BEFORE=$(live_snapshot)
PGD=$(mktemp -d /tmp/vmtune-pg-XXXXXX)
PORT=$((20000 + $$ % 20000))
# the server refuses to run as root: as postgres then, or as whoever runs the tests
if [ "$(id -u)" = 0 ]; then
	chown postgres "$PGD"
	as_pg() { runuser -u postgres -- "$@"; }
else
	as_pg() { "$@"; }
fi
pg_stop() {
	as_pg "$BIN/pg_ctl" -D "$PGD/data" -m immediate stop >/dev/null 2>&1
	rm -rf "$PGD" "$T"
}
trap pg_stop EXIT
as_pg "$BIN/initdb" -D "$PGD/data" -U postgres --auth=trust >"$PGD/initdb.log" 2>&1 &&
	as_pg "$BIN/pg_ctl" -D "$PGD/data" -l "$PGD/server.log" -w \
		-o "-k $PGD -c listen_addresses='' -p $PORT -c fsync=off" start >/dev/null 2>&1 &&
	as_pg "$BIN/createdb" -h "$PGD" -p "$PORT" -U postgres vmtune
if ! check "a PostgreSQL server runs on a local socket" test $? = 0; then
	sed 's/^/# /' "$PGD"/*.log
	done_testing
	exit
fi
URL="postgresql:///vmtune?host=$PGD&port=$PORT&user=postgres"
sql() { psql -h "$PGD" -p "$PORT" -U postgres -d vmtune -Atc "$1"; }

KNOBS=vm.page-cluster,vm.swappiness,vm.vfs_cache_pressure
# the scorer, counting its own runs in the machine's tree
cat >"$T/score.sh" <<SH
#!/bin/sh
echo run >>"\$VMTUNE_ROOT/runs.log"
exec "$TOP/tests/search/fleet.sh"
SH
chmod +x "$T/score.sh"
F="exec:$T/score.sh"
for m in "rot8 8 rotational" "zram4 4 zram"; do
	set -- $m
	"$TOP/tests/mkroot.sh" "$T/$1" >/dev/null
	"$TOP/tests/search/mkmachine.sh" "$1" "$2" "$3" >"$T/$1/machine.json"
done

# --- two machines write at once ----------------------------------------------------------
for m in rot8 zram4; do
	"$VMTUNE" -q --machine "$T/$m/machine.json" --root "$T/$m" --db "$URL" search --workload "$F" --metric value \
		--knobs $KNOBS --trials 30 --repeats 2 -o "$T/$m.yaml" >"$T/$m.out" 2>"$T/$m.err" &
	eval "pid_$m=\$!"
done
wait "$pid_rot8"
rc1=$?
wait "$pid_zram4"
rc2=$?
check "two searches into one PostgreSQL at once (exit $rc1 and $rc2)" test "$rc1/$rc2" = 0/0 ||
	sed 's/^/# /' "$T"/*.err
check "both runs are there, done" test "$(sql "select count(*) from runs where status='done'")" = 2
for m in rot8 zram4; do
	run=$(sql "select id from runs where machine like '%\"hostname\":\"$m\"%'")
	seen=$(wc -l <"$T/$m/runs.log")
	stored=$(sql "select count(*) from measurements m join trials t on t.id = m.trial_id where t.run_id = $run")
	check "$m: every workload run but the warm-up is one stored measurement ($seen runs, $stored stored)" \
		test "$seen" = "$((stored + 1))"
	check "$m: trial numbers are unique and without gaps" \
		test "$(sql "select count(*) = count(distinct seq) and max(seq) - min(seq) + 1 = count(*) from trials where run_id = $run")" = t
	check "$m: every trial has its measurement" \
		test "$(sql "select count(*) from trials t where run_id = $run and not exists (select 1 from measurements m where m.trial_id = t.id)")" = 0
	check "$m: every trial is scored" test "$(sql "select count(*) from trials where run_id = $run and score is null")" = 0
done
check "the runs' trials interleaved in time (they really ran at once)" \
	test "$(sql "select count(distinct run_id) from trials where id between (select min(id) from trials) and (select min(id) + 10 from trials)")" = 2

# --- Ctrl-C and --resume against PostgreSQL ----------------------------------------------------
"$VMTUNE" --machine "$T/rot8/machine.json" --root "$T/rot8" --db "$URL" search --workload "exec:sleep 0.1; $T/score.sh" \
	--metric value --knobs $KNOBS --trials 20 -o "$T/r.yaml" >"$T/out" 2>"$T/err" &
pid=$!
for i in $(seq 300); do
	[ "$(sql "select count(*) from trials t join runs r on r.id = t.run_id where r.status = 'running' and t.kind = 'candidate'")" -ge 6 ] && break
	sleep 0.1
done
kill -INT $pid
wait $pid
check "Ctrl-C of a search into PostgreSQL: exit 130" test $? = 130
run=$(sql "select id from runs where status = 'interrupted'")
check "the run is kept as interrupted" test -n "$run"
vt --machine "$T/rot8/machine.json" --root "$T/rot8" --db "$URL" search --resume "$run" -o "$T/r.yaml"
check "--resume from PostgreSQL finishes (exit $RC)" test "$RC" = 0
check "20 distinct settings in all, none lost or repeated" \
	test "$(sql "select count(distinct settings) from trials where run_id = $run and kind in ('baseline', 'candidate')")" = 20
check "trial numbers still unique" test "$(sql "select count(*) = count(distinct seq) from trials where run_id = $run")" = t

# --- moving results ---------------------------------------------------------------------------
total=$(sql "select count(*) from trials")
expect 0 "db export from PostgreSQL" --db "$URL" db export -o "$T/fleet.jsonl"
check "three runs exported" test "$(wc -l <"$T/fleet.jsonl")" = 3
expect 0 "db import into SQLite" --db "$T/fleet.db" db import "$T/fleet.jsonl"
check "every trial arrived" test "$(sqlite3 "$T/fleet.db" 'select count(*) from trials')" = "$total"
expect 0 "db import into PostgreSQL of its own runs" --db "$URL" db import "$T/fleet.jsonl"
check "adds nothing" test "$(sql "select count(*) from runs")/$(sql "select count(*) from trials")" = "3/$total"
expect 0 "db merge of the SQLite copy into another" db merge "$T/m.db" "$T/fleet.db"
expect 0 "and of the same file again" db merge "$T/m.db" "$T/fleet.db"
check "the second merge adds nothing" test "$(sqlite3 "$T/m.db" 'select count(*) from trials')" = "$total"
a=$(sqlite3 "$T/m.db" 'select sum(score), count(score) from trials' | tr '|' ' ')
b=$(sql 'select sum(score), count(score) from trials' | tr '|' ' ')
check "scores survive the round trip ($a vs $b)" awk -v a="$a" -v b="$b" \
	'BEGIN { split(a, x, " "); split(b, y, " "); exit !(x[2] == y[2] && (x[1] - y[1])^2 < 1e-18) }'

# --- the shared store feeds recommend -----------------------------------------------------
"$TOP/tests/mkroot.sh" "$T/rot16" >/dev/null
"$TOP/tests/search/mkmachine.sh" rot16 16 rotational >"$T/rot16/machine.json"
expect 0 "recommend from PostgreSQL" --machine "$T/rot16/machine.json" --root "$T/rot16" --db "$URL" \
	recommend --workload "$F" --json
check "pools both machines" test "$(jq '.machines | length' "$T/out")" = 2
check "page-cluster follows the rotational disk" test "$(jq '.settings["vm.page-cluster"]' "$T/out")" = 5

expect 3 "a server that is not there" --db "postgresql:///vmtune?host=$PGD/none&port=$PORT" db export
check "says it cannot connect" err_has 'cannot connect to postgresql://'

# --- the server goes away mid-search: a clear error, the knobs put back ------------------
KV0=$(knob_values "$T/rot8")
"$VMTUNE" --machine "$T/rot8/machine.json" --root "$T/rot8" --db "$URL" search --workload "exec:sleep 0.2; $T/score.sh" \
	--metric value --knobs $KNOBS --trials 20 -o "$T/gone.yaml" >"$T/out" 2>"$T/err" &
pid=$!
for i in $(seq 300); do
	[ "$(sql "select count(*) from trials t join runs r on r.id = t.run_id where r.status = 'running'")" -ge 4 ] && break
	sleep 0.1
done
as_pg "$BIN/pg_ctl" -D "$PGD/data" -m immediate stop >/dev/null 2>&1
wait $pid
rc=$?
check "the server stopped mid-search: vmtune ends with exit 3 ($rc)" test $rc = 3
check "and says the store failed" err_has 'vmtune: .*(server|connection|terminat)'
check "every knob of the tree is back" test "$(knob_values "$T/rot8")" = "$KV0"
check "its journal is empty" test ! -e "$T/rot8/var/lib/vmtune/journal"
check "no profile was written" test ! -e "$T/gone.yaml"

check "the live system did not change" test "$(live_snapshot)" = "$LIVE_BEFORE"
done_testing
