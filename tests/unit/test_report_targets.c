/*
 * test_report_targets.c - the verdict on where backups land
 * (report/report_targets.c), on crafted figures: an NFS mount's slow
 * writes with the client blocked in the RPC layer, the round trip
 * carrying the time or not, a tape drive that waits for data or is the
 * bottleneck, and the cases where they must not change the verdict.
 */
#include <math.h>
#include <string.h>

#include "../../report/report_targets.h"
#include "tap.h"

/* A known statistic: avg and p95 at v over 60 rows. */
static void known(struct report_stat *s, double v)
{
	double x[60];

	for (int i = 0; i < 60; i++)
		x[i] = v;
	report_stat_of(x, 60, 1, s);
}

static void none(struct report_stat *s)
{
	report_stat_of(NULL, 0, 1, s);
}

/* An idle host: its disk and link barely used. */
static void host(struct report_figures *f)
{
	struct report_stat *all[] = { &f->cpu, &f->cpu1, &f->iowait,
		&f->proc_cpu, &f->disk_busy, &f->disk_bytes, &f->disk_xfers,
		&f->disk_service, &f->mem_avail, &f->pages, &f->net_bytes,
		&f->net_share, &f->psi[0], &f->psi[1], &f->psi[2], &f->runq,
		&f->retrans };

	memset(f, 0, sizeof(*f));
	for (size_t k = 0; k < sizeof(all) / sizeof(all[0]); k++)
		none(all[k]);
	f->ncpu = 2;
	known(&f->cpu, 5);
	strcpy(f->disk, "sdb");
	known(&f->disk_busy, 2);
	strcpy(f->net, "eth0");
	known(&f->net_share, 8);
	known(&f->retrans, 0);
	f->net_bandwidth = 1e9;
}

/* The client's working threads: shares of run, disk, net, other. */
static void client(struct report_waits *w, double run, double disk,
		   double net, double other)
{
	memset(w, 0, sizeof(*w));
	w->have = w->from_totals = 1;
	w->nwork = w->nall = 1;
	w->work[WS_CPU] = w->all[WS_CPU] = run;
	w->work[WS_DISK] = w->all[WS_DISK] = disk;
	w->work[WS_NET] = w->all[WS_NET] = net;
	w->work[WS_OTHER] = w->all[WS_OTHER] = other;
	w->work[WS_SLEEP] = w->all[WS_SLEEP] = 100 - run - disk - net - other;
}

static void nfs(struct report_targets *t, double exec, double rtt,
		double retrans)
{
	memset(t, 0, sizeof(*t));
	none(&t->tape_busy);
	none(&t->tape_bytes);
	strcpy(t->nfs, "/mnt/backup");
	known(&t->nfs_wbytes, 9.5 * 1048576);
	known(&t->nfs_writes, 9.5);
	known(&t->nfs_exec_w, exec);
	known(&t->nfs_rtt_w, rtt);
	known(&t->nfs_retrans, retrans);
}

static void tape(struct report_targets *t, double busy, double mib)
{
	memset(t, 0, sizeof(*t));
	struct report_stat *n[] = { &t->nfs_wbytes, &t->nfs_writes,
		&t->nfs_exec_w, &t->nfs_rtt_w, &t->nfs_retrans };
	for (size_t k = 0; k < 5; k++)
		none(n[k]);
	strcpy(t->tape, "st0");
	known(&t->tape_busy, busy);
	known(&t->tape_bytes, mib * 1048576);
}

/* v as report_judge would leave it, of a given kind. */
static void given(struct report_verdict *v, enum report_kind k)
{
	memset(v, 0, sizeof(*v));
	v->kind = k;
	snprintf(v->line, sizeof(v->line), "Bottleneck: %s: as judged",
		 report_kind_word(k));
}

static int word_is(const struct report_verdict *v, const char *w)
{
	size_t n = strlen(w);

	return !strncmp(v->line, "Bottleneck: ", 12) &&
	       !strncmp(v->line + 12, w, n) &&
	       !strcmp(report_kind_word(v->kind), w);
}

