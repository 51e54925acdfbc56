#!/usr/bin/env bash
# test-report.sh - vmtune runs and vmtune report on a fake --root tree: the terminal
# and JSON report of a stored run, and the HTML page rendered by headless Chromium
# (every chart's plotted points counted against the store, no network request, a
# screenshot): a run with a probe and failed trials, one without a probe, and an
# interrupted one; hostile text from the store escaped. The live system must not change.
. "$(dirname "$0")/../lib.sh"

R=$T/root
"$TOP/tests/mkroot.sh" "$R"
LIVE_BEFORE=$(live_snapshot)
DB=$T/s.db

expect 0 "runs on a store that does not exist yet" --db "$DB" runs
check "says so" out_has 'no runs: .* does not exist yet'
expect 2 "report with no store" --db "$DB" report
check "names the store" err_has "no results store $DB"

# 1: no probe, quick (a known quadratic in the knob files)
vt --root "$R" --db "$DB" search --workload "exec:$TOP/tests/search/quadratic.sh $R" --metric value \
	--knobs vm.page-cluster,vm.swappiness,thp.enabled --trials 10 -o "$T/p1.yaml"
check "a search without a probe (exit $RC)" test "$RC" = 0
# 2: a probe, a failing region (page-cluster 0 fails), runs over a second (the series),
#    and a spec that carries markup
W="exec:sleep 1.05; pc=\$(cat $R/proc/sys/vm/page-cluster); [ \$pc = 0 ] && exit 1; n=\$((\$(cat $R/run/n 2>/dev/null || echo 0) + 1)); echo \$n >$R/run/n; awk -v p=\$pc -v n=\$n 'BEGIN { srand(n); printf \"value=%.4f\\n\", 10 + (p - 4) * (p - 4) + 0.2 * (rand() - 0.5) }'; : '<b>x</b>'"
vt --root "$R" --db "$DB" search --workload "$W" --metric value --knobs vm.page-cluster --trials 7 \
	--strategy grid --race-rounds 0 --confirm-rounds 3 --probe "sputter -p 10ms -B 100ms -s 4M" -o "$T/p2.yaml"
check "a search with a probe and a failing setting (exit $RC)" test "$RC" = 0
check "it recommends page-cluster 4" grep -q '^  vm.page-cluster: 4$' "$T/p2.yaml"
check "one of its trials failed" test "$(sqlite3 "$DB" "select count(*) from trials where run_id=2 and failed=1")" -ge 1
# 3: interrupted
timeout -s INT 4 "$VMTUNE" --root "$R" --db "$DB" search --workload "exec:sleep 0.5; echo value=1" \
	--metric value --knobs vm.page-cluster --trials 20 -o "$T/p3.yaml" >"$T/out" 2>"$T/err"
check "the third search was interrupted (exit $?)" test "$(sqlite3 "$DB" "select status from runs where id=3")" = interrupted

expect 0 "runs lists the store" --db "$DB" runs
check "newest first" test "$(awk 'NR > 1 {print $1}' "$T/out" | tr '\n' ' ')" = "3 2 1 "
check "with status and decision" out_has '^1 +[0-9T:-]+Z +done +[0-9]+ +[^ ]+ +-[0-9.]+% \(-[0-9.]+ \.\. -[0-9.]+\) +exec:'
check "and the interrupted one" out_has '^3 +[0-9T:-]+Z +interrupted '
expect 0 "runs --json" --db "$DB" runs --json
check "is a JSON list of the three runs" test "$(jq -r 'map(.run) | join(",")' "$T/out")" = "3,2,1"

expect 0 "report without an argument: the latest run" --db "$DB" report
check "is run 3" out_has '^run 3 \([0-9a-f]+\): interrupted$'
check "with no decision, and says why" out_has '^decision: none: the run is interrupted'
expect 0 "report 1" --db "$DB" report 1
check "names the workload and the knobs, with each one's sensitivity and its band" \
	out_has '^(vm\.swappiness +60 +[0-9]+ +.*|  vm\.swappiness +60 +10\.\.200 +sensitivity )([0-9.]+% \(-?[0-9.]+ \.\. [0-9.]+%\)|none found \(under [0-9.]+%\))$'
