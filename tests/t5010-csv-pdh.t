#!/bin/bash
# t5010-csv-pdh: perflog export --csv FILE --pdh writes relog's own form
# (DESIGN.md "CSV export"), the one perfmon, relog and PAL open: the
# "(PDH-CSV 4.0) (Coordinated Universal Time)(0)" first cell,
# "MM/DD/YYYY HH:MM:SS.mmm" times, every cell quoted, \\HOST\Object
# (Instance)\Counter columns, CRLF, named as Windows names them so that
# PAL's thresholds find theirs (the names below are those PAL's
# QuickSystemOverview.xml reads). The proof is the round trip: perflog
# import of the exported file gives back the same rows, every counter
# under its own path (% Disk Time from PhysicalDisk's % Idle Time).
# And the plain --csv (issue 49): its time, "YYYY-MM-DD HH:MM:SS" UTC, is
# a date to LibreOffice (converted to xlsx, the first time cell read back:
# a number with a date format, where the ISO form before was text), and
# import reads it, and the ISO form before, back to the same rows.
. "$(dirname "$0")/lib.sh"
MK=$TOP/build/tools/mklogset
[ -x "$MK" ] || skip_all "build/tools/mklogset not built (make check builds it)"
D=$($MK $SCRATCH/sets disk disk --no-markers)
host=$(awk -F'\t' '$1 == "host" { print $2 }' $D/perflog.meta)
[ -n "$host" ] || host=$(sed -n 's/^host[ =]*//p' $D/perflog.meta | head -1)

ok 'export --csv --pdh' "$PERFLOG" export $D --csv $SCRATCH/pdh.csv --pdh
first=$(head -1 $SCRATCH/pdh.csv | cut -d, -f1)
is "$first" '"(PDH-CSV 4.0) (Coordinated Universal Time)(0)"' 'first cell is relog'"'"'s'
is "$(head -1 $SCRATCH/pdh.csv | cut -d, -f2 | sed 's/\\\\\([^\\]*\)\\.*/\1/')" "\"$host" \
	'columns are \\HOST\Object(Instance)\Counter'
is "$(grep -vc $'\r$' $SCRATCH/pdh.csv)" 0 'CRLF line ends'
rows=$(awk 'END { print NR - 1 }' $SCRATCH/pdh.csv 2>/dev/null)
bad=$(tr -d '\r' < $SCRATCH/pdh.csv | awk -F'","' 'NR > 1 && ($1 !~ /^"[0-1][0-9]\/[0-3][0-9]\/20[0-9][0-9] [0-2][0-9]:[0-5][0-9]:[0-5][0-9]\.[0-9][0-9][0-9]$/) { n++ } END { print n + 0 }')
is "$bad of ${rows:-0}" "0 of 120" 'every time is "MM/DD/YYYY HH:MM:SS.mmm" (120 rows)'
unq=$(tr -d '\r' < $SCRATCH/pdh.csv | awk '{ if ($0 !~ /^".*"$/) n++; s = substr($0, 2, length($0) - 2); gsub(/""/, "", s); k = split(s, c, "\",\""); for (i = 1; i <= k; i++) if (c[i] ~ /"/) n++ } END { print n + 0 }')
is "$unq of ${rows:-0}" "0 of 120" 'every cell quoted'
like "$(sed -n 2p $SCRATCH/pdh.csv)" '^"[^"]+"(,"[^"]*")+'$'\r''$' 'a row of quoted cells'
"$PERFLOG" export $D --csv $SCRATCH/iso.csv
is "$(wc -l < $SCRATCH/pdh.csv)" "$(wc -l < $SCRATCH/iso.csv)" 'as many rows as the plain form'

# PAL's counters (QuickSystemOverview.xml's CounterLog data sources that
# perflog has), each a column of the PDH form
hdr=$(head -1 $SCRATCH/pdh.csv | tr -d '\r' | sed 's/","/\n/g; s/"//g')
for c in 'Memory\Available MBytes' 'Memory\Pages/sec' 'Memory\Pages Input/sec' \
	'PhysicalDisk(sdb)\Avg. Disk sec/Read' 'PhysicalDisk(sdb)\Avg. Disk sec/Write' \
	'PhysicalDisk(sdb)\Avg. Disk Queue Length' 'PhysicalDisk(sdb)\Current Disk Queue Length' \
	'PhysicalDisk(sdb)\Disk Bytes/sec' 'PhysicalDisk(sdb)\Disk Transfers/sec' \
	'PhysicalDisk(sdb)\% Idle Time' 'Processor(_Total)\% Processor Time' \
	'Network Interface(eth0)\Bytes Total/sec' 'Network Interface(eth0)\Current Bandwidth'; do
	ok "PAL's \\$c is a column" grep -qxF "\\\\$host\\$c" <<<"$hdr"
