#!/bin/sh
# make demo: on a fresh Debian machine, install what is missing, build, and
# log a test backup on the built-in defaults (at 1 s so 30 s show detail):
# the reference workload of the seed kit backed up over loopback, then the
# CSV summary and the session report. In a terminal it ends in the viewer.
set -eu
cd "$(dirname "$0")/.."

pkgs="build-essential pkg-config librrd-dev rrdtool libstatgrab-dev libncurses-dev tmux"
missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "== installing:$missing"
	if [ "$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi
	$SUDO apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
fi

echo "== building"
make -s perflog build/tools/loadgen

mkdir -p logs
echo "== logging 30 s at 1 s while generating CPU, disk and network load"
dir=$(./perflog start -i 1 -o logs)
echo "log set: $dir"
scratch=$(mktemp -d /tmp/perflog-demo.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
build/tools/loadgen burn 5 >/dev/null
build/tools/loadgen write "$scratch/data" $((200 * 1024 * 1024)) >/dev/null
build/tools/loadgen recv 127.0.0.1 47011 >/dev/null &
build/tools/loadgen send 127.0.0.1 47011 $((1024 * 1024 * 1024)) >/dev/null
wait
sleep 18
./perflog stop "$dir" >/dev/null

echo "== CSV summary (min / avg / max of each counter over the log)"
./perflog export "$dir" --csv "$dir/export.csv"
awk -F, '
	NR == 1 { for (i = 2; i <= NF; i++) name[i] = $i; n = NF; next }
	{ for (i = 2; i <= n; i++) if ($i != "") {
		v = $i + 0; c[i]++; s[i] += v
		if (!(i in mn) || v < mn[i]) mn[i] = v
		if (!(i in mx) || v > mx[i]) mx[i] = v } }
	END { printf "%-62s %14s %14s %14s\n", "counter", "min", "avg", "max"
	      for (i = 2; i <= n; i++) if (c[i])
		printf "%-62s %14.6g %14.6g %14.6g\n", name[i], mn[i], s[i] / c[i], mx[i] }' "$dir/export.csv"
echo "CSV: $dir/export.csv"