check "and the changed knob with what putting it back costs" \
	out_has '^vm\.page-cluster +3 +[0-9]+ +\+[0-9.]+% \(\+?-?[0-9.]+ \.\. \+[0-9.]+%\) +'
check "gives the decision and its interval" out_has '^decision: significant: -[0-9.]+% of the cost \(95% CI -[0-9.]+% \.\. -[0-9.]+%'
check "and the seeds' blocks for both sides" out_has '^Averages for [0-9]+ exec:.* runs, recommended settings$'
check "counting the trials" out_has '^trials: 10 settings tried in [0-9]+ measurements'
check "and what the baselines say of drift, with the test's p" \
	out_has '^drift: (none shown by the [0-9]+ runs of the original settings|the original settings. level moved [-+][0-9.]+% from the first of their [0-9]+ runs to the last).* p = [0-9.e-]+; noise [0-9.]+% per run\)'
UUID=$(sqlite3 "$DB" "select uuid from runs where id=2")
expect 0 "report by uuid" --db "$DB" report "$UUID"
check "finds run 2" out_has "^run 2 \\($UUID\\)"
check "which names its probe" out_has '^probe: sputter -p 10ms -B 100ms -s 4M \(objective throughput\)$'
check "and its failed trials" out_has '^trials: [0-9]+ settings tried in [0-9]+ measurements \([0-9]+ runs of the workloads\), [1-9][0-9]* failed$'
expect 0 "report --json" --db "$DB" report 1 --json
check "is JSON with the knobs and the decision" \
	test "$(jq -r '[.run, (.knobs | length), .significant] | join(" ")' "$T/out")" = "1 3 true"
expect 2 "report of a run that is not there" --db "$DB" report 99
check "says so" err_has "holds no run 99 \\(see 'vmtune runs'\\)"
expect 2 "report of a uuid that is not there" --db "$DB" report "abc<def>"
check "escapes what it echoes" err_has "holds no run 'abc<def>'"

# a profile names the run it came from: report PROFILE shows it, --html draws it
UUID1=$(sqlite3 "$DB" "select uuid from runs where id=1")
check "the search's profile names its run" grep -qx "  run: $UUID1" "$T/p1.yaml"
expect 0 "report PROFILE" report "$T/p1.yaml"
check "says which run it came from" out_has "^run: $UUID1 in the results store it was searched with"
expect 0 "report PROFILE --html" --db "$DB" report "$T/p1.yaml" --html "$T/p1.html"
expect 0 "report 1 --html" --db "$DB" report 1 --html "$T/r1-again.html"
check "is the page of its run" cmp "$T/p1.html" "$T/r1-again.html"
sed '/^  run: /d' "$T/p1.yaml" >"$T/norun.yaml"
expect 2 "report --html of a profile that names no run" --db "$DB" report "$T/norun.yaml" --html "$T/x.html"
check "says so and the way out" err_has "norun.yaml does not name the run it came from .*name the run \\(vmtune runs\\)"
check "and writes nothing" test ! -e "$T/x.html"
sed 's/^  run: .*/  run: "..\/..\/etc"/' "$T/p1.yaml" >"$T/badrun.yaml"
expect 2 "a profile whose run is not a uuid" report "$T/badrun.yaml"
check "is refused with FILE:LINE:COLUMN" err_has "badrun.yaml:[0-9]+:[0-9]+: run must be a run's uuid"
expect 2 "report --html of a profile whose run is not in the store" --db "$T/other.db" report "$T/p1.yaml" --html "$T/x.html"

# --- the HTML pages --------------------------------------------------------------------
for run in 1 2 3; do
	expect 0 "report $run --html" --db "$DB" report $run --html "$T/r$run.html"
	check "run $run: one file, no scratch left" test -s "$T/r$run.html" -a ! -e "$T/r$run.html.tmp"
	check "run $run: self-contained (no script, no external reference)" \
		sh -c "! grep -qiE '<script|<link|src=\"https?:|href=\"https?:|@import|url\\(https?:' '$T/r$run.html'"
	check "run $run: Chromium renders it" render "$T/r$run.html"
	check "run $run: every chart's points match the store" report_points "$DB" $run
	check "run $run: the page asks nothing of the network" report_offline
	cp "$T/shot.png" "$T/shot$run.png"
