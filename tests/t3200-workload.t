#!/bin/bash
# perflog workload: the seed kit's four file sets at --scale 0.05, backed
# up over loopback TCP; a session per set in the running collector's
# markers with workload.kb_per_sec and client.* figures; the SUMMARY table.
. "$(dirname "$0")/lib.sh"
LOGS=$SCRATCH/logs

is "$($PERFLOG workload --scale 0 2>&1 >/dev/null; echo $?)" \
	"$(printf "perflog workload: --scale: '0' is not a number in (0, 100]\n2")" 'bad --scale: one-line error'
is "$($PERFLOG workload --scale x 2>&1 >/dev/null | wc -l)" 1 'garbage --scale: one line'
is "$($PERFLOG workload --seconds -1 2>&1 >/dev/null; echo $?)" \
	"$(printf "perflog workload: --seconds: '-1' is not a number in (0, 3600]\n2")" 'bad --seconds: one-line error'

LS=$($PERFLOG start -o $LOGS -i 1)
is "$?" 0 'collector started'
PERFLOG_LOGSET=$LS $PERFLOG workload --scale 0.05 --target $SCRATCH/target >$SCRATCH/out 2>$SCRATCH/err
is "$?" 0 'workload ran'
is "$(cat $SCRATCH/err)" "" 'nothing on stderr'
M=$LS/markers.tsv
for s in 1m1k 10m10k 25m100k 50m10m; do
	ok "session $s begins" grep -qP "\tbegin\t$s\t" $M
	ok "session $s ends with workload.kb_per_sec" grep -qP "\tend\t$s\t.*\tworkload\.kb_per_sec=[0-9]+\.[0-9]{2}(\t|\$)" $M
done
end1=$(grep -P '\tend\t1m1k\t' $M | tr '\t' '\n')
like "$end1" '^client\.objects_inspected=52$' '1m1k: ceil(1024 x 0.05) = 52 files, as dsmc would say'
like "$end1" '^client\.elapsed=[0-9]+:[0-9]{2}:[0-9]{2}$' '1m1k: elapsed as H:MM:SS'
like "$end1" '^workload\.bytes=53248$' '1m1k: 52 KB of data'
like "$(grep -P '\tend\t50m10m\t' $M | tr '\t' '\n')" '^workload\.files=1$' '50m10m at 0.05: one file (at least one a set)'
# sessions come in order and do not overlap
is "$(grep -P '\t(begin|end)\t' $M | cut -f2,3 | tr '\t' ' ' | tr '\n' ',')" \
	"begin 1m1k,end 1m1k,begin 10m10k,end 10m10k,begin 25m100k,end 25m100k,begin 50m10m,end 50m10m," \
	'four sessions, one after the other'

ok 'SUMMARY table printed' grep -qx SUMMARY $SCRATCH/out
for t in '1MB of 1KB files' '10MB of 10KB files' '25MB of 100KB files' '50MB of 10MB files'; do
	ok "table row: $t" grep -qE "^$t *: [0-9]+kb/sec\$" $SCRATCH/out
done
is "$(grep -c '^Total number of bytes transferred:' $SCRATCH/out)" 0 'no dsmc-like summary on stdout: perflog run would take it for its command'
is "$(grep -c '^Total number of bytes transferred:' $LS/workload-perfdata.txt)" 4 'a dsmc-like summary per set in the perfdata file of the log set'
ok 'a line per set on stdout' grep -qE '^perflog workload: set 1m1k: 52 files \(1\.00 passes, scale 0\.05 of the seed.s 1024\) in [0-9.]+ s: [0-9]+ KB/sec$' $SCRATCH/out
kbs=$(grep -P '\tend\t1m1k\t' $M | tr '\t' '\n' | sed -n 's/^workload.kb_per_sec=//p')
# the table rounds the rate to whole KB/sec, the marker keeps two decimals:
# rounding twice may differ by one
tab=$(sed -n 's/^1MB of 1KB files *: \([0-9]*\)kb\/sec$/\1/p' $SCRATCH/out)
ok "the table shows the kb_per_sec of the marker ($tab vs $kbs)" awk -v a="$tab" -v b="$kbs" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "" && d <= 1) }'

# --target kept, with real, incompressible content
is "$(ls $SCRATCH/target/1m1k | wc -l)" 52 'target keeps 52 files of set 1m1k'
is "$(stat -c %s $SCRATCH/target/25m100k/* | sort -u)" 102400 'set 25m100k: 100 KB files'
is "$(stat -c %s $SCRATCH/target/50m10m/*)" 10485760 'set 50m10m: a 10 MB file'
fails 'content is not zeros' cmp -s -n 10240 $SCRATCH/target/10m10k/f000000 /dev/zero
z=$(gzip -c $SCRATCH/target/25m100k/f000001 | wc -c)
ok 'content does not compress' test "$z" -gt 100000
ok 'files differ from each other' sh -c "! cmp -s $SCRATCH/target/1m1k/f000000 $SCRATCH/target/1m1k/f000001"
ok 'stop' $PERFLOG stop "$LS"

# no collector: still runs, no markers, temp files removed
mkdir $SCRATCH/tmp
TMPDIR=$SCRATCH/tmp $PERFLOG workload --scale 0.01 >$SCRATCH/out2 2>&1
is "$?" 0 'without a collector'
ok 'SUMMARY without a collector' grep -qx SUMMARY $SCRATCH/out2
is "$(grep -c '^Total number of bytes transferred:' $SCRATCH/out2)" 4 'without a collector the summaries are on stdout'
is "$(ls -A $SCRATCH/tmp)" "" 'temporary files removed'
done_testing
