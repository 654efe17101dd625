# tests/lib.sh - shared by the end-to-end suites (tests/tNNNN-name.t).
# Source it first: it gives a scratch directory, TAP output and cleanup of
# every process a test starts (by PID).
#
#   . "$(dirname "$0")/lib.sh"
#   plan 3                 (or done_testing at the end)
#   ok 'name' test -f x    run a command; ok when it exits 0
#   is "$got" "$want" name
#   near "$got" "$want" "$tol_fraction" name    numbers within a fraction
#   skip_all "why"         when a prerequisite is missing
#   skip "why"             one test skipped (a case that cannot be set up)
#   track_pid PID          killed (TERM, then KILL) at exit
#   track_cgroup DIR       removed (rmdir) at exit, after the processes
#   load_begin / load_end  the other processes' CPU and PSI over a check
#                          (below): tolerances that follow the load
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
PERFLOG=${PERFLOG:-$TOP/perflog}
SCRATCH=$(mktemp -d /tmp/perflog-test.XXXXXX)
# stock rrdtool, tried again when it meets the collector's lock (bin/rrdtool)
PATH=$TOP/tests/bin:$PATH
# every collector of this suite registers here, apart from the user's own
export PERFLOG_RUNTIME_DIR=$SCRATCH/run
export TZ=UTC LC_ALL=C LC_NUMERIC=C
# The collector holds rows back and writes each RRD file every ~10 s
# (logs/logset.h logset_flush, docs/PERFORMANCE.md); suites that watch a
# live collector's files on disk want every sample written at once.
# t6000-scale and t6100-rrdcached exercise the batched path.
export PERFLOG_BATCH=${PERFLOG_BATCH:-1}
_tap_n=0
_tap_fail=0
_pids=""
. "$TOP/tests/stop-pids.sh"

track_pid() { _pids="$_pids $1"; }
# cgroups a test made: removed at exit, the last made first (a child
# before its parent); rmdir refuses a group still holding a task
_cgroups=""
track_cgroup() { _cgroups="$1 $_cgroups"; }

_cleanup() {
	stop_pids $_pids
	# collectors started by perflog start register their pid here: each
	# asked to end, given up to 0.5 s (it closes its set), then killed;
	# the wait ends when it has ended (zombie: init reaps it when it
	# will), not after a fixed 0.5 s a collector
	_left=""
	for f in "$PERFLOG_RUNTIME_DIR"/*.info; do
		[ -e "$f" ] || continue
		p=${f##*/}
		p=${p%.info}
		kill -TERM "$p" 2>/dev/null && _left="$_left $p"
	done
	for p in $_left; do
		for _ in 1 2 3 4 5 6 7 8 9 10; do
			kill -0 "$p" 2>/dev/null && ! zombie "$p" || break
			sleep 0.05
		done
		kill -KILL "$p" 2>/dev/null
	done
	_cleanup_net
	for g in $_cgroups; do
		for _ in 1 2 3 4 5; do
			rmdir "$g" 2>/dev/null && break
			[ -d "$g" ] || break
			sleep 0.2
		done
	done
	[ -n "${KEEP_SCRATCH:-}" ] || rm -rf "$SCRATCH"
}
trap _cleanup EXIT
trap 'exit 1' INT TERM

plan() { echo "1..$1"; }
skip_all() { echo "1..0 # SKIP $1"; exit 0; }
skip() { _tap_n=$((_tap_n + 1)); echo "ok $_tap_n # SKIP $1"; }
diag() { echo "# $*"; }

