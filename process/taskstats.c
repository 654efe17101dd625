/*
 * taskstats.c - exit records over generic netlink (see taskstats.h).
 *
 * Protocol (linux/taskstats.h, linux/genetlink.h): ask the controller
 * family for the id of "TASKSTATS", then send TASKSTATS_CMD_GET with
 * TASKSTATS_CMD_ATTR_REGISTER_CPUMASK "0-N". From then on every exiting
 * task on those CPUs sends us a TASKSTATS_CMD_NEW message holding a
 * TASKSTATS_TYPE_AGGR_PID nest (TASKSTATS_TYPE_PID, TASKSTATS_TYPE_STATS:
 * struct taskstats), and, when a multi-threaded group ends, an
 * AGGR_TGID nest we ignore. The struct grows at its end with each
 * version; fields past what the running kernel sends are read as absent.
 */
#define _GNU_SOURCE
#include "taskstats.h"

#include <errno.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/taskstats.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

struct taskstats_listener {
	int fd;
	char *buf;
	size_t cap;
};

#define GENL_DATA(h) ((char *)NLMSG_DATA(h) + GENL_HDRLEN)
#define NLA_PAYLOAD(na) ((char *)(na) + NLA_HDRLEN)

/* Request buffer: one netlink header, one genetlink header, one
 * attribute of up to 64 bytes. */
struct request {
	struct nlmsghdr n;
	struct genlmsghdr g;
	char attrs[NLA_HDRLEN + 64];
};

static int send_request(int fd, uint16_t type, uint8_t cmd, uint16_t attr,
			const void *data, size_t len)
{
	struct request r;
	struct nlattr *na = (struct nlattr *)r.attrs;
	struct sockaddr_nl to = { .nl_family = AF_NETLINK };

	if (len > 64)
		return -1;
	memset(&r, 0, sizeof(r));
	r.n.nlmsg_type = type;
	r.n.nlmsg_flags = NLM_F_REQUEST;
	r.n.nlmsg_pid = 0;
	r.g.cmd = cmd;
	r.g.version = 1;
	na->nla_type = attr;
	na->nla_len = (uint16_t)(NLA_HDRLEN + len);
	memcpy(NLA_PAYLOAD(na), data, len);
	r.n.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN) + NLA_ALIGN(na->nla_len);
	return sendto(fd, &r, r.n.nlmsg_len, 0, (struct sockaddr *)&to,
		      sizeof(to)) < 0 ? -1 : 0;
}

/* The controller's answer: the family id, or -1 (errno set). */
static int family_id(int fd)
{
	char buf[4096];
	ssize_t n;
	struct nlmsghdr *h = (struct nlmsghdr *)buf;

	if (send_request(fd, GENL_ID_CTRL, CTRL_CMD_GETFAMILY,
			 CTRL_ATTR_FAMILY_NAME, TASKSTATS_GENL_NAME,
			 sizeof(TASKSTATS_GENL_NAME)) < 0)
		return -1;
	do
		n = recv(fd, buf, sizeof(buf), 0);
	while (n < 0 && errno == EINTR);
	if (n < 0 || !NLMSG_OK(h, (size_t)n))
		return -1;
	if (h->nlmsg_type == NLMSG_ERROR) {
		struct nlmsgerr *err = NLMSG_DATA(h);

		errno = err->error ? -err->error : ENOENT;
		return -1;
	}
	for (struct nlattr *na = (struct nlattr *)GENL_DATA(h);
	     (char *)na + NLA_HDRLEN <= (char *)h + h->nlmsg_len &&
	     na->nla_len >= NLA_HDRLEN;
	     na = (struct nlattr *)((char *)na + NLA_ALIGN(na->nla_len)))
		if (na->nla_type == CTRL_ATTR_FAMILY_ID)
			return *(uint16_t *)NLA_PAYLOAD(na);
	errno = ENOENT;
	return -1;
}

