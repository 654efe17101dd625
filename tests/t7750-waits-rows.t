#!/bin/sh
# waits-LABEL.rows.tsv on the real binary (issue 46: the seconds interval
# by interval, so a wait on a stage is charged to what that stage did at
# the time). perflog run -i 1 of a two-stage pipeline whose stages swap
# roles halfway: stage 1 computes for 4 s (stage 2 waits on its pipe),
# then writes as fast as it can for 4 s into stage 2, which writes each
# 64 KiB to a file with fsync (stage 1 now waits on stage 2, stage 2 on
# the disk). Stage 1 notes the wall clock at its start, its switch and
# its end; the rows file's bins wholly inside each half must show that
# half's roles, each stage's rows must add up to its totals, and the
# report reads the rows (a damaged rows file, or none, falls back to the
# totals). Times are the collector's wall clock, the one time.time()
# reads (no clock offset in this suite).
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null 2>&1 || skip_all "python3 not installed"
plan 15

cat >"$SCRATCH/stage1.py" <<'EOF'
import os, sys, time
open(sys.argv[1], 'w').write('%d\n' % os.getpid())
a = time.time()
end = time.monotonic() + 4
x = 0
while time.monotonic() < end:
    x += 1
b = time.time()
out = sys.stdout.buffer
buf = b'x' * 65536
end = time.monotonic() + 4
while time.monotonic() < end:
    out.write(buf)
