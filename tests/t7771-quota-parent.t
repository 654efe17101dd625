#!/bin/sh
# The CPU quota in force is named where it is (issue 50 item 7): a group
# of our own with a quota of a quarter CPU, a child group under it (v2:
# with cpu.max 200000 100000, two CPUs, more than its parent allows, as
# v2 lets it ask; v1 refuses a child more than its parent, so its child
# has none), perflog run put in the child (its command's own group a
# child of that). The end marker carries the quota of the parent, 0.25,
# and the group as the kernel names it (cgroup.quota_group=/plqp$$); the
# report names that group, not the command's: its Process section's
# cgroup line, and the Bottleneck line when the quota held the loop back
# ("cgroup /plqp$$'s quota of 0.25 CPU held it back"). It said "its
# cgroup's quota" and the marker had only the directory; the verdict
# graph's quota resource was named for the session ("CPU quota quota").
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-zoo.sh"
[ "$(id -u)" = 0 ] || skip_all "a cgroup of our own needs root"
zoo_cpu_quota plqp$$ 25000 || skip_all "no cgroup cpu controller to set a quota with"
parent=$ZOO_CG
mkdir "$parent/child" || skip_all "cannot make a child group under $parent"
track_cgroup "$parent/child"
if [ -f "$parent/cpu.max" ]; then
	echo "+cpu" >"$parent/cgroup.subtree_control" &&
		echo "200000 100000" >"$parent/child/cpu.max" ||
		skip_all "cannot give the child group a quota of its own"
fi
# The smallest quota is not always the one that throttles: plqs$$ has
# half a CPU, its child kid 0.45 (smaller; v1 takes it), and a sibling
# group sib under plqs$$ burns two loops that use the half CPU up. The
# loop run in kid gets about a quarter CPU from plqs$$ and never reaches
# its own 0.45: plqs$$ throttles it. The end marker names plqs$$ and 0.5,
# and % Throttled Periods is plqs$$'s (held in most periods); the code
# before named kid's 0.45 and logged kid's throttling, about 0.
zoo_cpu_quota plqs$$ 50000 || skip_all "cannot make a second quota group"
sib=$ZOO_CG
mkdir "$sib/kid" "$sib/sib" || skip_all "cannot make child groups under $sib"
track_cgroup "$sib/kid"
track_cgroup "$sib/sib"
if [ -f "$sib/cpu.max" ]; then
	echo "+cpu" >"$sib/cgroup.subtree_control" &&
		echo "45000 100000" >"$sib/kid/cpu.max" ||
		skip_all "cannot give kid a quota of its own"
else
	echo 100000 >"$sib/kid/cpu.cfs_period_us" &&
		echo 45000 >"$sib/kid/cpu.cfs_quota_us" ||
		skip_all "cannot give kid a quota of its own"
fi
plan 8
zoo_start || { echo "Bail out! perflog start failed"; exit 1; }
field() { grep -P "\tend\t$1\t" "$ZOO_SET/markers.tsv" | tail -n 1 | tr '\t' '\n' | sed -n "s/^$2=//p"; }

zoo_run quota "$parent/child/cgroup.procs" -- sh -c \
	'end=$(($(date +%s) + 5)); while [ $(date +%s) -lt $end ]; do :; done'
is "$?" 0 'a 5 s loop run in the child group'
burners=""
for _ in 1 2; do
	sh -c 'while :; do :; done' &
	track_pid $!
	burners="$burners $!"
	echo $! >"$sib/sib/cgroup.procs"
done
zoo_run sibling "$sib/kid/cgroup.procs" -- sh -c \
	'end=$(($(date +%s) + 5)); while [ $(date +%s) -lt $end ]; do :; done'
is "$?" 0 'a 5 s loop run in kid beside a sibling burning the parent'"'"'s quota'
stop_pids $burners
zoo_stop
is "$(field quota cgroup.cpu_quota) $(field quota cgroup.quota_group)" "0.250 /plqp$$" \
	'the end marker: the parent'"'"'s quota and its group as the kernel names it'
like "$(_zoo_session quota | grep 'its cgroup:')" "CPU quota 0.25 \\(cgroup /plqp$$\\)" \
	'the report'"'"'s cgroup line names the group that has the quota'
# the verdict graph's quota resource (report -v): the group's, shared by
# the trees under it
like "$(_zoo_session quota | grep -m 1 '^    CPU quota ')" "CPU quota /plqp$$ on " \
	'the graph'"'"'s quota resource is the group that has it'
# The loop is a date a command, each alive 0.08 s and queued most of
# it: its shell waits on their pipes by command (the edges by pid, one a
# new pipe, gave way to each other in the thread's slots, or the memo
# kept the first date's pipe, gone: "nothing: the stage date[N] waited
# on what the log does not see"; this check skipped then)
line=$(zoo_line quota)
diag "quota: $line"
like "$line" "^Bottleneck: CPU quota: .*; cgroup /plqp$$'s quota of 0.25 CPU held it back" \
	'the verdict: the quota held the loop back, the parent group named where the quota is'
is "$(field sibling cgroup.cpu_quota) $(field sibling cgroup.quota_group)" "0.500 /plqs$$" \
	'the end marker names the parent that throttled, not kid'"'"'s smaller quota'
periods=$(zoo_mean sibling "% Throttled Periods")
diag "sibling: % Throttled Periods mean $periods; $(cat "$SCRATCH/sibling.load" 2>/dev/null)"
is "$(awk -v p="$periods" 'BEGIN { print (p != "none" && p > 20) }')" 1 \
	'% Throttled Periods is the parent'"'"'s, held in most periods (more than 20%)'
