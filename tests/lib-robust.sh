# tests/lib-robust.sh - helpers of the robustness suites (t7NNN), sourced
# after lib.sh.

# Every *.rrd under a log set passes `rrdtool info`; prints the bad ones.
# One rrdtool reads them all (`rrdtool -`: a command a line, answered by
# an "OK" or an "ERROR:" line), and a file it refuses, or every file when
# the answers do not pair with them (it died on one), is tried again on
# its own through tests/bin/rrdtool, which waits out a live set's lock:
# a file is bad when that fails too. (A process a file was 207 of t7000's
# 212 rrdtool calls, 0.1-0.5 s each on a loaded machine.)
rrd_bad_files() {
	set -- "$1"/*.rrd
	[ -e "$1" ] || return 0
	for f; do printf 'info "%s"\n' "$f"; done | rrdtool - 2>/dev/null |
		sed -n 's/^OK u:.*/OK/p; s/^ERROR:.*/ERROR/p' >"$SCRATCH/rrd_info.res"
	[ "$(wc -l <"$SCRATCH/rrd_info.res")" -eq $# ] || : >"$SCRATCH/rrd_info.res"
	exec 4<"$SCRATCH/rrd_info.res"
	for f; do
		read -r res <&4 || res=
		[ "$res" = OK ] || rrdtool info "$f" >/dev/null 2>&1 || echo "$f"
	done
	exec 4<&-
}
rrds_ok() { [ -z "$(rrd_bad_files "$1")" ]; }

# The pid of the collector logging to a set, from the runtime directory.
collector_pid() {
	for f in "$PERFLOG_RUNTIME_DIR"/*.info; do
		[ -e "$f" ] || continue
		if grep -qxF "logset	$1" "$f"; then basename "$f" .info; return 0; fi
	done
	return 1
}

# A process (not our child) is gone, and wait for it to be: ended, reaped
# or not (a daemon's parent is init, which may reap seconds late; a
# zombie holds nothing but its pid, and perflog counts it gone too:
# zombie, in stop-pids.sh).
gone() { ! kill -0 "$1" 2>/dev/null || zombie "$1"; }
wait_gone() {
	for _ in $(seq 1 100); do
		gone "$1" && return 0
		sleep 0.1
	done
	return 1
}

# `rrdtool last` of a file (0 when it cannot be read).
rrd_last() { rrdtool last "$1" 2>/dev/null || echo 0; }

# Number of CSV rows (after the header) with at least one value.
csv_rows_with_values() {
	tail -n +2 "$1" | awk -F, '{ for (i = 2; i <= NF; i++) if ($i != "") { n++; break } } END { print n + 0 }'
}

# No runtime entry (.info or .sock) left for a pid.
no_runtime_entry() {
	[ ! -e "$PERFLOG_RUNTIME_DIR/$1.info" ] && [ ! -e "$PERFLOG_RUNTIME_DIR/$1.sock" ]
}

CTLPOKE=$TOP/build/tools/ctlpoke

# A point marker through the collector logging to DIR: `perflog mark` when
# this build has it, else the control protocol itself (control.h).
mark_via() {
	if $PERFLOG mark --help >/dev/null 2>&1; then
		$PERFLOG mark -d "$1" "$2"
		return
	fi
	_p=$(collector_pid "$1") || { echo "no collector for $1" >&2; return 1; }
	_out=$(printf 'mark point\t\t%s\n' "$2" | $CTLPOKE "$PERFLOG_RUNTIME_DIR/$_p.sock")
	case "$_out" in
	ok*) return 0 ;;
	*) echo "perflog mark: ${_out#error }" >&2; return 1 ;;
	esac
}

# umount_scratch DIR: unmount a suite's own mount at exit. A process that
# still works there (the growth worker finishing its step after its
# collector was killed with -9) gets 5 s; then the mount is detached
# lazily, so that nothing stays mounted under /tmp.
umount_scratch() {
	for _ in $(seq 1 20); do
		umount "$1" 2>/dev/null && return 0
		mountpoint -q "$1" || return 0
		sleep 0.25
	done
	umount -l "$1" 2>/dev/null
}

# A collector at -i 1 under $1 with the production flush (its rows held
# for [log] flush, 60 s, not $PERFLOG_BATCH's), tracked, after $2 samples:
# sets dir and pid, and start (the set's start, epoch seconds).
start_held() {
	dir=$(env -u PERFLOG_BATCH $PERFLOG start -o "$1" -i 1)
	pid=$(collector_pid "$dir")
	[ -n "$pid" ] && track_pid "$pid"
	ok 'started' test -n "$pid"
	wait_for 30 sh -c "$PERFLOG status | grep -F '$dir' | awk '{ exit \$3 < $2 }'"
	start=$(date -u -d "$(awk -F'\t' '$1 == "start" { print $2 }' "$dir/perflog.meta")" +%s)
}
# The rows of an RRD file with a value, from the set's start (start_held).
known_rows() { rrdtool fetch "$1" AVERAGE -s "$((start - 1))" 2>/dev/null | grep -Ec '^ *[0-9]+: [0-9]'; }
