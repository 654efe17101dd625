#!/bin/bash
# perflog report: the verdict on log sets whose answer is known (crafted
# values through the real log set writer: idle, all CPUs, one CPU, a disk
# without read-ahead, a full network, paging), the client's
# instrumentation in the verdict, a live set whose rows are held, the
# HTML report (only links to files that exist), two-run comparison and
# bad input. (A real log set with a burn session is t5105: it judges the
# CPU a burn got, so it runs alone; this one runs beside the others.)
. "$(dirname "$0")/lib.sh"
MK=$TOP/build/tools/mklogset
[ -x "$MK" ] || skip_all "build/tools/mklogset not built (make check builds it)"
L=$SCRATCH/sets

verdict() { "$PERFLOG" report -v "$1" "${@:2}" | grep '^  Bottleneck:'; }

for kind in idle cpu cpu1 disk net paging; do
	eval "D_$kind=\$($MK $L $kind $kind)"
done
like "$(verdict $D_idle)" 'nothing near saturation' 'idle: nothing near saturation'
like "$(verdict $D_cpu)" '^  Bottleneck: CPU: Processor\(_Total\) 9[0-9]%' 'all CPUs busy: CPU-bound'
like "$(verdict $D_cpu1)" 'one CPU \(busiest Processor\(0\)\) 9[0-9]%.*total CPU 5[0-9]% of 2 CPUs' 'one busy CPU: CPU-bound though total is 50%'
like "$(verdict $D_disk)" 'LogicalDisk\(sdb\) busy 9[0-9]%' 'disk busy: disk-bound'
like "$("$PERFLOG" report -v $D_disk)" 'no read-ahead' 'small transfers at low throughput: read-ahead hint'
like "$(verdict $D_net)" 'Network Interface\(eth0\) 9[0-9]% of 1 Gb/s' 'network at its bandwidth'
like "$(verdict $D_paging)" '^  Bottleneck: memory: paging' 'paging with low memory'
# the contract scripts rely on (DESIGN.md, "The verdict"): the first word
words=1
for d in $D_idle $D_cpu $D_cpu1 $D_disk $D_net $D_paging; do
	printf '%s\n' "$(verdict $d)" | grep -Eq '^  Bottleneck: (CPU|disk|network|memory|nothing)([^A-Za-z]|$)' ||
		{ words=0; diag "$(verdict $d)"; }
done
is "$words" 1 'every verdict starts with CPU, disk, network, memory or nothing'

# the figures: session times, status, avg/p95/peak
out=$("$PERFLOG" report -v $D_disk)
like "$out" 'from 2023-11-14T22:13:50.000Z to 2023-11-14T22:14:50.000Z, duration 0:01:00' 'session times and duration'
like "$out" 'exit status: 0' 'exit status from the end marker'
like "$out" 'LogicalDisk\(sdb\) % Disk Time +9[0-9]\.[0-9]% +9[0-9]\.[0-9]%' 'disk busy avg and p95'

# instrumentation: File I/O dominating with the disk busy / idle
INSTR=$TOP/tests/fixtures/clients/sp-instrument-detail.txt
like "$(verdict $D_disk --instrumentation $INSTR)" 'File I/O 70% .*disk read bound' 'File I/O + busy disk: disk read bound'
like "$(verdict $D_idle --instrumentation $INSTR)" 'client file reads' 'File I/O with an idle disk'
like "$(verdict $D_idle --instrumentation $TOP/tests/fixtures/clients/sp-instrument-two-threads.txt)" 'network or server \(client instrumentation: Data Verb 77%' 'Data Verb: network or server'
# the session's own output copy in the log set
cp $INSTR $D_idle/output-idle.log
like "$("$PERFLOG" report -v $D_idle)" 'File I/O +524\.380 s +70\.2%' 'output-SESSION.log read from the log set'

# HTML: the report and the charts, every reference an existing file
ok 'report --html' "$PERFLOG" report $D_cpu1 --html $SCRATCH/html --width 700 --height 300
ok 'index.html written' test -s $SCRATCH/html/index.html
refs=$(grep -o 'src="[^"]*"' $SCRATCH/html/index.html | sed 's/src="//; s/"$//')
ok 'index.html shows charts' test -n "$refs"
missing=0
for r in $refs; do [ -f "$SCRATCH/html/$r" ] || { missing=1; diag "missing $r"; }; done
is "$missing" 0 'every image referenced exists'
ok 'no absolute references' sh -c "! grep -E '(src|href)=\"/' $SCRATCH/html/index.html"
like "$(cat $SCRATCH/html/index.html)" 'Bottleneck: CPU: one CPU' 'the verdict is in the page'

