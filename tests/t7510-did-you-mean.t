#!/bin/bash
# t7510-did-you-mean: the command line's paper cuts (issue 49, item 7).
# An option given by a beginning of its name is named as unknown, not
# taken (`report --htm x` took --html x and said "no log set given"); a
# near miss of a command, an option, a counter or a session gets "did you
# mean" (common/suggest.h, the one rule); a session that is not there
# lists those that are; `perflog help CMD` prints CMD's own usage; an
# option without its value says so. Each is one line on stderr, exit 2
# for usage and 1 for a log set's fault, as every bad argument.
. "$(dirname "$0")/lib.sh"
MK=$TOP/build/tools/mklogset
[ -x "$MK" ] || skip_all "build/tools/mklogset not built (make check builds it)"
D=$($MK $SCRATCH/sets disk disk)
DIR=$SCRATCH/nowhere

# says WHAT STATUS LINE CMD...: exit STATUS, stderr exactly LINE
says() {
	what=$1 want_st=$2 want=$3; shift 3
	out=$("$@" 2>&1 >/dev/null); st=$?
	if [ "$st" = "$want_st" ] && [ "$out" = "$want" ]; then
		_result 0 "$what"
	else
		_result 1 "$what"
		echo "#   status $st (want $want_st), stderr: $out" >&2
		echo "#   wanted: $want" >&2
	fi
}

# options
says 'report --htm: an unknown option, with the one it is near' 2 \
	"perflog report: unknown option '--htm': did you mean '--html'? (see perflog report --help)" \
	"$PERFLOG" report --htm x
says 'export --cs: a beginning of --csv is not --csv' 2 \
	"perflog export: unknown option '--cs': did you mean '--csv'? (see perflog export --help)" \
	"$PERFLOG" export "$D" --cs -
says 'report --jsno: a swap of two letters' 2 \
	"perflog report: unknown option '--jsno': did you mean '--json'? (see perflog report --help)" \
	"$PERFLOG" report --jsno "$D"
says 'an option near none: no guess' 2 \
	"perflog report: unknown option '--zzzzzz' (see perflog report --help)" \
	"$PERFLOG" report --zzzzzz "$D"
says 'an option with its value after =' 2 \
	"perflog export: unknown option '--pngg': did you mean '--png'? (see perflog export --help)" \
	"$PERFLOG" export "$D" --pngg=$DIR
says 'a long option without its value' 2 \
	"perflog export: option '--csv' needs a value (see perflog export --help)" \
	"$PERFLOG" export "$D" --csv
says 'a short option without its value' 2 \
	"perflog start: option '-i' needs a value (see perflog start --help)" \
	"$PERFLOG" start -i
says 'an unknown short option' 2 \
	"perflog start: unknown option '-Z' (see perflog start --help)" \
	"$PERFLOG" start -Z
ok 'the whole name still works' "$PERFLOG" export "$D" --csv $SCRATCH/ok.csv

# commands
says 'a command with two letters swapped' 2 \
	"perflog: unknown command 'reprot': did you mean 'report'? (see perflog --help)" \
	"$PERFLOG" reprot "$D"
says 'a command near none' 2 \
	"perflog: unknown command 'frobnicate' (see perflog --help)" \
	"$PERFLOG" frobnicate

# perflog help CMD
out=$("$PERFLOG" help report); st=$?
is "$st" 0 'perflog help report: exit 0'
is "$(printf '%s\n' "$out" | head -1 | cut -c1-21)" 'usage: perflog report' \
	"perflog help report: the report's usage"
is "$out" "$("$PERFLOG" report --help)" 'perflog help report is perflog report --help'
like "$("$PERFLOG" help)" '^usage: perflog COMMAND' 'perflog help alone: the list of commands'
says 'perflog help of a near miss' 2 \
	"perflog: unknown command 'exprot': did you mean 'export'? (see perflog --help)" \
	"$PERFLOG" help exprot

# counters
says 'a counter one letter off' 1 \
	"perflog export: --counters: no counter of the log set matches 'Memory\\Avalable Bytes': did you mean 'Memory\\Available Bytes'?" \
	"$PERFLOG" export "$D" --csv - --counters 'Memory\Avalable Bytes'
says 'a counter near none' 1 \
	"perflog export: --counters: no counter of the log set matches 'Tape(st0)\\Nothing'" \
	"$PERFLOG" export "$D" --csv - --counters 'Tape(st0)\Nothing'

# sessions
sessions=$(awk -F'\t' '$2 == "begin" { printf "%s%s", n++ ? ", " : "", "'"'"'" $3 "'"'"'" }' "$D/markers.tsv")
ok 'the set has a session' test -n "$sessions"
s1=$(awk -F'\t' '$2 == "begin" { print $3; exit }' "$D/markers.tsv")
says 'a session one letter off: the near one and the list' 1 \
	"perflog export: log set '$D' has no session '${s1}x': did you mean '$s1'? (its sessions: $sessions)" \
	"$PERFLOG" export "$D" --png $SCRATCH/png --session "${s1}x"
says 'a session near none: the list' 1 \
	"perflog export: log set '$D' has no session 'zzzzzzzzzz' (its sessions: $sessions)" \
	"$PERFLOG" export "$D" --png $SCRATCH/png --session zzzzzzzzzz
N=$($MK $SCRATCH/sets none disk --no-markers)
says 'a set without sessions says it has none' 1 \
	"perflog export: log set '$N' has no session 'x' (it has none)" \
	"$PERFLOG" export "$N" --png $SCRATCH/png --session x
done_testing