# A failure's details go to stderr: prove shows them without -v, so
# CI's log says why.
_result() {
	_tap_n=$((_tap_n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $_tap_n - $2"
	elif [ -n "${TAP_TODO:-}" ]; then
		# a known defect, its evidence on stderr: TAP's TODO, which
		# prove reports without failing the suite
		echo "not ok $_tap_n - $2 # TODO $TAP_TODO"
	else
		_tap_fail=$((_tap_fail + 1))
		echo "not ok $_tap_n - $2"
		# what the machine did meanwhile (load_end), when measured
		[ -z "$LOAD_FIGS" ] || echo "#   $LOAD_FIGS" >&2
	fi
}

ok() {
	name=$1; shift
	if "$@" >"$SCRATCH/ok.out" 2>&1; then _result 0 "$name"; else
		_result 1 "$name"; sed 's/^/#   /' "$SCRATCH/ok.out" | head -20 >&2
	fi
}

# fails() name cmd...: ok when the command exits non-zero
fails() {
	name=$1; shift
	if "$@" >"$SCRATCH/ok.out" 2>&1; then _result 1 "$name"
		sed 's/^/#   /' "$SCRATCH/ok.out" | head -20 >&2
	else _result 0 "$name"; fi
}

is() {
	if [ "$1" = "$2" ]; then _result 0 "$3"; else
		_result 1 "$3"; echo "#   got:      '$1'" >&2; echo "#   expected: '$2'" >&2
	fi
}

like() {
	if printf '%s' "$1" | grep -Eq -- "$2"; then _result 0 "$3"; else
		_result 1 "$3"; echo "#   '$1'" >&2; echo "#   does not match '$2'" >&2
	fi
}

near() {
	if awk -v g="$1" -v w="$2" -v f="$3" 'BEGIN {
		d = g - w; if (d < 0) d = -d; a = w < 0 ? -w : w;
		exit !(g != "" && d <= f * a) }'; then
		_result 0 "$4 ($1 vs $2)"
	else
		_result 1 "$4"; echo "#   got $1, expected $2 within $3" >&2
	fi
	_margin "$4" "$1" "" "" "$2" "$3"
}

# within NAME GOT LO HI [WANT]: ok when LO <= GOT <= HI (either bound
# may be empty: one-sided); WANT is the ideal figure, when it is not the
# middle of the band (the headroom is measured from it)
within() {
	if awk -v g="$2" -v lo="$3" -v hi="$4" 'BEGIN {
		exit !(g != "" && (lo == "" || g + 0 >= lo + 0) && (hi == "" || g + 0 <= hi + 0)) }'; then
		_result 0 "$1 ($2 in [$3, $4])"
	else
		_result 1 "$1"; echo "#   got $2, expected within [$3, $4]" >&2
	fi
	_margin "$1" "$2" "$3" "$4" "${5:-}"
}

# With PERFLOG_MARGINS set (make check, make check-stress), every
# tolerance's headroom goes to that file, so that the run can say which
# checks came closest to failing (tests/margins.sh prints them). The
# headroom is the share of the tolerance left: 1 at the ideal figure
# (near's WANT, within's WANT or the middle of its band), 0 at a bound,
# negative outside; with one bound and no ideal, the distance to it as
# a share of it. A line is short and written with one append: suites
# side by side do not interleave within one.
# _margin NAME GOT LO HI [WANT [FRACTION]]: the bounds, or near's WANT
# within FRACTION of it
_margin() {
	[ -n "${PERFLOG_MARGINS:-}" ] || return 0
	awk -v s="$(basename "$0")" -v n="$_tap_n" -v name="$1" -v g="$2" -v lo="$3" -v hi="$4" \
	    -v w="${5:-}" -v f="${6:-}" 'BEGIN {
		if (g == "" || (w == "" && f != "")) exit
		if (f != "") { a = w < 0 ? -w : w; lo = w - f * a; hi = w + f * a }
		if (w == "" && lo != "" && hi != "") w = (lo + hi) / 2
		if (w != "" && g + 0 <= w + 0 && lo != "")
			h = w - lo > 0 ? (g - lo) / (w - lo) : (g >= lo ? 1 : -1)
		else if (w != "" && g + 0 >= w + 0 && hi != "")
			h = hi - w > 0 ? (hi - g) / (hi - w) : (g <= hi ? 1 : -1)
		else if (w != "")
			h = 1	# on the side without a bound
		else {
			b = lo != "" ? lo : hi; r = lo != "" ? g - lo : hi - g
			h = b != 0 ? r / (b < 0 ? -b : b) : r
		}
		printf "%.4f\t%s %s\t%s\tgot %s in [%s, %s]%s\n", h, s, n, name, g, lo, hi,
			w != "" ? ", ideal " w : ""
	}' >> "$PERFLOG_MARGINS"
}

# err_is NAME TEXT CMD...: the command fails with exactly one line on
# stderr, and that line contains TEXT (the contract for bad input)
err_is() {
	name=$1 want=$2; shift 2
	out=$("$@" 2>&1 >/dev/null); st=$?
	lines=$(printf '%s\n' "$out" | grep -c .)
	if [ $st -ne 0 ] && [ "$lines" = 1 ] && printf '%s' "$out" | grep -qF -- "$want"; then
		_result 0 "$name"
	else
		_result 1 "$name"; echo "#   status $st, stderr: $out"
	fi
}

done_testing() { echo "1..$_tap_n"; [ "$_tap_fail" = 0 ]; }

