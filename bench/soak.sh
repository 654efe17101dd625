#!/bin/sh
# bench/soak.sh - `make soak`: the collector for an hour at 1 s under load,
# its resident set size (VmRSS) and open file descriptors sampled at the
# start (after a minute of warm-up) and at the end. A logger that runs all
# night must not grow: the end figures may not exceed the start's by more
# than a page-cache-sized margin (RSS +2 MiB) or by a single fd.
#
#   SOAK_SECONDS=3600 (default)  how long to run
#   SOAK_DIR=/tmp/...            where the log set goes (default: a temp dir,
#                                removed at the end unless SOAK_KEEP=1)
#
# Load: one core burnt in bursts, a file written and synced, traffic over
# loopback, veth-free so it runs unprivileged; a new process tree watched
# now and then (the control socket's watch/unwatch), markers every minute.
# Prints the figures; exit 1 on growth.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
PERFLOG=$TOP/perflog
LOADGEN=$TOP/build/tools/loadgen
SECS=${SOAK_SECONDS:-3600}
WORK=${SOAK_DIR:-$(mktemp -d /tmp/perflog-soak.XXXXXX)}
export PERFLOG_RUNTIME_DIR=$WORK/run
mkdir -p "$WORK"
[ -x "$LOADGEN" ] || make -C "$TOP" build/tools/loadgen build/tools/ctlpoke >/dev/null
[ -x "$TOP/build/tools/ctlpoke" ] || make -C "$TOP" build/tools/ctlpoke >/dev/null
CTL=$TOP/build/tools/ctlpoke

dir=$("$PERFLOG" start -o "$WORK/logs" -i 1)
pid=$(basename "$(grep -lxF "logset	$dir" "$PERFLOG_RUNTIME_DIR"/*.info)" .info)
echo "soak: collector $pid logging to $dir for $SECS s"

figures() { # RSS_KiB FDS
	rss=$(awk '/^VmRSS:/ { print $2 }' /proc/$pid/status)
	fds=$(ls /proc/$pid/fd | wc -l)
	echo "$rss $fds"
}
load_pids=""
cleanup() {
	for p in $load_pids; do
		kids=$(ps -o pid= --ppid "$p" 2>/dev/null || true)
		kill "$p" $kids 2>/dev/null || true
	done
	"$PERFLOG" stop "$dir" >/dev/null 2>&1 || kill "$pid" 2>/dev/null || true
	[ -n "${SOAK_KEEP:-}" ] || [ -n "${SOAK_DIR:-}" ] || rm -rf "$WORK"
}
trap cleanup EXIT INT TERM

# the load, in the background for the whole soak
( while :; do "$LOADGEN" burn 5 >/dev/null; sleep 5; done ) & load_pids="$load_pids $!"
( while :; do "$LOADGEN" write "$WORK/blob" 33554432 >/dev/null; rm -f "$WORK/blob"; sleep 3; done ) & load_pids="$load_pids $!"
( while :; do
	port=$(( 20000 + $$ % 20000 ))
	"$LOADGEN" recv 127.0.0.1 $port >/dev/null & r=$!
	sleep 0.3
	"$LOADGEN" send 127.0.0.1 $port 67108864 >/dev/null 2>&1 || true
	wait $r 2>/dev/null || true
	sleep 2
  done ) & load_pids="$load_pids $!"

warm=60; [ "$SECS" -lt 240 ] && warm=$((SECS / 4))
sleep "$warm"
set -- $(figures); rss0=$1 fds0=$2
echo "soak: start  RSS ${rss0} KiB, ${fds0} fds"
t=$warm
while [ "$t" -lt "$SECS" ]; do
	sleep 60 & wait $! || true
	t=$((t + 60))
	printf 'mark point\tsoak\tminute %s\n' "$((t / 60))" | "$CTL" "$PERFLOG_RUNTIME_DIR/$pid.sock" >/dev/null || true
	sleep 120 & sp=$!
	printf 'watch %s\tsoak%s\n' "$sp" "$t" | "$CTL" "$PERFLOG_RUNTIME_DIR/$pid.sock" >/dev/null || true
	kill -0 "$pid" || { echo "soak: the collector died"; exit 1; }
	if [ $((t % 600)) -lt 60 ]; then set -- $(figures); echo "soak: ${t}s RSS $1 KiB, $2 fds"; fi
done
set -- $(figures); rss1=$1 fds1=$2
samples=$(printf 'status\n' | "$CTL" "$PERFLOG_RUNTIME_DIR/$pid.sock" | sed -n 's/.*samples=\([0-9]*\).*/\1/p')
echo "soak: end    RSS ${rss1} KiB, ${fds1} fds, ${samples} samples in ${SECS} s"
grow=$((rss1 - rss0))
echo "soak: RSS growth ${grow} KiB, fd growth $((fds1 - fds0))"
if [ "$grow" -gt 2048 ] || [ "$fds1" -gt $((fds0 + 1)) ]; then
	echo "soak: FAILED (growth)"
	exit 1
fi
echo "soak: ok"
