/*
 * procfs_nfs.c - proc/self/mountstats for the Linux source: one nfs_raw
 * per NFS mount (procfs_int.h; the counters in counters/README.md "NFS
 * Client").
 *
 * The file (fs/nfs/super.c nfs_show_stats, net/sunrpc/stats.c
 * rpc_clnt_show_stats and _print_rpc_iostats) prints, per mount:
 *
 *   device srv:/export mounted on /mnt/b with fstype nfs4 statvers=1.1
 *   	age:	3600
 *   	bytes:	normalread normalwrite directread directwrite serverread
 *   		serverwrite readpages writepages
 *   	RPC iostats version: 1.1  p/v: 100003/4 (nfs)
 *   	xprt:	tcp PORT BIND CONNECT CONNTIME IDLE SENDS RECVS BADXIDS REQ_U
 *   		BKLOG_U ...               (one line per transport: nconnect=N
 *   		                           gives N; udp, local and rdma differ)
 *   	per-op statistics
 *   	        READ: OPS NTRANS TIMEOUTS SENT RECV QUEUE RTT EXECUTE [ERRORS]
 *
 * Mounts of other file systems have a "device" line without statvers=
 * and nothing else. The mount point is printed with space, tab, newline
 * and backslash as octal escapes (\040): unescaped here. A mount point
 * longer than an instance name (SRC_NAME_MAX - 1) is left out: a cut
 * name could be another mount's. The per-op ERRORS column came with Linux
 * 5.1; the fields used here are before it, so both layouts parse alike.
 */
#define _GNU_SOURCE
#include "procfs_int.h"

#include <string.h>

/* Where SENDS and BKLOG_U are among the numbers after the transport's
 * name (net/sunrpc/xprtsock.c xs_*_print_stats, xprtrdma/transport.c
 * xprt_rdma_print_stats). */
static int xprt_fields(const char *proto, int *sends, int *bklog)
{
	if (!strcmp(proto, "tcp") || !strcmp(proto, "rdma")) {
		*sends = 5;
		*bklog = 9;
	} else if (!strcmp(proto, "udp")) {
		*sends = 2;
		*bklog = 6;
	} else if (!strcmp(proto, "local")) {
		*sends = 4;
		*bklog = 8;
	} else {
		return -1;
	}
	return 0;
}

/* Undo seq_escape's octal escapes of s into out (SRC_NAME_MAX); -1 when
 * it does not fit. */
static int unescape(const char *s, size_t len, char *out)
{
	size_t j = 0;

	for (size_t i = 0; i < len; i++) {
		char c = s[i];

		if (c == '\\' && i + 3 < len &&
		    s[i + 1] >= '0' && s[i + 1] <= '3' &&
		    s[i + 2] >= '0' && s[i + 2] <= '7' &&
		    s[i + 3] >= '0' && s[i + 3] <= '7') {
			c = (char)((s[i + 1] - '0') * 64 + (s[i + 2] - '0') * 8 +
				   (s[i + 3] - '0'));
			i += 3;
		}
		if ((unsigned char)c < ' ' || j + 1 >= SRC_NAME_MAX)
			return -1;
		out[j++] = c;
	}
	out[j] = '\0';
	return j ? 0 : -1;
}

/* FNV-1a of the device name: the identity of what is mounted. */
static uint64_t hash_name(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ull;

	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211ull;
	}
	return h ? h : 1;
}

/* "device DEV mounted on MNT with fstype nfs[4] statvers=..." into a new
 * entry; NULL when the line is another file system's or malformed. */
static struct nfs_raw *device_line(char *line, struct raw_snapshot *s,
				   int *oom)
{
	const char *dev = line + 7, *on, *mnt, *with, *type;
	struct nfs_raw *m;
	char name[SRC_NAME_MAX];

	on = strstr(dev, " mounted on ");
	if (!on)
		return NULL;
	mnt = on + 12;
	/* the mount point is escaped: the last " with fstype " ends it */
	with = NULL;
	for (const char *w = strstr(mnt, " with fstype "); w;
	     w = strstr(w + 1, " with fstype "))
		with = w;
	if (!with)
		return NULL;
	type = with + 13;
	if (strncmp(type, "nfs ", 4) && strncmp(type, "nfs4 ", 5))
		return NULL;
	if (!strstr(type, " statvers="))
		return NULL;
	if (unescape(mnt, (size_t)(with - mnt), name) < 0)
		return NULL;
	m = snapshot_add_nfs(s);
	if (!m) {
		*oom = 1;
		return NULL;
	}
	memcpy(m->name, name, sizeof(m->name));
	m->ident = hash_name(dev, (size_t)(on - dev));
	return m;
}

/* An "xprt:" line: add its sends and backlog to the mount's. A line that
 * does not parse makes both unknown: a sum over some transports would
 * be a wrong value. */
static void xprt_line(const char *q, struct nfs_raw *m, int first)
{
	char proto[SRC_NAME_MAX];
	uint64_t f[16];
	int n, si, bi;

	if (procfs_parse_name(&q, proto) < 0 ||
	    xprt_fields(proto, &si, &bi) < 0 ||
	    (n = procfs_parse_fields(q, f, 16)) <= bi) {
		m->sends = m->bklog = SRC_NA;
		return;
	}
	if (first) {
		m->sends = f[si];
		m->bklog = f[bi];
	} else if (m->sends != SRC_NA && m->bklog != SRC_NA) {
		m->sends += f[si];
		m->bklog += f[bi];
	}
}

/* A per-op line "READ: ..." or "WRITE: ...". */
static void op_line(const char *q, struct nfs_raw *m)
{
	uint64_t f[9];
	int rd = !strncmp(q, "READ:", 5);

	if (!rd && strncmp(q, "WRITE:", 6))
		return;
	q += rd ? 5 : 6;
	if (procfs_parse_fields(q, f, 9) < 8)
		return;
	if (rd) {
		m->rd_ops = f[0];
		m->rd_trans = f[1];
		m->rd_rtt = f[6];
		m->rd_exec = f[7];
	} else {
		m->wr_ops = f[0];
		m->wr_trans = f[1];
		m->wr_rtt = f[6];
		m->wr_exec = f[7];
	}
}

int procfs_parse_mountstats(char *buf, size_t len, struct raw_snapshot *s)
{
	char *cur = buf, *end = buf + len, *line;
	struct nfs_raw *m = NULL;
	int xprts = 0, oom = 0;

	while ((line = procfs_next_line(&cur, end))) {
		const char *q = line;
		uint64_t f[8];

		if (!strncmp(line, "device ", 7)) {
			m = device_line(line, s, &oom);
			if (oom)
				return -1;
			xprts = 0;
			continue;
		}
		if (!m)
			continue;
		while (procfs_blank(*q))
			q++;
		if (!strncmp(q, "age:", 4)) {
			if (procfs_parse_fields(q + 4, f, 1) == 1)
				m->age = f[0];
		} else if (!strncmp(q, "bytes:", 6)) {
			if (procfs_parse_fields(q + 6, f, 8) >= 6) {
				m->app_rd = f[0] + f[2];
				m->app_wr = f[1] + f[3];
				m->srv_rd = f[4];
				m->srv_wr = f[5];
			}
		} else if (!strncmp(q, "xprt:", 5)) {
			xprt_line(q + 5, m, xprts++ == 0);
		} else {
			op_line(q, m);
		}
	}
	return 0;
}
