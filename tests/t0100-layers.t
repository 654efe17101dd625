#!/bin/sh
# tests/t0100-layers.t - the include graph runs one way (DESIGN.md "Top level").
#
# Each source folder has a rank; a file may include headers of its own
# folder and of folders of a LOWER rank, never of a higher or an equal
# one (features of one rank are peers and do not reach into each other).
# The top-level commands.h (the subcommands' prototypes, for the thin main)
# may be included by anyone. Prints one TAP line per folder, and each
# backward edge as "FILE includes HEADER" on failure; then one line for
# the call graph (no circle of files, tests/calls.pl).
#
#   prove tests/t0100-layers.t     (make check runs it)
cd "$(dirname "$0")/.." || exit 2

# folder rank; the order below is the order data flows in
rank() {
	case $1 in
	common) echo 0 ;;
	sources) echo 1 ;;		# raw counters: /proc+/sys, libstatgrab
	process) echo 2 ;;		# a watched tree's raw figures
	counters) echo 3 ;;		# the catalog, the rates, the chart sets
	waits) echo 4 ;;		# wait states (their rates need counters)
	logs) echo 5 ;;
	client) echo 6 ;;		# pure parsers of client output (+ markers)
	collector) echo 7 ;;		# the daemon
	run) echo 8 ;;			# perflog run: the client parsers, the
					# control protocol
	export) echo 9 ;;
	verdict) echo 10 ;;		# the session's wait graph, solved
	report|viewer|estimate|workload|import) echo 11 ;;
	*) echo "" ;;
	esac
}

FOLDERS="common sources process counters waits logs client collector run export verdict report viewer estimate workload import"
n=0
fail=0
for d in $FOLDERS; do
	n=$((n + 1))
	[ -d "$d" ] || { echo "ok $n - $d # SKIP no such folder"; continue; }
	me=$(rank "$d")
	bad=$(grep -H '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$d"/*.c "$d"/*.h 2>/dev/null |
		sed 's/^\([^:]*\):[^"]*"\([^"]*\)".*/\1 \2/' |
		while read -r file hdr; do
			case $hdr in
			../commands.h) continue ;;
			../*/*) other=${hdr#../}; other=${other%%/*} ;;
			*/*) other=${hdr%%/*} ;;
			*) continue ;;		# own folder
			esac
			r=$(rank "$other")
			if [ -z "$r" ] || [ "$r" -ge "$me" ]; then
				[ "$other" = "$d" ] && continue
				echo "$file includes $hdr"
			fi
		done)
	if [ -n "$bad" ]; then
		echo "not ok $n - $d includes only lower layers"
		echo "$bad" | sed 's/^/# /'
		fail=$((fail + 1))
	else
		echo "ok $n - $d includes only lower layers"
	fi
done

# The rooms of the counters have one header each that is their whole
# interface: other folders include it, not its parts (the unit tests
# under tests/ may).
for room in sources:source.h process:process.h counters:counters.h waits:waitstates.h verdict:verdict.h; do
	d=${room%%:*} h=${room#*:}
	n=$((n + 1))
	bad=$(grep -H '^[[:space:]]*#[[:space:]]*include[[:space:]]*"\.\./'"$d"'/' */*.c */*.h 2>/dev/null |
		grep -v "^tests/\|^$d/" | grep -v "\.\./$d/$h\"")
	if [ -n "$bad" ]; then
		echo "not ok $n - $d/ is included through $h alone"
		echo "$bad" | sed 's/^/# /'
		fail=$((fail + 1))
	else
		echo "ok $n - $d/ is included through $h alone"
	fi
done

# Calls run one way too: no circle of files calling each other (from the
# objects' symbols, tests/calls.pl). A circle across folders is always
# wrong; inside one folder it is allowed only in the folders listed in
# KNOWN (each says why in its README), so a new one fails.
KNOWN="logs client report"
n=$((n + 1))
if [ ! -d build/obj ] || ! command -v nm >/dev/null; then
	echo "ok $n - no circle of calls # SKIP no build/obj (make first) or no nm"
else
	circles=$(perl tests/calls.pl build/obj)
	bad=$(echo "$circles" | while read -r line; do
		[ -n "$line" ] || continue
		dirs=$(echo "$line" | tr ' ' '\n' | grep '/' | sed 's|/.*||' | sort -u)
		if [ "$(echo "$dirs" | wc -l)" -gt 1 ]; then
			echo "across folders: $line"
		else
			case " $KNOWN " in
			*" $dirs "*) ;;
			*) echo "$line" ;;
			esac
		fi
	done)
	if [ -n "$bad" ]; then
		echo "not ok $n - no circle of calls between files"
		echo "$bad" | sed 's/^/# /'
		fail=$((fail + 1))
	else
		echo "ok $n - no circle of calls between files (but inside $KNOWN)"
	fi
fi
echo "1..$n"
[ "$fail" = 0 ]
