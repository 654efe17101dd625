/*
 * conn_host.c - a peer's host name from ROOT/etc/hosts (conn_sessions.h).
 * The local file only: the C library's resolver may ask a name server
 * (a query leaving the host at every new connection, and a wait in the
 * collector's loop when it does not answer).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "../common/util.h"
#include "conn_sessions.h"

int conn_host_name(const char *root, int family, const void *addr,
		   char *out, size_t n)
{
	char path[PATH_MAX], line[1024];
	size_t len = family == AF_INET ? 4 : 16;
	int found = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/etc/hosts",
		 strcmp(root, "/") ? root : "");
	if (!(f = fopen(path, "re")))
		return -1;
	while (found < 0 && fgets(line, sizeof(line), f)) {
		unsigned char a[16];
		char *save = NULL, *hash = strchr(line, '#');
		char *w, *name;

		if (hash)
			*hash = '\0';
		w = strtok_r(line, " \t\r\n", &save);
		name = w ? strtok_r(NULL, " \t\r\n", &save) : NULL;
		if (name && inet_pton(family, w, a) == 1 && !memcmp(a, addr, len))
			found = util_strlcpy(out, name, n) < 0 ? -1 : 0;
	}
	fclose(f);
	return found;
}