# headless_chromium ARGS...: Debian's chromium headless at the width of
# an A4 page (794 px at 96 dpi), a profile of its own in the scratch
# directory, at most 120 s, its chatter on stderr dropped (t5140, t5150)
headless_chromium() {
	timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic \
		--no-first-run --disable-background-networking --disable-component-update \
		--disable-sync --allow-file-access-from-files --user-data-dir="$SCRATCH/chrome" \
		--hide-scrollbars --window-size=794,1123 --virtual-time-budget=10000 "$@" 2>/dev/null
}

# Wait up to $1 seconds for a command to succeed.
wait_for() {
	t=$1; shift
	end=$(( $(date +%s) + t ))
	while ! "$@" 2>/dev/null; do
		[ "$(date +%s)" -ge "$end" ] && return 1
		sleep 0.2
	done
}

# ---- known load ----
LOADGEN=$TOP/build/tools/loadgen

# The whole block device under a path ("vda", "sda"), or "" (tmpfs,
# overlay).
disk_of() {
	d=$(stat -c '%Hd:%Ld' "$1" 2>/dev/null) || return 0
	l=$(readlink -f "/sys/dev/block/$d" 2>/dev/null) || return 0
	[ -n "$l" ] || return 0
	if [ -e "$l/partition" ]; then l=$(dirname "$l"); fi
	basename "$l"
}

# A private link for network tests: a veth pair with one end in a network
# namespace of our own, addresses 169.254.X.1 (here) and .2 (there). Sets
# VETH (the host-side interface) and PEER_ADDR, or returns 1 when the
# machine cannot (not root, no netns). Traffic never leaves the machine.
_netns=""
_veths=""
make_veth() {
	[ "$(id -u)" = 0 ] || return 1
	command -v ip >/dev/null || return 1
	n=$(( $$ % 200 + 20 ))
	ns=plns$$; VETH=plv$$a; peer=plv$$b
	ip netns add "$ns" 2>/dev/null || return 1
	_netns="$_netns $ns"
	ip link add "$VETH" type veth peer name "$peer" 2>/dev/null || return 1
	_veths="$_veths $VETH"
	ip link set "$peer" netns "$ns" &&
	ip addr add "169.254.$n.1/30" dev "$VETH" &&
	ip link set "$VETH" up &&
	ip -n "$ns" addr add "169.254.$n.2/30" dev "$peer" &&
	ip -n "$ns" link set "$peer" up &&
	ip -n "$ns" link set lo up || return 1
	PEER_ADDR=169.254.$n.2
	PEER_NS=$ns
	return 0
}

# start_fg CMD...: a foreground collector (CMD is its whole command line:
# `$PERFLOG start -f ...`, or that under `ip netns exec NS`) in the
# background, tracked, its stdout in $SCRATCH/fg.out and stderr in
# $SCRATCH/fg.err. Sets fg (its pid) and dir (the log set it printed; empty,
# with its stderr shown, when it printed none within 15 s).
start_fg() {
	"$@" > "$SCRATCH/fg.out" 2> "$SCRATCH/fg.err" &
	fg=$!
	track_pid $fg
	wait_for 15 test -s "$SCRATCH/fg.out" ||
		{ echo "# the collector did not start:"; sed 's/^/#   /' "$SCRATCH/fg.err"; } >&2
	dir=$(head -1 "$SCRATCH/fg.out")
}

# need_netns: skip the suite unless it can build private networks and load
# them (root, ip(8), the load generator).
need_netns() {
	[ "$(id -u)" = 0 ] || skip_all "needs root (network namespaces)"
	command -v ip >/dev/null || skip_all "no ip(8)"
	[ -x "$LOADGEN" ] || skip_all "no $LOADGEN (make build/tools/loadgen)"
}

# netns_add NAME: a network namespace of the suite's own, deleted at exit
# with every device in it; the suite is skipped when none can be made.
netns_add() {
	ip netns add "$1" 2>/dev/null || skip_all "cannot create a network namespace"
	_netns="$_netns $1"
}

_cleanup_net() {
	for v in $_veths; do ip link del "$v" 2>/dev/null; done
	for ns in $_netns; do ip netns del "$ns" 2>/dev/null; done
}

