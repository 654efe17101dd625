/*
 * fuzz_listing.c - libFuzzer target for the listing parsers of `perflog
 * estimate` (estimate/listing.h): both kinds, any bytes. Seeds:
 * tests/fixtures/listings/.
 *
 *   clang -fsanitize=fuzzer,address,undefined -D_XOPEN_SOURCE_EXTENDED \
 *     tests/fuzz/fuzz_listing.c estimate/listing.c estimate/estimate.c \
 *     common/util.c -o build/fuzz_listing
 *   build/fuzz_listing tests/fixtures/listings/
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../../estimate/listing.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct listing_state s;
	struct estimate_dist d;
	struct perr e;
	uint64_t files = 0;

	memset(&d, 0, sizeof(d));
	if (listing_parse((const char *)data, size, "fuzz", &s, &d, &e) == 0) {
		/* what was counted is what the distribution holds */
		for (int i = 0; i < ESTIMATE_NCLASS; i++)
			files += d.files[i];
		if (files != s.files)
			__builtin_trap();
	}
	return 0;
}
