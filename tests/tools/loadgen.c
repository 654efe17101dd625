/*
 * loadgen.c - known load for the end-to-end tests, so logged rates can be
 * checked against what was generated:
 *
 *   loadgen burn SECONDS            burn one core; prints the CPU seconds used
 *   loadgen write FILE BYTES [SECONDS]
 *                                   write BYTES (incompressible) with fsync,
 *                                   at once or spread evenly over SECONDS
 *                                   (each 64 KiB synced: on the disk as
 *                                   written, not in writeback's bursts)
 *   loadgen send HOST PORT BYTES [SECONDS]
 *                                   connect and send BYTES over TCP, at
 *                                   once or spread evenly over SECONDS
 *   loadgen recv ADDR PORT          accept one connection, count, print bytes
 *   loadgen stdout BYTES            write BYTES to stdout (prints to stderr)
 *   loadgen orphans N SECONDS BYTES [DIR]
 *                                   ignore SIGCHLD (children auto-reaped),
 *                                   fork N children that each burn SECONDS
 *                                   of CPU then write BYTES to /dev/null,
 *                                   or to a file of its own in DIR, synced;
 *                                   prints "CPU_SECONDS BYTES" of them all
 *   loadgen touch SECONDS FILE...   map the files and read one byte of a
 *                                   page drawn at random, again and again
 *                                   for SECONDS (a client looking up its
 *                                   index or chunk cache); prints the pages
 *                                   touched
 *   loadgen threads N SECONDS       N threads, each waiting on a socket of
 *                                   its own with a 20 ms timeout (a client's
 *                                   pool of connections), for SECONDS
 *   loadgen mixed N SECONDS         as threads, but each wait is drawn
 *                                   at random: the socket's poll, or a
 *                                   nanosleep, of 10-30 ms (the blocked time
 *                                   split about evenly, other and sleep);
 *                                   prints "N POLL_S SLEEP_S", the
 *                                   seconds the threads spent in each
 *   loadgen parked N SECONDS        N threads blocked on one pipe with no
 *                                   timeout (an idle worker pool), woken
 *                                   once at the end, SECONDS later
 *   loadgen pace SECONDS RATE FILE  write FILE at RATE bytes/s in 64 KiB
 *                                   pieces, sleeping (nanosleep) between
 *                                   them, for SECONDS: a client that paces
 *                                   itself; prints the bytes written
 *
 * Each prints what it really did: one number, "orphans" two, "mixed"
 * three.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <poll.h>
#include <pthread.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void fill(char *buf, size_t n)
{
	unsigned long long x = 0x9e3779b97f4a7c15ULL;

	for (size_t i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		buf[i] = (char)x;
	}
}

static double mono_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

static int burn(double seconds)
{
	struct timespec t0, t;
	struct rusage ru;
	volatile unsigned long spin = 0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		for (int i = 0; i < 100000; i++)
			spin++;
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) / 1e9 <
		 seconds);
	getrusage(RUSAGE_SELF, &ru);
	printf("%.3f\n", ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
				 ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6);
	return 0;
}

/* Sleep sec seconds (none when not positive). */
static void sleep_s(double sec)
{
	if (sec > 0) {
		struct timespec ts = { (time_t)sec,
			(long)((sec - (double)(time_t)sec) * 1e9) };
		nanosleep(&ts, NULL);
	}
}

/* Sleep until done bytes are due at rate bytes/s since t0. */
static void pace_to(double t0, long long done, double rate)
{
	sleep_s(t0 + (double)done / rate - mono_now());
}

/* Write bytes of incompressible data to fd; each write's data differs (a
 * deduplicating target must not shrink it). seconds 0: at once, a
 * megabyte a write; else in 64 KiB pieces paced to spread over seconds (a
 * burst in one second is what a logger sampling by whole seconds is least
 * exact on, nmon's stamps; an even stream is what a backup sends); sync:
 * each paced piece fdatasync'ed (a file's bytes on the disk as written,
 * not in writeback's bursts). Returns the bytes written, or -1 after
 * perror(what). */
