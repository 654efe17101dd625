#!/bin/bash
# The OOM killer ends the collector (issue 48): `perflog start -f -i 1`
# in a v1 memory cgroup of its own, the one process there the kernel may
# pick (oom_score_adj 1000; the memory hog beside it -1000), killed when
# the hog fills the group after 5 s. With the production flush (60 s: the
# RRD files hold only the first row then) every sample it took is in the
# journal: at least 4 rows export, none of them all zeros.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-robust.sh"
. "$(dirname "$0")/lib-zoo.sh"
LOGS=$SCRATCH/logs
zoo_cgroup memory "perflog-oom-$$" || skip_all "no memory cgroup here"
CG=$ZOO_CG
[ -f "$CG/memory.limit_in_bytes" ] || skip_all "not a v1 memory cgroup"
echo $((64 << 20)) > "$CG/memory.limit_in_bytes"

env -u PERFLOG_BATCH $PERFLOG start -f -o $LOGS -i 1 > $SCRATCH/fg.out 2>&1 &
fg=$!
track_pid $fg
echo $fg > "$CG/cgroup.procs"
echo 1000 > /proc/$fg/oom_score_adj
sleep 5
# the hog: 96 MiB in a 64 MiB group, immune itself (its children inherit)
sh -c "echo \$\$ > '$CG/cgroup.procs'; echo -1000 > /proc/\$\$/oom_score_adj; head -c 96M /dev/zero | tail > /dev/null" &
hog=$!
track_pid $hog
exec 3>&2 2>/dev/null	# the shell's "Killed" lines for the hog
wait_for 20 sh -c "! kill -0 $fg 2>/dev/null"
ok 'the OOM killer ended the collector' sh -c "! kill -0 $fg 2>/dev/null"
ok 'the kernel says so' sh -c "grep -q '^oom_kill [1-9]' '$CG/memory.oom_control' || dmesg 2>/dev/null | tail -50 | grep -q 'Killed process $fg'"
# the hog's processes, stuck at the group's limit: every one left in it
for p in $(cat "$CG/cgroup.procs") $hog; do kill -9 "$p" 2>/dev/null; done
wait $fg 2>/dev/null
exec 2>&3 3>&-
dir=$(ls -d $LOGS/*/ | head -1)
dir=${dir%/}
ok 'no stop line (killed)' sh -c "! grep -q '^stop' '$dir/perflog.meta'"
ok 'export --csv works' sh -c "$PERFLOG export '$dir' --csv '$SCRATCH/k.csv'"
rows=$(csv_rows_with_values $SCRATCH/k.csv)
ok "the samples of 5 s export after the OOM kill ($rows rows)" test "$rows" -ge 4
zeros=$(tail -n +2 $SCRATCH/k.csv | awk -F, '{ z = 1; for (i = 2; i <= NF; i++) if ($i != "" && $i + 0 != 0) z = 0; if (z) n++ } END { print n + 0 }')
is "$zeros" 0 'no exported row is all zeros'
ok 'every RRD file passes rrdtool info' rrds_ok "$dir"
done_testing
