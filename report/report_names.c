/*
 * report_names.c - the stages named by what they are (report_names.h,
 * issue 49): a process the stages table would call COMM[PID], because
 * its command repeats on its host (make demo's workload: every stage is
 * a perflog), is named by the watched trees of the log set that hold it,
 * and by what the begin markers say those trees are.
 *
 * The set's trees are the waits files its end markers name (`waits=`,
 * `server.waits=`: waits-LABEL.tsv, a row per thread with its pid). A
 * begin marker's `P.ROLE=Process(LABEL)` (perflog workload's
 * `workload.client=Process(1m1k)`) gives a tree its role. So:
 *   in one other tree, with a role     "LABEL ROLE"   (1m1k client)
 *   in one other tree                  "LABEL"
 *   in several, each of one role       "ROLE"         (server)
 *   the one of the command's name      the command    (perflog workload)
 * A name another stage has already stays COMM[PID]. A process that
 * exec'd has its last command as COMM (the kernel's comm), so it is
 * named by that. The "waits on" column follows the names.
 */
#include "report_names.h"

#include <stdlib.h>
#include <string.h>


/* One waits file of the set: its tree's label and the pids in it. */
struct tree_pids {
	char label[128];
	char role[32];
	pid_t *pid;
	size_t n;
};

/* The role the begin markers give LABEL: "ROLE" of a key "P.ROLE" whose
 * value is "Process(LABEL)"; "" when none. */
static void role_of(const struct marker_list *ml, const char *label,
		    char *role, size_t n)
{
	char want[160];

	role[0] = '\0';
	snprintf(want, sizeof(want), "Process(%s)", label);
	for (size_t i = 0; i < ml->n; i++) {
		const struct marker *m = &ml->m[i];
		if (m->kind != MARK_BEGIN)
			continue;
		for (size_t k = 0; k < m->nextra; k++) {
			const char *dot = strrchr(m->extra[k].key, '.');
			if (dot && dot[1] && !strcmp(m->extra[k].value, want)) {
				snprintf(role, n, "%s", dot + 1);
				return;
			}
		}
	}
}

/* Read the waits file name (as a marker names it) into t; 0 or -1. */
static int read_tree(const char *dir, const char *name, struct tree_pids *t)
{
	struct waits_totals tot = { 0 };
	struct perr e;
	size_t len = strlen(name);

	if (strncmp(name, "waits-", 6) || len < 11 || strchr(name, '/') ||
	    strcmp(name + len - 4, ".tsv"))
		return -1;
	snprintf(t->label, sizeof(t->label), "%.*s", (int)(len - 10), name + 6);
	if (treefiles_waits(dir, name, &tot, NULL, &e) < 0)
		return -1;
	t->pid = calloc(tot.n ? tot.n : 1, sizeof(*t->pid));
	for (size_t i = 0; t->pid && i < tot.n; i++)
		if (tot.t[i].pid > 0 && !tot.t[i].peer)
			t->pid[t->n++] = tot.t[i].pid;
	waitrates_totals_free(&tot);
	return t->pid ? 0 : -1;
}

/* The set's trees, each waits file once. *n set; NULL when none. */
static struct tree_pids *set_trees(const char *dir,
				   const struct marker_list *ml, size_t *n)
{
	struct tree_pids *t = NULL;
	size_t cap = 0;

	*n = 0;
	for (size_t i = 0; i < ml->n; i++) {
		const struct marker *m = &ml->m[i];
		if (m->kind != MARK_END)
			continue;
		for (size_t k = 0; k < m->nextra; k++) {
			const char *key = m->extra[k].key, *v = m->extra[k].value;
			size_t kl = strlen(key), seen = 0;
			if (strcmp(key, "waits") &&
			    (kl < 6 || strcmp(key + kl - 6, ".waits")))
				continue;
			for (size_t j = 0; j < *n && !seen; j++)
				seen = !strncmp(v + 6, t[j].label, strlen(t[j].label)) &&
				       !strcmp(v + 6 + strlen(t[j].label), ".tsv");
			if (seen || (*n == cap &&
			    util_grow(&t, &cap, *n + 1, sizeof(*t)) < 0))
				continue;
			memset(&t[*n], 0, sizeof(*t));
			if (read_tree(dir, v, &t[*n]) == 0) {
				role_of(ml, t[*n].label, t[*n].role,
					sizeof(t[*n].role));
				++*n;
			}
		}
	}
	return t;
}

