#!/bin/sh
# `perflog mark --watch name=COMM` keeps the child a COMM process forks
# (issue 29, t3720 sfsync): rsync's server forks its receiver, which does
# the fsyncs. A name= tree's processes reach the wait-state sampler at the
# collector's next sample; the child's threads were first read a sample
# after that, with no figures of theirs at the sample before, and left
# out as "lived before the watch": its first interval lost, its bytes
# (written early) never counted, and a child done within two samples
# absent from waits-S.tsv. Here COMM (python3 under a name of ours) forks
# a child that is `sh` for 0.3 s, then execs into COMM, writes 32 MiB
# with fsync and lives on 2 s (across a sample, -i 1): its row in
# waits-S.tsv must hold its whole life and its 32 MiB, in each of 3 runs.
# The load beside it is measured (lib.sh load_begin) and shown.
. "$(dirname "$0")/lib.sh"
[ -x /usr/bin/python3 ] || skip_all "no /usr/bin/python3 (tests/deps.sh)"

COMM=$(printf 'plfk%s' $$ | cut -c1-15)
ln -s /usr/bin/python3 "$SCRATCH/$COMM"
cat >"$SCRATCH/fk.py" <<'EOF'
import os, sys, time
me, out = sys.argv[1], sys.argv[2]
if len(sys.argv) > 3:		# the child, now COMM: the work, then live on
	with open(out, "wb") as f:
		for _ in range(32):
			f.write(b"x" * (1 << 20))
		f.flush()
		os.fsync(f.fileno())
	time.sleep(2)
	sys.exit(0)
pid = os.fork()
if pid == 0:			# sh first, COMM after an exec
	os.execv("/bin/sh", ["sh", "-c", 'sleep 0.3; exec "$0" "$1" "$2" "$3" child',
			     me, sys.argv[0], me, out])
with open(out + ".pid", "w") as f:
	f.write("%d\n" % pid)
os.waitpid(pid, 0)
EOF
LS=$($PERFLOG start -o "$SCRATCH/logs" -i 1)
[ -d "$LS" ] || { echo "Bail out! perflog start failed"; exit 1; }
field() { grep -P "\t$1\t$2\t" "$LS/markers.tsv" | tail -n 1 | tr '\t' '\n' | sed -n "s/^$3=//p"; }

load_begin
for r in 1 2 3; do
	$PERFLOG mark -d "$LS" --begin -s "fk$r" --watch "name=$COMM" go 2>"$SCRATCH/m$r.err"
	sleep 0.5
	"$SCRATCH/$COMM" "$SCRATCH/fk.py" "$SCRATCH/$COMM" "$SCRATCH/out$r" &
	p=$!
	track_pid $p
	wait $p
	sleep 1.2	# a sample after the child's end
	$PERFLOG mark -d "$LS" --end -s "fk$r" done 2>>"$SCRATCH/m$r.err"
	child=$(cat "$SCRATCH/out$r.pid")
	w=$(field end "fk$r" waits)
	row=$(awk -F'\t' -v t="$child" 'NR > 1 && $1 == t' "$LS/$w" 2>/dev/null)
	diag "run $r: child $child: $(echo "$row" | cut -f2,4,11) (comm, alive s, io bytes); $(field end "fk$r" waits.threads) threads"
	ok "run $r: the child's thread is in $w, counted 2 s or more" \
		awk -v a="$(echo "$row" | cut -f4)" 'BEGIN { exit !(a != "" && a >= 2.0) }'
	ok "run $r: ... with its 32 MiB" \
		awk -v b="$(echo "$row" | cut -f11)" 'BEGIN { exit !(b != "" && b >= 33554432) }'
	rm -f "$SCRATCH/out$r"
done
load_end
diag "$LOAD_FIGS"
is "$(cat "$SCRATCH"/m*.err | grep -v 'no process matches yet')" "" 'no mark complained'
$PERFLOG stop "$LS" >/dev/null
is "$(awk -F'\t' -v t="$(cat "$SCRATCH/out1.pid")" 'NR > 1 && $1 == t { print $2 }' "$LS/$(field end fk1 waits)")" "$COMM" "the child's row has the name it exec'ed into"
done_testing
