/*
 * test_rates.c - rates_delta and rates_compute against hand-computed
 * values: fixture snapshots root1 -> root2 (known deltas over 1 s, see
 * tests/fixtures/proc/README.md), root3a -> root3b (a 32-bit kernel:
 * wraps and resets, iowait stepping back), root7a -> root7b (a 64-bit
 * kernel: devices reset or replaced under the same name; pressure, TCP),
 * root8a -> root8b (stacked interfaces) and synthetic snapshots.
 */
#include <stdlib.h>

#include "../../counters/rates.h"
#include "procroot.h"
#include "tap.h"

#ifndef FIXTURES
#define FIXTURES "tests/fixtures/proc"
#endif

#define TOL 1e-9


static void test_delta(void)
{
	uint64_t d = 99;

	OK(rates_delta(10, 15, 64, &d) == 0 && d == 5, "plain delta");
	OK(rates_delta(5, 5, 64, &d) == 0 && d == 0, "no change");
	OK(rates_delta(UINT32_MAX - 4, 5, 32, &d) == 0 && d == 10,
	   "32-bit wrap");
	OK(rates_delta(UINT32_MAX - 4, 5, 0, &d) == 0 && d == 10,
	   "width unknown, both values fit in 32 bits: a wrap");
	OK(rates_delta(UINT32_MAX - 4, 5, 64, &d) == -1,
	   "a 64-bit counter going back is a reset, even below 2^32");
	OK(rates_delta(1000000000u, 5, 32, &d) == -1,
	   "a 'wrap' of more than 2^31 is a reset (counter started again)");
	OK(rates_delta((uint64_t)1 << 40, ((uint64_t)1 << 40) + 7, 64, &d) ==
	   0 && d == 7, "64-bit values");
	OK(rates_delta(10000000000ull, 5, 64, &d) == -1,
	   "64-bit counter going back: reset");
	OK(rates_delta(10000000000ull, 5, 32, &d) == -1,
	   "a 'wrap' from above 2^32: reset");
	OK(rates_delta(SRC_NA, 5, 64, &d) == -1 &&
	   rates_delta(5, SRC_NA, 64, &d) == -1, "SRC_NA is unknown");
}

