#!/usr/bin/env bash
# test-profile.sh - profiles on a fake --root tree: apply (and its dry run), verify,
# a failure in the middle of an apply, malformed profiles, exports, install-boot, and
# the shipped profiles. The live system must not change.
. "$(dirname "$0")/../lib.sh"

R=$T/root
"$TOP/tests/mkroot.sh" "$R"
LIVE_BEFORE=$(live_snapshot)
vm() { cat "$R/proc/sys/vm/$1"; }
P=$T/p.yaml
cat >"$P" <<'YAML'
vmtune: 1
name: test
description: a test profile
settings:
  vm.page-cluster: 2
  vm.swappiness: 30
  thp.enabled: never
  mthp.anon_max_order: 3
  prefault.max_order: 2
evidence:
  workload: mtest01 -p 80 -w
  trials: 40
  objective: {metric: elapsed, direction: min, baseline: 64.1, best: 47.9, change_pct: -25.3, ci95_pct: [-29.0, -21.1], significant: true}
YAML
# --- dry run -------------------------------------------------------------------
mkdir -p "$R/etc/sysctl.d" && printf '# local\nvm.swappiness = 10\n' >"$R/etc/sysctl.d/60-local.conf"
SUM=$(tree_sum "$R")
VALUES=$(knob_values "$R")
expect 0 "apply --dry-run" --root "$R" apply --dry-run "$P"
check "dry run: a row per knob with current, profile, change, status" \
	out_has '^vm\.page-cluster +3 +2 +yes +writable'
check "dry run: a changed knob says yes" out_has '^vm\.swappiness +60 +30 +yes' 
check "dry run: the enum in words" out_has '^thp\.enabled +madvise +never +yes +writable'
cat >"$T/same.yaml" <<'YAML'
vmtune: 1
name: same
settings:
  vm.swappiness: 60
  vm.page-cluster: 2
YAML
expect 0 "apply --dry-run of a profile with a knob already at its value" --root "$R" apply --dry-run "$T/same.yaml"
check "dry run: an unchanged knob says no" out_has '^vm\.swappiness +60 +60 +no'
check "dry run: and the changed one beside it yes" out_has '^vm\.page-cluster +3 +2 +yes'
expect 0 "apply --dry-run" --root "$R" apply --dry-run "$P"
check "dry run: the sysctl.d file that fights it" out_has "warning: vm\.swappiness is also set in $R/etc/sysctl\.d/60-local\.conf:2 \(= 10\)"
check "dry run: the evidence" out_has '^evidence: mtest01 -p 80 -w, 40 trials: elapsed 64\.1 -> 47\.9 \(-25\.3%, 95% CI -29\.0% \.\. -21\.1%\), significant'
check "dry run: 5 of 5 would change" out_has '^5 of 5 setting\(s\) would change'
check "dry run wrote nothing (tree identical)" test "$(tree_sum "$R")" = "$SUM"
check "dry run made no journal" test ! -e "$R/var/lib/vmtune/journal"

# --- apply, verify, drift ----------------------------------------------------------
expect 1 "verify before apply finds drift" --root "$R" verify "$P"
expect 0 "apply" --root "$R" apply "$P"
check "applied page-cluster" test "$(vm page-cluster)" = 2
check "applied the mTHP order" test "$(cat "$R/sys/kernel/mm/transparent_hugepage/hugepages-32kB/enabled")" = always
check "applied the prefault order" test "$(cat "$R/sys/kernel/debug/fault_around_bytes")" = 16384
expect 0 "verify after apply" --root "$R" verify "$P"
check "verify says all match" out_has 'all 5 setting\(s\) match'
echo 7 >"$R/proc/sys/vm/swappiness"
expect 1 "verify after a hand change" --root "$R" verify "$P"
check "verify names the knob, expected and actual" out_has '^vm\.swappiness +expected 30 +actual 7$'
check "verify counts the drift" out_has '1 of 5 setting\(s\) drifted'
expect 0 "restore after apply" --root "$R" restore
check "restore puts every value back" test "$(knob_values "$R")" = "$VALUES"

