/* util.c - see util.h. */
#define _GNU_SOURCE
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "strbuf.h"
#include "suggest.h"

int perr_set(struct perr *e, const char *fmt, ...)
{
	va_list ap;

	if (!e)
		return -1;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	/* one line: a message never carries a newline into the terminal */
	for (char *p = e->msg; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
	return -1;
}

int util_strlcpy(char *dst, const char *src, size_t n)
{
	size_t len = strlen(src);

	if (n == 0)
		return -1;
	if (len >= n) {
		memcpy(dst, src, n - 1);
		dst[n - 1] = '\0';
		return -1;
	}
	memcpy(dst, src, len + 1);
	return 0;
}

double util_monotonic(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

double util_thread_cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

double util_cost_clock(void)
{
	static int cpu = -1;

	if (cpu < 0) {
		const char *c = getenv("PERFLOG_COST_CLOCK");

		cpu = c && strcmp(c, "cpu") == 0;
	}
	return cpu ? util_thread_cpu() : util_monotonic();
}

double util_walltime(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

char *util_iso8601(char *buf, size_t n, time_t t, int ms)
{
	struct tm tm;

	gmtime_r(&t, &tm);
	if (ms < 0)
		strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm);
	else {
		char tmp[32];

		strftime(tmp, sizeof(tmp), "%Y-%m-%dT%H:%M:%S", &tm);
		snprintf(buf, n, "%s.%03dZ", tmp, ms % 1000);
	}
	return buf;
}

int util_parse_iso8601(const char *s, time_t *t, int *ms)
{
	struct tm tm;
	int msv = 0, used = 0;

	memset(&tm, 0, sizeof(tm));
	if (sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d%n", &tm.tm_year, &tm.tm_mon,
		   &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec,
		   &used) != 6 || used != 19)
		return -1;
	s += used;
	if (*s == '.') {
		int digits = 0;

		s++;
		while (*s >= '0' && *s <= '9') {
			if (digits < 3)
				msv = msv * 10 + (*s - '0');
			digits++;
			s++;
		}
		if (digits == 0)
			return -1;
		for (; digits < 3; digits++)
			msv *= 10;
	}
	if (strcmp(s, "Z") != 0)
		return -1;
	if (tm.tm_mon < 1 || tm.tm_mon > 12 || tm.tm_mday < 1 ||
	    tm.tm_mday > 31 || tm.tm_hour > 23 || tm.tm_min > 59 ||
	    tm.tm_sec > 60 || tm.tm_year < 1970)
		return -1;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	*t = timegm(&tm);
	if (ms)
		*ms = msv;
	return 0;
}

int util_parse_long(const char *s, long lo, long hi, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (end == s || *end || errno || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

char *util_fmt_step(char *buf, size_t n, unsigned long step, int compact)
{
	const char *sep = compact ? "" : " ";

	if (step >= 3600 && step % 3600 == 0)
		snprintf(buf, n, "%lu%sh", step / 3600, sep);
	else if (step >= 60 && step % 60 == 0)
		snprintf(buf, n, "%lu%s%s", step / 60, sep, compact ? "m" : "min");
	else
		snprintf(buf, n, "%lu%ss", step, sep);
	return buf;
}

int util_parse_duration(const char *s, unsigned long *seconds)
{
	char *end;
	unsigned long v, mult = 1;

	while (*s == ' ' || *s == '\t')
		s++;
	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno)
		return -1;
	switch (*end) {
	case '\0': break;
	case 's': mult = 1; end++; break;
	case 'm': mult = 60; end++; break;
	case 'h': mult = 3600; end++; break;
	case 'd': mult = 86400; end++; break;
	case 'w': mult = 7 * 86400; end++; break;
	default: return -1;
	}
	while (*end == ' ' || *end == '\t')
		end++;
	if (*end)
		return -1;
	if (v > ULONG_MAX / mult)
		return -1;
	*seconds = v * mult;
	return 0;
}

int util_mkdirs(const char *dir, unsigned mode)
{
	return util_mkdirs_made(dir, mode, NULL, 0);
}

int util_mkdirs_made(const char *dir, unsigned mode, char *made, size_t n)
{
	char path[PATH_MAX];
	size_t len;

	if (made && n)
		made[0] = '\0';
	if (util_strlcpy(path, dir, sizeof(path)) < 0) {
		errno = ENAMETOOLONG;
		return -1;
	}
	len = strlen(path);
	for (char *p = path + 1; p <= path + len; p++) {
		if (*p != '/' && *p)
			continue;
		char c = *p;

		*p = '\0';
		if (mkdir(path, mode) == 0) {
			if (made && n && !made[0])
				util_strlcpy(made, path, n);
		} else if (errno != EEXIST) {
			return -1;
		}
		*p = c;
	}
	return 0;
}

void util_rmdirs_made(const char *dir, const char *made)
{
	char path[PATH_MAX];
	size_t top = made ? strlen(made) : 0;

	if (!top || util_strlcpy(path, dir, sizeof(path)) < 0 ||
	    strncmp(path, made, top) || (path[top] && path[top] != '/'))
		return;
	for (;;) {
		size_t len = strlen(path);

		while (len > top && path[len - 1] == '/')
			path[--len] = '\0';
		if (rmdir(path) < 0 || len <= top)
			return;
		char *slash = strrchr(path, '/');

		if (!slash || (size_t)(slash - path) < top)
			return;
		*slash = '\0';
	}
}

int util_write_full(int fd, const void *buf, size_t n)
{
	const char *p = buf;

	while (n > 0) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (w == 0)
				errno = EIO;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

int util_write_atomic(const char *path, const char *data, size_t len,
		      struct perr *e)
{
	char tmp[PATH_MAX];
	int fd;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid()) >=
	    (int)sizeof(tmp))
		return perr_set(e, "path too long: '%s'", path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return perr_set(e, "unable to create '%s': %s", tmp,
				strerror(errno));
	if (util_write_full(fd, data, len) < 0) {
		perr_set(e, "unable to write '%s': %s", tmp, strerror(errno));
		close(fd);
		unlink(tmp);
		return -1;
	}
	if (fsync(fd) < 0 || close(fd) < 0) {
		perr_set(e, "unable to write '%s': %s", tmp, strerror(errno));
		unlink(tmp);
		return -1;
	}
	if (rename(tmp, path) < 0) {
		perr_set(e, "unable to rename '%s': %s", tmp, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

char *util_read_file(const char *path, size_t *len)
{
	struct strbuf b = STRBUF_INIT;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	for (;;) {
		ssize_t r;

		if (b.cap - b.len < 2048 && strbuf_reserve(&b, b.cap ? b.cap : 4096) < 0) {
			strbuf_free(&b);
			close(fd);
			errno = ENOMEM;
			return NULL;
		}
		r = read(fd, b.p + b.len, b.cap - b.len - 1);
		if (r < 0) {
			int err = errno;

			if (err == EINTR)
				continue;
			strbuf_free(&b);
			close(fd);
			errno = err;
			return NULL;
		}
		if (r == 0)
			break;
		b.len += (size_t)r;
		b.p[b.len] = '\0';
	}
	close(fd);
	return strbuf_detach(&b, len);
}

char *util_load_file(const char *path, size_t *len, struct perr *e)
{
	char *text = util_read_file(path, len);
	int err = errno;

	if (!text) {
		perr_set(e, "unable to read '%s': %s", path, strerror(err));
		errno = err;
	}
	return text;
}

long util_read_small(const char *path, char *buf, size_t n)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t got = 0;

	if (fd < 0)
		return -1;
	while (got + 1 < n) {
		ssize_t r = read(fd, buf + got, n - 1 - got);

		if (r < 0) {
			int err = errno;

			if (err == EINTR)
				continue;
			close(fd);
			errno = err;
			return -1;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	if (n)
		buf[got] = '\0';
	return (long)got;
}

int util_parse_size(const char *s, unsigned long long *bytes)
{
	char *end;
	unsigned long long v, mult = 1;

	while (*s == ' ' || *s == '\t')
		s++;
	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -1;
	switch (toupper((unsigned char)*end)) {
	case 'K': mult = 1ULL << 10; end++; break;
	case 'M': mult = 1ULL << 20; end++; break;
	case 'G': mult = 1ULL << 30; end++; break;
	case 'T': mult = 1ULL << 40; end++; break;
	default: break;
	}
	if (mult > 1 && (*end == 'i' || *end == 'I'))
		end++;
	if (*end == 'b' || *end == 'B')
		end++;
	while (*end == ' ' || *end == '\t')
		end++;
	if (*end || (v && mult > ULLONG_MAX / v))
		return -1;
	*bytes = v * mult;
	return 0;
}

ssize_t util_pread_text(int fd, char *buf, size_t n)
{
	ssize_t r;

	do
		r = pread(fd, buf, n - 1, 0);
	while (r < 0 && errno == EINTR);
	buf[r > 0 ? r : 0] = '\0';
	return r;
}

ssize_t util_read_text_at(int dirfd, const char *rel, char *buf, size_t n)
{
	int fd = openat(dirfd, rel, O_RDONLY | O_CLOEXEC);
	ssize_t r;
	int err;

	if (fd < 0)
		return -1;
	r = util_pread_text(fd, buf, n);
	err = errno;
	close(fd);
	errno = err;
	return r;
}

int util_grow(void *pp, size_t *cap, size_t need, size_t size)
{
	void **p = pp;
	size_t n = *cap ? *cap : 16;
	void *q;

	if (need <= *cap)
		return 0;
	while (n < need) {
		if (n > SIZE_MAX / 2)
			return -1;
		n *= 2;
	}
	if (n > SIZE_MAX / size)
		return -1;
	q = realloc(*p, n * size);
	if (!q)
		return -1;
	*p = q;
	*cap = n;
	return 0;
}

int util_cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

int util_list_has(const char *list, const char *item)
{
	size_t l = strlen(item);

	for (const char *p = list; p && *p;) {
		if (!strncmp(p, item, l) && (p[l] == ',' || p[l] == '\0'))
			return 1;
		p = strchr(p, ',');
		p = p ? p + 1 : NULL;
	}
	return 0;
}

int util_list_add(char *list, size_t n, const char *item)
{
	size_t len = strlen(list), l = strlen(item);

	if (!l || util_list_has(list, item) || len + l + 2 > n)
		return 0;
	snprintf(list + len, n - len, "%s%s", len ? "," : "", item);
	return 1;
}

/* What util_getopt last parsed with, for util_bad_option. */
static const struct option *opt_long;
static const char *opt_short;
static const char *opt_cut;	/* a long option given by a beginning */

int util_getopt(int argc, char **argv, const char *shortopts,
		const struct option *longopts, int *longindex)
{
	int li = -1, c = getopt_long(argc, argv, shortopts, longopts, &li);
	const struct option *o;
	const char *tok, *name;

	opt_long = longopts;
	opt_short = shortopts;
	opt_cut = NULL;
	if (longindex)
		*longindex = li;
	if (c == -1 || c == '?' || c == ':' || li < 0 || optind < 1)
		return c;
	o = &longopts[li];
	/* the token: the value is the argument after it, or after its = */
	tok = argv[optind - 1];
	if (o->has_arg == required_argument && optind >= 2 &&
	    optarg == argv[optind - 1])
		tok = argv[optind - 2];
	if (strncmp(tok, "--", 2))
		return c;
	name = tok + 2;
	if (strcspn(name, "=") != strlen(o->name) ||
	    strncmp(name, o->name, strlen(o->name))) {
		opt_cut = tok;
		optopt = 0;
		return '?';
	}
	return c;
}

int util_bad_option(const char *cmd, char **argv, int optind_now,
		    int optopt_now)
{
	const char *arg = opt_cut ? opt_cut : argv[optind_now - 1];
	char name[64], guess[80] = "";
	struct suggest s;

	if (optopt_now && arg[0] == '-' && arg[1] != '-') {
		const char *k = opt_short ? strchr(opt_short, optopt_now) : NULL;

		if (k && k[1] == ':')
			fprintf(stderr, "perflog %s: option '-%c' needs a value (see perflog %s --help)\n",
				cmd, optopt_now, cmd);
		else
			fprintf(stderr, "perflog %s: unknown option '-%c' (see perflog %s --help)\n",
				cmd, optopt_now, cmd);
		return 2;
	}
	snprintf(name, sizeof(name), "%.*s", (int)strcspn(arg, "="), arg);
	suggest_init(&s, name + (strncmp(name, "--", 2) ? 0 : 2));
	for (const struct option *o = opt_long; o && o->name; o++) {
		if (!strcmp(o->name, s.word) && o->has_arg == required_argument &&
		    !opt_cut) {
			fprintf(stderr, "perflog %s: option '--%s' needs a value (see perflog %s --help)\n",
				cmd, o->name, cmd);
			return 2;
		}
		suggest_offer(&s, o->name);
	}
	if (suggest_best(&s))
		snprintf(guess, sizeof(guess), ": did you mean '--%s'?",
			 suggest_best(&s));
	fprintf(stderr, "perflog %s: unknown option '%s'%s (see perflog %s --help)\n",
		cmd, name, guess, cmd);
	return 2;
}

int util_term_dumb(void)
{
	const char *t = getenv("TERM");

	return !t || !*t || !strcmp(t, "dumb");
}

int util_color_ok(void)
{
	const char *nc = getenv("NO_COLOR");

	return !(nc && *nc) && !util_term_dumb();
}
