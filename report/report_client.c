/*
 * report_client.c - the backup client's figures in the report
 * (report_client.h). The end marker's client.* keys -> the normalised
 * layout; the process tree's IO Read/Write Bytes/sec and the busiest
 * interface's Bytes Total/sec summed over the session's rows (value x
 * step) -> the check against the client's byte counts; NetBackup's
 * buffer waits -> the verdict.
 */
#include "report_client.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../client/netbackup.h"
#include "../counters/counters.h"
#include "../logs/lookup.h"

const char *report_client_norm(const struct marker *end, double v[CLN_COUNT],
			       unsigned *derived)
{
	const char *name = client_norm_of(end, v, derived);
	if (name || !end || !marker_get(end, "client.summaries"))
		return name;
	/* a log set from before the client table: dsmc's own keys */
	v[CLN_SENT] = marker_num(end, "client.bytes_transferred.num");
	v[CLN_READ] = marker_num(end, "client.bytes_inspected.num");
	if (isnan(v[CLN_READ]))
		v[CLN_READ] = v[CLN_SENT];
	v[CLN_FILES] = marker_num(end, "client.objects_inspected.num");
	v[CLN_DURATION] = marker_num(end, "client.elapsed.num");
	v[CLN_RATE] = marker_num(end, "client.aggregate_rate.num") * 1024;
	if (isnan(v[CLN_RATE]))
		v[CLN_RATE] = marker_num(end, "client.transfer_rate.num") * 1024;
	v[CLN_ERRORS] = marker_num(end, "client.objects_failed.num");
	return "dsmc";
}

const char *report_client_agree(double client, double logged, int shared,
				double *change)
{
	*change = client != 0 ? (logged - client) / client : NAN;
	if (client == 0 && logged == 0)
		*change = 0;
	if (!isnan(*change) && fabs(*change) <= REPORT_CLIENT_AGREE)
		return "agree";
	/* an interface carries everyone's traffic: more than the client
	 * sent is other traffic (another test, a second backup), not a
	 * client that counts wrong */
	if ((shared == REPORT_SHARED_STORE || shared == REPORT_SHARED_PAGES) &&
	    !isnan(*change) && logged < REPORT_CLIENT_NO_STORE * client)
		return REPORT_CLIENT_STORE_NONE;
	if (shared && !isnan(*change) && *change > 0)
		return shared == REPORT_SHARED_OWN ? REPORT_CLIENT_OWN :
		       shared == REPORT_SHARED_STORE ? REPORT_CLIENT_STORE_MORE :
		       shared == REPORT_SHARED_PAGES ? REPORT_CLIENT_STORE_PAGES :
			REPORT_CLIENT_OTHERS;
	return "disagree by more than 10%";
}

/* Bytes counted by counter id of instance inst over the session's rows
 * (sum of value x step), NAN when not logged. */
double report_client_bytes(struct logset *ls, const struct report_session *s,
			   int id, const char *inst)
{
	const struct logset_meta *m = logset_meta(ls);
	size_t idx = 0;
	int found = 0;
	for (size_t i = 0; i < m->ncounters && !found; i++)
		if (m->counters[i].def && (int)m->counters[i].def->id == id &&
		    !strcmp(m->counters[i].instance, inst))
			idx = i, found = 1;
	if (!found)
		return NAN;
	struct logset_series ser;
	struct perr e;
	time_t to = s->end > s->begin ? s->end : s->begin + 1;
	if (logset_fetch(ls, &idx, 1, s->begin + 1, to, "AVERAGE", m->interval,
			 &ser, &e) < 0)
		return NAN;
	double sum = 0;
	size_t known = 0;
	for (size_t r = 0; r < ser.rows; r++)
		if (!isnan(ser.values[r]))
			sum += ser.values[r] * (double)ser.step, known++;
	logset_series_free(&ser);
	return known ? sum : NAN;
}

void report_client_logged(struct logset *ls, const struct report_session *s,
			  struct report_client_logged *out)
{
	out->process = lookup_process(logset_meta(ls), s->name);
	out->proc_read = out->process
		? report_client_bytes(ls, s, CTR_PROC_IO_READ, out->process) : NAN;
	out->proc_written = out->process
		? report_client_bytes(ls, s, CTR_PROC_IO_WRITE, out->process) : NAN;
	/* the interface, when the data went over a real one: not when
	 * loopback carried more (a client and server on one host, as make
	 * demo's; the busiest real interface was then another's traffic,
	 * and the check said -97.8%) */
	out->net_bytes = s->fig.net[0] && !lookup_is_loopback(s->fig.net)
		? report_client_bytes(ls, s, CTR_NET_BYTES_TOTAL, s->fig.net) : NAN;
	double lo = report_client_bytes(ls, s, CTR_NET_BYTES_TOTAL, "lo");
	if (!isnan(lo) && !isnan(out->net_bytes) && lo > out->net_bytes)
		out->net_bytes = NAN;
	report_client_paths(ls, s, out);
}

