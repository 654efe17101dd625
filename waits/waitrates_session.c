/*
 * waitrates_session.c - what a session's per-thread totals say
 * (waitrates.h): how many threads worked, the split of their time, the
 * sleep that paces, and how far a split read in turns may be off. Calls
 * run one way: waitrates.c (the fold) -> here.
 */
#include "waitrates.h"

#include <math.h>

size_t waitrates_nthreads(const struct waits_total *t)
{
	return t->tid == 0 && t->threads ? t->threads : 1;
}

/* The rows a sum over the totals takes: every thread, the working ones,
 * the working ones that moved data. */
enum rows { ROWS_ALL, ROWS_WORKING, ROWS_MOVERS };

static int takes(const struct waits_total *t, enum rows rows)
{
	/* (a local peer's thread is no thread of the tree) */
	return !t->peer &&
	       (rows == ROWS_ALL ||
		(waitrates_working(t) &&
		 (rows == ROWS_WORKING || waitrates_moved_data(t))));
}

/* The reads in turn of the rows taken (waits_total). */
struct turn_sums {
	double reads, stood, spread;
};

/* The seconds of the rows taken (live and folded alike) into sum[WS_N],
 * their threads into *threads, their reads into *st (NULL: not
 * wanted); returns their alive seconds. */
static double sum_rows(const struct waits_totals *tot, enum rows rows,
		       double sum[WS_N], size_t *threads, struct turn_sums *st)
{
	const struct waits_total *v[2] = { tot->t, tot->agg };
	size_t n[2] = { tot->n, tot->nagg };
	double alive = 0;

	*threads = 0;
	if (st)
		*st = (struct turn_sums){ 0 };
	for (int k = 0; k < WS_N; k++)
		sum[k] = 0;
	for (int j = 0; j < 2; j++)
		for (size_t i = 0; i < n[j]; i++) {
			const struct waits_total *t = &v[j][i];

			if (!takes(t, rows))
				continue;
			*threads += waitrates_nthreads(t);
			alive += t->alive;
			for (int k = 0; k < WS_N; k++)
				sum[k] += t->sec[k];
			if (st) {
				st->reads += (double)t->reads;
				st->stood += (double)t->stood;
				st->spread += t->spread;
			}
		}
	return alive;
}

void waitrates_count(const struct waits_totals *tot, size_t *threads,
		     size_t *working)
{
	double sum[WS_N];

	sum_rows(tot, ROWS_ALL, sum, threads, NULL);
	sum_rows(tot, ROWS_WORKING, sum, working, NULL);
}

int waitrates_peer_pid(const struct waits_totals *tot, pid_t pid)
{
	for (size_t k = 0; tot && pid > 0 && k < tot->n; k++)
		if (tot->t[k].pid == pid && tot->t[k].peer)
			return 1;
	return 0;
}

int waitrates_working(const struct waits_total *t)
{
	if (t->tid == 0 && t->threads)
		return t->working;	/* decided for each before the fold */
	return (t->sec[WS_CPU] >= 0.010 && t->sec[WS_CPU] >= 0.005 * t->alive) ||
	       waitrates_moved_data(t) ||
	       (t->alive > 0 && t->sec[WS_DISK] >= 0.5 * t->alive);
}

int waitrates_moved_data(const struct waits_total *t)
{
	return t->io_bytes >= WAITRATES_MOVED_BYTES;
}

double waitrates_paced(const struct waits_totals *tot)
{
	double work[WS_N], movers[WS_N];
	size_t n;
	double alive = sum_rows(tot, ROWS_WORKING, work, &n, NULL);

	sum_rows(tot, ROWS_MOVERS, movers, &n, NULL);
	return alive > 0 ? 100.0 * movers[WS_SLEEP] / alive : NAN;
}

void waitrates_split(const struct waits_totals *tot, int working_only,
		     double pct[WS_N], size_t *threads)
{
	double sum[WS_N];
	double alive = sum_rows(tot, working_only ? ROWS_WORKING : ROWS_ALL,
				sum, threads, NULL);

	for (int k = 0; k < WS_N; k++)
		pct[k] = alive > 0 ? 100.0 * sum[k] / alive : NAN;
}

double waitrates_split_error(const struct waits_totals *tot,
			     int working_only, double *read)
{
	double sum[WS_N], blocked = 0, worst = 0;
	struct turn_sums st;
	size_t n;
	double alive = sum_rows(tot, working_only ? ROWS_WORKING : ROWS_ALL,
				sum, &n, &st);

	*read = st.stood > 0 ? 100.0 * st.reads / st.stood : 100.0;
	if (!(alive > 0))
		return NAN;
	for (int k = WS_DISK; k <= WS_SLEEP; k++)
		blocked += sum[k];
	for (int k = WS_DISK; k <= WS_SLEEP && blocked > 0; k++) {
		double p = sum[k] / blocked;

		if (p * (1 - p) > worst)
			worst = p * (1 - p);
	}
	return 100.0 * 1.96 * sqrt(worst * st.spread) / alive;
}

