/*
 * journal.h - the log set's journal (DESIGN.md "The log set on disk"):
 * every sample the writer takes is appended to `perflog.journal` as one
 * record, in one write(), before any RRD file sees its rows; the RRD files
 * are written from memory in larger batches (`[log] flush`, logset.h
 * logset_flush). A reader replays the journal's samples into the rows the
 * RRD files lack (logset_read.c), so a collector killed with -9 or by the
 * OOM killer loses nothing it sampled, and a live set reads up to its last
 * sample. A host crash loses at most the records since the journal's last
 * fdatasync (JOURNAL_SYNC seconds).
 *
 * The file (little-endian, the byte order of the hosts perflog runs on;
 * one of the other order fails the header's magic):
 *
 *   header, 32 bytes:  "PFLJRNL\n", u32 version (JOURNAL_VERSION), u32
 *                      step (s), f64 base, u32 CRC-32 of the 24 bytes
 *                      before it, u32 0.
 *                      base: every RRD file holds its rows ending at or
 *                      before base; the journal holds what comes after
 *   records:           u32 len, u8 type, 3 zero bytes, len bytes of
 *                      payload, u32 CRC-32 of type, zeros and payload
 *     'F' a file:      f64 born, u32 n (its values: data sources in
 *                      perflog.meta's order), u32 fresh, its name
 *     'S' a sample:    f64 from, f64 t, then f64 values: n of every file
 *                      announced before it, in announcement order (NaN
 *                      unknown); the values cover (from, t]
 *
 * Each file is announced ('F') before the first sample that carries its
 * values, so a sample's value count is the counter count of the set at
 * that moment, and a record whose count disagrees is damage. fresh: the
 * file's first sample covers its rows from born (an idle-born instance,
 * logset.h logset_add_idle_instance; writer_sample.c hold()); any other
 * file's samples cover only (from, t].
 *
 * Replaying: every file's rows start at base, or at born when later, and
 * take the samples in order through rows.h, the writer's
 * own rules, so a replayed row equals the row the writer would have
 * written. The reading stops at the first record that is cut short, too
 * long, or fails its CRC (a kill -9 mid-write, garbage); what came before
 * it is replayed and the note says where it stopped.
 *
 * Cutting: the journal is rewritten (atomically, setdir_write_atomic)
 * without the samples whose rows every RRD file has, at most once every
 * JOURNAL_CUT seconds or JOURNAL_CUT_BYTES appended. librrd's writes are not
 * synced, so a cut drops only what the files had one cut earlier (the
 * kernel writes dirty pages back within 30 s): a host crash cannot take
 * rows the journal no longer holds.
 */
#ifndef PERFLOG_JOURNAL_H
#define PERFLOG_JOURNAL_H

#include <stddef.h>
#include <stdint.h>

#include "../common/util.h"
#include "rows.h"

#define JOURNAL_NAME "perflog.journal"
#define JOURNAL_MAGIC "PFLJRNL\n"
#define JOURNAL_VERSION 1u
#define JOURNAL_HEADER 32
/* a record's frame: len, type and padding before, the CRC after */
#define JOURNAL_FRAME 12
/* the largest payload a reader accepts (a set of 1,000 files of 40
 * counters is 320 KB a sample) */
#define JOURNAL_RECORD_MAX (16u << 20)
/* seconds (monotonic) between two fdatasyncs of the journal */
#define JOURNAL_SYNC 5.0
/* seconds (monotonic) between two cuts, and the bytes that cut earlier */
#define JOURNAL_CUT 60.0
#define JOURNAL_CUT_BYTES (4u << 20)

/* CRC-32 (IEEE 802.3, as zlib's crc32) of n bytes, continuing crc
 * (0 to start). */
uint32_t journal_crc32(uint32_t crc, const void *p, size_t n);

/* ---- writing (writer_sample.c) ---- */

struct journal_writer;

/* Create perflog.journal in the set (O_EXCL, not following symlinks)
 * with its header. 0, or -1 with e set. */
int journal_create(int dfd, const char *dir, unsigned step, double base,
		   struct journal_writer **out, struct perr *e);

/* Files announced so far (the caller announces the rest in order). */
size_t journal_files(const struct journal_writer *j);

/* Announce the next file: its name, value count, born and fresh. 0, or
 * -1 out of memory. */
int journal_announce(struct journal_writer *j, const char *name, size_t n,
		     double born, int fresh);

/* The values of a sample over (from, t]: returns room for the values of
 * every announced file, to be filled and then written by
 * journal_sample_end. NULL out of memory. */
double *journal_sample_begin(struct journal_writer *j, double from, double t);

/* Append the sample (with the announcements before it) to the file in one
 * write, fdatasync'ed when JOURNAL_SYNC seconds have passed since the
 * last. A failed write (a full disk) is taken back off the file and tried
 * again with the next sample. 0, or -1 with e set. */
int journal_sample_end(struct journal_writer *j, struct perr *e);

/* The RRD files now hold every row ending at or before base: cut the
 * journal when it is time (see the top). 0, or -1 with e set (the old
 * journal stays whole). */
int journal_cut(struct journal_writer *j, double base, struct perr *e);

/* Close; unlink the file when every row is in the RRD files (a set
 * closed whole needs no journal). */
void journal_close(struct journal_writer *j, int unlink_it);

/* ---- reading (logset_read.c) ---- */

struct journal;

/* Read dfd's perflog.journal for a set of the given step. 0 with *out
 * NULL when there is none; 0 with *out set and note->msg non-empty when
 * it is damaged (replayed up to the damage) or of a layout this reader
 * does not know (then *out is NULL). -1 only out of memory. */
int journal_load(int dfd, const char *dir, unsigned step,
		 struct journal **out, struct perr *note);
void journal_free(struct journal *j);

/* 1 when its reading stopped at a last record cut short: a kill -9
 * mid-write, or a write in progress (a live set's reader may see part of
 * the collector's one write). */
int journal_cut_short(const struct journal *j);

/* The end of the last whole row the journal's samples reach, 0 none. */
double journal_last(const struct journal *j);

/* The rows a file's samples make after base (rows.h: held, held_t), or
 * NULL when the journal has none for it or its value count is not n (an
 * older layout). Replayed once, kept with the journal. */
const struct rows *journal_rows(struct journal *j, const char *file,
				size_t n);

#endif
