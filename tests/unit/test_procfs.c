/*
 * test_procfs.c - the Linux source over the fixture trees of
 * tests/fixtures/proc (see its README.md), a generated tree with hundreds
 * of devices, and the live /proc of this machine.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../common/rmtree.h"
#include "../../sources/procfs_int.h"
#include "../../sources/source.h"
#include "procroot.h"
#include "tap.h"

#ifndef FIXTURES
#define FIXTURES "tests/fixtures/proc"
#endif


static int read_root(const char *root, struct raw_snapshot *s,
		     struct perr *e)
{
	struct procfs *p = procfs_open(root, e);
	int rc;

	if (!p)
		return -1;
	rc = procfs_read(p, s, e);
	procfs_close(p);
	return rc;
}

static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	int n = 0;

	if (!d)
		return -1;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			n++;
	closedir(d);
	return n - 1;	/* the DIR's own descriptor */
}

static void test_root1(void)
{
	struct raw_snapshot s = { 0 };
	struct perr e = { "" };
	const struct disk_raw *d;
	const struct net_raw *n;

	OK(read_root(FIXTURES "/root1", &s, &e) == 0, "root1 reads");
	EQ_STR(e.msg, "", "root1: no warning");
	EQ_INT(s.ncpus, 3, "root1: _Total + 2 CPUs");
	EQ_STR(s.cpus[0].name, "_Total", "cpus[0] is _Total");
	EQ_STR(s.cpus[2].name, "1", "cpus[2] is \"1\"");
	OK(s.cpus[0].user == 1000 && s.cpus[0].nice == 100 &&
	   s.cpus[0].system == 500 && s.cpus[0].idle == 8000 &&
	   s.cpus[0].iowait == 200 && s.cpus[0].irq == 10 &&
	   s.cpus[0].softirq == 20 && s.cpus[0].steal == 30,
	   "all 8 tick fields of the cpu line");
	OK(s.mono > 0, "stamped with the monotonic clock");
	EQ_INT(s.sys.ctxt, 100000, "ctxt");
	EQ_DBL(s.sys.procs_running, 3, 0, "procs_running");

	EQ_INT(s.ndisks, 6, "all six block devices listed");
	d = snapshot_find_disk(&s, "sda");
	OK(d && d->in_total && d->rd_ios == 1000 && d->rd_sectors == 80000 &&
	   d->rd_ticks == 2000 && d->wr_ios == 500 && d->wr_sectors == 40000 &&
	   d->wr_ticks == 1500 && d->io_ticks == 3000 &&
	   d->time_in_queue == 3500 && d->in_flight == 0 &&
	   d->ident == ((uint64_t)8 << 32),
	   "sda: whole disk, fields 1,3,4,5,7,8,9,10,11, major:minor 8:0");
	OK(snapshot_find_disk(&s, "sdb") && snapshot_find_disk(&s, "sdb")->in_total, "sdb in _Total");
	OK(snapshot_find_disk(&s, "sda1") && !snapshot_find_disk(&s, "sda1")->in_total,
	   "partition sda1 (no sys/block entry) not in _Total");
	OK(snapshot_find_disk(&s, "dm-0") && !snapshot_find_disk(&s, "dm-0")->in_total, "dm-0 excluded");
	OK(snapshot_find_disk(&s, "loop0") && !snapshot_find_disk(&s, "loop0")->in_total, "loop0 excluded");
	OK(snapshot_find_disk(&s, "bcache0") && !snapshot_find_disk(&s, "bcache0")->in_total,
	   "bcache0 (has slaves) excluded");

	EQ_DBL(s.mem.available, 2000000.0 * 1024, 0, "MemAvailable in bytes");
	EQ_DBL(s.mem.cached, 1000000.0 * 1024, 0, "Cached in bytes");
	OK(s.mem.pswpin == 100 && s.mem.pswpout == 200 &&
	   s.mem.pgfault == 1000000 && s.mem.pgmajfault == 300,
	   "vmstat pswpin pswpout pgfault pgmajfault");

	EQ_INT(s.nnets, 5, "five interfaces");
	n = snapshot_find_net(&s, "eth0");
	OK(n && n->rx_bytes == 1000000 && n->rx_packets == 1000 &&
	   n->tx_bytes == 2000000 && n->tx_packets == 1500 && !n->is_loopback,
	   "eth0 bytes and packets");
	EQ_DBL(n ? n->speed_bps : -1, 1e9, 0, "eth0 speed 1000 Mbit -> bits/s");
	EQ_DBL(snapshot_find_net(&s, "eth1")->speed_bps, NAN, 0, "speed -1 -> unknown");
	EQ_DBL(snapshot_find_net(&s, "dummy0")->speed_bps, NAN, 0, "no speed file -> unknown");
	OK(snapshot_find_net(&s, "lo")->is_loopback, "lo is loopback");
	OK(snapshot_find_net(&s, "vlo")->is_loopback, "type 772 is loopback");
	snapshot_free(&s);
}

