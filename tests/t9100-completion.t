#!/bin/bash
# tests/t9100-completion.t - bash completion (dist/perflog.bash), driven as
# bash drives it: COMP_WORDS and COMP_CWORD set, _perflog called, COMPREPLY
# checked. Commands and options come from the binary's --help, log sets
# from the directories holding perflog.meta, counter paths from the log set
# on the command line (else `perflog counters --paths`), sessions from its
# markers.tsv, and -d from the running collectors.
. "$(dirname "$0")/lib.sh"
. "$TOP/dist/perflog.bash" || { echo "not ok 1 - sourcing dist/perflog.bash"; exit 1; }

# comp WORD...: the completions of the last word, one a line
comp() {
	COMP_WORDS=("$@")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMPREPLY=()
	_perflog 2>"$SCRATCH/comp.err"
	printf '%s\n' "${COMPREPLY[@]}"
}
# has LIST ITEM...: every ITEM is a line of LIST
has() {
	local list=$1 i; shift
	for i in "$@"; do printf '%s\n' "$list" | grep -qxF -- "$i" || { echo "missing: $i"; return 1; }; done
}

# a working directory of its own (the runtime directory is in $SCRATCH)
mkdir -p "$SCRATCH/w" && cd "$SCRATCH/w" || exit 1
P=$PERFLOG

ok 'complete -p perflog names _perflog' sh -c "bash -c '. $TOP/dist/perflog.bash; complete -p perflog' | grep -q '_perflog perflog'"

got=$(comp "$P" "")
cmds=$("$P" --help | awk '/^  [a-z]/ { print $1 }')
ok 'every command of perflog --help is offered' has "$got" $cmds --help --version
is "$(comp "$P" st | sort | tr '\n' ' ')" "start status stop " '"st" completes to start, status, stop'

