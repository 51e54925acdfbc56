/* profile.c - profile files through libyaml: the document API to load (every node
 * has a mark, so errors point at line and column), the emitter to write. A profile
 * can only name catalogue knobs; values are checked against their full range. */
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <yaml.h>

#include "text.h"
#include "knob.h"
#include "machine.h"
#include "profile.h"
#include "swap.h"
#include "size.h"
#include "vmtune.h"
#include "yamldoc.h"

struct loader {
	struct ydoc *y;
	struct profile *p;
	struct profile_share *share; /* the knob evidence.knobs is reading */
	struct profile_guard *guard; /* the guard evidence.guards is reading */
};

static int want_scalar(struct loader *l, yaml_node_t *v, const char *key, const char **out)
{
	if (!(*out = ydoc_scalar(v)))
		return ydoc_error(l->y, v, "'%s' must be a single value", key);
	return 0;
}

static int copy_string(struct loader *l, yaml_node_t *v, const char *key, char *dst, size_t size)
{
	return ydoc_text(l->y, v, key, dst, size);
}

/* A mapping of the profile: each pair through fn. */
typedef int (*pair_fn)(struct loader *l, const char *key, yaml_node_t *k, yaml_node_t *v);

struct pair_walk {
	struct loader *l;
	pair_fn fn;
};

static int pair_step(void *arg, const char *key, yaml_node_t *k, yaml_node_t *v)
{
	struct pair_walk *w = arg;

	return w->fn(w->l, key, k, v);
}

static int each_pair(struct loader *l, yaml_node_t *map, const char *what, pair_fn fn)
{
	struct pair_walk w = { l, fn };

	return ydoc_each_pair(l->y, map, what, pair_step, &w);
}

static int get_long(struct loader *l, yaml_node_t *v, const char *key, long *out)
{
	const char *s;
	char why[160];

	if (want_scalar(l, v, key, &s) < 0)
		return -1;
	if (parse_long(s, 0, LONG_MAX, out, why, sizeof(why)) < 0)
		return ydoc_error(l->y, v, "'%s': %s", key, why);
	return 0;
}

/* YAML's own spellings of the floats that are not numbers, which the evidence
 * may hold (an interval unbounded on one side); vmtune 0.1 wrote inf and nan */
static bool yaml_special(const char *s, double *out)
{
	static const char *const inf[] = { ".inf", ".Inf", ".INF", "inf" };
	const char *t = s + (*s == '-' || *s == '+');

	for (size_t i = 0; i < sizeof(inf) / sizeof(inf[0]); i++)
		if (strcmp(t, inf[i]) == 0) {
			*out = *s == '-' ? -INFINITY : INFINITY;
			return true;
		}
	if (strcmp(s, ".nan") == 0 || strcmp(s, ".NaN") == 0 || strcmp(s, ".NAN") == 0 || strcmp(s, "nan") == 0) {
		*out = NAN;
		return true;
	}
	return false;
}

static const char *yaml_number(double v, char *buf, size_t size)
{
	if (isnan(v))
		snprintf(buf, size, ".nan");
	else if (isinf(v))
		snprintf(buf, size, "%s.inf", v < 0 ? "-" : "");
	else
		snprintf(buf, size, "%.6g", v);
	return buf;
}

/* A number; special: the evidence's figures, which may be .inf or .nan */
static int get_number(struct loader *l, yaml_node_t *v, const char *key, double *out, bool special)
{
	const char *s;
	char *end;

	if (want_scalar(l, v, key, &s) < 0)
		return -1;
	if (special && yaml_special(s, out))
		return 0;
	errno = 0;
	*out = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(*out))
		return ydoc_error(l->y, v, "'%s': '%s' is not a number", key, s);
	return 0;
}

