#!/bin/sh
# bench/accuracy.sh - perflog beside sysstat under generated load: sadc (and
# iostat, for r_await and w_await, which Debian 12's sar -d does not print)
# and the collector log the same ACCURACY_SECONDS (60) at 1 s while loadgen
# burns one core, writes 32 MB with fsync to the disk under /var/tmp every
# ~0.5 s, and sends 64 MB over loopback (lo) every ~0.6 s. Then, per counter
# shared with sar, the means of both over the common window and their
# difference; "FLAG" when it is over 1% of full scale (100 for percentages,
# else the larger of the two peaks). Each flag is a bug or a definition
# difference documented in counters/README.md ("sar" column).
. "$(dirname "$0")/lib.sh"
S=${ACCURACY_SECONDS:-60}
LOADGEN=$TOP/build/tools/loadgen
[ -x "$LOADGEN" ] || make -s -C "$TOP" build/tools/loadgen >/dev/null || exit 1
[ -x "$SADC" ] || { echo "accuracy: $SADC not found"; exit 0; }
WDIR=$(mktemp -d /var/tmp/perflog-acc.XXXXXX)
bench_extra_cleanup() { rm -rf "$WDIR"; }
DEV=$(d=$(stat -c '%Hd:%Ld' "$WDIR"); l=$(readlink -f /sys/dev/block/$d); [ -e "$l/partition" ] && l=$(dirname "$l"); basename "$l")

"$PERFLOG" start -f -o "$BENCH_TMP/logs" -i 1 -c /dev/stdin >/dev/null 2>"$BENCH_TMP/err" <<'PML' &
[log]
interval = 1
retention = 1h
name = acc
[counters]
\Processor(*)\*
\LogicalDisk(*)\*
\Memory\*
\Network Interface(*)\*
\System\*
\Pressure(*)\*
\TCP\*
PML
ppid=$!; bench_track $ppid
"$SADC" -S XALL 1 "$BENCH_TMP/sa" & spid=$!; bench_track $spid
S_TIME_FORMAT=ISO iostat -d -x -t -y 1 $((S + 2)) "$DEV" > "$BENCH_TMP/iostat" 2>/dev/null & bench_track $!
sleep 2
"$LOADGEN" burn "$S" >/dev/null & bench_track $!
( end=$(( $(date +%s) + S )); while [ "$(date +%s)" -lt $end ]; do
	"$LOADGEN" write "$WDIR/f" 33554432 >/dev/null; rm -f "$WDIR/f"; sleep 0.5; done ) & bench_track $!
"$LOADGEN" recv 127.0.0.1 47113 >/dev/null & bench_track $!
sleep 0.3
( end=$(( $(date +%s) + S )); while [ "$(date +%s)" -lt $end ]; do
	"$LOADGEN" send 127.0.0.1 47113 67108864 >/dev/null 2>&1 || break; sleep 0.6; done ) & bench_track $!
sleep $((S + 2))
kill -TERM $ppid $spid; wait $ppid 2>/dev/null; wait $spid 2>/dev/null
"$PERFLOG" export "$BENCH_TMP/logs/acc" --csv "$BENCH_TMP/p.csv" || exit 1

