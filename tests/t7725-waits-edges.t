#!/bin/sh
# The wait edges of a perflog run (issue 46: the verdict's graph is built
# from them), where they named the wrong process. Each run's edges-X.tsv
# is read from its log set.
# 1. The writer of a pipe several processes hold: in
#    `(head | gzip; echo done) | cat`, cat "waited on sh": the subshell
#    holds the pipe's write end it gave gzip, and was the first of its
#    holders in the fd tables. cat's busiest edge now names gzip.
# 2. The child a shell waits on: `sleep 30 & head | gzip` said the shell
#    waited on sleep, the first of its children (task/TID/children),
#    the whole time its foreground job ran. Its child edges now go to the
#    children that work: head and gzip hold its wait, sleep at most a
#    tenth of it.
# 3. One name for each process, as the waits file names it: a process
#    first seen between its fork and its exec kept its shell's name in
#    the edges (cat, gzip, head "sh"; the command's shell
#    "perflog-shim"; head waited on "bash" for a python3). Every row's
#    comm and (for a process) peer_comm are the waits file's name of
#    that pid, in the runs above and in `head | sh -c 'sleep 1; exec
#    gzip'`, where head waits on the reader before and after its exec.
. "$(dirname "$0")/lib.sh"
plan 9

# run label command...: the log set's directory (SET), edges file (E),
# waits file (W)
run() {
	l=$1
	shift
	"$PERFLOG" run -i 1 -o "$SCRATCH/$l" -l "$l" -- "$@" >/dev/null 2>"$SCRATCH/$l.err"
	rc=$?
	set -- "$SCRATCH/$l"/*/markers.tsv
	SET=$(dirname "$1")
	E=$SET/edges-$l.tsv
	W=$SET/waits-$l.tsv
	return $rc
}
# the rows of $E whose names differ from $W's (a process's name: its
# main thread's row, tid = pid)
misnamed() {
	awk -F'\t' 'FNR == 1 { next }
		NR == FNR { if ($1 == $NF) name[$1] = $2; next }
		($1 in name) && $2 != name[$1] { print; next }
		$5 > 0 && $4 != "net" && ($5 in name) && $6 != name[$5] { print }' \
		"$W" "$E"
}
show() { sed 's/^/#   /' "$E" >&2; }

# --- 1. the writer of a pipe with several holders ---
run pipe sh -c '(head -c 40M /dev/urandom | gzip -1; echo done) | cat >/dev/null'
is "$?" 0 'perflog run of (head | gzip; echo done) | cat'
top=$(awk -F'\t' '$2 == "cat" && $3 == "in" && $4 == "pipe"' "$E" |
	sort -t "$(printf '\t')" -k9,9gr | head -n 1 | cut -f6)
is "$top" gzip "cat's busiest edge is to gzip, the pipe's writer (not the subshell holding it)" || show
bad=$(misnamed)
is "$bad" "" "... every process named as the waits file names it" || show

# --- 2. the child a shell waits on ---
run child sh -c 'echo $$ >"$0"; sleep 30 & head -c 40M /dev/urandom | gzip -1 >/dev/null; kill $!' \
	"$SCRATCH/sh.pid"
is "$?" 0 'perflog run of sleep 30 & head | gzip'
sh=$(cat "$SCRATCH/sh.pid")
# the shell's seconds on its children: all, and sleep's
set -- $(awk -F'\t' -v p="$sh" '$1 == p && $4 == "child" { all += $9; if ($6 == "sleep") s += $9 }
	END { printf "%.3f %.3f\n", all, s }' "$E")
ok "the shell waited on its children (${1:-0} s)" awk -v a="${1:-0}" 'BEGIN { exit !(a > 0.5) }' || show
ok "... sleep, in the background, holds at most a tenth of it (${2:-?} s)" \
	awk -v a="${1:-0}" -v s="${2:-0}" 'BEGIN { exit !(a > 0 && s <= a / 10) }' || show
bad=$(misnamed)
is "$bad" "" "... every process named as the waits file names it" || show

# --- 3. a name after exec ---
run exec sh -c 'head -c 40M /dev/urandom | sh -c "sleep 1; exec gzip -1 >/dev/null"'
is "$?" 0 "perflog run of head | sh -c 'sleep 1; exec gzip'"
bad=$(misnamed)
is "$bad" "" "every process named as the waits file names it (head's reader exec'ed gzip)" || show