static int machine_pair(struct loader *l, const char *key, yaml_node_t *k, yaml_node_t *v)
{
	struct profile *p = l->p;

	if (strcmp(key, "hostname") == 0)
		return copy_string(l, v, key, p->machine.hostname, sizeof(p->machine.hostname));
	if (strcmp(key, "kernel") == 0)
		return copy_string(l, v, key, p->machine.kernel, sizeof(p->machine.kernel));
	if (strcmp(key, "cpus") == 0)
		return get_long(l, v, key, &p->machine.cpus);
	if (strcmp(key, "mem_total_kb") == 0)
		return get_long(l, v, key, &p->machine.mem_total_kb);
	if (strcmp(key, "swap_total_kb") == 0)
		return get_long(l, v, key, &p->machine.swap_total_kb);
	if (strcmp(key, "swap") == 0) {
		static const char *const kinds[] = { "none", "rotational", "flash", "compressed" };
		char base[32];
		size_t i, n;
		if (copy_string(l, v, key, p->machine.swap, sizeof(p->machine.swap)) < 0)
			return -1;
		n = strcspn(p->machine.swap, "+");
		snprintf(base, sizeof(base), "%.*s", (int)n, p->machine.swap);
		for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
			if (strcmp(base, kinds[i]) == 0 &&
			    (!p->machine.swap[n] || strcmp(p->machine.swap + n, "+zswap") == 0))
				return 0;
		return ydoc_error(l->y, v, "swap must be none, rotational, flash or compressed, optionally +zswap");
	}
	if (strcmp(key, "swap_backend") == 0) {
		struct swap_spec sp;
		char why[160];
		if (copy_string(l, v, key, p->machine.swap_backend, sizeof(p->machine.swap_backend)) < 0)
			return -1;
		if (swap_spec_parse(p->machine.swap_backend, &sp, why, sizeof(why)) < 0)
			return ydoc_error(l->y, v, "swap_backend: %s", why);
		return 0;
	}
	return ydoc_error(l->y, k,
			  "unknown key '%s' in machine (known: hostname, kernel, cpus, mem_total_kb, swap_total_kb, "
			  "swap, swap_backend)",
			  key);
}

static int match_pair(struct loader *l, const char *key, yaml_node_t *k, yaml_node_t *v)
{
	struct profile *p = l->p;
	const char *s;
	char why[200];
	uint64_t *dst;

	if (strcmp(key, "mem_min") == 0) {
		dst = &p->match.mem_min;
		p->match.has_min = true;
	} else if (strcmp(key, "mem_max") == 0) {
		dst = &p->match.mem_max;
		p->match.has_max = true;
	} else {
		return ydoc_error(l->y, k, "unknown key '%s' in match (known: mem_min, mem_max)", key);
	}
	if (want_scalar(l, v, key, &s) < 0)
		return -1;
	if (parse_size(s, dst, why, sizeof(why)) < 0)
		return ydoc_error(l->y, v, "match.%s: %s", key, why);
	return 0;
}

static int settings_pair(struct loader *l, const char *key, yaml_node_t *k, yaml_node_t *v)
{
	struct profile *p = l->p;
	struct profile_setting *ps;
	const struct knob_def *d = knob_find(key);
	const char *s;
	char why[256];

	if (!d)
		return ydoc_error(
		    l->y, k, "unknown knob '%s' (see 'vmtune knobs'; a profile can only name catalogue knobs)", key);
	if (!(s = ydoc_scalar(v)))
		return ydoc_error(l->y, v, "%s must have a single value", key);
	if (p->nsettings >= PROFILE_MAX_SETTINGS)
		return ydoc_error(l->y, k, "too many settings");
	ps = &p->settings[p->nsettings];
	if (knob_parse_value(d, s, &ps->value, why, sizeof(why)) < 0)
		return ydoc_error(l->y, v, "%s", why);
	ps->def = d;
	ps->line = (int)v->start_mark.line + 1;
	ps->column = (int)v->start_mark.column + 1;
	p->nsettings++;
	return 0;
}

static int objective_pair(struct loader *l, const char *key, yaml_node_t *k, yaml_node_t *v)
{
	struct profile *p = l->p;

	if (strcmp(key, "metric") == 0)
		return copy_string(l, v, key, p->evidence.metric, sizeof(p->evidence.metric));
	if (strcmp(key, "direction") == 0) {
		if (copy_string(l, v, key, p->evidence.direction, sizeof(p->evidence.direction)) < 0)
			return -1;
		if (strcmp(p->evidence.direction, "min") && strcmp(p->evidence.direction, "max"))
			return ydoc_error(l->y, v, "direction must be min or max, not '%s'", p->evidence.direction);
		return 0;
	}
	if (strcmp(key, "baseline") == 0)
		return get_number(l, v, key, &p->evidence.baseline, true);
	if (strcmp(key, "best") == 0)
		return get_number(l, v, key, &p->evidence.best, true);
	if (strcmp(key, "change_pct") == 0)
		return get_number(l, v, key, &p->evidence.change_pct, true);
	if (strcmp(key, "significant") == 0) {
		const char *s;
		if (want_scalar(l, v, key, &s) < 0)
			return -1;
		if (strcmp(s, "true") && strcmp(s, "false"))
			return ydoc_error(l->y, v, "significant must be true or false, not '%s'", s);
		p->evidence.significant = strcmp(s, "true") == 0;
		return 0;
	}
	if (strcmp(key, "ci95_pct") == 0) {
		yaml_node_item_t *it;
		double *dst[2] = { &p->evidence.ci_lo, &p->evidence.ci_hi };
		int i = 0;
		if (v->type != YAML_SEQUENCE_NODE || v->data.sequence.items.top - v->data.sequence.items.start != 2)
			return ydoc_error(l->y, v, "ci95_pct must be a list of two numbers [low, high]");
		for (it = v->data.sequence.items.start; it < v->data.sequence.items.top; it++, i++)
			if (get_number(l, yaml_document_get_node(&l->y->doc, *it), key, dst[i], true) < 0)
				return -1;
		return 0;
	}
	return ydoc_error(l->y, k, "unknown key '%s' in evidence.objective", key);
}