done
python3 "$TOP/tests/report-check.py" points "$T/dom.html" "$DB" 3 >"$T/check3"
render "$T/r1.html"
python3 "$TOP/tests/report-check.py" points "$T/dom.html" "$DB" 1 >"$T/check1"
check "run 1 draws the trials, each knob and the confirmation" \
	test "$(grep -cE '^chart-(trials: trial|knob-[123]: measured|confirm: (original|recommended)): [1-9][0-9]* drawn' "$T/check1")" = 6
check "run 1 has no probe and the page says so" grep -q 'This run had no interactivity probe' "$T/r1.html"
render "$T/r2.html"
cp "$T/dom.html" "$T/dom2.html" # run 2's rendered page, for the point count's own test below
python3 "$TOP/tests/report-check.py" points "$T/dom.html" "$DB" 2 >"$T/check2"
check "run 2 marks its failed trials" grep -qE '^chart-trials: failed: [1-9][0-9]* drawn' "$T/check2"
check "run 2 draws the probe's trade-off and lateness" \
	test "$(grep -cE '^chart-(probe: (setting tried|not dominated)|lateness: (original|recommended)): [1-9][0-9]* drawn' "$T/check2")" = 4
check "run 2 draws the vmstat/PSI series of both sides (runs over a second: two points or more)" \
	test "$(grep -cE '^chart-series: (si|so|PSI some|free): ([2-9]|[1-9][0-9]+) drawn' "$T/check2")" = 8
check "run 2's spec is escaped on the page" grep -q "&lt;b&gt;x&lt;/b&gt;" "$T/r2.html"
check "and never there as markup" sh -c "! grep -q '<b>x</b>' '$T/r2.html'"
check "run 3 (interrupted) says nothing was confirmed" grep -q 'The run did not finish: nothing was confirmed' "$T/r3.html"
check "run 3's header says it was interrupted" grep -q 'none: the run is interrupted' "$T/r3.html"
check "run 3 still draws its trials" grep -qE '^chart-trials: trial: [1-9][0-9]* drawn' "$T/check3"
# the network check can fail: a page that loads an image from elsewhere is caught, by
# the request it made (not by a network log that is missing or unreadable)
printf '<html><body><img src="http://198.51.100.7/x.png"></body></html>\n' >"$T/bad.html"
render "$T/bad.html"
python3 "$TOP/tests/report-check.py" requests "$T/net.json" >"$T/check-bad" 2>&1
RC=$?
check "a page that asks the network is caught by the same check (exit $RC), naming the request" \
	eval 'test "$RC" = 1 && grep -qx "REQUEST: http://198.51.100.7/x.png" "$T/check-bad"'
# and the point count can fail: run 2's page with one point glyph cut out is caught
# (its own page, kept before the page above was rendered over it)
sed '0,/<use xlink:href="#c1_gpPt6"[^>]*><\/use>/s///' "$T/dom2.html" >"$T/dom-cut.html"
check "the cut page lacks exactly one point glyph of run 2's" test "$(grep -o 'href="#c1_gpPt6"' "$T/dom2.html" | wc -l)" = \
	"$(($(grep -o 'href="#c1_gpPt6"' "$T/dom-cut.html" | wc -l) + 1))"
python3 "$TOP/tests/report-check.py" points "$T/dom-cut.html" "$DB" 2 >"$T/check-cut" 2>&1
RC=$?
check "a chart missing a point is caught (exit $RC), as a count of glyphs" \
	eval 'test "$RC" = 1 && grep -q "MISMATCH: chart-[a-z0-9-]*: .*: [0-9]* glyphs for [0-9]* points" "$T/check-cut"'

