#!/bin/bash
# perflog run of a command the OOM killer ends (issue 50 item 8): a
# python3 that allocates 256 MiB in a memory cgroup limited to 32 MiB,
# perflog run in that group as a backup client run under a memory limit
# would be. What perflog reads is the kernel's oom_kill count in the
# command's memory cgroup (v2 memory.events, v1 memory.oom_control),
# before and after the command; not the kernel log.
#   oom      the command itself killed: the end marker's text says
#            "killed by the OOM killer" (it said "killed by signal 9"),
#            with oom_kill=1; the report says so beside exit status 137
#   wrapper  a script whose python3 child is killed, the script going on
#            to exit 3: oom_kill=1 and the report says the OOM killer
#            ended a process in its memory cgroup (nothing was said)
#   other    (v1) the OOM killer ends a process in the group above
#            perflog run's, while the command is killed with SIGKILL by
#            someone else: not an OOM kill of the command. v1 counts a
#            kill in the victim's own group only; the groups above were
#            summed, and said "killed by the OOM killer"
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-zoo.sh"
command -v python3 >/dev/null || skip_all "no python3"
zoo_cgroup memory plom$$ || skip_all "no memory cgroup here"
L=$ZOO_CG
if [ -f "$L/memory.limit_in_bytes" ]; then
	echo $((32 << 20)) >"$L/memory.limit_in_bytes" || skip_all "cannot limit $L"
	v1=1
else
	echo $((32 << 20)) >"$L/memory.max" || skip_all "cannot limit $L"
	v1=""
fi
HOG='b = bytearray(256 << 20)'
# the collector outside the limited group: only the run and its command
# are in it
LS=$($PERFLOG start -o $SCRATCH/logs -i 1)
ok 'a collector' test -d "$LS"
# The hog is the one the OOM killer picks (oom_score_adj 1000; lowering
# perflog run's instead needs CAP_SYS_RESOURCE, which a container's root
# may lack)
OOM='echo 1000 >/proc/self/oom_score_adj;'
# perflog run ARGS in group $1 (a process moved there execs it)
run_in() {
	g=$1
	shift
	sh -c 'echo $$ >"$0/cgroup.procs" || exit 97; exec "$@"' "$g" $PERFLOG run -o "$LS" "$@"
}
end_of() { awk -F'\t' -v s="$1" '$2 == "end" && $3 == s' "$LS/markers.tsv"; }
extra() { end_of "$1" | tr '\t' '\n' | sed -n "s/^$2=//p"; }
# --- oom: the command itself ---
run_in $L -l oom -- sh -c "$OOM exec python3 -c '$HOG'" >$SCRATCH/oom.out 2>&1
is "$?" 137 'oom: 128 + SIGKILL'
is "$(end_of oom | cut -f4)" 'killed by the OOM killer' "oom: the end marker's text"
is "$(extra oom oom_kill)" 1 'oom: oom_kill=1'
is "$(extra oom signal)" 9 'oom: signal=9'

# --- wrapper: a child killed, the script goes on ---
run_in $L -l wrapper -- sh -c "$OOM python3 -c '$HOG'; exit 3" >$SCRATCH/wrapper.out 2>&1
is "$?" 3 "wrapper: the script's own status"
is "$(end_of wrapper | cut -f4)" 'exit 3' "wrapper: the end marker's text"
is "$(extra wrapper oom_kill)" 1 'wrapper: oom_kill=1'

# --- other: a kill in the group above, the command killed by SIGKILL ---
if [ -n "$v1" ]; then
	mkdir $L/run && track_cgroup $L/run
	# the command waits on a fifo, so that nothing in the group forks
	# or grows while the hog fills it (beside stress-ng, a poll with
	# sleep's forks there once made a second kill, of perflog run)
	mkfifo $SCRATCH/go
	run_in $L/run -l other -- sh -c "touch $SCRATCH/started; read x <$SCRATCH/go; kill -9 \$\$" \
		>$SCRATCH/other.out 2>&1 &
	run=$!
	track_pid $run
	wait_for 60 test -e $SCRATCH/started
	o0=$(sed -n 's/^oom_kill //p' $L/memory.oom_control)
	# (the shell's "Killed" line goes where the group's stderr goes)
	{ sh -c 'echo $$ >"$0/cgroup.procs" && '"$OOM"' exec python3 -c "$1"' $L "$HOG"; } 2>/dev/null
	is "$?:$(( $(sed -n 's/^oom_kill //p' $L/memory.oom_control) - o0 ))" 137:1 'other: a process in the group above killed, counted there'
	timeout 60 sh -c "echo go >$SCRATCH/go"
	wait $run
	is "$?" 137 'other: the command killed by SIGKILL'
	is "$(end_of other | cut -f4)" 'killed by signal 9' "other: the end marker's text"
	is "$(extra other oom_kill)" '' 'other: no oom_kill'
else
	for i in 1 2 3 4; do skip 'other: v1 only (v2 counts a kill in the groups above too)'; done
fi
$PERFLOG stop "$LS" >/dev/null
$PERFLOG report -v "$LS" >$SCRATCH/report.txt 2>&1
session() { awk -v s="$1" '/^Session / { c = $2 } c == s' $SCRATCH/report.txt; }
like "$(session oom)" 'exit status: 137 \(killed by the OOM killer\)' 'report: oom killed by the OOM killer'
like "$(session wrapper)" 'exit status: 3 \(the OOM killer ended 1 process in its memory cgroup\)' 'report: wrapper, the process ended'
if [ -n "$v1" ]; then
	like "$(session other)" 'exit status: 137$' 'report: other, no OOM killer'
else
	skip 'other: v1 only'
fi
done_testing