done
is "$(grep -c 'LogicalDisk(' <<<"$hdr")" 0 'no LogicalDisk: a block device is a PhysicalDisk'
# the derived columns from their parts, row by row
pcol() { grep -nxF "\\\\$host\\$1" <<<"$hdr" | cut -d: -f1; }
icol() { head -1 $SCRATCH/iso.csv | tr ',' '\n' | grep -nxF "\\\\$host\\$1" | cut -d: -f1; }
bad=$(paste -d, <(tr -d '"\r' < $SCRATCH/pdh.csv) $SCRATCH/iso.csv | awk -F, -v n=$(head -1 $SCRATCH/pdh.csv | awk -F'","' '{ print NF }') \
	-v mb=$(pcol 'Memory\Available MBytes') -v ab=$(icol 'Memory\Available Bytes') \
	-v idle=$(pcol 'PhysicalDisk(sdb)\% Idle Time') -v busy=$(icol 'LogicalDisk(sdb)\% Disk Time') \
	-v db=$(pcol 'PhysicalDisk(sdb)\Disk Bytes/sec') -v rb=$(icol 'LogicalDisk(sdb)\Disk Read Bytes/sec') \
	-v wb=$(icol 'LogicalDisk(sdb)\Disk Write Bytes/sec') '
	function near(a, b) { return a - b < 1e-6 * (b < 0 ? -b : b) + 1e-9 && b - a < 1e-6 * (b < 0 ? -b : b) + 1e-9 }
	NR > 1 { k++
		if (!near($mb, $(n + ab) / 1048576)) m++
		if (!near($idle, 100 - $(n + busy))) m++
		if (!near($db, $(n + rb) + $(n + wb))) m++ }
	END { print m + 0 " of " k + 0 }')
is "$bad" "0 of 120" 'Available MBytes, % Idle Time, Disk Bytes/sec from their parts, every row'

# the round trip
B=$("$PERFLOG" import -o $SCRATCH/back $SCRATCH/pdh.csv 2>$SCRATCH/import.err); st=$?
is "$st" 0 'perflog import reads it'
[ -s $SCRATCH/import.err ] && sed 's/^/#   import: /' $SCRATCH/import.err
# every value of the original, at its time, under its path in the
# imported set; a column without a value in any row is no column of the
# imported set
round_trip() { # WHAT SET: the values of iso.csv back in SET
	"$PERFLOG" export "$2" --csv $SCRATCH/back.csv
	read same diff missing < <(awk -F, '
	function key(t, c) { return t SUBSEP c }
	FILENAME == ARGV[1] {
		if (FNR == 1) { for (i = 2; i <= NF; i++) ah[i] = $i; na = NF; next }
		for (i = 2; i <= na; i++) a[key($1, ah[i])] = $i; rows[$1] = 1; next
	}
	{
		if (FNR == 1) { for (i = 2; i <= NF; i++) { bh[i] = $i; inb[$i] = 1 }; nb = NF; next }
		for (i = 2; i <= nb; i++) b[key($1, bh[i])] = $i
	}
	END {
		for (t in rows) for (i = 2; i <= na; i++) {
			c = ah[i]; k = key(t, c)
			# a column with no value anywhere comes back as none
			if (!(c in inb)) { if (a[k] == "") s++; else m++; continue }
			x = a[k]; y = b[k]
			if (x == y || (x != "" && y != "" && (x - y <= 1e-9 * (x < 0 ? -x : x) + 1e-9) && (y - x <= 1e-9 * (x < 0 ? -x : x) + 1e-9))) s++
			else { d++; if (d <= 3) printf "#   %s %s: %s, back %s\n", t, c, x, y > "/dev/stderr" }
		}
		print s + 0, d + 0, m + 0
	}' $SCRATCH/iso.csv $SCRATCH/back.csv)
	diag "round trip of $1: $same values equal, $diff differ, $missing missing"
	ok "round trip of $1: every value back at its time ($same)" test "$same" -gt 100 -a "$diff" = 0 -a "$missing" = 0
	is "$(wc -l < $SCRATCH/back.csv)" "$(wc -l < $SCRATCH/iso.csv)" "round trip of $1: the same rows"
}
round_trip 'the PDH form' "$B"
ok 'round trip: % Disk Time back under its own path' \
	grep -qF 'LogicalDisk(sdb)\% Disk Time' $SCRATCH/back.csv

# the plain form: a date to a spreadsheet
like "$(sed -n 2p $SCRATCH/iso.csv | cut -d, -f1)" '^20[0-9]{2}-[01][0-9]-[0-3][0-9] [0-2][0-9]:[0-5][0-9]:[0-5][0-9]$' \
	'plain: the time is YYYY-MM-DD HH:MM:SS'
# LibreOffice's text import with its dialog's defaults (comma, quote,
# UTF-8, from line 1, English (USA), detect special numbers)
if command -v soffice >/dev/null 2>&1; then
	mkdir -p $SCRATCH/lo
	HOME=$SCRATCH/lo soffice --headless --norestore \
		-env:UserInstallation=file://$SCRATCH/lo/profile \
		--infilter=CSV:44,34,76,1,,1033,false,true --convert-to xlsx \
		--outdir $SCRATCH/lo $SCRATCH/iso.csv >$SCRATCH/lo/log 2>&1
	cell=$(python3 - $SCRATCH/lo/iso.xlsx <<'PY' 2>&1
import re, sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
sheet = z.read('xl/worksheets/sheet1.xml').decode()
styles = z.read('xl/styles.xml').decode()
c = re.search(r'<c r="A2"([^>]*)>(.*?)</c>', sheet)
t = re.search(r' t="(\w+)"', c.group(1))
if t and t.group(1) != 'n':
    print('text'); sys.exit()
s = int(re.search(r' s="(\d+)"', c.group(1)).group(1))
xfs = re.findall(r'<xf [^>]*numFmtId="(\d+)"', re.search(r'<cellXfs.*?</cellXfs>', styles, re.S).group(0))
fmt = dict(re.findall(r'<numFmt numFmtId="(\d+)" formatCode="([^"]*)"', styles))
code = fmt.get(xfs[s], 'builtin ' + xfs[s])
date = 14 <= int(xfs[s]) <= 22 or re.search(r'yy.*mm.*dd', code)
print('date %s %s' % (re.search(r'<v>([^<]*)</v>', c.group(2)).group(1), code) if date else 'number ' + code)
PY
)
	diag "LibreOffice's first time cell: $cell"
	like "$cell" '^date [0-9]+\.[0-9]+ ' 'plain: LibreOffice reads the time as a date'
	# the serial day of 1899-12-30 plus the time: the same second
	t0=$(date -u -d "$(sed -n 2p $SCRATCH/iso.csv | cut -d, -f1)" +%s)
	is "$(awk -v d="$(echo "$cell" | cut -d' ' -f2)" 'BEGIN { printf "%.0f", (d - 25569) * 86400 }')" "$t0" \
		'plain: and the date is the row'"'"'s time'
else
	skip 'soffice not installed (tests/deps.sh: libreoffice-calc-nogui)' 2
fi
# import reads it back, and the ISO form before
P=$("$PERFLOG" import -o $SCRATCH/plain $SCRATCH/iso.csv 2>$SCRATCH/import.err); st=$?
is "$st" 0 'perflog import reads the plain form'
round_trip 'the plain form' "$P"
sed '2,$s/^\([0-9-]*\) \([0-9:]*\),/\1T\2Z,/' $SCRATCH/iso.csv > $SCRATCH/old.csv
like "$(sed -n 2p $SCRATCH/old.csv | cut -d, -f1)" 'T[0-9:]+Z$' 'the ISO form before'
O=$("$PERFLOG" import -o $SCRATCH/old $SCRATCH/old.csv 2>$SCRATCH/import.err); st=$?
is "$st" 0 'perflog import reads the ISO form before'
round_trip 'the ISO form before' "$O"

# bad usage
"$PERFLOG" export $D --pdh >/dev/null 2>$SCRATCH/e; st=$?
is "$st" 2 '--pdh without --csv: exit 2'
is "$(cat $SCRATCH/e)" 'perflog export: --pdh is a form of the CSV: give --csv FILE|-' '--pdh without --csv: said'
done_testing
