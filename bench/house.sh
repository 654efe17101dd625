#!/bin/sh
# bench/house.sh - the shape of the source tree, as figures (issue 13's
# before/after table): lines of .c/.h per folder, the longest functions,
# the files over 600 lines.
#
#   sh bench/house.sh [TREE] [N]     TREE: a checkout (default: this one),
#                                    N: how many functions (default 5)
#
# A function is measured from the first line of its definition to its
# closing brace, inclusive (what `ctags --fields=+ne` reports as line..end).
# The house style puts a definition's braces in column 0, which is what the
# awk below relies on: a "{" alone at the start of a line opens a body, the
# "}" at the start of a line closes it, and the definition starts at the
# nearest line above the "{" that begins in column 0 with a letter (the
# return type; a definition spread over several lines starts there).
# Tests (tests/) are counted per folder but not among the functions.
tree=${1:-$(cd "$(dirname "$0")/.." && pwd)}
n=${2:-5}
cd "$tree" || exit 1
dirs=$(ls -d */ | tr -d / | while read -r d; do
	ls "$d"/*.[ch] >/dev/null 2>&1 && echo "$d"; done)
echo "folders with C sources: $(echo $dirs | wc -w)"
echo
echo "lines of .c/.h per folder (wc -l):"
for d in $dirs; do
	printf '  %-10s %6d\n' "$d" "$(cat "$d"/*.[ch] | wc -l)"
done
printf '  %-10s %6d\n' "(top)" "$(cat ./*.[ch] 2>/dev/null | wc -l)"
printf '  %-10s %6d\n' "tests/*/" "$(find tests -name '*.[ch]' -path 'tests/*/*' | xargs cat | wc -l)"
printf '  %-10s %6d\n' "total" "$(find . -name '*.[ch]' -not -path './build/*' | xargs cat | wc -l)"
echo
echo "the $n longest functions (lines, definition to closing brace):"
find . -name '*.c' -not -path './build/*' -not -path './tests/*' | sort |
while read -r f; do
	awk -v f="${f#./}" '
		/^[A-Za-z_]/ && !/;[ \t]*$/ && !/^#/ { if (!open) start = NR; sig = $0 }
		/^{/ { open = 1; name = sig; sub(/\(.*/, "", name); sub(/.*[ *]/, "", name) }
		/^}/ && open { printf "%d %s:%d %s\n", NR - start + 1, f, start, name; open = 0 }
	' "$f"
done | sort -k1,1nr -k2 | head -n "$n" | awk '{ printf "  %5d  %s %s\n", $1, $3, $2 }'
echo
echo "files over 600 lines:"
find . -name '*.[ch]' -not -path './build/*' | xargs wc -l | grep -v ' total$' |
	awk '$1 > 600 { printf "  %5d  %s\n", $1, substr($2, 3) }' | sort -k1,1nr