static int get_interval(struct loader *l, yaml_node_t *v, const char *key, double *lo, double *hi)
{
	yaml_node_item_t *it;
	double *dst[2] = { lo, hi };
	int i = 0;

	if (v->type != YAML_SEQUENCE_NODE || v->data.sequence.items.top - v->data.sequence.items.start != 2)
		return ydoc_error(l->y, v, "%s must be a list of two numbers [low, high]", key);
	for (it = v->data.sequence.items.start; it < v->data.sequence.items.top; it++, i++)
		if (get_number(l, yaml_document_get_node(&l->y->doc, *it), key, dst[i], true) < 0)
			return -1;
	return 0;
}

static int sandbox_pair(struct loader *l, const char *key, yaml_node_t *k, yaml_node_t *v)
{
	struct profile *p = l->p;

	if (strcmp(key, "memory_limit") == 0) {
		const char *s;
		char why[160];
		if (want_scalar(l, v, key, &s) < 0)
			return -1;
		if (parse_size(s, &p->evidence.memory_limit, why, sizeof(why)) < 0)
			return ydoc_error(l->y, v, "memory_limit: %s", why);
		return 0;
	}
	if (strcmp(key, "swap") == 0)
		return copy_string(l, v, key, p->evidence.swap, sizeof(p->evidence.swap));
	if (strcmp(key, "probe") == 0)
		return copy_string(l, v, key, p->evidence.probe, sizeof(p->evidence.probe));
	return ydoc_error(l->y, k, "unknown key '%s' in evidence.sandbox (known: memory_limit, swap, probe)", key);
}

static int share_pair(struct loader *l, const char *key, yaml_node_t *k, yaml_node_t *v)
{
	if (strcmp(key, "share_pct") == 0)
		return get_number(l, v, key, &l->share->pct, true);
	if (strcmp(key, "ci95_pct") == 0)
		return get_interval(l, v, key, &l->share->lo, &l->share->hi);
	if (strcmp(key, "measured") == 0) {
		if (copy_string(l, v, key, l->share->how, sizeof(l->share->how)) < 0)
			return -1;
		if (strcmp(l->share->how, "step") && strcmp(l->share->how, "whole") &&
		    strcmp(l->share->how, "budget") && strcmp(l->share->how, "none"))
			return ydoc_error(l->y, v, "measured must be step, whole, budget or none, not '%s'",
					  l->share->how);
		return 0;
	}
	return ydoc_error(l->y, k, "unknown key '%s' in a knob's evidence (known: share_pct, ci95_pct, measured)", key);
}

static int knobs_pair(struct loader *l, const char *key, yaml_node_t *k, yaml_node_t *v)
{
	struct profile *p = l->p;
	const struct knob_def *d = knob_find(key);

	if (!d)
		return ydoc_error(l->y, k, "unknown knob '%s' in evidence.knobs (see 'vmtune knobs')", key);
	if (p->evidence.nshares >= PROFILE_MAX_SETTINGS)
		return ydoc_error(l->y, k, "too many knobs in evidence.knobs");
	l->share = &p->evidence.share[p->evidence.nshares++];
	memset(l->share, 0, sizeof(*l->share));
	l->share->def = d;
	l->share->pct = l->share->lo = l->share->hi = NAN;
	return each_pair(l, v, "a knob's evidence", share_pair);
}