static long long write_bytes(int fd, long long bytes, double seconds,
			     int sync, const char *what)
{
	static char buf[1 << 20];
	long long piece = seconds > 0 ? 64 * 1024 : (long long)sizeof(buf);
	double t0 = mono_now();
	long long done = 0;

	fill(buf, sizeof(buf));
	while (done < bytes) {
		size_t n = (size_t)(bytes - done < piece ? bytes - done : piece);
		ssize_t w = write(fd, buf, n);

		if (w < 0 || (seconds > 0 && sync && fdatasync(fd) < 0)) {
			perror(what);
			return -1;
		}
		done += w;
		buf[0]++;
		if (seconds > 0)
			pace_to(t0, done, (double)bytes / seconds);
	}
	return done;
}

static int do_write(const char *file, long long bytes, double seconds)
{
	int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	long long done = 0;

	if (fd < 0) {
		perror(file);
		return 1;
	}
	done = write_bytes(fd, bytes, seconds, 1, file);
	if (done < 0)
		return 1;
	if (fsync(fd) < 0 || close(fd) < 0) {
		perror(file);
		return 1;
	}
	printf("%lld\n", done);
	return 0;
}

static int do_send(const char *host, int port, long long bytes,
		   double seconds)
{
	struct sockaddr_in sa;
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	long long done = 0;

	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_port = htons((unsigned short)port);
	if (fd < 0 || inet_pton(AF_INET, host, &sa.sin_addr) != 1) {
		fprintf(stderr, "loadgen: bad address '%s'\n", host);
		return 1;
	}
	for (int i = 0; connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0; i++) {
		if (i == 50) {
			perror("connect");
			return 1;
		}
		usleep(100000);
		close(fd);
		fd = socket(AF_INET, SOCK_STREAM, 0);
	}
	done = write_bytes(fd, bytes, seconds, 0, "send");
	if (done < 0)
		return 1;
	close(fd);
	printf("%lld\n", done);
	return 0;
}

static int do_recv(const char *addr, int port)
{
	static char buf[1 << 16];
	struct sockaddr_in sa;
	int one = 1, lfd = socket(AF_INET, SOCK_STREAM, 0), fd;
	long long got = 0;
	ssize_t n;

	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_port = htons((unsigned short)port);
	if (lfd < 0 || inet_pton(AF_INET, addr, &sa.sin_addr) != 1) {
		fprintf(stderr, "loadgen: bad address '%s'\n", addr);
		return 1;
	}
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    listen(lfd, 1) < 0) {
		perror("bind");
		return 1;
	}
	fd = accept(lfd, NULL, NULL);
	if (fd < 0) {
		perror("accept");
		return 1;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		got += n;
	printf("%lld\n", got);
	return 0;
}

static double cpu_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* Children nobody reaps: their work reaches no parent's books. Each
 * tells what it did through a pipe before it exits. */
static int do_orphans(int n, double seconds, long long bytes,
		      const char *dir)
{
	int p[2];
	double cpu = 0;
	long long wrote = 0;
	struct { double cpu; long long bytes; } r;

	if (pipe(p) < 0 || signal(SIGCHLD, SIG_IGN) == SIG_ERR) {
		perror("orphans");
		return 1;
	}
	for (int i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("fork");
			return 1;
		}
		if (pid == 0) {
			volatile unsigned long spin = 0;
			char name[4096] = "/dev/null";
			int fd;

			if (dir)
				snprintf(name, sizeof(name), "%s/orphan.%ld",
					 dir, (long)getpid());
			fd = open(name, O_WRONLY | O_CREAT | O_TRUNC, 0644);
			close(p[0]);
			while (cpu_now() < seconds)
				for (int k = 0; k < 100000; k++)
					spin++;
			r.bytes = write_bytes(fd, bytes, 0, 0, name);
			if (dir && fsync(fd) < 0)
				_exit(1);
			r.cpu = cpu_now();
			if (write(p[1], &r, sizeof(r)) != (ssize_t)sizeof(r))
				_exit(1);
			_exit(0);
		}
	}
	close(p[1]);
	while (read(p[0], &r, sizeof(r)) == (ssize_t)sizeof(r)) {
		cpu += r.cpu;
		wrote += r.bytes;
	}
	/* with SIGCHLD ignored, wait returns once all are gone */
	while (wait(NULL) > 0 || errno == EINTR)
		;
	printf("%.3f %lld\n", cpu, wrote);
	return 0;
}

