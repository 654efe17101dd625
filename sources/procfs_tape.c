/*
 * procfs_tape.c - tape drives for the Linux source: one tape_raw per
 * sys/class/scsi_tape/stN that has a stats/ directory (procfs_int.h; the
 * counters in counters/README.md "Tape").
 *
 * drivers/scsi/st.c (Linux 4.2+) keeps per drive, as atomic64 and prints
 * each with "%lld" and no newline: read_cnt, read_byte_cnt, read_ns,
 * write_cnt, write_byte_cnt, write_ns, other_cnt, io_ns (time with any
 * command outstanding), resid_cnt and in_flight. Every mode device of a
 * drive (st0a, st0l, st0m, nst0 ...) shows the same stats: only the stN
 * names are read, as sysstat's tapestat does. A drive whose stats cannot
 * be read (a kernel before 4.2) is left out; one file missing leaves its
 * counter unknown.
 */
#define _GNU_SOURCE
#include "procfs_int.h"

#include <dirent.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

/* "st" and digits only. */
static int is_drive(const char *n)
{
	if (strncmp(n, "st", 2) || !n[2])
		return 0;
	for (const char *c = n + 2; *c; c++)
		if (*c < '0' || *c > '9')
			return 0;
	return strlen(n) < SRC_NAME_MAX;
}

/* The counter files of a drive and where each goes. */
static const struct {
	const char *file;
	size_t off;
} tape_files[] = {
	{ "stats/read_byte_cnt", offsetof(struct tape_raw, rd_bytes) },
	{ "stats/write_byte_cnt", offsetof(struct tape_raw, wr_bytes) },
	{ "stats/read_cnt", offsetof(struct tape_raw, rd_cnt) },
	{ "stats/write_cnt", offsetof(struct tape_raw, wr_cnt) },
	{ "stats/other_cnt", offsetof(struct tape_raw, other_cnt) },
	{ "stats/read_ns", offsetof(struct tape_raw, rd_ns) },
	{ "stats/write_ns", offsetof(struct tape_raw, wr_ns) },
	{ "stats/io_ns", offsetof(struct tape_raw, io_ns) },
	{ "stats/resid_cnt", offsetof(struct tape_raw, resid) },
};

int procfs_read_tapes(const struct procfs *p, struct raw_snapshot *s)
{
	static const char *const dir = "sys/class/scsi_tape/";
	char path[PROCFS_PATH_MAX];
	struct dirent *de;
	DIR *d;

	if (procfs_path(p, path, sizeof(path), dir, NULL, NULL) < 0 ||
	    !(d = opendir(path)))
		return 0;	/* no st driver: no Tape object */
	while ((de = readdir(d))) {
		struct tape_raw *t;
		uint64_t inflight;
		int got = 0;

		if (!is_drive(de->d_name))
			continue;
		t = snapshot_add_tape(s);
		if (!t) {
			closedir(d);
			return -1;
		}
		util_strlcpy(t->name, de->d_name, sizeof(t->name));
		for (size_t i = 0; i < sizeof(tape_files) / sizeof(tape_files[0]);
		     i++) {
			uint64_t *v = (uint64_t *)((char *)t + tape_files[i].off);

			if (procfs_read_u64(p, dir, t->name, tape_files[i].file,
					    v) == 0)
				got++;
			else
				*v = SRC_NA;
		}
		if (procfs_read_u64(p, dir, t->name, "stats/in_flight",
				    &inflight) == 0) {
			t->in_flight = (double)inflight;
			got++;
		}
		if (!got)
			s->ntapes--;	/* no stats: not a drive we can log */
	}
	closedir(d);
	return 0;
}
