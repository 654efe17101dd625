/*
 * model.h - the viewer's chart model (STYLE 12: the model pass).
 *
 * A model holds the open log sets (each with its clock shift, markers and
 * sessions), the panes and their series (counter paths of one log set), and
 * the time window. vm_fetch brings the window's data in at the resolution
 * the plot can show (span / plot dots), so a week-long log opens as fast as
 * a minute-long one: librrd picks the consolidated archive that fits.
 * vm_view then turns it into the struct vl_view that layout.h draws.
 * No terminal here.
 *
 * Times in the model are on the common clock: a log set's own times plus
 * its shift (the clock offset its markers recorded against the first set,
 * logs/align.h, or --shift DIR=SECONDS), so the backup client's and the
 * server's sets line up when their clocks differ.
 */
#ifndef PERFLOG_VIEWER_MODEL_H
#define PERFLOG_VIEWER_MODEL_H

#include <stddef.h>
#include <time.h>

#include "../common/util.h"
#include "../logs/align.h"
#include "../logs/logset.h"
#include "../logs/markers.h"
#include "layout.h"

#define VM_MAX_SERIES 12

struct vm_source {
	char *dir;
	struct logset *ls;
	long shift;			/* seconds added to the set's times */
	struct align_shift align;	/* where the shift came from */
	struct marker_list marks;
	struct session *sessions;
	long nsessions;
	time_t first, last;		/* data range, own clock */
};

struct vm_series {
	size_t idx;			/* counter index in its log set */
	long ref_idx;			/* Current Bandwidth counter or -1 */
	char label[96];			/* whole: never cut mid-word */
	int axis, color;
	int stack;			/* plotted on the stacked series before
					   it on its axis (chart.stack) */
	/* filled by vm_fetch */
	struct vl_rows rows;		/* into the pane's fetched blocks */
	struct vl_rows ref_rows;
	double *pts;			/* vl_plan.dots points; one allocation
					   with lo and hi */
	double *lo, *hi;		/* each point's band (series.h) */
	double at_cursor;
	double at_lo, at_hi;		/* the MIN and MAX of the row read at
					   the cursor when it is consolidated,
					   else NAN */
};

struct vm_pane {
	char name[128];			/* "CPU", "Disk@host": whole */
	size_t src;			/* the log set it shows */
	int set;			/* its chart set (chartset_id), -1 */
	int chosen;			/* its series the chooser's, not
					   re-picked on a zoom to a session */
	enum counter_unit unit[2];
	struct vm_series s[VM_MAX_SERIES];
	size_t n;
	struct logset_series data;	/* fetched block, shifted times */
	struct logset_series dlo, dhi;	/* its MIN and MAX when the block's
					   rows are consolidated (empty when
					   not) */
	long twin;			/* two runs compared: the second run's
					   pane drawn in this one, -1 none */
};

/* A marker or session on the common clock, for navigation and drawing. */
struct vm_mark {
	double t;
	char label[96];
	size_t src;
};

struct vm_session {
	double from, to;
	char name[96];
	char word[16];		/* its verdict's first word, "" unknown
				 * (lanes.h vm_session_word) */
	size_t src;
};

struct vm_model {
	struct vm_source *src;
	size_t nsrc;
	struct vm_pane *panes;
	size_t npanes;
	size_t nshown;			/* panes drawn: the first nshown (two
					   runs compared: the first run's, each
					   with its twin's lines) */
	int compare;			/* two runs laid over each other */
	struct vm_mark *marks;		/* point markers, by time */
	size_t nmarks;
	struct vm_session *sessions;	/* by begin time */
	size_t nsessions;
	double data_from, data_to;	/* union of the sets' data ranges */
	unsigned long finest;		/* smallest interval of the sets */
	double from, to;		/* the window */
	/* what was fetched, to fetch again only when it changes */
	double f_from, f_to;
	size_t f_dots;
	/* what the first pane shows, for the header (frame.c): its rows'
	 * step, whether they are consolidations (MIN/MAX archives read),
	 * and how many rows a plot column holds */
	unsigned long rows_step;
	int rows_cons;
	double rows_per_dot;
	/* the last cursor readout (vm_read_at), valid while rd_ok: the same
	 * time reads the same rows until the data or the series change */
	int rd_ok;
	double rd_t, rd_stamp;
	/* drawing buffers handed to layout */
	struct vl_pane *vpanes;
	struct vl_mark *vmarks;
	struct vl_span *vspans;
	struct vl_line *vlines;
	size_t vlines_cap;
	char header[256];
};

