#!/bin/sh
# tests/margins.sh FILE [N] - the N (default 10) checks of a run that came
# closest to their tolerances, from the headroom lines tests/lib.sh's
# near and within (and tests/unit/tap.h's MARGIN) wrote to FILE under
# PERFLOG_MARGINS (make check, make check-stress): the share of its
# tolerance each left (tests/lib.sh _margin). A figure outside its
# bounds has a negative headroom and sorts first. Prints nothing when no
# check recorded one.
f=$1 n=${2:-10}
[ -s "$f" ] || exit 0
echo "closest to their tolerances (the share of each tolerance left: 100% at the ideal figure, 0% at a bound; $(wc -l < "$f") recorded):"
sort -t '	' -k1,1g "$f" | head -n "$n" |
	awk -F'\t' '{ printf "  %6.1f%%  %-28s %s: %s\n", 100 * $1, $2, $3, $4 }'
