/*
 * sig.h - signals as flags the main loop reads (STYLE 7, after tmux's
 * proc.c): the handler only stores the signal in a volatile sig_atomic_t,
 * the loop looks at it between two steps and does the work (restores the
 * terminal, writes what it holds, relays the signal to a child). Nothing
 * that is not async-signal-safe ever runs in a handler.
 *
 * The handler is installed without SA_RESTART, so a blocking call (read,
 * poll, ppoll, nanosleep, curses' get_wch) returns early with EINTR and
 * the loop sees the flag at once instead of at its next timeout. A loop
 * that must not miss a signal arriving between its check and its wait
 * blocks the signals (sigprocmask) and waits with ppoll/pselect and the
 * old mask, as the collector does.
 *
 * Used by: the viewer (viewer/term.c). Written to serve the collector
 * (SIGTERM/SIGINT/SIGHUP end a log set cleanly) and `perflog run` (which
 * relays what it catches to the command it runs: there a signal ignored
 * when run started stays ignored, as a shell leaves a background job's,
 * SIGINT and SIGQUIT typed at the terminal are not relayed because the
 * command, in the same process group, got them already, and the child
 * gets back the dispositions run started with) once they adopt it.
 */
#ifndef PERFLOG_SIG_H
#define PERFLOG_SIG_H

#include <signal.h>
#include <stddef.h>

/* sig_catch flags */
#define SIG_KEEP_IGNORED 1	/* a signal ignored when we started stays so */
#define SIG_NOT_FROM_TERMINAL 2	/* not recorded when the terminal sent it
				   (si_code SI_KERNEL: Ctrl-C, Ctrl-\) */

/* Catch sigs[0..n): from now on each is recorded (sig_caught, sig_take)
 * instead of taking its default action. orig, when not NULL, receives the
 * n dispositions there were (for sig_restore in a child after fork).
 * Returns 0, or -1 (errno set) when a sigaction failed. */
int sig_catch(const int *sigs, size_t n, int flags, struct sigaction *orig);

/* The latest signal recorded since sig_clear, or 0. */
int sig_caught(void);

/* 1 when sig was recorded since its last sig_take (and forget it), else 0:
 * for a loop that handles several signals one by one. */
int sig_take(int sig);

/* Forget every signal recorded. */
void sig_clear(void);

/* Put back the dispositions sig_catch saved in orig. */
void sig_restore(const int *sigs, size_t n, const struct sigaction *orig);

#endif
