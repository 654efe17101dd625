# tests/lib-tmux.sh - the viewer's suites drive it in tmux: source after
# lib.sh. Each server has a socket of the suite's own (SOCK, tmux.sock
# unless a suite moves on to tmuxN.sock for a second screen); T runs tmux
# on it, screen prints its pane, await waits 5 s for a pattern on it. At
# exit every tmux*.sock server of the scratch directory is killed, then
# lib.sh's cleanup runs.
command -v tmux >/dev/null || skip_all "tmux not installed"
SOCK=$SCRATCH/tmux.sock
T() { tmux -S "$SOCK" "$@"; }
screen() { T capture-pane -p; }
await() { wait_for 5 sh -c "tmux -S '$SOCK' capture-pane -p | grep -q -- '$1'"; }
trap 'for s in "$SCRATCH"/tmux*.sock; do tmux -S "$s" kill-server 2>/dev/null; done; _cleanup' EXIT
