/*
 * test_taskstats.c - the kernel's exit records as taskstats_parse reads
 * them (process/taskstats.h), from datagrams made here as the kernel
 * sends them: a netlink header, the generic netlink header, and an
 * AGGR_PID nest of the task's PID and its struct taskstats. With delay
 * accounting off the kernel sends the delays as 0 and no CPU count:
 * unknown (TASKSTATS_NA), not "never queued"; on, the run-queue and
 * block-I/O waits are passed on (a short job's throttled time was
 * "other" for want of them).
 */
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/taskstats.h>
#include <stdint.h>
#include <string.h>

#include "../../process/taskstats.h"
#include "tap.h"

/* An attribute of type type and payload len at p: the bytes it takes. */
static size_t put_attr(char *p, unsigned short type, const void *data,
		       size_t len)
{
	struct nlattr na = { .nla_len = (unsigned short)(NLA_HDRLEN + len),
			     .nla_type = type };

	memcpy(p, &na, sizeof(na));
	if (data)
		memcpy(p + NLA_HDRLEN, data, len);
	return NLA_ALIGN(NLA_HDRLEN + len);
}

/* One exit record of t into buf (8-byte aligned, as recv fills it):
 * its length. */
static size_t datagram(uint64_t *buf, const struct taskstats *t)
{
	char *p = (char *)buf, *nest;
	uint32_t pid = t->ac_pid;
	size_t n = NLMSG_HDRLEN + GENL_HDRLEN, inner = 0;
	struct nlmsghdr h = { 0 };

	memset(buf, 0, 1024);
	nest = p + n;
	inner += put_attr(nest + NLA_HDRLEN + inner, TASKSTATS_TYPE_PID, &pid,
			  sizeof(pid));
	inner += put_attr(nest + NLA_HDRLEN + inner, TASKSTATS_TYPE_STATS, t,
			  sizeof(*t));
	n += put_attr(nest, TASKSTATS_TYPE_AGGR_PID, NULL, inner);
	h.nlmsg_len = (uint32_t)n;
	h.nlmsg_type = 0x17;	/* the family's id: any but an error's */
	memcpy(p, &h, sizeof(h));
	return n;
}

static void keep(void *arg, const struct taskstats_exit *x)
{
	*(struct taskstats_exit *)arg = *x;
}

int main(void)
{
	static uint64_t buf[128];
	struct taskstats t;
	struct taskstats_exit x;
	size_t n;

	memset(&t, 0, sizeof(t));
	t.version = TASKSTATS_VERSION;
	t.ac_pid = 4242;
	t.ac_tgid = 4242;
	t.ac_etime = 80000;	/* us */
	t.ac_utime = 3000;
	t.ac_stime = 5000;
	t.read_char = 4096;
	t.write_char = 32;
	memcpy(t.ac_comm, "date", 5);

	/* delay accounting off: the delay part all 0 */
	n = datagram(buf, &t);
	memset(&x, 0, sizeof(x));
	EQ_INT((int)taskstats_parse(buf, n, keep, &x), 1, "off: one record");
	EQ_INT(x.tid, 4242, "off: its task");
	EQ_INT((int)x.cpu_us, 8000, "off: its CPU, user and system");
	OK(x.runq_ns == TASKSTATS_NA, "off: its run-queue wait unknown, not 0");
	OK(x.blkio_ns == TASKSTATS_NA, "off: its block-I/O wait unknown, not 0");

	/* on: it got a CPU 3 times, waited 70 ms for one, 5 ms on I/O */
	t.cpu_count = 3;
	t.cpu_delay_total = 70000000;
	t.blkio_count = 1;
	t.blkio_delay_total = 5000000;
	n = datagram(buf, &t);
	memset(&x, 0, sizeof(x));
	EQ_INT((int)taskstats_parse(buf, n, keep, &x), 1, "on: one record");
	OK(x.runq_ns == 70000000, "on: its run-queue wait, 70 ms");
	OK(x.blkio_ns == 5000000, "on: its block-I/O wait, 5 ms");
	EQ_STR(x.comm, "date", "on: its name");
	return done_testing();
}
