/*
 * test_pidmap.c - the books' hashed set of task ids (process/pidmap.h):
 * put, get, expiry by generation, growth past 200,000 ids and shrinking
 * after, and ids that collide in the table (a stride of its size).
 */
#include <stdio.h>
#include <stdlib.h>

#include "../../process/pidmap.h"
#include "tap.h"

int main(void)
{
	struct pidmap m = { 0 };
	struct pidmap_entry *e;
	int bad = 0;

	OK(!pidmap_get(&m, 5), "empty: nothing found");
	OK(!pidmap_put(&m, 0) && !pidmap_put(&m, -3), "no id 0 or below");
	for (pid_t id = 1; id <= 200000; id++) {
		e = pidmap_put(&m, id);
		if (!e) {
			bad++;
			break;
		}
		e->gen = (unsigned)(id % 4);
		e->when = id * 0.5;
	}
	EQ_INT(bad, 0, "200,000 ids put");
	EQ_INT(m.n, 200000, "... and counted");
	OK(m.n * 2 <= m.cap, "the table at most half full");
	for (pid_t id = 1; id <= 200000; id++) {
		e = pidmap_get(&m, id);
		bad += !e || e->when != id * 0.5;
	}
	EQ_INT(bad, 0, "every id found with its value");
	OK(pidmap_put(&m, 77) == pidmap_get(&m, 77), "put of a present id: the same entry");
	EQ_INT(m.n, 200000, "... not counted twice");
	OK(!pidmap_get(&m, 200001), "an absent id is not found");

	pidmap_expire(&m, 3);	/* keeps gen 3 only: id % 4 == 3 */
	EQ_INT(m.n, 50000, "expiry keeps the recent quarter");
	for (pid_t id = 1; id <= 200000; id++)
		bad += (pidmap_get(&m, id) != NULL) != (id % 4 == 3);
	EQ_INT(bad, 0, "exactly those are left");
	pidmap_expire(&m, 10);
	EQ_INT(m.n, 0, "all expired");
	OK(m.cap <= 64, "the table shrank back after the burst");

	/* colliding ids: multiples of a large power of two */
	for (pid_t k = 1; k <= 1000; k++)
		bad += !pidmap_put(&m, k << 20);
	for (pid_t k = 1; k <= 1000; k++)
		bad += !pidmap_get(&m, k << 20);
	EQ_INT(bad, 0, "1,000 ids a power of two apart: all put, all found");
	pidmap_free(&m);
	OK(m.n == 0 && m.cap == 0 && !pidmap_get(&m, 1), "freed");
	return done_testing();
}
