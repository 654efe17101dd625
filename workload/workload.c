/*
 * workload.c - the reference backup (workload.h): create the file sets,
 * then per set a sender (this thread) reads each file and streams it over
 * loopback TCP to a receiver thread that writes it under the target and
 * fsyncs it, like a backup server landing data on its disk pool.
 *
 * Wire format, all integers big-endian:
 *   per file: u32 name length (> 0), u64 size, name bytes, size bytes
 *   end:      u32 0
 * The receiver answers the end with one u64: the content bytes it wrote
 * and fsynced (the target directory fsynced too). The set's elapsed time
 * stops at that answer, so the receiver's disk is part of the measure.
 */
#define _GNU_SOURCE
#include "workload.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

const struct workload_set workload_sets[WORKLOAD_NSETS] = {
	{ .name = "1m1k", .title = "1MB of 1KB files", .count = 1024, .size = 1024 },
	{ .name = "10m10k", .title = "10MB of 10KB files", .count = 1024, .size = 10240 },
	{ .name = "25m100k", .title = "25MB of 100KB files", .count = 256, .size = 102400 },
	{ .name = "50m10m", .title = "50MB of 10MB files", .count = 5, .size = 10485760 },
};

#define CHUNK (1u << 20)

size_t workload_count(const struct workload_set *set, double scale)
{
	double n = ceil((double)set->count * scale - 1e-9);
	if (!(n >= 1))
		return 1;
	if (n > 1e7)
		return 10000000;
	return (size_t)n;
}

static uint64_t xorshift(uint64_t *s)
{
	uint64_t x = *s;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*s = x;
	return x * 0x2545F4914F6CDD1DULL;
}

int workload_create(const char *dir, const struct workload_set *set,
		    size_t nfiles, struct perr *e)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, set->name);
	if (util_mkdirs(path, 0755) < 0)
		return perr_set(e, "unable to create '%s': %s", path,
				strerror(errno));
	size_t bufsz = set->size < CHUNK ? set->size : CHUNK;
	uint64_t *buf = malloc(bufsz + 8);
	if (!buf)
		return perr_set(e, "out of memory");
	int rc = 0;
	for (size_t i = 0; i < nfiles && rc == 0; i++) {
		snprintf(path, sizeof(path), "%s/%s/f%06zu", dir, set->name, i);
		int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0) {
			rc = perr_set(e, "unable to create '%s': %s", path,
				      strerror(errno));
			break;
		}
		uint64_t seed = 0x9E3779B97F4A7C15ULL ^ ((uint64_t)i << 17) ^
				(uint64_t)set->size;
		for (size_t left = set->size; left > 0 && rc == 0;) {
			size_t n = left < bufsz ? left : bufsz;
			for (size_t k = 0; k < (n + 7) / 8; k++)
				buf[k] = xorshift(&seed);
			if (util_write_full(fd, buf, n) < 0)
				rc = perr_set(e, "unable to write '%s': %s",
					      path, strerror(errno));
			left -= n;
		}
		close(fd);
	}
	/* one flush for the whole set, then drop the pages: the backup must
	 * read from the disk (the seed's perfcfg ran long before perf) */
	snprintf(path, sizeof(path), "%s/%s", dir, set->name);
	int dfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		syncfs(dfd);
		close(dfd);
	}
	for (size_t i = 0; i < nfiles && rc == 0; i++) {
		snprintf(path, sizeof(path), "%s/%s/f%06zu", dir, set->name, i);
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
			close(fd);
		}
	}
	free(buf);
	return rc;
}

/* ---- the receiver ---- */

struct receiver {
	int lfd;		/* listening socket */
	char dir[4096];		/* target/NAME */
	uint64_t written;
	struct perr err;
	int failed;
};

