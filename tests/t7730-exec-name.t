#!/bin/sh
# A thread's name is re-read, not kept from before its exec (issue 21,
# item 7): a client started as `sh -c '...; exec client'` was listed as
# sh in the waits file and the verdict ("(sh): a single thread").
#   - sh -c 'sleep 1; exec loadgen burn 2' under perflog run -i 1: the
#     waits file's row of that thread (the shell's tid) names loadgen,
#     and its work (a CPU's worth of burning) is in that row
. "$(dirname "$0")/lib.sh"
LOADGEN=$TOP/build/tools/loadgen
[ -x "$LOADGEN" ] || skip_all "build/tools/loadgen not built (make check builds it)"
[ "$(id -u)" = 0 ] || skip_all "the command's own cgroup needs root"
plan 3

LS=$SCRATCH/logs
"$PERFLOG" run -i 1 -o "$LS" -l ex -- sh -c 'echo $$ >"$0"; sleep 1; exec "$1" burn 2' \
	"$SCRATCH/sh.pid" "$LOADGEN" >/dev/null 2>"$SCRATCH/run.err"
is "$?" 0 "perflog run of sh -c 'sleep 1; exec loadgen burn 2'"
set -- "$LS"/*/markers.tsv
f=$(grep -P '\tend\tex\t' "$1" | tail -n 1 | tr '\t' '\n' | sed -n 's/^waits=//p')
tid=$(cat "$SCRATCH/sh.pid")
row=$(awk -F'\t' -v t="$tid" '$1 == t' "$(dirname "$1")/$f" 2>/dev/null | head -n 1)
name=$(printf '%s\n' "$row" | cut -f2)
is "$name" loadgen "the thread that exec'ed is named for its program (row: $row)"
# cpu + cpu_wait: the 2 s burning (less than 2 s of CPU on a loaded host)
busy=$(printf '%s\n' "$row" | awk -F'\t' '{ printf "%.2f", $5 + $6 }')
ok "its row holds the burning (${busy} s running or runnable)" \
	awk -v b="$busy" 'BEGIN { exit !(b >= 1.5) }'
