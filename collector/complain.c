/* complain.c - see complain.h. */
#include "complain.h"

#include <stdarg.h>
#include <stdio.h>
#include <syslog.h>
#include <time.h>

#include "../common/util.h"

static int use_syslog;

void complain_syslog(int on)
{
	if (on && !use_syslog)
		openlog("perflog", LOG_PID, LOG_DAEMON);
	use_syslog = on;
}

static void say(const char *fmt, va_list ap, const char *suffix)
{
	char when[40];

	if (use_syslog) {
		char msg[1024];
		va_list copy;

		va_copy(copy, ap);
		vsnprintf(msg, sizeof(msg), fmt, copy);
		va_end(copy);
		syslog(LOG_WARNING, "%s%s", msg, suffix);
	}

	util_iso8601(when, sizeof(when), time(NULL), -1);
	fprintf(stderr, "perflog: %s: ", when);
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "%s\n", suffix);
	fflush(stderr);
}

void complain(struct complaint *c, double now, const char *fmt, ...)
{
	va_list ap;

	c->count++;
	if (c->active && now < c->next)
		return;
	if (!c->active)
		c->backoff = 60;
	else if (c->backoff < 86400)
		c->backoff *= 2;
	c->active = 1;
	c->next = now + c->backoff;
	va_start(ap, fmt);
	say(fmt, ap, c->count > 1 ? " (repeated)" : "");
	va_end(ap);
}

void complain_release(struct complaint *c, const char *fmt, ...)
{
	va_list ap;
	char suffix[64];

	if (!c->active)
		return;
	snprintf(suffix, sizeof(suffix), " (after %lu failures)", c->count);
	va_start(ap, fmt);
	say(fmt, ap, suffix);
	va_end(ap);
	c->active = 0;
	c->count = 0;
}
