#!/bin/sh
# The zoo of real limits, part 1: the CPU and the client's own pacing.
# Each case induces its limit on the real kernel and runs a backup-like
# command under `perflog run -i 1` (joined to one collector); the report
# must name the right resource as the first word of its Bottleneck line,
# with the right dominant wait state of the client's working threads:
#   gzip1   one thread compressing (gzip -9 of incompressible data, in a
#           loop for 8 s): CPU; running dominates
#   gzipN   every CPU compressing (one such loop per CPU): CPU
#   quota   the same loop in a cgroup with a quota of a quarter CPU (v1
#           cpu.cfs_quota_us or v2 cpu.max), perflog run inside it (the
#           command's own group is a child of perflog run's): CPU quota;
#           runnable but not running dominates
#   pace    a writer that sleeps between 64 KiB writes to keep 4 MB/s:
#           nothing; sleep dominates (run beside the quota case)
#   quotasys the quota case again without perflog run, between `perflog
#           mark --begin` and `--end` (start/mark only): no wait states,
#           so the verdict comes from the system's signals, the host's CPU
#           pressure stalls included: CPU
# Under other load the compressing threads also wait for a CPU: the CPU
# cases accept running or CPU wait as the dominant state (both are the
# CPU) and check the word; the quota case insists on CPU wait, which more
# load only makes larger.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-zoo.sh"

SECS=6
# a few MiB that do not compress: each gzip is short, the loop keeps time
"$LOADGEN" write "$SCRATCH/rnd.bin" 2000000 >/dev/null || { echo "Bail out! no data"; exit 1; }
loop="end=\$((\$(date +%s) + $SECS)); while [ \$(date +%s) -lt \$end ]; do gzip -9 -c $SCRATCH/rnd.bin >/dev/null; done"
zoo_start || { echo "Bail out! perflog start failed"; exit 1; }

zoo_run gzip1 -- sh -c "$loop"
is "$?" 0 'gzip1: ran'
n=$(nproc)
zoo_run gzipN -- sh -c "i=0; while [ \$i -lt $n ]; do ($loop) & i=\$((i + 1)); done; wait"
is "$?" 0 "gzipN: $n loops ran"

quota=""
zoo_cpu_quota plzq$$ 25000 && quota=$ZOO_CG
# the group's throttled time as the kernel counts it (cpu.stat: v2
# throttled_usec, v1 throttled_time in ns), in microseconds
throttled_us() {
	awk '$1 == "throttled_usec" { print $2; exit } $1 == "throttled_time" { printf "%.0f\n", $2 / 1000; exit }' "$quota/cpu.stat"
}
# pace runs beside the quota case: a writer that sleeps 90% of its time
# and a loop held to a quarter of a CPU leave each other most of the
# machine, and each is judged on its own tree (6 s of the suite's 34
# when they ran one after the other)
zoo_run pace -- "$LOADGEN" pace $SECS 4000000 "$SCRATCH/paced.out" &
pace_pid=$!
track_pid $pace_pid
if [ -n "$quota" ]; then
	th0=$(throttled_us) q0=$(date +%s.%N)
	zoo_run quota "$quota/cgroup.procs" -- sh -c "$loop"
	is "$?" 0 'quota: ran inside the quota group'
	th1=$(throttled_us) q1=$(date +%s.%N)
else
	skip 'quota: no cgroup cpu controller to set a quota with'
fi
wait $pace_pid
is "$?" 0 'pace: ran'

if [ -n "$quota" ]; then
	"$PERFLOG" mark --begin -s quotasys -d "$ZOO_SET" "the quota loop, marked only" &&
	ZOO_PROCS=$quota/cgroup.procs sh -c 'echo $$ >"$ZOO_PROCS" && exec sh -c "$0"' "$loop" &&
	"$PERFLOG" mark --end -s quotasys -d "$ZOO_SET" "done"
	is "$?" 0 'quotasys: marked around the quota loop'
else
	skip 'quotasys: no cgroup cpu controller to set a quota with'
fi
zoo_stop

