#!/bin/sh
# bench/run.sh - what `make bench` runs: every bench/*.sh of the tree (this
# one, lib.sh and soak.sh, which has its own target, excepted), in name
# order, each printing its figures. A failing bench is reported and the
# others still run; the exit status says whether all ran.
#
# Knobs (each script documents its own):
#   BENCH_SECONDS=60     overhead.sh: measured span per run; floor.sh: its span
#   SCALE_SECONDS=60     scale.sh: span per size
#   ACCURACY_SECONDS=60  accuracy.sh: span under load
#   TIMING_SECONDS       timing.sh: an hour by default; `make bench` runs
#                        10 minutes unless set (TIMING_SECONDS=3600 for
#                        the hour)
#   FOOTPRINT_SECONDS=300  footprint.sh: span beside sadc (projected to
#                        the hour exactly; 3600 measures the hour)
#   FOOTPRINT_VETH_SECONDS=150, FOOTPRINT_IFACES=600  footprint.sh: the
#                        many-interfaces run; PERFLOG_BASELINE=BINARY
#                        compares another perflog at FOOTPRINT_BASE_IFACES
#   BENCH_QUICK=1        every span cut to ~10 s (a smoke run)
cd "$(dirname "$0")/.." || exit 1
if [ -n "${BENCH_QUICK:-}" ]; then
	export BENCH_SECONDS=${BENCH_SECONDS:-10} SCALE_SECONDS=${SCALE_SECONDS:-10}
	export ACCURACY_SECONDS=${ACCURACY_SECONDS:-10} TIMING_SECONDS=${TIMING_SECONDS:-20}
	export BENCH_WARMUP=${BENCH_WARMUP:-5}
	export FOOTPRINT_SECONDS=${FOOTPRINT_SECONDS:-20} FOOTPRINT_VETH_SECONDS=${FOOTPRINT_VETH_SECONDS:-20}
	export FOOTPRINT_IFACES=${FOOTPRINT_IFACES:-60}
fi
export TIMING_SECONDS=${TIMING_SECONDS:-600}
failed=""
for b in bench/*.sh; do
	case ${b##*/} in run.sh|lib.sh|soak.sh) continue ;; esac
	echo
	echo "#### $b"
	if ! sh "$b"; then
		echo "#### $b FAILED"
		failed="$failed $b"
	fi
done
echo
if [ -n "$failed" ]; then echo "bench: failed:$failed"; exit 1; fi
echo "bench: all ran"
