#!/usr/bin/env bash
# test-db.sh - results move between stores: db export/import as JSON lines and
# db merge, both idempotent by run uuid, on stores written by real (fake-tree) searches.
. "$(dirname "$0")/../lib.sh"

R=$T/root
"$TOP/tests/mkroot.sh" "$R"
W="exec:echo value=\$((3 + \$(cat $R/proc/sys/vm/page-cluster)))"
for n in a b; do
	"$VMTUNE" -q --root "$R" search --workload "$W" --metric value --knobs vm.page-cluster --trials 4 --strategy grid \
		--db "$T/$n.db" -o "$T/$n.yaml" >/dev/null 2>&1
done
q() { sqlite3 "$1" "$2"; }
check "each search stored a run with a uuid" test "$(q "$T/a.db" 'select length(uuid) from runs')" = 32

expect 0 "db merge" db merge "$T/out.db" "$T/a.db" "$T/b.db"
check "both runs merged" test "$(q "$T/out.db" 'select count(*) from runs')" = 2
check "every trial merged" test "$(q "$T/out.db" 'select count(*) from trials')" = \
	"$(($(q "$T/a.db" 'select count(*) from trials') + $(q "$T/b.db" 'select count(*) from trials')))"
check "every measurement merged" test "$(q "$T/out.db" 'select count(*) from measurements')" = \
	"$(($(q "$T/a.db" 'select count(*) from measurements') + $(q "$T/b.db" 'select count(*) from measurements')))"
expect 0 "db merge of the same files again" db merge "$T/out.db" "$T/a.db" "$T/b.db"
check "adds nothing" test "$(q "$T/out.db" 'select count(*) from runs')/$(q "$T/out.db" 'select count(*) from trials')" = \
	"2/$(($(q "$T/a.db" 'select count(*) from trials') + $(q "$T/b.db" 'select count(*) from trials')))"
check "and says so" err_has 'merged 0 run\(s\) .* 2 were there already'

expect 0 "db export" --db "$T/a.db" db export -o "$T/a.jsonl"
check "one JSON line per run" test "$(wc -l <"$T/a.jsonl")" = 1
check "the line carries trials with their measurements" \
	test "$(jq '[.trials[].measurements | length] | add' "$T/a.jsonl")" = "$(q "$T/a.db" 'select count(*) from measurements')"
expect 0 "db import" --db "$T/imp.db" db import "$T/a.jsonl"
expect 0 "db import again" --db "$T/imp.db" db import "$T/a.jsonl"
check "import is idempotent" test "$(q "$T/imp.db" 'select count(*) from runs')" = 1
"$VMTUNE" -q --db "$T/imp.db" db export >"$T/again.jsonl"
check "export, import, export gives the same lines" cmp -s "$T/a.jsonl" "$T/again.jsonl"
check "an imported run can be reported on like any" test "$(q "$T/imp.db" "select status from runs")" = done

echo '{"x": 1}' >"$T/bad.jsonl"
expect 2 "importing something else" --db "$T/imp.db" db import "$T/bad.jsonl"
check "names the file and line" err_has "$T/bad\.jsonl:1: not an exported vmtune run"
# found by fuzz_import: a trial whose measurements are not a list made json-c abort
jq -c '.uuid = "0123" | .trials[0].measurements = {"a": 1}' "$T/a.jsonl" >"$T/odd.jsonl"
expect 2 "importing a trial whose measurements are not a list" --db "$T/imp.db" db import "$T/odd.jsonl"
check "names the file, the line and the trial" err_has "$T/odd\.jsonl:1: trial 1 is not an object with a list of measurements"
check "and adds nothing" test "$(sqlite3 "$T/imp.db" 'select count(*) from runs')" = 1
expect 2 "merge from a database that does not exist" db merge "$T/out.db" "$T/nonexistent.db"
expect 2 "unknown subcommand" db frobnicate
done_testing