# --- a write that fails in the middle rolls everything back ---------------------------
rm "$R/proc/sys/vm/swappiness" && ln -s /dev/full "$R/proc/sys/vm/swappiness" # reads NULs, writes fail
SUM2=$(knob_values "$R")
expect 3 "apply with a failing write" --root "$R" apply "$P"
check "it names the file that failed" err_has "$R/proc/sys/vm/swappiness reads empty"
check "page-cluster, written before the failure, is rolled back" test "$(vm page-cluster)" = 3
check "every value is as before" test "$(knob_values "$R")" = "$SUM2"
rm "$R/proc/sys/vm/swappiness" && echo 60 >"$R/proc/sys/vm/swappiness"
"$VMTUNE" --root "$R" restore >/dev/null 2>&1
SUM=$(tree_sum "$R")

# --- malformed profiles: exit 2 with file:line:column ----------------------------------
bad=0
badp() { # NAME LINE:COL TEXT
	local f=$T/bad-$1.yaml
	printf '%b' "$3" >"$f"
	vt --root "$R" apply "$f"
	if [ "$RC" = 2 ] && grep -q "^vmtune: $f:$2: " "$T/err"; then pass "malformed ($1): exit 2 at $2"; else
		fail "malformed ($1): exit $RC, wanted 2 with $f:$2"; fi
	bad=$((bad + 1))
}
badp unknown-knob 3:3 'vmtune: 1\nsettings:\n  vm.bogus: 1\n'
badp out-of-range 3:18 'vmtune: 1\nsettings:\n  vm.swappiness: 250\n'
badp not-a-number 3:20 'vmtune: 1\nsettings:\n  vm.page-cluster: two\n'
badp bad-enum 3:16 'vmtune: 1\nsettings:\n  thp.enabled: sometimes\n'
badp duplicate-knob 4:3 'vmtune: 1\nsettings:\n  vm.swappiness: 10\n  vm.swappiness: 20\n'
badp duplicate-top 3:1 'vmtune: 1\nsettings: {}\nvmtune: 1\n'
badp bad-size 2:18 'vmtune: 1\nmatch: {mem_min: 12Q}\nsettings: {}\n'
badp huge-size 2:18 'vmtune: 1\nmatch: {mem_max: 99999999999999999999M}\nsettings: {}\n'
badp version 1:9 'vmtune: 2\nsettings: {}\n'
badp no-version 1:1 'settings:\n  vm.swappiness: 10\n'
badp no-settings 1:1 'vmtune: 1\nname: x\n'
badp unknown-key 2:1 'vmtune: 1\nsetings:\n  vm.swappiness: 10\n'
badp not-a-mapping 1:1 '- vm.swappiness\n'
badp settings-list 2:11 'vmtune: 1\nsettings: [1, 2]\n'
badp value-mapping 3:18 'vmtune: 1\nsettings:\n  vm.swappiness: {a: 1}\n'
badp yaml-syntax 4:1 'vmtune: 1\nsettings:\n"unclosed\n'
check "a YAML error also says where the construct began" err_has 'while scanning a quoted scalar that starts at line 3, column 1'
badp empty 1:1 ''
badp tab-indent 3:1 'vmtune: 1\nsettings:\n\tvm.swappiness: 1\n'
badp dirty-bytes-size 3:19 'vmtune: 1\nsettings:\n  vm.dirty_bytes: 12Q\n'
check "at least 15 malformed profiles tried ($bad)" test $bad -ge 15
check "malformed profiles wrote nothing" test "$(tree_sum "$R")" = "$SUM"

