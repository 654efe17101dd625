#!/bin/sh
# The verdict as one model (issue 46): the failure cases of the rules,
# each run for real under `perflog run` and reported; the Bottleneck line
# is the wait graph's (verdict/, report/report_verdict.c) and must name
# the resource and process that held the session's seconds:
#   unwatched  a sender blocked on a FIFO whose reader, started outside
#              the run (not watched), burns a CPU on each chunk; then
#              md5sum runs a moment. The rules said "CPU: the stage
#              md5sum ran on a CPU 93% of the time" (93% of its own
#              0.1 s): md5sum must not be named. The FIFO's reader is
#              found by the FIFO's device and inode (its link is a path)
#              and read as a local peer: CPU and python3 are named
#              (before, "nothing: ... what the log does not see")
#   zstd       tar cf - DIR | zstd -19 -T1 | cat: tar ends at once (zstd
#              read it all), zstd's one thread compresses; zstd named,
#              no "quota or affinity" (there is none)
#   gzip       (head -c 40M /dev/urandom | gzip -1; echo done) | cat: the
#              subshell only holds the pipe's write end, gzip writes it:
#              gzip named, not sh
# Each case a few seconds of one CPU; the words hold on a loaded host
# (CPU contention is CPU).
. "$(dirname "$0")/lib.sh"
for t in zstd tar md5sum python3 gzip; do
	command -v $t >/dev/null || skip_all "no $t (tests/deps.sh)"
done

line_of() { "$PERFLOG" report "$1"/*/ 2>&1 | sed -n 's/^  \(Bottleneck: .*\)/\1/p' | tail -n 1; }
# run_case DIR NAME CMD: CMD under perflog run in its own log set, its
# Bottleneck line in $line
run_case() {
	"$PERFLOG" run -o "$SCRATCH/$1" -i 1 -l "$1" -- sh -c "$3" >/dev/null 2>&1
	is "$?" 0 "$2: ran"
	line=$(line_of "$SCRATCH/$1")
	diag "$2: $line"
}
unlike() {
	if printf '%s' "$1" | grep -Eq -- "$2"; then
		_result 1 "$3"; echo "#   '$1' matches '$2'" >&2
	else _result 0 "$3"; fi
}

# --- unwatched: the reader is no process of the run's tree ---
mkfifo "$SCRATCH/ff"
head -c 2000000 /dev/urandom >"$SCRATCH/small"
python3 -c '
import sys, time
f = open(sys.argv[1], "rb")
while True:
    b = f.read(65536)
    if not b:
        break
    t = time.process_time()
    while time.process_time() - t < 0.08:
        pass
' "$SCRATCH/ff" &
track_pid $!
run_case unw unwatched "head -c 1000000 /dev/zero >'$SCRATCH/ff'; md5sum '$SCRATCH/small'"
like "$line" '^Bottleneck: ' 'unwatched: a verdict'
unlike "$line" 'md5sum' 'unwatched: md5sum (0.1 s of the session) is not named'
like "$line" '^Bottleneck: CPU[^:]*: the stage python3 ' \
	"unwatched: CPU, the FIFO's reader (python3) named"

# --- zstd: the first stage ends early ---
mkdir "$SCRATCH/dir"
head -c 3000000 /dev/urandom >"$SCRATCH/dir/r"
run_case zst zstd "tar cf - -C '$SCRATCH' dir | zstd -19 -T1 -q | cat >/dev/null"
like "$line" '^Bottleneck: CPU' 'zstd: CPU'
like "$line" '^Bottleneck: CPU[^:]*: the stage zstd ' 'zstd: zstd named'
unlike "$line" 'quota|affinity' 'zstd: no quota or affinity'

# --- gzip: the subshell holds the pipe, gzip writes it ---
run_case gz gzip '(head -c 40000000 /dev/urandom | gzip -1; echo done) | cat >/dev/null'
like "$line" '^Bottleneck: CPU[^:]*: the stage gzip ' 'gzip: gzip named'
unlike "$line" 'the stage sh' 'gzip: not the subshell'

done_testing