static int guard_pair(struct loader *l, const char *key, yaml_node_t *k, yaml_node_t *v)
{
	if (strcmp(key, "change_pct") == 0)
		return get_number(l, v, key, &l->guard->pct, true);
	if (strcmp(key, "ci95_pct") == 0)
		return get_interval(l, v, key, &l->guard->lo, &l->guard->hi);
	if (strcmp(key, "limit") == 0)
		return copy_string(l, v, key, l->guard->limit, sizeof(l->guard->limit));
	if (strcmp(key, "broken") == 0) {
		const char *s;
		if (want_scalar(l, v, key, &s) < 0)
			return -1;
		if (strcmp(s, "true") && strcmp(s, "false"))
			return ydoc_error(l->y, v, "broken must be true or false, not '%s'", s);
		l->guard->broken = strcmp(s, "true") == 0;
		return 0;
	}
	return ydoc_error(l->y, k, "unknown key '%s' in a guard (known: change_pct, ci95_pct, limit, broken)", key);
}

static int guards_pair(struct loader *l, const char *key, yaml_node_t *k, yaml_node_t *v)
{
	struct profile *p = l->p;
	static const char *const names[] = { "footprint", "swapout", "majflt", "psi", "p99", "played", NULL };
	int i;

	for (i = 0; names[i] && strcmp(names[i], key); i++)
		;
	if (!names[i])
		return ydoc_error(l->y, k, "unknown guard '%s' (known: footprint, swapout, majflt, psi, p99, played)",
				  key);
	if (p->evidence.nguards >= (int)(sizeof(p->evidence.guard) / sizeof(p->evidence.guard[0])))
		return ydoc_error(l->y, k, "too many guards");
	l->guard = &p->evidence.guard[p->evidence.nguards++];
	memset(l->guard, 0, sizeof(*l->guard));
	snprintf(l->guard->name, sizeof(l->guard->name), "%s", names[i]);
	l->guard->pct = l->guard->lo = l->guard->hi = NAN;
	return each_pair(l, v, "a guard", guard_pair);
}

static int evidence_pair(struct loader *l, const char *key, yaml_node_t *k, yaml_node_t *v)
{
	struct profile *p = l->p;

	if (strcmp(key, "workload") == 0)
		return copy_string(l, v, key, p->evidence.workload, sizeof(p->evidence.workload));
	if (strcmp(key, "trials") == 0)
		return get_long(l, v, key, &p->evidence.trials);
	if (strcmp(key, "objective") == 0)
		return each_pair(l, v, "evidence.objective", objective_pair);
	if (strcmp(key, "run") == 0) {
		size_t i, n;
		if (copy_string(l, v, key, p->evidence.run, sizeof(p->evidence.run)) < 0)
			return -1;
		n = strlen(p->evidence.run);
		for (i = 0; i < n && strchr("0123456789abcdef", p->evidence.run[i]); i++)
			;
		if (n != 32 || i != n)
			return ydoc_error(
			    l->y, v, "run must be a run's uuid: 32 lowercase hex digits (see 'vmtune runs --json')");
		return 0;
	}
	if (strcmp(key, "sandbox") == 0) {
		p->evidence.has_sandbox = true;
		return each_pair(l, v, "evidence.sandbox", sandbox_pair);
	}
	if (strcmp(key, "knobs") == 0)
		return each_pair(l, v, "evidence.knobs", knobs_pair);
	if (strcmp(key, "guards") == 0)
		return each_pair(l, v, "evidence.guards", guards_pair);
	return ydoc_error(
	    l->y, k, "unknown key '%s' in evidence (known: workload, trials, run, objective, sandbox, knobs, guards)",
	    key);
}

static int top_pair(struct loader *l, const char *key, yaml_node_t *k, yaml_node_t *v)
{
	struct profile *p = l->p;
	long version;

	if (strcmp(key, "vmtune") == 0) {
		if (get_long(l, v, key, &version) < 0)
			return -1;
		if (version != 1)
			return ydoc_error(l->y, v, "schema version %s is not known to this vmtune (it reads version 1)",
					  ydoc_scalar(v));
		return 0;
	}
	if (strcmp(key, "name") == 0)
		return copy_string(l, v, key, p->name, sizeof(p->name));
	if (strcmp(key, "description") == 0)
		return copy_string(l, v, key, p->description, sizeof(p->description));
	if (strcmp(key, "created") == 0)
		return copy_string(l, v, key, p->created, sizeof(p->created));
	if (strcmp(key, "machine") == 0) {
		p->machine.present = true;
		return each_pair(l, v, "machine", machine_pair);
	}
	if (strcmp(key, "match") == 0)
		return each_pair(l, v, "match", match_pair);
	if (strcmp(key, "settings") == 0)
		return each_pair(l, v, "settings", settings_pair);
	if (strcmp(key, "evidence") == 0) {
		p->evidence.present = true;
		return each_pair(l, v, "evidence", evidence_pair);
	}
	return ydoc_error(
	    l->y, k, "unknown key '%s' (known: vmtune, name, description, created, machine, match, settings, evidence)",
	    key);
}

