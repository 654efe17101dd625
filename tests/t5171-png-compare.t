#!/bin/bash
# t5171-png-compare: `perflog export A B --png OUTDIR` lays two runs over
# each other from their sessions' begins (issue 49 item 4, as perfmon
# overlays logs): each chart has A's series and B's, labelled A and B in
# its legend (charts.tsv: what rrd_graph_v drew), B's figures those of
# its own session, its markers tagged; -s names the anchors. Log sets:
# crafted through the real writer (mklogset), B two hours after A.
. "$(dirname "$0")/lib.sh"
MK=$TOP/build/tools/mklogset
[ -x "$MK" ] || skip_all "build/tools/mklogset not built (make check builds it)"
A=$($MK "$SCRATCH/sets" runA cpu1 --session full)
B=$($MK "$SCRATCH/sets" runB disk --session full --offset 7200)

png_ok() { [ "$(od -An -tx1 -N8 "$1" | tr -d ' \n')" = 89504e470d0a1a0a ]; }

ok 'export A B --png' "$PERFLOG" export "$A" "$B" --png "$SCRATCH/png"
ok 'cpu.png is a PNG' png_ok "$SCRATCH/png/cpu.png"
ok 'disk.png is a PNG' png_ok "$SCRATCH/png/disk.png"
T=$SCRATCH/png/charts.tsv
series() { awk -F'\t' -v c="$1" '$1 == c { print $2 }' "$T"; }
like "$(series disk.png)" '^A sdb % Disk Time$' 'disk.png: A in the legend'
like "$(series disk.png)" '^B sdb % Disk Time$' 'disk.png: B in the legend'
like "$(series cpu.png)" '^B _Total % Processor Time$' 'cpu.png: B in the legend too'
is "$(series disk.png | wc -l)" 2 'disk.png: two series, one a run'

# B's figures are its session's, two hours later on its own clock
"$PERFLOG" export "$B" --png "$SCRATCH/bonly" --session full
bavg=$(awk -F'\t' '$1 == "disk.png" && $2 == "B sdb % Disk Time" { print $4 }' "$T")
own=$(awk -F'\t' '$1 == "disk.png" && $2 == "sdb % Disk Time" { print $4 }' "$SCRATCH/bonly/charts.tsv")
near "$bavg" "$own" 0.02 "B's disk average laid over A is its own session's ($bavg, alone $own)"
aavg=$(awk -F'\t' '$1 == "disk.png" && $2 == "A sdb % Disk Time" { print $4 }' "$T")
within "A's disk stayed idle in its run ($aavg)" "$aavg" 0 10
within "B's disk was busy in its run ($bavg)" "$bavg" 60 100

# -s names the anchor session; one that is not there is an error naming it
ok 'export A B --session full' "$PERFLOG" export "$A" "$B" --png "$SCRATCH/s" --session full
fails 'a session B has not' "$PERFLOG" export "$A" "$B" --png "$SCRATCH/x" --session full --session nosuch
like "$("$PERFLOG" export "$A" "$B" --png "$SCRATCH/x" --session full --session nosuch 2>&1)" "no session 'nosuch'" 'the error names it'
fails 'two sets with --csv' "$PERFLOG" export "$A" "$B" --csv -
done_testing
