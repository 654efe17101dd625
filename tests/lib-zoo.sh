# tests/lib-zoo.sh - the zoo of real limits (t3500-zoo-cpu.t,
# t3510-zoo-io.t), sourced after lib.sh. One collector at 1 s per suite;
# each case a backup-like command under `perflog run -o ZOO -l CASE`
# (joining it, so the collector itself is outside the case's cgroups),
# then one report whose sessions are checked: the first word of each
# Bottleneck line and the dominant wait state (report/README.md).
#
#   zoo_start / zoo_stop         the collector; zoo_stop writes the report
#                                and the CSV (zoo_mean CASE COUNTER)
#   zoo_cgroup CTRL NAME         a v1 group of controller CTRL (or a v2
#                                group with it enabled), made and tracked
#                                (so not in a $(...) subshell): its
#                                directory in ZOO_CG, or fails
#   zoo_throttle GROUP DEV read|write BPS
#                                GROUP's reads or writes of DEV (MAJ:MIN)
#                                throttled to BPS bytes/s (v1 blkio, v2
#                                io.max); read_iops|write_iops N: to N
#                                requests/s
#   zoo_run CASE [PROCS...] -- CMD...
#                                perflog run in those cgroup.procs files
#                                ($ZOO_PREFIX, e.g. "chrt -f 10", before it)
#   zoo_check CASE WORD DOM [RE] the verdict's word, the dominant state
#                                (an ERE: "cpu|cpu_wait"), the line (ERE);
#                                with the load beside the case's run
#                                (lib.sh load_end), printed on failure
ZOO=$SCRATCH/zoo
LOADGEN=$TOP/build/tools/loadgen
[ -x "$LOADGEN" ] || skip_all "build/tools/loadgen not built (make check builds it)"
[ "$(id -u)" = 0 ] || skip_all "the zoo needs root (cgroups, network namespaces)"

zoo_start() {
	ZOO_SET=$("$PERFLOG" start -o "$ZOO" -i 1) && [ -d "$ZOO_SET" ]
}

zoo_stop() {
	"$PERFLOG" stop "$ZOO_SET" >/dev/null
	"$PERFLOG" report -v "$ZOO_SET" >"$SCRATCH/report.txt" 2>&1
	"$PERFLOG" export "$ZOO_SET" --csv "$SCRATCH/zoo.csv" 2>&1
}

# The mean of a logged counter of Process(CASE) over its known rows (the
# collector's own per-row figures, not the totals file the verdict uses).
zoo_mean() {
	c=$(csv_col "$SCRATCH/zoo.csv" "\\Process($1)\\$2")
	[ -n "$c" ] || { echo none; return; }
	awk -F, -v c="$c" 'NR > 1 && $c != "" { s += $c; n++ }
		END { if (n) printf "%.1f\n", s / n; else print "none" }' "$SCRATCH/zoo.csv"
}

# The cgroup v2 mount: /sys/fs/cgroup on a pure v2 host, else unified.
_v2_root() {
	for r in /sys/fs/cgroup /sys/fs/cgroup/unified; do
		[ -f "$r/cgroup.controllers" ] && { echo "$r"; return 0; }
	done
	return 1
}

zoo_cgroup() {
	ctrl=$1 name=$2
	ZOO_CG=""
	v1=/sys/fs/cgroup/$ctrl
	[ "$ctrl" = io ] && v1=/sys/fs/cgroup/blkio
	if [ -f "$v1/cgroup.procs" ] && ! [ -f "$v1/cgroup.controllers" ]; then
		mkdir "$v1/$name" 2>/dev/null || return 1
		track_cgroup "$v1/$name"
		ZOO_CG=$v1/$name
		return 0
	fi
	r=$(_v2_root) || return 1
	grep -qw "$ctrl" "$r/cgroup.controllers" || return 1
	echo "+$ctrl" >"$r/cgroup.subtree_control" 2>/dev/null || return 1
	mkdir "$r/$name" 2>/dev/null || return 1
	track_cgroup "$r/$name"
	ZOO_CG=$r/$name
}

