# lib.sh - TAP helpers for the shell suites. Source it; call done_testing at the end.
T_N=0
T_FAILED=0
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
VMTUNE=${VMTUNE:-$TOP/build/vmtune}
# the simulated workloads whose answers are known (tests/search/sim.c), built beside vmtune
SIM=${SIM:-$(dirname "$VMTUNE")/tests/sim}

pass() { T_N=$((T_N + 1)); echo "ok $T_N - $*"; }
fail() {
	T_N=$((T_N + 1)); T_FAILED=$((T_FAILED + 1)); echo "not ok $T_N - $*"
	[ -s "$T/err" ] && sed "s/^/#   stderr: /" "$T/err" | tail -20
	[ -s "$T/out" ] && sed 's/^/#   stdout: /' "$T/out" | head -20
	return 1 # so that `check ... || ok=0` counts it
}
skip() { T_N=$((T_N + 1)); echo "ok $T_N - $1 # SKIP $2"; }
# skip_live DESCRIPTION REASON: a live or guest check this machine cannot run. CI
# (CI=true, as root) must run them all: there a skip is a failure that says why.
skip_live() {
	if [ "${CI:-}" = true ]; then fail "$1: skipped, and CI=true needs it run: $2"; else skip "$1" "$2"; fi
}

# check DESCRIPTION COMMAND...: pass if the command succeeds
check() { local d=$1; shift; if "$@"; then pass "$d"; else fail "$d"; fi; }

# vt ARGS...: run vmtune, keep stdout/stderr in $T/out, $T/err and the status in $RC
vt() { "$VMTUNE" "$@" >"$T/out" 2>"$T/err"; RC=$?; }

# expect RC DESCRIPTION ARGS...: run vmtune and check its exit status
expect() {
	local want=$1 d=$2; shift 2
	vt "$@"
	if [ "$RC" = "$want" ]; then pass "$d (exit $want)"; else fail "$d: exit $RC, wanted $want"; fi
}

out_has() { grep -qE -- "$1" "$T/out"; }
err_has() { grep -qE -- "$1" "$T/err"; }
out_lacks() { ! grep -qE -- "$1" "$T/out"; }
err_lacks() { ! grep -qE -- "$1" "$T/err"; }