static void test_root4_old_kernel(void)
{
	struct raw_snapshot s = { 0 };
	struct perr e = { "" };
	struct procfs *p = procfs_open(FIXTURES "/root4", &e);
	const struct disk_raw *d;

	OK(p != NULL, "root4 opens without proc/vmstat");
	if (!p)
		return;
	OK(procfs_read(p, &s, &e) == 0, "root4 reads");
	OK(strstr(e.msg, "root4/proc/vmstat") != NULL,
	   "missing vmstat reported with its path");
	e.msg[0] = '\0';
	OK(procfs_read(p, &s, &e) == 0 && e.msg[0] == '\0',
	   "reported once only");
	OK(s.cpus[0].irq == 10 && s.cpus[0].softirq == 20 &&
	   s.cpus[0].steal == SRC_NA, "7-field cpu line: steal unknown");
	EQ_DBL(s.sys.procs_running, NAN, 0, "no procs_running -> NAN");
	EQ_INT(s.sys.ctxt, 4000, "ctxt");
	EQ_INT(s.ndisks, 2, "3-field line skipped");
	d = snapshot_find_disk(&s, "hda");
	OK(d && d->rd_ios == 446216 && d->time_in_queue == 23705160 &&
	   d->in_total && d->in_flight == 0, "11-field diskstats line");
	d = snapshot_find_disk(&s, "hda1");
	OK(d && d->rd_ios == 35486 && d->rd_sectors == 38030 &&
	   d->wr_ios == 38030 && d->wr_sectors == 38030 &&
	   d->rd_ticks == SRC_NA && d->io_ticks == SRC_NA && !d->in_total &&
	   isnan(d->in_flight),
	   "4-field partition line: ios and sectors only");
	EQ_DBL(s.mem.available, NAN, 0, "no MemAvailable -> NAN");
	EQ_DBL(s.mem.cached, 300000.0 * 1024, 0, "Cached still read");
	OK(s.mem.pswpin == SRC_NA && s.mem.pgfault == SRC_NA,
	   "paging unknown without vmstat");
	EQ_DBL(snapshot_find_net(&s, "eth0")->speed_bps, NAN, 0, "no speed file");
	procfs_close(p);
	snapshot_free(&s);
}

static void test_root6_garbage(void)
{
	struct raw_snapshot s = { 0 };
	struct perr e = { "" };

	OK(read_root(FIXTURES "/root6", &s, &e) == 0, "garbage tree reads");
	EQ_INT(s.ncpus, 3, "good cpu lines kept, bad ones skipped");
	EQ_STR(s.cpus[0].name, "_Total", "_Total first though listed second");
	OK(s.cpus[0].user == 10 && s.cpus[0].steal == 80, "total filled");
	EQ_STR(s.cpus[1].name, "0", "cpu0");
	EQ_STR(s.cpus[2].name, "4", "cpu4 (cpu1..3 malformed)");
	EQ_INT(s.sys.ctxt, 777, "ctxt after bad ctxt lines");
	EQ_DBL(s.sys.procs_running, 2, 0, "procs_running, no final newline");
	EQ_INT(s.ndisks, 2, "only the two valid diskstats lines");
	OK(snapshot_find_disk(&s, "sdq") && snapshot_find_disk(&s, "sdq")->time_in_queue == 11 &&
	   !snapshot_find_disk(&s, "sdq")->in_total, "sdq parsed, no sys/block -> not total");
	OK(snapshot_find_disk(&s, "sdt") && snapshot_find_disk(&s, "sdt")->io_ticks == 10,
	   "over-long line: first 17 fields");
	EQ_DBL(s.mem.available, NAN, 0, "bad MemAvailable skipped");
	EQ_DBL(s.mem.cached, 12288, 0, "Cached parsed");
	OK(s.mem.pswpin == SRC_NA && s.mem.pswpout == SRC_NA &&
	   s.mem.pgfault == 12 && s.mem.pgmajfault == SRC_NA,
	   "bad vmstat values skipped, overflow rejected");
	EQ_INT(s.nnets, 1, "one valid interface line");
	OK(snapshot_find_net(&s, "eth9") && snapshot_find_net(&s, "eth9")->rx_bytes == 1 &&
	   snapshot_find_net(&s, "eth9")->tx_packets == 10, "no blank after the colon");
	snapshot_free(&s);
}