zoo_check gzip1 CPU 'cpu|cpu_wait'
like "$(zoo_line gzip1)" "one CPU's worth|CPU contention" 'gzip1: one CPU'"'"'s worth (or contention under load)'
# The loops' shells wait on their gzips (wait4) most of their time: a
# wait on a child of the tree is a wait on a stage (edges-LABEL.tsv kind
# child), left out of the tree's split like a pipe's (waitedges.h
# waitedges_leave_out). Before, it was "other" and held 75-78% of the
# working threads' time: the CPU states 22-26% against the 25% floor of a
# dominant state, and in one clean make check gzip1's verdict 'nothing'.
zoo_check gzipN CPU 'cpu|cpu_wait'
if [ -n "$quota" ]; then
	# How long the quota holds the loop back depends on how fast it can
	# spend it: alone on a CPU 25 ms of each 100 go and it waits 75%;
	# beside other load it gets a CPU more slowly, spends its quota
	# later, and is throttled less (18% beside stress-ng, 6% when it got
	# 17% of a CPU: then the quota is not what held it back, and the
	# report rightly says contention). So the kernel's own count over the
	# case (cpu.stat) decides what the verdict must be (the report calls
	# it a quota from 10% throttled: report/README.md; 15 and over must
	# be one), and the logged share is checked against that count.
	kthr=$(awk -v a="${th0:-}" -v b="${th1:-}" -v s="$(calc "$q1 - $q0")" 'BEGIN { if (a != "" && b != "" && s > 0) printf "%.1f\n", (b - a) / 1e4 / s }')
	mthr=$(zoo_mean quota '% Throttled Time')
	diag "quota: the kernel counted ${kthr:-no} % of the case throttled, perflog $mthr"
	if [ -n "$kthr" ] && awk -v k="$kthr" 'BEGIN { exit !(k >= 15) }'; then
		# the loop's sh waits on its gzips (child edges): when a gzip
		# worked enough to be a stage, the stages name it (issue 29)
		zoo_check quota CPU cpu_wait '^Bottleneck: CPU quota: (the stage gzip(\[[0-9]+\])? was )?runnable but not running'
		like "$(zoo_line quota)" 'quota of 0.25 CPU held it back \(throttled in [0-9]+% of its periods; % Throttled Time [0-9]+, 100 per CPU\)' 'quota: its size and the throttling, as a share of its periods with the per-CPU figure beside it'
		zoo_logged quota '% Throttled Periods' 20
	else
		zoo_check quota CPU cpu_wait '^Bottleneck: CPU (quota|contention): (the stage gzip(\[[0-9]+\])? was )?runnable but not running'
		skip "quota: throttled only ${kthr:-?}% (the machine left the loop less than its quota): no quota to name"
	fi
	zoo_logged quota '% CPU Wait Time' 30
	if [ -n "$kthr" ] && awk -v k="$kthr" 'BEGIN { exit !(k >= 5) }'; then
		LOAD_FIGS=$(cat "$SCRATCH/quota.load")
		# (the rows' mean sits ~15% under the kernel's: the case's
		# first and last rows are partly before and after it)
		ok "quota: logged % Throttled Time $mthr% is the kernel's $kthr% (cpu.stat; 75% - 3 .. 110% + 5)" \
			awk -v m="$mthr" -v k="$kthr" 'BEGIN { exit !(m != "none" && m >= 0.75 * k - 3 && m <= 1.10 * k + 5) }'
	else
		skip "quota: the quota hardly held the loop back (the kernel counted ${kthr:-no} % throttled; $(cat "$SCRATCH/quota.load"))"
	fi
else
	for i in 1 2 3 4 5 6 7; do skip 'quota: not set up'; done
fi
zoo_check pace nothing sleep 'slept [0-9]+% of the time by its own choice'
zoo_logged pace '% Sleep Time' 50
if [ -n "$quota" ]; then
	diag "quotasys: $(zoo_line quotasys)"
	is "$(zoo_word quotasys)" CPU 'quotasys: the system signals name CPU'
	is "$(zoo_dominant quotasys)" "" 'quotasys: no wait states without perflog run'
	like "$(zoo_line quotasys)" 'Pressure\(cpu\)|Processor\(_Total\)|one CPU' \
		'quotasys: from the CPU pressure stalls (or the host'"'"'s CPUs, when busy)'
else
	for i in 1 2 3; do skip 'quotasys: not set up'; done
fi
done_testing
