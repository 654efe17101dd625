#!/bin/bash
# perflog run: exit status passthrough (N, 127, 128+N), Ctrl-C to the
# process group still closes the books, PERFLOG_LOGSET for the command,
# its output passed through and kept, a dsmc-like client's summary in the
# end marker, and the Process instance of a command whose two children
# burn 1.5 s of CPU each.
. "$(dirname "$0")/lib.sh"
LOGS=$SCRATCH/logs
export PERFLOG

# the value of extra KEY in the last end marker of session S
extra() { grep -P "\tend\t$1\t" "$LS/markers.tsv" | tail -n 1 | tr '\t' '\n' | sed -n "s/^$2=//p"; }

# --- a run that starts (and stops) its own collector ---
$PERFLOG run -i 1 -o $LOGS -l own -- sh -c 'exit 7' >$SCRATCH/own.out 2>&1
is "$?" 7 'exit status passed through (own collector)'
LS=$(ls -d $LOGS/*/ | head -n 1); LS=${LS%/}
ok 'log set created' test -f "$LS/markers.tsv"
is "$(tail -n 1 $SCRATCH/own.out)" "perflog run: log set $LS" 'run says the log set it wrote to, last (issue 32)'
is "$(ls $PERFLOG_RUNTIME_DIR/*.info 2>/dev/null | wc -l)" 0 'the collector it started is stopped'
is "$(extra own status)" 7 'end marker: status=7'
like "$(extra own duration)" '^[0-9]+\.[0-9]{3}$' 'end marker: duration in ms'
is "$(extra own cmd)" "sh -c 'exit 7'" 'end marker: the command line'
ok 'begin marker before it' grep -qP "\tbegin\town\tsh -c 'exit 7'(\t|$)" "$LS/markers.tsv"

# a command that cannot be run starts no collector and makes nothing
# (issue 50: a set of nothing was left behind; then its -o DIR)
$PERFLOG run -i 1 -o $SCRATCH/never -- /nonexistent/backup-client >$SCRATCH/never.out 2>&1
is "$?" 127 'cannot run, own collector: 127'
is "$(cat $SCRATCH/never.out)" "perflog run: cannot run '/nonexistent/backup-client': No such file or directory" 'one line, no log set named'
ok 'no set left, nor -o DIR (no collector was started for it)' test ! -e $SCRATCH/never
is "$(ls $PERFLOG_RUNTIME_DIR/*.info 2>/dev/null | wc -l)" 0 'no collector running'

# --- the rest joins one collector ---
LS=$($PERFLOG start -o $LOGS -i 1)
is "$?" 0 'a shared collector'

$PERFLOG run -o "$LS" -- /nonexistent/backup-client 2>$SCRATCH/e127
is "$?" 127 'cannot run: 127'
like "$(cat $SCRATCH/e127)" "cannot run '/nonexistent/backup-client'" 'says why'
is "$(extra backup-client status)" 127 'end marker written anyway'
ok 'joined collector still running' $PERFLOG mark -d "$LS" still-here
ok 'its set is kept' test -f "$LS/perflog.meta"

$PERFLOG run -o "$LS" -l sig -- sh -c 'kill -TERM $$'
is "$?" 143 'killed by SIGTERM: 128+15'
is "$(extra sig signal)" 15 'end marker: signal=15'

# Ctrl-C: SIGINT to the whole foreground process group (its default
# given back: a suite started in the background or under nohup inherits
# SIGINT ignored, and run keeps what it was given)
set -m
env --default-signal=INT $PERFLOG run -o "$LS" -l ctrlc -- sleep 30 >/dev/null 2>&1 &
rp=$!
track_pid $rp
set +m
wait_for 10 grep -qP '\tbegin\tctrlc\t' "$LS/markers.tsv"
sleep 0.3
kill -INT -- -$rp
wait $rp
is "$?" 130 'Ctrl-C: the command died of SIGINT, run exits 130'
is "$(extra ctrlc status)" 130 'Ctrl-C: end marker still written'

# PERFLOG_LOGSET: the command marks its own phases
$PERFLOG run -o "$LS" -l phases -- sh -c '
	"$PERFLOG" mark --begin -s phase1 "phase one" &&
	"$PERFLOG" mark --end -s phase1 "phase one done" && test -n "$PERFLOG_LOGSET"'
is "$?" 0 'the command could mark'
ok 'its begin marker' grep -qP '\tbegin\tphase1\tphase one$' "$LS/markers.tsv"
ok 'its end marker' grep -qP '\tend\tphase1\tphase one done$' "$LS/markers.tsv"

# stdio passed through, a copy kept
echo from-stdin | $PERFLOG run -o "$LS" -l io -- sh -c 'cat; echo to-out; echo to-err >&2' \
	>$SCRATCH/io.out 2>$SCRATCH/io.err
is "$(cat $SCRATCH/io.out)" "$(printf 'from-stdin\nto-out')" 'stdin and stdout passed through'
is "$(cat $SCRATCH/io.err)" "to-err" 'stderr passed through'
is "$(sort $LS/output-io.log | tr '\n' ' ')" "from-stdin to-err to-out " 'output copy kept in the log set'
is "$(extra io output)" output-io.log 'end marker names the copy'

# a dsmc-like client: the seed's perf.bat output, four summaries
cat > $SCRATCH/dsmc <<EOS
#!/bin/sh
cat $TOP/tests/fixtures/clients/adsm-perfdata.txt
EOS
chmod +x $SCRATCH/dsmc
$PERFLOG run -o "$LS" -- $SCRATCH/dsmc >/dev/null
is "$?" 0 'fake ADSM client ran'
is "$(extra dsmc client.summaries)" 4 'four summaries found'
is "$(extra dsmc client.bytes_transferred)" '50.0 MB' 'last summary: bytes as printed'
is "$(extra dsmc client.bytes_transferred.num)" 52428800 'last summary: bytes as a number'
is "$(extra dsmc client.elapsed)" '0:01:52' 'last summary: elapsed as printed'
is "$(extra dsmc client.1.elapsed)" '0:00:39' 'first summary kept too'
is "$(extra dsmc client.transfer_rate)" '1,525.81 KB/sec' 'ADSM transfer rate'
printf '#!/bin/sh\ncat %s\nexit 4\n' $TOP/tests/fixtures/clients/sp-full.txt > $SCRATCH/dsmc-sp
chmod +x $SCRATCH/dsmc-sp
$PERFLOG run -o "$LS" -l sp -- $SCRATCH/dsmc-sp >/dev/null
is "$?" 4 'fake Storage Protect client: status 4 (warnings)'
is "$(extra sp client.bytes_transferred)" '7.31 GB' 'SP: 7.31 GB as printed'
is "$(extra sp client.elapsed)" '00:04:16' 'SP: 00:04:16 as printed'
is "$(extra sp client.elapsed.num)" 256 'SP: 256 s'
is "$(extra sp client.objects_failed)" 2 'SP: failed objects'

# the Process instance: two children burn 1.5 s of CPU each
if cc -O1 -o $SCRATCH/burn -x c - <<'EOC'
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
static double cpu(void) { struct timespec t; clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t); return t.tv_sec + t.tv_nsec / 1e9; }
int main(int argc, char **argv) {
	double s = argc > 1 ? atof(argv[1]) : 1.5;
	for (int i = 0; i < 2; i++)
		if (fork() == 0) { volatile unsigned long x = 1; while (cpu() < s) for (int k = 0; k < 100000; k++) x = x * 3 + 1; _exit(0); }
	while (wait(NULL) > 0) ;
	return 0;
}
EOC
then
	$PERFLOG run -o "$LS" -l burn -- $SCRATCH/burn 1.5
	is "$?" 0 'burner ran'
	like "$(extra burn rusage.utime)" '^[0-9.]+$' 'rusage in the end marker'
	near "$(extra burn rusage.utime)" 3.0 0.25 'rusage: 3 s of user CPU'
	# run's last sample is taken at its end; the row it falls in is
	# complete once the collector's next scheduled sample is written
	end_t=$(date +%s)
	wait_for 10 sh -c "[ \$(rrdtool last '$LS/Process-burn.rrd') -gt $end_t ]"
	$PERFLOG export "$LS" --csv $SCRATCH/ls.csv
	# integrate Process(burn)\% Processor Time over the logged rows (1 s each)
	got=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i ~ /Process\(burn\)\\% Processor Time$/) c = i; next }
		c && $c != "" { s += $c } END { printf "%.0f", s }' $SCRATCH/ls.csv)
	near "$got" 300 0.25 'Process(burn): % Processor Time integrates to ~300 cpu-% s'
else
	echo "ok $((_tap_n + 1)) # SKIP no C compiler"; _tap_n=$((_tap_n + 1))
fi

is "$($PERFLOG run 2>&1 >/dev/null; echo $?)" "$(printf 'perflog run: CMD missing (perflog run [OPTIONS] -- CMD [ARG...])\n2')" 'no command: usage error'
touch $SCRATCH/afile
out=$($PERFLOG run -o $SCRATCH/afile/logs -- touch $SCRATCH/ran 2>&1 >/dev/null); st=$?
is "$st:$(printf '%s\n' "$out" | wc -l)" "1:1" 'no collector can start: one-line error, exit 1'
ok 'and the command was not run' test ! -e $SCRATCH/ran
ok 'stop' $PERFLOG stop "$LS"
done_testing
