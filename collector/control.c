/*
 * control.c - the client side of the control socket, see control.h.
 */
#define _GNU_SOURCE
#include "control.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "../logs/logset.h"
#include "../process/process.h"

const char *control_runtime_dir(struct perr *e)
{
	static char dir[PATH_MAX];
	const char *env = getenv("PERFLOG_RUNTIME_DIR");
	struct stat st;

	if (env && *env)
		util_strlcpy(dir, env, sizeof(dir));
	else
		snprintf(dir, sizeof(dir), "/tmp/perflog-%u",
			 (unsigned)geteuid());
	if (util_mkdirs(dir, 0700) < 0) {
		perr_set(e, "unable to create runtime directory '%s': %s", dir,
			 strerror(errno));
		return NULL;
	}
	/* /tmp is shared: the directory must be ours and private, or
	 * someone else could plant sockets for us to talk to */
	if (lstat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		perr_set(e, "runtime directory '%s' is not a directory", dir);
		return NULL;
	}
	if (st.st_uid != geteuid() || (st.st_mode & 077)) {
		perr_set(e, "runtime directory '%s' is not private to uid %u (mode 0700 expected)",
			 dir, (unsigned)geteuid());
		return NULL;
	}
	return dir;
}

static int read_info(const char *path, struct collector_info *c)
{
	char *text = util_read_file(path, NULL);
	char *line, *save = NULL;

	if (!text)
		return -1;
	c->logset[0] = '\0';
	c->interval = 0;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *tab = strchr(line, '\t');

		if (!tab)
			continue;
		*tab++ = '\0';
		if (!strcmp(line, "logset"))
			util_strlcpy(c->logset, tab, sizeof(c->logset));
		else if (!strcmp(line, "interval"))
			c->interval = (unsigned)strtoul(tab, NULL, 10);
	}
	free(text);
	return c->logset[0] ? 0 : -1;
}

/* A collector that has exited is gone though its parent has not reaped
 * it yet: a daemon's parent is init, and some inits reap seconds late
 * (a sandbox VM's: each perflog stop, and the end of each perflog run
 * that started its collector, waited 1.3-2 s for it to reap). A zombie
 * holds no socket, file or lock: only its pid. */
int control_alive(pid_t pid)
{
	if (kill(pid, 0) < 0 && errno != EPERM)
		return 0;
	return !proctree_ended("/", pid);
}

/* A collector killed between binding its socket and renaming its .info
 * into place leaves PID.sock or PID.info.tmp.PID without a PID.info:
 * remove them once that pid is gone. */
static void remove_leftover(const char *dir, const char *name)
{
	char path[PATH_MAX], *end;
	long pid = strtol(name, &end, 10);

	if (pid <= 0 || end == name ||
	    (strcmp(end, ".sock") && strncmp(end, ".info.tmp.", 10)))
		return;
	if (control_alive((pid_t)pid))
		return;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	unlink(path);
}

/* Add the live collectors registered in dir to *list (stale entries are
 * removed). Returns 0, or -1 with e set. */