int profile_load(const char *path, struct profile *p)
{
	struct ydoc y;
	struct loader l = { .y = &y, .p = p };
	int rc;

	memset(p, 0, sizeof(*p));
	if ((rc = ydoc_load(&y, path, "profile")) != 0)
		return rc;
	if (!y.root) {
		error("%s:1:1: the profile is empty (it needs at least 'vmtune: 1' and 'settings:')", path);
		rc = EXIT_USAGE;
	} else if (y.root->type != YAML_MAPPING_NODE) {
		ydoc_error(&y, y.root, "a profile is a mapping (vmtune: 1, name: ..., settings: ...)");
		rc = EXIT_USAGE;
	} else if (each_pair(&l, y.root, "the profile", top_pair) < 0) {
		rc = EXIT_USAGE;
	} else if (!ydoc_get(&y, y.root, "vmtune")) {
		ydoc_error(&y, y.root, "missing 'vmtune: 1' (the schema version)");
		rc = EXIT_USAGE;
	} else if (!ydoc_get(&y, y.root, "settings")) {
		ydoc_error(&y, y.root, "missing 'settings:' (the knobs and their values)");
		rc = EXIT_USAGE;
	}
	ydoc_free(&y);
	return rc;
}

struct json_object *profile_json(const struct profile *p)
{
	json_object *o = json_object_new_object(), *s = json_object_new_object();
	int i;

	json_object_object_add(o, "vmtune", json_object_new_int(1));
	json_object_object_add(o, "name", json_object_new_string(p->name));
	json_object_object_add(o, "description", json_object_new_string(p->description));
	for (i = 0; i < p->nsettings; i++) {
		const struct knob_def *d = p->settings[i].def;
		json_object_object_add(s, d->name, knob_value_json(d, p->settings[i].value));
	}
	json_object_object_add(o, "settings", s);
	if (p->evidence.present) {
		json_object *e = json_object_new_object();
		json_object_object_add(e, "workload", json_object_new_string(p->evidence.workload));
		json_object_object_add(e, "trials", json_object_new_int64(p->evidence.trials));
		if (p->evidence.run[0])
			json_object_object_add(e, "run", json_object_new_string(p->evidence.run));
		json_object_object_add(e, "metric", json_object_new_string(p->evidence.metric));
		json_object_object_add(e, "direction", json_object_new_string(p->evidence.direction));
		json_object_object_add(e, "baseline", json_number(p->evidence.baseline));
		json_object_object_add(e, "best", json_number(p->evidence.best));
		json_object_object_add(e, "change_pct", json_number(p->evidence.change_pct));
		json_object_object_add(e, "ci95_pct_lo", json_number(p->evidence.ci_lo));
		json_object_object_add(e, "ci95_pct_hi", json_number(p->evidence.ci_hi));
		json_object_object_add(e, "significant", json_object_new_boolean(p->evidence.significant));
		if (p->evidence.has_sandbox) {
			json_object *sb = json_object_new_object();
			json_object_object_add(sb, "memory_limit",
					       json_object_new_int64((int64_t)p->evidence.memory_limit));
			json_object_object_add(sb, "swap", json_object_new_string(p->evidence.swap));
			json_object_object_add(sb, "probe", json_object_new_string(p->evidence.probe));
			json_object_object_add(e, "sandbox", sb);
		}
		if (p->evidence.nshares) {
			json_object *k = json_object_new_object();
			for (i = 0; i < p->evidence.nshares; i++) {
				const struct profile_share *sh = &p->evidence.share[i];
				json_object *x = json_object_new_object();
				json_object_object_add(x, "measured", json_object_new_string(sh->how));
				json_object_object_add(x, "share_pct", json_number(sh->pct));
				json_object_object_add(x, "ci95_pct_lo", json_number(sh->lo));
				json_object_object_add(x, "ci95_pct_hi", json_number(sh->hi));
				json_object_object_add(k, sh->def->name, x);
			}
			json_object_object_add(e, "knobs", k);
		}
		if (p->evidence.nguards) {
			json_object *g = json_object_new_object();
			for (i = 0; i < p->evidence.nguards; i++) {
				const struct profile_guard *pg = &p->evidence.guard[i];
				json_object *x = json_object_new_object();
				json_object_object_add(x, "change_pct", json_number(pg->pct));
				json_object_object_add(x, "ci95_pct_lo", json_number(pg->lo));
				json_object_object_add(x, "ci95_pct_hi", json_number(pg->hi));
				json_object_object_add(x, "limit", json_object_new_string(pg->limit));
				json_object_object_add(x, "broken", json_object_new_boolean(pg->broken));
				json_object_object_add(g, pg->name, x);
			}
			json_object_object_add(e, "guards", g);
		}
		json_object_object_add(o, "evidence", e);
	}
	return o;
}

