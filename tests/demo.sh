#!/bin/sh
# make demo: on a fresh Debian machine, install what is missing, build, and
# log a test backup on the built-in defaults (at 1 s rows): the reference
# workload of the seed kit (its four file sets, created first, then each
# backed up for DEMO_SECONDS, default 12: at least 10 rows a set) by a
# client process to a server process of its own, over loopback; then the
# CSV export, the session report and an estimate; in a terminal it ends in
# the viewer.
#
# Two hosts: make demo DEMO_TARGET=HOST:DIR runs the server's side on HOST
# through ssh (perflog workload --target; HOST needs perflog in its PATH,
# or DEMO_REMOTE_PERFLOG=PATH).
set -eu
cd "$(dirname "$0")/.."

sh tests/deps.sh build

echo "== building"
make -s perflog

mkdir -p logs
secs=${DEMO_SECONDS:-12}
echo "== a test backup under perflog: the seed kit's reference workload (1 s samples, ${secs} s a set)"
set -- --seconds "$secs"
if [ -n "${DEMO_TARGET:-}" ]; then
	set -- "$@" --target "$DEMO_TARGET" --remote-perflog "${DEMO_REMOTE_PERFLOG:-perflog}"
fi
./perflog run -i 1 -o logs -l reference -- ./perflog workload "$@"
dir=$(ls -td logs/*/ | head -1)
dir=${dir%/}
echo "log set: $dir"

echo
echo "== CSV export: $dir/export.csv"
./perflog export "$dir" --csv "$dir/export.csv"
head -c 600 "$dir/export.csv"; echo " ..."

echo
echo "== the report: what held each set back"
./perflog report "$dir" --html "$dir/report"
echo "HTML report with charts: $dir/report/index.html"

echo
echo "== how long would /usr take at these rates? (perflog estimate, the seed's timest)"
./perflog estimate /usr --from "$dir" || true

if [ -t 0 ] && [ -t 1 ] && ./perflog view --help >/dev/null 2>&1; then
	echo
	echo "== the viewer (q quits, ? shows the keys)"
	sleep 2
	./perflog view "$dir"
fi
