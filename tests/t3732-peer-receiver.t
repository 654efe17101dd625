#!/bin/sh
# A local peer is read while an edge names it (issue 46 item 2,
# waits/waitrelay.c): a watched writer feeds a pipe whose reader was
# started by the test outside the run (not watched) and burns a CPU on
# each chunk it reads. The writer waits on the pipe; its edge names the
# reader, whose threads the sampler then reads too: the totals file has
# the reader's rows marked peer, its seconds mostly on a CPU, and the
# Bottleneck line names CPU and the reader. Before, the reader was a
# vertex of no seconds ("not seen").
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip_all "no python3 (tests/deps.sh)"

# the receiver: 0.1 s of CPU a 64 KiB chunk, 40 chunks (some 4 s of one
# CPU, longer beside a load: CPU contention is CPU too). It reads an
# anonymous pipe of its own, which the writer opens through
# /proc/PID/fd (t3733: the same through a named FIFO), and ends when it
# has read all of it.
python3 -c '
import os, sys, time
r, w = os.pipe()
with open(sys.argv[1] + ".tmp", "w") as f:
    f.write("%d\n" % r)
os.rename(sys.argv[1] + ".tmp", sys.argv[1])
left = int(sys.argv[2])
while left > 0:
    b = os.read(r, min(65536, left))
    if not b:
        break
    left -= len(b)
    t = time.process_time()
    while time.process_time() - t < 0.1:
        pass
' "$SCRATCH/fd" 2621440 &
reader=$!
track_pid $reader
for _ in $(seq 1 100); do [ -s "$SCRATCH/fd" ] && break; sleep 0.1; done
fd=$(cat "$SCRATCH/fd")

"$PERFLOG" run -o "$SCRATCH/log" -i 1 -l feed -- \
	sh -c "head -c 2621440 /dev/zero >/proc/$reader/fd/$fd" >/dev/null 2>&1
is "$?" 0 'the run ended well'
wait $reader 2>/dev/null

set -- "$SCRATCH"/log/*/waits-feed.tsv
ok 'the totals file was written' test -f "$1"
# the reader's rows: pid column (14) the reader's, a 15th field "peer"
peer_rows=$(awk -F'\t' -v p=$reader '$14 == p && $15 == "peer"' "$1" | wc -l)
ok "the reader's threads are in the totals, marked peer ($peer_rows)" \
	test "$peer_rows" -ge 1
cpu=$(awk -F'\t' -v p=$reader '$14 == p && $15 == "peer" { s += $5 } END { printf "%.1f", s }' "$1")
diag "reader's CPU seconds in the totals: $cpu"
ok "the reader's seconds are mostly on a CPU ($cpu s)" \
	awk -v c="$cpu" 'BEGIN { exit !(c >= 1.5) }'
# its own edges file rows: the writer waited on the reader
edges=$(dirname "$1")/edges-feed.tsv
ok 'the writer waited on the reader' \
	awk -F'\t' -v p=$reader '$5 == p && $9 > 0 { f = 1 } END { exit !f }' "$edges"

line=$("$PERFLOG" report "$SCRATCH"/log/*/ 2>&1 | sed -n 's/^  \(Bottleneck: .*\)/\1/p' | tail -n 1)
diag "$line"
like "$line" '^Bottleneck: CPU' 'the Bottleneck is the CPU'
like "$line" "python3" 'the Bottleneck names the receiver'

done_testing
