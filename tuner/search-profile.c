/* search-profile.c - the profile a search writes: its default name under the
 * state dir, the recommended settings, and the evidence in the metric's own
 * direction. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "machine.h"
#include "profile.h"
#include "search-int.h"
#include "text.h"
#include "vmtune.h"

void search_default_out(const struct search *S, char *buf, size_t size)
{
	struct machine m;
	char name[128], host[128];

	machine_read(&m);
	/* a hostname (of a --machine fingerprint, say) cannot lead out of the directory */
	snprintf(buf, size, "%s/profiles/%s-%s.yaml", S->o->state_dir, text_filename(m.hostname, host, sizeof(host)),
		 text_filename(S->o->nwl > 1 ? "mix" : S->o->wl[0].name, name, sizeof(name)));
}

int search_write_profile(struct search *S, const char *path, const long *rec, const struct confirm *c,
			 const struct ablation *A)
{
	struct profile p;
	struct machine m;
	time_t t = time(NULL);
	struct tm tm;
	char dir[PATH_MAX], *slash;
	int i;

	memset(&p, 0, sizeof(p));
	/* the machine as the recommended backend has it: its swap is what the profile records */
	if (S->swap_dim >= 0 && swap_vary_select(&S->vary, (int)rec[S->swap_dim], S->swapfile, sizeof(S->swapfile)) < 0)
		return -1;
	machine_read(&m);
	snprintf(p.name, sizeof(p.name), "%s-%s", m.hostname, S->o->nwl > 1 ? "mix" : S->o->wl[0].name);
	snprintf(p.description, sizeof(p.description), "vmtune search (%s, %d trials)%s", strategy_name(S->o->strategy),
		 S->trials_done,
		 c && c->significant ? ""
		 : S->check && check_refuses(S->check->verdict)
		     ? ": what was shown better made the check workload worse, original settings kept"
		     : ": no significant improvement, original settings kept");
	gmtime_r(&t, &tm);
	strftime(p.created, sizeof(p.created), "%Y-%m-%dT%H:%M:%SZ", &tm);
	p.machine.present = true;
	snprintf(p.machine.hostname, sizeof(p.machine.hostname), "%s", m.hostname);
	snprintf(p.machine.kernel, sizeof(p.machine.kernel), "%s", m.kernel);
	p.machine.cpus = m.cpus;
	p.machine.mem_total_kb = m.mem_total_kb;
	p.machine.swap_total_kb = m.swap_total_kb;
	machine_swap_kind(&m, p.machine.swap, sizeof(p.machine.swap));
	if (S->swap_dim >= 0) {
		struct swap_spec b;
		swap_spec_for_backend(&S->o->swapspec, (int)rec[S->swap_dim], &b);
		swap_spec_format(&b, p.machine.swap_backend, sizeof(p.machine.swap_backend));
	} else if (S->o->swapspec.backend != SWAP_NONE) {
		swap_spec_format(&S->o->swapspec, p.machine.swap_backend, sizeof(p.machine.swap_backend));
	}
	/* only what it changes: the rest stay as the machine has them */
	for (i = 0; i < S->sp.d; i++) {
		struct profile_share *sh;
		if (S->sp.dim[i].pseudo || rec[i] == S->sp.dim[i].original)
			continue; /* the backend is machine.swap_backend, not a setting */
		p.settings[p.nsettings].def = S->sp.dim[i].def;
		p.settings[p.nsettings++].value = rec[i];
		if (!c || !c->significant)
			continue;
		sh = &p.evidence.share[p.evidence.nshares++];
		sh->def = S->sp.dim[i].def;
		sh->pct = sh->lo = sh->hi = NAN;
		{
			enum ablate_share k = A ? ablate_share(A, i, c, &sh->pct, &sh->lo, &sh->hi) : SHARE_NONE;
			/* a put-back step's cost is a measured share too: what putting it back cost */
			snprintf(sh->how, sizeof(sh->how), "%s",
				 k == SHARE_WHOLE			  ? "whole"
				 : k == SHARE_STEP || k == SHARE_PUT_BACK ? "step"
				 : k == SHARE_NOT_TESTED		  ? "budget"
									  : "none");
		}
	}
	if (c && c->significant)
		for (int k = 0; k < GUARD_NWHAT && p.evidence.nguards < 8; k++) {
			const struct guard_move *gm = &c->guards[k];
			struct profile_guard *g;
			if (!gm->have)
				continue;
			g = &p.evidence.guard[p.evidence.nguards++];
			snprintf(g->name, sizeof(g->name), "%s", guard_name((enum guard_what)k));
			g->pct = 100 * gm->change;
			g->lo = 100 * gm->lo;
			g->hi = 100 * gm->hi;
			g->broken = gm->broken;
			if (gm->limit >= 0)
				snprintf(g->limit, sizeof(g->limit), "%s", S->o->guard[gm->limit].text);
		}
	p.evidence.present = true;
	for (i = 0; i < S->o->nwl; i++) {
		size_t n = strlen(p.evidence.workload);
		snprintf(p.evidence.workload + n, sizeof(p.evidence.workload) - n, "%s%s", i ? " + " : "",
			 S->o->wl[i].spec);
	}
	p.evidence.trials = S->trials_done;
	p.evidence.has_sandbox = true;
	p.evidence.memory_limit = S->o->mem_limit;
	if (S->o->swapspec.backend != SWAP_NONE)
		swap_spec_format(&S->o->swapspec, p.evidence.swap, sizeof(p.evidence.swap));
	if (S->o->probe)
		snprintf(p.evidence.probe, sizeof(p.evidence.probe), "%s", S->o->probe);
	/* the run in the store, which report PROFILE --html draws */
	if (S->db && S->run_id > 0 && store_run_uuid(S->db, S->run_id, p.evidence.run, sizeof(p.evidence.run)) < 0)
		p.evidence.run[0] = '\0';
	if (S->o->nwl == 1) {
		snprintf(p.evidence.metric, sizeof(p.evidence.metric), "%s", S->o->wl[0].metric);
		snprintf(p.evidence.direction, sizeof(p.evidence.direction), "%s",
			 S->o->wl[0].maximize ? "max" : "min");
	} else {
		snprintf(p.evidence.metric, sizeof(p.evidence.metric), "mix_cost");
		snprintf(p.evidence.direction, sizeof(p.evidence.direction), "min");
	}
	if (c) {
		double k = S->o->nwl == 1 && S->o->wl[0].maximize ? -1 : 1;
		p.evidence.baseline = S->o->nwl == 1 ? c->base_metric : 1;
		p.evidence.best = S->o->nwl == 1 ? c->cand_metric : 1 + c->change_pct / 100;
		/* in the metric's own direction: a cost change of x% is a rate change of 1/(1+x)-1 */
		if (k < 0) {
			p.evidence.change_pct = 100 * (1 / (1 + c->change_pct / 100) - 1);
			p.evidence.ci_lo = 100 * (1 / (1 + c->ci_hi / 100) - 1);
			p.evidence.ci_hi = 100 * (1 / (1 + c->ci_lo / 100) - 1);
		} else {
			p.evidence.change_pct = c->change_pct;
			p.evidence.ci_lo = c->ci_lo;
			p.evidence.ci_hi = c->ci_hi;
		}
		p.evidence.significant = c->significant;
	}
	snprintf(dir, sizeof(dir), "%s", path);
	if ((slash = strrchr(dir, '/')) && slash != dir) {
		char cmd_dir[PATH_MAX];
		*slash = '\0';
		snprintf(cmd_dir, sizeof(cmd_dir), "%s", dir);
		/* the default lives under the state dir; a given path's dir must exist */
		if (strncmp(cmd_dir, S->o->state_dir, strlen(S->o->state_dir)) == 0 && access(cmd_dir, F_OK) < 0 &&
		    mkdir(cmd_dir, 0755) < 0)
			return error("cannot create '%s': %s", cmd_dir, strerror(errno));
	}
	return profile_write(path, &p);
}