# --- exports ------------------------------------------------------------------------
expect 0 "export --format sysctl" --root "$R" export "$P" --format sysctl
check "sysctl: the sysctls as key = value" test "$(grep -vE '^#' "$T/out")" = "$(printf 'vm.page-cluster = 2\nvm.swappiness = 30')"
check "sysctl: the others in comments" out_has '^# not a sysctl .*thp\.enabled: /sys/kernel/mm/transparent_hugepage/enabled = never'
expect 0 "export --format tmpfiles" --root "$R" export "$P" --format tmpfiles
check "tmpfiles: w lines for sysfs" out_has '^w /sys/kernel/mm/transparent_hugepage/enabled - - - - never$'
check "tmpfiles: one line per mTHP size" test "$(grep -c 'hugepages-.*kB/enabled' "$T/out")" = 7
check "tmpfiles: fault_around_bytes in bytes" out_has '^w /sys/kernel/debug/fault_around_bytes - - - - 16384$'
expect 0 "export --format tuned" --root "$R" export "$P" --format tuned -o "$T/tuned.conf"
check "tuned: parses as INI with [main], [sysctl], [sysfs]" python3 -c "
import configparser, sys
c = configparser.ConfigParser(); c.read(sys.argv[1])
assert c.sections() == ['main', 'sysctl', 'sysfs'], c.sections()
assert c['sysctl']['vm.page-cluster'] == '2' and c['sysctl']['vm.swappiness'] == '30'
assert c['sysfs']['/sys/kernel/mm/transparent_hugepage/enabled'] == 'never'
assert c['main']['summary']" "$T/tuned.conf"
expect 0 "export --format json" --root "$R" export "$P" --format json
check "json: settings" test "$(jq -c '.settings' "$T/out")" = '{"vm.page-cluster":2,"vm.swappiness":30,"thp.enabled":"never","mthp.anon_max_order":3,"prefault.max_order":2}'
expect 0 "export --format yaml" --root "$R" export "$P" --format yaml -o "$T/re.yaml"
expect 0 "the YAML export loads back" --root "$R" report "$T/re.yaml"
check "with the same settings" test "$("$VMTUNE" --root "$R" report --json "$T/re.yaml" | jq -c .settings)" = \
	"$("$VMTUNE" --root "$R" report --json "$P" | jq -c .settings)"
printf '%s\n' 'vmtune: 1' 'name: zr' \
	'machine: {hostname: h, kernel: 6.1, cpus: 2, mem_total_kb: 1000, swap_total_kb: 10, swap: compressed, swap_backend: "zram:1G:lz4"}' \
	'settings:' '  vm.page-cluster: 0' >"$T/zr.yaml"
expect 0 "report of a profile measured on zram" --root "$R" report "$T/zr.yaml"
check "names the swap it was measured with" out_has '^measured on h: .* 10 kB swap \(compressed, sandbox swap zram:1G:lz4\)$'
expect 0 "export --format sh" --root "$R" export "$P" --format sh -o "$T/apply.sh"
# run the script against the tree: rewrite the absolute paths to the tree's
sed "s| /proc/| $R/proc/|g; s| /sys/| $R/sys/|g" "$T/apply.sh" >"$T/apply-root.sh"
sh "$T/apply-root.sh" >"$T/undo.sh" 2>"$T/err"
check "sh: the script applies (exit $?)" test "$(vm page-cluster)" = 2
check "sh: thp.enabled applied" test "$(cat "$R/sys/kernel/mm/transparent_hugepage/enabled")" = never
check "sh: it printed undo commands" grep -q "^echo '3' > $R/proc/sys/vm/page-cluster" "$T/undo.sh"
sh "$T/undo.sh"
check "sh: the undo commands put the values back" test "$(vm page-cluster)/$(vm swappiness)/$(cat "$R/sys/kernel/mm/transparent_hugepage/enabled")" = 3/60/madvise
"$TOP/tests/mkroot.sh" "$R" # back to a clean tree after the script's raw writes
VALUES=$(knob_values "$R")
expect 0 "export --current" --root "$R" export --current --format json
check "current: the live value of every available knob" test "$(jq '.settings."vm.page-cluster"' "$T/out")" = 3
check "current: the pair member in force only" test "$(jq '.settings | has("vm.dirty_bytes")' "$T/out")" = false
expect 2 "export with an unknown format" --root "$R" export "$P" --format ini

