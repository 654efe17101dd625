#!/bin/sh
# make demo: on a fresh Debian machine, install what is missing, build, and
# log a test backup on the built-in defaults (at 1 s so 30 s show detail):
# the reference workload of the seed kit backed up over loopback, then the
# CSV export, the session report and an estimate; in a terminal it ends in
# the viewer.
set -eu
cd "$(dirname "$0")/.."

sh tests/deps.sh build

echo "== building"
make -s perflog

mkdir -p logs
echo "== a test backup under perflog: the seed kit's reference workload (1 s samples)"
./perflog run -i 1 -o logs -l reference -- ./perflog workload --scale 4
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