/* --- writing ------------------------------------------------------------ */

static int emit(yaml_emitter_t *e, yaml_event_t *ev)
{
	/* the emitter owns the event from here on, even when it fails */
	return yaml_emitter_emit(e, ev) ? 0 : -1;
}

static int emit_scalar(yaml_emitter_t *e, const char *s, bool quoted)
{
	yaml_event_t ev;

	yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)s, (int)strlen(s), !quoted, quoted,
				     quoted ? YAML_DOUBLE_QUOTED_SCALAR_STYLE : YAML_PLAIN_SCALAR_STYLE);
	return emit(e, &ev);
}

static int emit_kv(yaml_emitter_t *e, const char *k, const char *v, bool quoted)
{
	return emit_scalar(e, k, false) < 0 || emit_scalar(e, v, quoted) < 0 ? -1 : 0;
}

static int emit_kl(yaml_emitter_t *e, const char *k, long v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%ld", v);
	return emit_kv(e, k, buf, false);
}

static int emit_kd(yaml_emitter_t *e, const char *k, double v)
{
	char buf[64];

	return emit_kv(e, k, yaml_number(v, buf, sizeof(buf)), false);
}

static int emit_interval(yaml_emitter_t *e, double lo, double hi)
{
	yaml_event_t seq;
	char buf[64];

	if (emit_scalar(e, "ci95_pct", false) < 0)
		return -1;
	yaml_sequence_start_event_initialize(&seq, NULL, NULL, 1, YAML_FLOW_SEQUENCE_STYLE);
	if (emit(e, &seq) < 0 || emit_scalar(e, yaml_number(lo, buf, sizeof(buf)), false) < 0 ||
	    emit_scalar(e, yaml_number(hi, buf, sizeof(buf)), false) < 0)
		return -1;
	yaml_sequence_end_event_initialize(&seq);
	return emit(e, &seq);
}

static int emit_map(yaml_emitter_t *e, bool start, bool flow)
{
	yaml_event_t ev;

	if (start)
		yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1,
						    flow ? YAML_FLOW_MAPPING_STYLE : YAML_BLOCK_MAPPING_STYLE);
	else
		yaml_mapping_end_event_initialize(&ev);
	return emit(e, &ev);
}

static int write_handler(void *data, unsigned char *buf, size_t size)
{
	return fwrite(buf, 1, size, data) == size;
}

