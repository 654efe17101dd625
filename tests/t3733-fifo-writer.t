#!/bin/sh
# A named FIFO is a pipe to the wait graph (issue 46, waits/waitpeer.c):
# the watched command (md5sum) reads a FIFO whose writer, started by the
# test outside the run (not watched), burns a CPU on each chunk it
# writes. md5sum waits on the FIFO; its descriptor's link is a path, not
# pipe:[INO], and its far end is found by the FIFO's device and inode in
# the fd tables: the edge names the writer, whose threads are then read
# as a local peer's, and the Bottleneck names CPU and the writer. Before,
# a FIFO gave no edge: md5sum "waited on what the log does not see".
# No edge of the edges file is a process's on itself (a waiter was once
# its own far end, "head -> head 0.4 s").
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip_all "no python3 (tests/deps.sh)"
command -v md5sum >/dev/null || skip_all "no md5sum (tests/deps.sh)"

mkfifo "$SCRATCH/ff"
# the writer: 0.08 s of CPU before each 64 KiB chunk, 30 chunks (some
# 2.4 s of one CPU, longer beside a load: CPU contention is CPU too);
# its open waits for the reader's
python3 -c '
import sys, time
f = open(sys.argv[1], "wb", buffering=0)
for _ in range(30):
    t = time.process_time()
    while time.process_time() - t < 0.08:
        pass
    f.write(b"\0" * 65536)
' "$SCRATCH/ff" &
writer=$!
track_pid $writer

"$PERFLOG" run -o "$SCRATCH/log" -i 1 -l fifo -- md5sum "$SCRATCH/ff" \
	>/dev/null 2>&1
is "$?" 0 'the run ended well'
wait $writer 2>/dev/null

set -- "$SCRATCH"/log/*/edges-fifo.tsv
ok 'the edges file was written' test -f "$1"
edges=$1
# pid comm dir kind peer_pid peer_comm local remote seconds bytes
ok "md5sum waited in on the FIFO's writer ($writer), a pipe" \
	awk -F'\t' -v p=$writer '$2 == "md5sum" && $3 == "in" && $4 == "pipe" &&
		$5 == p && $9 > 0 { f = 1 } END { exit !f }' "$edges"
diag "$(awk -F'\t' '$2 == "md5sum"' "$edges")"
self=$(awk -F'\t' 'NR > 1 && $1 == $5' "$edges" | wc -l)
is "$self" 0 'no process waited on itself'
waits=$(dirname "$edges")/waits-fifo.tsv
peer_rows=$(awk -F'\t' -v p=$writer '$14 == p && $15 == "peer"' "$waits" | wc -l)
ok "the writer's threads are read, marked peer ($peer_rows)" \
	test "$peer_rows" -ge 1

line=$("$PERFLOG" report "$SCRATCH"/log/*/ 2>&1 | sed -n 's/^  \(Bottleneck: .*\)/\1/p' | tail -n 1)
diag "$line"
like "$line" '^Bottleneck: CPU[^:]*: the stage python3 ' \
	'the Bottleneck is the CPU, the writer named'

done_testing
