#!/bin/bash
# t7760-short-io: the bytes of a pipeline's short-lived stages in their
# wait-state rows (issue 50 item 4). `sh -c 'head | cat'` under perflog
# run: sh is born after the watch's read, so head's and cat's exit
# records wait in the Process books until a read knows sh (process.h
# proctree_late). Process(LABEL) counted their bytes; their waits rows
# kept io_bytes 0 (and their names from before the exec: sh) whenever
# that read came over a second after the records: the records were
# dropped there, lest they make second rows, although the rows they
# finish were still the sampler's. A record now finishes the row its
# thread still has, however late, and makes no second row of a thread
# the sampler ended (waits.h waits_exits).
#   1. the issue's command, perflog run's own collector: head and cat
#      each read N bytes and wrote N (io_bytes is rchar + wchar: 2N),
#      and worked
#   2. joined to a collector at -i 30, the pipeline then 2 s of sleep:
#      the records are placed by the session's last read, 2.5 s after
#      they came (before: io_bytes 0 for both, every run); the report
#      names head and cat as the session's stages
#   3. perflog mark --watch PID of a shell whose child shell runs the
#      pipeline, then exits: the records are placed by the read that
#      finds the root gone (before: not at all, and at -i 30 the waits
#      file had no thread, the sampler not read after the last sample)
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || skip_all 'exit records need root (taskstats)'
N=100000000
PIPE="head -c $N /dev/zero | cat >/dev/null"

# the waits file of session LABEL in set DIR (its end marker names it)
waits_of() {
	f=$(grep -hP "\tend\t$2\t" "$1/markers.tsv" | tr '\t' '\n' | sed -n 's/^waits=//p')
	echo "$1/$f"
}
# io_bytes and working of the rows named NAME in waits file FILE, summed
row_of() {
	awk -F'\t' -v c="$2" 'NR > 1 && $2 == c { s += $11; w += $12; n++ }
		END { print s + 0, w + 0, n + 0 }' "$1" 2>/dev/null
}
# each of head and cat: one row, 2N bytes (its exec's reads of its
# libraries beside: under 1%), working
check_stages() {
	diag "$(awk -F'\t' 'NR > 1 { print $2, $11, $12 }' "$1" 2>/dev/null | tr '\n' ';')"
	for c in head cat; do
		set -- "$1" "$2" $(row_of "$1" $c)
		within "$2: $c's waits row has its 2 x $N bytes" "$3" \
			$((2 * N)) $((2 * N + 2 * N / 100)) $((2 * N))
		is "$4 $5" "1 1" "$2: $c: one row, working"
	done
}

# --- 1. the issue's command, with a collector of its own ---
"$PERFLOG" run -o "$SCRATCH/own" -l io -- sh -c "$PIPE" >/dev/null 2>&1
is "$?" 0 'perflog run of head | cat'
set -- "$SCRATCH"/own/*/markers.tsv
OWN=$(dirname "$1")
check_stages "$(waits_of "$OWN" io)" own

# --- 2. joined at -i 30: records placed 2.5 s after they came ---
LS=$("$PERFLOG" start -o "$SCRATCH/logs" -i 30)
is "$?" 0 'a collector at -i 30'
for k in 1 2; do
	"$PERFLOG" run -o "$LS" -l late$k -- sh -c "$PIPE; sleep 2" >/dev/null 2>&1
	is "$?" 0 "perflog run of head | cat, then sleep 2 (run $k)"
	check_stages "$(waits_of "$LS" late$k)" late$k
done
# --- 3. perflog mark --watch PID, the root gone right after ---
# the pipeline's shell is a child of the watched one, born after its
# read; its record makes it known, then the root exits and the read
# finds it gone: that read places head's and cat's records all the same
# (process.h proctree_late), and the sampler is read once more, so the
# end's waits file has them (before: io_bytes 0; at -i 30, no thread)
sh -c "sleep 1; sh -c '$PIPE'; exit 0" &
root=$!
"$PERFLOG" mark -d "$LS" --begin -s gone --watch $root go >/dev/null
wait $root
sleep 1
"$PERFLOG" mark -d "$LS" --end -s gone done >/dev/null
is "$?" 0 'mark --watch of a shell whose child shell ran head | cat'
check_stages "$(waits_of "$LS" gone)" gone
"$PERFLOG" stop "$LS" >/dev/null
"$PERFLOG" report -v "$LS" >"$SCRATCH/report" 2>&1
is "$?" 0 'the report reads the set'
# the stages of session late1: the lines under its "Stages" heading
stages=$(awk '/^Session / { s = $2 } s == "late1" && /^  Stages/ { on = 1; next }
	on && /^    [^ ]/ { print $1; next } { on = 0 }' "$SCRATCH/report" | sort | tr '\n' ' ')
like "$stages" 'cat .*head' "the report's stages of late1 name head and cat ($stages)"
done_testing
