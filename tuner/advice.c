/* advice.c - the recommendation policy: the machine as searched, the settings
 * that are good with some certainty, and the gate on transfers across kinds of
 * swap that the model itself doubts. */
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
	A->guess_only = A->unsure && !A->own && !A->swap_kind_seen;
	return 0;
}
