/*
 * mklogset.c - write a log set of crafted values through the real writer
 * (logset_create / logset_write_sample), stamped in the past, with a
 * session spanning its middle: the report's verdicts can be checked on
 * log sets whose answer is known, without waiting or loading the machine.
 *
 *   mklogset PARENT NAME KIND     KIND: idle cpu cpu1 disk net paging lo
 *                                       lolocal
 *
 * 2 CPUs, a disk sdb, an interface eth0 at 1 Gb/s, 8 GiB of memory; 120
 * one-second samples; session KIND over samples 30..90, busy as KIND says
 * inside it and idle outside. KIND lo adds, listed first, a loop device
 * loop0 whose busy time ticks with no I/O and an interface lo at 300 MB/s
 * while eth0 moves 10 MB/s: the report must name sdb and eth0; KIND
 * lolocal the same with eth0 at 500 B/s: lo carried the backup. Prints
 * the log set's directory.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../counters/catalog.h"
#include "../../counters/rates.h"
#include "../../logs/logset.h"
#include "../../logs/markers.h"
#include "fill.h"

int main(int argc, char **argv)
{
	struct logset_writer *w;
	struct perr e;
	const time_t t0 = 1700000000;	/* 2023-11-14T22:13:20Z */

	if (argc != 4) {
		fprintf(stderr, "usage: mklogset PARENT NAME KIND\n");
		return 2;
	}
	const char *k = argv[3];
	w = fill_create("mklogset", argv[1], argv[2], t0);
	if (!w)
		return 1;
	const char *cpus[] = { "_Total", "0", "1" };
	int lo = !strncmp(k, "lo", 2), bad = 0;
	for (int i = 0; i < 3; i++)
		bad |= fill_add_object(w, OBJ_PROCESSOR, cpus[i]);
	if (lo)
		bad |= fill_add_object(w, OBJ_LOGICALDISK, "loop0");
	bad |= fill_add_object(w, OBJ_LOGICALDISK, "sdb");
	bad |= fill_add_object(w, OBJ_MEMORY, "");
	if (lo)
		bad |= fill_add_object(w, OBJ_NETWORK, "lo");
	bad |= fill_add_object(w, OBJ_NETWORK, "eth0");
	if (bad)
		return 1;
	struct sample s = { 0 };
	for (int i = 1; i <= 120; i++) {
		int in = i > 30 && i <= 90;
		double wob = (i % 5) * 0.5;
		double c0 = 3 + wob, c1 = 2 + wob, busy = 1 + wob, rb = 1e5,
		       xf = 10, nb = 1e5, pages = 0, avail = 6e9;
		if (in && !strcmp(k, "cpu"))
			c0 = c1 = 95 + wob;
		if (in && !strcmp(k, "cpu1"))
			c0 = 97 + wob;
		if (in && !strcmp(k, "disk")) {
			busy = 94 + wob;
			rb = 4e6;
			xf = 1000;	/* 4 KB transfers: no read-ahead */
		}
		if (in && !strcmp(k, "net"))
			nb = 0.93e9 / 8 + wob * 1e6;
		if (in && lo)	/* lolocal: client and server on one host */
			nb = strcmp(k, "lolocal") ? 10e6 : 500;
		if (in && !strcmp(k, "paging")) {
			pages = 800 + 100 * wob;
			avail = 90e6;
		}
		sample_reset(&s);
		fill_value(&s, OBJ_PROCESSOR, "0", CTR_CPU_PROCESSOR_TIME, c0);
		fill_value(&s, OBJ_PROCESSOR, "1", CTR_CPU_PROCESSOR_TIME, c1);
		fill_value(&s, OBJ_PROCESSOR, "_Total", CTR_CPU_PROCESSOR_TIME, (c0 + c1) / 2);
		fill_value(&s, OBJ_PROCESSOR, "_Total", CTR_CPU_IOWAIT_TIME, 0.2);
		fill_value(&s, OBJ_LOGICALDISK, "sdb", CTR_DISK_TIME, busy);
		fill_value(&s, OBJ_LOGICALDISK, "sdb", CTR_DISK_READ_BYTES, rb);
		fill_value(&s, OBJ_LOGICALDISK, "sdb", CTR_DISK_WRITE_BYTES, 0);
		fill_value(&s, OBJ_LOGICALDISK, "sdb", CTR_DISK_READS, xf);
		fill_value(&s, OBJ_LOGICALDISK, "sdb", CTR_DISK_WRITES, 0);
		fill_value(&s, OBJ_LOGICALDISK, "sdb", CTR_DISK_SEC_PER_TRANSFER, 0.0009);
		fill_value(&s, OBJ_MEMORY, "", CTR_MEM_AVAILABLE, avail);
		fill_value(&s, OBJ_MEMORY, "", CTR_MEM_PAGES, pages);
		fill_value(&s, OBJ_NETWORK, "eth0", CTR_NET_BYTES_TOTAL, nb);
		fill_value(&s, OBJ_NETWORK, "eth0", CTR_NET_BANDWIDTH, 1e9);
		if (lo) {
			fill_value(&s, OBJ_LOGICALDISK, "loop0", CTR_DISK_TIME, 5);
			fill_value(&s, OBJ_LOGICALDISK, "loop0", CTR_DISK_READ_BYTES, 0);
			fill_value(&s, OBJ_LOGICALDISK, "loop0", CTR_DISK_WRITE_BYTES, 0);
			fill_value(&s, OBJ_LOGICALDISK, "loop0", CTR_DISK_READS, 0);
			fill_value(&s, OBJ_LOGICALDISK, "loop0", CTR_DISK_WRITES, 0);
			fill_value(&s, OBJ_NETWORK, "lo", CTR_NET_BYTES_TOTAL, 300e6);
		}
		if (logset_write_sample(w, t0 + i, &s, &e) < 0) {
			fprintf(stderr, "mklogset: %s\n", e.msg);
			return 1;
		}
	}
	sample_free(&s);
	return fill_finish("mklogset", w, t0 + 120, k, (double)t0 + 30,
			   (double)t0 + 90) < 0;
}

