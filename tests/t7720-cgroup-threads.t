#!/bin/sh
# The wait-state sampler lists every thread of a command's cgroup (issue
# 21, item 3): the kernel hands cgroup.threads (v1: tasks) out a page or
# so a read, and a single read listed 681 of a 2001-thread command.
#   - loadgen with 2001 threads parked on a socket, under perflog run -i 1
#     (its own cgroup): the end marker's waits.threads counts all of them
#     and the main thread (2002); a thread list cut short says less
#   - the waits file has as many thread rows
. "$(dirname "$0")/lib.sh"
LOADGEN=$TOP/build/tools/loadgen
[ -x "$LOADGEN" ] || skip_all "build/tools/loadgen not built (make check builds it)"
[ "$(id -u)" = 0 ] || skip_all "the command's own cgroup needs root"
plan 3

LS=$SCRATCH/logs
"$PERFLOG" run -i 1 -o "$LS" -l many -- "$LOADGEN" threads 2001 3 >/dev/null 2>"$SCRATCH/run.err"
is "$?" 0 'perflog run of a 2001-thread command'
set -- "$LS"/*/markers.tsv
m=$(grep -P '\tend\tmany\t' "$1" | tail -n 1)
n=$(printf '%s\n' "$m" | tr '\t' '\n' | sed -n 's/^waits\.threads=//p')
ok "the end marker counts every thread: waits.threads=$n (2001 and the main thread)" \
	test "${n:-0}" -ge 2002
[ "${n:-0}" -ge 2002 ] || { echo "# end marker: $m" >&2; cat "$SCRATCH/run.err" >&2; }
f=$(printf '%s\n' "$m" | tr '\t' '\n' | sed -n 's/^waits=//p')
rows=$(grep -c '^[0-9]' "$(dirname "$1")/$f" 2>/dev/null)
ok "the waits file has a row for each ($rows)" test "${rows:-0}" -ge 2002
