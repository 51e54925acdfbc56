#!/usr/bin/env bash
# test-hostile.sh - what a hostile or damaged file can make vmtune do: strings with
# control characters are refused where they are read (FILE:LINE:COLUMN); one-line
# strings full of shell, INI and sysctl syntax go through every export format and
# every terminal output, and each output is parsed back by its consumer (sysctl -p
# and systemd-tmpfiles on a scratch tree, sh, jq, PyYAML and vmtune's own loader; the
# tuned export by Python's configparser set up as tuned's loader sets it up, a stand-in:
# tuned itself is not installed, its daemon would retune the machine) to exactly the
# profile's settings and nothing else; journals naming what vmtune never makes are
# refused; fingerprints and stored runs with control characters are refused; a
# workload's hostile output is stored as valid JSON. The live system must not change.
. "$(dirname "$0")/../lib.sh"

R=$T/root
"$TOP/tests/mkroot.sh" "$R"
S=$R/var/lib/vmtune
LIVE_BEFORE=$(live_snapshot)
PY=/usr/bin/python3
ctl() { LC_ALL=C grep -qP '[\x00-\x08\x0b-\x1f\x7f]' "$@"; }

# --- control characters are refused where a file is read ---------------------------
badp() { # NAME LINE:COL YAML
	printf "$3" >"$T/bad.yaml"
	vt --root "$R" report "$T/bad.yaml"
	if [ "$RC" = 2 ] && err_has "$T/bad.yaml:$2: .*control character" && ! ctl "$T/err"; then
		pass "refused at load: $1 ($2)"
	else
		fail "refused at load: $1: exit $RC, wanted 2 with $T/bad.yaml:$2 and no control character on the terminal"
	fi
}
badp "a newline in description" 2:14 'vmtune: 1\ndescription: "a\\nkernel.core_pattern = |/tmp/evil"\nsettings: {}\n'
badp "an escape sequence in name" 2:7 'vmtune: 1\nname: "\\e[2J\\e]0;owned\\a"\nsettings: {}\n'
badp "a carriage return in the evidence's workload" 4:13 \
	'vmtune: 1\nsettings: {}\nevidence:\n  workload: "mtest01\\rrm -rf /"\n'
badp "a newline in a key" 3:1 'vmtune: 1\nsettings: {}\n"x\\ny": 1\n'
badp "a tab in the machine's hostname" 3:21 'vmtune: 1\nsettings: {}\nmachine: {hostname: "a\\tb"}\n'
printf 'vmtune-mix: 1\nname: "x\\u001b[31m"\nworkloads: [mtest01]\n' >"$T/bad-mix.yaml"
vt --root "$R" search --dry-run --mix "$T/bad-mix.yaml"
check "a mix with an escape sequence in its name is refused at 2:7" \
	eval '[ "$RC" = 2 ] && err_has "bad-mix.yaml:2:7: .*control character" && ! ctl "$T/err"'

# --- one-line hostile text through every export format -------------------------------
H='x % y #z '"'"'q'"'"' "d" $(touch '"$T"'/PWNED) `touch '"$T"'/PWNED2` ; \\ kernel.core_pattern = |/tmp/evil [sysctl] w /etc/x'
HS='#x % $(touch '"$T"'/PWNED3) ;y' # for the shorter fields
P=$T/hostile.yaml
# JSON is YAML: jq writes the strings with whatever escaping they need
jq -n --arg h "$H" --arg s "$HS" '{vmtune: 1, name: ("n " + $s), description: $h,
	machine: {hostname: ("h " + $h), kernel: ("k " + $s)},
	settings: {"vm.page-cluster": 2, "vm.swappiness": 30, "vm.dirty_ratio": 15, "thp.enabled": "never",
		"mthp.anon_max_order": 3, "prefault.max_order": 2},
	evidence: {workload: ("exec:echo " + $h), trials: 4,
		objective: {metric: ("m " + $s), direction: "min", baseline: 2, best: 1, change_pct: -50,
			ci95_pct: [-60, -40], significant: true}}}' >"$P"
expect 0 "a profile with hostile one-line text loads" --root "$R" report "$P"
check "report: no control character reaches the terminal" eval '! ctl "$T/out" "$T/err"'
expect 0 "report --json" --root "$R" report --json "$P"
check "report --json: the description round-trips exactly" \
	test "$(jq -r .description "$T/out")" = "$H"
