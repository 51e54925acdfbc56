/* fuzz_size.c - the size, duration and integer parsers: a value or a reason, and a
 * size printed back parses to within its rounding. */
#include <math.h>

#include "fuzz.h"
#include "size.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	fuzz_quiet();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_string(data, size), why[128], buf[32];
	uint64_t bytes, back;
	double secs;
	long l;

	why[0] = '\0';
	if (parse_size(s, &bytes, why, sizeof(why)) == 0) {
		/* (near 2^64 the one rounded decimal reaches past what a size can hold:
		 * "16384.0P" for 2^64 - 1; only the display rounds there) */
		if (bytes < UINT64_MAX / 2) {
			if (parse_size(format_size(bytes, buf, sizeof(buf)), &back, why, sizeof(why)) < 0)
				abort();
			/* format_size keeps one decimal: within 5% of the value */
			if ((double)back > (double)bytes * 1.05 + 1 || (double)back < (double)bytes * 0.95 - 1)
				abort();
		}
	} else if (!why[0]) {
		abort();
	}
	why[0] = '\0';
	if (parse_duration(s, &secs, why, sizeof(why)) == 0) {
		/* decimal digits, at most one point, then the unit: no exponents, no hex */
		if (!isfinite(secs) || secs < 0 || secs > 1e9 || strspn(s, "0123456789.") < 1 || strpbrk(s, "xXeEpP+-"))
			abort();
	} else if (!why[0]) {
		abort();
	}
	why[0] = '\0';
	if (parse_long(s, -1000, 1000, &l, why, sizeof(why)) == 0 ? (l < -1000 || l > 1000) : !why[0])
		abort();
	free(s);
	return 0;
}