# comparison: the same session name in two runs
D_cmp=$($MK $SCRATCH/sets2 disk disk)
cp -r $D_cpu $SCRATCH/cpu-as-disk
sed -i 's/\tcpu\t/\tdisk\t/' $SCRATCH/cpu-as-disk/markers.tsv
out=$("$PERFLOG" report -v $D_disk $SCRATCH/cpu-as-disk)
like "$out" 'Session disk \(A\) vs disk \(B\)' 'sessions matched by name'
like "$out" 'busiest disk busy avg +9[0-9]\.[0-9] +[0-9]\.[0-9] +-9[0-9]\.[0-9] +-9[0-9]\.[0-9]%' 'change absolute and %'
like "$out" 'A: Bottleneck: disk: LogicalDisk' 'verdict of A'
like "$out" 'B: Bottleneck: CPU: Processor' 'verdict of B'
out=$("$PERFLOG" report -v $D_disk $D_net)
like "$out" 'Session disk \(A\) vs net \(B\)' 'unmatched names: by order'
# each B session pairs once: A (disk, extra) against B (disk)
cp -r $D_disk $SCRATCH/disk-extra
# (extra begins first, so pairing in order alone would give it B's disk)
b=$(awk -F'\t' '$2 == "begin" { print $1; exit }' $D_disk/markers.tsv)
b=$(date -u -d "@$(( $(date -u -d "${b%.*}Z" +%s) - 10 ))" +%Y-%m-%dT%H:%M:%S.000Z)
e=$(awk -F'\t' '$2 == "end" { print $1; exit }' $D_disk/markers.tsv)
{ printf '%s\tbegin\textra\tsecond\n' "$b"; cat $D_disk/markers.tsv
  printf '%s\tend\textra\tdone\n' "$e"; } > $SCRATCH/disk-extra/markers.tsv
out=$("$PERFLOG" report -v $SCRATCH/disk-extra $D_disk)
like "$out" 'Session disk \(A\) vs disk \(B\)' 'two sessions against one: the named pair'
like "$out" 'Session extra: only in A' 'two sessions against one: the other is only in A'
# durations to the millisecond (issue 32): 6.817 s against 7.182 s is
# +5.4%, not the rows' whole seconds 7.0 / 8.0, +14.3%
for x in a:56.817 b:57.182; do
	cp -r $D_disk $SCRATCH/dur-${x%%:*}
	printf '2023-11-14T22:13:50.000Z\tbegin\tdisk\tx\n2023-11-14T22:13:%sZ\tend\tdisk\tx\tstatus=0\n' \
		"${x#*:}" > $SCRATCH/dur-${x%%:*}/markers.tsv
done
out=$("$PERFLOG" report -v $SCRATCH/dur-a $SCRATCH/dur-b)
like "$out" 'duration +6\.817 +7\.182 +\+0\.365 +\+5\.4%' 'compare: the real durations, with their decimals'
# how many rows the figures rest on (issue 32): 60, 3 (a warning), none
like "$("$PERFLOG" report -v $D_disk)" 'figures from 60 rows of 1 s' 'the rows the figures rest on'
cp -r $D_disk $SCRATCH/rows3
printf '2023-11-14T22:13:50.000Z\tbegin\tdisk\tx\n2023-11-14T22:13:52.900Z\tend\tdisk\tx\n' > $SCRATCH/rows3/markers.tsv
like "$("$PERFLOG" report -v $SCRATCH/rows3)" 'figures from 3 rows of 1 s only: too few' 'under 5 rows: a warning'
like "$("$PERFLOG" report $SCRATCH/rows3 --json | tr -d '\n ')" '"rows":3,"row_seconds":1,"few_rows":true' '--json: the rows, their step, too few'
like "$("$PERFLOG" report $D_disk --json | tr -d '\n ')" '"rows":60,"row_seconds":1,"few_rows":false' '--json: 60 rows, not too few'
cp -r $D_disk $SCRATCH/rows0
printf '2023-11-14T22:12:00.100Z\tbegin\tdisk\tx\n2023-11-14T22:12:00.900Z\tend\tdisk\tx\n' > $SCRATCH/rows0/markers.tsv
out=$("$PERFLOG" report -v $SCRATCH/rows0)
like "$out" 'no row of the log covers this span \(rows of 1 s\): no figures' 'no row: said once'
is "$(printf '%s\n' "$out" | grep -c 'n/a\|no logged resource')" 0 'no row: no table of n/a, no second explanation'

# a live set whose collector holds its rows (issue 32): report syncs it
# first, so a session just ended has its figures, not CPU n/a
live=$(PERFLOG_BATCH=60 "$PERFLOG" start -o $SCRATCH/live -i 1) || { echo "Bail out! start failed"; exit 1; }
sleep 1.2
"$PERFLOG" mark --begin -s held -d "$live" begin
sleep 3.2
"$PERFLOG" mark --end -s held -d "$live" end
out=$("$PERFLOG" report -v "$live" 2>&1)
like "$out" 'figures from [2-5] rows of 1 s' 'live set: synced first, the rows held are in the report'
like "$(printf '%s\n' "$out" | grep 'CPU total')" 'CPU total \(.*\) +[0-9]' 'live set: CPU total has figures'
"$PERFLOG" stop "$live" > /dev/null

# bad input
fails 'missing log set' "$PERFLOG" report -v $SCRATCH/nonexistent
like "$("$PERFLOG" report -v $SCRATCH/nonexistent 2>&1)" "^perflog report: .*nonexistent" 'error names the log set'
fails 'bad --width' "$PERFLOG" report $D_idle --html $SCRATCH/h2 --width x
printf 'Section Actual (sec) Average(msec) Frequency used\n----------\nFile I/O 1 x 2\n' > $SCRATCH/bad.txt
like "$("$PERFLOG" report -v $D_idle --instrumentation $SCRATCH/bad.txt 2>&1)" "bad.txt:3: " 'bad instrumentation: file and line'
fails 'three log sets refused' "$PERFLOG" report -v $D_idle $D_cpu $D_net
done_testing
