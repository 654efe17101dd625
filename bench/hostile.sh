#!/bin/sh
# bench/hostile.sh - the collector against a hostile client (issue 21):
# its CPU in % of one CPU, the wait-state sampler's thread included
# (utime + stime of the collector's /proc/PID/stat over the span), while
# the client under perflog run
#   idle     sleeps (the floor: the collector's own sampling)
#   churn    starts and ends 10,000 threads a second (tests/tools/churn)
#   threads  holds 2,000 threads waiting on sockets, each woken every
#            20 ms (loadgen threads): every thread runs between samples
#   parked   holds 2,000 threads blocked with no timeout (loadgen parked,
#            an idle worker pool): none runs between samples
#   fuse     is blocked reading a FUSE file whose server never answers
#            (tests/tools/fusehang; skipped without root, /dev/fuse or
#            libfuse3)
# and whether any sample was late by more than one interval (the
# collector's log says "N sample(s) skipped" for those). Goal: under 2%
# of one CPU in each case, none late.
#
# The span is measured once the client has been joined and its threads
# met ("join", its own column: the collector's CPU in ms over the first
# HOSTILE_JOIN seconds of the run, the idle collector's own sampling
# included). Meeting 2,000 new threads reads each of them whole, two or
# three times until it is seen blocked: about 300 ms of CPU at once. It
# is a cost of the join, not of holding the threads, and a span that
# began 2 s into the run (as before) took it in or not by a second's
# timing: the threads case gave 1.0 to 2.5% on one binary.
#
#   HOSTILE_SECONDS=20   measured span per case
#   HOSTILE_JOIN=6       seconds from the run's start to the span's
#   HOSTILE_INTERVAL=1   the collector's interval
#   PERFLOG=BINARY       another perflog (e.g. the one before the fix)
#   HOSTILE_CASES="threads parked"  only these cases (default: all)
. "$(dirname "$0")/lib.sh"
S=${HOSTILE_SECONDS:-20}
[ -n "${BENCH_QUICK:-}" ] && S=${HOSTILE_SECONDS:-8}
I=${HOSTILE_INTERVAL:-1}
J=${HOSTILE_JOIN:-6}
T=$TOP/build/tools
make -s -C "$TOP" build/tools/churn build/tools/loadgen build/tools/fusehang >/dev/null || exit 1
hz=$(getconf CLK_TCK)
MNT=$BENCH_TMP/mnt
bench_extra_cleanup() {
	[ -n "${FPID:-}" ] && kill -KILL "$FPID" 2>/dev/null
	grep -q " $MNT " /proc/mounts 2>/dev/null && { fusermount3 -u "$MNT" 2>/dev/null || umount -l "$MNT"; }
}

echo "hostile client: collector at -i $I, ${S} s per case ($(nproc) CPUs, load $(cut -d' ' -f1 /proc/loadavg))"
printf '%-8s %12s %9s %14s %s\n' case "% of a CPU" "join, ms" "late samples" client
one() {
	name=$1
	shift
	case " ${HOSTILE_CASES:-$name} " in *" $name "*) ;; *) return 0 ;; esac
	d=$BENCH_TMP/$name
	ls=$("$PERFLOG" start -o "$d" -i "$I") || { echo "$name: perflog start failed"; return 1; }
	cp=$(basename "$(ls "$PERFLOG_RUNTIME_DIR"/*.info | head -n 1)" .info)
	j0=$(cpu_ticks "$cp")
	"$PERFLOG" run -o "$ls" -l "$name" -- "$@" >"$BENCH_TMP/$name.out" 2>&1 &
	rp=$!
	bench_track $rp
	sleep "$J"	# the run joined, its sampler started, its threads met
	t0=$(cpu_ticks "$cp") w0=$(date +%s%N)
	sleep "$S"
	t1=$(cpu_ticks "$cp") w1=$(date +%s%N)
	[ -n "${after_case:-}" ] && $after_case
	wait $rp 2>/dev/null
	"$PERFLOG" stop "$ls" >/dev/null
	late=$(grep 'skipped' "$ls/collector.log" | sed 's/.*: \([0-9]*\) sample.*/\1/' | awk '{ s += $1 } END { print s + 0 }')
	printf '%-8s %12s %9s %14s %s\n' "$name" \
		"$(awk -v a="$t0" -v b="$t1" -v hz="$hz" -v w0="$w0" -v w1="$w1" \
			'BEGIN { printf "%.2f", 100 * (b - a) / hz / ((w1 - w0) / 1e9) }')" \
		"$(awk -v a="$j0" -v b="$t0" -v hz="$hz" 'BEGIN { printf "%.0f", 1000 * (b - a) / hz }')" \
		"$late" "$(head -c 60 "$BENCH_TMP/$name.out" | tr '\n' ' ')"
	rm -f "$PERFLOG_RUNTIME_DIR"/*.info
}
after_case=""
one idle sleep $((S + J + 1))
one churn "$T/churn" threads 10000 $((S + J))
one threads "$T/loadgen" threads 2000 $((S + J))
one parked "$T/loadgen" parked 2000 $((S + J))
case " ${HOSTILE_CASES:-fuse} " in *" fuse "*) want_fuse=1 ;; *) want_fuse="" ;; esac
if [ -z "$want_fuse" ]; then
	:
elif [ "$(id -u)" = 0 ] && [ -c /dev/fuse ] && { "$T/fusehang" 2>/dev/null; [ $? != 77 ]; }; then
	mkdir -p "$MNT"
	"$T/fusehang" "$MNT" 2>/dev/null &
	FPID=$!
	bench_track $FPID
	for _ in 1 2 3 4 5 6 7 8 9 10; do [ -e "$MNT/f" ] && break; sleep 0.5; done
	# the blocked reader dies only with the server (its close waits too)
	end_fuse() { kill -KILL "$FPID"; }
	after_case=end_fuse
	one fuse cat "$MNT/f"
	after_case=""
	bench_extra_cleanup
	FPID=""
else
	echo "fuse     skipped: needs root, /dev/fuse and libfuse3"
fi
