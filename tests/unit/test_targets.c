/*
 * test_targets.c - where backups land: the NFS, CIFS, tape and FC
 * sources read from fixture roots (tests/fixtures/targets, README there
 * says where each file's shape comes from) and their rates against
 * hand-computed values: t1 -> t2 (known deltas over 1 s), t2 -> t3
 * (remounts, a reset cifs/Stats, a tape driver reloaded, FC statistics
 * reset, mounts and drives gone and new), k50 (a 5.0 kernel: udp, no
 * per-op errors column), and synthetic snapshots.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../../common/rmtree.h"
#include "../../counters/rates.h"
#include "procroot.h"
#include "tap.h"

#ifndef FIXTURES
#define FIXTURES "tests/fixtures/targets"
#endif

#define TOL 1e-9


static const struct nfs_raw *nfs(const struct raw_snapshot *s, const char *n)
{
	for (size_t i = 0; i < s->nnfs; i++)
		if (!strcmp(s->nfs[i].name, n))
			return &s->nfs[i];
	printf("# mount '%s' missing\n", n);
	return NULL;
}

static void test_read(void)
{
	struct raw_snapshot s = { 0 };
	const struct nfs_raw *m;

	OK(load(FIXTURES "/t1", 0, &s) == 0, "t1 reads");
	EQ_INT(s.nnfs, 3, "t1: three NFS mounts (sysfs, proc, ext4 left out)");
	m = nfs(&s, "/mnt/backup");
	OK(m && m->sends == 2000 && m->bklog == 400,
	   "nconnect=4: sends and bklog_u summed over the four xprt lines");
	OK(m && m->app_rd == 1000000 && m->app_wr == 52000000 &&
	   m->srv_rd == 3000000 && m->srv_wr == 52000000,
	   "bytes: application = normal + direct, server as printed");
	OK(m && m->rd_ops == 100 && m->rd_trans == 100 && m->rd_rtt == 500 &&
	   m->rd_exec == 600 && m->wr_ops == 1000 && m->wr_trans == 1002 &&
	   m->wr_rtt == 20000 && m->wr_exec == 25000 && m->age == 1000,
	   "per-op READ and WRITE with the errors column, age");
	m = nfs(&s, "/srv/repo");
	OK(m && m->sends == 64 && m->bklog == 0 && m->wr_ops == 32,
	   "xprt: rdma (27 numbers): sends and bklog_u at the tcp places");
	OK(nfs(&s, "/mnt/my share") != NULL, "\\040 in a mount point is a space");
	EQ_INT(s.ncifs, 3, "three SMB shares");
	EQ_STR(s.cifs[0].name, "\\\\fs1\\backup", "a share is named \\\\server\\share");
	OK(s.cifs[0].smbs == 1200 && s.cifs[0].rd_bytes == 1048576 &&
	   s.cifs[0].wr_bytes == 67108864 && s.cifs[0].reconnects == 3,
	   "SMB3 share: SMBs, Bytes read/written; the host's reconnects 1 + 2");
	EQ_STR(s.cifs[1].name, "\\\\fs1\\scratch", "DISCONNECTED is not part of the name");
	OK(s.cifs[2].rd_bytes == 40960 && s.cifs[2].wr_bytes == 20480 &&
	   s.cifs[2].smbs == 40, "SMB1 share: Reads: N Bytes: M");
	EQ_INT(s.ntapes, 2, "st0 and st1 (the mode devices st0a, nst0 ... left out)");
	for (size_t i = 0; i < s.ntapes; i++)
		if (!strcmp(s.tapes[i].name, "st0"))
			OK(s.tapes[i].wr_bytes == 1073741824 &&
			   s.tapes[i].io_ns == 4500000000ull &&
			   s.tapes[i].in_flight == 0,
			   "st stats: %lld without a newline");
	EQ_INT(s.nfcs, 2, "two FC ports");
	for (size_t i = 0; i < s.nfcs; i++) {
		if (!strcmp(s.fcs[i].name, "host3"))
			OK(s.fcs[i].rx_words == 0x40000000 &&
			   s.fcs[i].since_reset == 86400,
			   "fc_host statistics: 0x%llx");
		if (!strcmp(s.fcs[i].name, "host4"))
			OK(s.fcs[i].invalid_crc == SRC_NA,
			   "a statistic the driver lacks (all ones) is unknown");
	}
	snapshot_free(&s);

	OK(load(FIXTURES "/k50", 0, &s) == 0, "k50 reads");
	EQ_INT(s.nnfs, 2, "k50: two mounts");
	m = nfs(&s, "/backup/v3");
	OK(m && m->sends == 60 && m->bklog == 30,
	   "xprt: udp: sends and bklog_u at their own places");
	OK(m && m->rd_ops == 2 && m->rd_trans == 3 && m->rd_rtt == 9 &&
	   m->rd_exec == 11 && m->wr_exec == 30,
	   "per-op lines without the errors column (before 5.1)");
	m = nfs(&s, "/backup/logs");
	OK(m && m->sends == 5 && m->bklog == 2 && m->wr_ops == 5 &&
	   m->rd_ops == SRC_NA, "a mount without a READ line: READ unknown");
	snapshot_free(&s);

	OK(load("tests/fixtures/proc/root1", 0, &s) == 0 && s.nnfs == 0 &&
	   s.ncifs == 0 && s.ntapes == 0 && s.nfcs == 0,
	   "a root without them: no instances (absent, not zero)");
	snapshot_free(&s);
}

static void test_rates(void)
{
	struct raw_snapshot a = { 0 }, b = { 0 }, c = { 0 };
	struct sample out = { 0 };
	const double *v;

	if (load(FIXTURES "/t1", 0, &a) || load(FIXTURES "/t2", 1, &b) ||
	    load(FIXTURES "/t3", 2, &c)) {
		OK(0, "fixtures load");
		return;
	}
	OK(rates_compute(&a, &b, &out) == 0, "t1 -> t2");
	v = vals(&out, OBJ_NFS, "/mnt/backup");
	/* bytes: (1100000 + 24576) - 1000000; (60000000 + 2000000) -
	 * (50000000 + 2000000); server +262144, +10485760 */
	EQ_DBL(v[0], 124576, TOL, "NFS app read B/s (normal + direct)");
	EQ_DBL(v[1], 10000000, TOL, "NFS app write B/s");
	EQ_DBL(v[2], 262144, TOL, "NFS server read B/s (read-ahead shows)");
	EQ_DBL(v[3], 10485760, TOL, "NFS server write B/s");
	EQ_DBL(v[4], 4, TOL, "READ ops/s");
	EQ_DBL(v[5], 10, TOL, "WRITE ops/s");
	EQ_DBL(v[6], 10, TOL, "RTT ms/read: +40 ms over +4 reads");
	EQ_DBL(v[7], 25, TOL, "RTT ms/write: +250 ms over +10 writes");
	EQ_DBL(v[8], 12, TOL, "execute ms/read: +48 / 4");
	EQ_DBL(v[9], 200, TOL, "execute ms/write: +2000 / 10");
	EQ_DBL(v[10], 3, TOL, "retransmissions/s: (5 - 4) + (12 - 10)");
	EQ_DBL(v[11], 2, TOL, "backlog per send: +32 bklog_u over +16 sends "
	       "(no division by the interval)");
	v = vals(&out, OBJ_NFS, "/srv/repo");
	EQ_DBL(v[1], 1048576, TOL, "rdma mount: write B/s");
	EQ_DBL(v[7], 2, TOL, "rdma mount: RTT ms/write 16 / 8");
	EQ_DBL(v[9], 3, TOL, "rdma mount: execute ms/write 24 / 8");
	EQ_DBL(v[6], 0, TOL, "no reads: RTT ms/read 0, not NAN");
	EQ_DBL(v[11], 0, TOL, "no backlog");
	v = vals(&out, OBJ_CIFS, "\\\\fs1\\backup");
	EQ_DBL(v[0], 65536, TOL, "CIFS bytes read/s");
	EQ_DBL(v[1], 8388608, TOL, "CIFS bytes written/s");
	EQ_DBL(v[2], 130, TOL, "SMBs/s");
	EQ_DBL(v[3], 1, TOL, "reconnects in the interval (2 -> 3 share)");
	v = vals(&out, OBJ_CIFS, "\\\\oldnas\\tsm");
	EQ_DBL(v[0], 8192, TOL, "SMB1 share: bytes read/s");
	EQ_DBL(v[1], 4096, TOL, "SMB1 share: bytes written/s");
	v = vals(&out, OBJ_TAPE, "st0");
	EQ_DBL(v[1], 36700160, TOL, "tape write B/s (35 MiB/s)");
	EQ_DBL(v[3], 140, TOL, "tape writes/s");
	EQ_DBL(v[5], 40, TOL, "% write time: 400 ms of ns in 1 s");
	EQ_DBL(v[6], 45, TOL, "% busy: io_ns +450 ms");
	EQ_DBL(v[7], 1, TOL, "in flight at the sample");
	EQ_DBL(v[8], 1, TOL, "residuals/s");
	EQ_DBL(v[9], 2, TOL, "other ops/s");
	EQ_DBL(v[0], 0, TOL, "no reads: 0 B/s");
	OK(!sample_find(&out, OBJ_TAPE, "st0a") && !sample_find(&out, OBJ_TAPE, "nst0"),
	   "mode devices are not drives");
	v = vals(&out, OBJ_TAPE, "st1");
	EQ_DBL(v[6], 98, TOL, "st1 % busy 98");
	v = vals(&out, OBJ_FC, "host3");
	EQ_DBL(v[0], 4194304, TOL, "FC bytes received/s: 0x100000 words x 4");
	EQ_DBL(v[1], 1048576, TOL, "FC bytes sent/s: 0x40000 words x 4");
	EQ_DBL(v[2], 2048, TOL, "frames received/s");
	EQ_DBL(v[3], 512, TOL, "frames sent/s");
	EQ_DBL(v[4], 3, TOL, "errors/s: error frames +1, bad CRC +2");
	EQ_DBL(v[5], 1, TOL, "link failures in the interval");
	v = vals(&out, OBJ_FC, "host4");
	EQ_DBL(v[4], 0, TOL, "no invalid_crc_count: errors from error frames alone");

	OK(rates_compute(&b, &c, &out) == 0, "t2 -> t3");
	v = vals(&out, OBJ_NFS, "/mnt/backup");
	OK(isnan(v[0]) && isnan(v[5]) && isnan(v[7]) && isnan(v[11]),
	   "remounted (age back): every value unknown, not a huge delta");
	v = vals(&out, OBJ_NFS, "/srv/repo");
	OK(isnan(v[1]) && isnan(v[5]),
	   "another export on the same mount point: unknown that interval");
	OK(!sample_find(&out, OBJ_NFS, "/mnt/my share"), "unmounted: absent");
	OK(!sample_find(&out, OBJ_NFS, "/mnt/new"),
	   "new mount: no values in its first interval");
	v = vals(&out, OBJ_CIFS, "\\\\fs1\\backup");
	OK(isnan(v[0]) && isnan(v[1]) && isnan(v[2]) && isnan(v[3]),
	   "cifs/Stats reset: unknown, not a wrap");
	v = vals(&out, OBJ_CIFS, "\\\\fs1\\scratch");
	OK(isnan(v[2]), "a share with one counter back (SMBs 12 -> 1): reset");
	OK(!sample_find(&out, OBJ_TAPE, "st0"), "a drive gone: absent");
	v = vals(&out, OBJ_TAPE, "st1");
	OK(isnan(v[1]) && isnan(v[6]), "st driver reloaded: unknown");
	v = vals(&out, OBJ_FC, "host3");
	OK(isnan(v[0]) && isnan(v[4]), "FC statistics reset: unknown");
	v = vals(&out, OBJ_FC, "host4");
	EQ_DBL(v[0], 0, TOL, "the other port goes on");

	OK(rates_compute(&c, &c, &out) < 0, "dt 0 refused");
	sample_free(&out);
	snapshot_free(&a);
	snapshot_free(&b);
	snapshot_free(&c);
}

