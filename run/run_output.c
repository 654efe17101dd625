/*
 * run_output.c - the bounded copy of a command's output (run_output.h).
 *
 * The file gets every byte while the output fits the cap; a ring holds the
 * last cap bytes all along, and replaces what was written when the output
 * overflowed. The file may already hold the output of an earlier run of
 * the same label: ours starts at the size it had, and only our part is
 * rewritten.
 */
#define _GNU_SOURCE
#include "run_output.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../client/client.h"
#include "../common/util.h"
#include "../logs/markers.h"

int run_output_open(struct run_output *o, const char *dir, const char *label,
		    char *name, size_t name_n, unsigned long long cap,
		    struct perr *e)
{
	memset(o, 0, sizeof(*o));
	o->fd = -1;
	o->cap = cap;
	if (!cap)
		return 0;
	/* in the log set, new (output-LABEL-2.log when a run of the same
	 * label before this one kept its own), never through a symlink or
	 * onto a file someone planted */
	o->fd = markers_create_beside(dir, "output", label, "log", name,
				      name_n, e);
	if (o->fd < 0)
		return -1;
	/* appending: run_output_close truncates back and writes the tail
	 * at the new end */
	if (fcntl(o->fd, F_SETFL, fcntl(o->fd, F_GETFL) | O_APPEND) < 0) {
		perr_set(e, "unable to write '%s/%s': %s", dir, name,
			 strerror(errno));
		close(o->fd);
		o->fd = -1;
		return -1;
	}
	o->ring = malloc(cap < 65536 ? (size_t)cap : 65536);
	return 0;
}

/* Keep the last cap bytes in the ring, growing it up to cap. */
static void ring_feed(struct run_output *o, const char *buf, size_t n)
{
	size_t have = o->total < o->cap ? (size_t)o->total : (size_t)o->cap;
	size_t cap = (size_t)o->cap;

	if (!o->ring)
		return;
	if (have + n <= cap) {	/* still growing, linear */
		size_t size = 65536;
		char *nr;

		while (size < have + n)
			size *= 2;
		if (size > cap)
			size = cap;
		nr = realloc(o->ring, size);
		if (!nr) {
			free(o->ring);	/* then only the head is kept */
			o->ring = NULL;
			return;
		}
		o->ring = nr;
		memcpy(o->ring + have, buf, n);
		o->ring_pos = (have + n) % cap;
		return;
	}
	if (have < cap) {	/* becomes full: the whole cap at once */
		char *nr = realloc(o->ring, cap);

		if (!nr) {
			free(o->ring);
			o->ring = NULL;
			return;
		}
		o->ring = nr;
	}
	if (n >= cap) {
		memcpy(o->ring, buf + n - cap, cap);
		o->ring_pos = 0;
		return;
	}
	for (size_t done = 0; done < n;) {
		size_t k = cap - o->ring_pos < n - done ? cap - o->ring_pos
							: n - done;

		memcpy(o->ring + o->ring_pos, buf + done, k);
		o->ring_pos = (o->ring_pos + k) % cap;
		done += k;
	}
}

/* The summary text: the complete lines the client parsers want
 * (client_line_wanted), the last cap bytes of them (the oldest lines go,
 * half the buffer at a time). */
static void keep_line(struct run_output *o)
{
	size_t need = o->nkeep + o->nline + 1;

	if (!o->cap || o->nline + 1 > o->cap ||
	    !client_line_wanted(o->line, o->nline))
		goto out;
	if (need > o->cap) {
		size_t drop = o->nkeep / 2 + (need - o->cap);
		const char *nl;

		if (drop > o->nkeep)
			drop = o->nkeep;
		nl = memchr(o->keep + drop, '\n', o->nkeep - drop);
		drop = nl ? (size_t)(nl - o->keep) + 1 : o->nkeep;
		memmove(o->keep, o->keep + drop, o->nkeep - drop);
		o->nkeep -= drop;
		o->keep_cut += drop;
		need = o->nkeep + o->nline + 1;
	}
	if (need > o->capkeep) {
		size_t nc = o->capkeep ? o->capkeep : 65536;
		char *nk;

		while (nc < need)
			nc *= 2;
		nk = realloc(o->keep, nc);
		if (!nk)
			goto out;
		o->keep = nk;
		o->capkeep = nc;
	}
	memcpy(o->keep + o->nkeep, o->line, o->nline);
	o->nkeep += o->nline;
	o->keep[o->nkeep++] = '\n';
out:
	o->nline = 0;
}

void run_output_feed(struct run_output *o, const char *buf, size_t n)
{
	if (!o->cap)
		return;
	/* a full disk must not stop the run: write errors are let go */
	if (o->fd >= 0 && o->total + n <= o->cap)
		(void)util_write_full(o->fd, buf, n);
	else if (o->fd >= 0 && o->total < o->cap)
		(void)util_write_full(o->fd, buf, (size_t)(o->cap - o->total));
	ring_feed(o, buf, n);
	o->total += n;
	for (size_t i = 0; i < n; i++) {
		if (buf[i] == '\n') {
			keep_line(o);
			continue;
		}
		if (o->nline < sizeof(o->line))
			o->line[o->nline++] = buf[i];
	}
}

unsigned long long run_output_cut(const struct run_output *o)
{
	return o->total > o->cap ? o->total - o->cap : 0;
}

void run_output_close(struct run_output *o)
{
	keep_line(o);	/* a last line without a newline */
	if (o->fd < 0)
		return;
	if (run_output_cut(o) && o->ring) {
		/* rewrite our part as the tail: truncate back to where we
		 * began (the file's size minus what we appended) */
		struct stat st;
		char note[160];
		size_t cap = (size_t)o->cap;

		if (fstat(o->fd, &st) == 0 &&
		    ftruncate(o->fd, st.st_size - (off_t)o->cap) == 0) {
			int n = snprintf(note, sizeof(note),
					 "[perflog run: the first %llu bytes of %llu were not kept; the last %llu follow]\n",
					 run_output_cut(o), o->total, o->cap);

			(void)util_write_full(o->fd, note, (size_t)n);
			(void)util_write_full(o->fd, o->ring + o->ring_pos, cap - o->ring_pos);
			(void)util_write_full(o->fd, o->ring, o->ring_pos);
		}
	}
	close(o->fd);
	o->fd = -1;
}

void run_output_free(struct run_output *o)
{
	if (o->fd >= 0)
		close(o->fd);
	free(o->ring);
	free(o->keep);
	memset(o, 0, sizeof(*o));
	o->fd = -1;
}

int run_output_copy(struct run_output *o, int *fdp, int to)
{
	char buf[65536];
	ssize_t n = read(*fdp, buf, sizeof(buf));

	if (n < 0 && errno == EINTR)
		return 1;
	if (n <= 0) {
		close(*fdp);
		*fdp = -1;
		return 0;
	}
	/* a closed or full stdout must not stop the run: its error is ours
	 * to ignore, the log set still keeps the output */
	(void)util_write_full(to, buf, (size_t)n);
	run_output_feed(o, buf, (size_t)n);
	return 1;
}
