/*
 * ctlpoke - speak raw bytes to a control socket, for the robustness suites
 * (tests/t7400-control.t): what a hostile or broken client would send.
 *
 *   ctlpoke SOCKET [WAIT]     connect, wait WAIT seconds (default 0), send
 *                             stdin as is (NULs and all), shut the write
 *                             side, print the reply
 *
 * Exit 0 with the reply on stdout; 2 when the connection is refused (the
 * error on stderr); 3 when the collector closed without a reply or did not
 * answer within 20 s.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct sockaddr_un sa;
	char *in = NULL, buf[4096];
	size_t len = 0, cap = 0, got = 0;
	ssize_t n;
	int fd;

	if (argc < 2) {
		fprintf(stderr, "usage: ctlpoke SOCKET [WAIT] < request\n");
		return 64;
	}
	for (;;) {
		if (len == cap) {
			cap = cap ? cap * 2 : 65536;
			in = realloc(in, cap);
			if (!in)
				return 1;
		}
		n = read(0, in + len, cap - len);
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", argv[1]);
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		fprintf(stderr, "ctlpoke: connect '%s': %s\n", argv[1],
			strerror(errno));
		return 2;
	}
	if (argc > 2)
		usleep((useconds_t)(atof(argv[2]) * 1e6));
	for (size_t off = 0; off < len;) {
		n = send(fd, in + off, len - off, MSG_NOSIGNAL);
		if (n <= 0)
			break;	/* the collector may hang up on a long request */
		off += (size_t)n;
	}
	shutdown(fd, SHUT_WR);
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };

		if (poll(&p, 1, 20000) <= 0)
			break;
		n = read(fd, buf + got, sizeof(buf) - 1 - got);
		if (n <= 0)
			break;
		got += (size_t)n;
		if (got == sizeof(buf) - 1)
			break;
	}
	close(fd);
	free(in);
	buf[got] = '\0';
	fputs(buf, stdout);
	return got ? 0 : 3;
}
