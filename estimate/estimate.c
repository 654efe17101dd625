/*
 * estimate.c - classes, rates, the seed's arithmetic and its table; see
 * estimate.h for the formulas and why they are integer arithmetic.
 */
#include "estimate.h"

#include <inttypes.h>
#include <string.h>

static const uint64_t class_limit[ESTIMATE_NCLASS - 1] = {
	1024, 10 * 1024, 100 * 1024,
};

static const char *const class_label[ESTIMATE_NCLASS] = {
	"0..< 1KB", "1KB..< 10KB", "10KB..< 100KB", "100KB and up",
};

int estimate_class(uint64_t size)
{
	int c = 0;

	while (c < ESTIMATE_NCLASS - 1 && size >= class_limit[c])
		c++;
	return c;
}

const char *estimate_class_label(int cls)
{
	if (cls < 0 || cls >= ESTIMATE_NCLASS)
		return "?";
	return class_label[cls];
}

void estimate_class_bounds(int cls, uint64_t *lo, uint64_t *hi)
{
	*lo = cls <= 0 ? 0 : class_limit[cls - 1];
	*hi = cls >= ESTIMATE_NCLASS - 1 ? UINT64_MAX : class_limit[cls] - 1;
}

int estimate_add(struct estimate_dist *d, uint64_t size)
{
	int c = estimate_class(size);
	uint64_t total = 0;

	for (int i = 0; i < ESTIMATE_NCLASS; i++) {
		if (d->bytes[i] > UINT64_MAX - total)
			return -1;
		total += d->bytes[i];
	}
	if (size > UINT64_MAX - total || d->files[c] == UINT64_MAX)
		return -1;
	d->files[c]++;
	d->bytes[c] += size;
	return 0;
}

int estimate_parse_rate(const char *s, uint64_t *milli_kbps, struct perr *e)
{
	const char *p = s;
	uint64_t whole = 0, frac = 0;
	int nfrac = 0, digits = 0, round_up = 0;

	while (*p >= '0' && *p <= '9') {
		if (whole > ESTIMATE_RATE_MAX_KBPS)
			return perr_set(e, "rate '%s' is too large (at most %llu KB/sec)",
					s, (unsigned long long)ESTIMATE_RATE_MAX_KBPS);
		whole = whole * 10 + (uint64_t)(*p++ - '0');
		digits++;
	}
	if (*p == '.') {
		p++;
		while (*p >= '0' && *p <= '9') {
			if (nfrac < 3) {
				frac = frac * 10 + (uint64_t)(*p - '0');
				nfrac++;
			} else if (nfrac == 3) {
				/* the fourth decimal decides the rounding */
				round_up = *p >= '5';
				nfrac++;
			}
			p++;
			digits++;
		}
	}
	if (!digits || *p)
		return perr_set(e, "invalid rate '%s' (a number of KB/sec, e.g. 406 or 1368.19)", s);
	for (; nfrac < 3; nfrac++)
		frac *= 10;
	if (whole > ESTIMATE_RATE_MAX_KBPS)
		return perr_set(e, "rate '%s' is too large (at most %llu KB/sec)",
				s, (unsigned long long)ESTIMATE_RATE_MAX_KBPS);
	*milli_kbps = whole * 1000 + frac + (uint64_t)round_up;
	if (*milli_kbps > ESTIMATE_RATE_MAX_KBPS * 1000)
		return perr_set(e, "rate '%s' is too large (at most %llu KB/sec)",
				s, (unsigned long long)ESTIMATE_RATE_MAX_KBPS);
	if (*milli_kbps == 0)
		return perr_set(e, "rate '%s' must be greater than 0", s);
	return 0;
}

/*
 * floor(bytes / (milli / 1000 * 1024)) = floor(1000 * bytes / d) with
 * d = milli * 1024, without the 1000 * bytes product overflowing:
 * bytes = q*d + r gives 1000*q + floor(1000*r / d), and 1000*r < 1000*d
 * <= 1000 * 1e12 * 1024 < 2^64 under ESTIMATE_RATE_MAX_KBPS.
 */
static uint64_t seconds_at(uint64_t bytes, uint64_t milli_kbps)
{
	uint64_t d = milli_kbps * 1024, q = bytes / d, r = bytes % d;

	return q * 1000 + (r * 1000) / d;
}