static void test_fixture_pair(double dt)
{
	struct raw_snapshot a = { 0 }, b = { 0 };
	struct sample out = { 0 };
	const double *v;
	char name[128];

	OK(load(FIXTURES "/root1", 100.0, &a) == 0 &&
	   load(FIXTURES "/root2", 100.0 + dt, &b) == 0, "load root1, root2");
	OK(rates_compute(&a, &b, &out) == 0, "rates_compute root1->root2");
	snprintf(name, sizeof(name), "(dt=%g) ", dt);

	/* CPU: shares do not depend on dt */
	v = vals(&out, OBJ_PROCESSOR, "_Total");
	EQ_DBL(v[0], 35.0, TOL, "_Total % Processor Time = (200-120-10)/200");
	EQ_DBL(v[1], 25.0, TOL, "_Total % User Time = (40+10)/200");
	EQ_DBL(v[2], 9.0, TOL, "_Total % Privileged Time = (15+1+2)/200");
	EQ_DBL(v[3], 5.0, TOL, "_Total % IOWait Time = 10/200");
	v = vals(&out, OBJ_PROCESSOR, "0");
	EQ_DBL(v[0], 55.0, TOL, "cpu0 busy: steal counts as busy");
	EQ_DBL(v[2], 13.0, TOL, "cpu0 privileged: system+irq+softirq");
	v = vals(&out, OBJ_PROCESSOR, "1");
	EQ_DBL(v[0], 15.0, TOL, "cpu1 busy");
	EQ_DBL(v[1], 10.0, TOL, "cpu1 user");

	/* disks */
	v = vals(&out, OBJ_LOGICALDISK, "sda");
	EQ_DBL(v[0], 40.0 / dt, TOL, "sda % Disk Time = 400 ms busy");
	EQ_DBL(v[1], 2048 * 512 / dt, TOL, "sda read bytes/s");
	EQ_DBL(v[2], 1024 * 512 / dt, TOL, "sda write bytes/s");
	EQ_DBL(v[3], 100 / dt, TOL, "sda reads/s");
	EQ_DBL(v[4], 50 / dt, TOL, "sda writes/s");
	EQ_DBL(v[5], 0.003, TOL, "sda sec/transfer = 450 ms / 150 ios");
	EQ_DBL(v[6], 0.45 / dt, TOL, "sda queue = 450 ms / 1000 ms");
	EQ_DBL(v[7], 0.003, TOL, "sda sec/read = 300 ms / 100 reads");
	EQ_DBL(v[8], 0.003, TOL, "sda sec/write = 150 ms / 50 writes");
	EQ_DBL(v[9], 0, 0, "sda current queue length = field 9 at cur");
	v = vals(&out, OBJ_LOGICALDISK, "sdb");
	EQ_DBL(v[0], 10.0 / dt, TOL, "sdb busy");
	EQ_DBL(v[5], 0.002, TOL, "sdb sec/transfer");
	v = vals(&out, OBJ_LOGICALDISK, "_Total");
	EQ_DBL(v[0], 25.0 / dt, TOL, "_Total busy = mean of sda, sdb");
	EQ_DBL(v[1], (2048 + 160) * 512 / dt, TOL,
	       "_Total read bytes: sda+sdb only (no sda1, dm-0, bcache0)");
	EQ_DBL(v[2], (1024 + 80) * 512 / dt, TOL, "_Total write bytes");
	EQ_DBL(v[3], 120 / dt, TOL, "_Total reads/s");
	EQ_DBL(v[4], 60 / dt, TOL, "_Total writes/s");
	EQ_DBL(v[5], 0.51 / 180, TOL, "_Total sec/transfer = 510 ms / 180");
	EQ_DBL(v[6], 0.51 / dt, TOL, "_Total queue = sum");
	EQ_DBL(v[7], 0.34 / 120, TOL, "_Total sec/read = 340 ms / 120");
	EQ_DBL(v[8], 0.17 / 60, TOL, "_Total sec/write = 170 ms / 60");
	v = vals(&out, OBJ_LOGICALDISK, "loop0");
	EQ_DBL(v[5], 0.0, 0, "idle device: sec/transfer 0");
	EQ_DBL(v[0], 0.0, 0, "idle device: 0% busy");
	OK(sample_find(&out, OBJ_LOGICALDISK, "dm-0") &&
	   sample_find(&out, OBJ_LOGICALDISK, "sda1"),
	   "dm and partitions have their own instances");

	/* memory */
	v = vals(&out, OBJ_MEMORY, "");
	EQ_DBL(v[0], 1900000.0 * 1024, 0, "Available Bytes gauge at cur");
	EQ_DBL(v[1], 1100000.0 * 1024, 0, "Cache Bytes gauge at cur");
	EQ_DBL(v[2], 30 / dt, TOL, "Pages/sec = swap in + out (not pgpgin)");
	EQ_DBL(v[3], 5000 / dt, TOL, "Page Faults/sec");
	EQ_DBL(v[4], 10 / dt, TOL, "Pages Input/sec");
	EQ_DBL(v[5], 20 / dt, TOL, "Pages Output/sec");
	EQ_DBL(v[6], 7 / dt, TOL, "Page Reads/sec = major faults");

	/* network */
	v = vals(&out, OBJ_NETWORK, "eth0");
	EQ_DBL(v[0], 375000 / dt, TOL, "eth0 bytes total");
	EQ_DBL(v[1], 125000 / dt, TOL, "eth0 received");
	EQ_DBL(v[2], 250000 / dt, TOL, "eth0 sent");
	EQ_DBL(v[3], 300 / dt, TOL, "eth0 packets");
	EQ_DBL(v[4], 1e9, 0, "eth0 bandwidth");
	EQ_DBL(v[5] + v[6] + v[7] + v[8], 0, 0, "eth0 no errors, no drops");
	EQ_DBL(vals(&out, OBJ_NETWORK, "eth1")[4], NAN, 0, "eth1 bw unknown");
	EQ_DBL(vals(&out, OBJ_NETWORK, "lo")[0], 20000 / dt, TOL, "lo bytes");
	v = vals(&out, OBJ_NETWORK, "_Total");
	EQ_DBL(v[0], 376000 / dt, TOL, "_Total: no lo, no type-772 vlo");
	EQ_DBL(v[1], 126000 / dt, TOL, "_Total received");
	EQ_DBL(v[3], 310 / dt, TOL, "_Total packets");
	EQ_DBL(v[4], 1e9, 0, "_Total bandwidth = sum of known speeds");

	/* system */
	v = vals(&out, OBJ_SYSTEM, "");
	EQ_DBL(v[0], 3, 0, "queue length = procs_running 4 - 1");
	EQ_DBL(v[1], 2500 / dt, TOL, "context switches/s");

	OK(!sample_find(&out, OBJ_PRESSURE, "cpu"),
	   "no pressure files: no Pressure instance (not offered, not 0)");
	v = vals(&out, OBJ_TCP, "");
	OK(isnan(v[0]) && isnan(v[1]) && isnan(v[2]),
	   "no snmp: TCP present and unknown");
	EQ_INT(out.n, 3 + 7 + 1 + 6 + 1 + 1, name);
	sample_free(&out);
	snapshot_free(&a);
	snapshot_free(&b);
}

