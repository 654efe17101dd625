#!/bin/sh
# bench/estimate.sh - walk speed of `perflog estimate` in files per second,
# next to `find -printf '%s\n'` on the same tree in the same run.
#
#   sh bench/estimate.sh            (called by `make bench` via bench/run.sh)
#   FILES=200000 RUNS=5 PERFLOG=./perflog sh bench/estimate.sh
#
# A tree of FILES small files (1000 a directory, sizes 0..20000 bytes,
# sparse so it costs inodes, not disk) is made under /tmp, both walkers are
# run once to warm the cache, then RUNS times each, alternating; the median
# time of each is reported. The tree is removed at exit.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
PERFLOG=${PERFLOG:-$TOP/perflog}
FILES=${FILES:-200000}
RUNS=${RUNS:-5}

[ -x "$PERFLOG" ] || make -C "$TOP" -s perflog
command -v python3 >/dev/null || { echo "estimate bench: python3 needed to make the tree; skipped"; exit 0; }

TREE=$(mktemp -d /tmp/perflog-bench-estimate.XXXXXX)
trap 'rm -rf "$TREE"' EXIT INT TERM

t0=$(date +%s.%N)
python3 - "$TREE" "$FILES" <<'PY'
import os, sys
root, n = sys.argv[1], int(sys.argv[2])
size = 12345
for i in range(n):
    d = os.path.join(root, "d%03d" % (i // 1000 % 100), "e%03d" % (i // 1000))
    if i % 1000 == 0:
        os.makedirs(d, exist_ok=True)
    fd = os.open(os.path.join(d, "f%d" % i), os.O_WRONLY | os.O_CREAT, 0o644)
    size = (size * 1103515245 + 12345) % 2147483648
    os.ftruncate(fd, size % 20001)
    os.close(fd)
PY
t1=$(date +%s.%N)

now() { date +%s.%N; }
sub() { awk -v b="$1" -v a="$2" 'BEGIN { printf "%.6f\n", b - a }'; }
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# warm the cache, and check both see the same files
pf=$("$PERFLOG" estimate "$TREE" | sed -n 's/^Total size for all \([0-9]*\) files.*/\1/p')
ff=$(find "$TREE" -type f -printf '%s\n' | wc -l)

: >"$TREE/.perflog.times"; : >"$TREE/.find.times"
i=0
while [ "$i" -lt "$RUNS" ]; do
	a=$(now); "$PERFLOG" estimate "$TREE" >/dev/null; b=$(now)
	sub "$b" "$a" >>"$TREE/.perflog.times"
	a=$(now); find "$TREE" -printf '%s\n' >/dev/null; b=$(now)
	sub "$b" "$a" >>"$TREE/.find.times"
	i=$((i + 1))
done
pt=$(median <"$TREE/.perflog.times")
ft=$(median <"$TREE/.find.times")
awk -v n="$FILES" -v pt="$pt" -v ft="$ft" -v pf="$pf" -v ff="$ff" -v runs="$RUNS" \
    -v mk="$(sub "$t1" "$t0")" 'BEGIN {
	printf "estimate bench: %d files (tree made in %.1f s), median of %d warm runs\n", n, mk, runs
	printf "  perflog estimate TREE          %7.3f s  %10.0f files/s  (%d files counted)\n", pt, n / pt, pf
	printf "  find TREE -printf %%s\\n         %7.3f s  %10.0f files/s  (%d files listed)\n", ft, n / ft, ff
	printf "  ratio perflog/find (speed)     %7.2f\n", ft / pt
}'
