# bench/lib.sh - shared by the bench scripts (sourced, POSIX sh).
# Figures only: a bench prints numbers, it does not pass or fail on speed.
#
#   cpu_ns PID     on-CPU time of a process's main thread in ns
#                  (/proc/PID/schedstat, exact)
#   cpu_ns_all PID the same summed over its threads alive now
#   cpu_ticks PID  utime+stime in clock ticks (/proc/PID/stat, 10 ms grain)
#   hwm_kb PID     peak resident set (VmHWM) in kB
#   bench_track PID  killed (TERM, then KILL) when the script exits
#   cost_snap       the running collector's cost totals (`perflog status
#                   --json` cost_us: samples and microseconds in all, per
#                   stage and per part of the source), "key=value ..."
#   cost_table A B [MS]  the cost per sample between two cost_snap, a
#                   table; with $PERFLOG_COST_CLOCK=cpu (the table in the
#                   loop thread's CPU time) and MS, the loop's CPU a
#                   sample in ms, also what the stages leave out of it
#                   (the wait between samples and its wake, requests)
TOP=$(cd "$(dirname "$0")/.." && pwd)
PERFLOG=${PERFLOG:-$TOP/perflog}
SADC=${SADC:-/usr/lib/sysstat/sadc}
export LC_ALL=C LC_NUMERIC=C TZ=UTC
BENCH_TMP=$(mktemp -d /tmp/perflog-bench.XXXXXX)
export PERFLOG_RUNTIME_DIR=$BENCH_TMP/run
_bench_pids=""
. "$TOP/tests/stop-pids.sh"
bench_track() { _bench_pids="$_bench_pids $1"; }
_bench_cleanup() {
	stop_pids $_bench_pids
	type bench_extra_cleanup >/dev/null 2>&1 && bench_extra_cleanup
	[ -n "${KEEP_BENCH:-}" ] || rm -rf "$BENCH_TMP"
}
trap _bench_cleanup EXIT
trap 'exit 1' INT TERM

cpu_ns() { awk '{ print $1 }' "/proc/$1/schedstat"; }
cpu_ns_all() { cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{ s += $1 } END { printf "%.0f\n", s }'; }
cpu_ticks() { sed 's/.*) //' "/proc/$1/stat" | awk '{ print $12 + $13 }'; }
hwm_kb() { awk '/^VmHWM:/ { print $2 }' "/proc/$1/status"; }

# A settings file with every counter of every object, every instance named
# (idle loop/ram devices included, which the default leaves out).
all_counters_pml() {
	{
		printf "[counters]\n"
		printf '\\Processor(*)\\*\n\\LogicalDisk(*)\\*\n\\Memory\\*\n'
		printf '\\Network Interface(*)\\*\n\\System\\*\n'
		for d in $(awk '{ print $3 }' /proc/diskstats); do
			case $d in *[!A-Za-z0-9_.-]*) continue ;; esac
			printf '\\LogicalDisk(%s)\\*\n' "$d"
		done
	} > "$1"
}

# "a b" -> a/b with 3 decimals (awk, so no bc needed)
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }

# The collector's own cost counters (collector/cost.c): one line of
# key=value, microseconds in all since it started; empty when it does not
# say (an older binary).
cost_snap() {
	"$PERFLOG" status --json 2>/dev/null | tr -d ' \n' |
		grep -o '"cost_us":{[^}]*}' | head -1 |
		sed 's/"cost_us":{//; s/}//; s/"//g; s/:/=/g; s/,/ /g'
}

# Between two cost_snap lines: each stage's, each source part's and each
# writer part's share of a sample in microseconds (the source parts are
# inside "read", the writer's inside "write").
cost_table() {
	[ -n "$1" ] && [ -n "$2" ] || { echo "  cost table: not told by this perflog"; return 0; }
	awk -v a="$1" -v b="$2" -v ms="${3:-}" -v clock="${PERFLOG_COST_CLOCK:-wall}" 'BEGIN {
		na = split(a, x, " "); nb = split(b, y, " ")
		for (i = 1; i <= na; i++) { split(x[i], kv, "="); A[kv[1]] = kv[2] }
		for (i = 1; i <= nb; i++) { split(y[i], kv, "="); B[kv[1]] = kv[2]; key[i] = kv[1] }
		n = B["samples"] - A["samples"]
		if (n <= 0) { print "  cost table: no samples"; exit }
		printf "  cost per sample (us, the collector'"'"'s %s clock, %d samples):", clock == "cpu" ? "CPU" : "wall", n
		for (i = 1; i <= nb; i++) {
			k = key[i]
			if (k == "samples") continue
			if (k == "stat") printf "\n    of the read:"
			if (k == "journal") printf "\n    of the write:"
			printf " %s %.1f", k, (B[k] - A[k]) / n
			if (k == "read" || k == "rates" || k == "watch" || k == "select" || k == "write")
				st += (B[k] - A[k]) / n
		}
		printf "\n"
		if (clock == "cpu" && ms != "")
			printf "    outside the stages (the wait, its wake, requests): %.1f\n", ms * 1000 - st
	}'
}
