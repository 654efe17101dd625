/*
 * test_run_clock.c - the arithmetic of perflog run --server
 * (run/run_clock.h): the offset from round trips, the best of several,
 * the connect timeout of an ssh command line, the marker keys.
 */
#include <math.h>

#include "../../run/run_clock.h"
#include "tap.h"

int main(void)
{
	struct clock_fit f;

	/* a remote 30 s ahead, a symmetric 10 ms round trip */
	{
		struct clock_sample s[] = {
			{ 1796160000.000, 1796160030.005, 1796160000.010 },
		};
		OK(clock_best(s, 1, &f) == 0, "one sample");
		EQ_DBL(f.offset, 30.0, 1e-6, "offset = tr - (t1 + t4) / 2");
		EQ_DBL(f.rtt, 0.010, 1e-6, "rtt = t4 - t1");
	}
	/* a remote 30 s behind: the sign is remote minus local */
	{
		struct clock_sample s[] = { { 100.0, 70.001, 100.002 } };
		clock_best(s, 1, &f);
		EQ_DBL(f.offset, -30.0, 1e-6, "a remote behind: negative offset");
	}
	/* the sample of the smallest round trip wins, whatever its order;
	 * an asymmetric long one (stamp late in its trip) would be 0.2 s off */
	{
		struct clock_sample s[] = {
			{ 10.0, 15.4, 10.5 },	/* rtt 0.5, offset 5.15 */
			{ 20.0, 25.0105, 20.02 },	/* rtt 0.02, offset 5.0005 */
			{ 30.0, 35.01, 30.1 },	/* rtt 0.1, offset 4.96 */
		};
		OK(clock_best(s, 3, &f) == 0, "three samples");
		EQ_DBL(f.rtt, 0.02, 1e-9, "smallest rtt kept");
		EQ_DBL(f.offset, 5.0005, 1e-9, "its offset");
		EQ_INT(f.used, 3, "all three sane");
	}
	/* a reply read before its request was sent (a clock step under us)
	 * and a NaN are not samples */
	{
		struct clock_sample s[] = {
			{ 10.0, 11.0, 9.0 },
			{ 10.0, NAN, 10.1 },
			{ 10.0, 12.05, 10.1 },
		};
		OK(clock_best(s, 3, &f) == 0, "insane samples skipped");
		EQ_INT(f.used, 1, "one sane");
		EQ_DBL(f.offset, 2.0, 1e-9, "the sane one's offset");
		OK(clock_best(s, 2, &f) < 0, "none sane: -1");
		OK(clock_best(s, 0, &f) < 0, "none at all: -1");
	}
	/* microseconds survive epoch-sized stamps */
	{
		struct clock_sample s[] = {
			{ 1796160000.123456, 1796160000.123956, 1796160000.124456 },
		};
		clock_best(s, 1, &f);
		EQ_DBL(f.offset, 0.0, 2e-6, "no loss at 1.8e9 s");
	}
	EQ_DBL(clock_connect_timeout("ssh -o BatchMode=yes -o ConnectTimeout=10", 7),
	       10, 0, "ConnectTimeout=10");
	EQ_DBL(clock_connect_timeout("ssh -oConnectTimeout=2.5 -p 22", 7), 2.5, 0,
	       "-oConnectTimeout=2.5");
	EQ_DBL(clock_connect_timeout("ssh -o 'connecttimeout 3'", 7), 3, 0,
	       "any case, space");
	EQ_DBL(clock_connect_timeout("ssh -o BatchMode=yes", 7), 7, 0,
	       "absent: the default");
	EQ_DBL(clock_connect_timeout("ssh -o ConnectTimeout=-1", 7), 7, 0,
	       "negative: the default");
	{
		char k[64];

		clock_key(k, sizeof(k), 1, "offset");
		EQ_STR(k, "offset", "first server: offset");
		clock_key(k, sizeof(k), 1, "error");
		EQ_STR(k, "peer.error", "first server: peer.error");
		clock_key(k, sizeof(k), 2, "peer");
		EQ_STR(k, "peer.2", "second: peer.2");
		clock_key(k, sizeof(k), 3, "error");
		EQ_STR(k, "peer.3.error", "third: peer.3.error");
	}
	return done_testing();
}
