/*
 * test_view_lanes.c - the night's lanes in the viewer (viewer/lanes.h,
 * issue 47 item 3): sessions packed into lanes (one after another share
 * one, overlapping ones do not; no overlap, no lanes), the rows the plan
 * makes for them under the panes, the bars drawn over each session's
 * columns with its name and word, the lanes past the rows counted, and
 * the words' terminal colours from the one table.
 */
#include <string.h>

#include "../../verdict/verdict.h"
#include "../../viewer/lanes.h"
#include "tap.h"

static void test_pack(void)
{
	struct vl_span s[] = {
		{ 0, 10, "a", "disk", 0 }, { 2, 6, "b", "disk", 0 },
		{ 7, 9, "c", "CPU", 0 }, { 11, 12, "d", "", 0 },
	};
	int lane[4];
	EQ_INT(vl_lanes_pack(s, 4, lane), 2, "pack: two lanes");
	EQ_INT(lane[0], 0, "pack: a in the first");
	EQ_INT(lane[1], 1, "pack: b beside a");
	EQ_INT(lane[2], 1, "pack: c after b, in its lane");
	EQ_INT(lane[3], 0, "pack: d after a, in the first");
	struct vl_span apart[] = { { 0, 5, "a", "", 0 }, { 5, 9, "b", "", 0 } };
	EQ_INT(vl_lanes_pack(apart, 2, lane), 0, "pack: one after another: no night, no lanes");
	/* a client's and its server's sets viewed together: one session
	 * seen from two hosts is no night (t4020) */
	struct vl_span hosts[] = { { 0, 10, "job@cli", "", 0 }, { 0, 10, "job@srv", "", 1 },
				   { 12, 15, "job2@cli", "", 0 }, { 12, 16, "job2@srv", "", 1 } };
	EQ_INT(vl_lanes_pack(hosts, 4, lane), 0, "pack: one session on two hosts: no night");
	hosts[1].name = "other@srv";
	EQ_INT(vl_lanes_pack(hosts, 4, lane), 2, "pack: two sessions on two hosts: a night");
	/* one set's sessions named user@host: two sessions, however named */
	struct vl_span users[] = { { 0, 10, "backup@nas1", "", 0 },
				   { 2, 8, "backup@nas2", "", 0 } };
	EQ_INT(vl_lanes_pack(users, 2, lane), 2, "pack: one set's u@a and u@b at once: a night");
	users[1].name = "backup@nas1";
	EQ_INT(vl_lanes_pack(users, 2, lane), 2, "pack: one set's two sessions of one name at once: a night");
}

static void test_plan_draw(void)
{
	struct vl_span s[] = {
		{ 1000, 1100, "w12", "disk", 0 }, { 1000, 1040, "w2", "disk", 0 },
		{ 1050, 1080, "burn", "CPU", 0 },
	};
	struct vl_view v = { .from = 1000, .to = 1100, .glyphs = VL_ASCII,
			     .mono = 1, .spans = s, .nspans = 3 };
	struct vl_plan p;
	vl_plan(80, 24, 4, 0, VL_ASCII, &p);
	vl_plan_lanes(&p, &v);
	EQ_INT(p.nlanes, 2, "plan: two lanes");
	EQ_INT(p.axis_row, 22, "plan: the axis stays");
	EQ_INT(p.lanes_y, 20, "plan: the lanes just above it");
	EQ_INT(p.npanes, 4, "plan: the four panes kept");
	EQ_INT(p.pane[3].plot_y + p.pane[3].plot_h, 20, "plan: the panes end above the lanes");
	struct vl_grid g = { 0 };
	char row[512];
	OK(vl_grid_resize(&g, p.cols, p.rows) == 0, "draw: grid");
	vl_draw_lanes(&v, &p, &g);
	vl_grid_row(&g, p.lanes_y, row, sizeof(row));
	/* w12 over the whole plot, w2 its first 40%, burn 50%..80% */
	OK(!strncmp(row + p.plot_x, "w12 disk====", 12), "draw: w12's bar from the left, its name and word on it");
	EQ_INT((int)strspn(row + p.plot_x + 8, "="), p.plot_w - 8, "draw: w12's bar to the right edge");
	vl_grid_row(&g, p.lanes_y + 1, row, sizeof(row));
	OK(!strncmp(row + p.plot_x, "w2 disk", 7), "draw: w2 below it");
	int b = vl_time_col(&p, 1000, 1100, 1050);
	OK(!strncmp(row + p.plot_x + b, "burn CPU", 8), "draw: burn where it began, in w2's lane");
	OK(row[p.plot_x + vl_time_col(&p, 1000, 1100, 1045)] == ' ', "draw: nothing between w2 and burn");
	/* one lane only: what did not fit is counted */
	p.nlanes = 1;
	vl_grid_clear(&g);
	vl_draw_lanes(&v, &p, &g);
	vl_grid_row(&g, p.lanes_y, row, sizeof(row));
	OK(!strncmp(row, "+2", 2), "draw: two left out, said");
	/* in colour: reverse video in the word's colour */
	v.mono = 0;
	vl_grid_clear(&g);
	vl_draw_lanes(&v, &p, &g);
	const struct vl_cell *c = vl_grid_at(&g, p.plot_x + 20, p.lanes_y);
	EQ_INT(c->color, VL_C_LANE + VERDICT_DISK, "draw: the disk's colour");
	OK(c->attr & VL_A_REVERSE, "draw: a solid bar");
	vl_grid_free(&g);
	/* no overlap: no lanes */
	struct vl_span apart[] = { { 1000, 1040, "a", "", 0 }, { 1050, 1090, "b", "", 0 } };
	v.spans = apart;
	v.nspans = 2;
	vl_plan(80, 24, 4, 0, VL_ASCII, &p);
	vl_plan_lanes(&p, &v);
	EQ_INT(p.nlanes, 0, "plan: no night, no lanes");
	EQ_INT(p.pane[3].plot_y + p.pane[3].plot_h, 22, "plan: the panes to the axis");
}

static void test_colours(void)
{
	/* the table's #ef6c00 in the cube: (5, 1, 0) */
	EQ_INT(vl_lane_fg(VERDICT_DISK, 256), 16 + 36 * 5 + 6 * 1 + 0, "colour: disk in 256 colours");
	EQ_INT(vl_lane_fg(VERDICT_CPU, 256), 16 + 36 * 4 + 0 + 0, "colour: CPU in 256 colours");
	EQ_INT(vl_lane_fg(VERDICT_CPU, 8), 1, "colour: CPU red in 8");
	EQ_INT(vl_lane_fg(VERDICT_DISK, 8), 3, "colour: disk yellow in 8");
	EQ_INT(vl_lane_fg(VERDICT_NOTHING, 8), 7, "colour: nothing's grey white in 8, not black");
	EQ_STR(verdict_word_colour("disk"), verdict_kind_colour(VERDICT_DISK), "colour: a word's, the kind's");
}

int main(void)
{
	test_pack();
	test_plan_draw();
	test_colours();
	return done_testing();
}
