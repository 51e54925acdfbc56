/* effect EFFECT NOISE - a simulated workload whose answer is known, for checking what a
 * search's claims are worth (tests/cli/test-confirm.sh, bench/confirm.sh): the cost is
 * 10, EFFECT lower (0.10: 10%) when vm.page-cluster >= 5 on the --root tree it scores
 * ($VMTUNE_ROOT), nothing else matters, and each measurement is multiplied by
 * exp(NOISE * N(0,1)). The noise is seeded: $VMTUNE_ROOT/seed (default 1) and a counter
 * of draws in $VMTUNE_ROOT/draws give each measurement its own normal deviate
 * (splitmix64 of the pair, Box-Muller), so every search is repeatable. Prints value=...
 * and true=...; exits 2 on a tree it cannot read. A program rather than a script: a
 * search measures it a hundred times or more, and the test runs forty searches. */
#include <inttypes.h>
#include <math.h>
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

static long read_long(const char *root, const char *name, long dflt, int must)
{
	char path[4096];
	FILE *f;
	long v;

	snprintf(path, sizeof(path), "%s/%s", root, name);
	f = fopen(path, "r");
	if (!f) {
		if (must) {
			fprintf(stderr, "effect: %s: cannot read\n", path);
			exit(2);
		}
		return dflt;
	}
	if (fscanf(f, "%ld", &v) != 1) {
		if (must) {
			fprintf(stderr, "effect: %s: not a number\n", path);
			exit(2);
		}
		v = dflt;
	}
	fclose(f);
	return v;
}

int main(int argc, char **argv)
{
	const char *root = getenv("VMTUNE_ROOT");
	double effect = argc > 1 ? atof(argv[1]) : 0, noise = argc > 2 ? atof(argv[2]) : 0.1, f, z;
	long seed, n, pc;
	char path[4096];
	uint64_t s;
	FILE *w;

	if (!root || !*root) {
		fprintf(stderr, "effect: scores a --root tree: VMTUNE_ROOT is not set\n");
		return 2;
	}
	seed = read_long(root, "seed", 1, 0);
	n = read_long(root, "draws", 0, 0);
	pc = read_long(root, "proc/sys/vm/page-cluster", 0, 1);
	snprintf(path, sizeof(path), "%s/draws", root);
	w = fopen(path, "w");
	if (!w || fprintf(w, "%ld\n", n + 1) < 0 || fclose(w) != 0) {
		fprintf(stderr, "effect: %s: cannot write\n", path);
		return 2;
	}
	s = (uint64_t)seed * 0xd1342543de82ef95ULL ^ (uint64_t)n;
	splitmix64(&s);
	z = sqrt(-2 * log(uniform(&s))) * cos(2 * M_PI * uniform(&s));
	f = 10 * (pc >= 5 ? 1 - effect : 1);
	printf("value=%.6f\ntrue=%.6f\n", f * exp(noise * z), f);
	return 0;
}