static void test_root3_bits(void)
{
	struct raw_snapshot s = { 0 };
	struct perr e = { "" };

	OK(read_root(FIXTURES "/root3a", &s, &e) == 0, "root3a reads");
	EQ_INT(s.kernel_bits, 32, "proc/sys/kernel/arch i686: a 32-bit kernel");
	OK(read_root(FIXTURES "/root7a", &s, &e) == 0, "root7a reads");
	EQ_INT(s.kernel_bits, 64, "x86_64: a 64-bit kernel");
	EQ_INT(source_kernel_bits("aarch64"), 64, "aarch64: 64");
	EQ_INT(source_kernel_bits("s390x"), 64, "s390x: 64");
	EQ_INT(source_kernel_bits("armv7l"), 32, "armv7l: 32");
	EQ_INT(source_kernel_bits(""), 0, "unknown: 0");
	snapshot_free(&s);
}

/* root7a: the new files (pressure, snmp) and fields (in flight, errors,
 * drops, identities). */
static void test_root7_new_fields(void)
{
	struct raw_snapshot s = { 0 };
	struct perr e = { "" };
	const struct net_raw *n;
	const struct disk_raw *d;

	OK(read_root(FIXTURES "/root7b", &s, &e) == 0, "root7b reads");
	EQ_STR(e.msg, "", "root7b: no warning");
	OK(s.psi[PSI_CPU].present && s.psi[PSI_CPU].some_us == 1250000 &&
	   s.psi[PSI_CPU].full_us == SRC_NA,
	   "pressure/cpu: some total; system-wide cpu full is undefined");
	OK(s.psi[PSI_IO].present && s.psi[PSI_IO].some_us == 2100000 &&
	   s.psi[PSI_IO].full_us == 1050000, "pressure/io: some and full");
	OK(s.psi[PSI_MEMORY].present && s.psi[PSI_MEMORY].full_us == 100,
	   "pressure/memory");
	OK(s.tcp.in_segs == 1500 && s.tcp.out_segs == 2800 &&
	   s.tcp.retrans_segs == 15,
	   "snmp Tcp InSegs OutSegs RetransSegs (by name; MaxConn -1)");
	n = snapshot_find_net(&s, "eth0");
	OK(n && n->rx_errs == 5 && n->rx_drop == 10 && n->tx_errs == 2 &&
	   n->tx_drop == 6, "net/dev errs and drop, both ways");
	OK(n && n->ident == 2, "eth0 ident = its ifindex");
	d = snapshot_find_disk(&s, "sda");
	EQ_DBL(d ? d->in_flight : -1, 3, 0, "diskstats field 9: in flight");
	d = snapshot_find_disk(&s, "dm-1");
	OK(d && d->ident == ((uint64_t)253 << 32 | 7), "dm-1 is 253:7");
	OK(read_root(FIXTURES "/root1", &s, &e) == 0 &&
	   !s.psi[0].present && !s.psi[1].present && !s.psi[2].present &&
	   s.tcp.in_segs == SRC_NA && e.msg[0] == '\0',
	   "no pressure, no snmp: not offered, nothing reported");
	snapshot_free(&s);
}

/* root8: which interfaces make Network Interface(_Total). */
static void test_root8_stacking(void)
{
	static const char *const in[] = { "eth0", "eth1", "eth2", "veth1",
					   "tap0", "wwan0" };
	static const char *const out[] = { "lo", "bond0", "br0", "eth0.100",
		"vx0", "gre1", "tun0", "wg0", "ppp0" };
	struct raw_snapshot s = { 0 };
	struct perr e = { "" };
	char name[96];

	OK(read_root(FIXTURES "/root8b", &s, &e) == 0, "root8b reads");
	EQ_INT(s.nnets, 15, "15 interfaces");
	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		const struct net_raw *n = snapshot_find_net(&s, in[i]);

		snprintf(name, sizeof(name), "%s counts in _Total", in[i]);
		OK(n && n->in_total, name);
	}
	for (size_t i = 0; i < sizeof(out) / sizeof(out[0]); i++) {
		const struct net_raw *n = snapshot_find_net(&s, out[i]);

		snprintf(name, sizeof(name), "%s does not", out[i]);
		OK(n && !n->in_total, name);
	}
	snapshot_free(&s);
}