/* SMB shares whose names have a space (tree_name runs to the end of the
 * line or to the tab before DISCONNECTED) and a share whose SMBs counter,
 * an atomic_t, wraps past 2^32 (printed %d: -100 -> 50) while its bytes,
 * u64, cross 2^32 without wrapping: s1 -> s2, dt 1 s. */
static void test_smb_names_wrap(void)
{
	struct raw_snapshot a = { 0 }, b = { 0 };
	struct sample out = { 0 };
	const double *v;

	if (load(FIXTURES "/s1", 0, &a) || load(FIXTURES "/s2", 1, &b)) {
		OK(0, "fixtures s1, s2 load");
		return;
	}
	EQ_INT(a.ncifs, 3, "two shares named alike up to a space stay two");
	EQ_STR(a.cifs[0].name, "\\\\nas\\Backup Share",
	       "a share name with a space is whole");
	EQ_STR(a.cifs[1].name, "\\\\nas\\Backup Archive",
	       "and so is one DISCONNECTED (the tab ends the name)");
	OK(a.ncifs == 3 && a.cifs[0].smbs == 1000 && a.cifs[1].smbs == 2000,
	   "each has its own numbers, not their sum");
	OK(rates_compute(&a, &b, &out) == 0, "s1 -> s2");
	v = vals(&out, OBJ_CIFS, "\\\\nas\\Backup Share");
	EQ_DBL(v[1], 1048576, TOL, "Backup Share: its bytes written/s");
	EQ_DBL(v[2], 10, TOL, "Backup Share: its SMBs/s");
	v = vals(&out, OBJ_CIFS, "\\\\nas\\Backup Archive");
	EQ_DBL(v[1], 0, TOL, "Backup Archive: idle, 0 B/s");
	v = vals(&out, OBJ_CIFS, "\\\\nas\\busy");
	EQ_DBL(v[2], 150, TOL, "SMBs (atomic_t) wrap as 32 bits: -100 -> 50 is +150");
	EQ_DBL(v[0], 65536, TOL, "bytes read (u64) across 2^32 in the same "
	       "interval: +65536, the interval kept");
	EQ_DBL(v[3], 0, TOL, "no reconnects");
	sample_free(&out);
	snapshot_free(&a);
	snapshot_free(&b);
}

