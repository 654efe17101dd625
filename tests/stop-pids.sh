# tests/stop-pids.sh - sourced by tests/lib.sh and bench/lib.sh (POSIX sh).
# zombie PID: the process has ended, but its parent has not reaped it
# yet (a daemon's parent is init, and some inits reap seconds late).
# stop_pids PID...: ask each process to end (TERM), give each up to 2 s,
# then KILL what is left. Only the pids named: never a process group.
# Looked at every 0.05 s: most are gone within milliseconds of the TERM,
# and at 0.2 s one still there at the first look cost its suite 0.2 s;
# one that ended is gone, reaped or not.
zombie() {
	case $(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null) in
	Z*|X*) return 0 ;;
	esac
	return 1
}

stop_pids() {
	for p in "$@"; do kill -TERM "$p" 2>/dev/null; done
	for p in "$@"; do
		_n=0
		while [ $_n -lt 40 ] && kill -0 "$p" 2>/dev/null && ! zombie "$p"; do
			sleep 0.05
			_n=$((_n + 1))
		done
		kill -KILL "$p" 2>/dev/null
	done
	return 0
}