/* The pressure file format, for the system and for cgroups. */
static void test_psi_files(void)
{
	struct psi_raw r;
	struct perr e = { "" };

	OK(psi_read_file(FIXTURES "/psi/cpu.pressure", &r, &e) == 0 &&
	   r.present && r.some_us == 123456 && r.full_us == 7890,
	   "a cgroup's cpu.pressure: some and full (5.13+)");
	OK(psi_read_file(FIXTURES "/psi/cpu-4.20.pressure", &r, &e) == 0 &&
	   r.present && r.some_us == 42 && r.full_us == SRC_NA,
	   "cpu before 5.13: no full line, full unknown");
	OK(psi_read_file(FIXTURES "/psi/bad.pressure", &r, &e) == -1 &&
	   !r.present && strstr(e.msg, "bad.pressure"),
	   "no valid some line: an error naming the file");
	OK(psi_read_file(FIXTURES "/psi/missing", &r, &e) == -1 &&
	   strstr(e.msg, "unable to read") && !r.present,
	   "missing file: an error");
	{
		static const char big[] =
			"some total=5\nfull total=18446744073709551616\n";
		static const char cut[] = "some avg10=1 total=9123";

		OK(psi_parse(big, strlen(big), &r) == 0 && r.some_us == 5 &&
		   r.full_us == SRC_NA, "an overflowing total is unknown");
		OK(psi_parse(cut, 20, &r) == 0 && r.some_us == 9,
		   "no final newline, length-bounded");
	}
}

/* root5: 300 disks (every other one a whole disk), 300 interfaces with
 * speed files, a 1 MB intr line before ctxt. */
static void gen_root5(const char *root, int ndisk, int first, int nif)
{
	size_t cap = 1 << 21, len = 0;
	char *b = malloc(cap), rel[256];

	len += (size_t)snprintf(b, cap, "cpu  1 2 3 4 5 6 7 8 0 0\n"
				"cpu0 1 2 3 4 5 6 7 8 0 0\nintr 1");
	while (len < 1000000)
		len += (size_t)snprintf(b + len, cap - len, " 1234567");
	snprintf(b + len, cap - len, "\nctxt 42\nprocs_running 7\n");
	root_write(root, "proc/stat", b);

	len = 0;
	for (int i = first; i < first + ndisk; i++) {
		len += (size_t)snprintf(b + len, cap - len,
			"8 %d sd%d 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17\n",
			i, i);
		if (i % 2 == 0) {
			snprintf(rel, sizeof(rel), "sys/block/sd%d/size", i);
			root_write(root, rel, "1\n");
		}
	}
	root_write(root, "proc/diskstats", b);

	len = (size_t)snprintf(b, cap, "Inter-|\n face |\n");
	for (int i = 0; i < nif; i++) {
		len += (size_t)snprintf(b + len, cap - len,
			"veth%d: %d 2 0 0 0 0 0 0 %d 4 0 0 0 0 0 0\n", i, i, i);
		snprintf(rel, sizeof(rel), "sys/class/net/veth%d/speed", i);
		root_write(root, rel, "10000\n");
	}
	root_write(root, "proc/net/dev", b);
	root_write(root, "proc/meminfo", "MemAvailable: 1 kB\n");
	root_write(root, "proc/vmstat", "pgfault 1\n");
	free(b);
}