static int read_full(int fd, void *buf, size_t n)
{
	char *p = buf;
	while (n > 0) {
		ssize_t r = read(fd, p, n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

static uint64_t get_be64(const unsigned char *b)
{
	uint64_t v = 0;
	for (int i = 0; i < 8; i++)
		v = v << 8 | b[i];
	return v;
}

static void put_be64(unsigned char *b, uint64_t v)
{
	for (int i = 7; i >= 0; i--, v >>= 8)
		b[i] = (unsigned char)(v & 0xff);
}

/* Receive one file (its header, name and data) into rv->dir. 1 at the
 * end of the stream, 0 for a file, -1 when the connection broke, -2 when
 * writing failed (rv->err set). */
static int receive_file(struct receiver *rv, int fd, char *buf)
{
	unsigned char h[12];
	char name[256], path[4096 + 260];

	if (read_full(fd, h, 4) < 0)
		return -1;
	uint32_t nlen = (uint32_t)h[0] << 24 | (uint32_t)h[1] << 16 |
			(uint32_t)h[2] << 8 | h[3];
	if (nlen == 0)
		return 1;
	if (nlen > 255 || read_full(fd, h + 4, 8) < 0)
		return -1;
	uint64_t size = get_be64(h + 4);
	if (read_full(fd, name, nlen) < 0)
		return -1;
	name[nlen] = '\0';
	if (strchr(name, '/') || !strcmp(name, "..") || !strcmp(name, "."))
		return -1;
	snprintf(path, sizeof(path), "%s/%s", rv->dir, name);
	int out = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0) {
		perr_set(&rv->err, "receiver: unable to create '%s': %s", path,
			 strerror(errno));
		return -2;
	}
	while (size > 0) {
		size_t n = size < CHUNK ? (size_t)size : CHUNK;
		if (read_full(fd, buf, n) < 0) {
			close(out);
			return -1;
		}
		if (util_write_full(out, buf, n) < 0) {
			perr_set(&rv->err, "receiver: unable to write '%s': %s",
				 path, strerror(errno));
			close(out);
			return -2;
		}
		rv->written += n;
		size -= n;
	}
	if (fsync(out) < 0) {
		perr_set(&rv->err, "receiver: fsync '%s': %s", path,
			 strerror(errno));
		close(out);
		return -2;
	}
	close(out);
	return 0;
}

static void *receive(void *arg)
{
	struct receiver *rv = arg;
	int fd = accept(rv->lfd, NULL, NULL), r;
	char *buf = malloc(CHUNK);

	if (fd < 0 || !buf) {
		perr_set(&rv->err, "receiver: %s", fd < 0 ? strerror(errno)
							  : "out of memory");
		rv->failed = 1;
		if (fd >= 0)
			close(fd);
		free(buf);
		return NULL;
	}
	while ((r = receive_file(rv, fd, buf)) == 0)
		;
	if (r == 1) {
		/* everything is on disk: then the acknowledgement */
		int dfd = open(rv->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dfd >= 0) {
			fsync(dfd);
			close(dfd);
		}
		unsigned char ack[8];
		put_be64(ack, rv->written);
		util_write_full(fd, ack, 8);
	} else {
		if (r == -1)
			perr_set(&rv->err, "receiver: the connection broke");
		rv->failed = 1;
	}
	close(fd);
	free(buf);
	return NULL;
}

/* ---- the sender ---- */

static int send_full(int fd, const void *buf, size_t n, double *t_send)
{
	const char *p = buf;
	double t0 = util_monotonic();
	while (n > 0) {
		ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			*t_send += util_monotonic() - t0;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	*t_send += util_monotonic() - t0;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The set's file names, sorted (a backup walks the directory). */
static char **list_files(const char *dir, size_t *n, struct perr *e)
{
	DIR *d = opendir(dir);
	if (!d) {
		perr_set(e, "unable to open '%s': %s", dir, strerror(errno));
		return NULL;
	}
	char **v = NULL;
	size_t cap = 0;
	*n = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (util_grow(&v, &cap, *n + 1, sizeof(*v)) < 0 ||
		    !(v[*n] = strdup(de->d_name)))
			break;
		(*n)++;
	}
	closedir(d);
	if (*n)
		qsort(v, *n, sizeof(*v), cmp_str);
	return v ? v : calloc(1, sizeof(*v));
}

/* Send one file: a header (name length, size), the name, the data. 0, -1
 * with e set when the file cannot be read, -2 when the connection broke. */
static int send_file(int fd, const char *sdir, const char *name, char *buf,
		     struct workload_result *r, struct perr *e)
{
	char path[4096 + 260];
	struct stat st;
	int rc = 0;

	snprintf(path, sizeof(path), "%s/%s", sdir, name);
	int in = open(path, O_RDONLY | O_CLOEXEC);
	if (in < 0 || fstat(in, &st) < 0) {
		perr_set(e, "unable to read '%s': %s", path, strerror(errno));
		if (in >= 0)
			close(in);
		return -1;
	}
	size_t nlen = strlen(name);
	unsigned char h[12];
	h[0] = (unsigned char)(nlen >> 24), h[1] = (unsigned char)(nlen >> 16);
	h[2] = (unsigned char)(nlen >> 8), h[3] = (unsigned char)nlen;
	put_be64(h + 4, (uint64_t)st.st_size);
	if (send_full(fd, h, 12, &r->transfer_time) < 0 ||
	    send_full(fd, name, nlen, &r->transfer_time) < 0) {
		close(in);
		return -2;
	}
	r->wire_bytes += 12 + nlen;
	uint64_t left = (uint64_t)st.st_size;
	while (left > 0 && rc == 0) {
		ssize_t n = read(in, buf, left < CHUNK ? (size_t)left : CHUNK);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			rc = perr_set(e, "unable to read '%s': %s", path,
				      n < 0 ? strerror(errno) : "file shrank");
		} else if (send_full(fd, buf, (size_t)n, &r->transfer_time) < 0) {
			rc = -2;
		} else {
			left -= (uint64_t)n;
			r->data_bytes += (uint64_t)n;
			r->wire_bytes += (uint64_t)n;
		}
	}
	close(in);
	if (rc == 0)
		r->files++;
	return rc;
}

/* A listening loopback socket on an ephemeral port (its address in sa)
 * and the receiver thread on it. */
static int start_receiver(struct receiver *rv, struct sockaddr_in *sa,
			  pthread_t *th, struct perr *e)
{
	socklen_t sl = sizeof(*sa);

	*sa = (struct sockaddr_in){ .sin_family = AF_INET,
				    .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	rv->lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (rv->lfd < 0 ||
	    bind(rv->lfd, (struct sockaddr *)sa, sizeof(*sa)) < 0 ||
	    listen(rv->lfd, 1) < 0 ||
	    getsockname(rv->lfd, (struct sockaddr *)sa, &sl) < 0)
		return perr_set(e, "loopback receiver: %s", strerror(errno));
	if (pthread_create(th, NULL, receive, rv) != 0)
		return perr_set(e, "cannot start the receiver thread");
	return 0;
}

/* Send every file, the end of the stream, and wait for the receiver's
 * count of what it wrote. 0, or -1 with e set. */
static int send_all(int fd, const char *sdir, char **files, size_t nf,
		    char *buf, struct workload_result *r, struct perr *e)
{
	unsigned char end[8] = { 0 };
	int rc = 0;

	for (size_t i = 0; i < nf && rc == 0; i++)
		rc = send_file(fd, sdir, files[i], buf, r, e);
	if (rc == -1)
		return -1;
	if (rc == 0 && send_full(fd, end, 4, &r->transfer_time) == 0) {
		r->wire_bytes += 4;
		if (read_full(fd, end, 8) == 0 && get_be64(end) == r->data_bytes)
			return 0;
	}
	return perr_set(e, "sending to the receiver failed");
}

int workload_backup(const char *src, const char *target,
		    const struct workload_set *set,
		    struct workload_result *r, struct perr *e)
{
	struct receiver rv = { .lfd = -1 };
	struct sockaddr_in sa;
	char sdir[4096];
	size_t nf;
	pthread_t th;
	int fd = -1, rc = -1, have_thread = 0;
	char *buf;

	memset(r, 0, sizeof(*r));
	snprintf(rv.dir, sizeof(rv.dir), "%s/%s", target, set->name);
	if (util_mkdirs(rv.dir, 0755) < 0)
		return perr_set(e, "unable to create '%s': %s", rv.dir,
				strerror(errno));
	snprintf(sdir, sizeof(sdir), "%s/%s", src, set->name);
	char **files = list_files(sdir, &nf, e);
	if (!files)
		return -1;
	buf = malloc(CHUNK);
	if (!buf) {
		perr_set(e, "out of memory");
		goto out;
	}
	if (start_receiver(&rv, &sa, &th, e) < 0)
		goto out;
	have_thread = 1;
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	double t0 = util_monotonic();
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		perr_set(e, "loopback connect: %s", strerror(errno));
		goto out;
	}
	if (send_all(fd, sdir, files, nf, buf, r, e) < 0)
		goto out;
	r->elapsed = util_monotonic() - t0;
	r->kb_per_sec = r->elapsed > 0 ? (double)r->data_bytes / 1024.0 /
						 r->elapsed : 0;
	rc = 0;
out:
	if (fd >= 0)
		shutdown(fd, SHUT_RDWR);
	if (have_thread) {
		if (fd < 0)	/* never connected: unblock accept */
			shutdown(rv.lfd, SHUT_RDWR);
		pthread_join(th, NULL);
		if (rc == 0 && rv.failed)
			rc = -1;
		if (rv.failed)
			perr_set(e, "%s", rv.err.msg);
	}
	if (fd >= 0)
		close(fd);
	if (rv.lfd >= 0)
		close(rv.lfd);
	for (size_t i = 0; i < nf; i++)
		free(files[i]);
	free(files);
	free(buf);
	return rc;
}
