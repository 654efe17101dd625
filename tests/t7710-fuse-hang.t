#!/bin/sh
# A hung FUSE mount does not freeze the collector (issue 21, item 2): the
# wait-state probe followed /proc/TID/fd/N into the file system with a
# plain stat, the FUSE server never answered its getattr, and the
# collector's loop waited on the sampler's lock ("perflog status" timed
# out, no sample for 37 s, then "36 sample(s) skipped").
#   - build/tools/fusehang serves one file whose read never answers (and,
#     being single-threaded, nothing else either from then on); a client
#     (sh -c 'exec cat MNT/f') blocks reading it under perflog run, joined
#     to a collector at -i 1, for HANG seconds
#   - meanwhile `perflog status` answers, each time within 3 s
#   - the collector's log says no sample was skipped, and its rows went on
#   - the blocked thread is classified as disk: it waits in read() on a
#     regular file (the type from the inode the kernel has, statx with
#     AT_STATX_DONT_SYNC; a file system's I/O, whatever serves it, is what
#     % Disk Wait Time counts), guessed or not, not left unknown
#   - everything is cleaned up: the client and the server killed by PID,
#     the mount removed (fusermount3 -u, else umount -l)
. "$(dirname "$0")/lib.sh"
FUSEHANG=$TOP/build/tools/fusehang
HANG=8
[ "$(id -u)" = 0 ] || skip_all "mounting a FUSE file system needs root here"
[ -c /dev/fuse ] || skip_all "no /dev/fuse"
[ -x "$FUSEHANG" ] || skip_all "build/tools/fusehang not built (make check builds it)"
"$FUSEHANG" 2>/dev/null
[ "$?" = 77 ] && skip_all "build/tools/fusehang was built without libfuse3 (apt-get install libfuse3-dev fuse3)"

MNT=$SCRATCH/mnt
mkdir -p "$MNT"
"$FUSEHANG" "$MNT" 2>"$SCRATCH/fuse.err" &
FPID=$!
track_pid $FPID
_unmount() {
	[ -n "${CPID:-}" ] && kill -KILL "$CPID" 2>/dev/null
	kill -KILL "$FPID" 2>/dev/null
	sleep 0.2
	if grep -q " $MNT " /proc/mounts; then
		fusermount3 -u "$MNT" 2>/dev/null || umount -l "$MNT" 2>/dev/null
	fi
	_cleanup
}
trap _unmount EXIT
wait_for 10 test -e "$MNT/f" || skip_all "mounting failed: $(head -c 200 "$SCRATCH/fuse.err")"
plan 7

LS=$("$PERFLOG" start -o "$SCRATCH/logs" -i 1)
is "$?" 0 'a collector at 1 s'
"$PERFLOG" run -o "$LS" -l fuse -- sh -c 'echo $$ >"$0"; exec cat "$1"' \
	"$SCRATCH/cat.pid" "$MNT/f" >/dev/null 2>"$SCRATCH/run.err" &
RPID=$!
track_pid $RPID
wait_for 10 test -s "$SCRATCH/cat.pid"
CPID=$(cat "$SCRATCH/cat.pid")
track_pid "$CPID"
wait_for 5 sh -c "grep -q request_wait_answer /proc/$CPID/wchan"
diag "client $CPID waits in $(cat /proc/$CPID/wchan 2>/dev/null) ($(cut -d' ' -f3 /proc/$CPID/stat 2>/dev/null))"

# status answers all along, each within a bound
slow=0 worst=0 end=$(($(date +%s) + HANG))
while [ "$(date +%s)" -lt "$end" ]; do
	t0=$(date +%s%N)
	timeout 10 "$PERFLOG" status >/dev/null 2>&1 || slow=$((slow + 1))
	ms=$((($(date +%s%N) - t0) / 1000000))
	[ "$ms" -gt "$worst" ] && worst=$ms
	[ "$ms" -gt 3000 ] && slow=$((slow + 1))
	sleep 1
done
ok "perflog status answered every time within 3 s (slowest ${worst} ms)" test "$slow" = 0
[ "$slow" = 0 ] || echo "# status: $slow slow or failed answers, slowest $worst ms" >&2

# the client's exit flushes its file, and the server answers nothing:
# only the server's death (the kernel aborts the connection) lets it go
kill -KILL "$CPID"
sleep 0.5
kill -KILL "$FPID"
wait_for 15 sh -c "! kill -0 $RPID 2>/dev/null"
ok 'perflog run ended once the client and the server were killed' sh -c "! kill -0 $RPID 2>/dev/null"
rows=$(rrdtool fetch "$LS/Process-fuse.rrd" AVERAGE -s -30 2>/dev/null | grep -c ': [0-9]')
"$PERFLOG" stop "$LS" >/dev/null
skipped=$(grep -c 'skipped' "$LS/collector.log" 2>/dev/null)
ok "no sample skipped (collector.log: ${skipped:-0} complaint(s))" test "${skipped:-0}" = 0
[ "${skipped:-0}" = 0 ] || grep skipped "$LS/collector.log" | head -3 >&2
ok "the tree's rows went on while it hung ($rows known rows)" test "${rows:-0}" -ge $((HANG - 2))

# the blocked thread's row in the waits file: disk its largest state
m=$(grep -P '\tend\tfuse\t' "$LS/markers.tsv" | tail -n 1)
f=$(printf '%s\n' "$m" | tr '\t' '\n' | sed -n 's/^waits=//p')
row=$(awk -F'\t' -v t="$CPID" '$1 == t' "$LS/$f" 2>/dev/null | head -n 1)
diag "waits row: $row"
best=$(printf '%s\n' "$row" | awk -F'\t' '{ m = 5; for (i = 6; i <= 10; i++) if ($i > $m) m = i;
	split("cpu cpu_wait disk net other sleep", n, " "); print n[m - 4] }')
is "$best" disk 'the blocked reader is classified as disk (read() on a regular file)'

_unmount_now() {
	fusermount3 -u "$MNT" 2>/dev/null || umount -l "$MNT" 2>/dev/null
	! grep -q " $MNT " /proc/mounts
}
ok 'the mount is gone' _unmount_now
