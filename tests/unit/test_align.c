/*
 * test_align.c - one log set on another's clock (logs/align.h): the
 * offset from the set's own markers (rule 1), from the reference's
 * (rule 2, negated, a user@ prefix and a domain dropped), the median of
 * several, peer.N fields and a failed peer, no recorded offset, the
 * manual override, and --shift's SET=SECONDS.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../logs/align.h"
#include "tap.h"

static void meta(struct logset_meta *m, const char *host)
{
	memset(m, 0, sizeof(*m));
	strcpy(m->host, host);
}

static void parse(struct marker_list *l, const char *text)
{
	memset(l, 0, sizeof(*l));
	if (markers_parse(text, "markers.tsv", l) < 0 || l->bad_lines)
		fprintf(stderr, "# fixture did not parse: %s\n", text);
}

int main(void)
{
	struct logset_meta cm, xm;
	struct marker_list cl, xl, none = { 0 };
	struct align_shift a;
	char *dir;
	double secs;

	meta(&cm, "cli");
	meta(&xm, "tsmsrv");
	/* rule 1: the server's own markers name the client: C - X */
	parse(&xl, "2023-11-14T22:14:20.000Z\tbegin\tjob\tx\tpeer=cli\toffset=-30.000\trtt=0.002\n"
		   "2023-11-14T22:15:20.000Z\tend\tjob\tx\tpeer=cli\toffset=-30.400\trtt=0.004\n"
		   "2023-11-14T22:16:20.000Z\tbegin\tjob2\tx\tpeer=cli\toffset=-29.900\n");
	parse(&cl, "2023-11-14T22:13:50.000Z\tbegin\tjob\tx\tpeer=backup@tsmsrv\toffset=99\n");
	align_shift_of(&cm, &cl, &xm, &xl, &a);
	EQ_INT(a.source, ALIGN_OWN, "rule 1: the set's own markers first");
	EQ_DBL(a.seconds, -30.0, 1e-9, "median of -30.0, -30.4, -29.9");
	EQ_INT(a.n, 3, "three offsets");
	EQ_DBL(a.rtt, 0.003, 1e-9, "median round trip of those known");
	OK(strstr(a.what, "tsmsrv's markers") != NULL, "says where from");
	printf("#   %s\n", a.what);
	markers_free(&xl);

	/* rule 2: only the client recorded it: negated, user@ dropped */
	align_shift_of(&cm, &cl, &xm, &none, &a);
	EQ_INT(a.source, ALIGN_REF, "rule 2: the reference's markers");
	EQ_DBL(a.seconds, -99, 1e-9, "negated");
	markers_free(&cl);

	/* a second server's fields; a failed one is skipped */
	meta(&xm, "srv2");
	parse(&cl, "2023-11-14T22:13:50.000Z\tbegin\tjob\tx\tpeer=srv1\toffset=1\t"
		   "peer.2=root@srv2.example.com\toffset.2=12.5\trtt.2=0.01\t"
		   "peer.3=srv3\tpeer.3.error=connection refused\n");
	align_shift_of(&cm, &cl, &xm, NULL, &a);
	EQ_DBL(a.seconds, -12.5, 1e-9, "peer.2 with a domain matches srv2");
	meta(&xm, "srv3");
	align_shift_of(&cm, &cl, &xm, NULL, &a);
	EQ_INT(a.source, ALIGN_NONE, "a failed server: no offset");
	EQ_DBL(a.seconds, 0, 0, "no offset: 0");
	OK(strstr(a.what, "no recorded offset") != NULL, "says so");
	meta(&xm, "srv");
	align_shift_of(&cm, &cl, &xm, NULL, &a);
	EQ_INT(a.source, ALIGN_NONE, "srv is not srv1 or srv2");
	markers_free(&cl);

	OK(align_peer_is("u@Host.dom", "host"), "user@ and domain, any case");
	OK(!align_peer_is("hostx", "host"), "a longer name is another host");
	OK(!align_peer_is("", "host") && !align_peer_is(NULL, "host"), "empty");

	align_manual(-3, &a);
	EQ_INT(a.source, ALIGN_MANUAL, "--shift");
	EQ_DBL(a.seconds, -3, 0, "as given");

	OK(align_parse_shift("srv/=-30.5", &dir, &secs) == 0 &&
	   !strcmp(dir, "srv/") && secs == -30.5, "SET=SECONDS");
	free(dir);
	OK(align_parse_shift("a=b=4", &dir, &secs) == 0 && !strcmp(dir, "a=b") &&
	   secs == 4, "the last '=' splits");
	free(dir);
	OK(align_parse_shift("srv=", &dir, &secs) < 0, "no seconds");
	OK(align_parse_shift("=3", &dir, &secs) < 0, "no set");
	OK(align_parse_shift("srv=3x", &dir, &secs) < 0, "not a number");
	OK(align_parse_shift("srv=1e12", &dir, &secs) < 0, "beyond ten years");
	OK(align_same_dir("logs/x/", "logs/x") && !align_same_dir("logs/x", "logs/y"),
	   "same set named two ways");
	return done_testing();
}