static int name_taken(const struct report_stages *ss, const char *name)
{
	for (size_t i = 0; i < ss->n; i++)
		if (!strcmp(ss->st[i].name, name))
			return 1;
	return 0;
}

/* "waits on" says the old name: the new one in its place. */
static void rename_stage(struct report_stages *ss, size_t i, const char *name)
{
	char old[48];

	if (name_taken(ss, name))
		return;
	snprintf(old, sizeof(old), "%s", ss->st[i].name);
	snprintf(ss->st[i].name, sizeof(ss->st[i].name), "%s", name);
	for (size_t j = 0; j < ss->n; j++) {
		char *w = ss->st[j].waits_on, *at = strstr(w, old);
		char buf[sizeof(ss->st[j].waits_on)];
		if (!at)
			continue;
		snprintf(buf, sizeof(buf), "%.*s%s%s", (int)(at - w), w, name,
			 at + strlen(old));
		snprintf(ss->st[j].waits_on, sizeof(ss->st[j].waits_on), "%s", buf);
	}
}

/* The command's name: its program's base name and its first word that
 * is no option ("./perflog workload --seconds 6": "perflog workload"). */
static void command_name(const char *cmd, char *buf, size_t n)
{
	size_t a = strcspn(cmd, " ");
	const char *base = cmd, *w;

	for (const char *p = cmd; p < cmd + a; p++)
		if (*p == '/')
			base = p + 1;
	w = cmd + a + strspn(cmd + a, " ");
	if (*w && *w != '-')
		snprintf(buf, n, "%.*s %.*s", (int)(cmd + a - base), base,
			 (int)strcspn(w, " "), w);
	else
		snprintf(buf, n, "%.*s", (int)(cmd + a - base), base);
}

void report_names_of(struct report_stages *ss, const char *dir,
		     const struct marker_list *ml,
		     const struct report_session *s)
{
	struct tree_pids *t;
	size_t nt, cmd_stage = 0, cmd_n = 0;
	const char *cmd = s->end_m ? marker_get(s->end_m, "cmd") : NULL;
	char name[48], prog[48] = "";

	if (!ss || !ss->n || !(t = set_trees(dir, ml, &nt)))
		return;
	if (cmd)
		command_name(cmd, prog, sizeof(prog));
	for (size_t i = 0; i < ss->n; i++) {
		struct report_stage *st = &ss->st[i];
		const char *own = ss->trees[st->tree].label, *label = NULL;
		const char *role = NULL;
		size_t in = 0, roles_alike = 1;

		if (!st->pid || !strchr(st->name, '[') || st->side != 0)
			continue;
		for (size_t k = 0; k < nt; k++) {
			int has = 0;
			if (!strcmp(t[k].label, own))
				continue;
			for (size_t p = 0; p < t[k].n && !has; p++)
				has = t[k].pid[p] == st->pid;
			if (!has)
				continue;
			if (in++ == 0) {
				label = t[k].label;
				role = t[k].role;
			} else if (strcmp(role, t[k].role)) {
				roles_alike = 0;
			}
		}
		if (in == 1 && role[0])
			snprintf(name, sizeof(name), "%.30s %.16s", label, role);
		else if (in == 1)
			snprintf(name, sizeof(name), "%.47s", label);
		else if (in > 1 && roles_alike && role[0])
			snprintf(name, sizeof(name), "%.47s", role);
		else {
			/* in no other tree: the command's own process? */
			if (!in && prog[0] && !strncmp(prog, st->comm, strlen(st->comm)) &&
			    (prog[strlen(st->comm)] == ' ' || !prog[strlen(st->comm)])) {
				cmd_stage = i;
				cmd_n++;
			}
			continue;
		}
		rename_stage(ss, i, name);
	}
	if (cmd_n == 1)
		rename_stage(ss, cmd_stage, prog);
	for (size_t k = 0; k < nt; k++)
		free(t[k].pid);
	free(t);
}