static int do_touch(double seconds, char **files, int n)
{
	const unsigned char **map = calloc((size_t)n, sizeof(*map));
	size_t *pages = calloc((size_t)n, sizeof(*pages));
	unsigned long long x = 0x2545f4914f6cdd1dULL, touched = 0;
	volatile unsigned sum = 0;
	double end = mono_now() + seconds;

	if (!map || !pages)
		return 1;
	for (int i = 0; i < n; i++) {
		struct stat st;
		int fd = open(files[i], O_RDONLY);

		if (fd < 0 || fstat(fd, &st) < 0 || st.st_size < 4096) {
			perror(files[i]);
			return 1;
		}
		map[i] = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED,
			      fd, 0);
		if (map[i] == MAP_FAILED) {
			perror(files[i]);
			return 1;
		}
		pages[i] = (size_t)st.st_size / 4096;
		close(fd);
	}
	while (mono_now() < end)
		for (int k = 0; k < 256; k++, touched++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			int f = (int)(x % (unsigned long long)n);
			sum += map[f][(x >> 8) % pages[f] * 4096];
		}
	(void)sum;	/* the reads are the point, not their sum */
	printf("%llu\n", touched);
	return 0;
}

static double threads_end;

/* A waiter's own draw: 0 none (threads), else its splitmix64 state. */
struct waiter {
	pthread_t t;
	unsigned long long x;
	double in_poll, in_sleep;	/* seconds in each wait (mixed) */
};

/* splitmix64: each output a nonlinear mix of the state, so threads whose
 * states start apart draw independently (a xorshift seeded i x constant
 * draws bits that are linear in the seed, so related across threads). */
static unsigned long long splitmix(unsigned long long *x)
{
	unsigned long long z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void *socket_waiter(void *arg)
{
	struct waiter *me = arg;
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0)
		return NULL;
	while (mono_now() < threads_end) {
		struct pollfd p = { .fd = sv[0], .events = POLLIN };

		double t0 = mono_now();
		unsigned long long r = me->x ? splitmix(&me->x) : 0;
		/* mixed: 10-30 ms, so the threads' waits, begun together,
		 * do not go on ending together */
		int ms = me->x ? 10 + (int)(r % 21) : 20;

		if (r >> 63) {
			sleep_s(ms / 1000.0);
			me->in_sleep += mono_now() - t0;
		} else {
			poll(&p, 1, ms);
			me->in_poll += mono_now() - t0;
		}
	}
	close(sv[0]);
	close(sv[1]);
	return NULL;
}

static int do_threads(int n, double seconds, int mixed)
{
	struct waiter *t = calloc(n > 0 ? (size_t)n : 1, sizeof(*t));
	int started = 0;
	double in_poll = 0, in_sleep = 0;

	if (!t)
		return 1;
	threads_end = mono_now() + seconds;
	for (int i = 0; i < n; i++) {
		unsigned long long seed = (unsigned long long)i + 1;

		/* a start of its own on splitmix's cycle (never 0: none) */
		t[i].x = mixed ? splitmix(&seed) | 1 : 0;
		if (pthread_create(&t[i].t, NULL, socket_waiter, &t[i]) == 0)
			started++;
		else
			break;
	}
	for (int i = 0; i < started; i++) {
		pthread_join(t[i].t, NULL);
		in_poll += t[i].in_poll;
		in_sleep += t[i].in_sleep;
	}
	free(t);
	if (mixed)
		printf("%d %.3f %.3f\n", started, in_poll, in_sleep);
	else
		printf("%d\n", started);
	return started == n ? 0 : 1;
}