# CSV helpers: column of a counter (by suffix match on the header), and the
# sum of a column times the step (the integral of a rate).
csv_col() {
	head -1 "$1" | tr ',' '\n' | tr -d '"' | awk -v want="$2" '
		{ n = length($0); m = length(want)
		  if (n >= m && substr($0, n - m + 1) == want) { print NR; exit } }'
}
csv_integral() {
	awk -F, -v c="$2" -v step="$3" 'NR > 1 && $c != "" { s += $c * step } END { printf "%.0f\n", s }' "$1"
}
# csv_edges FILE COL STEP: what the log's first and last known rows of a
# rate may hold beyond what was measured, in the rate's units times
# seconds. The collector closes a row at its stop, and a set starts one
# (its baseline after the row began), when at least half of it was
# measured, holding the average of the measured part (collector.c
# closing, collector/setup.c, logs/rows.h): up to half a row stands for
# time not measured, so a burst landing in it (a writeback the flusher
# thread started) counts up to twice. (The first row once held its first
# 50 ms stretched over it, twenty times: t2105.)
csv_edges() {
	awk -F, -v c="$2" -v step="$3" 'NR > 1 && $c != "" { if (!n++) f = $c; l = $c }
		END { printf "%.0f\n", 0.5 * step * (f + l) }' "$1"
}

# ---- the machine's load during a check ----
# A share or a timing holds only as well as the machine lets it: these
# measure what else ran while a check did, from /proc/stat and PSI
# (/proc/pressure), so a tolerance can follow from it rather than from
# an idle machine (issue 22).
#
#   load_begin            start a window
#   load_end [OWN_CPU_S]  end it; OWN_CPU_S: CPU seconds the check's own
#                         load used in it (a load generator says), not
#                         counted as the others'. Sets:
#     LOAD_SECS     the window's seconds
#     LOAD_NCPU     online CPUs
#     LOAD_OTHERS   CPUs' worth used by everything else (0 .. LOAD_NCPU)
#     LOAD_CPU_ALL  % busy of all CPUs together (everyone's, own too)
#     LOAD_CPU_MAX  % busy of the busiest CPU
#     LOAD_CPU_SOME % of the time some task waited for a CPU (PSI; "" none)
#     LOAD_IO_SOME  % of the time some task waited for I/O (PSI; "" none)
#     LOAD_FIGS     all of them on one line, for diagnostics
# A failing check prints LOAD_FIGS with its own figures (_result).
LOAD_FIGS=""
_load_snap() {
	awk '/^cpu[0-9]* / {
		b = $2 + $3 + $4 + $7 + $8 + $9; t = b + $5 + $6
		printf "%s %s %s\n", $1, b, t }' /proc/stat
	for r in cpu io; do
		v=$(sed -n 's/^some .*total=\([0-9]*\).*/\1/p' /proc/pressure/$r 2>/dev/null)
		echo "psi_$r ${v:--} ${v:--}"
	done
	echo "clock $(date +%s.%N) -"
}
load_begin() {
	LOAD_FIGS=""
	_load_snap > "$SCRATCH/load.begin"
}
load_end() {
	_load_snap > "$SCRATCH/load.end"
	eval "$(awk -v own="${1:-0}" '
		NR == FNR { b[$1] = $2; t[$1] = $3; next }
		{ db = $2 - b[$1]; dt = $3 - t[$1] }
		$1 == "clock" { secs = $2 - b[$1] }
		$1 == "cpu" { busy = db; tot = dt }
		$1 ~ /^cpu[0-9]/ { n++; if (dt > 0 && 100 * db / dt > max) max = 100 * db / dt }
		$1 == "psi_cpu" { cs = $2 == "-" ? "" : $2 - b[$1] }
		$1 == "psi_io" { is = $2 == "-" ? "" : $2 - b[$1] }
		END {
			if (secs <= 0) secs = 0.001
			oth = tot > 0 ? n * busy / tot - own / secs : 0
			if (oth < 0) oth = 0
			printf "LOAD_SECS=%.2f LOAD_NCPU=%d LOAD_OTHERS=%.2f LOAD_CPU_MAX=%.1f\n",
				secs, n, oth, max
			printf "LOAD_CPU_ALL=%.1f\n", (tot > 0 ? 100 * busy / tot : 0)
			printf "LOAD_CPU_SOME=%s LOAD_IO_SOME=%s\n",
				cs == "" ? "" : sprintf("%.1f", cs / 1e4 / secs),
				is == "" ? "" : sprintf("%.1f", is / 1e4 / secs)
		}' "$SCRATCH/load.begin" "$SCRATCH/load.end")"
	LOAD_FIGS="load over ${LOAD_SECS}s: others used $LOAD_OTHERS of $LOAD_NCPU CPUs, all CPUs $LOAD_CPU_ALL% busy, busiest CPU $LOAD_CPU_MAX%, PSI cpu some ${LOAD_CPU_SOME:-n/a}%, io some ${LOAD_IO_SOME:-n/a}%"
}
# calc EXPR: an awk expression of the load figures, for tolerances
calc() { awk "BEGIN { print ($1) }"; }