static int scan_dir(const char *dir, struct collector_info **list, long *n,
		    struct perr *e)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d)
		return perr_set(e, "unable to read '%s': %s", dir,
				strerror(errno));
	while ((de = readdir(d))) {
		char path[PATH_MAX], sock[PATH_MAX];
		struct collector_info c;
		size_t len = strlen(de->d_name);
		char *end;
		long pid;

		if (len < 6 || strcmp(de->d_name + len - 5, ".info")) {
			remove_leftover(dir, de->d_name);
			continue;
		}
		pid = strtol(de->d_name, &end, 10);
		if (pid <= 0 || strcmp(end, ".info"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		snprintf(sock, sizeof(sock), "%s/%ld.sock", dir, pid);
		memset(&c, 0, sizeof(c));
		c.pid = (pid_t)pid;
		util_strlcpy(c.rundir, dir, sizeof(c.rundir));
		if (!control_alive(c.pid) || access(sock, F_OK) < 0) {
			/* stale: the collector died without cleaning up
			 * (kill -9, power loss) */
			unlink(path);
			unlink(sock);
			continue;
		}
		if (read_info(path, &c) < 0)
			continue;
		{
			struct collector_info *nl =
				realloc(*list, (size_t)(*n + 1) * sizeof(*nl));

			if (!nl) {
				closedir(d);
				return perr_set(e, "out of memory");
			}
			*list = nl;
			(*list)[(*n)++] = c;
		}
	}
	closedir(d);
	return 0;
}

const char *control_service_dir(void)
{
	const char *d = getenv("PERFLOG_SERVICE_RUNTIME_DIR");
	struct stat st;

	if (!d || !*d)
		d = CONTROL_SERVICE_DIR;
	if (geteuid() != 0)
		return NULL;
	/* Only its owner (the service's user) or root can have put sockets
	 * into a directory nobody else may write: /run/perflog is made by
	 * systemd in root's /run. A symlink or a writable directory is not
	 * trusted. */
	if (lstat(d, &st) < 0 || !S_ISDIR(st.st_mode) || (st.st_mode & 022))
		return NULL;
	return d;
}

long control_list(struct collector_info **out, struct perr *e)
{
	const char *dir = control_runtime_dir(e);
	const char *svc = control_service_dir();
	struct collector_info *list = NULL;
	long n = 0;

	*out = NULL;
	if (!dir)
		return -1;
	if (scan_dir(dir, &list, &n, e) < 0 ||
	    (svc && strcmp(svc, dir) && scan_dir(svc, &list, &n, e) < 0)) {
		free(list);
		return -1;
	}
	*out = list;
	return n;
}

int control_find(const char *dir, struct collector_info *out, struct perr *e)
{
	struct collector_info *list;
	long n = control_list(&list, e);
	const char *want = dir;
	char real[PATH_MAX];

	if (n < 0)
		return -1;
	if (!want) {
		const char *env = getenv("PERFLOG_LOGSET");

		if (env && *env)
			want = env;
	}
	if (want) {
		if (!realpath(want, real)) {
			free(list);
			return perr_set(e, "log set '%s': %s", want,
					strerror(errno));
		}
		for (long i = 0; i < n; i++)
			if (!strcmp(list[i].logset, real)) {
				*out = list[i];
				free(list);
				return 0;
			}
		free(list);
		return perr_set(e, "no collector is logging to '%s'", want);
	}
	if (n == 0) {
		free(list);
		return perr_set(e, "no collector is running");
	}
	if (n > 1) {
		free(list);
		return perr_set(e, "%ld collectors are running; name the log set",
				n);
	}
	*out = list[0];
	free(list);
	return 0;
}

int control_sync_live(const char *dir, struct perr *e)
{
	struct collector_info c;
	struct perr why;

	/* not live: its files hold every row written, unless its collector
	 * was killed before it wrote its journal's last rows into them */
	if (control_find(dir, &c, &why) < 0) {
		if (logset_settle(dir, &why) < 0) {
			perr_set(e, "its collector is gone and the rows only its journal holds could not be written into its files (%s)",
				 why.msg);
			return -2;
		}
		return 0;
	}
	if (control_request(&c, "sync", NULL, 0, &why) < 0)
		return perr_set(e, "it is live and its collector did not write the rows it holds back (%s)",
				why.msg);
	return 0;
}

int control_find_under(const char *dir, struct collector_info *out,
		       struct perr *e)
{
	struct collector_info *list;
	long n = control_list(&list, e), best = -1;
	char real[PATH_MAX];

	if (n < 0)
		return -1;
	if (!realpath(dir, real)) {
		free(list);
		return perr_set(e, "no collector is logging under '%s'", dir);
	}
	for (long i = 0; i < n; i++) {
		char *slash = strrchr(list[i].logset, '/');
		size_t plen = slash ? (size_t)(slash - list[i].logset) : 0;

		if (!strcmp(list[i].logset, real)) {
			best = i;
			break;
		}
		/* its parent is DIR: the newest name (HOST-TIME) wins */
		if (slash && plen == strlen(real) &&
		    !strncmp(list[i].logset, real, plen) &&
		    (best < 0 || strcmp(list[i].logset, list[best].logset) > 0))
			best = i;
	}
	if (best >= 0)
		*out = list[best];
	free(list);
	return best >= 0 ? 0
			 : perr_set(e, "no collector is logging under '%s'", dir);
}

static int sock_connect(const struct collector_info *c, struct perr *e)
{
	const char *dir = c->rundir[0] ? c->rundir : control_runtime_dir(e);
	struct sockaddr_un sa;
	int fd;

	if (!dir)
		return -1;
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	if (snprintf(sa.sun_path, sizeof(sa.sun_path), "%s/%ld.sock", dir,
		     (long)c->pid) >= (int)sizeof(sa.sun_path))
		return perr_set(e, "runtime directory path too long: '%s'",
				dir);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return perr_set(e, "socket: %s", strerror(errno));
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		perr_set(e, "collector %ld (%s) does not answer: %s",
			 (long)c->pid, c->logset, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

int control_gone(const struct collector_info *c)
{
	struct perr e;
	const char *dir = c->rundir[0] ? c->rundir : control_runtime_dir(&e);
	char sock[PATH_MAX];

	if (!control_alive(c->pid))
		return 1;
	if (!dir)
		return 0;
	if (snprintf(sock, sizeof(sock), "%s/%ld.sock", dir, (long)c->pid) >=
	    (int)sizeof(sock))
		return 0;
	return access(sock, F_OK) < 0 && errno == ENOENT;
}

/* One request: 0 on "ok", -1 with e. *refused is set when the collector
 * answered nothing but its refusal to wait (server.c read_request: a
 * request not in within SERVER_MIN_WAIT of a sample's deadline is
 * answered "request timed out" and closed, and a client descheduled
 * between its connect and its send then meets a closed socket: EPIPE,
 * ECONNRESET). Nothing was done then, so the request can go again. */
static int request_once(const struct collector_info *c, const char *request,
			char *reply, size_t n, struct perr *e, int *refused)
{
	int fd = sock_connect(c, e);
	size_t len = strlen(request), off = 0, got = 0;
	char buf[4096];

	*refused = 0;
	if (fd < 0)
		return -1;
	while (off < len + 1) {
		/* the request, then its newline */
		const char *p = off < len ? request + off : "\n";
		size_t k = off < len ? len - off : 1;
		ssize_t w = send(fd, p, k, MSG_NOSIGNAL);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			*refused = errno == EPIPE || errno == ECONNRESET;
			close(fd);
			return perr_set(e, "collector %ld: %s", (long)c->pid,
					strerror(errno));
		}
		off += (size_t)w;
	}
	/* a stop waits for the log set to close, which writes every row
	 * held (seconds, even through rrdcached); the rest is answered at
	 * once */
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int r = poll(&p, 1, 120000);
		ssize_t rd;

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			close(fd);
			return perr_set(e, "collector %ld: no reply",
					(long)c->pid);
		}
		rd = read(fd, buf + got, sizeof(buf) - 1 - got);
		if (rd < 0 && errno == EINTR)
			continue;
		if (rd < 0 && errno == ECONNRESET && !got)
			*refused = 1;
		if (rd <= 0)
			break;
		got += (size_t)rd;
		if (memchr(buf, '\n', got) || got == sizeof(buf) - 1)
			break;
	}
	close(fd);
	buf[got] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	if (!strncmp(buf, "ok", 2) && (buf[2] == '\0' || buf[2] == ' ')) {
		if (reply)
			util_strlcpy(reply, buf[2] ? buf + 3 : "", n);
		return 0;
	}
	if (!strcmp(buf, "error request timed out"))
		*refused = 1;
	if (!strncmp(buf, "error ", 6))
		return perr_set(e, "%s", buf + 6);
	return perr_set(e, "collector %ld closed the connection",
			(long)c->pid);
}