/* root3a -> root3b: a 32-bit kernel, one second. */
static void test_wraps(void)
{
	struct raw_snapshot a = { 0 }, b = { 0 };
	struct sample out = { 0 };
	const double *v;

	OK(load(FIXTURES "/root3a", 10.0, &a) == 0 &&
	   load(FIXTURES "/root3b", 11.0, &b) == 0, "load root3a, root3b");
	OK(rates_compute(&a, &b, &out) == 0, "rates_compute across wraps");
	v = vals(&out, OBJ_LOGICALDISK, "sda");
	EQ_DBL(v[1], 1296 * 512, TOL, "32-bit kernel: read sectors wrapped");
	EQ_DBL(v[3], 100, TOL, "reads without wrap");
	EQ_DBL(v[4], 30, TOL, "writes");
	EQ_DBL(v[2], 200 * 512, TOL, "write sectors");
	EQ_DBL(v[0], 100, TOL, "1000 ms busy");
	EQ_DBL(v[5], 0.2 / 130, TOL, "sec/transfer");
	EQ_DBL(v[6], 0.5, TOL, "queue");
	EQ_DBL(v[9], 1, 0, "one request in flight");
	v = vals(&out, OBJ_LOGICALDISK, "sdc");
	EQ_DBL(v[0], 100, TOL, "io_ticks (32-bit ms) wrapped: 1000 ms busy");
	EQ_DBL(v[3], 10, TOL, "and its reads");
	v = vals(&out, OBJ_LOGICALDISK, "sdb");
	OK(isnan(v[1]) && isnan(v[3]) && isnan(v[2]) && isnan(v[0]),
	   "sectors from above 2^32 back to 5000: reset, every value unknown");
	v = vals(&out, OBJ_LOGICALDISK, "sdd");
	OK(isnan(v[1]) && isnan(v[3]) && isnan(v[0]) && isnan(v[6]),
	   "reads, sectors and ms all back at once: a reset, not 4 wraps");
	v = vals(&out, OBJ_LOGICALDISK, "_Total");
	EQ_DBL(v[1], NAN, 0, "_Total read bytes unknown when a member is");
	EQ_DBL(vals(&out, OBJ_NETWORK, "eth0")[1], 1000, TOL,
	       "32-bit kernel: interface bytes wrapped");
	EQ_DBL(vals(&out, OBJ_NETWORK, "eth0")[3], 11, TOL, "its packets");
	v = vals(&out, OBJ_PROCESSOR, "0");
	EQ_DBL(v[0], 100.0 * 70 / 98, TOL,
	       "iowait stepping back counts 0, not a wrap");
	EQ_DBL(v[3], 0, 0, "iowait share 0");
	sample_free(&out);
	snapshot_free(&a);
	snapshot_free(&b);
}

/* No value may exceed what the device could do: the numbers were
 * 8.6e9 B/s on a veth and 2e12 B/s on a disk. */
static int bounded(const double *v, int n, double max)
{
	for (int i = 0; i < n; i++)
		if (!isnan(v[i]) && v[i] > max)
			return 0;
	return 1;
}

/* root7a -> root7b: a 64-bit kernel; devices reset and replaced under the
 * same name within one interval. */
