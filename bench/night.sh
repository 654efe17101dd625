#!/bin/sh
# bench/night.sh - a night at the server, the collector's side (issue 47
# item 4): the collector at 1 s with `[server] daemons` watching a
# forking TCP server that NIGHT_SESSIONS (50) clients hold a connection
# each to over loopback (each sending 4 KiB every 100 ms, its own
# process on the server: a session, its tree watched where a slot is
# free), beside the same collector without the daemons and sysstat's
# sadc (`-S DISK`) over the same span. Prints each one's CPU time a
# sample (schedstat, every thread of the collector; of it the loop's,
# which reads the connections, and the sessions' wait-state samplers'),
# the ratios, and how many sessions the set has
# and how many of their trees were watched (MAX_WATCH in collector/).
# `perflog report` of such a night is bench/report.sh's (tests/tools/mknight).
#   NIGHT_SECONDS (60; 3600 and more for the hours of a real night)
#   NIGHT_SESSIONS (50)  NIGHT_WARMUP (8)
. "$(dirname "$0")/lib.sh"
D=${NIGHT_SECONDS:-60}
N=${NIGHT_SESSIONS:-50}
W=${NIGHT_WARMUP:-8}
[ -x "$SADC" ] || { echo "night: $SADC not found (apt-get install sysstat)"; exit 0; }
[ -x /usr/bin/python3 ] || { echo "night: no python3"; exit 0; }

# the server under a name of its own (its processes' command name)
ln -s /usr/bin/python3 "$BENCH_TMP/plnightd"
"$BENCH_TMP/plnightd" -c '
import socketserver, sys
class H(socketserver.BaseRequestHandler):
    def handle(self):
        while self.request.recv(65536):
            pass
socketserver.ForkingTCPServer.allow_reuse_address = True
socketserver.ForkingTCPServer.request_queue_size = 128
# its default of 40 children left the last 10 of 50 connections in the
# accept queue, held by no process: sessions from their records alone
socketserver.ForkingTCPServer.max_children = int(sys.argv[1]) + 8
s = socketserver.ForkingTCPServer(("127.0.0.1", 0), H)
print(s.server_address[1], flush=True)
s.serve_forever()
' "$N" >"$BENCH_TMP/port" &
bench_track $!
for _ in 1 2 3 4 5 6 7 8 9 10; do [ -s "$BENCH_TMP/port" ] && break; sleep 0.2; done
port=$(cat "$BENCH_TMP/port")
[ -n "$port" ] || { echo "night: the server did not start"; exit 1; }

printf '[server]\ndaemons = plnightd\n' >"$BENCH_TMP/night.conf"
mkdir -p "$BENCH_TMP/night" "$BENCH_TMP/plain"
"$PERFLOG" start -f -c "$BENCH_TMP/night.conf" -o "$BENCH_TMP/night" -i 1 >/dev/null 2>"$BENCH_TMP/night.err" &
npid=$!; bench_track $npid
"$PERFLOG" start -f -o "$BENCH_TMP/plain" -i 1 >/dev/null 2>"$BENCH_TMP/plain.err" &
ppid=$!; bench_track $ppid
"$SADC" -S DISK 1 "$BENCH_TMP/sa.data" 2>/dev/null &
spid=$!; bench_track $spid
sleep 2
# the clients: one process, N connections, each its own session there
/usr/bin/python3 -c '
import socket, sys, time
port, n, span = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
c = [socket.create_connection(("127.0.0.1", port)) for _ in range(n)]
end = time.monotonic() + span
while time.monotonic() < end:
    for s in c:
        s.sendall(b"x" * 4096)
    time.sleep(0.1)
for s in c:
    s.close()
' "$port" "$N" $((W + D + 2)) &
cpid=$!; bench_track $cpid
sleep "$W"
n0=$(cpu_ns_all $npid) m0=$(cpu_ns $npid) p0=$(cpu_ns_all $ppid) s0=$(cpu_ns $spid) t0=$(date +%s.%N)
sleep "$D"
n1=$(cpu_ns_all $npid) m1=$(cpu_ns $npid) p1=$(cpu_ns_all $ppid) s1=$(cpu_ns $spid) t1=$(date +%s.%N)
threads=$(ls /proc/$npid/task | wc -l)
wait $cpid 2>/dev/null
sleep 2.5	# the ends: the first sample without each connection
kill -TERM $npid $ppid $spid
wait $npid 2>/dev/null; wait $ppid 2>/dev/null; wait $spid 2>/dev/null
n=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%d", b - a + 0.5 }')
per() { awk -v a="$1" -v b="$2" -v n="$n" 'BEGIN { printf "%.3f", (b - a) / n / 1e6 }'; }
nc=$(per $n0 $n1) mc=$(per $m0 $m1) pc=$(per $p0 $p1) sc=$(per $s0 $s1)
set=$(ls -d "$BENCH_TMP"/night/*/ | head -1)
begun=$(grep -c "	begin	plnightd-" "$set/markers.tsv")
ended=$(grep -c "	end	plnightd-.*conn.bytes_in=" "$set/markers.tsv")
trees=$(ls "$set" | grep -c '^Process-plnightd-')
printf 'night    %3d samples, %s connections held to plnightd over loopback\n' "$n" "$N"
printf '  CPU/sample ms   with the night %7s  without %7s  sadc -S DISK %7s  ratios %s, %s\n' \
	"$nc" "$pc" "$sc" "$(ratio $nc $pc)" "$(ratio $nc $sc)"
printf '  of which        loop %s ms (the connections, the trees, the write), wait-state samplers %s ms\n' \
	"$mc" "$(awk -v a="$nc" -v b="$mc" 'BEGIN { printf "%.3f", a - b }')"
printf '  sessions: %s begun, %s ended with their figures, %s trees watched (collector threads: %s)\n' \
	"$begun" "$ended" "$trees" "$threads"
printf '  load average at the end: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
if [ -s "$BENCH_TMP/night.err" ]; then sed 's/^/  perflog: /' "$BENCH_TMP/night.err" | sort | uniq -c | head -5; fi