static void test_root5_many(void)
{
	char root[] = "/tmp/perflog-procfs-XXXXXX";
	struct raw_snapshot s = { 0 };
	struct perr e = { "" };
	struct procfs *p;
	int fds0 = count_fds(), fds1, fds2;
	int in_total = 0;

	if (!mkdtemp(root)) {
		OK(0, "mkdtemp");
		return;
	}
	gen_root5(root, 300, 0, 300);
	p = procfs_open(root, &e);
	OK(p != NULL, "root5 opens");
	if (!p)
		return;
	OK(procfs_read(p, &s, &e) == 0, "root5 reads");
	EQ_INT(s.sys.ctxt, 42, "ctxt after a 1 MB line");
	EQ_DBL(s.sys.procs_running, 7, 0, "procs_running after it");
	EQ_INT(s.ndisks, 300, "300 disks");
	EQ_INT(s.nnets, 300, "300 interfaces");
	for (size_t i = 0; i < s.ndisks; i++)
		in_total += s.disks[i].in_total;
	EQ_INT(in_total, 150, "150 whole disks");
	EQ_DBL(snapshot_find_net(&s, "veth299")->speed_bps, 1e10, 0,
	       "speed of the 300th interface (past the kept-fd cap)");
	OK(snapshot_find_net(&s, "veth299")->rx_bytes == 299, "its bytes");
	fds1 = count_fds();
	OK(fds1 - fds0 <= 5 + 128, "speed descriptors capped at 128");
	OK(procfs_read(p, &s, &e) == 0 && s.nnets == 300 &&
	   count_fds() == fds1, "second read: same descriptors");

	/* devices come and go: 150 disks vanish and 20 appear, 290 of the
	 * interfaces vanish */
	gen_root5(root, 170, 150, 10);
	OK(procfs_read(p, &s, &e) == 0, "read after the change");
	EQ_INT(s.ndisks, 170, "170 disks now");
	OK(snapshot_find_disk(&s, "sd318") && snapshot_find_disk(&s, "sd318")->in_total &&
	   snapshot_find_disk(&s, "sd319") && !snapshot_find_disk(&s, "sd319")->in_total,
	   "new disks classified");
	OK(!snapshot_find_disk(&s, "sd0"), "vanished disk gone");
	EQ_INT(s.nnets, 10, "10 interfaces now");
	fds2 = count_fds();
	OK(fds2 - fds0 == 5 + 10, "vanished interfaces released their fds");
	procfs_close(p);
	EQ_INT(count_fds(), fds0, "close releases every descriptor");
	snapshot_free(&s);
	OK(rmtree(root) == 0, "scratch tree removed");
}

/* Random token soup in every file: the parsers must skip it, never crash
 * (ASan and UBSan watch), and keep the invariants callers rely on. */
static void test_random(void)
{
	static const char *const files[] = { "proc/stat", "proc/diskstats",
		"proc/meminfo", "proc/vmstat", "proc/net/dev", "proc/net/snmp",
		"proc/pressure/cpu", "proc/pressure/io" };
	static const char *const tokens[] = { "cpu", "cpu0", "cpu ", " ", "\n",
		":", "|", "-1", "0", "18446744073709551615",
		"18446744073709551616", "4294967295", "sda", "lo", "kB", "ctxt",
		"procs_running", "MemAvailable:", "Cached:", "pswpin", "pgfault",
		"\t", "RANDOM", "8", "eth0:", "Tcp:", "InSegs", "some", "full",
		"total=", "total=12", "" };
	char root[] = "/tmp/perflog-procfs-XXXXXX";
	char *buf = malloc(1 << 16);
	struct raw_snapshot s = { 0 };
	struct perr e;
	int ok = 1;

	if (!mkdtemp(root) || !buf) {
		OK(0, "mkdtemp");
		free(buf);
		return;
	}
	srand(7);
	for (int iter = 0; iter < 300; iter++) {
		struct procfs *p;

		for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
			size_t len = 0;
			int n = rand() % 400;

			for (int t = 0; t < n && len < 60000; t++) {
				const char *tok = tokens[rand() % (int)(
					sizeof(tokens) / sizeof(tokens[0]))];

				if (strcmp(tok, "RANDOM") == 0)
					buf[len++] = (char)(rand() % 255 + 1);
				else
					len += (size_t)snprintf(buf + len, 64,
								"%s", tok);
				if (rand() % 3 == 0)
					buf[len++] = ' ';
			}
			buf[len] = '\0';
			root_write(root, files[f], buf);
		}
		p = procfs_open(root, &e);
		if (!p || procfs_read(p, &s, &e) != 0) {
			ok = 0;
			procfs_close(p);
			break;
		}
		if (s.ncpus > 0 && strcmp(s.cpus[0].name, "_Total"))
			ok = 0;
		procfs_close(p);
	}
	OK(ok, "300 random trees read without crash, cpus[0] always _Total");
	snapshot_free(&s);
	free(buf);
	OK(rmtree(root) == 0, "scratch tree removed");
}

/* vmstat is read by its first page (procfs_int.h PROCFS_FIRST_PAGE):
 * a read that fills the buffer is no page of whole lines, so a file
 * longer than the buffer is read on; pgfault's line straddles the
 * buffer's edge (its first read returns PROCFS_BUF_INIT - 1 bytes) and
 * is read whole, not as its first digits. */