static void test_resets(void)
{
	struct raw_snapshot a = { 0 }, b = { 0 };
	struct sample out = { 0 };
	const double *v;

	OK(load(FIXTURES "/root7a", 10.0, &a) == 0 &&
	   load(FIXTURES "/root7b", 11.0, &b) == 0, "load root7a, root7b");
	OK(rates_compute(&a, &b, &out) == 0, "rates_compute across resets");
	v = vals(&out, OBJ_NETWORK, "veth0");
	OK(isnan(v[0]) && isnan(v[1]) && isnan(v[2]) && isnan(v[3]),
	   "veth made again (counters back, both below 2^32): unknown, "
	   "not a 32-bit wrap");
	OK(bounded(v, 9, 1e9), "veth0: nothing near 8.6e9 B/s");
	v = vals(&out, OBJ_NETWORK, "veth1");
	OK(isnan(v[0]) && isnan(v[3]),
	   "veth1 replaced with higher counters (ifindex 7 -> 9): unknown");
	v = vals(&out, OBJ_NETWORK, "_Total");
	OK(isnan(v[0]), "network _Total unknown that interval");
	v = vals(&out, OBJ_NETWORK, "eth0");
	EQ_DBL(v[0], 375000, TOL, "eth0 beside them: known");
	EQ_DBL(v[5], 2, TOL, "Packets Received Errors/sec");
	EQ_DBL(v[6], 1, TOL, "Packets Outbound Errors/sec");
	EQ_DBL(v[7], 3, TOL, "Packets Received Discarded/sec");
	EQ_DBL(v[8], 4, TOL, "Packets Outbound Discarded/sec");
	v = vals(&out, OBJ_LOGICALDISK, "sdb");
	OK(isnan(v[1]) && isnan(v[6]) && isnan(v[0]),
	   "disk reset (every counter back): unknown");
	OK(bounded(v, 10, 1e9), "sdb: no 2e12 B/s, no queue of 4e6");
	v = vals(&out, OBJ_LOGICALDISK, "_Total");
	OK(isnan(v[1]) && isnan(v[6]), "and so is LogicalDisk(_Total)");
	OK(bounded(v, 10, 1e9), "_Total: nothing huge either");
	v = vals(&out, OBJ_LOGICALDISK, "sdd");
	OK(isnan(v[3]),
	   "64-bit kernel: reads going back alone (100 -> 50) is a reset");
	v = vals(&out, OBJ_LOGICALDISK, "sdc");
	EQ_DBL(v[0], 100, TOL,
	       "64-bit kernel: io_ticks (printed as unsigned int) still wraps");
	v = vals(&out, OBJ_LOGICALDISK, "dm-1");
	OK(isnan(v[3]) && isnan(v[1]),
	   "dm-1 now 253:7, was 253:1 (counters went up): unknown");
	v = vals(&out, OBJ_LOGICALDISK, "sda");
	EQ_DBL(v[7], 0.003, TOL, "sda sec/read 300 ms / 100");
	EQ_DBL(v[8], 0.003, TOL, "sda sec/write 150 ms / 50");
	EQ_DBL(v[9], 3, 0, "sda current queue length 3");

	v = vals(&out, OBJ_PRESSURE, "cpu");
	EQ_DBL(v[0], 25, TOL, "Pressure(cpu) some: 250000 us of 1 s");
	EQ_DBL(v[1], NAN, 0, "Pressure(cpu) full: unknown (undefined)");
	v = vals(&out, OBJ_PRESSURE, "io");
	EQ_DBL(v[0], 10, TOL, "Pressure(io) some 10%");
	EQ_DBL(v[1], 5, TOL, "Pressure(io) full 5%");
	v = vals(&out, OBJ_PRESSURE, "memory");
	EQ_DBL(v[0], 0, 0, "Pressure(memory) 0%: there, and zero");
	v = vals(&out, OBJ_TCP, "");
	EQ_DBL(v[0], 800, TOL, "TCP Segments Sent/sec");
	EQ_DBL(v[1], 500, TOL, "TCP Segments Received/sec");
	EQ_DBL(v[2], 5, TOL, "TCP Segments Retransmitted/sec");
	sample_free(&out);
	snapshot_free(&a);
	snapshot_free(&b);
}

/* root8a -> root8b: a bond, a bridge, a VLAN, tunnels over the NICs. */
static void test_net_total(void)
{
	struct raw_snapshot a = { 0 }, b = { 0 };
	struct sample out = { 0 };
	const double *v;

	OK(load(FIXTURES "/root8a", 10.0, &a) == 0 &&
	   load(FIXTURES "/root8b", 11.0, &b) == 0, "load root8a, root8b");
	OK(rates_compute(&a, &b, &out) == 0, "rates_compute root8");
	v = vals(&out, OBJ_NETWORK, "_Total");
	EQ_DBL(v[1], 1111110, TOL,
	       "_Total received: NICs, slaves, ports, veth, tap, wwan once");
	EQ_DBL(v[2], 2222220, TOL, "_Total sent: the same");
	EQ_DBL(v[3], 33333, TOL, "_Total packets");
	EQ_DBL(vals(&out, OBJ_NETWORK, "bond0")[1], 110000, TOL,
	       "bond0 keeps its own instance");
	sample_free(&out);
	snapshot_free(&a);
	snapshot_free(&b);
}

