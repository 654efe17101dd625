/*
 * run_output.h - what `perflog run` keeps of its command's output.
 *
 * Every byte goes on to perflog run's own stdout and stderr (so `perflog
 * run -- tar cf - /data > x.tar` still writes x.tar), but the log set
 * keeps only a bounded part, the cap ([run] output in the settings,
 * --output on the command line; 1 MiB by default, 0 keeps nothing):
 *   output-LABEL.log   the output's LAST cap bytes (the end is where a
 *                      backup client prints its summary and its errors);
 *                      written as it comes while it fits, rewritten at the
 *                      end when it did not, then starting with a line
 *                      saying how much was left out
 *   the summary text   the output's lines the client parsers need
 *                      (client_line_wanted: those holding ':', '{' or
 *                      '}', rsync's "sent ... bytes/sec"), the last cap
 *                      bytes of them, each line cut at 4 KiB: what the
 *                      backup client parsers (client/client.h) read
 * The end marker says what was cut (output.bytes, output.cut,
 * summary.cut; run/cmd_run.c lists the fields).
 */
#ifndef PERFLOG_RUN_OUTPUT_H
#define PERFLOG_RUN_OUTPUT_H

#include <stddef.h>

#include "../common/util.h"

#define RUN_OUTPUT_DEFAULT (1ULL << 20)
#define RUN_OUTPUT_MAX (1ULL << 30)

struct run_output {
	int fd;			/* output-LABEL.log, -1 when not kept */
	unsigned long long cap;
	unsigned long long total;	/* bytes of output in all */
	char *ring;		/* the last cap bytes */
	size_t ring_pos;
	/* the summary text */
	char *keep;
	size_t nkeep, capkeep;
	unsigned long long keep_cut;	/* bytes of summary lines dropped */
	char line[4096];
	size_t nline;
};

/* Start keeping up to cap bytes in DIR/output-LABEL.log (output-LABEL-2.log
 * ... when taken; created new, never through a symlink); its name goes to
 * name. With cap 0 nothing is kept. Returns 0, or -1 with e set when the
 * file cannot be created (the output still passes through). */
int run_output_open(struct run_output *o, const char *dir, const char *label,
		    char *name, size_t name_n, unsigned long long cap,
		    struct perr *e);
/* Bytes the command printed (either stream). */
void run_output_feed(struct run_output *o, const char *buf, size_t n);
/* One chunk read from *fdp (the command's stdout or stderr), written to
 * fd to (a closed stdout does not stop the run) and fed to o. Returns 1,
 * or 0 at the stream's end (*fdp closed and set to -1). */
int run_output_copy(struct run_output *o, int *fdp, int to);
/* Finish the file (rewritten as its tail when the output overflowed the
 * cap) and the summary text (o->keep, o->nkeep). */
void run_output_close(struct run_output *o);
/* Bytes the file lacks at its start (0: the whole output is kept). */
unsigned long long run_output_cut(const struct run_output *o);
void run_output_free(struct run_output *o);

#endif
