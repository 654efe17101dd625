/*
 * test_report_client.c - the backup client in the report
 * (report/report_client.c): the 10% agreement rule, NetBackup's buffer
 * waits joining the verdict, and the normalised figures of a log set
 * written before the client table (dsmc's own keys only).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../report/report_client.h"
#include "tap.h"

static void agree(void)
{
	double ch;
	EQ_STR(report_client_agree(1000, 1090, 0, &ch), "agree", "9% more logged: agree");
	EQ_DBL(ch, 0.09, 1e-12, "change is (logged - client) / client");
	EQ_STR(report_client_agree(1000, 500, 0, &ch), "disagree by more than 10%",
	       "the disk read half: disagree");
	EQ_STR(report_client_agree(1000, 100, 0, &ch), "disagree by more than 10%",
	       "a tenth sent: disagree");
	EQ_STR(report_client_agree(0, 0, 0, &ch), "agree", "nothing either side: agree");
	/* an interface: more is others' traffic, less is a disagreement */
	EQ_STR(report_client_agree(1000, 6000, 1, &ch), REPORT_CLIENT_OTHERS,
	       "an interface carrying 6 times the client's: other traffic too");
	EQ_STR(report_client_agree(1000, 500, 1, &ch), "disagree by more than 10%",
	       "an interface carrying half the client's: disagree");
	EQ_STR(report_client_agree(0, 5, 0, &ch), "disagree by more than 10%",
	       "nothing by the client, bytes logged: disagree");
}

/* A local target: the client's bytes against what its trees wrote to
 * storage (issue 29, item 5; the figures of t3520's runs) */
/* The check of a local target's bytes: the client sent `sent` bytes in
 * `files` files (NAN: not told), its trees wrote `stored` to storage */
static const char *stored_verdict(double sent, double files, double stored)
{
	double v[CLN_COUNT], ch;
	struct report_client_logged lg;

	for (int k = 0; k < CLN_COUNT; k++)
		v[k] = NAN;
	memset(&lg, 0, sizeof(lg));
	v[CLN_SENT] = sent;
	v[CLN_FILES] = files;
	lg.proc_stored = stored;
	return report_client_agree(sent, stored,
				   report_client_store_shared(v, &lg), &ch);
}

static void stored(void)
{
	/* restic: its repository, its cache and its temporary packs */
	EQ_STR(stored_verdict(3992977, 1, 8101887), REPORT_CLIENT_STORE_MORE,
	       "restic: twice what it stored, one file: its other files");
	/* the workload's 1m1k: 8,700 files of 1 KiB, 4 KiB counted each */
	EQ_STR(stored_verdict(8917709, 8709, 35549184), REPORT_CLIENT_STORE_PAGES,
	       "1m1k: within a page a file: whole pages");
	EQ_STR(stored_verdict(8917709, NAN, 35549184), REPORT_CLIENT_STORE_MORE,
	       "no file count: no page allowance, its other files");
	EQ_STR(stored_verdict(1751121920, 400, 1751134193), "agree", "50m10m: agree");
	EQ_STR(stored_verdict(1000, 1, 500), "disagree by more than 10%",
	       "half reached the storage: disagree");
	EQ_STR(stored_verdict(74029466, 7000, 0), REPORT_CLIENT_STORE_NONE,
	       "none: a target on no block device");
	EQ_STR(stored_verdict(1000, 1, 5), REPORT_CLIENT_STORE_NONE,
	       "under 1%: the same");
}

/* A session whose end marker is line (markers.tsv syntax). */
static void session(struct marker_list *ml, struct report_session *s,
		    const char *line, time_t span)
{
	memset(ml, 0, sizeof(*ml));
	memset(s, 0, sizeof(*s));
	markers_parse(line, "test", ml);
	s->end_m = ml->n ? &ml->m[0] : NULL;
	s->begin = 1000;
	s->end = 1000 + span;
	s->seconds = (double)span;
}