expect 0 "apply --dry-run" --root "$R" apply --dry-run "$P"
check "apply --dry-run: no control character reaches the terminal" eval '! ctl "$T/out" "$T/err"'
# what the profile says, as path=value on the target system
want=$T/want
{
	echo "/proc/sys/vm/page-cluster=2"
	echo "/proc/sys/vm/swappiness=30"
	echo "/proc/sys/vm/dirty_ratio=15"
	echo "/sys/kernel/mm/transparent_hugepage/enabled=never"
	for kb in 16 32 64 128 256 512 1024; do
		[ $kb -le 32 ] && v=always || v=never
		echo "/sys/kernel/mm/transparent_hugepage/hugepages-${kb}kB/enabled=$v"
	done
	echo "/sys/kernel/debug/fault_around_bytes=16384"
} | sort >"$want"
sysctls() { grep '^/proc/sys/' "$want" | sed 's|^/proc/sys/||; s|/|.|g; s|=| = |'; }

# sysctl.d: the real sysctl -p, in a mount namespace whose /proc/sys is a scratch tree
expect 0 "export --format sysctl" --root "$R" export --format sysctl -o "$T/x.conf" "$P"
scratch=$T/sysctl-scratch
mkdir -p "$scratch/vm" "$scratch/kernel"
for k in page-cluster swappiness dirty_ratio; do echo 0 >"$scratch/vm/$k"; done
echo core >"$scratch/kernel/core_pattern"
if [ "$(id -u)" = 0 ]; then
	unshare -m sh -c "mount --bind '$scratch' /proc/sys && sysctl -q -p '$T/x.conf'" >"$T/sysctl.out" 2>&1
	check "sysctl -p reads the export without an error" test $? = 0
	check "sysctl -p set exactly the profile's sysctls" test "$(for k in page-cluster swappiness dirty_ratio; do
		echo "vm.$k = $(cat "$scratch/vm/$k")"; done | sort)" = "$(sysctls | sort)"
	check "and wrote nothing else (kernel.core_pattern untouched)" test "$(cat "$scratch/kernel/core_pattern")" = core
else
	skip "sysctl -p on a scratch /proc/sys" "needs root for a mount namespace"
fi
check "sysctl export: every line is a comment or a catalogue sysctl" \
	test -z "$(grep -vE '^(#.*|)$' "$T/x.conf" | grep -vxE 'vm\.(page-cluster|swappiness|dirty_ratio) = [0-9]+')"

