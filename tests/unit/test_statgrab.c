/*
 * test_statgrab.c - the libstatgrab source, live: libstatgrab hard-codes
 * /proc, so instead of fixtures both backends read this machine and must
 * agree. Each statgrab read is bracketed by two procfs reads, so a
 * cumulative counter must fall between them (other work runs on this
 * machine meanwhile). Skips cleanly when libstatgrab cannot initialise.
 */
#include <stdlib.h>
#include <unistd.h>

#include "../../counters/rates.h"
#include "tap.h"


static uint64_t cpu_sum(const struct cpu_raw *c)
{
	return c->user + c->nice + c->system + c->idle + c->iowait;
}

/* lo <= v <= hi + slack */
static int between(uint64_t lo, uint64_t v, uint64_t hi, uint64_t slack)
{
	return lo <= v + slack && v <= hi + slack;
}

int main(void)
{
	struct raw_snapshot p1 = { 0 }, g = { 0 }, p2 = { 0 }, g2 = { 0 };
	struct sample out = { 0 };
	struct perr e = { "" };
	struct statgrab *sg = statgrab_open(&e);
	struct procfs *pf;
	const struct disk_raw *busiest = NULL;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int agree = 1, compared = 0;

	if (!sg) {
		printf("1..0 # SKIP %s\n", e.msg);
		return 0;
	}
	pf = procfs_open("/", &e);
	OK(pf != NULL, "procfs opens /");
	if (!pf) {
		statgrab_close(sg);
		return done_testing();
	}
	OK(procfs_read(pf, &p1, &e) == 0, "procfs read before");
	OK(statgrab_read(sg, &g, &e) == 0, "statgrab read");
	OK(procfs_read(pf, &p2, &e) == 0, "procfs read after");

	EQ_INT(g.ncpus, 1, "statgrab: _Total only");
	EQ_STR(g.cpus[0].name, "_Total", "named _Total");
	/* the reads are a millisecond apart: a few ticks of slack per CPU */
	OK(between(cpu_sum(&p1.cpus[0]), cpu_sum(&g.cpus[0]),
		   cpu_sum(&p2.cpus[0]), (uint64_t)(2 * ncpu + 2)),
	   "_Total ticks (user+nice+system+idle+iowait) agree");
	OK(between(p1.cpus[0].idle, g.cpus[0].idle, p2.cpus[0].idle,
		   (uint64_t)(2 * ncpu + 2)), "idle ticks agree");
	OK(between(p1.sys.ctxt, g.sys.ctxt, p2.sys.ctxt, 0),
	   "context switches between the procfs reads");

	for (size_t i = 0; i < p2.ndisks; i++)
		if (!busiest || p2.disks[i].rd_sectors > busiest->rd_sectors)
			busiest = &p2.disks[i];
	if (busiest && snapshot_find_disk(&g, busiest->name) && snapshot_find_disk(&p1, busiest->name)) {
		const struct disk_raw *gd = snapshot_find_disk(&g, busiest->name);
		char name[128];

		snprintf(name, sizeof(name), "%s: read sectors agree (%llu)",
			 busiest->name, (unsigned long long)gd->rd_sectors);
		OK(between(snapshot_find_disk(&p1, busiest->name)->rd_sectors,
			   gd->rd_sectors, busiest->rd_sectors, 0), name);
		OK(between(snapshot_find_disk(&p1, busiest->name)->wr_sectors,
			   gd->wr_sectors, busiest->wr_sectors, 0),
		   "write sectors agree");
		OK(gd->rd_ios == SRC_NA && gd->io_ticks == SRC_NA &&
		   gd->time_in_queue == SRC_NA,
		   "statgrab: disk ops, busy and queue unknown");
		EQ_INT(gd->in_total, busiest->in_total,
		       "same whole-disk decision");
	} else {
		OK(1, "# SKIP no block device seen by both backends");
	}

	OK(snapshot_find_net(&g, "lo") && snapshot_find_net(&p1, "lo") && snapshot_find_net(&p2, "lo") &&
	   between(snapshot_find_net(&p1, "lo")->rx_bytes, snapshot_find_net(&g, "lo")->rx_bytes,
		   snapshot_find_net(&p2, "lo")->rx_bytes, 0) &&
	   between(snapshot_find_net(&p1, "lo")->tx_packets, snapshot_find_net(&g, "lo")->tx_packets,
		   snapshot_find_net(&p2, "lo")->tx_packets, 0), "lo bytes and packets agree");
	OK(snapshot_find_net(&g, "lo") && snapshot_find_net(&g, "lo")->is_loopback, "lo is loopback");
	for (size_t i = 0; i < g.nnets; i++) {
		const struct net_raw *pn = snapshot_find_net(&p2, g.nets[i].name);

		if (!pn)
			continue;
		compared++;
		if (isnan(pn->speed_bps) != isnan(g.nets[i].speed_bps) ||
		    (!isnan(pn->speed_bps) &&
		     pn->speed_bps != g.nets[i].speed_bps)) {
			printf("# %s: procfs %g statgrab %g\n", pn->name,
			       pn->speed_bps, g.nets[i].speed_bps);
			agree = 0;
		}
	}
	OK(compared > 0 && agree, "link speeds agree (known or unknown)");

	OK(fabs(g.mem.cached - p2.mem.cached) <= 0.05 * p2.mem.cached + 65536e3,
	   "cache bytes agree within 5%");
	OK(isnan(g.mem.available) && g.mem.pswpin == SRC_NA &&
	   g.mem.pgfault == SRC_NA && isnan(g.sys.procs_running),
	   "statgrab: MemAvailable, paging, run queue unknown");

	usleep(200000);
	OK(statgrab_read(sg, &g2, &e) == 0, "second statgrab read");
	OK(rates_compute(&g, &g2, &out) == 0, "rates from statgrab snapshots");
	{
		struct instance_values *cpu =
			sample_find(&out, OBJ_PROCESSOR, "_Total");
		struct instance_values *mem = sample_find(&out, OBJ_MEMORY, "");

		OK(cpu && cpu->v[0] >= 0 && cpu->v[0] <= 100,
		   "Processor(_Total) known");
		OK(mem && isnan(mem->v[0]) && !isnan(mem->v[1]) &&
		   isnan(mem->v[2]), "Memory: cache known, available and "
		   "pages unknown");
		if (busiest) {
			struct instance_values *d = sample_find(
				&out, OBJ_LOGICALDISK, busiest->name);

			OK(d && !isnan(d->v[1]) && isnan(d->v[3]) &&
			   isnan(d->v[0]), "disk: bytes known, ops and busy "
			   "unknown");
		}
	}

	sample_free(&out);
	snapshot_free(&p1);
	snapshot_free(&p2);
	snapshot_free(&g);
	snapshot_free(&g2);
	procfs_close(pf);
	statgrab_close(sg);
	return done_testing();
}
