/* rng.h - what the simulated workloads (sim.c, testfn.c) share: a seeded stream of
 * uniforms (splitmix64) and the way they give up. TOOL names the program in errors. */
#ifndef VMTUNE_TESTS_RNG_H
#define VMTUNE_TESTS_RNG_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* a uniform in (0, 1): 53 random bits, never 0 */
static double uniform(uint64_t *s)
{
	return ((splitmix64(s) >> 11) + 0.5) / 9007199254740992.0;
}

static __attribute__((noreturn)) void die(const char *what, const char *path)
{
	fprintf(stderr, "%s: %s: %s\n", TOOL, path, what);
	exit(2);
}

#endif
