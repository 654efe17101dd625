#!/bin/bash
# A set's first row holds what was measured in it, not its first moments
# stretched over it. The collector's baseline falls somewhere in the
# set's first row; its first values were once stretched back over the
# whole row (the writer's rule for a new file, meant for a watched
# tree's zeros), so a load that began just after `perflog start` counted
# as if it had run the whole row: a CPU burn started at once logged 2.94
# core-s against the 2.14 /proc/stat counted around the log, and t2100's
# disk bytes in a loaded make check came 25 MB over what /proc/diskstats
# counted, others' writes in the 50 ms between the baseline and the first
# sample counted twenty times. Now only a watched tree's file is
# idle-born (its zeros cover its row, logs/logset.h); every other row is
# the average of what was measured in it, unknown when that is less than
# half (logs/rows.h), and the first deadline is half a step or more
# after the baseline (collector/setup.c, START_LEAD_MAX 2.5 s at most),
# so up to -i 5 the first row is always known.
#
# Through the clock seam (PERFLOG_TEST_CLOCK_OFFSET_FILE, as t3130) the
# collector starts at three phases of its second; one core burns from
# the moment `perflog start` returns. The logged busy core-seconds must
# cover the burn and stay within what /proc/stat counted over a span
# enclosing the log (others' load adds to both sides alike). Then -i 5,
# started late in its step: the first row known (with a lead of 0.5 s
# it was measured for 1 s of 5, unknown, and 1.10 of 2.0 core-s logged).
. "$(dirname "$0")/lib.sh"
NCPU=$(nproc)
hz=$(getconf CLK_TCK)
off=$SCRATCH/clock.offset
busy_ticks() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9; exit }' /proc/stat; }
now() { date +%s.%N; }
col='Processor(_Total)\% Processor Time'

# burn_log NAME STEP BURN AFTER: perflog start -i STEP on the clock
# seam's offset, one core burning BURN s from the moment it returns,
# AFTER s more, the stop; the CSV read once the clock is past the log's
# end (the stop closes the row it falls in, up to half a step after its
# last sample). Sets CSV, C (the column), BURNT, BUSY (the logged busy
# core-s) and REF (/proc/stat's over a span enclosing the log).
burn_log() {
	b0=$(busy_ticks)
	dir=$(PERFLOG_TEST_CLOCK_OFFSET_FILE=$off $PERFLOG start -o "$SCRATCH/$1" -i "$2") ||
		{ echo "Bail out! start failed"; exit 1; }
	BURNT=$($LOADGEN burn "$3")
	sleep "$4"
	$PERFLOG stop "$dir" >/dev/null
	sleep "$(calc "$2 / 2 + 0.6")"
	b1=$(busy_ticks)
	CSV=$SCRATCH/$1.csv
	$PERFLOG export "$dir" --csv "$CSV"
	C=$(csv_col "$CSV" "$col")
	BUSY=$(awk -F, -v c="$C" -v n=$NCPU -v s="$2" 'NR > 1 && $c != "" { t += s * $c / 100 * n } END { printf "%.3f\n", t }' "$CSV")
	REF=$(awk -v a=$b0 -v b=$b1 -v hz=$hz 'BEGIN { printf "%.3f\n", (b - a) / hz }')
}

for ph in 0.55 0.75 0.90; do
	awk -v ph=$ph -v t="$(now)" 'BEGIN { printf "%.3f\n", ph - (t - int(t)) }' >"$off"
	load_begin
	burn_log "p$ph" 1 1.5 0.5
	load_end "$BURNT"
	diag "phase $ph: $LOAD_FIGS"
	# the closing row's unmeasured part holds its measured part's
	# average (collector.c closing): up to half of it is others' load
	# extrapolated, as t2100's csv_edges allows
	last=$(awk -F, -v c="$C" -v n=$NCPU 'NR > 1 && $c != "" { l = $c / 100 * n } END { printf "%.3f\n", 0.5 * l }' "$CSV")
	diag "phase $ph: first rows $(awk -F, -v c="$C" 'NR > 1 && NR < 5 { printf "%s ", ($c == "" ? "U" : sprintf("%.1f%%", $c)) }' "$CSV")"
	within "phase $ph: $BUSY core-s logged cover the $BURNT s burnt (92%)" \
		"$BUSY" "$(calc "0.92 * $BURNT")" '' "$BURNT"
	within "phase $ph: $BUSY core-s logged <= the $REF /proc/stat counted around the log (+3% + 0.05 + $last of the last row)" \
		"$BUSY" '' "$(calc "1.03 * $REF + 0.05 + $last")" "$REF"
done

# At -i 5 the first deadline is 2.5 s or more after the baseline, so the
# first row is at least half measured however late in its step the
# collector starts: at 4.0 s of a 5 s step the start comes a second later
# (the collector waits for it and reads its baseline again), and the row
# is measured whole. With a lead of 0.5 s this row was measured for 1 s
# of 5, and unknown.
awk -v t="$(now)" 'BEGIN { printf "%.3f\n", 4.0 - (t - 5 * int(t / 5)) }' >"$off"
burn_log i5 5 2 4
first=$(awk -F, -v c="$C" 'NR == 2 { print ($c == "" ? "unknown" : $c) }' "$CSV")
ok "-i 5, started 4 s into a step: the first row is known ($first)" test "$first" != unknown -a -n "$first"
within "-i 5: $BUSY core-s logged cover the $BURNT s burnt (92%)" \
	"$BUSY" "$(calc "0.92 * $BURNT")" '' "$BURNT"
# the stop falls 1-2 s into the second row, which is not closed (less
# than half of it measured): no row stands for time not measured
within "-i 5: $BUSY core-s logged <= the $REF /proc/stat counted around the log (+3% + 0.05)" \
	"$BUSY" '' "$(calc "1.03 * $REF + 0.05")" "$REF"
rm -f "$off"
done_testing
