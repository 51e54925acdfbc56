#!/usr/bin/env bash
# test-layout.sh - the C sources are laid out as .clang-format says (clang-format
# --dry-run -Werror), one test per directory; a file that is not says where, with
# the first lines clang-format would change. A table kept one entry a line is
# fenced with /* clang-format off */ and /* clang-format on */.
. "$(dirname "$0")/../lib.sh"

cd "$TOP" || exit 1
command -v clang-format >/dev/null || {
	echo "test-layout.sh: needs Debian's clang-format (make installs it)" >&2
	exit 1
}
# the check can fail: a file with a line over the limit is refused
printf 'int f(void)\n{\n\treturn %s;\n}\n' "$(printf '1 + %.0s' $(seq 60))1" >"$T/long.c"
check "clang-format refuses a file it would lay out differently" \
	bash -c '! clang-format --style=file:.clang-format --dry-run -Werror "$1" 2>/dev/null' _ "$T/long.c"

for dir in tuner workloads tests bench; do
	bad=()
	while IFS= read -r f; do
		clang-format --dry-run -Werror "$f" >/dev/null 2>&1 || bad+=("$f")
	done < <(git ls-files "$dir/*.c" "$dir/*.h" 2>/dev/null || find "$dir" -name '*.[ch]')
	for f in "${bad[@]}"; do
		echo "# $f: not as .clang-format lays it out; 'clang-format -i $f' would change:"
		clang-format "$f" | diff "$f" - | head -8 | sed 's/^/#   /'
	done
	check "$dir/: every C file laid out as .clang-format says" test ${#bad[@]} = 0
done
done_testing