static int emit_profile(yaml_emitter_t *e, const struct profile *p)
{
	yaml_event_t ev;
	char buf[64];
	int i;

	yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING);
	if (emit(e, &ev) < 0)
		return -1;
	yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1);
	if (emit(e, &ev) < 0 || emit_map(e, true, false) < 0 || emit_kl(e, "vmtune", 1) < 0)
		return -1;
	if (p->name[0] && emit_kv(e, "name", p->name, false) < 0)
		return -1;
	if (p->description[0] && emit_kv(e, "description", p->description, false) < 0)
		return -1;
	if (p->created[0] && emit_kv(e, "created", p->created, false) < 0)
		return -1;
	if (p->machine.present) {
		if (emit_scalar(e, "machine", false) < 0 || emit_map(e, true, true) < 0 ||
		    emit_kv(e, "hostname", p->machine.hostname, false) < 0 ||
		    emit_kv(e, "kernel", p->machine.kernel, false) < 0 || emit_kl(e, "cpus", p->machine.cpus) < 0 ||
		    emit_kl(e, "mem_total_kb", p->machine.mem_total_kb) < 0 ||
		    emit_kl(e, "swap_total_kb", p->machine.swap_total_kb) < 0 ||
		    (p->machine.swap[0] && emit_kv(e, "swap", p->machine.swap, false) < 0) ||
		    (p->machine.swap_backend[0] && emit_kv(e, "swap_backend", p->machine.swap_backend, true) < 0) ||
		    emit_map(e, false, true) < 0)
			return -1;
	}
	if (p->match.has_min || p->match.has_max) {
		if (emit_scalar(e, "match", false) < 0 || emit_map(e, true, true) < 0)
			return -1;
		if (p->match.has_min &&
		    emit_kv(e, "mem_min", format_size(p->match.mem_min, buf, sizeof(buf)), false) < 0)
			return -1;
		if (p->match.has_max &&
		    emit_kv(e, "mem_max", format_size(p->match.mem_max, buf, sizeof(buf)), false) < 0)
			return -1;
		if (emit_map(e, false, true) < 0)
			return -1;
	}
	if (emit_scalar(e, "settings", false) < 0 || emit_map(e, true, false) < 0)
		return -1;
	for (i = 0; i < p->nsettings; i++) {
		const struct profile_setting *s = &p->settings[i];
		if (emit_kv(e, s->def->name, knob_format_value(s->def, s->value, buf, sizeof(buf)), false) < 0)
			return -1;
	}
	if (emit_map(e, false, false) < 0)
		return -1;
	if (p->evidence.present) {
		yaml_event_t seq;
		if (emit_scalar(e, "evidence", false) < 0 || emit_map(e, true, false) < 0 ||
		    emit_kv(e, "workload", p->evidence.workload, false) < 0 ||
		    emit_kl(e, "trials", p->evidence.trials) < 0 ||
		    (p->evidence.run[0] && emit_kv(e, "run", p->evidence.run, false) < 0) ||
		    emit_scalar(e, "objective", false) < 0 || emit_map(e, true, true) < 0 ||
		    (p->evidence.metric[0] && emit_kv(e, "metric", p->evidence.metric, false) < 0) ||
		    (p->evidence.direction[0] && emit_kv(e, "direction", p->evidence.direction, false) < 0) ||
		    emit_kd(e, "baseline", p->evidence.baseline) < 0 || emit_kd(e, "best", p->evidence.best) < 0 ||
		    emit_kd(e, "change_pct", p->evidence.change_pct) < 0 || emit_scalar(e, "ci95_pct", false) < 0)
			return -1;
		yaml_sequence_start_event_initialize(&seq, NULL, NULL, 1, YAML_FLOW_SEQUENCE_STYLE);
		if (emit(e, &seq) < 0)
			return -1;
		if (emit_scalar(e, yaml_number(p->evidence.ci_lo, buf, sizeof(buf)), false) < 0)
			return -1;
		if (emit_scalar(e, yaml_number(p->evidence.ci_hi, buf, sizeof(buf)), false) < 0)
			return -1;
		yaml_sequence_end_event_initialize(&seq);
		if (emit(e, &seq) < 0 ||
		    emit_kv(e, "significant", p->evidence.significant ? "true" : "false", false) < 0 ||
		    emit_map(e, false, true) < 0)
			return -1;
		if (p->evidence.has_sandbox) {
			if (emit_scalar(e, "sandbox", false) < 0 || emit_map(e, true, true) < 0 ||
			    (p->evidence.memory_limit &&
			     emit_kv(e, "memory_limit", format_size(p->evidence.memory_limit, buf, sizeof(buf)),
				     false) < 0) ||
			    (p->evidence.swap[0] && emit_kv(e, "swap", p->evidence.swap, true) < 0) ||
			    (p->evidence.probe[0] && emit_kv(e, "probe", p->evidence.probe, true) < 0) ||
			    emit_map(e, false, true) < 0)
				return -1;
		}
		if (p->evidence.nshares) {
			if (emit_scalar(e, "knobs", false) < 0 || emit_map(e, true, false) < 0)
				return -1;
			for (i = 0; i < p->evidence.nshares; i++) {
				const struct profile_share *sh = &p->evidence.share[i];
				if (emit_scalar(e, sh->def->name, false) < 0 || emit_map(e, true, true) < 0 ||
				    emit_kv(e, "measured", sh->how, false) < 0 ||
				    (isfinite(sh->pct) &&
				     (emit_kd(e, "share_pct", sh->pct) < 0 || emit_interval(e, sh->lo, sh->hi) < 0)) ||
				    emit_map(e, false, true) < 0)
					return -1;
			}
			if (emit_map(e, false, false) < 0)
				return -1;
		}
		if (p->evidence.nguards) {
			if (emit_scalar(e, "guards", false) < 0 || emit_map(e, true, false) < 0)
				return -1;
			for (i = 0; i < p->evidence.nguards; i++) {
				const struct profile_guard *g = &p->evidence.guard[i];
				if (emit_scalar(e, g->name, false) < 0 || emit_map(e, true, true) < 0 ||
				    emit_kd(e, "change_pct", g->pct) < 0 || emit_interval(e, g->lo, g->hi) < 0 ||
				    (g->limit[0] && emit_kv(e, "limit", g->limit, true) < 0) ||
				    emit_kv(e, "broken", g->broken ? "true" : "false", false) < 0 ||
				    emit_map(e, false, true) < 0)
					return -1;
			}
			if (emit_map(e, false, false) < 0)
				return -1;
		}
		if (emit_map(e, false, false) < 0)
			return -1;
	}
	if (emit_map(e, false, false) < 0)
		return -1;
	yaml_document_end_event_initialize(&ev, 1);
	if (emit(e, &ev) < 0)
		return -1;
	yaml_stream_end_event_initialize(&ev);
	return emit(e, &ev);
}

