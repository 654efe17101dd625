#!/bin/bash
# t5010-csv-pdh: perflog export --csv FILE --pdh writes relog's own form
# (DESIGN.md "CSV export"), the one perfmon, relog and PAL open: the
# "(PDH-CSV 4.0) (Coordinated Universal Time)(0)" first cell,
# "MM/DD/YYYY HH:MM:SS.mmm" times, every cell quoted, \\HOST\Object
# (Instance)\Counter columns, CRLF. The proof is the round trip: perflog
# import of the exported file gives back the same rows, every counter
# under its own path but LogicalDisk's % Disk Time (a name Windows gives
# to another figure), which comes back as it was in imported-other.csv.
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
is "$(wc -l < $SCRATCH/pdh.csv)" "$(wc -l < $SCRATCH/iso.csv)" 'as many rows as the ISO form'

# the round trip
B=$("$PERFLOG" import -o $SCRATCH/back $SCRATCH/pdh.csv 2>$SCRATCH/import.err); st=$?
is "$st" 0 'perflog import reads it'
[ -s $SCRATCH/import.err ] && sed 's/^/#   import: /' $SCRATCH/import.err
"$PERFLOG" export "$B" --csv $SCRATCH/back.csv
# every value of the original, at its time, under its path in the
# imported set, or in imported-other.csv (% Disk Time); a column
# without a value in any row is no column of the imported set
read same diff missing other < <(awk -F, -v other=$B/imported-other.csv '
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
			if (!(c in inb)) { if (a[k] == "") s++; else if (c ~ /% Disk Time$/) o++; else m++; continue }
			x = a[k]; y = b[k]
			if (x == y || (x != "" && y != "" && (x - y <= 1e-9 * (x < 0 ? -x : x) + 1e-9) && (y - x <= 1e-9 * (x < 0 ? -x : x) + 1e-9))) s++
			else { d++; if (d <= 3) printf "#   %s %s: %s, back %s\n", t, c, x, y > "/dev/stderr" }
		}
		print s + 0, d + 0, m + 0, o + 0
	}' $SCRATCH/iso.csv $SCRATCH/back.csv)
diag "round trip: $same values equal, $diff differ, $missing missing, $other in imported-other.csv"
ok "round trip: every value back at its time ($same)" test "$same" -gt 100 -a "$diff" = 0 -a "$missing" = 0
is "$(wc -l < $SCRATCH/back.csv)" "$(wc -l < $SCRATCH/iso.csv)" 'round trip: the same rows'
# % Disk Time kept as it was, value for value
dcol=$(head -1 $SCRATCH/iso.csv | tr ',' '\n' | grep -n 'LogicalDisk(sdb)\\% Disk Time' | cut -d: -f1)
if [ -n "$dcol" ] && [ -f $B/imported-other.csv ]; then
	ocol=$(head -1 $B/imported-other.csv | tr ',' '\n' | grep -n 'LogicalDisk(sdb)\\% Disk Time' | cut -d: -f1)
	a=$(awk -F, -v c=$dcol 'NR > 1 { s += $c } END { printf "%.6f", s }' $SCRATCH/iso.csv)
	o=$(tr -d '"' < $B/imported-other.csv | awk -F, -v c=$ocol 'NR > 1 { s += $c } END { printf "%.6f", s }')
	is "$o" "$a" 'round trip: % Disk Time in imported-other.csv, the same values'
else
	ok 'round trip: % Disk Time in imported-other.csv' false
fi

# bad usage
"$PERFLOG" export $D --pdh >/dev/null 2>$SCRATCH/e; st=$?
is "$st" 2 '--pdh without --csv: exit 2'
is "$(cat $SCRATCH/e)" 'perflog export: --pdh is a form of the CSV: give --csv FILE|-' '--pdh without --csv: said'
done_testing