static int parked_fd = -1;

static void *pipe_waiter(void *arg)
{
	struct pollfd p = { .fd = parked_fd, .events = POLLIN };

	(void)arg;
	while (poll(&p, 1, -1) < 0 && errno == EINTR)
		;
	return NULL;
}

static int do_parked(int n, double seconds)
{
	pthread_t *t = calloc(n > 0 ? (size_t)n : 1, sizeof(*t));
	int pfd[2], started = 0;

	if (!t || pipe(pfd) < 0)
		return 1;
	parked_fd = pfd[0];
	for (int i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, pipe_waiter, NULL) == 0)
			started++;
		else
			break;
	sleep_s(seconds);
	close(pfd[1]);		/* POLLHUP wakes every one */
	for (int i = 0; i < started; i++)
		pthread_join(t[i], NULL);
	close(pfd[0]);
	free(t);
	printf("%d\n", started);
	return started == n ? 0 : 1;
}

static int do_pace(double seconds, double rate, const char *file)
{
	static char buf[64 * 1024];
	int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	double t0 = mono_now();
	long long done = 0;

	if (fd < 0 || rate <= 0) {
		perror(file);
		return 1;
	}
	fill(buf, sizeof(buf));
	while (mono_now() - t0 < seconds) {
		if (write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf)) {
			perror(file);
			return 1;
		}
		done += (long long)sizeof(buf);
		pace_to(t0, done, rate);
	}
	close(fd);
	printf("%lld\n", done);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "stdout")) {
		long long n = write_bytes(1, atoll(argv[2]), 0, 0, "stdout");

		fprintf(stderr, "%lld\n", n);
		return n < 0;
	}
	if ((argc == 5 || argc == 6) && !strcmp(argv[1], "orphans"))
		return do_orphans(atoi(argv[2]), atof(argv[3]), atoll(argv[4]),
				  argc == 6 ? argv[5] : NULL);
	if (argc == 3 && !strcmp(argv[1], "burn"))
		return burn(atof(argv[2]));
	if ((argc == 4 || argc == 5) && !strcmp(argv[1], "write"))
		return do_write(argv[2], atoll(argv[3]),
				argc == 5 ? atof(argv[4]) : 0);
	if ((argc == 5 || argc == 6) && !strcmp(argv[1], "send"))
		return do_send(argv[2], atoi(argv[3]), atoll(argv[4]),
			       argc == 6 ? atof(argv[5]) : 0);
	if (argc == 4 && !strcmp(argv[1], "recv"))
		return do_recv(argv[2], atoi(argv[3]));
	if (argc >= 4 && !strcmp(argv[1], "touch"))
		return do_touch(atof(argv[2]), argv + 3, argc - 3);
	if (argc == 4 && !strcmp(argv[1], "threads"))
		return do_threads(atoi(argv[2]), atof(argv[3]), 0);
	if (argc == 4 && !strcmp(argv[1], "mixed"))
		return do_threads(atoi(argv[2]), atof(argv[3]), 1);
	if (argc == 4 && !strcmp(argv[1], "parked"))
		return do_parked(atoi(argv[2]), atof(argv[3]));
	if (argc == 5 && !strcmp(argv[1], "pace"))
		return do_pace(atof(argv[2]), atof(argv[3]), argv[4]);
	fprintf(stderr, "usage: loadgen burn S | write FILE BYTES [S] | send HOST PORT BYTES [S] | recv ADDR PORT\n"
			"       | stdout BYTES | orphans N SECONDS BYTES [DIR] | touch SECONDS FILE...\n"
			"       | threads N SECONDS | mixed N SECONDS | parked N SECONDS\n"
			"       | pace SECONDS RATE FILE\n");
	return 2;
}