# --- install-boot ----------------------------------------------------------------------
expect 0 "install-boot --dry-run" --root "$R" install-boot "$P" --dry-run
check "it says where the profile goes" out_has "would copy .* to $R/etc/vmtune/boot\.yaml"
check "and shows the unit" out_has '^After=systemd-sysctl\.service'
check "and wrote nothing" test ! -e "$R/etc/vmtune/boot.yaml" -a ! -e "$R/etc/systemd"
expect 0 "install-boot" --root "$R" install-boot "$P"
check "the profile is at /etc/vmtune/boot.yaml" cmp -s "$P" "$R/etc/vmtune/boot.yaml"
check "the unit is installed" grep -q "^ExecStart=$VMTUNE apply --boot$" "$R/etc/systemd/system/vmtune.service"
check "and enabled" test "$(readlink "$R/etc/systemd/system/multi-user.target.wants/vmtune.service")" = ../vmtune.service
if command -v systemd-analyze >/dev/null; then
	check "systemd-analyze verify accepts the unit" systemd-analyze verify --man=no "$R/etc/systemd/system/vmtune.service"
else
	skip "systemd-analyze verify accepts the unit" "systemd-analyze is not installed"
fi
expect 0 "apply --boot uses boot.yaml" --root "$R" apply --boot
check "the boot profile is applied" test "$(vm page-cluster)" = 2
"$VMTUNE" --root "$R" restore >/dev/null 2>&1
expect 0 "install-boot --remove" --root "$R" install-boot --remove
check "the unit, the link and the profile are gone" test ! -e "$R/etc/systemd/system/vmtune.service" -a ! -L "$R/etc/systemd/system/multi-user.target.wants/vmtune.service" -a ! -e "$R/etc/vmtune/boot.yaml"
mkdir -p "$R/etc/vmtune/profiles.d"
cp "$TOP/profiles/server-conservative.yaml" "$R/etc/vmtune/profiles.d/10-server.yaml" # mem_min 4G: no match (1G tree)
cp "$TOP/profiles/desktop-swap.yaml" "$R/etc/vmtune/profiles.d/20-desktop.yaml"
expect 0 "apply --boot without boot.yaml picks the first matching profile" --root "$R" apply --boot
check "server-conservative is applied on this machine (24G)" test "$(vm swappiness)" = 30
"$VMTUNE" --root "$R" restore >/dev/null 2>&1
rm -r "$R/etc/vmtune"

# --- shipped profiles load, apply and verify -------------------------------------------------
for f in "$TOP"/profiles/*.yaml; do
	expect 0 "shipped ${f##*/} applies" --root "$R" apply "$f"
	expect 0 "shipped ${f##*/} verifies" --root "$R" verify "$f"
	check "shipped ${f##*/} has a description and match rules" grep -qE '^match:' "$f"
	"$VMTUNE" --root "$R" restore >/dev/null 2>&1
done
# --- each knob's share: measured by a step, the whole gain, or kept for the budget ---
cat >"$T/shares.yaml" <<'YAML'
vmtune: 1
name: shares
settings:
  vm.page-cluster: 2
  vm.swappiness: 30
  thp.enabled: never
evidence:
  workload: mtest01 -p 80 -w
  trials: 40
  objective: {metric: elapsed, direction: min, baseline: 64.1, best: 47.9, change_pct: -25.3, ci95_pct: [-29.0, -21.1], significant: true}
  knobs:
    vm.page-cluster: {share_pct: 12.5, ci95_pct: [3.0, 22.0], measured: step}
    vm.swappiness: {measured: budget}
YAML
expect 0 "report a profile with a step's share and a knob the budget kept" --root "$R" report "$T/shares.yaml"
check "the step's share and its interval" out_has '^  vm\.page-cluster +2 +putting it back costs \+12\.5% \(\+3\.0 \.\. \+22\.0%\)$'
check "the knob the budget kept says so" \
	out_has '^  vm\.swappiness +30 +kept untested: the budget ended the walk back before its step decided$'
check "a knob with no evidence at all says that" out_has '^  thp\.enabled +never +\(no measured share\)$'
sed 's/measured: budget/measured: guessed/' "$T/shares.yaml" >"$T/bad-share.yaml"
expect 2 "a share measured some other way is refused" --root "$R" report "$T/bad-share.yaml"
check "naming the file, line, column and the value" \
	grep -qE "bad-share\.yaml:13:31: .*measured must be step, whole, budget or none, not 'guessed'" "$T/err"
check "every value is back after all that" test "$(knob_values "$R")" = "$VALUES"
check "nothing on the live system changed" test "$(live_snapshot)" = "$LIVE_BEFORE"
done_testing