static void figure(FILE *f, const char *label, double v, int k, unsigned derived)
{
	char h[40];
	const char *mark = derived & (1u << k) ? " (computed)" : "";
	if (isnan(v)) {
		fprintf(f, "    %-22s %14s\n", label, "n/a");
		return;
	}
	switch (k) {
	case CLN_READ:
	case CLN_SENT:
		fprintf(f, "    %-22s %14s  %.0f bytes%s\n", label,
			report_fmt_bytes(h, sizeof(h), v, NULL), v, mark);
		break;
	case CLN_RATE:
		fprintf(f, "    %-22s %14s%s\n", label,
			report_fmt_bytes(h, sizeof(h), v, "/s"), mark);
		break;
	case CLN_DURATION:
		fprintf(f, "    %-22s %12.3f s%s\n", label, v, mark);
		break;
	default:
		fprintf(f, "    %-22s %14.0f%s\n", label, v, mark);
	}
}

/* One check of the client's figure against the logged one: with -v
 * its line, at the default level only when it does not agree (those
 * that agree counted in *agreed). */
static void check(FILE *f, const char *what, double client, const char *by,
		  double logged, int shared, int verbose, int *agreed)
{
	double ch;
	if (isnan(client) || isnan(logged))
		return;
	const char *verdict = report_client_agree(client, logged, shared, &ch);
	if (!verbose && !strcmp(verdict, "agree")) {
		++*agreed;
		return;
	}
	fprintf(f, "    %s %.0f bytes, %s %.0f bytes (%+.1f%%): %s\n", what, client,
		by, logged, isnan(ch) ? 0.0 : 100 * ch, verdict);
}

/* The default level's figures of the client: one line, each in the
 * report's unit ("sent" is the normalised "sent or stored"). */
static void figures_short(FILE *f, const char *name, long nsum,
			  const double v[CLN_COUNT])
{
	char a[40], b[40];

	fprintf(f, "  backup client %s%s: read %s, sent %s", name,
		nsum > 1 ? " (its summaries summed)" : "",
		report_fmt_bytes(a, sizeof(a), v[CLN_READ], NULL),
		report_fmt_bytes(b, sizeof(b), v[CLN_SENT], NULL));
	if (!isnan(v[CLN_FILES]))
		fprintf(f, ", %.0f files", v[CLN_FILES]);
	if (!isnan(v[CLN_ERRORS]))
		fprintf(f, ", %.0f errors", v[CLN_ERRORS]);
	if (!isnan(v[CLN_DURATION]))
		fprintf(f, " in %.1f s", v[CLN_DURATION]);
	if (!isnan(v[CLN_RATE]))
		fprintf(f, " at %s", report_fmt_bytes(a, sizeof(a), v[CLN_RATE], "/s"));
	fputc('\n', f);
}

void report_client_print(FILE *f, struct logset *ls,
			 const struct report_session *s, int verbose)
{
	static const char *const labels[CLN_COUNT] = {
		"read", "sent or stored", "files", "duration", "rate", "errors",
	};
	double v[CLN_COUNT];
	unsigned derived;
	const char *name = s->end_m ? report_client_norm(s->end_m, v, &derived) : NULL;
	if (!name)
		return;
	const char *ns = marker_get(s->end_m, "client.summaries");
	long nsum = ns ? strtol(ns, NULL, 10) : 1;

	if (!verbose) {
		figures_short(f, name, nsum, v);
	} else {
		if (nsum > 1)	/* client.c: several summaries are summed */
			fprintf(f, "  backup client %s (the sums of its %ld summaries):\n",
				name, nsum);
		else
			fprintf(f, "  backup client %s:\n", name);
		for (int k = 0; k < CLN_COUNT; k++)
			figure(f, labels[k], v[k], k, derived);
		if (v[CLN_READ] > 0 && v[CLN_SENT] > 0)
			fprintf(f, "    %-22s %14.2f\n", "read / sent", v[CLN_READ] / v[CLN_SENT]);
	}

	struct report_client_logged lg;
	report_client_logged(ls, s, &lg);
	if ((!isnan(lg.proc_read) || !isnan(lg.proc_written) ||
	     !isnan(lg.net_bytes) || lg.local_target || lg.pipes) &&
	    (!isnan(v[CLN_READ]) || !isnan(v[CLN_SENT]))) {
		char by[256];
		const char *proc = lg.process;
		int agreed = 0;
		FILE *out = f;
		char *held = NULL;
		size_t nheld = 0;

		/* the default level: the checks that agree counted on the
		 * heading line, the others below it */
		if (!verbose && !(out = open_memstream(&held, &nheld)))
			out = f;
		if (out == f)
			fprintf(f, "  client figures against the logged ones:\n");
		snprintf(by, sizeof(by), "process tree %s read", proc ? proc : "");
		int own = report_client_reads_back(v, &lg) ?
			REPORT_SHARED_OWN : REPORT_SHARED_NO;
		check(out, "client read", v[CLN_READ], by, lg.proc_read, own,
		      verbose, &agreed);
		snprintf(by, sizeof(by), "process tree %s wrote", proc ? proc : "");
		check(out, "client sent", v[CLN_SENT], by, lg.proc_written, own,
		      verbose, &agreed);
		snprintf(by, sizeof(by), "Network Interface(%s) carried", lg.net_if);
		check(out, "client sent", v[CLN_SENT], by, lg.net_bytes,
		      REPORT_SHARED_IFACE, verbose, &agreed);
		snprintf(by, sizeof(by), "process tree%s %s wrote to storage",
			 strchr(lg.stored_by, ',') ? "s" : "", lg.stored_by);
		check(out, "client sent", v[CLN_SENT], by, lg.proc_stored,
		      report_client_store_shared(v, &lg), verbose, &agreed);
		if (verbose)
			report_client_notes(f, v, &lg);
		if (out != f) {
			fclose(out);
			if (agreed || nheld)
				fprintf(f, "  client figures against the logged ones: %d agree%s\n",
					agreed, nheld ? "; these do not:" : "");
			fwrite(held, 1, nheld, f);
			free(held);
		}
	}
	if (!verbose)	/* the client's own lines are quotes: -v */
		return;
	char buf[32];
	snprintf(buf, sizeof(buf), "  %s's own figures:\n", name);
	fputs(buf, f);
	client_print_own(f, s->end_m);
}

