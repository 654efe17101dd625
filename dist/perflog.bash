# bash completion for perflog(1)                           -*- shell-script -*-
#
# Installed as perflog in bash-completion's completionsdir (make install,
# the Debian package); works on its own too: `. dist/perflog.bash`.
#
#   perflog <TAB>                    the commands (from `perflog --help`)
#   perflog CMD -<TAB>               CMD's options (from `perflog CMD --help`:
#                                    its usage and its option table)
#   perflog report|export DIR --with <TAB>  log set directories, too
#   perflog view|report|export <TAB> log set directories (those holding
#                                    perflog.meta, and directories that lead
#                                    to them)
#   perflog stop|mark -d <TAB>       the running collectors' log sets
#   perflog export DIR --counters <TAB>
#                                    counter paths: the log set's own (its
#                                    perflog.meta), else `perflog counters
#                                    --paths`; after ',' or '+' too
#   perflog export DIR --session <TAB>
#                                    the log set's session names
#   perflog import <TAB>             files (nmon, perfmon CSV); --tz <TAB>
#                                    the zones of /usr/share/zoneinfo
#   perflog run --server <TAB>       ssh host names (bash-completion's
#                                    _known_hosts_real, when loaded)
#   perflog run --server-watch <TAB>, perflog mark --watch <TAB>
#                                    running services (UNIT.service) and
#                                    name=COMM of the running processes
#   perflog export DIR --csv FILE --p<TAB>
#                                    --pdh (relog's PDH-CSV form) and --png,
#                                    from the usage line as every option
#   -c, --csv, --listing ...         files; -o, --png, --html ... directories
#
# Option values go after a space (--png DIR), not after '='.

# The perflog to ask: the one being completed when it is a path.
_perflog_bin()
{
	local p=${COMP_WORDS[0]}
	case $p in
	*/*) [[ -x $p ]] && { printf '%s\n' "$p"; return; } ;;
	esac
	printf '%s\n' perflog
}

# Options of one command, read from its --help: those of the usage lines,
# and the first of an option table's line ("  -c FILE     settings ...",
# up to the two spaces before its description); never one that only
# appears in the prose (a client's own --json, an example's find -type).
# --help itself always.
_perflog_options()
{
	{
		"$(_perflog_bin)" ${1:+"$1"} --help 2>/dev/null | awk '
			/^usage:/ { u = 1; print; next }
			u && /^[ \t]*(\[|perflog )/ { print; next }
			{ u = 0 }
			/^[ \t]+-/ { s = $0; sub(/^[ \t]+/, "", s); sub(/  .*/, "", s); print s }' |
			grep -oE '(^|[][ |(])--?[A-Za-z][A-Za-z0-9-]*' | sed 's/^[^-]*//'
		echo --help
	} | sort -u
}