out.flush()
open(sys.argv[2], 'w').write('%.3f %.3f %.3f\n' % (a, b, time.time()))
EOF
cat >"$SCRATCH/stage2.py" <<'EOF'
import os, sys
open(sys.argv[1], 'w').write('%d\n' % os.getpid())
fd = os.open(sys.argv[2], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
inp = sys.stdin.buffer
while True:
    b = inp.read1(65536)
    if not b:
        break
    os.write(fd, b)
    os.fsync(fd)
EOF

cd "$SCRATCH" || exit 1
"$PERFLOG" run -i 1 -o "$SCRATCH/set" -l swap -- sh -c \
	'python3 stage1.py s1.pid times | python3 stage2.py s2.pid out.bin' \
	>/dev/null 2>"$SCRATCH/run.err"
is "$?" 0 "perflog run of stage1 | stage2"
set -- "$SCRATCH"/set/*/markers.tsv
SET=$(dirname "$1")
R=$SET/waits-swap.rows.tsv
W=$SET/waits-swap.tsv
s1=$(cat s1.pid)
s2=$(cat s2.pid)
read -r ta tb tc <times
show() { grep -v '	bash	\|readlink\|basename' "$R" | sed 's/^/#   /' >&2; }

ok "the rows file is beside the totals" test -s "$R"
is "$(head -n 1 "$R")" "$(printf '#perflog-rows\t1\tstep=1.000')" \
	"version 1, 1 s bins (the sample interval: a session of 128 s or less)"

# sums over the bins wholly inside [from, to) of stage pid's p lines (its
# alive, cpu + cpu_wait, disk) and of its e lines to peer (kind, dir)
sums() {
	awk -F'\t' -v from="$1" -v to="$2" -v pid="$3" -v peer="$4" -v dir="$5" '
		$1 == "#perflog-rows" { split($3, s, "="); step = s[2] }
		$2 < from || $2 + step > to { next }
		$1 == "p" && $3 == pid { alive += $5; cpu += $6 + $7; disk += $8 }
		$1 == "e" && $3 == pid && $7 == peer && $5 == dir { edge += $11 }
		END { printf "%.3f %.3f %.3f %.3f\n", alive, cpu, disk, edge }' "$R"
}
# shellcheck disable=SC2046
set -- $(sums "$ta" "$tb" "$s1" "$s2" out)
a1=$1 cpu1=$2 e1=$4
set -- $(sums "$ta" "$tb" "$s2" "$s1" in)
a2=$1 disk2=$3 e2=$4
diag "first half: stage 1 alive $a1 s, cpu+cpuw $cpu1 s, waited on stage 2 $e1 s; stage 2 alive $a2 s, disk $disk2 s, waited on stage 1 $e2 s"
ok "first half: bins of it (stage 1 alive $a1 s)" awk -v a="$a1" 'BEGIN { exit !(a >= 2) }' || show
ok "... stage 1 ran or waited for a CPU ($cpu1 s of $a1)" \
	awk -v c="$cpu1" -v a="$a1" 'BEGIN { exit !(c >= 0.6 * a) }' || show
ok "... stage 2 waited on stage 1's pipe ($e2 s of $a2)" \
	awk -v e="$e2" -v a="$a2" 'BEGIN { exit !(e >= 0.6 * a) }' || show
ok "... and not on the disk ($disk2 s)" \
	awk -v d="$disk2" -v a="$a2" 'BEGIN { exit !(d <= 0.05 * a) }' || show
ok "... nor stage 1 on stage 2 ($e1 s)" \
	awk -v e="$e1" -v a="$a1" 'BEGIN { exit !(e <= 0.05 * a) }' || show

set -- $(sums "$tb" "$tc" "$s1" "$s2" out)
b1=$1 bcpu1=$2 f1=$4
set -- $(sums "$tb" "$tc" "$s2" "$s1" in)
b2=$1 bdisk2=$3 f2=$4
diag "second half: stage 1 alive $b1 s, cpu+cpuw $bcpu1 s, waited on stage 2 $f1 s; stage 2 alive $b2 s, disk $bdisk2 s, waited on stage 1 $f2 s"
ok "second half: bins of it (stage 2 alive $b2 s)" awk -v a="$b2" 'BEGIN { exit !(a >= 2) }' || show
ok "... stage 2 waited on the disk ($bdisk2 s of $b2)" \
	awk -v d="$bdisk2" -v a="$b2" 'BEGIN { exit !(d >= 0.1 * a) }' || show
ok "... stage 1 waited on stage 2 ($f1 s), and computed less than before ($bcpu1 s of $b1)" \
	awk -v e="$f1" -v c="$bcpu1" -v a="$b1" 'BEGIN { exit !(e > 0 && c <= 0.5 * a) }' || show
ok "... stage 2 no longer on stage 1 most of the time ($f2 s of $b2)" \
	awk -v e="$f2" -v a="$b2" 'BEGIN { exit !(e <= 0.5 * a) }' || show

# each stage's rows add up to its totals (3 decimals a bin): its CPU
# (schedstat's, exact) and its seconds in all (the totals move a blocked
# second between states when a later tick says where it went: held,
# unseen, waits/waitrates.c; the rows keep each sample's split)
bad=$(awk -F'\t' -v a="$s1" -v b="$s2" '
	FNR == 1 { next }
	NR == FNR { if ($NF == a || $NF == b) { c[$NF] += $5; for (k = 5; k <= 10; k++) t[$NF] += $k }; next }
	$1 == "p" && ($3 == a || $3 == b) { n[$3]++; rc[$3] += $6; for (k = 6; k <= 11; k++) r[$3] += $k }
	function off(x, y, p) { x -= y; if (x < 0) x = -x; return x > 0.001 * n[p] + 0.01 }
	END { for (p in n) {
		if (off(c[p], rc[p], p)) printf "pid %s cpu: totals %.3f rows %.3f\n", p, c[p], rc[p]
		if (off(t[p], r[p], p)) printf "pid %s seconds: totals %.3f rows %.3f\n", p, t[p], r[p] } }' \
	"$W" "$R")
is "$bad" "" "each stage's rows add up to its totals" || show

# the report reads them; a garbage line or no rows file: the totals
"$PERFLOG" report "$SET" >"$SCRATCH/rep1" 2>&1
is "$?" 0 "perflog report reads the set with its rows"
cp "$R" "$SCRATCH/rows.keep"
printf 'p\tgarbage\n' >>"$R"
"$PERFLOG" report "$SET" >"$SCRATCH/rep2" 2>&1
rc=$?
rm -f "$R"
"$PERFLOG" report "$SET" >"$SCRATCH/rep3" 2>&1
is "$rc $?" "0 0" "a damaged rows file, or none: the report from the totals"