# tmpfiles.d: systemd-tmpfiles --root on a scratch tree
expect 0 "export --format tmpfiles" --root "$R" export --format tmpfiles -o "$T/x.tmpfiles" "$P"
T2=$T/tmpfiles-root
"$TOP/tests/mkroot.sh" "$T2"
# w writes without truncating (sysfs replaces the value; a scratch file would keep the tail)
for f in $(grep '^/sys/' "$want" | cut -d= -f1); do : >"$T2$f"; done
systemd-tmpfiles --root="$T2" --create "$T/x.tmpfiles" >"$T/tmpfiles.out" 2>&1
check "systemd-tmpfiles reads the export without an error" eval '! grep -qi "ignoring\|failed\|invalid" "$T/tmpfiles.out"'
got=$(for f in $(grep '^/sys/' "$want" | cut -d= -f1); do
	v=$(cat "$T2$f"); case $v in *\[*) v=${v#*[}; v=${v%%]*} ;; esac
	echo "$f=$v"
done)
check "systemd-tmpfiles wrote the profile's sysfs values" test "$got" = "$(grep '^/sys/' "$want")"
check "tmpfiles export: every line is a comment or a w line of a catalogue file" \
	test -z "$(grep -vE '^(#.*|)$' "$T/x.tmpfiles" | grep -vE '^w /sys/kernel/(mm/transparent_hugepage/[A-Za-z0-9-]+(/enabled)?|debug/fault_around_bytes) - - - - [a-z0-9]+$')"

# tuned: the INI as tuned reads it (configparser, '=' only, '#' inline comments, interpolation)
expect 0 "export --format tuned" --root "$R" export --format tuned -o "$T/tuned.conf" "$P"
$PY - "$T/tuned.conf" >"$T/tuned.txt" 2>"$T/tuned.err" <<'PYEOF'
import configparser, sys
c = configparser.ConfigParser(delimiters=('=',), inline_comment_prefixes=('#',), strict=False)
c.optionxform = str
c.read(sys.argv[1])
print("sections=" + ",".join(c.sections()))
print("summary=" + c.get("main", "summary"))
for s in ("sysctl", "sysfs"):
    for k, v in c.items(s):
        print("%s:%s=%s" % (s, k, v))
PYEOF
check "tuned's parser reads the export" test $? = 0
check "tuned: three sections" grep -qx 'sections=main,sysctl,sysfs' "$T/tuned.txt"
check "tuned: the summary is one value, without its comment sign" \
	test "$(sed -n 's/^summary=//p' "$T/tuned.txt")" = "$(printf '%s' "$H" | tr -d '#' | sed 's/\\/\\\\/g')"
check "tuned: [sysctl] holds exactly the profile's sysctls" \
	test "$(grep '^sysctl:' "$T/tuned.txt" | sed 's/^sysctl://; s/=/ = /' | sort)" = "$(sysctls | sort)"
check "tuned: [sysfs] holds exactly the profile's sysfs files" \
	test "$(grep '^sysfs:' "$T/tuned.txt" | sed 's/^sysfs://' | sort)" = "$(grep '^/sys/' "$want" | sort)"

# sh: sh -n, then run it where /proc/sys/vm and the THP directory are scratch copies
expect 0 "export --format sh" --root "$R" export --format sh -o "$T/x.sh" "$P"
check "sh -n parses the script" sh -n "$T/x.sh"
if [ "$(id -u)" = 0 ]; then
	T3=$T/sh-root
	"$TOP/tests/mkroot.sh" "$T3"
	unshare -m sh -c "mount --bind '$T3/proc/sys/vm' /proc/sys/vm &&
		mount --bind '$T3/sys/kernel/mm/transparent_hugepage' /sys/kernel/mm/transparent_hugepage &&
		mkdir -p '$T3/dbg' && mount -t tmpfs none /sys/kernel/debug && cp '$T3/sys/kernel/debug/fault_around_bytes' /sys/kernel/debug/ &&
		sh '$T/x.sh' && cat /sys/kernel/debug/fault_around_bytes >'$T3/far'" >"$T/sh.out" 2>&1
	check "the script runs" test $? = 0
	check "the script ran no command from the profile's text" test ! -e "$T/PWNED" -a ! -e "$T/PWNED2"
	got=$(for f in $(cut -d= -f1 "$want"); do
		case $f in
		/proc/*) v=$(cat "$T3$f") ;;
		*/fault_around_bytes) v=$(cat "$T3/far") ;;
		*) v=$(cat "$T3$f"); case $v in *\[*) v=${v#*[}; v=${v%%]*} ;; esac ;;
		esac
		echo "$f=$v"
	done | sort)
	check "the script set exactly the profile's values" test "$got" = "$(cat "$want")"
	check "and prints how to undo them" grep -q "^# to undo:" "$T/sh.out"
else
	skip "the sh export run on scratch files" "needs root for a mount namespace"
fi

# json and yaml: parsed back, the strings intact
expect 0 "export --format json" --root "$R" export --format json -o "$T/x.json" "$P"
check "json: jq reads it, the description is the profile's" test "$(jq -r .description "$T/x.json")" = "$H"
check "json: exactly the profile's settings" \
	test "$(jq -c .settings "$T/x.json")" = '{"vm.page-cluster":2,"vm.swappiness":30,"vm.dirty_ratio":15,"thp.enabled":"never","mthp.anon_max_order":3,"prefault.max_order":2}'
expect 0 "export --format yaml" --root "$R" export --format yaml -o "$T/x.yaml" "$P"
check "yaml: PyYAML reads the description back exactly" \
	test "$($PY -c 'import sys, yaml; print(yaml.safe_load(open(sys.argv[1]))["description"])' "$T/x.yaml")" = "$H"
expect 0 "yaml: vmtune loads its own export" --root "$R" report --json "$T/x.yaml"
check "yaml: the same settings" test "$(jq -c .settings "$T/out")" = "$(jq -c .settings "$T/x.json")"
check "no export ran a command from the text" test ! -e "$T/PWNED" -a ! -e "$T/PWNED2" -a ! -e "$T/PWNED3"