# perflog series: COUNTER-SUFFIX -> "epoch value" lines; SUFFIX1|SUFFIX2
# sums two counters row by row
pser() {
	case $1 in *'|'*)
		pser "${1%%|*}" > "$BENCH_TMP/s1"; pser "${1#*|}" > "$BENCH_TMP/s2"
		join "$BENCH_TMP/s1" "$BENCH_TMP/s2" | awk '{ print $1, $2 + $3 }'
		return ;;
	esac
	c=$(head -1 "$BENCH_TMP/p.csv" | tr ',' '\n' | tr -d '"' | awk -v w="$1" '
		{ n = length($0); m = length(w); if (n >= m && substr($0, n - m + 1) == w) { print NR; exit } }')
	[ -n "$c" ] || return 0
	tail -n +2 "$BENCH_TMP/p.csv" | awk -F, -v c="$c" '$c != "" { gsub(/"/, "", $1); print $1, $c }' |
	while read -r t v; do echo "$(date -u -d "$t" +%s) $v"; done
}
# sar series: SADF-OPTIONS DEVICE-OR-"-" AWK-EXPRESSION-OVER-NAMED-COLUMNS
# (sadf prints one header per record type, e.g. -q PSI's cpu, io and
# memory: only rows under a header that has every column of EXPR count)
sser() {
	sadf -d "$BENCH_TMP/sa" -- $1 | awk -F';' -v dev="$2" -v expr="$3" '
		/^#/ { delete col; for (i = 1; i <= NF; i++) col[$i] = i
			n = split(expr, term, "+"); have = 1
			for (k = 1; k <= n; k++) { split(term[k], f, "*"); if (!(f[1] in col)) have = 0 }
			next }
		{ if (!have || (dev != "-" && $4 != dev)) next
		  split($3, d, /[- :]/)
		  t = mktime(d[1] " " d[2] " " d[3] " " d[4] " " d[5] " " d[6])
		  n = split(expr, term, "+"); v = 0
		  for (k = 1; k <= n; k++) { split(term[k], f, "*"); x = $(col[f[1]]); v += (f[2] == "" ? x : x * f[2]) }
		  print t, v }'
}
# iostat series: DEVICE AWK-EXPRESSION-OVER-NAMED-COLUMNS (S_TIME_FORMAT=ISO)
iser() {
	awk -v dev="$1" -v expr="$2" '
		/^[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T/ { split($1, d, /[-T:+]/)
			t = mktime(d[1] " " d[2] " " d[3] " " d[4] " " d[5] " " d[6]); next }
		$1 == "Device" { delete col; for (i = 1; i <= NF; i++) col[$i] = i; next }
		$1 == dev && t { n = split(expr, term, "+"); v = 0
			for (k = 1; k <= n; k++) { split(term[k], f, "*"); x = $(col[f[1]]); v += (f[2] == "" ? x : x * f[2]) }
			print t, v }' "$BENCH_TMP/iostat"
}
compare() { # NAME PERFLOG-SUFFIX SADF-OPT|iostat DEV EXPR PERCENT(1/0)
	pser "$2" > "$BENCH_TMP/a"
	case $3 in iostat) iser "$4" "$5" ;; *) sser "$3" "$4" "$5" ;; esac > "$BENCH_TMP/b"
	awk -v name="$1" -v pct="$6" 'FNR == 1 { f++ }
		f == 1 { a[$1] = $2; if (!a0 || $1 < a0) a0 = $1; if ($1 > a1) a1 = $1 }
		f == 2 { b[$1] = $2; if (!b0 || $1 < b0) b0 = $1; if ($1 > b1) b1 = $1 }
		END { lo = a0 > b0 ? a0 : b0; hi = a1 < b1 ? a1 : b1
			for (t in a) if (t + 0 > lo && t + 0 <= hi) { sa += a[t]; na++; if (a[t] > pa) pa = a[t] }
			for (t in b) if (t + 0 > lo && t + 0 <= hi) { sb += b[t]; nb++; if (b[t] > pb) pb = b[t] }
			if (!na || !nb) { printf "%-34s  no data (perflog %d rows, sar %d rows)\n", name, na, nb; exit }
			ma = sa / na; mb = sb / nb; fs = pct ? 100 : (pa > pb ? pa : pb); if (fs == 0) fs = 1
			d = ma - mb
			printf "%-34s %14.4g %14.4g %12.4g %7.2f%%%s\n", name, ma, mb, d, 100 * d / fs,
				((d < 0 ? -d : d) > fs / 100 ? "  FLAG" : "") }' "$BENCH_TMP/a" "$BENCH_TMP/b"
}
echo "== accuracy: perflog vs sar, ${S} s at 1 s under load (burn 1 core, 32 MB fsync'd writes to $DEV every ~0.5 s, 64 MB sends over lo every ~0.6 s) =="
printf '%-34s %14s %14s %12s %8s\n' counter perflog sar difference "of f.s."
compare 'CPU %user (+%nice)'      'Processor(_Total)\% User Time'       -u - '%user+%nice' 1
compare 'CPU %system'             'Processor(_Total)\% Privileged Time' -u - '%system' 1
compare 'CPU %iowait'             'Processor(_Total)\% IOWait Time'     -u - '%iowait' 1
compare 'CPU busy (100-%idle-%iowait)' 'Processor(_Total)\% Processor Time' -u - '%user+%nice+%system+%steal' 1
compare "$DEV %util"              "LogicalDisk($DEV)\\% Disk Time"        '-d -p' "$DEV" '%util' 1
compare "$DEV rkB/s (B/s)"        "LogicalDisk($DEV)\\Disk Read Bytes/sec" '-d -p' "$DEV" 'rkB/s*1024' 0
compare "$DEV wkB/s (B/s)"        "LogicalDisk($DEV)\\Disk Write Bytes/sec" '-d -p' "$DEV" 'wkB/s*1024' 0
compare "$DEV tps (r/s + w/s)"    "LogicalDisk($DEV)\\Disk Reads/sec|LogicalDisk($DEV)\\Disk Writes/sec" '-d -p' "$DEV" 'tps' 0
compare "$DEV await (s)"          "LogicalDisk($DEV)\\Avg. Disk sec/Transfer" '-d -p' "$DEV" 'await*0.001' 0
compare "$DEV aqu-sz"             "LogicalDisk($DEV)\\Avg. Disk Queue Length" '-d -p' "$DEV" 'aqu-sz' 0
compare "$DEV r_await (s, iostat)" "LogicalDisk($DEV)\\Avg. Disk sec/Read" iostat "$DEV" 'r_await*0.001' 0
compare "$DEV w_await (s, iostat)" "LogicalDisk($DEV)\\Avg. Disk sec/Write" iostat "$DEV" 'w_await*0.001' 0
compare 'fault/s'                 'Memory\Page Faults/sec'   -B - 'fault/s' 0
compare 'majflt/s'                'Memory\Page Reads/sec'    -B - 'majflt/s' 0
compare 'pswpin/s'                'Memory\Pages Input/sec'   -W - 'pswpin/s' 0
compare 'pswpout/s'               'Memory\Pages Output/sec'  -W - 'pswpout/s' 0
compare 'cswch/s'                 'System\Context Switches/sec' -w - 'cswch/s' 0
compare 'lo rxkB/s (B/s)'         'Network Interface(lo)\Bytes Received/sec' '-n DEV' lo 'rxkB/s*1024' 0
compare 'lo txkB/s (B/s)'         'Network Interface(lo)\Bytes Sent/sec'     '-n DEV' lo 'txkB/s*1024' 0
compare 'lo rxpck/s+txpck/s'      'Network Interface(lo)\Packets/sec'        '-n DEV' lo 'rxpck/s+txpck/s' 0
compare 'lo rxerr/s'              'Network Interface(lo)\Packets Received Errors/sec'    '-n EDEV' lo 'rxerr/s' 0
compare 'lo txerr/s'              'Network Interface(lo)\Packets Outbound Errors/sec'    '-n EDEV' lo 'txerr/s' 0
compare 'lo rxdrop/s'             'Network Interface(lo)\Packets Received Discarded/sec' '-n EDEV' lo 'rxdrop/s' 0
compare 'lo txdrop/s'             'Network Interface(lo)\Packets Outbound Discarded/sec' '-n EDEV' lo 'txdrop/s' 0
compare 'TCP oseg/s'              'TCP\Segments Sent/sec'          '-n TCP' - 'oseg/s' 0
compare 'TCP iseg/s'              'TCP\Segments Received/sec'      '-n TCP' - 'iseg/s' 0
compare 'TCP retrans/s'           'TCP\Segments Retransmitted/sec' '-n ETCP' - 'retrans/s' 0
compare 'PSI %scpu'               'Pressure(cpu)\% Some Stalled Time'    '-q PSI' - '%scpu' 1
compare 'PSI %sio'                'Pressure(io)\% Some Stalled Time'     '-q PSI' - '%sio' 1
compare 'PSI %fio'                'Pressure(io)\% Full Stalled Time'     '-q PSI' - '%fio' 1
compare 'PSI %smem'               'Pressure(memory)\% Some Stalled Time' '-q PSI' - '%smem' 1
compare 'PSI %fmem'               'Pressure(memory)\% Full Stalled Time' '-q PSI' - '%fmem' 1