/* Open the log sets dirs[0..n) with their shifts (seconds; NULL or NAN:
 * the offset their markers recorded against dirs[0], logs/align.h), read
 * markers and
 * sessions, and build the default panes: CPU, disk, memory and paging,
 * network, for each set. Fails (message in e, naming the set) when a set is
 * missing, corrupt, or holds no data; nothing is drawn then. The window is
 * the whole data range. */
int vm_open(struct vm_model *m, char *const *dirs, const double *shifts,
	    size_t n, struct perr *e);
void vm_close(struct vm_model *m);

/* The default panes, one per chart set (counters/chartset.h) and log set,
 * with the set's CV_PANE series that log set has; a set with none gives
 * no pane. Called by vm_open. 0, or -1 out of memory. */
int vm_default_panes(struct vm_model *m);
/* The ranked panes not chosen by hand (a server's wait pane: the busiest
 * Process) picked again over [from, to] on the common clock: a zoom to a
 * session shows that session's processes, not the whole log's busiest. A
 * pane with nothing logged there keeps its series. The caller fetches. */
void vm_repick_panes(struct vm_model *m, double from, double to);

/* Bring in the window's data for `dots` plot points (resampled into each
 * series' pts, with the band of each point in lo and hi). librrd picks
 * the archive that fits the resolution; when its rows are consolidations
 * (1 minute, 1 hour) their MIN and MAX are fetched too, on the same grid.
 * Fetches again only when the window or dots changed or force is set. */
int vm_fetch(struct vm_model *m, size_t dots, int force, struct perr *e);

/* Values of every series at time t (common clock) at the finest resolution
 * the sets still hold, into each series' at_cursor, and when that row is
 * a consolidation (older than the full-resolution archive) its MIN and
 * MAX into at_lo and at_hi. Returns the stamp of the row read (the time
 * the readout stands for), or t when none. Reads nothing when t is the
 * time of the previous call and neither the data (vm_refresh) nor the
 * series (vm_set_series) changed since; reads the window's rows when
 * they are the set's own interval. */
double vm_read_at(struct vm_model *m, double t);

/* Two runs laid over each other (`perflog view A B` of two runs, as
 * perfmon overlays logs): the second set moved so that its anchor session
 * (names[1], else names[0], else its first) begins when the first's
 * (names[0], else its first) does; each pane of the first run draws the
 * second's lines of the same chart set beside its own, labelled "A ..."
 * and "B ...", sessions and markers tagged A and B; the window is the
 * anchors' span with a margin. 0, or -1 with e set (a set with no
 * session, a session named that a set has not). */
int vm_compare(struct vm_model *m, const char *const names[2],
	       struct perr *e);

/* Whether the two sets' data ranges overlap on the common clock (a
 * client and its server logged together: side by side; two runs at
 * different times: compared). */
int vm_overlap(const struct vm_model *m);

/* Re-read the sets' metadata and last update (a set still being written).
 * Returns 1 when there are new rows, 0 when not, -1 on error. */
int vm_refresh(struct vm_model *m, struct perr *e);

/* Fill a vl_view (panes, marks, spans, header) for layout; the pointers
 * stay valid until the next vm_view or vm_close. */
void vm_view(struct vm_model *m, struct vl_view *v);

/* The counters of pane p's log set in the order the counter chooser (`c`)
 * lists them: those of the pane's chart set first (every chart of it, the
 * PNG-only ones too: disk latency and queue beside the disk pane), then
 * those of the other sets in table order (Pressure, which has no pane),
 * then the rest in perflog.meta order. order has room for the set's
 * ncounters; returns how many were written (all of them), or 0 out of
 * memory. */
size_t vm_chooser_order(const struct vm_model *m, size_t p, size_t *order);

/* Replace the series of pane p by the counters idx[0..n) of its set
 * (labels and axes chosen from the counters' units). */
int vm_set_series(struct vm_model *m, size_t p, const size_t *idx, size_t n);

/* Clamp a window of the given span to the data, keeping it at least two
 * rows of the finest interval wide. */
void vm_set_window(struct vm_model *m, double from, double to);

#endif
