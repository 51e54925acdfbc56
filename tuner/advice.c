/* advice.c - the recommendation policy: the machine as searched, the settings
 * that are good with some certainty, and the gate on transfers across kinds of
 * swap that the model itself doubts. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "advice.h"

/* Page-cluster and friends only matter with swap: a machine with none now whose
 * own searches ran with some is advised as it was searched. */
static bool as_searched(const struct pool *p, struct machine *m)
{
	bool changed = false;

	for (int i = p->nmachines - 1; i >= 0 && m->nswaps == 0; i--) {
		const struct pool_machine *pm = &p->machines[i];
		if (pm->own && pm->m.nswaps > 0) {
			memcpy(m->swaps, pm->m.swaps, sizeof(m->swaps));
			m->nswaps = pm->m.nswaps;
			m->swap_total_kb = pm->m.swap_total_kb;
			m->zswap = pm->m.zswap;
			changed = true;
		}
	}
	return changed;
}

static bool swap_kind_seen(const struct pool *p, const struct machine *m)
{
	for (int i = 0; i < p->nmachines; i++)
		if (strcmp(machine_swap_class(&p->machines[i].m), machine_swap_class(m)) == 0)
			return true;
	return false;
}

/* A gain the whole pool is sure of must hold on the trials of this machine's kind
 * of swap alone, when the pool has both those and others: the model carries an
 * effect from one kind to another by a fitted correlation that two or three kinds
 * cannot pin down, and a swapfile's readahead gain is no gain on zram. The model
 * of this kind's trials at the chosen settings (1), too few of them for a model
 * (-1: no support either), or no other kind in the pool (0). */
static int kind_alone(const struct pool *p, const struct space *sp, const struct machine *m, const double *feat,
		      const long *vals, double *mean, double *sd)
{
	struct pool sub = *p;
	struct model K;
	bool other = false;
	int i, rc = -1;

	for (i = 0; i < p->nmachines; i++)
		other |= strcmp(machine_swap_class(&p->machines[i].m), machine_swap_class(m)) != 0;
	if (!other)
		return 0;
	if (!(sub.pts = malloc(sizeof(*sub.pts) * (size_t)p->npts)))
		return -1;
	sub.npts = 0;
	for (i = 0; i < p->npts; i++)
		if (strcmp(machine_swap_class(&p->machines[p->runs[p->pts[i].run].machine].m), machine_swap_class(m)) ==
		    0)
			sub.pts[sub.npts++] = p->pts[i];
	*mean = *sd = NAN;
	if (sub.npts >= 3 && model_fit(&K, &sub, sp, feat, NULL, NULL, 0) == 0) {
		model_predict(&K, vals, mean, sd);
		model_free(&K);
		rc = 1;
	}
	free(sub.pts);
	return rc;
}

int advice_make(struct advice *A, struct model *M, const struct pool *p, const struct space *sp, struct machine *m,
		const bool *free, unsigned long seed)
{
	memset(A, 0, sizeof(*A));
	A->as_searched = as_searched(p, m);
	machine_features(m, A->feat);
	A->swap_kind_seen = swap_kind_seen(p, m);
	for (int i = 0; i < p->nmachines; i++)
		if (p->machines[i].own) {
			A->own++;
			A->own_trials += p->machines[i].ntrials;
		}
	if (p->npts < 3 || model_fit(M, p, sp, A->feat, NULL, NULL, 0) < 0)
		return -1;
	model_best(M, p, 1.0, seed, free, A->vals);
	model_predict(M, A->vals, &A->mean, &A->sd);
	A->unsure = A->mean + 1.96 * A->sd >= 0;
	if (!A->unsure && A->swap_kind_seen) {
		int k = kind_alone(p, sp, m, A->feat, A->vals, &A->kind_mean, &A->kind_sd);
		if (k < 0 || (k > 0 && A->kind_mean + 1.96 * A->kind_sd >= 0))
			A->unsure = A->kind_doubts = true;
	}
	A->guess_only = A->unsure && !A->own && !A->swap_kind_seen;
	return 0;
}