/* "0-N" over the possible CPUs. */
static void cpu_mask(char *buf, size_t n)
{
	char *text = util_read_file("/sys/devices/system/cpu/possible", NULL);

	if (text && text[0]) {
		text[strcspn(text, "\n")] = '\0';
		util_strlcpy(buf, text, n);
	} else {
		long cpus = sysconf(_SC_NPROCESSORS_CONF);

		snprintf(buf, n, "0-%ld", cpus > 0 ? cpus - 1 : 0);
	}
	free(text);
}

struct taskstats_listener *taskstats_open(struct perr *e)
{
	struct taskstats_listener *l = calloc(1, sizeof(*l));
	struct sockaddr_nl me = { .nl_family = AF_NETLINK };
	char mask[256];
	int fam, size = 4 << 20;

	if (!l) {
		perr_set(e, "out of memory");
		return NULL;
	}
	l->cap = 64 * 1024;
	l->buf = malloc(l->cap);
	l->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (!l->buf || l->fd < 0 ||
	    bind(l->fd, (struct sockaddr *)&me, sizeof(me)) < 0) {
		perr_set(e, "taskstats: %s", strerror(errno));
		goto fail;
	}
	/* a burst of exits between two drains must fit */
	if (setsockopt(l->fd, SOL_SOCKET, SO_RCVBUFFORCE, &size,
		       sizeof(size)) < 0)
		setsockopt(l->fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
	fam = family_id(l->fd);
	if (fam < 0) {
		perr_set(e, "taskstats: %s", strerror(errno));
		goto fail;
	}
	cpu_mask(mask, sizeof(mask));
	if (send_request(l->fd, (uint16_t)fam, TASKSTATS_CMD_GET,
			 TASKSTATS_CMD_ATTR_REGISTER_CPUMASK, mask,
			 strlen(mask) + 1) < 0) {
		perr_set(e, "taskstats: %s", strerror(errno));
		goto fail;
	}
	/* The kernel acknowledges only errors (no NLM_F_ACK asked), and
	 * does so within sendto: an EPERM is already queued as an
	 * NLMSG_ERROR. Peek for it. */
	{
		struct nlmsghdr h;
		ssize_t n;

		n = recv(l->fd, &h, sizeof(h), MSG_PEEK | MSG_DONTWAIT);
		if (n == (ssize_t)sizeof(h) && h.nlmsg_type == NLMSG_ERROR) {
			char buf[256];
			struct nlmsgerr *err;

			n = recv(l->fd, buf, sizeof(buf), 0);
			err = NLMSG_DATA((struct nlmsghdr *)buf);
			if (n >= (ssize_t)NLMSG_LENGTH(sizeof(*err)) &&
			    err->error) {
				perr_set(e, "taskstats: %s",
					 strerror(-err->error));
				goto fail;
			}
		}
	}
	return l;
fail:
	taskstats_close(l);
	return NULL;
}

int taskstats_fd(const struct taskstats_listener *l)
{
	return l->fd;
}

void taskstats_close(struct taskstats_listener *l)
{
	if (!l)
		return;
	if (l->fd >= 0)
		close(l->fd);
	free(l->buf);
	free(l);
}

/* Does a struct taskstats of len bytes hold field (offset, size)? */
#define HAS(len, field) \
	((len) >= offsetof(struct taskstats, field) + \
		  sizeof(((struct taskstats *)0)->field))

static int parse_stats(const char *p, size_t len, struct taskstats_exit *x)
{
	struct taskstats t;

	if (!HAS(len, write_char))
		return -1;
	memset(&t, 0, sizeof(t));
	memcpy(&t, p, len < sizeof(t) ? len : sizeof(t));
	memset(x, 0, sizeof(*x));
	x->tid = (pid_t)t.ac_pid;
	x->ppid = (pid_t)t.ac_ppid;
	x->tgid = HAS(len, ac_tgid) ? (pid_t)t.ac_tgid : 0;
	x->btime = HAS(len, ac_btime64) ? (double)t.ac_btime64
					: (double)t.ac_btime;
	x->etime = (double)t.ac_etime / 1e6;
	x->cpu_us = t.ac_utime + t.ac_stime;
	/* a task that ran got a CPU at least once: a count of 0 is the
	 * kernel's "no delay accounting" (delayacct_add_tsk not run) */
	x->runq_ns = x->blkio_ns = TASKSTATS_NA;
	if (t.cpu_count > 0) {
		x->runq_ns = t.cpu_delay_total;
		x->blkio_ns = t.blkio_delay_total;
	}
	memcpy(x->comm, t.ac_comm, sizeof(x->comm) - 1);
	x->comm[sizeof(x->comm) - 1] = '\0';
	x->rchar = t.read_char;
	x->wchar = t.write_char;
	x->read_bytes = HAS(len, write_bytes) ? t.read_bytes : 0;
	x->write_bytes = HAS(len, write_bytes) ? t.write_bytes : 0;
	return x->tid > 0 ? 0 : -1;
}

/* One AGGR_PID nest: find its STATS attribute. */
static int parse_aggr(const char *p, size_t len, struct taskstats_exit *x)
{
	while (len >= NLA_HDRLEN) {
		const struct nlattr *na = (const struct nlattr *)p;

		if (na->nla_len < NLA_HDRLEN || na->nla_len > len)
			return -1;
		if (na->nla_type == TASKSTATS_TYPE_STATS)
			return parse_stats(p + NLA_HDRLEN,
					   na->nla_len - NLA_HDRLEN, x);
		if ((size_t)NLA_ALIGN(na->nla_len) >= len)
			break;
		len -= NLA_ALIGN(na->nla_len);
		p += NLA_ALIGN(na->nla_len);
	}
	return -1;
}

long taskstats_parse(const void *buf, size_t len, taskstats_fn fn, void *arg)
{
	long count = 0;
	const char *msg = buf;

	/* NLMSG_OK/NLMSG_NEXT compare signed with unsigned: walk by hand */
	while (len >= sizeof(struct nlmsghdr)) {
		const struct nlmsghdr *h = (const struct nlmsghdr *)msg;
		size_t step = NLMSG_ALIGN(h->nlmsg_len);
		const char *p;
		size_t left;

		if (h->nlmsg_len < sizeof(*h) || h->nlmsg_len > len)
			break;
		msg += step;
		len = step < len ? len - step : 0;
		if (h->nlmsg_type == NLMSG_ERROR || h->nlmsg_type == NLMSG_DONE ||
		    h->nlmsg_len < NLMSG_LENGTH(GENL_HDRLEN))
			continue;
		p = (const char *)NLMSG_DATA(h) + GENL_HDRLEN;
		left = h->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN);
		while (left >= NLA_HDRLEN) {
			const struct nlattr *na = (const struct nlattr *)p;
			struct taskstats_exit x;

			if (na->nla_len < NLA_HDRLEN || na->nla_len > left)
				break;
			if ((na->nla_type & NLA_TYPE_MASK) ==
				    TASKSTATS_TYPE_AGGR_PID &&
			    parse_aggr(p + NLA_HDRLEN, na->nla_len - NLA_HDRLEN,
				       &x) == 0) {
				fn(arg, &x);
				count++;
			}
			if ((size_t)NLA_ALIGN(na->nla_len) >= left)
				break;
			left -= NLA_ALIGN(na->nla_len);
			p += NLA_ALIGN(na->nla_len);
		}
	}
	return count;
}

long taskstats_drain(struct taskstats_listener *l, taskstats_fn fn,
		     void *arg, int *lost)
{
	long count = 0;

	for (;;) {
		ssize_t n = recv(l->fd, l->buf, l->cap, MSG_DONTWAIT);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == ENOBUFS) {	/* the kernel dropped some */
				if (lost)
					*lost = 1;
				continue;
			}
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return count;
			return -1;
		}
		if (n == 0)
			return count;
		count += taskstats_parse(l->buf, (size_t)n, fn, arg);
	}
}