# --- journals that name what vmtune never makes --------------------------------------
victim=$S/victim
mkdir -p "$S"
echo keep >"$victim"
badj() { # NAME ENTRY
	printf '# vmtune journal v1: kind mode pid name path value\n%s\n' "$2" >"$S/journal"
	vt --root "$R" restore
	if [ "$RC" != 0 ] && err_has "left alone|which is not its file|names nothing" && [ "$(cat "$victim")" = keep ] &&
		grep -qF -- "$(printf '%s' "$2" | cut -f5)" "$S/journal"; then
		pass "hostile journal refused and kept: $1"
	else
		fail "hostile journal: $1: exit $RC, victim '$(cat "$victim" 2>/dev/null)'"
	fi
	rm -f "$S/journal"
}
badj "a swapfile that is not one vmtune made" "$(printf 'swapfile\tT\t1\t-\t%s\t' "$victim")"
badj "a swapfile path climbing out of the state dir" "$(printf 'swapfile\tT\t1\t-\t%s/swapfile-1/../victim\t' "$S")"
badj "the memory controller's root as a cgroup" "$(printf 'cgroup\tT\t1\t-\t/sys/fs/cgroup/memory\t')"
badj "a system cgroup" "$(printf 'cgroup\tT\t1\t-\t/sys/fs/cgroup/memory/system.slice\t')"
badj "a cgroup path climbing out" "$(printf 'cgroup\tT\t1\t-\t/sys/fs/cgroup/memory/vmtune-1-0/../../x\t')"
badj "a knob entry naming another file" "$(printf 'knob\tK\t1\tvm.swappiness\t%s\tpwned' "$victim")"
badj "an unknown kind" "$(printf 'exec\tT\t1\t-\t%s\t' "$victim")"

# --- fingerprints and stored runs from elsewhere --------------------------------------
vt machine --json
cp "$T/out" "$T/machine.json"
jq '.hostname = "evil\u001b]0;x\u0007\nhost"' "$T/machine.json" >"$T/evil-machine.json"
vt --root "$R" --machine "$T/evil-machine.json" machine
check "a --machine fingerprint with control characters is refused" eval '[ "$RC" = 2 ] && ! ctl "$T/err"'
jq '.hostname = "../../etc/cron.d/x"' "$T/machine.json" >"$T/climb-machine.json"
DB=$T/h.db
expect 0 "a search under --root with a hostname that climbs" --root "$R" --db "$DB" \
	--machine "$T/climb-machine.json" search --workload "exec:true" --knobs vm.page-cluster --trials 2 \
	--confirm-rounds 2
check "its default profile stays in the state dir" eval 'ls "$S"/profiles/*.yaml >/dev/null 2>&1 && test ! -e "$R/etc/cron.d"'

# a workload that prints many long name=value lines, nan and inf: valid JSON in the store
long=$(printf 'n%.0s' $(seq 40))
cat >"$T/noisy.sh" <<EOF
#!/bin/sh
echo 'nan_value=nan'
echo 'inf_value=inf'
i=0
while [ \$i -lt 100 ]; do echo "${long}_\$i=123456789.123456789e-300"; i=\$((i+1)); done
echo 'quote"name=1'
printf 'esc=1\033[2J\n'
EOF
chmod +x "$T/noisy.sh"
expect 0 "a search of a workload with hostile output" --root "$R" --db "$DB" search --workload "exec:$T/noisy.sh" \
	--knobs vm.page-cluster --trials 2 --confirm-rounds 2 -o "$T/noisy.yaml"
check "every stored result is valid JSON" \
	test "$(sqlite3 "$DB" "SELECT count(*) FROM measurements WHERE json_valid(results) = 0 OR (probe IS NOT NULL AND json_valid(probe) = 0)")" = 0
check "nan and inf are no measurement: left out of the stored results" \
	test "$(sqlite3 "$DB" "SELECT count(*) FROM measurements WHERE workload LIKE '%noisy.sh' AND json_type(results, '\$.nan_value') IS NULL AND json_type(results, '\$.inf_value') IS NULL AND json_type(results, '\$.${long}_0') = 'real'")" \
	= "$(sqlite3 "$DB" "SELECT count(*) FROM measurements WHERE workload LIKE '%noisy.sh'")"

# a stored run whose config carries an escape sequence: the pool leaves it out
sqlite3 "$DB" "UPDATE runs SET config = json_set(config, '\$.workloads[0].spec', 'exec:true' || char(27) || '[2J') WHERE id = 1"
vt --root "$R" --db "$DB" recommend
check "recommend: a stored run with control characters is left out, nothing reaches the terminal" \
	eval '! ctl "$T/out" "$T/err"'

check "the live system did not change" test "$(live_snapshot)" = "$LIVE_BEFORE"
done_testing
