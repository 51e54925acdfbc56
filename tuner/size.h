/* size.h - strict parsing of sizes ("512M") and durations ("5m"), shared with the workloads. */
#ifndef VMTUNE_SIZE_H
#define VMTUNE_SIZE_H

#include <stddef.h>
#include <stdint.h>

/* Parse a byte size: digits, an optional fraction, an optional binary suffix
 * (K, M, G, T, with optional "B" or "iB"; case-insensitive). Returns 0, or -1
 * with a reason in why. Overflow is an error, never a wrap. */
int parse_size(const char *s, uint64_t *out, char *why, size_t whylen);

/* Parse a duration: a number with an optional unit ms, s, m, h (default s).
 * Result in seconds. */
int parse_duration(const char *s, double *out, char *why, size_t whylen);

/* Parse a plain decimal integer in [min, max]. */
int parse_long(const char *s, long min, long max, long *out, char *why, size_t whylen);

/* Format a byte count for humans: "512M", "1.5G". */
const char *format_size(uint64_t bytes, char *buf, size_t size);

#endif
