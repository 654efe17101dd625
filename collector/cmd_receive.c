/*
 * cmd_receive.c - `perflog receive [-l ADDR[:PORT]] -b DIR`: on the host
 * of an rrdcached that collectors of other hosts reach over TCP, take
 * their log sets' files other than the RRD files (perflog.meta,
 * markers.tsv, collector.log, the journal, the waits files), which the
 * daemon cannot carry, into DIR/SET beside the RRD files the daemon
 * writes there (DIR is the daemon's -b). The wire and the writer's side
 * are logs/mirror.h; README "Many hosts: rrdcached" has the setup.
 *
 * It runs in the foreground, as rrdcached -g does (a service manager
 * keeps it): one child process a connection, so one collector's stream
 * never waits on another's, and a child that dies takes one connection
 * with it (the collector reconnects and sends its files whole).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <netdb.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../common/util.h"
#include "../logs/mirror.h"
#include "../commands.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: perflog receive [-l ADDR[:PORT]] -b DIR\n"
		"  -l ADDR[:PORT]  listen there (default: every address, port %s)\n"
		"  -b DIR      write the log sets under DIR: rrdcached's -b directory\n"
		"Takes the files other than RRD files of the log sets that collectors\n"
		"of other hosts write through rrdcached over TCP ([log] rrdcached =\n"
		"THIS_HOST:PORT). For a trusted network, as rrdcached's TCP port.\n",
		MIRROR_PORT);
}

/* ADDR[:PORT], [V6]:PORT or :PORT into a listening socket: fd, or -1
 * (said on stderr). */
static int listen_on(const char *spec)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_PASSIVE }, *res, *ai;
	char host[256] = "", port[32] = MIRROR_PORT;
	const char *colon = strrchr(spec, ':');
	int fd = -1, one = 1, rc;

	if (spec[0] == '[' && strchr(spec, ']')) {
		const char *end = strchr(spec, ']');

		snprintf(host, sizeof(host), "%.*s", (int)(end - spec - 1),
			 spec + 1);
		if (end[1] == ':')
			snprintf(port, sizeof(port), "%s", end + 2);
	} else if (colon && colon == strchr(spec, ':')) {
		snprintf(host, sizeof(host), "%.*s", (int)(colon - spec), spec);
		snprintf(port, sizeof(port), "%s", colon + 1);
	} else {
		snprintf(host, sizeof(host), "%s", spec);
	}
	rc = getaddrinfo(*host ? host : NULL, port, &hints, &res);
	if (rc != 0) {
		fprintf(stderr, "perflog receive: -l '%s': %s\n", spec,
			gai_strerror(rc));
		return -1;
	}
	for (ai = res; ai; ai = ai->ai_next) {
		fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd < 0)
			continue;
		(void)setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 &&
		    listen(fd, 64) == 0)
			break;
		close(fd);
		fd = -1;
	}
	rc = errno;
	freeaddrinfo(res);
	if (fd < 0)
		fprintf(stderr, "perflog receive: unable to listen on '%s': %s\n",
			spec, strerror(rc));
	return fd;
}

/* The peer's address for messages. */
static void peer_name(const struct sockaddr_storage *sa, socklen_t len,
		      char *out, size_t n)
{
	char host[NI_MAXHOST], serv[NI_MAXSERV];

	if (getnameinfo((const struct sockaddr *)sa, len, host, sizeof(host),
			serv, sizeof(serv), NI_NUMERICHOST | NI_NUMERICSERV))
		snprintf(out, n, "?");
	else
		snprintf(out, n, "%s:%s", host, serv);
}

int cmd_receive(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *listen_spec = "", *base = NULL;
	int c, lfd, basefd;

	optind = 1;
	opterr = 0;
	while ((c = util_getopt(argc, argv, "l:b:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'l': listen_spec = optarg; break;
		case 'b': base = optarg; break;
		case 'h': usage(stdout); return 0;
		default: return util_bad_option("receive", argv, optind, optopt);
		}
	}
	if (optind < argc || !base) {
		if (optind < argc)
			fprintf(stderr, "perflog receive: unexpected argument '%s'\n",
				argv[optind]);
		else
			fprintf(stderr, "perflog receive: -b DIR is required (rrdcached's -b directory)\n");
		return 2;
	}
	basefd = open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (basefd < 0) {
		fprintf(stderr, "perflog receive: -b '%s': %s\n", base,
			strerror(errno));
		return 1;
	}
	lfd = listen_on(listen_spec);
	if (lfd < 0)
		return 1;
	/* children reaped by the kernel; a peer gone is a failed send */
	signal(SIGCHLD, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	fprintf(stderr, "perflog receive: writing log sets under '%s'\n", base);
	for (;;) {
		struct sockaddr_storage sa;
		socklen_t len = sizeof(sa);
		char peer[NI_MAXHOST + NI_MAXSERV + 2];
		int fd = accept4(lfd, (struct sockaddr *)&sa, &len, SOCK_CLOEXEC);
		pid_t pid;

		if (fd < 0) {
			if (errno == EINTR || errno == ECONNABORTED ||
			    errno == EMFILE || errno == ENFILE)
				continue;
			fprintf(stderr, "perflog receive: accept: %s\n",
				strerror(errno));
			return 1;
		}
		pid = fork();
		if (pid == 0) {
			FILE *in = fdopen(fd, "r");

			close(lfd);
			peer_name(&sa, len, peer, sizeof(peer));
			if (in)
				mirror_answer(basefd, in, fd, peer, stderr);
			_exit(0);
		}
		if (pid < 0)
			fprintf(stderr, "perflog receive: fork: %s\n",
				strerror(errno));
		close(fd);
	}
}
