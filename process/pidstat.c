/*
 * pidstat.c - the /proc/PID/stat parser (pidstat.h).
 */
#include "pidstat.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>


/* Fields after the state, by proc(5) number, that we keep. */
#define LAST_NEEDED 22	/* starttime: a line shorter than this is garbage */
#define LAST_WANTED 42	/* delayacct_blkio_ticks */

static int parse_field(const char **s, uint64_t *v)
{
	const char *p = *s;
	char *end;

	while (*p == ' ')
		p++;
	if (*p == '\0' || *p == '\n')
		return -1;
	errno = 0;
	/* signed fields (tpgid, priority, nice) below 0 read as 0: none of
	 * the fields we keep is meaningful when negative; unsigned ones go
	 * up to 2^64-1 (rsslim, field 25, "unlimited") */
	if (*p == '-') {
		(void)strtoll(p, &end, 10);
		*v = 0;
	} else {
		*v = strtoull(p, &end, 10);
	}
	if (end == p || errno || (*end != ' ' && *end != '\n' && *end != '\0'))
		return -1;
	*s = end;
	return 0;
}

int pidstat_parse(const char *text, struct pidstat *out)
{
	const char *open = strchr(text, '('), *close = strrchr(text, ')');
	const char *s;
	uint64_t f[LAST_WANTED + 1];
	char *end;
	long long pid;
	size_t clen;

	if (!open || !close || close < open)
		return -1;
	errno = 0;
	pid = strtoll(text, &end, 10);
	if (end == text || errno || pid <= 0 || pid > INT_MAX || *end != ' ')
		return -1;
	clen = (size_t)(close - open - 1);
	if (clen >= sizeof(out->comm))
		clen = sizeof(out->comm) - 1;
	memset(out, 0, sizeof(*out));
	memcpy(out->comm, open + 1, clen);
	out->pid = (pid_t)pid;
	s = close + 1;
	while (*s == ' ')
		s++;
	if (*s < 'A' || *s > 'z' || (s[1] != ' ' && s[1] != '\0'))
		return -1;
	out->state = *s++;
	for (int i = 4; i <= LAST_WANTED; i++) {
		if (parse_field(&s, &f[i]) < 0) {
			if (i <= LAST_NEEDED)
				return -1;
			for (; i <= LAST_WANTED; i++)
				f[i] = PIDSTAT_NA;
			break;
		}
	}
	if (f[4] > INT_MAX)
		return -1;
	out->ppid = (pid_t)f[4];
	out->utime = f[14];
	out->stime = f[15];
	out->cutime = f[16];
	out->cstime = f[17];
	out->num_threads = f[20];
	out->starttime = f[22];
	out->rss = f[24];
	out->blkio_ticks = f[42];
	return 0;
}

unsigned pidstat_parse_io(const char *text, struct pidstat_io *io)
{
	static const char *const key[4] = { "rchar:", "wchar:",
					    "read_bytes:", "write_bytes:" };
	uint64_t *dst[4] = { &io->rchar, &io->wchar, &io->read_bytes,
			     &io->write_bytes };
	unsigned have = 0;

	for (const char *line = text; line && *line;) {
		const char *nl = strchr(line, '\n');
		const char *eol = nl ? nl : line + strlen(line);

		for (int k = 0; k < 4; k++) {
			size_t kl = strlen(key[k]);
			const char *v = line + kl;
			char *end;
			unsigned long long x;

			if (strncmp(line, key[k], kl))
				continue;
			errno = 0;
			x = strtoull(v, &end, 10);
			/* strtoull takes "-1" for a huge count: refused */
			if (end != v && !errno &&
			    !memchr(v, '-', (size_t)(eol - v))) {
				*dst[k] = x;
				have |= 1u << k;
			}
			break;
		}
		line = nl ? nl + 1 : NULL;
	}
	return have;
}

int pidstat_parse_schedstat(const char *text, uint64_t v[3])
{
	const char *s = text;

	for (int i = 0; i < 3; i++) {
		char *end;

		while (*s == ' ')
			s++;
		if (*s < '0' || *s > '9')
			return -1;
		errno = 0;
		v[i] = strtoull(s, &end, 10);
		if (errno || (*end != ' ' && *end != '\n' && *end))
			return -1;
		s = end;
	}
	return 0;
}