/* Synthetic: a 32-bit kernel's ops counter wraps (unsigned long), a
 * 64-bit rtt counter going back alone is a reset. */
static void test_synthetic(void)
{
	struct raw_snapshot a = { 0 }, b = { 0 };
	struct sample out = { 0 };
	struct nfs_raw *m;
	const double *v;

	snapshot_reset(&a);
	snapshot_reset(&b);
	a.kernel_bits = b.kernel_bits = 32;
	a.mono = 10;
	b.mono = 12;
	m = snapshot_add_nfs(&a);
	strcpy(m->name, "/m");
	m->ident = 7;
	m->wr_ops = UINT32_MAX - 1;
	/* (ntrans would wrap with it, and two counters back at once are a
	 * reset by the disks' rule: leave it out here) */
	m->wr_rtt = 1000;
	m->wr_exec = 2000;
	m = snapshot_add_nfs(&b);
	strcpy(m->name, "/m");
	m->ident = 7;
	m->wr_ops = 8;		/* +10 across 2^32 */
	m->wr_rtt = 1100;
	m->wr_exec = 2500;
	OK(rates_compute(&a, &b, &out) == 0, "synthetic");
	v = vals(&out, OBJ_NFS, "/m");
	EQ_DBL(v[5], 5, TOL, "32-bit ops wrap: +10 over 2 s");
	EQ_DBL(v[7], 10, TOL, "RTT ms/write 100 / 10 across the wrap");
	EQ_DBL(v[9], 50, TOL, "execute ms/write 500 / 10");
	OK(isnan(v[10]), "retransmissions unknown without ntrans");
	OK(isnan(v[0]), "bytes unknown stay unknown");
	b.nfs[0].wr_rtt = 900;
	OK(rates_compute(&a, &b, &out) == 0, "synthetic reset");
	v = vals(&out, OBJ_NFS, "/m");
	OK(isnan(v[5]) && isnan(v[7]), "a u64 rtt going back: the mount was reset");
	sample_free(&out);
	snapshot_free(&a);
	snapshot_free(&b);
}

