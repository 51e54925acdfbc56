/* size.c - strict size, duration and integer parsing: no silent wrap, no trailing junk. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "size.h"

static int fail(char *why, size_t whylen, const char *fmt, const char *arg)
{
	if (why)
		snprintf(why, whylen, fmt, arg);
	return -1;
}

static int suffix_shift(const char *suf, int *shift)
{
	static const struct {
		char letter;
		int shift;
	} units[] = { { 'k', 10 }, { 'm', 20 }, { 'g', 30 }, { 't', 40 }, { 'p', 50 } };
	size_t i;

	if (*suf == '\0' || strcasecmp(suf, "b") == 0) {
		*shift = 0;
		return 0;
	}
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (tolower((unsigned char)suf[0]) != units[i].letter)
			continue;
		if (suf[1] == '\0' || strcasecmp(suf + 1, "b") == 0 || strcasecmp(suf + 1, "ib") == 0) {
			*shift = units[i].shift;
			return 0;
		}
	}
	return -1;
}

int parse_size(const char *s, uint64_t *out, char *why, size_t whylen)
{
	const char *p = s;
	uint64_t whole = 0, frac_num = 0, frac_den = 1, v;
	int shift;

	if (!s || !isdigit((unsigned char)*p))
		return fail(why, whylen, "invalid size '%s': expected a number such as 512M", s ? s : "");
	for (; isdigit((unsigned char)*p); p++) {
		if (__builtin_mul_overflow(whole, 10, &whole) ||
		    __builtin_add_overflow(whole, (uint64_t)(*p - '0'), &whole))
			return fail(why, whylen, "invalid size '%s': too large", s);
	}
	if (*p == '.') {
		p++;
		if (!isdigit((unsigned char)*p))
			return fail(why, whylen, "invalid size '%s': digits expected after '.'", s);
		for (; isdigit((unsigned char)*p); p++) {
			if (frac_den >= 1000000000ULL)
				continue; /* ignore digits beyond 1e-9 */
			frac_num = frac_num * 10 + (uint64_t)(*p - '0');
			frac_den *= 10;
		}
	}
	if (suffix_shift(p, &shift) < 0) {
		if (why)
			snprintf(why, whylen, "invalid size '%s': unknown suffix '%s' (use K, M, G or T)", s, p);
		return -1;
	}
	if (shift < 64 && whole > (UINT64_MAX >> shift))
		return fail(why, whylen, "invalid size '%s': too large", s);
	v = whole << shift;
	if (frac_num) {
		/* frac_num / frac_den < 1, so this cannot exceed 1 << shift */
		uint64_t extra = (uint64_t)(((long double)frac_num / frac_den) * (long double)(1ULL << shift));
		if (__builtin_add_overflow(v, extra, &v))
			return fail(why, whylen, "invalid size '%s': too large", s);
	}
	*out = v;
	return 0;
}

int parse_duration(const char *s, double *out, char *why, size_t whylen)
{
	char *end;
	double v, mult;

	size_t digits;

	if (!s || !(isdigit((unsigned char)*s) || *s == '.'))
		return fail(why, whylen, "invalid duration '%s': expected a number such as 30s or 5m", s ? s : "");
	/* plain decimals only: strtod would also take "1e3" and "0x10" */
	digits = strspn(s, "0123456789.");
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || (size_t)(end - s) != digits || v < 0)
		return fail(why, whylen, "invalid duration '%s'", s);
	if (*end == '\0' || strcmp(end, "s") == 0)
		mult = 1;
	else if (strcmp(end, "ms") == 0)
		mult = 1e-3;
	else if (strcmp(end, "m") == 0 || strcmp(end, "min") == 0)
		mult = 60;
	else if (strcmp(end, "h") == 0)
		mult = 3600;
	else {
		if (why)
			snprintf(why, whylen, "invalid duration '%s': unknown unit '%s' (use ms, s, m or h)", s, end);
		return -1;
	}
	if (v * mult > 1e9)
		return fail(why, whylen, "invalid duration '%s': too long", s);
	*out = v * mult;
	return 0;
}

int parse_long(const char *s, long min, long max, long *out, char *why, size_t whylen)
{
	char *end;
	long v;

	if (!s || *s == '\0' || isspace((unsigned char)*s))
		return fail(why, whylen, "invalid number '%s'", s ? s : "");
	errno = 0;
	v = strtol(s, &end, 10);
	if (*end != '\0')
		return fail(why, whylen, "invalid number '%s': not an integer", s);
	if (errno == ERANGE || v < min || v > max) {
		if (why)
			snprintf(why, whylen, "'%s' is out of range %ld..%ld", s, min, max);
		return -1;
	}
	*out = v;
	return 0;
}

const char *format_size(uint64_t bytes, char *buf, size_t size)
{
	static const char units[] = "KMGTP";
	double v = (double)bytes;
	int i = -1;

	while (v >= 1024 && i < 4) {
		v /= 1024;
		i++;
	}
	if (i < 0)
		snprintf(buf, size, "%lluB", (unsigned long long)bytes);
	else if (v == (double)(long long)v)
		snprintf(buf, size, "%lld%c", (long long)v, units[i]);
	else
		snprintf(buf, size, "%.1f%c", v, units[i]);
	return buf;
}
