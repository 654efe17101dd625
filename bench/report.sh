#!/bin/sh
# bench/report.sh - a night's length, the reader's side (issues 46 and
# 47 item 4): how long `perflog report` (text, --json, --html), `perflog
# export` (--csv, --png) and the viewer's first frames take on a day at
# 1 s (86,400 rows) with 50 sessions that overlap as a night's backups
# do, each with its tree's Process object and its waits, edges and rows
# files. Prints how the set was made and in how long, then for each
# command wall and CPU seconds and peak RSS (/usr/bin/time, the median
# of REPORT_RUNS by wall time), with PERFLOG_BASE=BINARY another build's
# beside it (main's, to show "beside today's code") and the ratio of
# their CPU.
#
# The set (no collector for a day): tests/tools/mknight writes the rows
# of a two-CPU host's default objects through the real writer and
# librrd, each session's Process(sNN) while it runs, and the sessions'
# markers (one begins every 0.8 x SPAN / N, each 1 to 5 24ths of the
# SPAN long: some 8 at once); each session's waits, edges and rows files
# are a real run's (head | gzip | cat under perflog run -i 1, some 6 s)
# stretched over its span by bench/nightwaits.awk, in the collector's
# format and with its rule for the rows' step.
#   REPORT_SPAN (1d)  REPORT_SESSIONS (50)  REPORT_RUNS (1)
#   REPORT_CMDS ("text json html csv png view": the commands measured)
#   REPORT_SET=DIR  a night made before (KEEP_BENCH=1 keeps BENCH_TMP,
#                   its night/ is one), read again and not made
. "$(dirname "$0")/lib.sh"
SPAN=${REPORT_SPAN:-1d}
N=${REPORT_SESSIONS:-50}
RUNS=${REPORT_RUNS:-1}
CMDS=${REPORT_CMDS:-text json html csv png view}
MKNIGHT=$TOP/build/tools/mknight
[ -x "$MKNIGHT" ] || make -C "$TOP" -s build/tools/mknight >/dev/null || exit 1
[ -x /usr/bin/time ] || { echo "report.sh: /usr/bin/time not found (apt-get install time)"; exit 0; }

if [ -n "${REPORT_SET:-}" ]; then
	set=$REPORT_SET
	echo "a night: $set, made before: $(grep -c '	end	' "$set/markers.tsv") sessions, $(du -sh "$set" | cut -f1) on disk"
else
	# one real pipeline's files, the template of every session's
	"$PERFLOG" run -l tpl -i 1 -o "$BENCH_TMP/tpl" -- \
		sh -c 'head -c 100000000 /dev/urandom | gzip -1 | cat >/dev/null' >/dev/null 2>&1
	tpl=$(ls -d "$BENCH_TMP"/tpl/*/ | head -1)
	[ -f "$tpl/waits-tpl.rows.tsv" ] || { echo "report.sh: the template run left no waits-tpl.rows.tsv"; exit 1; }
	t0=$(date +%s.%N)
	"$MKNIGHT" "$BENCH_TMP/night" -s "$SPAN" -n "$N" >"$BENCH_TMP/sessions" || exit 1
	t1=$(date +%s.%N)
	set=$BENCH_TMP/night
	night=$(sort -k2n "$BENCH_TMP/sessions" | awk 'NR == 1 { print $2 }')
	while read -r name b e; do
		awk -v name="$name" -v begin="$b" -v end="$e" -v k="${name#s}" \
			-v night="$night" -v dir="$set" -f "$TOP/bench/nightwaits.awk" \
			"$tpl/waits-tpl.rows.tsv" "$tpl/waits-tpl.tsv" "$tpl/edges-tpl.tsv" || exit 1
	done <"$BENCH_TMP/sessions"
	t2=$(date +%s.%N)
	secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
	most=$(awk '{ print $2, 1; print $3, -1 }' "$BENCH_TMP/sessions" | sort -k1n -k2n |
		awk '{ n += $2; if (n > m) m = n } END { print m }')
	echo "a night: $SPAN at 1 s, $N sessions (at most $most at once), $(du -sh "$set" | cut -f1) on disk"
	echo "  made in $(secs "$t0" "$t2") s: the rows and markers $(secs "$t0" "$t1") s (build/tools/mknight), the waits, edges and rows files $(secs "$t1" "$t2") s (bench/nightwaits.awk)"
fi

# one command's figures, the median run by wall time: "wall cpu rss_kb"
median_run() {
	sort -n "$1" | awk '{ v[NR] = $0 } END { print v[int((NR + 1) / 2)] }'
}
# the arguments of each command measured (the paths have no blanks)
args_of() {
	case $1 in
	text) echo report "$set" ;;
	json) echo report --json "$set" ;;
	html) echo report --html "$BENCH_TMP/out" "$set" ;;
	csv) echo export "$set" --csv - ;;
	png) echo export "$set" --png "$BENCH_TMP/out" ;;
	view) echo view --bench-frames 10 "$set" ;;
	esac
}
measure() {	# BINARY WHAT
	: >"$BENCH_TMP/times"
	r=0
	while [ $r -lt "$RUNS" ]; do
		rm -rf "$BENCH_TMP/out"
		/usr/bin/time -f '%e %U %S %M' -o "$BENCH_TMP/time" "$1" $(args_of "$2") \
			>/dev/null 2>"$BENCH_TMP/stderr" ||
			echo "    ($1 $2: $(head -c 200 "$BENCH_TMP/stderr"))" >&2
		# the last line: a failed command's status comes first
		awk 'END { printf "%s %.2f %s\n", $1, $2 + $3, $4 }' "$BENCH_TMP/time" >>"$BENCH_TMP/times"
		r=$((r + 1))
	done
	median_run "$BENCH_TMP/times"
}
echo "the night read (median of $RUNS by wall; wall and CPU seconds, peak RSS; load average $(cut -d' ' -f1 /proc/loadavg) at the start):"
printf '  %-36s %-8s %9s %9s %10s\n' binary command wall_s cpu_s rss_MB
for what in $CMDS; do
	for bin in "$PERFLOG" ${PERFLOG_BASE:-}; do
		set -- $(measure "$bin" "$what")
		printf '  %-36s %-8s %9.2f %9.2f %10.1f\n' "$bin" "$what" "$1" "$2" \
			"$(awk -v k="$3" 'BEGIN { print k / 1024 }')"
		[ "$bin" = "$PERFLOG" ] && new=$2 || awk -v a="$new" -v b="$2" \
			'BEGIN { if (b > 0) printf "  %-36s %-8s CPU ratio (this build / base): %.2f\n", "", "", a / b }'
	done
done