static void fill_disk(struct disk_raw *d, const char *name, int in_total,
		      uint64_t base)
{
	snprintf(d->name, sizeof(d->name), "%s", name);
	d->in_total = in_total;
	d->rd_ios = d->wr_ios = base;
	d->rd_sectors = d->wr_sectors = base * 8;
	d->rd_ticks = d->wr_ticks = d->io_ticks = d->time_in_queue = base;
}

static void test_synthetic(void)
{
	struct raw_snapshot a = { 0 }, b = { 0 };
	struct sample out = { 0 };
	struct cpu_raw *c;
	struct net_raw *n;

	snapshot_reset(&a);
	snapshot_reset(&b);
	a.mono = 5;
	b.mono = 5;
	OK(rates_compute(&a, &b, &out) == -1 && out.n == 0, "zero elapsed: -1");
	b.mono = 4;
	OK(rates_compute(&a, &b, &out) == -1, "negative elapsed: -1");
	b.mono = 7;

	/* instances that appear and vanish */
	fill_disk(snapshot_add_disk(&a), "old", 1, 100);
	fill_disk(snapshot_add_disk(&a), "sda", 0, 100);
	fill_disk(snapshot_add_disk(&b), "new", 1, 0);
	fill_disk(snapshot_add_disk(&b), "sda", 0, 300);
	/* CPU with no ticks elapsed, and a statgrab-like CPU (no irq...) */
	c = snapshot_add_cpu(&a);
	strcpy(c->name, "_Total");
	c->user = c->nice = c->system = c->idle = c->iowait = 10;
	c = snapshot_add_cpu(&b);
	strcpy(c->name, "_Total");
	c->user = c->nice = c->system = c->idle = c->iowait = 10;
	c = snapshot_add_cpu(&a);
	strcpy(c->name, "0");
	c->user = c->nice = c->system = c->idle = c->iowait = 10;
	c = snapshot_add_cpu(&b);
	strcpy(c->name, "0");
	c->user = 20, c->nice = 10, c->system = 20, c->idle = 20;
	c->iowait = 10;
	/* only a loopback interface */
	n = snapshot_add_net(&a);
	strcpy(n->name, "lo");
	n->is_loopback = 1;
	n->rx_bytes = n->tx_bytes = n->rx_packets = n->tx_packets = 0;
	n = snapshot_add_net(&b);
	strcpy(n->name, "lo");
	n->is_loopback = 1;
	n->rx_bytes = n->tx_bytes = n->rx_packets = n->tx_packets = 100;

	OK(rates_compute(&a, &b, &out) == 0, "synthetic compute");
	OK(!sample_find(&out, OBJ_LOGICALDISK, "new"),
	   "new instance: no values this interval");
	OK(!sample_find(&out, OBJ_LOGICALDISK, "old"),
	   "vanished instance absent");
	OK(!sample_find(&out, OBJ_LOGICALDISK, "_Total"),
	   "no _Total without a whole disk in both snapshots");
	EQ_DBL(vals(&out, OBJ_LOGICALDISK, "sda")[3], 100, TOL,
	       "sda reads over 2 s");
	EQ_DBL(vals(&out, OBJ_LOGICALDISK, "sda")[0], 10, TOL,
	       "sda busy 200 ms of 2 s");
	OK(isnan(vals(&out, OBJ_PROCESSOR, "_Total")[0]),
	   "no ticks elapsed: CPU unknown");
	EQ_DBL(vals(&out, OBJ_PROCESSOR, "0")[0], 100.0 * 20 / 30, TOL,
	   "irq/softirq/steal unknown count as 0 (statgrab)");
	OK(!sample_find(&out, OBJ_NETWORK, "_Total"),
	   "no network _Total with only loopback");
	EQ_DBL(vals(&out, OBJ_NETWORK, "lo")[0], 100, TOL, "lo 200 B over 2 s");
	OK(isnan(vals(&out, OBJ_MEMORY, "")[0]) &&
	   isnan(vals(&out, OBJ_MEMORY, "")[2]) &&
	   isnan(vals(&out, OBJ_SYSTEM, "")[0]) &&
	   isnan(vals(&out, OBJ_SYSTEM, "")[1]),
	   "Memory and System present, unknown without data");

	/* a second compute empties out first */
	OK(rates_compute(&a, &b, &out) == 0 && out.n ==
	   (size_t)(2 + 1 + 1 + 1 + 1 + 1), "out is emptied before filling");
	sample_free(&out);
	snapshot_free(&a);
	snapshot_free(&b);
}

int main(void)
{
	test_delta();
	test_fixture_pair(1.0);
	test_fixture_pair(2.0);
	test_wraps();
	test_resets();
	test_net_total();
	test_synthetic();
	return done_testing();
}
