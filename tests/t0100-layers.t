#!/bin/sh
# tests/t0100-layers.t - the include graph runs one way (DESIGN.md "Top level").
#
# Each source folder has a rank; a file may include headers of its own
# folder and of folders of a LOWER rank, never of a higher or an equal
# one (features of one rank are peers and do not reach into each other).
# The top-level commands.h (the subcommands' prototypes, for the thin main)
# may be included by anyone. Prints one TAP line per folder, and each
# backward edge as "FILE includes HEADER" on failure.
#
#   prove tests/t0100-layers.t     (make check runs it)
cd "$(dirname "$0")/.." || exit 2

# folder rank; the order below is the order data flows in
rank() {
	case $1 in
	common) echo 0 ;;
	counters) echo 1 ;;
	logs) echo 2 ;;
	client) echo 3 ;;		# pure parsers of client output (+ markers)
	collector) echo 4 ;;		# run needs the client parsers
	export) echo 5 ;;
	report|viewer|estimate|workload) echo 6 ;;
	*) echo "" ;;
	esac
}

FOLDERS="common counters logs client collector export report viewer estimate workload"
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
echo "1..$n"
[ "$fail" = 0 ]
