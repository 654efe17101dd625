#!/bin/sh
# bench/report.sh - how long `perflog report` takes over a long set with
# many sessions (issue 46: the model must not make a night's report
# slow): a day at 1 s (86,400 rows, mkspike) with 50 sessions, each with
# the per-thread totals and edges of a real pipeline run under perflog
# run (head | gzip | cat: three processes, a pipe each way), copied to
# each session's name. Prints the report's wall and CPU seconds, the
# median of REPORT_RUNS (3), and with PERFLOG_BASE=BINARY the same for
# another build beside it, and their ratio.
#   REPORT_SPAN (1d)  REPORT_SESSIONS (50)  REPORT_RUNS (3)
. "$(dirname "$0")/lib.sh"
SPAN=${REPORT_SPAN:-1d}
N=${REPORT_SESSIONS:-50}
RUNS=${REPORT_RUNS:-3}
MKSPIKE=$TOP/build/tools/mkspike
[ -x "$MKSPIKE" ] || make -C "$TOP" -s build/tools/mkspike >/dev/null || exit 1

# one real pipeline's files, the template of every session's
"$PERFLOG" run -l tpl -i 1 -o "$BENCH_TMP/tpl" -- \
	sh -c 'head -c 20000000 /dev/urandom | gzip -1 | cat >/dev/null' >/dev/null 2>&1
tpl=$(ls -d "$BENCH_TMP"/tpl/*/ | head -1)
[ -f "$tpl/waits-tpl.tsv" ] || { echo "report.sh: the template run left no waits-tpl.tsv"; exit 1; }
set=$("$MKSPIKE" "$BENCH_TMP/day" -s "$SPAN" -a 1h -n "$N") || exit 1
i=1
while [ $i -le "$N" ]; do
	s=$(printf 's%02d' $i)
	cp "$tpl/waits-tpl.tsv" "$set/waits-$s.tsv"
	[ -f "$tpl/edges-tpl.tsv" ] && cp "$tpl/edges-tpl.tsv" "$set/edges-$s.tsv"
	i=$((i + 1))
done

# median wall and CPU seconds of RUNS reports by binary $1
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
timed() {
	: >"$BENCH_TMP/times"
	r=0
	while [ $r -lt "$RUNS" ]; do
		/usr/bin/time -f '%e %U %S' -o "$BENCH_TMP/time" "$1" report "$set" >/dev/null 2>&1
		cat "$BENCH_TMP/time" >>"$BENCH_TMP/times"
		r=$((r + 1))
	done
	echo "$(awk '{ print $1 }' "$BENCH_TMP/times" | median)" \
		"$(awk '{ print $2 + $3 }' "$BENCH_TMP/times" | median)"
}
echo "report of a $SPAN set at 1 s with $N sessions (each: 3 processes, their edges), median of $RUNS:"
set -- $(timed "$PERFLOG")
printf '  %-40s wall %6.2f s  CPU %6.2f s\n' "$PERFLOG" "$1" "$2"
if [ -n "${PERFLOG_BASE:-}" ]; then
	new=$2
	set -- $(timed "$PERFLOG_BASE")
	printf '  %-40s wall %6.2f s  CPU %6.2f s\n' "$PERFLOG_BASE" "$1" "$2"
	awk -v a="$new" -v b="$2" 'BEGIN { if (b > 0) printf "  CPU ratio (this build / base): %.2f\n", a / b }'
fi
