/* strategy.c - where the next candidate comes from: the strategy table (bo, random,
 * grid), the space-filling design that starts bo and is all of random, and the
 * shuffled factorial grid. The surrogate itself is in strategy-bo.c. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "search-int.h"
#include "vmtune.h"

void strategy_unit(struct search *S, double *u)
{
	int i;

	if (S->o->strategy == STRAT_RANDOM) {
		for (i = 0; i < S->sp.d; i++)
			u[i] = gsl_rng_uniform(S->rng);
		return;
	}
	gsl_qrng_get(S->sobol, u);
	for (i = 0; i < S->sp.d; i++) {
		u[i] += S->shift[i];
		if (u[i] >= 1)
			u[i] -= 1;
	}
}

static int grid_levels(const struct space_dim *dm)
{
	if (dm->categorical || (!dm->log && dm->hi - dm->lo <= 8))
		return (int)(dm->hi - dm->lo + 1);
	return 5;
}

static long gcd(long a, long b)
{
	while (b) {
		long t = a % b;
		a = b;
		b = t;
	}
	return a;
}

static void grid_init(struct search *S)
{
	int i;

	S->grid_total = 1;
	for (i = 0; i < S->sp.d && S->grid_total < (1L << 40); i++)
		S->grid_total *= grid_levels(&S->sp.dim[i]);
	/* visit the grid in a shuffled order: k -> (a*k + c) mod total, a coprime */
	do
		S->grid_a = 1 + (long)(gsl_rng_uniform(S->rng) * (double)(S->grid_total - 1));
	while (S->grid_total > 1 && gcd(S->grid_a, S->grid_total) != 1);
	S->grid_next = (long)(gsl_rng_uniform(S->rng) * (double)S->grid_total);
}

static void grid_point(struct search *S, long k, long *vals)
{
	long idx = (S->grid_a * k + S->grid_next) % S->grid_total;
	int i;

	for (i = 0; i < S->sp.d; i++) {
		const struct space_dim *dm = &S->sp.dim[i];
		int n = grid_levels(dm), l = (int)(idx % n);
		idx /= n;
		if (n == dm->hi - dm->lo + 1)
			vals[i] = space_snap(dm, dm->lo + l);
		else
			vals[i] = space_decode(dm, -1 + 2.0 * l / (n - 1));
	}
}

static int n_initial(const struct search *S)
{
	int n = 2 * S->sp.d + 1;

	if (n < 5)
		n = 5;
	if (n > S->o->trials / 2)
		n = S->o->trials / 2 > 2 ? S->o->trials / 2 : 2;
	return n;
}

/* The space-filling design (a shifted Sobol sequence; uniform for random): the
 * first unit point whose settings were not tried yet. */
static void design_next(struct search *S, long *vals)
{
	double u[SPACE_MAX];
	int tries;

	for (tries = 0; tries < 200; tries++) {
		strategy_unit(S, u);
		space_from_unit(&S->sp, u, vals);
		if (find_point(S, vals) < 0)
			return;
	}
}

static void grid_next(struct search *S, long *vals)
{
	int tries;

	for (tries = 0; tries < 10000; tries++) {
		grid_point(S, S->trials_done + tries, vals);
		if (find_point(S, vals) < 0)
			return;
	}
}

/* A warm start tries the pooled model's recommendation first, then goes by the
 * surrogate straight away: the pool stands in for the initial design. */
static void bo_next(struct search *S, long *vals)
{
	struct gp gp, gpc;

	if (S->warm && !S->warm_rec_tried) {
		S->warm_rec_tried = true;
		if (find_point(S, S->warm_rec) < 0) {
			memcpy(vals, S->warm_rec, sizeof(long) * (size_t)S->sp.d);
			return;
		}
	}
	if ((S->warm || S->trials_done >= n_initial(S)) && fit_model(S, &gp) == 0) {
		bool fails = fit_failures(S, &gpc) == 0;
		bo_candidate(S, &gp, fails ? &gpc : NULL, vals);
		gp_free(&gp);
		if (fails)
			gp_free(&gpc);
		return;
	}
	design_next(S, vals);
}

/* The strategies: a new one is a row here and a function that proposes the next
 * untried settings. */
static const struct {
	enum strategy id;
	const char *name;
	void (*next)(struct search *S, long *vals);
} strategies[] = {
	{ STRAT_BO, "bo", bo_next },
	{ STRAT_RANDOM, "random", design_next },
	{ STRAT_GRID, "grid", grid_next },
};

#define NSTRATEGIES (sizeof(strategies) / sizeof(strategies[0]))

const char *strategy_name(enum strategy s)
{
	for (size_t i = 0; i < NSTRATEGIES; i++)
		if (strategies[i].id == s)
			return strategies[i].name;
	return "?";
}

int strategy_parse(const char *s, enum strategy *out)
{
	for (size_t i = 0; i < NSTRATEGIES; i++)
		if (strcmp(strategies[i].name, s) == 0) {
			*out = strategies[i].id;
			return 0;
		}
	return -1;
}

void strategy_init(struct search *S)
{
	grid_init(S);
}

void next_candidate(struct search *S, long *vals)
{
	for (size_t i = 0; i < NSTRATEGIES; i++)
		if (strategies[i].id == S->o->strategy) {
			strategies[i].next(S, vals);
			return;
		}
}