int profile_write(const char *path, const struct profile *p)
{
	yaml_emitter_t e;
	FILE *f;
	char tmp[PATH_MAX];
	int rc;
	bool to_stdout = strcmp(path, "-") == 0;

	f = to_stdout ? stdout : file_atomic_open(path, tmp);
	if (!f)
		return error("cannot write profile '%s': %s", tmp, strerror(errno));
	yaml_emitter_initialize(&e);
	yaml_emitter_set_output(&e, write_handler, f);
	yaml_emitter_set_width(&e, 200);
	rc = emit_profile(&e, p);
	if (rc < 0)
		error("cannot write profile '%s': %s", path, e.problem ? e.problem : "emitter error");
	yaml_emitter_delete(&e);
	if (to_stdout)
		return rc;
	if (rc < 0) {
		file_atomic_abort(f, tmp);
		return rc;
	}
	crashpoint("profile-before-rename");
	if ((rc = file_atomic_commit(f, tmp, path, 0644)) < 0)
		return error("cannot write profile '%s': %s", path, strerror(-rc));
	return 0;
}

static const char *gb(uint64_t bytes, char *buf, size_t size)
{
	snprintf(buf, size, "%.3gG", (double)bytes / (1024.0 * 1024 * 1024));
	return buf;
}

bool profile_fits(const struct profile *p, const struct machine *m, char *why, size_t size)
{
	uint64_t mem = (uint64_t)m->mem_total_kb * 1024;
	char a[32], b[32], c[32];
	bool fits;

	/* MemTotal is a little below the installed size: allow 10% */
	fits = (!p->match.has_min || mem >= p->match.mem_min - p->match.mem_min / 10) &&
	       (!p->match.has_max || mem <= p->match.mem_max);
	if (!p->match.has_min && !p->match.has_max)
		snprintf(why, size, "no match: fits any machine");
	else
		snprintf(why, size, "match %s%s%s%s%s; %s has %s", p->match.has_min ? "mem_min " : "",
			 p->match.has_min ? gb(p->match.mem_min, a, sizeof(a)) : "",
			 p->match.has_min && p->match.has_max ? ", " : "", p->match.has_max ? "mem_max " : "",
			 p->match.has_max ? gb(p->match.mem_max, b, sizeof(b)) : "", m->hostname,
			 gb(mem, c, sizeof(c)));
	return fits;
}

/* Values outside a knob's safe range here (a profile from a much bigger machine,
 * say): each one named. Returns how many. */
int profile_unsafe(const struct profile *p, bool say)
{
	int i, n = 0;

	for (i = 0; i < p->nsettings; i++) {
		const struct profile_setting *s = &p->settings[i];
		struct knob_state st;
		char v[64], a[64], b[64];
		long lo, hi;

		knob_probe(s->def, &st);
		if (!st.have_value || knob_safe(s->def, st.value, s->value, &lo, &hi))
			continue;
		n++;
		if (say)
			warning("%s = %s is outside its safe range %s..%s on this machine; apply needs --force",
				s->def->name, knob_format_value(s->def, s->value, v, sizeof(v)),
				knob_format_value(s->def, lo, a, sizeof(a)),
				knob_format_value(s->def, hi, b, sizeof(b)));
	}
	return n;
}
