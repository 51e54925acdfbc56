/* search-warm.c - --warm-start: pool the stored trials of these workloads (every
 * --db, this run left out), take the pooled model's advice (the policy recommend
 * uses) as the first candidate, and let its hyperparameters serve the search's
 * surrogate until the first refit. */
#include <math.h>
#include <string.h>

#include "advice.h"
#include "search-int.h"
#include "vmtune.h"

int warm_setup(struct search *S, long exclude_run)
{
	struct pool_query q = { .objective = objective_name(S->o->objective), .exclude_run = exclude_run };
	struct advice A;
	struct machine m;
	struct model M;
	char d[512];
	int i;

	for (i = 0; i < S->o->nwl && i < POOL_MAX_SPECS; i++)
		q.specs[q.nspecs++] = S->o->wl[i].spec;
	for (i = 0; i < S->o->ndbs && q.ndbs < POOL_MAX_DBS; i++)
		if (store_exists(S->o->dbs[i]))
			q.dbs[q.ndbs++] = S->o->dbs[i];
	machine_read(&m);
	pool_categorical(&S->sp, S->cat);
	if (pool_load(&S->pool, &q, &S->sp, &m) < 0)
		return -1;
	if (S->pool.npts < 3) {
		search_say(S, "--warm-start: %d stored trials of these workloads; starting cold", S->pool.ntrials);
		pool_free(&S->pool);
		return 0;
	}
	if (advice_make(&A, &M, &S->pool, &S->sp, &m, NULL, S->o->seed) < 0) {
		search_say(S, "--warm-start: the pooled model does not fit; starting cold");
		pool_free(&S->pool);
		return 0;
	}
	memcpy(S->feat, A.feat, sizeof(S->feat));
	memcpy(S->warm_rec, A.vals, sizeof(S->warm_rec));
	search_say(S,
		   "--warm-start: %d pooled trials from %d run%s on %d machine%s; first candidate %s "
		   "(predicted %+.1f%%%s)",
		   S->pool.ntrials, S->pool.nruns, S->pool.nruns == 1 ? "" : "s", S->pool.nmachines,
		   S->pool.nmachines == 1 ? "" : "s", space_describe(&S->sp, S->warm_rec, false, d, sizeof(d)),
		   100 * (exp(A.mean) - 1),
		   A.guess_only ? "; a guess across kinds of swap, which the search now measures" : "");
	memcpy(S->hyper_l, M.gp.log_l, sizeof(double) * (size_t)pool_dims(&S->sp));
	S->hyper_sf2 = M.gp.log_sf2;
	S->hyper_sn2 = M.gp.log_sn2;
	S->have_hyper = true;
	S->hyper_at = S->trials_done;
	model_free(&M);
	S->warm = true;
	return 0;
}
