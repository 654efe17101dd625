# bench/nightwaits.awk - one session's waits, edges and rows files
# (man/perflog-logset.5), made from a real run's (the template) stretched
# over the session's span: bench/nightreport.sh, for each session
# tests/tools/mknight printed.
#
#   awk -v name=s01 -v begin=B -v end=E -v k=1 -v dir=SET \
#       -f nightwaits.awk TPL.rows.tsv TPL.tsv edges-TPL.tsv
#
# The rows file keeps the collector's rule for its step (the set's
# interval, 1 s here, doubled while the session would pass 128 intervals)
# and its intervals' starts (multiples of the step); interval i is the
# template's interval i modulo its count, scaled so that its longest
# lived process is alive the whole part of the interval the session ran
# (a backup's processes live as long as it). The totals
# and edges files are the template's scaled so that each process's alive
# seconds are its rows' sum, as the collector's are. Pids are the
# template's renumbered, each session its own (10000 + 100 k up).
BEGIN { FS = OFS = "\t"; file = 0 }
FNR == 1 { file++ }
function newpid(p) {
	if (p == 0 || p == "-")
		return p
	if (!(p in pid))
		pid[p] = 10000 + 100 * k + npid++
	return pid[p]
}
function num(x) { return sprintf("%.3f", x) }
# the template's rows: its intervals' lines
file == 1 && /^#perflog-rows/ { next }
file == 1 && /^#/ { next }
file == 1 {
	if (!($2 in slot)) { slot[$2] = nslot++ }
	i = slot[$2]
	line[i, ++nl[i]] = $0
	if ($1 == "p" && $5 > amax[i])
		amax[i] = $5
	next
}
file == 2 && FNR == 1 { thead = $0; next }
file == 2 { nt++; tline[nt] = $0; next }
file == 3 && FNR == 1 { ehead = $0; next }
file == 3 { ne++; eline[ne] = $0; next }
END {
	step = 1
	while ((end - begin) / step > 128)
		step *= 2
	rows = dir "/waits-" name ".rows.tsv"
	printf "#perflog-rows\t1\tstep=%.3f\n", step > rows
	print "#p\tstart\tpid\tcomm\talive\tcpu\tcpu_wait\tdisk\tnet\tother\tsleep" > rows
	print "#e\tstart\tpid\tcomm\tdir\tkind\tpeer_pid\tpeer_comm\tlocal\tremote\tseconds\tbytes" > rows
	n = 0
	for (t = int(begin / step) * step; t < end; t += step) {
		lo = t > begin ? t : begin
		hi = t + step < end ? t + step : end
		i = n++ % nslot
		f = amax[i] > 0 ? (hi - lo) / amax[i] : 0
		for (j = 1; j <= nl[i]; j++) {
			split(line[i, j], x, "\t")
			x[2] = sprintf("%.3f", t)
			x[3] = newpid(x[3])
			if (x[1] == "p") {
				alive[x[3]] += x[5] * f
				for (c = 5; c <= 11; c++)
					x[c] = num(x[c] * f)
				print x[1], x[2], x[3], x[4], x[5], x[6], x[7], x[8], x[9], x[10], x[11] > rows
			} else {
				x[7] = newpid(x[7])
				x[11] = num(x[11] * f)
				if (x[12] != "-")
					x[12] = sprintf("%.0f", x[12] * f)
				print x[1], x[2], x[3], x[4], x[5], x[6], x[7], x[8], x[9], x[10], x[11], x[12] > rows
			}
		}
	}
	close(rows)
	# a process's factor: its rows' alive over its threads' in the totals
	for (r = 1; r <= nt; r++) {
		split(tline[r], x, "\t")
		talive[newpid(x[14])] += x[4]
	}
	for (p in talive)
		scale[p] = talive[p] > 0 ? alive[p] / talive[p] : 0
	# the starts (clock ticks since boot) moved with the session
	first = ""
	for (r = 1; r <= nt; r++) {
		split(tline[r], x, "\t")
		if (first == "" || x[3] < first)
			first = x[3]
	}
	waits = dir "/waits-" name ".tsv"
	print thead > waits
	for (r = 1; r <= nt; r++) {
		split(tline[r], x, "\t")
		p = newpid(x[14]); m = scale[p]
		x[1] = newpid(x[1])
		x[3] = x[3] - first + 100000 + int((begin - night) * 100)
		for (c = 4; c <= 10; c++)
			x[c] = num(x[c] * m)
		x[11] = sprintf("%.0f", x[11] * m)
		out = x[1]
		for (c = 2; c <= 14; c++)
			out = out "\t" (c == 14 ? p : x[c])
		for (c = 15; c in x; c++)
			out = out "\t" x[c]
		print out > waits
	}
	close(waits)
	edges = dir "/edges-" name ".tsv"
	print ehead > edges
	for (r = 1; r <= ne; r++) {
		split(eline[r], x, "\t")
		m = scale[newpid(x[1])]
		x[1] = newpid(x[1]); x[5] = newpid(x[5])
		x[9] = num(x[9] * m)
		if (x[10] != "-")
			x[10] = sprintf("%.0f", x[10] * m)
		print x[1], x[2], x[3], x[4], x[5], x[6], x[7], x[8], x[9], x[10] > edges
	}
	close(edges)
}
