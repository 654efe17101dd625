#!/bin/sh
# A daemon watched by `perflog mark --watch PID` or `name=COMM` gets its
# cgroup's CPU quota and throttling like perflog run's command (issue 29,
# item 4): a tree watched by PID or name has no group of its own, so the
# collector read none, and a receiver held by a quota of 0.2 CPU read as
# "CPU contention" on a host with idle CPUs. Here a spinning shell in a
# group of our own with a quota of 0.2 CPU (v2 cpu.max, v1
# cpu.cfs_quota_us), watched by PID and then by name=: the end marker
# says cgroup.cpu_quota=0.200 and Process(SESSION) logs % Throttled Time.
# A daemon moved into its group after the watch began (cgrulesengd, an
# admin's echo PID > cgroup.procs) is held by the new group's quota: the
# collector found the group once, at the first sample, and read the old
# one's zero throttling to the end ("CPU contention" on an idle host;
# t3720's squota, whose receiver is moved in as it starts, once in four).
# A short server process (0.9 s, ended just before the end marker) is in
# the session's totals: the end marker's "waits" request wrote them from
# the last scheduled sample, before the unwatch took the last one, and a
# process that ended in between was missing (t3720's sfsync: the
# server's rsync of a 2 s copy, no server stage).
# Beside the waits file, the edges file (issue 29, item 1) is written with
# its header, for a watched tree too.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-zoo.sh"
[ "$(id -u)" = 0 ] || skip_all "a cgroup of our own needs root"
zoo_cgroup cpu plwq$$ || skip_all "no cgroup cpu controller to set a quota with"
g=$ZOO_CG
if [ -f "$g/cpu.cfs_quota_us" ]; then
	echo 100000 >"$g/cpu.cfs_period_us" && echo 20000 >"$g/cpu.cfs_quota_us"
else
	echo "20000 100000" >"$g/cpu.max"
fi || skip_all "cannot set a quota on $g"
plan 14
zoo_start || { echo "Bail out! perflog start failed"; exit 1; }
field() { grep -P "\t$1\t$2\t" "$ZOO_SET/markers.tsv" | tail -n 1 | tr '\t' '\n' | sed -n "s/^$3=//p"; }

# the daemon: a shell spinning in the group, named for the name= case
cp /bin/sh "$SCRATCH/plspin$$"
name=$(printf 'plspin%s' $$ | cut -c1-15)
G=$g "$SCRATCH/plspin$$" -c 'echo $$ >"$G/cgroup.procs"; while :; do :; done' &
spin=$!
track_pid $spin
sleep 0.5

"$PERFLOG" mark -d "$ZOO_SET" --begin -s bypid --watch $spin "by pid" 2>"$SCRATCH/m.err"
sleep 4
"$PERFLOG" mark -d "$ZOO_SET" --end -s bypid "done" 2>>"$SCRATCH/m.err"
is "$(field end bypid cgroup.cpu_quota)" 0.200 'PID watch: the end marker carries the quota (0.2 CPU)'

"$PERFLOG" mark -d "$ZOO_SET" --begin -s byname --watch "name=$name" "by name" 2>>"$SCRATCH/m.err"
sleep 4
"$PERFLOG" mark -d "$ZOO_SET" --end -s byname "done" 2>>"$SCRATCH/m.err"
is "$(field end byname cgroup.cpu_quota)" 0.200 'name= watch: the end marker carries the quota'
kill $spin

# moved: a spinner outside the group, watched, then moved into it
"$SCRATCH/plspin$$" -c 'while :; do :; done' &
mv=$!
track_pid $mv
sleep 0.3
"$PERFLOG" mark -d "$ZOO_SET" --begin -s moved --watch $mv "moved in later" 2>>"$SCRATCH/m.err"
sleep 1.5
echo $mv >"$g/cgroup.procs"
sleep 5
"$PERFLOG" mark -d "$ZOO_SET" --end -s moved "done" 2>>"$SCRATCH/m.err"
kill $mv
is "$(field end moved cgroup.cpu_quota)" 0.200 'moved in after the watch: the end marker carries the new group'"'"'s quota'

# short: a process of 0.9 s, watched by name, from 0.3 s past a second
# (the collector samples on the whole seconds at -i 1) to the end marker:
# one scheduled sample saw it, none after it (0.7 s of slack for a late
# start on a loaded machine, 0.8 s for a late end marker)
short=$(printf 'plshort%s' $$ | cut -c1-15)
cp "$LOADGEN" "$SCRATCH/$short"
"$PERFLOG" mark -d "$ZOO_SET" --begin -s short --watch "name=$short" "short" 2>>"$SCRATCH/m.err"
sleep 1
sleep "$(date +%N | awk '{ printf "%.3f\n", 1.3 - $1 / 1e9 - ($1 > 3e8 ? 0 : 1) }')"
used=$("$SCRATCH/$short" burn 0.9)
"$PERFLOG" mark -d "$ZOO_SET" --end -s short "done" 2>>"$SCRATCH/m.err"
is "$(field end short waits.threads)" 1 'short: the process that ended just before the end marker is in the totals'
ok "short: its row has its CPU time, all of it (the burn used $used s)" awk -F'\t' -v u="$used" 'NR > 1 && $5 >= 0.9 * u - 0.02 { f = 1 } END { exit !f }' "$ZOO_SET/$(field end short waits)"
zoo_stop
sed -n '/Session bypid/,/^$/p' "$SCRATCH/report.txt" | grep -i -m3 'bottleneck\|quota' | sed 's/^/# /'
thr=$(zoo_mean bypid '% Throttled Time')
diag "PID watch: % Throttled Time averages $thr"
ok "PID watch: Process(bypid) logs the throttling ($thr)" \
	awk -v t="$thr" 'BEGIN { exit !(t != "none" && t > 5) }'
thr=$(zoo_mean byname '% Throttled Time')
ok "name= watch: Process(byname) logs it too ($thr)" \
	awk -v t="$thr" 'BEGIN { exit !(t != "none" && t > 5) }'
like "$(sed -n '/Session bypid/,/^Session /p' "$SCRATCH/report.txt" | grep 'Bottleneck')" 'CPU quota' 'the report names the quota for the watched daemon'

thr=$(zoo_mean moved '% Throttled Time')
ok "moved: Process(moved) logs the new group's throttling ($thr)" \
	awk -v t="$thr" 'BEGIN { exit !(t != "none" && t > 5) }'
like "$(sed -n '/Session moved/,/^Session /p' "$SCRATCH/report.txt" | grep 'Bottleneck')" 'CPU quota' 'moved: the report names the quota'

w=$(field end bypid waits)
e=$(echo "$w" | sed 's/^waits-/edges-/')
ok "the edges file is beside the waits file ($e)" test -f "$ZOO_SET/$e"
is "$(head -n 1 "$ZOO_SET/$e")" "$(printf 'pid\tcomm\tdir\tkind\tpeer_pid\tpeer_comm\tlocal\tremote\tseconds\tbytes')" '... with its header'
is "$(head -n 1 "$ZOO_SET/$w" | awk -F'\t' '{ print $NF }')" pid 'the waits file ends with the pid column'
is "$(awk -F'\t' -v p=$spin 'NR > 1 && $1 == p { print $NF }' "$ZOO_SET/$w" | head -n 1)" "$spin" '... the spinner is its own process'
