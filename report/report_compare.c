/*
 * report_compare.c - two log sets' sessions side by side (report.h):
 * paired by name, then in order, each figure with its change.
 */
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report_client.h"

/* One figure of A and B, with dec decimals (a session's duration is
 * known to the millisecond: rounded to seconds, 6.817 s against 7.182 s
 * read 7.0 / 8.0, +14.3%, where it is +5.4%). The change and its share
 * are of the figures as printed (issue 50 item 12: 0.14 and 0.06 read
 * "0.1 0.1 -0.1"): a row adds up for whoever reads it. */
static void cmp_row_dec(FILE *f, const char *label, double a, double b,
			const char *unit, int dec)
{
	char ch[32] = "", pct[32] = "", va[32] = "-", vb[32] = "-";

	/* unknown (no such counter, or no value in the session): "-"; so
	 * is a ratio of nothing (read / sent of an incremental that sent
	 * 0 B: it printed "inf", change "-inf", "-nan%") */
	if (!isfinite(a))
		a = NAN;
	if (!isfinite(b))
		b = NAN;
	if (!isnan(a)) {
		snprintf(va, sizeof(va), "%.*f", dec, a);
		a = strtod(va, NULL);
	}
	if (!isnan(b)) {
		snprintf(vb, sizeof(vb), "%.*f", dec, b);
		b = strtod(vb, NULL);
	}
	if (!isnan(a) && !isnan(b)) {
		snprintf(ch, sizeof(ch), "%+.*f", dec, b - a);
		if (a != 0)
			snprintf(pct, sizeof(pct), "%+.1f%%", 100 * (b - a) / fabs(a));
	}
	fprintf(f, "    %-30s %14s %14s %12s %9s  %s\n", label, va, vb, ch, pct,
		unit);
}

static void cmp_row(FILE *f, const char *label, double a, double b,
		    const char *unit)
{
	cmp_row_dec(f, label, a, b, unit, 1);
}

/* Pair A's sessions with B's: by name first, then the rest in order, each
 * B session used once (before/after runs often name their sessions the
 * same; when they do not, the n-th unnamed-alike goes with the n-th).
 * pair[i] is B's index for A's session i, or -1. used[j] marks B's. */
void report_pair_sessions(const struct report *a, const struct report *b,
			  long *pair, char *used)
{
	size_t next = 0;

	for (size_t i = 0; i < a->n; i++) {
		pair[i] = -1;
		for (size_t j = 0; j < b->n && pair[i] < 0; j++)
			if (!used[j] && !strcmp(b->s[j].name, a->s[i].name)) {
				pair[i] = (long)j;
				used[j] = 1;
			}
	}
	for (size_t i = 0; i < a->n; i++) {
		if (pair[i] >= 0)
			continue;
		while (next < b->n && used[next])
			next++;
		if (next < b->n) {
			pair[i] = (long)next;
			used[next++] = 1;
		}
	}
}

void report_compare(FILE *f, const struct report *a, const struct report *b)
{
	long *pair = calloc(a->n ? a->n : 1, sizeof(*pair));
	char *used = calloc(b->n ? b->n : 1, 1);

	fprintf(f, "perflog report: comparing\n  A %s\n  B %s\n", a->dir, b->dir);
	if (!pair || !used) {
		fprintf(f, "out of memory\n");
		free(pair);
		free(used);
		return;
	}
	report_pair_sessions(a, b, pair, used);
	for (size_t i = 0; i < a->n; i++) {
		const struct report_session *x = &a->s[i];
		const struct report_session *y = pair[i] >= 0 ? &b->s[pair[i]] : NULL;
		const double MiB = 1048576.0;

		if (!y) {
			fprintf(f, "\nSession %s: only in A\n", x->name);
			continue;
		}
		fprintf(f, "\nSession %s (A) vs %s (B)\n", x->name, y->name);
		fprintf(f, "    %-30s %14s %14s %12s %9s\n", "figure", "A", "B",
			"change", "change%");
		/* the span between the markers, not the rows' whole
		 * seconds judged (end rounded up to hold its marker) */
		cmp_row_dec(f, "duration", x->seconds, y->seconds, "s",
			    x->begin_m && x->end_m && y->begin_m && y->end_m ?
			    3 : 0);
		report_client_compare(f, x, y, cmp_row);
		cmp_row(f, "CPU total avg", x->fig.cpu.avg, y->fig.cpu.avg, "%");
		cmp_row(f, "busiest CPU avg", x->fig.cpu1.avg, y->fig.cpu1.avg, "%");
		cmp_row(f, "busiest disk busy avg", x->fig.disk_busy.avg,
			y->fig.disk_busy.avg, "%");
		cmp_row(f, "busiest disk bytes/s avg", x->fig.disk_bytes.avg / MiB,
			y->fig.disk_bytes.avg / MiB, "MiB/s");
		cmp_row(f, "disk ms/transfer avg", x->fig.disk_service.avg * 1000,
			y->fig.disk_service.avg * 1000, "ms");
		cmp_row(f, "memory available min", x->fig.mem_avail.min / MiB,
			y->fig.mem_avail.min / MiB, "MiB");
		cmp_row(f, "pages/sec avg", x->fig.pages.avg, y->fig.pages.avg, "/s");
		cmp_row(f, "network bytes/s avg", x->fig.net_bytes.avg / MiB,
			y->fig.net_bytes.avg / MiB, "MiB/s");
		cmp_row(f, "network share avg", x->fig.net_share.avg,
			y->fig.net_share.avg, "%");
		fprintf(f, "  A: %s\n  B: %s\n", x->verdict.line, y->verdict.line);
	}
	for (size_t j = 0; j < b->n; j++)
		if (!used[j])
			fprintf(f, "\nSession %s: only in B\n", b->s[j].name);
	free(pair);
	free(used);
}