# A shell word as the command will see it, quotes and backslashes removed,
# in _perflog_word; the quote still open at its end (or nothing) in
# _perflog_open, and where in _perflog_word it opened in _perflog_qstart:
# readline then replaces only the text after that quote.
_perflog_dequote()
{
	local s=$1 out= q= qstart=0 c i n=${#1}
	for ((i = 0; i < n; i++)); do
		c=${s:i:1}
		if [[ $q == "'" ]]; then
			if [[ $c == "'" ]]; then q=; else out+=$c; fi
		elif [[ $q == '"' ]]; then
			if [[ $c == '"' ]]; then
				q=
			elif [[ $c == '\' && $((i + 1)) -lt $n && ${s:i+1:1} == [\\\"\$\`] ]]; then
				out+=${s:i+1:1}; ((i++))
			else
				out+=$c
			fi
		else
			case $c in
			"'" | '"') q=$c qstart=${#out} ;;
			'\') out+=${s:i+1:1}; ((i++)) ;;
			*) out+=$c ;;
			esac
		fi
	done
	_perflog_word=$out _perflog_open=$q _perflog_qstart=$qstart
}

# Offer the lines of stdin (give it with < <(...): a pipe would fill
# COMPREPLY in a subshell) that start with the word being completed
# (_perflog_dequote it first), quoted back as the word is: inside a quote
# still open as they are, else with backslashes.
_perflog_offer()
{
	local line
	while IFS= read -r line; do
		[[ $line == "$_perflog_word"* ]] || continue
		if [[ -n $_perflog_open ]]; then
			COMPREPLY+=("${line:_perflog_qstart}")
		else
			COMPREPLY+=("$(printf '%q' "$line")")
		fi
	done
}

# Directories under the word: log sets, and directories holding one
# further down (so logs/ leads to logs/HOST-.../).
_perflog_logsets()
{
	local d IFS=$'\n'
	compopt -o filenames 2>/dev/null
	for d in $(compgen -d -- "$1"); do
		if [[ -f $d/perflog.meta ]] || compgen -G "$d/*/perflog.meta" >/dev/null ||
			compgen -G "$d/*/*/perflog.meta" >/dev/null; then
			COMPREPLY+=("$d")
		fi
	done
	# nothing looks like a log set: plain directories
	((${#COMPREPLY[@]})) || COMPREPLY=($(compgen -d -- "$1"))
}

# The running collectors' log sets, one a line. They are paths anyone
# could have chosen (a directory named "$(cmd)"): never hand them to
# compgen -W, which expands what it is given; _perflog_offer them.
_perflog_running()
{
	"$(_perflog_bin)" status 2>/dev/null | awk 'NR > 1 && $NF ~ /^\// { print $NF }'
}

# The first argument after the command that is a log set, or nothing.
_perflog_set_on_line()
{
	local i w
	for ((i = 2; i < COMP_CWORD; i++)); do
		_perflog_dequote "${COMP_WORDS[i]}"
		w=${_perflog_word/#\~/$HOME}
		[[ -f $w/perflog.meta ]] && { printf '%s\n' "$w"; return; }
	done
}

# Counter paths: the log set's counters and their (*) forms, else what
# this host offers.
_perflog_counter_paths()
{
	local set
	set=$(_perflog_set_on_line)
	if [[ -n $set ]]; then
		awk -F'\t' '$1 == "counter" {
			print $2
			p = $2
			if (sub(/\([^()]*\)\\/, "(*)\\", p)) print p
		}' "$set/perflog.meta" 2>/dev/null | sort -u
	else
		"$(_perflog_bin)" counters --paths 2>/dev/null
	fi
}

_perflog_sessions()
{
	local set
	set=$(_perflog_set_on_line)
	[[ -n $set ]] || return
	awk -F'\t' '$2 == "begin" && $3 != "" { print $3 }' "$set/markers.tsv" 2>/dev/null | sort -u
}

_perflog()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev= cmd= i IFS=$'\n'
	((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
	COMPREPLY=()

	# the command: the first word after perflog
	if ((COMP_CWORD == 1)); then
		COMPREPLY=($(compgen -W "$("$(_perflog_bin)" --help 2>/dev/null |
			awk '/^  [a-z]/ { print $1 }')
--help
--version" -- "$cur"))
		return
	fi
	cmd=${COMP_WORDS[1]}

	# after "run ... --" it is the wrapped command's line
	if [[ $cmd == run ]]; then
		for ((i = 2; i < COMP_CWORD; i++)); do
			if [[ ${COMP_WORDS[i]} == -- ]]; then
				if ((i + 1 == COMP_CWORD)); then
					COMPREPLY=($(compgen -c -- "$cur" | sort -u))
				else
					compopt -o default 2>/dev/null
				fi
				return
			fi
		done
	fi

	# the value of the option before the cursor
	case $prev in
	-c | --csv | --instrumentation | --listing)
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -f -- "$cur"))
		return ;;
	-o)
		if [[ $cmd == run ]]; then _perflog_logsets "$cur"; else
			compopt -o filenames 2>/dev/null
			COMPREPLY=($(compgen -d -- "$cur"))
		fi
		return ;;
	--png | --html | --target | --receive | -b)
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -d -- "$cur"))
		return ;;
	--with)
		_perflog_logsets "$cur"
		return ;;
	-d | --dir)
		_perflog_dequote "$cur"
		_perflog_offer < <(_perflog_running)
		((${#COMPREPLY[@]})) || _perflog_logsets "$cur"
		return ;;
	--server)
		if declare -F _known_hosts_real >/dev/null; then
			_known_hosts_real -- "$cur"
		fi
		return ;;
	--server-watch | --watch)
		COMPREPLY=($(compgen -W "$({
			systemctl list-units --type=service --state=running \
				--no-legend --plain 2>/dev/null | awk '{ print $1 }'
			ps -e -o comm= 2>/dev/null | sed 's/^/name=/'
		} | sort -u)" -- "$cur"))
		return ;;
	--from)
		if [[ $cmd == estimate ]]; then _perflog_logsets "$cur"; fi
		return ;;
	--counters)
		local head
		_perflog_dequote "$cur"
		# a list: complete its last member, keeping the ones before
		head=${_perflog_word%[,+]*}
		if [[ $head == "$_perflog_word" ]]; then head=; else
			head+=${_perflog_word:${#head}:1}
		fi
		compopt -o nospace 2>/dev/null
		_perflog_offer < <(_perflog_counter_paths |
			sed "s|^|$(printf '%s' "$head" | sed 's/[\\&|]/\\&/g')|")
		return ;;
	--session)
		_perflog_dequote "$cur"
		_perflog_offer < <(_perflog_sessions)
		return ;;
	--tz)
		COMPREPLY=($(cd /usr/share/zoneinfo 2>/dev/null &&
			compgen -f -- "$cur"))
		return ;;
	-s | -i | -l | --at | --to | --width | --height | --scale | --rates | --shift | --host | --seconds | --remote-perflog)
		return ;;
	esac

	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(_perflog_options "$cmd")" -- "$cur"))
		return
	fi
	case $cmd in
	view | report | export) _perflog_logsets "$cur" ;;
	stop)
		_perflog_dequote "$cur"
		_perflog_offer < <(_perflog_running)
		((${#COMPREPLY[@]})) || _perflog_logsets "$cur" ;;
	estimate)
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -d -- "$cur")) ;;
	import)
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -f -- "$cur")) ;;
	esac
}
complete -F _perflog perflog