# decision_agrees NAME PROFILE: a search's printed decision ($T/out) and its profile say
# the same, whichever it was: either "with the recommended settings", a finalist
# significantly better, a profile "significant: true" with a negative change whose
# interval excludes 0, and some knob changed; or "nothing beat the original settings",
# no finalist significantly better, "significant: false", and every knob's recommended
# value its original; or "what was shown better breaks a guard": every finalist shown
# better named with the guard it breaks, "significant: false", no knob changed; or
# "what was shown better makes the check workload worse" (--check-workload): a check
# line refusing it, "significant: false", no knob changed. The profile's settings are the table's RECOMMENDED column (but for
# the pseudo-knob swap: a profile records the backend as its machine's swap_backend).
decision_agrees() {
	local name=$1 p=$2 rec kept better refused broken checked worse sig changed table what why=""
	rec=$(grep -cE '^[^ ]+: [0-9.e+-]+ -> [0-9.e+-]+ \(-[0-9.]+%, 95% CI -[0-9.]+% \.\. -[0-9.]+% of the cost, over every look and finalist\) with the recommended settings$' "$T/out")
	kept=$(grep -c '^nothing beat the original settings significantly: keep them' "$T/out")
	better=$(grep -c '^finalist .*, significant: it costs less$' "$T/out")
	refused=$(grep -c '^what was shown better breaks a guard (above): keep the original settings' "$T/out")
	checked=$(grep -c '^what was shown better makes the check workload worse (above): keep the original settings' "$T/out")
	worse=$(grep -cE '^check on .*: (makes it worse|a run failed with the recommended settings): the recommendation is refused' "$T/out")
	broken=$(grep -c '^finalist .* is shown better but breaks a guard: ' "$T/out")
	sig=$(sed -n 's/^  objective: {.* significant: \(true\|false\)}$/\1/p' "$p")
	# the changed knobs: the rows under the table's header, before what was put back
	table=$(sed -n '/^CHANGED KNOB  *ORIGINAL  *RECOMMENDED/,/^(putting it back costs/p' "$T/out" |
		sed '1d;$d' | sed -n '/^[a-z]/p' | sed '/^put back to the original/,$d;/^searched, and left/,$d' |
		grep -vE '^[0-9]+ other knob')
	changed=$(awk '$2 != $3' <<<"$table" | grep -c .)
	if [ "$rec/$kept/$refused/$checked" = 0/0/0/1 ]; then
		# shown better, then refused by --check-workload: the check line says so
		[ "$better" -ge 1 ] || why="$why; no finalist shown better"
		[ "$worse" = 1 ] || why="$why; no check line refusing it"
		[ "$sig" = false ] || why="$why; the profile says significant: ${sig:-nothing}"
		[ "$changed" = 0 ] || why="$why; $changed knob(s) changed"
		what="the original settings kept: what was shown better makes the check workload worse"
	elif [ "$rec/$kept/$refused" = 0/0/1 ]; then
		# shown better, refused for a guard: every finalist shown better breaks one
		[ "$better" -ge 1 ] && [ "$broken" = "$better" ] ||
			why="$why; $better finalist(s) shown better and $broken breaking a guard"
		[ "$sig" = false ] || why="$why; the profile says significant: ${sig:-nothing}"
		[ "$changed" = 0 ] || why="$why; $changed knob(s) changed"
		what="the original settings kept: what was shown better breaks a guard"
	elif [ "$rec/$kept/$checked" = 1/0/0 ]; then
		[ "$better" -ge 1 ] || why="$why; no finalist significantly better"
		[ "$worse" = 0 ] || why="$why; yet a check line refuses it"
		[ "$sig" = true ] || why="$why; the profile says significant: ${sig:-nothing}"
		sed -n 's/^  objective: {.* ci95_pct: \[\([^,]*\), \([^]]*\)\].*/\1 \2/p' "$p" |
			awk '{ exit !($1 < 0 && $2 < 0) }' || why="$why; the profile's interval is not below 0"
		[ "$changed" -ge 1 ] || why="$why; no knob changed"
		what="recommended settings"
	elif [ "$rec/$kept" = 0/1 ]; then
		[ "$better" = 0 ] || why="$why; yet $better finalist(s) significantly better"
		[ "$sig" = false ] || why="$why; the profile says significant: ${sig:-nothing}"
		[ "$changed" = 0 ] || why="$why; $changed knob(s) changed"
		what="the original settings kept"
	else
		why="; $rec recommendation line(s) and $kept keep line(s)"
		what="no decision"
	fi
	grep -q '^CHANGED KNOB  *ORIGINAL  *RECOMMENDED' "$T/out" || why="$why; no knob table"
	[ "$(awk '$1 != "swap" && NF { print "  " $1 ": " $3 }' <<<"$table" | sort)" = "$(sed -n '/^settings:/,/^[a-z]/p' "$p" | grep '^  ' | sort)" ] ||
		why="$why; the profile's settings are not the table's RECOMMENDED column"
	if [ -z "$why" ]; then pass "$name: its decision ($what) and its profile agree"; else
		fail "$name: its decision ($what) and its profile disagree${why}"
		sed 's/^/#   /' "$p"
	fi
}

# A checksum of every file under a tree: contents, modes, names.
# (./var and ./run hold vmtune's state, its journal and its lock, not the system's settings)
tree_sum() { (cd "$1" && find . \( -path ./var -o -path ./run \) -prune -o -print0 | sort -z | xargs -0 stat -c '%n %a %F' ; find . \( -path ./var -o -path ./run \) -prune -o -type f -print0 | sort -z | xargs -0 cat) | md5sum; }

# Every knob's value as vmtune reads it from a --root tree: for comparing a tree
# before and after, where the raw files of sysfs enums cannot be compared (the fake
# tree does not turn "never" back into "always madvise [never]" as the kernel does).
knob_values() { "$VMTUNE" --root "$1" knobs --json | jq -c 'map({(.name): .value}) | add'; }

# render HTML: Chromium (headless) renders a report: its DOM into $T/dom.html, a
# screenshot into $T/shot.png, the network log into $T/net.json
render() {
	local flags=(--headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run --disable-sync
		--disable-background-networking --disable-component-update --disable-default-apps --disable-extensions
		--user-data-dir="$T/chromium")
	rm -f "$T/dom.html" "$T/shot.png" "$T/net.json"
	timeout 120 chromium "${flags[@]}" --log-net-log="$T/net.json" --dump-dom "file://$1" >"$T/dom.html" 2>/dev/null
	timeout 120 chromium "${flags[@]}" --window-size=1100,6000 --screenshot="$T/shot.png" "file://$1" \
		>/dev/null 2>&1
	[ -s "$T/dom.html" ] && [ -s "$T/shot.png" ]
}
report_points() { python3 "$TOP/tests/report-check.py" points "$T/dom.html" "$@" >"$T/check" 2>&1 || { sed "s/^/# /" "$T/check"; false; }; }
report_offline() { python3 "$TOP/tests/report-check.py" requests "$T/net.json" >"$T/check" 2>&1 || { sed "s/^/# /" "$T/check"; false; }; }