static void judge(void)
{
	struct marker_list ml;
	struct report_session s;
	struct report_verdict v;

	/* the Veritas article's bptm log: 1221273 delays x 15 ms lost */
	session(&ml, &s, "2026-11-30T04:50:12.000Z\tend\tnbu\texit 0\tclient=netbackup\t"
		"client.full_buffer_waits.num=24552\tclient.full_buffer_delays.num=1221273\t"
		"client.empty_buffer_waits.num=64737\tclient.empty_buffer_delays.num=66780\t"
		"client.parent_delay_ms.num=15\tclient.child_delay_ms.num=10\n", 36000);
	memset(&v, 0, sizeof(v));
	v.kind = REPORT_NONE;
	snprintf(v.line, sizeof(v.line), "Bottleneck: nothing near saturation");
	report_client_judge(&s, &v);
	EQ_INT(v.kind, REPORT_SOURCE, "full-buffer waits, nothing saturated: the source");
	OK(!strncmp(v.line, "Bottleneck: network: source", 27) &&
	   strstr(v.line, "waited for full buffers 24552 times, delayed 1221273 times, 5:05:19 lost"),
	   "the line names the source and the time lost");
	OK(v.hint[0] != '\0', "with a hint");
	EQ_STR(report_kind_name(v.kind), "source", "kind name for scripts");
	EQ_STR(report_kind_word(v.kind), "network", "its first word");

	/* the same with the disk saturated: evidence that agrees */
	memset(&v, 0, sizeof(v));
	v.kind = REPORT_DISK;
	snprintf(v.line, sizeof(v.line), "Bottleneck: disk: LogicalDisk(sdb) busy 97%%");
	report_client_judge(&s, &v);
	EQ_INT(v.kind, REPORT_DISK, "a saturated disk keeps the verdict");
	OK(strstr(v.line, "; NetBackup: waited for full buffers") &&
	   strstr(v.line, "(agrees)"), "the waits added as evidence that agrees");
	markers_free(&ml);

	/* the tuning guide's example: bpbkar held back, default delays */
	session(&ml, &s, "2026-11-30T04:50:12.000Z\tend\tnbu\texit 0\tclient=netbackup\t"
		"client.full_buffer_waits.num=95\tclient.full_buffer_delays.num=105\t"
		"client.empty_buffer_waits.num=29364\tclient.empty_buffer_delays.num=58033\n",
		1800);
	memset(&v, 0, sizeof(v));
	v.kind = REPORT_IOWAIT;
	report_client_judge(&s, &v);
	EQ_INT(v.kind, REPORT_STORAGE, "empty-buffer waits: the storage unit");
	OK(!strncmp(v.line, "Bottleneck: disk: storage", 25),
	   "the line starts with its word (disk), then storage");
	markers_free(&ml);

	/* another client: the verdict is left alone */
	session(&ml, &s, "2026-11-30T04:50:12.000Z\tend\tr\texit 0\tclient=restic\tclient.read=5\n", 10);
	memset(&v, 0, sizeof(v));
	snprintf(v.line, sizeof(v.line), "Bottleneck: nothing near saturation");
	report_client_judge(&s, &v);
	EQ_STR(v.line, "Bottleneck: nothing near saturation", "restic: verdict untouched");
	markers_free(&ml);
}

static void old_dsmc(void)
{
	struct marker_list ml;
	struct report_session s;
	double n[CLN_COUNT];
	unsigned d;

	session(&ml, &s, "2026-11-30T04:50:12.000Z\tend\tdsmc\texit 0\tclient.summaries=1\t"
		"client.bytes_transferred=7.31 GB\tclient.bytes_transferred.num=7849052733.44\t"
		"client.elapsed=00:04:16\tclient.elapsed.num=256\t"
		"client.aggregate_rate=29,927.27 KB/sec\tclient.aggregate_rate.num=29927.27\n", 256);
	EQ_STR(report_client_norm(s.end_m, n, &d), "dsmc", "an old dsmc marker reads as dsmc");
	EQ_DBL(n[CLN_SENT], 7849052733.44, 0.01, "old dsmc: sent");
	EQ_DBL(n[CLN_READ], 7849052733.44, 0.01, "old dsmc: read = transferred");
	EQ_DBL(n[CLN_DURATION], 256, 0, "old dsmc: duration");
	EQ_DBL(n[CLN_RATE], 29927.27 * 1024, 0.01, "old dsmc: rate in bytes/s");
	OK(isnan(n[CLN_FILES]), "old dsmc: files unknown");
	markers_free(&ml);
	session(&ml, &s, "2026-11-30T04:50:12.000Z\tend\tx\texit 0\tstatus=0\n", 1);
	OK(!report_client_norm(s.end_m, n, &d), "no client keys: no client");
	markers_free(&ml);
}

int main(void)
{
	agree();
	stored();
	judge();
	old_dsmc();
	return done_testing();
}
