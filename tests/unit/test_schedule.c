/* test_schedule.c - the sample schedule with the clocks passed in. */
#include "../../collector/schedule.h"
#include "tap.h"

int main(void)
{
	struct schedule s;
	long sk;

	/* anchor at wall 1000.3 (mono 50): first stamp is 1001 with a 0.5 s gap? no:
	 * 1000.3 + 0.5 = 1000.8 -> 1001 */
	schedule_init(&s, 1, 50.0, 1000.3, 0.5);
	EQ_INT(schedule_stamp(&s), 1001, "first stamp on the next whole second");
	EQ_DBL(schedule_deadline(&s), 50.7, 1e-9, "deadline is monotonic anchor + offset");

	/* on time: k advances by one, no drift after a day of samples */
	for (int i = 0; i < 86400; i++) {
		double d = schedule_deadline(&s);

		schedule_advance(&s, d + 0.003, 1000.3 + (d + 0.003 - 50.0));
	}
	EQ_INT(schedule_stamp(&s), 1001 + 86400, "a day later: exactly 86400 stamps on");
	EQ_DBL(schedule_deadline(&s), 50.7 + 86400, 1e-6, "no drift over a day");
	EQ_INT(s.skipped, 0, "nothing skipped when on time");

	/* interval 5: stamps are multiples of 5 */
	schedule_init(&s, 5, 0.0, 1002.0, 1.0);
	EQ_INT(schedule_stamp(&s), 1005, "interval 5: first stamp 1005");
	EQ_DBL(schedule_deadline(&s), 3.0, 1e-9, "interval 5: deadline in 3 s");

	/* an overrun of 12 s: missed deadlines are skipped, not made up */
	sk = schedule_advance(&s, 3.0 + 12.2, 1002.0 + 15.2);
	EQ_INT(sk, 2, "two deadlines skipped after a 12 s stall");
	EQ_INT(schedule_stamp(&s), 1020, "next stamp is the first future one");
	OK(schedule_deadline(&s) > 15.2, "next deadline is in the future");

	/* wall clock steps forward an hour: stamps follow, spacing kept */
	schedule_init(&s, 1, 0.0, 1000.0, 0.5);
	schedule_advance(&s, 1.0, 1001.0);
	EQ_INT(schedule_stamp(&s), 1002, "before the step");
	schedule_advance(&s, 2.0, 1002.0 + 3600);
	OK(schedule_stamp(&s) >= 1002 + 3600, "stamps re-anchored after a forward step");
	EQ_INT(s.stepped, 1, "forward step noted");
	{
		double d = schedule_deadline(&s);

		OK(d > 2.0 && d <= 3.3, "next deadline about one interval later");
	}

	/* wall clock steps back an hour: stamps keep increasing */
	schedule_init(&s, 1, 0.0, 5000.0, 0.5);
	schedule_advance(&s, 1.0, 5001.0);
	{
		time_t before = schedule_stamp(&s);

		schedule_advance(&s, 2.0, 5002.0 - 3600);
		OK(schedule_stamp(&s) > before, "stamps never go back after a backward step");
		EQ_DBL(schedule_deadline(&s) - 2.0, 1.0, 1e-9, "spacing kept after a backward step");
		EQ_INT(s.stepped, 1, "backward step noted once");
		schedule_advance(&s, 3.0, 5003.0 - 3600);
		EQ_INT(s.stepped, 1, "and not again on the next sample");
	}
	return done_testing();
}
