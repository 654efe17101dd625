# tests/stop-pids.sh - sourced by tests/lib.sh and bench/lib.sh (POSIX sh).
# stop_pids PID...: ask each process to end (TERM), give each up to 2 s,
# then KILL what is left. Only the pids named: never a process group.
stop_pids() {
	for p in "$@"; do kill -TERM "$p" 2>/dev/null; done
	for p in "$@"; do
		for _ in 1 2 3 4 5 6 7 8 9 10; do
			kill -0 "$p" 2>/dev/null || break
			sleep 0.2
		done
		kill -KILL "$p" 2>/dev/null
	done
	return 0
}