done_testing() { echo "1..$T_N"; [ "$T_FAILED" = 0 ]; }

T=$(mktemp -d /tmp/vmtune-test-XXXXXX)
trap 'rm -rf "$T"' EXIT

# What the live kernel looks like to a user of vmtune: every readable vm sysctl,
# the THP/mTHP switches, zswap's parameters, zram0's size and compressor, MGLRU,
# active swap and its priorities, vmtune cgroups, a debugfs mount.
live_snapshot() {
	local f
	for f in /proc/sys/vm/*; do
		[ -f "$f" ] && [ -r "$f" ] && printf '%s=%s\n' "${f##*/}" "$(tr '\n\t' '  ' <"$f" 2>/dev/null)"
	done
	for f in /sys/kernel/mm/transparent_hugepage/enabled /sys/kernel/mm/transparent_hugepage/defrag \
		/sys/kernel/mm/transparent_hugepage/hugepages-*/enabled; do
		[ -r "$f" ] && echo "$f=$(cat "$f")"
	done
	for f in /sys/module/zswap/parameters/* /sys/block/zram0/disksize /sys/block/zram0/comp_algorithm \
		/sys/kernel/mm/lru_gen/enabled /sys/kernel/mm/lru_gen/min_ttl_ms; do
		[ -f "$f" ] && [ -r "$f" ] && echo "$f=$(cat "$f")"
	done
	echo "swaps=$(tail -n +2 /proc/swaps | awk '{print $1, $5}' | tr '\n' ' ')"
	echo "cgroups=$(ls -d /sys/fs/cgroup/memory/vmtune* /sys/fs/cgroup/vmtune* 2>/dev/null | tr '\n' ' ')"
	echo "debugfs=$(grep -c ' /sys/kernel/debug ' /proc/mounts)"
	# the tools' servers and their data (tools.c): none of vmtune's left running or on disk.
	# vmtune's own only (a redis-server whose socket is in a data-redis- dir of a state dir,
	# a postmaster on a /var/tmp/vmtune-pg- data dir), not a server another suite or the
	# machine runs; a process killed and not yet reaped by its parent, a zombie, holds
	# nothing: not counted
	echo "servers=$(ps -e -o stat=,comm=,args= | awk '$1 !~ /^Z/ &&
		(($2 == "redis-server" && /\/data-redis-/) || ($2 == "postgres" && /-D \/var\/tmp\/vmtune-pg-/))' | wc -l)" \
		"pgdata=$(ls -d /var/tmp/vmtune-pg-* 2>/dev/null | tr '\n' ' ')"
}

# For the live suites (root): a state dir of their own, a cleanup that puts back
# whatever a failed test left, and as_before to compare the machine with how it
# was when the suite began.
live_begin() {
	STATE=$(mktemp -d /var/tmp/vmtune-live-XXXXXX)
	BG=
	trap live_cleanup EXIT
	BEFORE=$(live_snapshot)
}
live_cleanup() {
	[ -n "$BG" ] && kill -TERM $BG 2>/dev/null && wait $BG 2>/dev/null
	"$VMTUNE" --state-dir "$STATE" restore >/dev/null 2>&1 # puts back whatever a failed test left
	rm -rf "$T" "$STATE"
}
V() { "$VMTUNE" --state-dir "$STATE" "$@"; }
lvt() { V "$@" >"$T/out" 2>"$T/err"; RC=$?; }
lexpect() {
	local want=$1 d=$2; shift 2
	lvt "$@"
	if [ "$RC" = "$want" ]; then pass "$d (exit $want)"; else fail "$d: exit $RC, wanted $want"; fi
}
as_before() {
	local now
	now=$(live_snapshot)
	if [ "$now" = "$BEFORE" ]; then pass "$1: the machine is as it was"; else
		fail "$1: the machine changed"
		diff <(echo "$BEFORE") <(echo "$now") | sed 's/^/#   /'
	fi
}
