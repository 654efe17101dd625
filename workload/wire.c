/*
 * wire.c - the reference backup's stream (workload.h "the wire"): the
 * client reads each file and writes it to the server, which writes it
 * under the target and fsyncs it, like a backup server landing data on
 * its disk pool. The set's elapsed time stops at the server's answer, so
 * the server's disk is part of the measure.
 *
 * Plain read(2)/write(2) on either side, on a socket or on ssh's pipes:
 * the client's process tree then counts (rchar, wchar: process.h) the
 * files it read and the bytes it sent, and nothing else.
 */
#define _GNU_SOURCE
#include "workload.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CHUNK (1u << 20)

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

static uint32_t get_be32(const unsigned char *b)
{
	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 |
	       (uint32_t)b[2] << 8 | b[3];
}

static void put_be32(unsigned char *b, uint32_t v)
{
	b[0] = (unsigned char)(v >> 24), b[1] = (unsigned char)(v >> 16);
	b[2] = (unsigned char)(v >> 8), b[3] = (unsigned char)v;
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

/* A name of the stream (a set's or a file's): one path component. */
static int bad_name(const char *name)
{
	return !*name || strchr(name, '/') || !strcmp(name, "..") ||
	       !strcmp(name, ".");
}

/* ---- the server ---- */

/* Receive one file into dir. 1 at the end of the set, 0 for a file, -1
 * when the stream broke (e set), -2 when writing failed (e set). */
static int receive_file(const char *dir, int fd, char *buf,
			uint64_t *written, struct perr *e)
{
	unsigned char h[12];
	char name[256], path[4096 + 520];

	if (read_full(fd, h, 4) < 0)
		return perr_set(e, "receiver: the stream broke");
	uint32_t nlen = get_be32(h);
	if (nlen == 0)
		return 1;
	if (nlen > 255 || read_full(fd, h + 4, 8) < 0 ||
	    read_full(fd, name, nlen) < 0)
		return perr_set(e, "receiver: the stream broke");
	name[nlen] = '\0';
	if (bad_name(name))
		return perr_set(e, "receiver: bad file name in the stream");
	uint64_t size = get_be64(h + 4);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	int out = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0) {
		perr_set(e, "receiver: unable to create '%s': %s", path,
			 strerror(errno));
		return -2;
	}
	int rc = 0;
	while (size > 0 && rc == 0) {
		size_t n = size < CHUNK ? (size_t)size : CHUNK;
		if (read_full(fd, buf, n) < 0) {
			rc = perr_set(e, "receiver: the stream broke");
		} else if (util_write_full(out, buf, n) < 0) {
			perr_set(e, "receiver: unable to write '%s': %s", path,
				 strerror(errno));
			rc = -2;
		} else {
			*written += n;
			size -= n;
		}
	}
	if (rc == 0 && fsync(out) < 0) {
		perr_set(e, "receiver: fsync '%s': %s", path, strerror(errno));
		rc = -2;
	}
	close(out);
	return rc;
}

/* One set: its name, its files, the answer. 1 at the end of the stream,
 * 0 after a set, -1 with e set. */
static int receive_set(int in, int out, const char *target, char *buf,
		       struct perr *e)
{
	unsigned char h[8];
	char name[256], dir[4096 + 260];
	uint64_t written = 0;
	int r;

	if (read_full(in, h, 4) < 0)
		return 1;	/* end of file: the end of the stream */
	uint32_t nlen = get_be32(h);
	if (nlen == 0)
		return 1;
	if (nlen > 255 || read_full(in, name, nlen) < 0)
		return perr_set(e, "receiver: the stream broke");
	name[nlen] = '\0';
	if (bad_name(name))
		return perr_set(e, "receiver: bad set name in the stream");
	snprintf(dir, sizeof(dir), "%s/%s", target, name);
	if (util_mkdirs(dir, 0755) < 0)
		return perr_set(e, "receiver: unable to create '%s': %s", dir,
				strerror(errno));
	while ((r = receive_file(dir, in, buf, &written, e)) == 0)
		;
	if (r < 0)
		return -1;
	/* everything is on disk: then the answer */
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
	put_be64(h, written);
	if (util_write_full(out, h, 8) < 0)
		return perr_set(e, "receiver: the stream broke");
	return 0;
}

int workload_serve(int in, int out, const char *target, struct perr *e)
{
	char *buf = malloc(CHUNK);
	int r;

	if (!buf)
		return perr_set(e, "out of memory");
	while ((r = receive_set(in, out, target, buf, e)) == 0)
		;
	free(buf);
	return r < 0 ? -1 : 0;
}

/* ---- the client ---- */

static int send_full(int fd, const void *buf, size_t n, double *t_send)
{
	double t0 = util_monotonic();
	int rc = util_write_full(fd, buf, n);
	*t_send += util_monotonic() - t0;
	return rc;
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

/* Send one file: a header (name length, size), the name, the data; its
 * pages dropped after, so a later pass reads the disk again. 0, -1 with
 * e set when the file cannot be read, -2 when the stream broke. */
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
	put_be32(h, (uint32_t)nlen);
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
	posix_fadvise(in, 0, 0, POSIX_FADV_DONTNEED);
	close(in);
	if (rc == 0)
		r->files++;
	return rc;
}

/* The set's name, its files (in passes until seconds), the end of the
 * set, the server's count. 0, -1 with e set. */
static int send_passes(int out, int in, const char *sdir, const char *set,
		       char **files, size_t nf, double seconds, char *buf,
		       struct workload_result *r, struct perr *e)
{
	unsigned char h[8];
	size_t slen = strlen(set);
	double t0 = util_monotonic();
	int rc = 0;

	put_be32(h, (uint32_t)slen);
	if (send_full(out, h, 4, &r->transfer_time) < 0 ||
	    send_full(out, set, slen, &r->transfer_time) < 0)
		rc = -2;
	r->wire_bytes += 4 + slen;
	for (size_t i = 0; rc == 0 && nf > 0; i = (i + 1) % nf) {
		rc = send_file(out, sdir, files[i], buf, r, e);
		if (r->files >= nf && util_monotonic() - t0 >= seconds)
			break;
	}
	if (rc == -1)
		return -1;
	put_be32(h, 0);
	if (rc == 0 && send_full(out, h, 4, &r->transfer_time) == 0) {
		r->wire_bytes += 4;
		if (read_full(in, h, 8) == 0 && get_be64(h) == r->data_bytes) {
			r->elapsed = util_monotonic() - t0;
			return 0;
		}
	}
	return perr_set(e, "the server went away");
}

int workload_send(int out, int in, const char *src,
		  const struct workload_set *set, double seconds,
		  struct workload_result *r, struct perr *e)
{
	char sdir[4096];
	size_t nf;
	int rc = -1;

	memset(r, 0, sizeof(*r));
	snprintf(sdir, sizeof(sdir), "%s/%s", src, set->name);
	char **files = list_files(sdir, &nf, e);
	if (!files)
		return -1;
	r->passes_files = nf;
	char *buf = malloc(CHUNK);
	if (!buf)
		perr_set(e, "out of memory");
	else if (send_passes(out, in, sdir, set->name, files, nf, seconds,
			     buf, r, e) == 0)
		rc = 0;
	if (rc == 0)
		r->kb_per_sec = r->elapsed > 0
			? (double)r->data_bytes / 1024.0 / r->elapsed : 0;
	for (size_t i = 0; i < nf; i++)
		free(files[i]);
	free(files);
	free(buf);
	return rc;
}