# zoo_cpu_quota NAME QUOTA_US: a cpu group NAME (zoo_cgroup) allowed
# QUOTA_US of each 100 ms (v1 cpu.cfs_quota_us, v2 cpu.max); its
# directory in ZOO_CG, or fail. Its weight is the largest the kernel
# takes, so that on a busy machine the quota, not the group's share
# against the others, is what holds it: at the default weight a group
# is one of the scheduler's entities beside every autogroup (each
# setsid, each collector a suite starts), and beside five busy ones it
# got 0.4 of a CPU, under a quota of 0.5 it then never reached (t7771,
# % Throttled Periods 0.0 in make check's parallel part)
zoo_cpu_quota() {
	zoo_cgroup cpu "$1" || return 1
	if [ -f "$ZOO_CG/cpu.cfs_quota_us" ]; then
		echo 262144 >"$ZOO_CG/cpu.shares" &&
			echo 100000 >"$ZOO_CG/cpu.cfs_period_us" &&
			echo "$2" >"$ZOO_CG/cpu.cfs_quota_us"
	else
		echo 10000 >"$ZOO_CG/cpu.weight" &&
			echo "$2 100000" >"$ZOO_CG/cpu.max"
	fi
}

zoo_throttle() {
	case $3 in
	*_iops) _v1=$3 _v2=$(printf %.1s "$3")iops ;;
	*) _v1=$3_bps _v2=$(printf %.1s "$3")bps ;;
	esac
	if [ -f "$1/blkio.throttle.${_v1}_device" ]; then
		echo "$2 $4" >"$1/blkio.throttle.${_v1}_device"
	else
		echo "$2 $_v2=$4" >"$1/io.max"
	fi
}

zoo_run() {
	_case=$1
	shift
	_procs=""
	while [ "$1" != "--" ]; do
		_procs="$_procs $1"
		shift
	done
	shift
	load_begin
	ZOO_PROCS=$_procs sh -c 'for f in $ZOO_PROCS; do echo $$ >"$f" || exit 97; done
		exec "$0" "$@"' ${ZOO_PREFIX:-env} "$PERFLOG" run -o "$ZOO" -l "$_case" -- "$@" \
		>"$SCRATCH/$_case.out" 2>&1
	_st=$?
	load_end
	echo "$LOAD_FIGS" >"$SCRATCH/$_case.load"
	return $_st
}

# The load beside a case's run (zoo_run): printed with its checks, and
# with any of them that fails (LOAD_FIGS, lib.sh).
_zoo_load() {
	LOAD_FIGS=$(cat "$SCRATCH/$1.load" 2>/dev/null)
	diag "$1: $LOAD_FIGS"
}

# A session's lines of the report.
_zoo_session() {
	awk -v s="$1" '/^Session / { c = $2 } c == s' "${ZOO_REPORT:-$SCRATCH/report.txt}"
}

zoo_line() { _zoo_session "$1" | sed -n 's/^  \(Bottleneck: .*\)/\1/p'; }
zoo_word() { zoo_line "$1" | sed -E 's/^Bottleneck: ([A-Za-z]+).*/\1/'; }
zoo_dominant() { _zoo_session "$1" | sed -n 's/.*dominant wait state: //p'; }

zoo_check() {
	c=$1 word=$2 dom=$3 re=${4:-}
	_zoo_load "$c"
	line=$(zoo_line "$c")
	diag "$c: $line"
	_zoo_session "$c" | grep -E '^    (running|CPU wait|disk wait|network wait|other wait|sleep) ' |
		awk '{ $1 = $1; printf "%s%s", (NR > 1 ? "; " : "#   split (working, all): "), $0 } END { print "" }'
	is "$(zoo_word "$c")" "$word" "$c: the verdict names $word"
	like "$(zoo_dominant "$c")" "^($dom)\$" "$c: dominant wait state $dom"
	[ -z "$re" ] || like "$line" "$re" "$c: $re"
}

# The whole disk under a path as MAJ:MIN, or fail (tmpfs, overlay).
zoo_disk_dev() {
	d=$(disk_of "$1")
	[ -n "$d" ] && [ -r "/sys/block/$d/dev" ] && cat "/sys/block/$d/dev"
}

# zoo_logged CASE COUNTER MIN: the logged counter's mean is at least MIN
zoo_logged() {
	m=$(zoo_mean "$1" "$2")
	LOAD_FIGS=$(cat "$SCRATCH/$1.load" 2>/dev/null)
	ok "$1: logged $2 at least $3 (mean $m)" \
		awk -v a="$m" -v b="$3" 'BEGIN { exit !(a != "none" && a + 0 >= b) }'
}

