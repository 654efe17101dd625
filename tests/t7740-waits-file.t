#!/bin/sh
# The report says which figures its wait states come from (issue 21, item
# 4): when the per-thread totals file an end marker names cannot be used
# (too large, damaged, gone), the report fell back to the logged
# counters in silence, with a different verdict.
#   - a run of loadgen burn 2 under perflog run -i 1: the report uses its
#     totals ("N of M threads worked") and says nothing of a fallback
#   - the totals file damaged: the report says the totals were not used,
#     and why (a verdict that names the client's split says it took the
#     logged counters: test_report)
#   - the totals file removed: the same, naming the file
. "$(dirname "$0")/lib.sh"
LOADGEN=$TOP/build/tools/loadgen
[ -x "$LOADGEN" ] || skip_all "build/tools/loadgen not built (make check builds it)"
[ "$(id -u)" = 0 ] || skip_all "the command's own cgroup needs root"
plan 6

LS=$SCRATCH/logs
"$PERFLOG" run -i 1 -o "$LS" -l b -- "$LOADGEN" burn 2 >/dev/null 2>"$SCRATCH/run.err"
is "$?" 0 'perflog run of loadgen burn 2'
set -- "$LS"/*/markers.tsv
SET=$(dirname "$1")
f=$(grep -P '\tend\tb\t' "$1" | tail -n 1 | tr '\t' '\n' | sed -n 's/^waits=//p')
"$PERFLOG" report "$SET" >"$SCRATCH/r1.txt" 2>&1
ok 'the totals used: no word of a fallback' sh -c \
	"grep -q 'threads worked' '$SCRATCH/r1.txt' && ! grep -q 'not used' '$SCRATCH/r1.txt'"

printf 'tid\tcomm\tstart\talive\tcpu\tcpu_wait\tdisk\tnet\tother\tsleep\tio_bytes\tworking\tthreads\ngarbage\n' >"$SET/$f"
"$PERFLOG" report "$SET" >"$SCRATCH/r2.txt" 2>&1
ok 'a damaged totals file: the report says it was not used, and why' \
	grep -q "the per-thread totals were not used: '$f': no thread in it could be read" "$SCRATCH/r2.txt"
ok "... and still gives a Bottleneck line" grep -q '^  Bottleneck: ' "$SCRATCH/r2.txt"
[ -z "$(grep 'not used' "$SCRATCH/r2.txt")" ] && sed 's/^/#   /' "$SCRATCH/r2.txt" >&2

rm -f "$SET/$f"
"$PERFLOG" report "$SET" >"$SCRATCH/r3.txt" 2>&1
ok 'the totals file gone: said, naming it' \
	grep -q "the per-thread totals were not used: .*$f" "$SCRATCH/r3.txt"
[ -z "$(grep 'not used' "$SCRATCH/r3.txt")" ] && sed 's/^/#   /' "$SCRATCH/r3.txt" >&2
ok 'the report still gives the wait states, from the counters' \
	grep -q 'logged counters: idle threads not told apart' "$SCRATCH/r3.txt"
