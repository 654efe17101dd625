/*
 * tap.h - a tiny TAP producer for the C unit tests (after collectd's
 * src/testing.h). Each test binary prints "1..N" at the end (done_testing)
 * and "ok N - name" / "not ok N - name" per check, so prove reads it.
 *
 *   OK(expr, name)                 any truth
 *   EQ_INT(a, b, name)             integers
 *   EQ_DBL(a, b, tol, name)        doubles within tol; NAN equals NAN
 *   EQ_STR(a, b, name)             strings (NULL-safe)
 *   AT_LEAST(got, floor, ideal, name)  a figure a loaded machine moves:
 *                                  its headroom goes to $PERFLOG_MARGINS
 *                                  (tests/margins.sh, as lib.sh's within)
 *   tap_todo = "why";              the checks after it are TODO (TAP:
 *                                  run and printed, a failure not
 *                                  counted) until tap_todo = NULL
 *   return done_testing();
 */
#ifndef PERFLOG_TAP_H
#define PERFLOG_TAP_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int tap_n, tap_fail;
static const char *tap_todo;

static inline void tap_result(int ok, const char *name, const char *file,
			      int line)
{
	tap_n++;
	if (!ok && !tap_todo)
		tap_fail++;
	if (tap_todo)
		printf("%sok %d - %s # TODO %s\n", ok ? "" : "not ", tap_n,
		       name, tap_todo);
	else
		printf("%sok %d - %s\n", ok ? "" : "not ", tap_n, name);
	fflush(stdout);
	/* on stderr too: prove shows it without -v, so CI's log says where */
	if (!ok)
		fprintf(stderr, "#   %s failed at %s:%d\n", name, file, line);
}

#define OK(expr, name) tap_result(!!(expr), (name), __FILE__, __LINE__)

#define EQ_INT(a, b, name) do { \
	long long tap_a_ = (long long)(a), tap_b_ = (long long)(b); \
	tap_result(tap_a_ == tap_b_, (name), __FILE__, __LINE__); \
	if (tap_a_ != tap_b_) \
		printf("#   got %lld, expected %lld\n", tap_a_, tap_b_); \
} while (0)

#define EQ_DBL(a, b, tol, name) do { \
	double tap_a_ = (a), tap_b_ = (b); \
	int tap_ok_ = (isnan(tap_a_) && isnan(tap_b_)) || \
		(!isnan(tap_a_) && !isnan(tap_b_) && \
		 fabs(tap_a_ - tap_b_) <= (tol)); \
	tap_result(tap_ok_, (name), __FILE__, __LINE__); \
	if (!tap_ok_) \
		printf("#   got %.17g, expected %.17g\n", tap_a_, tap_b_); \
} while (0)

#define EQ_STR(a, b, name) do { \
	const char *tap_a_ = (a), *tap_b_ = (b); \
	int tap_ok_ = (!tap_a_ && !tap_b_) || \
		(tap_a_ && tap_b_ && strcmp(tap_a_, tap_b_) == 0); \
	tap_result(tap_ok_, (name), __FILE__, __LINE__); \
	if (!tap_ok_) \
		printf("#   got '%s', expected '%s'\n", tap_a_ ? tap_a_ : "(null)", \
		       tap_b_ ? tap_b_ : "(null)"); \
} while (0)

/* The headroom of a one-sided tolerance to $PERFLOG_MARGINS, as
 * tests/lib.sh's _margin writes it (one short line, one append): the
 * share of the tolerance left between the floor and the ideal figure. */
static inline void tap_margin(const char *name, double got, double floor,
			      double ideal, const char *file)
{
	const char *path = getenv("PERFLOG_MARGINS");
	const char *base = strrchr(file, '/');
	FILE *f;

	base = base ? base + 1 : file;
	if (!path || !*path || isnan(got) || !(f = fopen(path, "a")))
		return;
	fprintf(f, "%.4f\t%.*s %d\t%s\tgot %g in [%g, ], ideal %g\n",
		ideal > floor ? (got >= ideal ? 1 : (got - floor) / (ideal - floor)) :
				(got >= floor ? 1 : -1),
		(int)strcspn(base, "."), base, tap_n, name, got, floor, ideal);
	fclose(f);
}

/* got >= floor, its ideal (100 for a share) the headroom's measure */
#define AT_LEAST(got, floor, ideal, name) do { \
	double tap_g_ = (got), tap_f_ = (floor); \
	tap_result(!isnan(tap_g_) && tap_g_ >= tap_f_, (name), __FILE__, __LINE__); \
	tap_margin((name), tap_g_, tap_f_, (ideal), __FILE__); \
	if (!(tap_g_ >= tap_f_)) \
		fprintf(stderr, "#   got %g, expected at least %g\n", tap_g_, tap_f_); \
} while (0)

static inline int done_testing(void)
{
	printf("1..%d\n", tap_n);
	return tap_fail ? 1 : 0;
}

#endif
