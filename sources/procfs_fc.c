/*
 * procfs_fc.c - Fibre Channel host ports for the Linux source: one fc_raw
 * per sys/class/fc_host/hostN (procfs_int.h; the counters in
 * counters/README.md "FC Port").
 *
 * drivers/scsi/scsi_transport_fc.c fc_stat_show prints each field of the
 * driver's struct fc_host_statistics (u64) as "0x%llx\n"; a field the
 * driver does not keep is all ones (printed 0xffffffffffffffff: unknown
 * here), and a driver with no statistics at all fails the read (-ENOENT).
 * Each read asks the HBA (get_fc_host_stats), so only the files used are
 * read. seconds_since_last_reset going back is a reset (someone wrote
 * reset_statistics; perflog never does).
 */
#define _GNU_SOURCE
#include "procfs_int.h"

#include <dirent.h>
#include <stddef.h>
#include <string.h>

static const struct {
	const char *file;
	size_t off;
} fc_files[] = {
	{ "statistics/seconds_since_last_reset",
	  offsetof(struct fc_raw, since_reset) },
	{ "statistics/tx_words", offsetof(struct fc_raw, tx_words) },
	{ "statistics/rx_words", offsetof(struct fc_raw, rx_words) },
	{ "statistics/tx_frames", offsetof(struct fc_raw, tx_frames) },
	{ "statistics/rx_frames", offsetof(struct fc_raw, rx_frames) },
	{ "statistics/error_frames", offsetof(struct fc_raw, error_frames) },
	{ "statistics/invalid_crc_count", offsetof(struct fc_raw, invalid_crc) },
	{ "statistics/link_failure_count",
	  offsetof(struct fc_raw, link_failures) },
};

/* "host" and digits only. */
static int is_port(const char *n)
{
	if (strncmp(n, "host", 4) || !n[4])
		return 0;
	for (const char *c = n + 4; *c; c++)
		if (*c < '0' || *c > '9')
			return 0;
	return strlen(n) < SRC_NAME_MAX;
}

int procfs_read_fc(const struct procfs *p, struct raw_snapshot *s)
{
	static const char *const dir = "sys/class/fc_host/";
	char path[PROCFS_PATH_MAX];
	struct dirent *de;
	DIR *d;

	if (procfs_path(p, path, sizeof(path), dir, NULL, NULL) < 0 ||
	    !(d = opendir(path)))
		return 0;	/* no FC transport: no FC Port object */
	while ((de = readdir(d))) {
		struct fc_raw *f;
		int got = 0;

		if (!is_port(de->d_name))
			continue;
		f = snapshot_add_fc(s);
		if (!f) {
			closedir(d);
			return -1;
		}
		util_strlcpy(f->name, de->d_name, sizeof(f->name));
		for (size_t i = 0; i < sizeof(fc_files) / sizeof(fc_files[0]);
		     i++) {
			uint64_t *v = (uint64_t *)((char *)f + fc_files[i].off);

			if (procfs_read_u64(p, dir, f->name, fc_files[i].file,
					    v) == 0 && *v != UINT64_MAX)
				got++;
			else
				*v = SRC_NA;
		}
		if (!got)
			s->nfcs--;	/* no statistics from this driver */
	}
	closedir(d);
	return 0;
}