void estimate_compute(const struct estimate_dist *d,
		      const struct estimate_rates *rates,
		      struct estimate_result *out)
{
	memset(out, 0, sizeof(*out));
	for (int i = 0; i < ESTIMATE_NCLASS; i++) {
		out->total_files += d->files[i];
		out->total_bytes += d->bytes[i];
	}
	out->avg_size = out->total_files ? out->total_bytes / out->total_files : 0;
	out->avg_class = estimate_class(out->avg_size);
	if (!rates)
		return;
	out->have_rates = 1;
	for (int i = 0; i < ESTIMATE_NCLASS; i++) {
		out->bytes_per_sec[i] = (double)rates->milli_kbps[i] * 1024 / 1000;
		out->time_sec[i] = seconds_at(d->bytes[i], rates->milli_kbps[i]);
		out->est_sec += out->time_sec[i];
	}
	out->est_avg_sec = seconds_at(out->total_bytes,
				      rates->milli_kbps[out->avg_class]);
}

char *estimate_format_hms(char *buf, size_t n, uint64_t sec)
{
	snprintf(buf, n, "%" PRIu64 " hours %" PRIu64 " mins %" PRIu64 " sec",
		 sec / 3600, sec / 60 % 60, sec % 60);
	return buf;
}

#define RULE "=============================================================================="

int estimate_print_table(FILE *f, const struct estimate_dist *d,
			 const struct estimate_result *r)
{
	char hms[64];

	fprintf(f, "%s\n", RULE);
	fprintf(f, "%-15s %10s %20s %12s %10s\n", "Range", "#", "#", "Bytes", "Time");
	fprintf(f, "%-15s %10s %20s %12s %10s\n", "", "Files", "Bytes", "Per Sec", "(sec)");
	fprintf(f, "%s\n", RULE);
	for (int i = 0; i < ESTIMATE_NCLASS; i++) {
		fprintf(f, "%-15s %10" PRIu64 " %20" PRIu64, class_label[i],
			d->files[i], d->bytes[i]);
		if (r->have_rates)
			fprintf(f, " %12.0f %10" PRIu64, r->bytes_per_sec[i],
				r->time_sec[i]);
		fputc('\n', f);
	}
	fprintf(f, "%s\n", RULE);
	fprintf(f, "Total size for all %" PRIu64 " files: %" PRIu64 ".\n",
		r->total_files, r->total_bytes);
	fprintf(f, "Average file size: %" PRIu64 "\n", r->avg_size);
	if (r->have_rates) {
		fprintf(f, "Estimated Time: %s\n",
			estimate_format_hms(hms, sizeof(hms), r->est_sec));
		fprintf(f, "Estimated Time based on average file size: %s\n",
			estimate_format_hms(hms, sizeof(hms), r->est_avg_sec));
	}
	fflush(f);
	return ferror(f) ? -1 : 0;
}

/* A rate in KB/sec without trailing zeros: 26000 -> "26", 1368190 ->
 * "1368.19". */
static char *rate_text(char *buf, size_t n, uint64_t milli)
{
	int len = snprintf(buf, n, "%" PRIu64 ".%03u", milli / 1000,
			   (unsigned)(milli % 1000));

	while (len > 0 && buf[len - 1] == '0')
		buf[--len] = '\0';
	if (len > 0 && buf[len - 1] == '.')
		buf[--len] = '\0';
	return buf;
}

int estimate_print_csv(FILE *f, const struct estimate_dist *d,
		       const struct estimate_rates *rates,
		       const struct estimate_result *r)
{
	char rate[40];

	fprintf(f, "range,min_bytes,max_bytes,files,bytes,kb_per_sec,bytes_per_sec,time_sec\n");
	for (int i = 0; i < ESTIMATE_NCLASS; i++) {
		uint64_t lo, hi;

		estimate_class_bounds(i, &lo, &hi);
		fprintf(f, "%s,%" PRIu64 ",", class_label[i], lo);
		if (hi != UINT64_MAX)
			fprintf(f, "%" PRIu64, hi);
		fprintf(f, ",%" PRIu64 ",%" PRIu64 ",", d->files[i], d->bytes[i]);
		if (rates)
			fprintf(f, "%s,%.2f,%" PRIu64,
				rate_text(rate, sizeof(rate), rates->milli_kbps[i]),
				r->bytes_per_sec[i], r->time_sec[i]);
		else
			fprintf(f, ",,");
		fputc('\n', f);
	}
	fprintf(f, "total,,,%" PRIu64 ",%" PRIu64 ",,,", r->total_files,
		r->total_bytes);
	if (rates)
		fprintf(f, "%" PRIu64, r->est_sec);
	fputc('\n', f);
	fprintf(f, "average file size,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",",
		r->avg_size, r->avg_size, r->total_files, r->total_bytes);
	if (rates)
		fprintf(f, "%s,%.2f,%" PRIu64,
			rate_text(rate, sizeof(rate), rates->milli_kbps[r->avg_class]),
			r->bytes_per_sec[r->avg_class], r->est_avg_sec);
	else
		fprintf(f, ",,");
	fputc('\n', f);
	fflush(f);
	return ferror(f) ? -1 : 0;
}