static void test_nfs(void)
{
	struct report_figures f;
	struct report_waits w;
	struct report_targets t;
	struct report_verdict v;

	host(&f);
	client(&w, 10, 0, 70, 10);
	nfs(&t, 200, 25, 0);
	given(&v, REPORT_NETWORK);
	OK(report_targets_judge(&t, &f, &w, &v) == 1, "slow NFS writes, client on the network: changed");
	OK(word_is(&v, "disk") && strstr(v.line, "disk on the NFS server of /mnt/backup: writes took 200.0 ms each"),
	   "disk on the NFS server, named with the mount");
	printf("# %s\n", v.line);

	client(&w, 10, 0, 5, 75);
	given(&v, REPORT_NONE);
	OK(report_targets_judge(&t, &f, &w, &v) == 1 && word_is(&v, "disk"),
	   "the client on \"other\" (the RPC layer's waits) counts too");

	client(&w, 10, 0, 70, 10);
	nfs(&t, 200, 180, 0);
	given(&v, REPORT_NETWORK);
	OK(report_targets_judge(&t, &f, &w, &v) == 1 && word_is(&v, "disk"),
	   "a long round trip without loss or a full link: still the server (its time is in the RTT)");
	nfs(&t, 200, 180, 3);
	given(&v, REPORT_NETWORK);
	OK(report_targets_judge(&t, &f, &w, &v) == 1 && word_is(&v, "network") &&
	   strstr(v.line, "network to the NFS server of /mnt/backup"),
	   "the round trip carries it and requests are sent again: network");
	nfs(&t, 200, 180, 0);
	known(&f.net_share, 85);
	given(&v, REPORT_NETWORK);
	OK(report_targets_judge(&t, &f, &w, &v) == 1 && word_is(&v, "network"),
	   "... or the link is full");
	host(&f);

	nfs(&t, 4, 3, 0);
	given(&v, REPORT_NETWORK);
	OK(report_targets_judge(&t, &f, &w, &v) == 0 && v.kind == REPORT_NETWORK,
	   "4 ms a write: the verdict stays");
	nfs(&t, 200, 25, 0);
	client(&w, 80, 5, 5, 5);
	given(&v, REPORT_CPU);
	OK(report_targets_judge(&t, &f, &w, &v) == 0 && v.kind == REPORT_CPU,
	   "a CPU-bound client: the verdict stays");
	given(&v, REPORT_NONE);
	OK(report_targets_judge(&t, &f, NULL, &v) == 1 && word_is(&v, "disk") &&
	   strstr(v.line, "no local resource near saturation"),
	   "without wait states, nothing local named: the server");
	given(&v, REPORT_CPU);
	OK(report_targets_judge(&t, &f, NULL, &v) == 0, "without wait states, CPU saturated: stays");
	known(&t.nfs_writes, 0);
	given(&v, REPORT_NONE);
	OK(report_targets_judge(&t, &f, NULL, &v) == 0, "a mount not written to: stays");
}

static void test_tape(void)
{
	struct report_figures f;
	struct report_waits w;
	struct report_targets t;
	struct report_verdict v;

	host(&f);
	client(&w, 10, 80, 0, 2);
	tape(&t, 45, 35);
	given(&v, REPORT_DISK);
	OK(report_targets_judge(&t, &f, &w, &v) == 1 && word_is(&v, "nothing"),
	   "a tape 45% busy while the backup waits on it: nothing");
	EQ_STR(v.line, "Bottleneck: nothing: Tape(st0) busy 45% at 35.0 MiB/s: "
	       "the tape waits for data: it is not the bottleneck", "the sentence");
	tape(&t, 98, 80);
	given(&v, REPORT_DISK);
	OK(report_targets_judge(&t, &f, &w, &v) == 1 && word_is(&v, "disk") &&
	   strstr(v.line, "Tape(st0) busy 98%") &&
	   strstr(v.line, "the tape drive is the bottleneck"), "a tape 98% busy is named");
	printf("# %s\n", v.line);

	tape(&t, 45, 35);
	known(&f.disk_busy, 92);
	given(&v, REPORT_DISK);
	OK(report_targets_judge(&t, &f, &w, &v) == 1 && v.kind == REPORT_DISK &&
	   strstr(v.line, "as judged; Tape(st0) busy 45%"),
	   "a local disk 92% busy (the source): its verdict stays, the tape's clause added");
	host(&f);
	client(&w, 10, 0, 80, 2);
	given(&v, REPORT_NETWORK);
	OK(report_targets_judge(&t, &f, &w, &v) == 0 && v.kind == REPORT_NETWORK,
	   "the backup waits on the network, not on the tape: stays");
	tape(&t, 45, 0);
	client(&w, 10, 80, 0, 2);
	given(&v, REPORT_DISK);
	OK(report_targets_judge(&t, &f, &w, &v) == 0, "a tape that moved nothing: stays");
	OK(report_targets_judge(NULL, &f, &w, &v) == 0, "no targets: stays");
}

int main(void)
{
	test_nfs();
	test_tape();
	return done_testing();
}
