#!/bin/sh
# bench/view.sh - the viewer's time to first frame and per redraw on a
# 7-day log set at 1 s with ~40 series (targets: first frame < 0.5 s,
# redraw < 30 ms). The set is generated once with tests/tools/mkwaveset
# (through the real writer: it takes a few minutes) and kept under
# build/bench/ for later runs. Frames are drawn at 80x24 into the viewer's
# cell grid and written as text to /dev/null (--bench-frames), so the
# figures cover fetch, resample, layout and output formatting, not a
# terminal emulator's own drawing.
set -e
TOP=$(cd "$(dirname "$0")/.." && pwd)
PERFLOG=${PERFLOG:-$TOP/perflog}
SET=${VIEW_BENCH_SET:-$TOP/build/bench/view-7d}
make -s -C "$TOP" build/tools/mkwaveset >/dev/null
if [ ! -f "$SET/perflog.meta" ] || ! grep -q '^stop' "$SET/perflog.meta"; then
	rm -rf "$SET"
	mkdir -p "$(dirname "$SET")"
	echo "view: generating a 7-day log set at 1 s in $SET (once; minutes)"
	start=$(date +%s)
	"$TOP/build/tools/mkwaveset" "$SET" -s 7d -i 1 -r 2d -c 2 -d 2 -n 1 \
		-m 86400:first-day -S backup:259200:266400 >/dev/null
	echo "view: generated in $(( $(date +%s) - start )) s"
fi
n=$(grep -c '^counter' "$SET/perflog.meta")
echo "view: $n series, $(du -sh "$SET" | cut -f1) on disk"
# a cold-ish and a warm run; both printed
for run in 1 2; do
	echo "view: run $run"
	"$PERFLOG" view --bench-frames 200 "$SET" | sed 's/^/  /'
done
