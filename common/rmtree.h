/*
 * rmtree.h - remove a directory tree, as `rm -rf` does, without a shell.
 *
 * The one way to take back a tree a command or a test made (workload's
 * scratch sets, the unit tests' scratch /proc roots and log sets): no
 * command line to build, so a path with a space or a quote in it is
 * just a path.
 */
#ifndef PERFLOG_RMTREE_H
#define PERFLOG_RMTREE_H

/* Remove path and everything under it. Symbolic links are removed, never
 * followed: nothing outside the tree is touched. A directory of the tree
 * that its owner may not read, enter or write (a log set's read-only
 * folder in test_logset) is given u+rwx first, as `chmod -R u+w` before
 * `rm -rf` did. A path that is not there is 0, as for `rm -rf`. Returns
 * 0, or -1 with errno set by the first removal that failed (what could
 * be removed before it is gone). */
int rmtree(const char *path);

#endif