# the series travel with db export and import; a damaged one is refused by line
expect 0 "db export of the three runs" --db "$DB" db export -o "$T/e.jsonl"
expect 0 "db import into a new store" --db "$T/i.db" db import "$T/e.jsonl"
check "every series came along" test "$(sqlite3 "$T/i.db" 'select count(*), sum(length(samples)) from series')" = \
	"$(sqlite3 "$DB" 'select count(*), sum(length(samples)) from series')"
check "the imported run reports the same" \
	diff <("$VMTUNE" --db "$DB" report 2 --json | jq -S 'del(.run)') <("$VMTUNE" --db "$T/i.db" report 2 --json | jq -S 'del(.run)')
sed '1s/"series":\[\[/"series":[["x",/' "$T/e.jsonl" >"$T/bad.jsonl"
expect 2 "a series that is not numbers is refused" --db "$T/j.db" db import "$T/bad.jsonl"
check "naming the line, trial and measurement" err_has "bad\.jsonl:1: trial [0-9]+, measurement [0-9]+: series is not a list"

PATH=/nonexistent "$VMTUNE" --db "$DB" report 1 --html "$T/ng.html" >"$T/out" 2>"$T/err"
RC=$?
check "without gnuplot: exit 3 (got $RC)" test "$RC" = 3
check "with the way out" err_has 'gnuplot is not installed.*apt-get install gnuplot-nox'
check "and no page left behind" test ! -e "$T/ng.html" -a ! -e "$T/ng.html.tmp"

# --- the progress line: in place on a terminal, plain lines otherwise, no escapes with NO_COLOR
RUNW="exec:sleep 0.2; echo value=1"
script -qec "'$VMTUNE' --root '$R' run --workload '$RUNW' --runs 3 --warmup 0 >/dev/null" /dev/null >"$T/tty" 2>&1
check "run on a terminal: one line redrawn in place" \
	test "$(grep -oE $'\r\e\\[Kvmtune: exec run [0-9]/3: completed, [0-9.]+ s elapsed, [0-9]+ major faults?; best [0-9.]+ s, ETA [0-9]+s' "$T/tty" | wc -l)" = 3
NO_COLOR=1 script -qec "'$VMTUNE' --root '$R' run --workload '$RUNW' --runs 3 --warmup 0 >/dev/null" /dev/null >"$T/tty" 2>&1
check "with NO_COLOR: plain lines, no escape sequence" sh -c "! grep -q $'\e' '$T/tty' && test \$(grep -c 'run [0-9]/3: .*best .*ETA' '$T/tty') = 3"
TERM=dumb script -qec "'$VMTUNE' --root '$R' run --workload '$RUNW' --runs 3 --warmup 0 >/dev/null" /dev/null >"$T/tty" 2>&1
check "with TERM=dumb: no escape sequence either" sh -c "! grep -q $'\e' '$T/tty'"
"$VMTUNE" --root "$R" run --workload "$RUNW" --runs 3 --warmup 0 >/dev/null 2>"$T/err"
check "piped: a plain line per run" test "$(grep -c '^vmtune: exec run [0-9]/3: .*; best [0-9.]* s, ETA ' "$T/err")" = 3
check "and no escape sequence" sh -c "! grep -q $'\e' '$T/err'"
script -qec "'$VMTUNE' --root '$R' --db '$T/tty.db' search --workload 'exec:$TOP/tests/search/quadratic.sh $R' --metric value --knobs vm.page-cluster --trials 4 -o '$T/tty.yaml'" /dev/null >"$T/tty" 2>&1
check "search on a terminal: the bar, the best and the ETA redrawn in place" \
	grep -qE $'\r\e\\[K\\[[#.]{20}\\] trial [0-9]+/4 .*best [0-9.]+, ETA ' "$T/tty"
check "the line is cleared before the next message" grep -qE $'\r\e\\[Kvmtune: confirming [0-9]+ finalist' "$T/tty"
check "and the table starts on a line of its own" grep -q $'^CHANGED KNOB  *ORIGINAL  *RECOMMENDED' "$T/tty"

check "the live system is unchanged" test "$(live_snapshot)" = "$LIVE_BEFORE"
done_testing
