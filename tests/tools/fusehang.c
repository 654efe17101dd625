/*
 * fusehang - a FUSE file system whose reads never answer, for
 * t7710-fuse-hang.t and bench/hostile.sh (a hung sshfs, rclone or s3fs
 * mount, as a backup client meets it).
 *
 *   fusehang MOUNTPOINT
 *
 * Serves one file, MOUNTPOINT/f (1 MiB, mode 0444), in the foreground on
 * a single thread: lookups, getattr and open are answered until the first
 * read, which never returns, so from then on nothing is answered: a
 * getattr hangs too (attr_timeout=0, so the kernel's attribute cache
 * never answers one for us), as on a dead network mount. Kill it (SIGKILL) to end it: the kernel then fails the
 * waiting requests (ENOTCONN) and the mount is left for fusermount3 -u or
 * umount -l. Built only where libfuse3 is (the Makefile asks pkg-config);
 * without it the program says so and exits 77.
 */
#if defined(__has_include)
#if __has_include(<fuse.h>) && defined(PERFLOG_HAVE_FUSE3)
#define HAVE_FUSE 1
#endif
#endif

#ifdef HAVE_FUSE
#define _GNU_SOURCE
#define FUSE_USE_VERSION 31
#include <fuse.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FILE_SIZE (1 << 20)

static int fh_getattr(const char *path, struct stat *st,
		      struct fuse_file_info *fi)
{
	(void)fi;
	memset(st, 0, sizeof(*st));
	if (!strcmp(path, "/")) {
		st->st_mode = S_IFDIR | 0555;
		st->st_nlink = 2;
		return 0;
	}
	if (!strcmp(path, "/f")) {
		st->st_mode = S_IFREG | 0444;
		st->st_nlink = 1;
		st->st_size = FILE_SIZE;
		return 0;
	}
	return -ENOENT;
}

static int fh_open(const char *path, struct fuse_file_info *fi)
{
	if (strcmp(path, "/f"))
		return -ENOENT;
	fi->direct_io = 1;	/* every read reaches us, none is cached */
	return 0;
}

static int fh_read(const char *path, char *buf, size_t n, off_t off,
		   struct fuse_file_info *fi)
{
	(void)path, (void)buf, (void)n, (void)off, (void)fi;
	for (;;)
		pause();	/* the server that never answers */
	return 0;
}

static const struct fuse_operations ops = {
	.getattr = fh_getattr,
	.open = fh_open,
	.read = fh_read,
};

int main(int argc, char **argv)
{
	/* foreground, single-threaded: a stuck read stops everything */
	static char fg[] = "-f", single[] = "-s", o[] = "-o",
		    attr[] = "attr_timeout=0";
	char *args[] = { argv[0], fg, single, o, attr,
			 argc > 1 ? argv[1] : NULL, NULL };

	if (argc != 2) {
		fputs("usage: fusehang MOUNTPOINT\n", stderr);
		return 2;
	}
	return fuse_main(6, args, &ops, NULL);
}
#else
#include <stdio.h>

int main(void)
{
	fputs("fusehang: built without libfuse3 (pkg-config fuse3)\n", stderr);
	return 77;
}
#endif
