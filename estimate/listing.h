/*
 * listing.h - file listings as the input of `perflog estimate --listing`:
 * a list of files made elsewhere (another machine, a Windows server, an
 * old report) instead of a walk.
 *
 * Two kinds, told apart by the first line that is not blank:
 *
 * SIZE PATH (find DIR -type f -printf '%s %p\n'): decimal bytes, one space
 *   or tab, a non-empty path running to the end of the line. Blank lines
 *   are skipped. Any other line is an error that stops the read: the
 *   format is ours and exact, so a bad line means a wrong or damaged file
 *   (or a path with a newline in it), and an estimate over part of it
 *   would be silently wrong. Every line counts as one file: a listing has
 *   no inode numbers, so hard links count once per name (use find's -links
 *   or dedupe on %i beforehand).
 *
 * dir /s (Windows cmd.exe and DOS `dir /s > FILE`), autodetected per line:
 *   NT 4.0      "08/13/97  10:15a                 1,024 f1k.1"
 *   2000 and up "08/13/1997  10:15 AM             1,024 f1k.1"
 *   24h locales "13.08.1997  10:15             1.024 f1k.1"
 *   DOS, 95/98  "F1K      1         1,024  08-13-97  10:15a f1k.1"
 *   (the 8.3 name and extension first, the long name last if any).
 *   Sizes may group digits with ',', '.', '\'' or a no-break space (Latin-1
 *   0xA0, code page 850 0xFF, UTF-8 U+00A0 or U+202F). Entries marked
 *   "<DIR>", "<JUNCTION>", "<SYMLINKD>", "<SYMLINK>" or any other "<...>"
 *   are not files and are skipped. Lines that begin with white space are
 *   dir's headers and summaries in any language (" Volume in drive C",
 *   " Directory of C:\...", "  3 File(s)  1,024 bytes", "  2 Dir(s) ...
 *   bytes free", "     Total Files Listed:") and are skipped, as are
 *   blank lines. Any other line that is not an entry is named ("FILE:LINE:
 *   cannot parse ...") and skipped, not fatal: a listing is often a
 *   captured console with a prompt or a command at the top and bottom. It
 *   becomes fatal when no entry at all was found.
 *   PowerShell's Get-ChildItem -Recurse layout is read as well ("-a----
 *   8/13/1997  10:15 AM   1024 f1k.1"; "d-----" lines are directories; its
 *   "Mode  LastWriteTime ..." header and "----" rule are skipped), and so
 *   is DOS's "Total files listed:", the one summary it puts at column 0.
 *   A UTF-8 byte order mark is skipped; a UTF-16 file (PowerShell's `>`
 *   writes one) is refused with the iconv command that converts it.
 *
 * Every line is bounded by nothing but memory; NUL bytes make a line
 * unparseable. Sizes above 2^64-1 and totals that would exceed it are
 * errors naming the line.
 */
#ifndef PERFLOG_LISTING_H
#define PERFLOG_LISTING_H

#include <stddef.h>
#include <stdint.h>

#include "../common/util.h"
#include "estimate.h"

enum listing_kind { LISTING_UNKNOWN, LISTING_SIZE_PATH, LISTING_DIR };

#define LISTING_KEEP_WARNINGS 10

struct listing_state {
	const char *name;		/* file name for messages */
	enum listing_kind kind;
	unsigned long line;		/* lines read so far */
	uint64_t files, bytes;		/* entries counted */
	uint64_t dirs;			/* dir /s: "<DIR>"-like entries skipped */
	uint64_t skipped;		/* dir /s: unparseable lines skipped */
	size_t nwarn;
	char warn[LISTING_KEEP_WARNINGS][160];	/* first skipped lines */
};

/* Start reading a listing called name (kept as a pointer). */
void listing_init(struct listing_state *s, const char *name);

/* Feed the next line (without its newline; a trailing '\r' is dropped;
 * len bytes, may hold NULs). Returns 0, or -1 with e set to
 * "NAME:LINE: ..." when the read must stop. */
int listing_line(struct listing_state *s, const char *line, size_t len,
		 struct estimate_dist *d, struct perr *e);

/* After the last line: -1 with e set when the listing held no file entry
 * but had lines that did not parse (not a listing at all). */
int listing_finish(struct listing_state *s, struct perr *e);

/* Parse a whole listing held in memory (tests, fuzzing): listing_init,
 * one listing_line per line, listing_finish. */
int listing_parse(const char *text, size_t len, const char *name,
		  struct listing_state *s, struct estimate_dist *d,
		  struct perr *e);

/* Read the listing in path ("-" = standard input) line by line. */
int listing_read(const char *path, struct listing_state *s,
		 struct estimate_dist *d, struct perr *e);

#endif