static void test_vmstat_long(void)
{
	char root[] = "/tmp/perflog-procfs-XXXXXX";
	/* where pgfault's line starts: the first read ends 12 bytes in */
	size_t cap = 2 * PROCFS_BUF_INIT, edge = PROCFS_BUF_INIT - 1 - 12, len;
	char *b = malloc(cap);
	struct raw_snapshot s = { 0 };

	if (!b || !mkdtemp(root)) {
		OK(0, "mkdtemp");
		free(b);
		return;
	}
	root_write(root, "proc/stat", "cpu  1 2 3 4 5 6 7 8 0 0\n");
	len = (size_t)snprintf(b, cap, "pswpin 11\npswpout 22\npgmajfault 44\n");
	while (len + 36 <= edge - 10)	/* lines of 36 bytes */
		len += (size_t)snprintf(b + len, cap - len, "nr_x %30d\n", 1);
	memset(b + len, 'z', edge - 1 - len);	/* one line up to the edge */
	b[edge - 1] = '\n';
	snprintf(b + edge, cap - edge, "pgfault 33333333333\nnr_y 1\n");
	root_write(root, "proc/vmstat", b);
	OK(load(root, 1, &s) == 0, "vmstat past the buffer: read");
	OK(s.mem.pswpin == 11 && s.mem.pswpout == 22 &&
	   s.mem.pgfault == 33333333333ULL && s.mem.pgmajfault == 44,
	   "vmstat past the buffer: a line at its edge read whole");
	if (s.mem.pgfault != 33333333333ULL)
		printf("# pgfault %llu\n", (unsigned long long)s.mem.pgfault);
	snapshot_free(&s);
	free(b);
	if (rmtree(root) != 0)
		printf("# could not remove %s\n", root);
}

static void test_live(void)
{
	struct raw_snapshot s = { 0 };
	struct perr e = { "" };
	struct procfs *p = procfs_open("/", &e);
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);

	OK(p != NULL, "live / opens");
	if (!p)
		return;
	OK(procfs_read(p, &s, &e) == 0, "live read");
	OK(s.ncpus >= 2 && (long)s.ncpus - 1 <= ncpu,
	   "live: _Total plus online CPUs");
	OK(s.sys.ctxt != SRC_NA && s.sys.procs_running >= 1,
	   "live: ctxt and procs_running (this process runs)");
	OK(!isnan(s.mem.cached) && s.mem.pgfault != SRC_NA, "live: memory");
	OK(s.mem.pswpin != SRC_NA && s.mem.pswpout != SRC_NA &&
	   s.mem.pgmajfault != SRC_NA, "live: vmstat's four from its first page");
	OK(snapshot_find_net(&s, "lo") && snapshot_find_net(&s, "lo")->is_loopback, "live: lo");
	OK(!snapshot_find_net(&s, "lo")->in_total, "live: lo not in _Total");
	OK(s.tcp.in_segs != SRC_NA && s.tcp.out_segs != SRC_NA,
	   "live: Tcp segments from proc/net/snmp");
	OK(s.kernel_bits == 32 || s.kernel_bits == 64, "live: kernel word size");
	if (access("/proc/pressure/io", R_OK) == 0)
		OK(s.psi[PSI_IO].present && s.psi[PSI_IO].some_us != SRC_NA &&
		   s.psi[PSI_CPU].full_us == SRC_NA, "live: pressure");
	else
		OK(!s.psi[PSI_IO].present, "live: no PSI here, not offered");
	for (int i = 0; i < 50; i++)
		procfs_read(p, &s, &e);
	OK(s.ncpus >= 2, "50 more reads");
	procfs_close(p);
	snapshot_free(&s);
}

static void test_errors(void)
{
	struct perr e = { "" };

	OK(procfs_open("/nonexistent-perflog-root", &e) == NULL &&
	   strstr(e.msg, "/nonexistent-perflog-root/proc/stat"),
	   "missing root: error names proc/stat");
}

int main(void)
{
	test_root1();
	test_root4_old_kernel();
	test_root6_garbage();
	test_root3_bits();
	test_root7_new_fields();
	test_root8_stacking();
	test_psi_files();
	test_root5_many();
	test_random();
	test_vmstat_long();
	test_live();
	test_errors();
	return done_testing();
}