# options: those of the usage lines, always; never one --help mentions only
# in its prose (a client's own flags, an example command line)
for c in $cmds; do
	help=$("$P" "$c" --help)
	usage=$(printf '%s\n' "$help" | awk '/^usage:/ { u = 1; print; next }
		u && /^[ \t]*(\[|perflog )/ { print; next } { u = 0 }' |
		grep -oE '(^|[][ |(])--?[A-Za-z][A-Za-z0-9-]*' | sed 's/^[^-]*//' | sort -u)
	all=$(printf '%s\n' "$help" | grep -oE '(^|[^A-Za-z0-9_-])--?[A-Za-z][A-Za-z0-9-]*' |
		sed 's/^[^-]*//' | sort -u; echo --help)
	got=$(comp "$P" "$c" - | sort -u)
	miss=$(comm -23 <(printf '%s\n' $usage | sed '/^$/d') <(printf '%s\n' "$got") | tr '\n' ' ')
	extra=$(comm -23 <(printf '%s\n' "$got" | sed '/^$/d') <(printf '%s\n' "$all" | sort -u) | tr '\n' ' ')
	is "$miss$extra" "" "perflog $c -<TAB>: every option of its usage, nothing --help does not print"
done
got=$(comp "$P" estimate -)
ok 'estimate: the find example in --help is no option' sh -c "! printf '%s\n' '$got' | grep -qx -- -type"
ok 'estimate: --listing and --xdev are' has "$got" --listing --xdev --help
got=$(comp "$P" run -)
ok 'run: -l and --client are options' has "$got" -l --client -c -o -i
ok "run: a client's own flags (restic --json, rsync --stats) are not" sh -c "! printf '%s\n' '$got' | grep -qxE -- '--json|--stats|--totals'"
got=$(comp "$P" export --w | sort | tr '\n' ' ')
is "$got" '--width --with ' 'export --w<TAB>: --width, --with'

# a real log set, with two sessions, and a plain directory beside it
set=$("$P" start -i 1 -o "$SCRATCH/w/logs")
"$P" mark --begin -s full "full backup" && "$P" mark --end -s full done &&
	"$P" mark --begin -s 'incr 2' "incremental"
"$P" stop "$set" >/dev/null
sname=${set#"$SCRATCH"/w/logs/}
mkdir -p other/deeper plain
ok 'log set written' test -f "$set/perflog.meta"

is "$(comp "$P" view "")" "logs" 'view: only the directory leading to log sets is offered'
is "$(comp "$P" report logs/)" "logs/$sname" 'report logs/<TAB>: the log set'
is "$(comp "$P" report "logs/$sname" --with logs/)" "logs/$sname" 'report DIR --with logs/<TAB>: the log set'
is "$(comp "$P" export "logs/$sname" --png out --with logs/)" "logs/$sname" 'export DIR --with logs/<TAB>: the log set'
is "$(comp "$P" export "logs/$sname" --session "")" "full
incr\\ 2" 'export --session: the log set'"'"'s sessions, quoted'
is "$(comp "$P" export "logs/$sname" --session "'in")" "incr 2" 'export --session inside an open quote: as it is'
is "$(comp "$P" export "logs/$sname" --png "" | sort)" "$(printf '%s\n' logs other plain | sort)" 'export --png: any directory'

# counter paths from the log set's perflog.meta, and their (*) forms
got=$(comp "$P" export "logs/$sname" --counters "Processor(")
ok 'counters from the log set, escaped for the shell' has "$got" \
	'Processor\(_Total\)\\%\ Processor\ Time' 'Processor\(\*\)\\%\ User\ Time'
is "$(comp "$P" export "logs/$sname" --counters 'Memory\\Available\ B')" 'Memory\\Available\ Bytes' \
	'a backslash-escaped word completes'
is "$(comp "$P" export "logs/$sname" --counters "'Memory\\Cache B")" 'Memory\Cache Bytes' \
	'inside an open quote: the path as it is'
is "$(comp "$P" export "logs/$sname" --counters 'Memory\\Pages/sec,Memory\\Available\ B')" \
	'Memory\\Pages/sec\,Memory\\Available\ Bytes' 'after a comma: the list is kept, the last member completed'
is "$(comp "$P" export "logs/$sname" --counters 'Memory\\Pages/sec+Memory\\Cache')" \
	'Memory\\Pages/sec+Memory\\Cache\ Bytes' "after '+': the same"
is "$(comp "$P" export "logs/$sname" --counters 'Process(' )" "" 'no Process counters in a set without perflog run'
# without a log set on the line: what this host offers
got=$(comp "$P" export --counters 'Memory\\Ava')
is "$got" 'Memory\\Available\ Bytes' 'no log set on the line: perflog counters --paths'
inst=$("$P" counters --paths | grep -m1 '^Processor(0)' || true)
if [ -n "$inst" ]; then
	got=$(comp "$P" export --counters 'Processor\(0\)')
	ok 'host instances offered (Processor(0))' has "$got" "$(printf '%q' "$inst")"
fi

# -d and stop: the running collectors' log sets
set2=$("$P" start -i 1 -o "$SCRATCH/w/logs")
is "$(comp "$P" mark -d "")" "$set2" 'mark -d: the running collector'"'"'s log set'
is "$(comp "$P" stop "")" "$set2" 'stop: the running collector'"'"'s log set'
"$P" stop "$set2" >/dev/null

# a log set under a directory whose name is shell code: offered as a
# path, quoted, never run (compgen -W would create "x" here)
evil='$(>x)'
mkdir -p "$SCRATCH/w/$evil"
set3=$("$P" start -i 1 -o "$SCRATCH/w/$evil")
got=$(comp "$P" stop "")
is "$got" "$(printf '%q' "$set3")" 'stop: a collector under "$(>x)" is offered quoted'
got=$(comp "$P" mark -d "$SCRATCH/w/")
is "$got" "$(printf '%q' "$set3")" 'mark -d: the same'
ok 'completion ran nothing from a log set path' sh -c "! test -e x && ! test -e '$SCRATCH/w/x'" || ls -la >&2
"$P" stop "$set3" >/dev/null

# values that are files, and the command after run --
touch settings.pml
has "$(comp "$P" start -c sett)" settings.pml && _result 0 'start -c: files' || _result 1 'start -c: files'
has "$(comp "$P" run -l x -- bas)" bash && _result 0 'run -- CMD: commands' || _result 1 'run -- CMD: commands'
is "$(comp "$P" start -i "")" "" 'start -i: nothing to offer'
is "$(cat "$SCRATCH/comp.err")" "" 'no errors on stderr'
done_testing
