#!/bin/sh
# The wait states of a perflog run command, against a client that makes
# them hard (issue 21, items 3, 4 and 7); each under perflog run -i 1 in
# the command's own cgroup.
# 1. Every thread of the cgroup is listed: the kernel hands cgroup.threads
#    (v1: tasks) out a page or so a read, and a single read listed 681 of
#    a 2001-thread command. loadgen with 2001 threads: the end marker's
#    waits.threads counts all and the main thread (2002), and the waits
#    file has a row for each.
# 2. A thread's name is re-read, not kept from before its exec: a client
#    started as `sh -c '...; exec client'` was listed as sh in the waits
#    file and the verdict. sh -c 'sleep 1; exec loadgen burn 2': the row
#    of the shell's tid names loadgen, and holds the burning.
# 3. The report says which figures its wait states come from: when the
#    totals file an end marker names cannot be used (too large, damaged,
#    gone), it fell back to the logged counters in silence. loadgen burn
#    4 (burn 2 beside a make check's load: its session's counters too
#    few rows to stand in, and the report said nothing of the file):
#    the totals used, no word of a fallback; the file damaged, then
#    removed: the report says the totals were not used and why (a verdict
#    that names the client's split says it took the logged counters:
#    test_report).
. "$(dirname "$0")/lib.sh"
LOADGEN=$TOP/build/tools/loadgen
[ -x "$LOADGEN" ] || skip_all "build/tools/loadgen not built (make check builds it)"
[ "$(id -u)" = 0 ] || skip_all "the command's own cgroup needs root"
plan 12
# each part runs its own collector under its own directory
LS=$SCRATCH/logs
# the end marker of session $1 (the log set under $LS), and its field $2
end_of() { grep -hP "\tend\t$1\t" "$LS"/*/markers.tsv | tail -n 1; }
field() { end_of "$1" | tr '\t' '\n' | sed -n "s/^$2=//p"; }

# --- 1. a 2001-thread command, whole ---
"$PERFLOG" run -i 1 -o "$LS" -l many -- "$LOADGEN" threads 2001 3 >/dev/null 2>"$SCRATCH/run.err"
is "$?" 0 'perflog run of a 2001-thread command'
set -- "$LS"/*/markers.tsv
SET=$(dirname "$1")
n=$(field many waits.threads)
# (Until stop 43 a known defect, TODO here: beside other suites, or
# stress-ng --cpu 6 --io 2, the first tick over the 2,001 new threads
# took 1-3 s, the sampler mostly waiting for a CPU, and the threads that
# ended before it sampled them were dropped as never read: 426 to 2,002
# rows (0 under a heavier load). A thread now has its figures from the
# moment it is listed (test_waitsfirst): 2,002 in 14 runs of 16 beside
# that load; one of the others had 1,924, the threads begun last (they
# all end together) living
# between two listings at 1.2 ticks a second. Those now have rows from
# their exit records (waits.h waits_exits), when the collector has
# them: root, as in make check. And a tick that listed its new threads
# 0.4-0.6 s after its moment dated their starts that much early, before
# the session's first read, and the totals left them out: 1,796 to
# 1,990 rows in 5 runs of 12 beside stress-ng --cpu 4 --io 2; a start is
# now reckoned from the uptime when it is read: test_waitsfirst.)
ok "the end marker counts every thread: waits.threads=$n (2001 and the main thread)" \
	test "${n:-0}" -ge 2002
[ "${n:-0}" -ge 2002 ] || { echo "# end marker: $(end_of many)" >&2; cat "$SCRATCH/run.err" >&2; }
rows=$(grep -c '^[0-9]' "$SET/$(field many waits)" 2>/dev/null)
# (one each: a thread the sampler ended itself has no second row from
# its exit record)
ok "the waits file has a row for each, one only ($rows)" test "${rows:-0}" -eq 2002

# --- 2. named for what it exec'ed ---
LS=$SCRATCH/l2
"$PERFLOG" run -i 1 -o "$LS" -l ex -- sh -c 'echo $$ >"$0"; sleep 1; exec "$1" burn 2' \
	"$SCRATCH/sh.pid" "$LOADGEN" >/dev/null 2>"$SCRATCH/run.err"
is "$?" 0 "perflog run of sh -c 'sleep 1; exec loadgen burn 2'"
tid=$(cat "$SCRATCH/sh.pid")
set -- "$LS"/*/markers.tsv
SET=$(dirname "$1")
row=$(awk -F'\t' -v t="$tid" '$1 == t' "$SET/$(field ex waits)" 2>/dev/null | head -n 1)
is "$(printf '%s\n' "$row" | cut -f2)" loadgen "the thread that exec'ed is named for its program (row: $row)"
# cpu + cpu_wait: the 2 s burning (less than 2 s of CPU on a loaded host)
busy=$(printf '%s\n' "$row" | awk -F'\t' '{ printf "%.2f", $5 + $6 }')
ok "its row holds the burning (${busy} s running or runnable)" \
	awk -v b="$busy" 'BEGIN { exit !(b >= 1.5) }'

# --- 3. the report says what it used ---
"$PERFLOG" run -i 1 -o "$SCRATCH/l3" -l b -- "$LOADGEN" burn 4 >/dev/null 2>"$SCRATCH/run.err"
is "$?" 0 'perflog run of loadgen burn 4'
set -- "$SCRATCH"/l3/*/markers.tsv
SET=$(dirname "$1")
f=$(grep -P '\tend\tb\t' "$1" | tail -n 1 | tr '\t' '\n' | sed -n 's/^waits=//p')
"$PERFLOG" report -v "$SET" >"$SCRATCH/r1.txt" 2>&1
ok 'the totals used: no word of a fallback' sh -c \
	"grep -q 'threads worked' '$SCRATCH/r1.txt' && ! grep -q 'not used' '$SCRATCH/r1.txt'"
printf 'tid\tcomm\tstart\talive\tcpu\tcpu_wait\tdisk\tnet\tother\tsleep\tio_bytes\tworking\tthreads\ngarbage\n' >"$SET/$f"
"$PERFLOG" report -v "$SET" >"$SCRATCH/r2.txt" 2>&1
ok 'a damaged totals file: the report says it was not used, and why' \
	grep -q "the per-thread totals were not used: '$f': no thread in it could be read" "$SCRATCH/r2.txt"
ok "... and still gives a Bottleneck line" grep -q '^  Bottleneck: ' "$SCRATCH/r2.txt"
grep -q 'not used' "$SCRATCH/r2.txt" || sed 's/^/#   /' "$SCRATCH/r2.txt" >&2
rm -f "$SET/$f"
"$PERFLOG" report -v "$SET" >"$SCRATCH/r3.txt" 2>&1
ok 'the totals file gone: said, naming it' \
	grep -q "the per-thread totals were not used: .*$f" "$SCRATCH/r3.txt"
grep -q 'not used' "$SCRATCH/r3.txt" || sed 's/^/#   /' "$SCRATCH/r3.txt" >&2
ok 'the report still gives the wait states, from the counters' \
	grep -q 'logged counters: idle threads not told apart' "$SCRATCH/r3.txt"
