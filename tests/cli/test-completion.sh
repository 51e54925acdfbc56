#!/usr/bin/env bash
# test-completion.sh - the bash completion (completion/vmtune.bash) against the
# built vmtune and a fake --root tree: commands, each command's options, knob names
# (in --knobs lists, get, set KNOB=), the values a usage line lists, workloads, run
# ids from the store, profile files; and 'make install' puts it where bash-completion
# looks. The live system must not change.
. "$(dirname "$0")/../lib.sh"

R=$T/root
"$TOP/tests/mkroot.sh" "$R"
mkdir "$T/files" # where the completion runs: file names are completed from there
LIVE_BEFORE=$(live_snapshot)

# complete WORD... : what the completion offers for the last word, one per line, sorted
complete_words() {
	(cd "$T/files" && bash -c '
		. "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
		_vmtune
		printf "%s\n" "${COMPREPLY[@]}"' _ "$TOP/completion/vmtune.bash" "$VMTUNE" "$@") | sed '/^$/d' | sort
}
offers() { # WANT WORD... : the offer is exactly WANT (space-separated, sorted)
	local want=$1 got
	shift
	got=$(complete_words "$@" | tr '\n' ' ' | sed 's/ $//')
	[ "$got" = "$want" ] || {
		echo "# offered: '$got'"
		echo "# wanted:  '$want'"
		false
	}
}
# offer_has yes|no NAME... -- WORD... : the offer holds each NAME (yes), or none of
# them and something else (no)
offer_has() {
	local want=$1 names=() got x
	shift
	while [ "$1" != -- ]; do
		names+=("$1")
		shift
	done
	shift
	got=$(complete_words "$@")
	[ -n "$got" ] || { echo "# nothing offered"; return 1; }
	for x in "${names[@]}"; do
		if grep -qxF -- "$x" <<<"$got"; then
			[ "$want" = yes ] || { echo "# '$x' offered"; return 1; }
		else
			[ "$want" = no ] || { echo "# '$x' not offered (offered: $(tr '\n' ' ' <<<"$got"))"; return 1; }
		fi
	done
}
includes() { offer_has yes "$@"; }
lacks() { offer_has no "$@"; }

check "the script is valid bash" bash -n "$TOP/completion/vmtune.bash"

# --- commands and options
cmds=$("$VMTUNE" --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { on = 0 }' |
	sort | tr '\n' ' ' | sed 's/ $//')
check "--help lists 15 commands, install-boot and runs among them ($cmds)" \
	test "$(wc -w <<<"$cmds") $(grep -ow 'install-boot\|runs' <<<"$cmds" | wc -l)" = "15 2"
check "the first word: every command" offers "$cmds" --root "$R" ''
check "a prefix: se -> search, set" offers "search set" --root "$R" se
check "an unknown prefix: nothing" offers "" --root "$R" zz
check "global options before the command" includes --root --state-dir --db --machine --json --version -- --
check "search's own options" \
	includes --workload --mix --knobs --trials --time --strategy --warm-start --resume --probe --objective --zswap -- \
	--root "$R" search --
check "not the global ones (they belong before the command)" lacks --root --state-dir --machine -- --root "$R" search --
check "a prefix of an option: apply --d -> --dry-run" offers "--dry-run" --root "$R" apply --d
check "db: its subcommands" offers "export import merge" --root "$R" db ''

# --- option values
check "--strategy: what the usage line lists" offers "bo grid random" --root "$R" search --strategy ''
check "--objective" offers "balanced interactive throughput" --root "$R" search --objective ''
check "recommend --objective: search's objectives" offers "balanced interactive throughput" --root "$R" recommend --objective ''
check "export --format: every format" offers "json sh sysctl tmpfiles tuned yaml" --root "$R" export p.yaml --format ''
check "--workload: the built-in workloads and exec:" \
	offers "chat exec: mmap001 mtest01 pft sputter swapbench" --root "$R" run --workload ''
check "--workload sw -> swapbench" offers "swapbench" --root "$R" search -w sw

# --- knobs, read from the tree given with --root
knobs=$("$VMTUNE" --root "$R" knobs --json | jq -r '.[].name' | sort | tr '\n' ' ' | sed 's/ $//')
check "get: every knob of the catalogue ($(wc -w <<<"$knobs"))" offers "$knobs" --root "$R" get ''
check "get vm.dirty_ -> the dirty knobs" offers "vm.dirty_background_bytes vm.dirty_background_ratio vm.dirty_bytes vm.dirty_expire_centisecs vm.dirty_ratio vm.dirty_writeback_centisecs" --root "$R" get vm.dirty_
check "set vm.swapp -> vm.swappiness= (the value follows)" offers "vm.swappiness=" --root "$R" set vm.swapp
check "run --set vm.page -> vm.page-cluster=" offers "vm.page-cluster=" --root "$R" run --set vm.page
searchable=$("$VMTUNE" --root "$R" knobs --json | jq -r '.[] | select(.searchable and .status == "available") | .name' |
	sort | tr '\n' ' ')
check "--knobs: the knobs a search can vary here, and swap" offers "$(tr ' ' '\n' <<<"${searchable}swap" | sort | tr '\n' ' ' | sed 's/ $//')" \
	--root "$R" search --knobs ''
check "--knobs: not a knob the tree lacks or that is never searched" lacks vm.vm_passes vm.overcommit_memory -- --root "$R" search --knobs ''
check "--knobs: the last element of a list" offers "vm.page-cluster,vm.swappiness" --root "$R" search --knobs vm.page-cluster,vm.swap
check "--knobs: a tree without zswap has no zswap knob to offer" offers "" --root "$R" search --knobs zsw
if [ -w /sys/module/zswap/parameters/enabled ]; then
	check "the live system has zswap: its searchable knobs" includes zswap.enabled zswap.max_pool_percent -- \
		search --knobs zsw
fi

# --- files and stored runs
mkdir -p "$T/files/profiles"
touch "$T/files/profiles/host.yaml" "$T/files/profiles/notes.txt" "$T/files/web.yaml"
check "apply: profiles (YAML) and directories, not other files" offers "profiles/host.yaml" --root "$R" apply profiles/
check "export: the same (a directory: bash adds its slash)" offers "profiles web.yaml" --root "$R" export ''
check "--out: any file" offers "profiles/host.yaml profiles/notes.txt" --root "$R" search -w mtest01 --out profiles/
S=$T/state
"$VMTUNE" --root "$R" --state-dir "$S" --db "$T/runs.db" search --workload "exec:$TOP/tests/search/quadratic.sh $R" \
	--metric value --knobs vm.page-cluster --trials 3 --confirm-rounds 2 --confirm-max-rounds 2 -o "$T/q.yaml" >/dev/null 2>&1
"$VMTUNE" --root "$R" --state-dir "$S" --db "$T/runs.db" search --workload "exec:$TOP/tests/search/quadratic.sh $R" \
	--metric value --knobs vm.page-cluster --trials 3 --confirm-rounds 2 --confirm-max-rounds 2 -o "$T/q.yaml" >/dev/null 2>&1
check "two runs stored" test "$(sqlite3 "$T/runs.db" 'select count(*) from runs')" = 2
check "report: the stored run ids (from --db), profiles and directories" \
	offers "1 2 profiles web.yaml" --root "$R" --db "$T/runs.db" report ''
check "search --resume: the run ids" offers "1 2" --root "$R" --db "$T/runs.db" search --resume ''

# --- make install puts it where bash-completion finds it
make -s -C "$TOP" install DESTDIR="$T/inst" >"$T/install.log" 2>&1
check "make install: share/bash-completion/completions/vmtune, the same file" \
	cmp "$TOP/completion/vmtune.bash" "$T/inst/usr/local/share/bash-completion/completions/vmtune"
check "bash-completion's loader finds it there and loads it for vmtune" bash -c "
	[ -r /usr/share/bash-completion/bash_completion ] || { echo '# bash-completion is not installed (make installs it)'; exit 1; }
	XDG_DATA_DIRS='$T/inst/usr/local/share' BASH_COMPLETION_USER_DIR=/nonexistent
	. /usr/share/bash-completion/bash_completion
	__load_completion vmtune && complete -p vmtune | grep -q -- '-F _vmtune'"
check "and not without it (the loader looked there)" bash -c "
	XDG_DATA_DIRS=/nonexistent BASH_COMPLETION_USER_DIR=/nonexistent
	. /usr/share/bash-completion/bash_completion
	! complete -p vmtune 2>/dev/null && ! __load_completion vmtune"

check "the live system is unchanged" test "$(live_snapshot)" = "$LIVE_BEFORE"
done_testing
