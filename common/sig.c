/* sig.c - see sig.h. */
#include "sig.h"

#include <string.h>

static volatile sig_atomic_t last;
static volatile sig_atomic_t pending[NSIG];
static volatile sig_atomic_t not_from_terminal[NSIG];

static void on_signal(int sig, siginfo_t *si, void *ctx)
{
	(void)ctx;
	if (sig <= 0 || sig >= NSIG)
		return;
	if (not_from_terminal[sig] && si && si->si_code == SI_KERNEL)
		return;
	pending[sig] = 1;
	last = sig;
}

int sig_catch(const int *sigs, size_t n, int flags, struct sigaction *orig)
{
	for (size_t i = 0; i < n; i++) {
		struct sigaction sa, old;

		if (sigaction(sigs[i], NULL, &old) < 0)
			return -1;
		if (orig)
			orig[i] = old;
		if ((flags & SIG_KEEP_IGNORED) && old.sa_handler == SIG_IGN)
			continue;
		if (sigs[i] > 0 && sigs[i] < NSIG)
			not_from_terminal[sigs[i]] = !!(flags & SIG_NOT_FROM_TERMINAL);
		memset(&sa, 0, sizeof(sa));
		sa.sa_sigaction = on_signal;
		sa.sa_flags = SA_SIGINFO;	/* and no SA_RESTART: see sig.h */
		sigemptyset(&sa.sa_mask);
		if (sigaction(sigs[i], &sa, NULL) < 0)
			return -1;
	}
	return 0;
}

int sig_caught(void)
{
	return last;
}

int sig_take(int sig)
{
	if (sig <= 0 || sig >= NSIG || !pending[sig])
		return 0;
	pending[sig] = 0;
	return 1;
}

void sig_clear(void)
{
	for (int i = 0; i < NSIG; i++)
		pending[i] = 0;
	last = 0;
}

void sig_restore(const int *sigs, size_t n, const struct sigaction *orig)
{
	for (size_t i = 0; i < n; i++)
		sigaction(sigs[i], &orig[i], NULL);
}