void report_client_compare(FILE *f, const struct report_session *a,
			   const struct report_session *b,
			   void (*row)(FILE *, const char *, double, double,
				       const char *))
{
	double va[CLN_COUNT], vb[CLN_COUNT];
	const char *na = a->end_m ? report_client_norm(a->end_m, va, NULL) : NULL;
	const char *nb = b->end_m ? report_client_norm(b->end_m, vb, NULL) : NULL;
	const double MiB = 1048576.0;
	if (!na && !nb)
		return;
	if (!na)
		for (int k = 0; k < CLN_COUNT; k++)
			va[k] = NAN;
	if (!nb)
		for (int k = 0; k < CLN_COUNT; k++)
			vb[k] = NAN;
	fprintf(f, "    %-30s %14s %14s\n", "backup client", na ? na : "none",
		nb ? nb : "none");
	row(f, "client read", va[CLN_READ] / MiB, vb[CLN_READ] / MiB, "MiB");
	row(f, "client sent or stored", va[CLN_SENT] / MiB, vb[CLN_SENT] / MiB, "MiB");
	row(f, "client files", va[CLN_FILES], vb[CLN_FILES], "");
	row(f, "client duration", va[CLN_DURATION], vb[CLN_DURATION], "s");
	row(f, "client rate", va[CLN_RATE] / MiB, vb[CLN_RATE] / MiB, "MiB/s");
	row(f, "client errors", va[CLN_ERRORS], vb[CLN_ERRORS], "");
	row(f, "client read / sent", va[CLN_READ] / va[CLN_SENT],
	    vb[CLN_READ] / vb[CLN_SENT], "x");
}

void report_client_judge(const struct report_session *s,
			 struct report_verdict *v)
{
	struct netbackup_waits w;
	if (!s->end_m || netbackup_waits_of(s->end_m, &w) < 0)
		return;
	double lost, span = (double)(s->end - s->begin);
	char clause[256];
	enum netbackup_side side = netbackup_judge(&w, span, &lost, clause,
						   sizeof(clause));
	if (side != NBU_NONE &&
	    (v->kind == REPORT_NONE || v->kind == REPORT_IOWAIT)) {
		int src = side == NBU_SOURCE;
		v->kind = src ? REPORT_SOURCE : REPORT_STORAGE;
		snprintf(v->line, sizeof(v->line), "Bottleneck: %s: %s (%s)",
			 report_kind_word(v->kind),
			 src ? "source: the data arrives slowly" :
			       "storage: the storage unit takes the data slowly",
			 clause);
		snprintf(v->hint, sizeof(v->hint), "%s",
			 src ? "bptm waited for data: look at the client's reads and the network first, then the job's start-up (bpdbjobs)"
			     : "the producer waited for free buffers: the tape or disk writes slowly; more or larger buffers (NUMBER_DATA_BUFFERS, SIZE_DATA_BUFFERS) or less multiplexing");
		return;
	}
	/* a local resource fired: the counters are evidence */
	enum report_kind k = v->kind;
	int disk = k == REPORT_DISK;
	int agrees = (side == NBU_SOURCE && (disk || k == REPORT_NETWORK)) ||
		     (side == NBU_STORAGE && disk);
	report_line_add(v, "; %s%s", clause, agrees ? " (agrees)" : "");
}