# ---- the real clients (t3520, t3720; issue 29): the stages of a session
#   zoo_stages CASE              the session's "Stages (data path):" table
#   zoo_real CASE WORD STAGE HOST WAITS [HOST_RE]
#                                the verdict's first word, the stage it
#                                names (an ERE: its comm, COMM[PID] when
#                                the comm repeats, or its tree's label),
#                                the table's row of that stage on HOST
#                                waiting on WAITS (an ERE on the row's
#                                end), the verdict's host (HOST_RE on the
#                                line, two hosts), and no "disagree" in
#                                the session (the client's figures and the
#                                logged bytes agree; ZOO_DISAGREE=WHY where
#                                they truly differ). With ZOO_ONE=1 the
#                                client is one process: one stage, whose
#                                verdict is the tree's, with no table.
#                                ZOO_TODO_WORD=WHY, ZOO_TODO_STAGE=WHY,
#                                ZOO_TODO_FIGS=WHY: the word and host, the
#                                stage's checks, or the figures' check are
#                                TAP TODO (a known defect, said why)
#   zoo_local CASE               no stage waits on the network: its
#                                processes talk through pipes, socketpairs
#                                and loopback, on one host
# The report read is ZOO_REPORT (default: zoo_stop's).
ZOO_REPORT=$SCRATCH/report.txt

zoo_stages() {
	_zoo_session "$1" | awk '
		/Stages \(data path\):/ { t = 1; ind = match($0, /[^ ]/); print; next }
		t && NF && match($0, /[^ ]/) > ind { print; next }
		{ t = 0 }'
}

# The stage evidence of case c: its table and split, and each watched
# tree's edges and totals files (who waited on whom, each pid's split).
_zoo_edges() {
	printf '%s\n' "$tab" | sed 's/^/#   table: /'
	_zoo_session "$1" | grep -A8 'client wait states' | sed 's/^/#   /'
	for f in "$ZOO_SET/edges-$1.tsv" "$ZOO_SET/waits-$1.tsv"; do
		echo "#   $(basename "$f"):"
		head -30 "$f" 2>&1 | sed 's/^/#     /'
	done
}

zoo_real() {
	c=$1 word=$2 stage=$3 host=$4 waits=$5 hre=${6:-}
	_zoo_load "$c"
	line=$(zoo_line "$c")
	tab=$(zoo_stages "$c")
	diag "$c: $line"
	printf '%s\n' "$tab" | sed 's/^/#   /'
	TAP_TODO=${ZOO_TODO_WORD:-}
	is "$(zoo_word "$c")" "$word" "$c: the verdict names $word"
	[ -z "$hre" ] || like "$line" "$hre" "$c: the verdict's host: $hre"
	# a wrong word: what each host's wait states were read from, on
	# stderr (kept in make check's log, where the scratch is gone)
	[ "$(zoo_word "$c")" = "$word" ] || _zoo_session "$c" |
		grep -E 'wait states|per-thread totals|alone:|Stages|^ +[a-z].*\((vm|srv)' | sed 's/^/#   /' >&2
	TAP_TODO=${ZOO_TODO_STAGE:-}
	_zoo_failed=${_tap_fail:-0}
	if [ -z "$tab" ] && [ -n "${ZOO_ONE:-}" ]; then
		ok "$c: one process, one stage: the tree's verdict, no table" true
	else
		like "$line" "(^|[^a-z])($stage)([^a-z]|\$)" "$c: the verdict names the stage $stage"
		ok "$c: a stage $stage on $host waiting on $waits" \
			env T="$tab" \
			RE="^ +($stage)(\\[[0-9]+\\])? +\\($host\\) .*($waits) *\$" \
			sh -c 'printf "%s\\n" "$T" | grep -Eq "$RE"'
	fi
	# a stage missed: the table, the tree's split and the edges the
	# sampler recorded, on stderr (make check's log keeps no scratch)
	[ "${_tap_fail:-0}" = "$_zoo_failed" ] || _zoo_edges "$c" >&2
	TAP_TODO=
	TAP_TODO=${ZOO_TODO_FIGS:-}
	if [ -n "${ZOO_DISAGREE:-}" ]; then
		skip "$c: the client's figures and the tree's bytes differ: $ZOO_DISAGREE"
	else
		ok "$c: no figure disagrees" env T="$(_zoo_session "$c")" \
			sh -c '! printf "%s\\n" "$T" | grep disagree'
	fi
	TAP_TODO=
}

zoo_local() {
	ok "$1: no stage waits on the network (one host: pipes, sockets to itself)" \
		env T="$(zoo_stages "$1")" sh -c '! printf "%s\\n" "$T" | grep -E "(network|net) [a-z0-9]+ *\$"'
}