/* Write text to root/rel, making its directories. */
static void put(const char *root, const char *rel, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *c = path + strlen(root) + 1; *c; c++)
		if (*c == '/') {
			*c = '\0';
			mkdir(path, 0755);
			*c = '/';
		}
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* Bad input: every bad line or file is unknown or left out, never a
 * wrong value, and the good ones around it are read. */
static void test_bad(void)
{
	char root[] = "/tmp/perflog-targets.XXXXXX";
	struct raw_snapshot s = { 0 };
	const struct nfs_raw *m;
	char longmnt[200];

	if (!mkdtemp(root)) {
		OK(0, "temporary root");
		return;
	}
	memset(longmnt, 'x', sizeof(longmnt) - 1);
	longmnt[0] = '/';
	longmnt[sizeof(longmnt) - 1] = '\0';
	put(root, "proc/stat", "cpu  1 0 1 100 0 0 0 0 0 0\ncpu0 1 0 1 100 0 0 0 0 0 0\n");
	{
		char ms[2048];

		snprintf(ms, sizeof(ms),
			 "device garbage without the words\n"
			 "device a:/b mounted on %s with fstype nfs statvers=1.1\n"
			 "\tbytes:\t1 2 3 4 5 6 7 8\n"
			 "device a:/c mounted on /ok with fstype nfs4 statvers=1.1\n"
			 "\tage:\tnot-a-number\n"
			 "\tbytes:\t1 2 3\n"
			 "\txprt:\tsctp 1 2 3 4 5 6 7 8 9 10\n"
			 "\t        READ: 1 2 3\n"
			 "\t       WRITE: 10 11 0 100 200 0 30 40 0\n"
			 "device a:/d mounted on /nfsv2 with fstype nfs\n", longmnt);
		put(root, "proc/self/mountstats", ms);
	}
	put(root, "proc/fs/cifs/Stats", "x session y share reconnects\n"
	    "1) notashare\nSMBs: 5\n2) \\\\s\\ok\nSMBs: -2\n"
	    "Bytes read: 10  Bytes written: oops\n");
	put(root, "sys/class/scsi_tape/st5/stats/read_byte_cnt", "12abc");
	put(root, "sys/class/scsi_tape/st5/stats/write_byte_cnt", "-5");
	put(root, "sys/class/scsi_tape/st5/stats/read_cnt", "7");
	put(root, "sys/class/scsi_tape/st6/stats/read_cnt", "");
	put(root, "sys/class/fc_host/host9/statistics/tx_words", "0x\n");
	put(root, "sys/class/fc_host/host9/statistics/rx_words", "0x10\n");
	put(root, "sys/class/fc_host/hostX/statistics/rx_words", "0x10\n");
	OK(load(root, 0, &s) == 0, "a root of bad files reads");
	EQ_INT(s.nnfs, 1, "bad device lines, an NFSv2-style line without statvers= and a mount point past 63 bytes are left out");
	m = nfs(&s, "/ok");
	OK(m && m->age == SRC_NA && m->app_rd == SRC_NA && m->sends == SRC_NA &&
	   m->rd_ops == SRC_NA, "short or bad lines and an unknown transport: unknown");
	OK(m && m->wr_ops == 10 && m->wr_exec == 40, "the good WRITE line around them is read");
	EQ_INT(s.ncifs, 1, "a share line without a backslash name is not a share");
	OK(s.ncifs == 1 && s.cifs[0].smbs == 4294967294ull &&
	   s.cifs[0].rd_bytes == SRC_NA && s.cifs[0].reconnects == SRC_NA,
	   "SMBs %d below 0 kept as its 32-bit pattern; a half-bad bytes line and a bad reconnects line unknown");
	EQ_INT(s.ntapes, 1, "a drive without one readable stats file is left out");
	OK(s.ntapes == 1 && s.tapes[0].rd_bytes == SRC_NA &&
	   s.tapes[0].wr_bytes == SRC_NA && s.tapes[0].rd_cnt == 7,
	   "trailing garbage and a negative number: unknown; the good file read");
	EQ_INT(s.nfcs, 1, "hostX is not a port");
	OK(s.nfcs == 1 && s.fcs[0].tx_words == SRC_NA && s.fcs[0].rx_words == 16,
	   "\"0x\" alone is unknown, 0x10 is 16");
	snapshot_free(&s);
	OK(rmtree(root) == 0, "temporary root removed");
}

int main(void)
{
	test_read();
	test_bad();
	test_rates();
	test_synthetic();
	test_smb_names_wrap();
	return done_testing();
}