/* A few tries, each a little later: 8 `perflog mark`s at once beside a
 * loaded machine lost one to "Broken pipe" (t3000 25) */
#define REQUEST_TRIES 5

int control_request(const struct collector_info *c, const char *request,
		    char *reply, size_t n, struct perr *e)
{
	for (int i = 1;; i++) {
		int refused, rc = request_once(c, request, reply, n, e,
					       &refused);

		if (!rc || !refused || i == REQUEST_TRIES)
			return rc;
		usleep(20000 * (useconds_t)i);
	}
}

int control_mark(const char *dir, enum marker_kind kind, const char *session,
		 const char *text, const char *const *extra, size_t nextra,
		 struct perr *e)
{
	return control_mark_at(dir, 0, kind, session, text, extra, nextra, e);
}

int control_mark_at(const char *dir, double when, enum marker_kind kind,
		    const char *session, const char *text,
		    const char *const *extra, size_t nextra, struct perr *e)
{
	struct collector_info c;

	if (control_find(dir, &c, e) < 0)
		return -1;
	return control_mark_to(&c, when, kind, session, text, extra, nextra,
			       e);
}

int control_mark_to(const struct collector_info *col, double when,
		    enum marker_kind kind, const char *session,
		    const char *text, const char *const *extra, size_t nextra,
		    struct perr *e)
{
	char at[40] = "", reply[1024];
	char *req, *es, *et;
	size_t len;
	int r;

	es = markers_escape(session ? session : "");
	et = markers_escape(text ? text : "");
	if (!es || !et) {
		free(es);
		free(et);
		return perr_set(e, "out of memory");
	}
	len = strlen(es) + strlen(et) + 64;
	for (size_t i = 0; i < nextra; i++)
		len += 4 * strlen(extra[i]) + 2;
	req = malloc(len);
	if (!req) {
		free(es);
		free(et);
		return perr_set(e, "out of memory");
	}
	if (when > 0)
		snprintf(at, sizeof(at), "@%.3f", when);
	snprintf(req, len, "mark %s%s\t%s\t%s", marker_kind_name(kind), at,
		 es, et);
	free(es);
	free(et);
	for (size_t i = 0; i < nextra; i++) {
		char *x = markers_escape(extra[i]);

		if (!x) {
			free(req);
			return perr_set(e, "out of memory");
		}
		strcat(req, "\t");
		strcat(req, x);
		free(x);
	}
	r = control_request(col, req, reply, sizeof(reply), e);
	free(req);
	/* held (markhold.h): written, as far as the caller goes, and e says
	 * so */
	if (r == 0 && e)
		e->msg[0] = '\0';
	if (r == 0 && !strncmp(reply, "held=", 5))
		perr_set(e, "%s", reply + 5);
	return r;
}

/* Append "\tKEY=ESCAPED" to req (of size n). */
static void add_field(char *req, size_t n, const char *key, const char *val)
{
	char *x = markers_escape(val);
	size_t len = strlen(req);

	if (x)
		snprintf(req + len, n - len, "\t%s=%s", key, x);
	free(x);
}

int control_watch(const struct collector_info *c, pid_t pid,
		  const char *label, int shim, const struct cgroup_set *cg,
		  char *label_out, size_t label_n, char *method,
		  size_t method_n, struct perr *e)
{
	size_t n = 4 * (3 * PATH_MAX + 64) + 256;
	char *req = malloc(n), *el = markers_escape(label), reply[512];
	const char *p, *sp;
	int rc;

	if (!req || !el) {
		free(req);
		free(el);
		return perr_set(e, "out of memory");
	}
	snprintf(req, n, "watch %ld\t%s", (long)pid, el);
	free(el);
	if (shim)
		add_field(req, n, "shim", "1");
	if (cg && cg->v2[0])
		add_field(req, n, "cgroup.v2", cg->v2);
	if (cg && cg->cpu[0])
		add_field(req, n, "cgroup.cpu", cg->cpu);
	if (cg && cg->cpuacct[0])
		add_field(req, n, "cgroup.cpuacct", cg->cpuacct);
	rc = control_request(c, req, reply, sizeof(reply), e);
	free(req);
	if (rc < 0)
		return -1;
	/* "label=LABEL cpu=... io=..." */
	p = strncmp(reply, "label=", 6) ? NULL : reply + 6;
	sp = p ? strchr(p, ' ') : NULL;
	if (!p || (size_t)((sp ? sp : p + strlen(p)) - p) >= label_n)
		return perr_set(e, "collector %ld: unexpected reply '%.60s'",
				(long)c->pid, reply);
	snprintf(label_out, label_n, "%.*s", (int)((sp ? sp : p + strlen(p)) - p), p);
	util_strlcpy(method, sp ? sp + 1 : "", method_n);
	return 0;
}

int control_release(const struct collector_info *c, int *deferred,
		    struct perr *e)
{
	char reply[64];

	*deferred = 0;
	if (control_request(c, "release", reply, sizeof(reply), e) < 0)
		return -1;
	if (!strcmp(reply, "deferred")) {
		*deferred = 1;
		return 0;
	}
	for (int i = 0; i < 100 && control_alive(c->pid); i++)
		usleep(50000);
	return 0;
}

int control_stop(const struct collector_info *c, struct perr *e)
{
	if (control_request(c, "stop", NULL, 0, e) < 0)
		return -1;
	/* the reply comes once the log set is closed; wait for the process
	 * to be gone too, so a following start finds no stale entry */
	for (int i = 0; i < 100 && control_alive(c->pid); i++)
		usleep(50000);
	return 0;
}
