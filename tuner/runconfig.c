/* runconfig.c - the run configuration and trial settings as stored (JSON, json-c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "knob.h"
#include "runconfig.h"
#include "text.h"

static const char *const kind_names[] = {
	[TK_BASELINE] = "baseline", [TK_CANDIDATE] = "candidate",
	[TK_REPEAT] = "repeat",	    [TK_CONFIRM_BASELINE] = "confirm-baseline",
	[TK_CONFIRM] = "confirm",   [TK_ABLATE] = "ablate",
};

const char *trial_kind_name(enum trial_kind k)
{
	return k < TK_UNKNOWN ? kind_names[k] : "unknown";
}

enum trial_kind trial_kind_parse(const char *s)
{
	for (int k = 0; k < TK_UNKNOWN; k++)
		if (s && strcmp(s, kind_names[k]) == 0)
			return (enum trial_kind)k;
	return TK_UNKNOWN;
}

bool trial_kind_is_baseline(enum trial_kind k)
{
	return k == TK_BASELINE || k == TK_CONFIRM_BASELINE;
}

static json_object *get(json_object *o, const char *k)
{
	json_object *v = NULL;

	return o && json_object_object_get_ex(o, k, &v) ? v : NULL;
}

static void get_str(json_object *o, const char *k, char *buf, size_t size, const char *def)
{
	json_object *v = get(o, k);

	snprintf(buf, size, "%s", v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : def);
}

char *run_config_json(const struct run_config *c)
{
	json_object *j = json_object_new_object(), *wl = json_object_new_array(), *kn = json_object_new_array(),
		    *orig = json_object_new_object(), *rq = json_object_new_array();
	char *s;
	int i;

	for (i = 0; i < c->nwl; i++) {
		json_object *w = json_object_new_object();
		json_object_object_add(w, "spec", json_object_new_string(c->wl[i].spec));
		json_object_object_add(w, "metric", json_object_new_string(c->wl[i].metric));
		json_object_object_add(w, "maximize", json_object_new_boolean(c->wl[i].maximize));
		json_object_object_add(w, "weight", json_number(c->wl[i].weight));
		json_object_array_add(wl, w);
	}
	for (i = 0; i < c->nknobs; i++) {
		json_object_array_add(kn, json_object_new_string(c->knobs[i]));
		if (c->has_original[i])
			json_object_object_add(orig, c->knobs[i], json_object_new_int64(c->originals[i]));
	}
	for (i = 0; i < c->nrequire; i++)
		json_object_array_add(rq, json_object_new_string(c->require[i]));
	json_object_object_add(j, "workloads", wl);
	json_object_object_add(j, "knobs", kn);
	json_object_object_add(j, "originals", orig);
	json_object_object_add(j, "strategy", json_object_new_string(c->strategy));
	json_object_object_add(j, "trials", json_object_new_int(c->trials));
	json_object_object_add(j, "time_budget", json_number(c->time_budget));
	json_object_object_add(j, "seed", json_object_new_int64((int64_t)c->seed));
	json_object_object_add(j, "repeats", json_object_new_int(c->repeats));
	json_object_object_add(j, "memory_limit", json_object_new_int64((int64_t)c->memory_limit));
	json_object_object_add(j, "swap", json_object_new_int64((int64_t)c->swap));
	if (c->swap_backend[0])
		json_object_object_add(j, "swap_backend", json_object_new_string(c->swap_backend));
	json_object_object_add(j, "root", json_object_new_string(c->root));
	json_object_object_add(j, "probe", c->probe[0] ? json_object_new_string(c->probe) : NULL);
	if (c->check[0]) {
		json_object *k = json_object_new_object();
		json_object_object_add(k, "spec", json_object_new_string(c->check));
		json_object_object_add(k, "metric", json_object_new_string(c->check_metric));
		json_object_object_add(k, "maximize", json_object_new_boolean(c->check_maximize));
		json_object_object_add(j, "check_workload", k);
	}
	json_object_object_add(j, "objective", json_object_new_string(c->objective));
	json_object_object_add(j, "require", rq);
	if (c->has_design) {
		json_object *d = json_object_new_object();
		json_object_object_add(d, "baseline_every", json_object_new_int(c->baseline_every));
		json_object_object_add(d, "finalists", json_object_new_int(c->finalists));
		json_object_object_add(d, "race_rounds", json_object_new_int(c->race_rounds));
		json_object_object_add(d, "confirm_rounds", json_object_new_int(c->confirm_rounds));
		json_object_object_add(d, "confirm_max_rounds", json_object_new_int(c->confirm_max_rounds));
		json_object_object_add(d, "min_effect", json_number(c->min_effect));
		json_object_object_add(d, "warmup", json_object_new_int(c->warmup));
		json_object_object_add(d, "settle", json_object_new_string(c->settle));
		json_object_object_add(j, "design", d);
	}
	s = strdup(json_object_to_json_string_ext(j, JSON_C_TO_STRING_PLAIN));
	json_object_put(j);
	return s;
}

/* Every string of a stored configuration is one line of text, or the run is damaged. */
static bool run_config_clean(const struct run_config *c)
{
	int i;

	for (i = 0; i < c->nwl; i++)
		if (!text_oneline(c->wl[i].spec, NULL) || !text_oneline(c->wl[i].metric, NULL))
			return false;
	for (i = 0; i < c->nknobs; i++)
		if (!text_oneline(c->knobs[i], NULL))
			return false;
	for (i = 0; i < c->nrequire; i++)
		if (!text_oneline(c->require[i], NULL))
			return false;
	if (c->has_design &&
	    (c->baseline_every < 2 || c->baseline_every > 50 || c->finalists < 1 || c->finalists > 8 ||
	     c->race_rounds < 0 || c->race_rounds > 20 || c->confirm_rounds < 2 || c->confirm_rounds > 50 ||
	     c->confirm_max_rounds < c->confirm_rounds || c->confirm_max_rounds > 1000 || c->warmup < 0 ||
	     c->warmup > 100 || !(c->min_effect > 0 && c->min_effect < 1) || !text_oneline(c->settle, NULL)))
		return false;
	return text_oneline(c->strategy, NULL) && text_oneline(c->root, NULL) && text_oneline(c->probe, NULL) &&
	       text_oneline(c->check, NULL) && text_oneline(c->check_metric, NULL) && text_oneline(c->objective, NULL);
}

int run_config_parse(const char *json, struct run_config *c)
{
	json_object *j = json ? json_tokener_parse(json) : NULL, *a, *v;
	size_t i;

	memset(c, 0, sizeof(*c));
	if (!j || !json_object_is_type(j, json_type_object)) {
		json_object_put(j);
		return -1;
	}
	a = get(j, "workloads");
	for (i = 0; a && json_object_is_type(a, json_type_array) && i < json_object_array_length(a) &&
		    c->nwl < RUNCONFIG_MAX_WORKLOADS;
	     i++) {
		json_object *w = json_object_array_get_idx(a, i);
		get_str(w, "spec", c->wl[c->nwl].spec, sizeof(c->wl[0].spec), "");
		get_str(w, "metric", c->wl[c->nwl].metric, sizeof(c->wl[0].metric), "elapsed");
		c->wl[c->nwl].maximize = json_object_get_boolean(get(w, "maximize"));
		c->wl[c->nwl].weight = (v = get(w, "weight")) ? json_object_get_double(v) : 1;
		c->nwl++;
	}
	a = get(j, "knobs");
	for (i = 0;
	     a && json_object_is_type(a, json_type_array) && i < json_object_array_length(a) && c->nknobs < SPACE_MAX;
	     i++) {
		snprintf(c->knobs[c->nknobs], sizeof(c->knobs[0]), "%s",
			 json_object_get_string(json_object_array_get_idx(a, i)));
		if ((v = get(get(j, "originals"), c->knobs[c->nknobs]))) {
			c->has_original[c->nknobs] = true;
			c->originals[c->nknobs] = (long)json_object_get_int64(v);
		}
		c->nknobs++;
	}
	get_str(j, "strategy", c->strategy, sizeof(c->strategy), "bo");
	c->trials = json_object_get_int(get(j, "trials"));
	c->time_budget = json_object_get_double(get(j, "time_budget"));
	c->seed = (unsigned long)json_object_get_int64(get(j, "seed"));
	c->repeats = json_object_get_int(get(j, "repeats"));
	c->memory_limit = (uint64_t)json_object_get_int64(get(j, "memory_limit"));
	c->swap = (uint64_t)json_object_get_int64(get(j, "swap"));
	get_str(j, "swap_backend", c->swap_backend, sizeof(c->swap_backend), "");
	get_str(j, "root", c->root, sizeof(c->root), "");
	get_str(j, "probe", c->probe, sizeof(c->probe), "");
	get_str(get(j, "check_workload"), "spec", c->check, sizeof(c->check), "");
	get_str(get(j, "check_workload"), "metric", c->check_metric, sizeof(c->check_metric), "");
	c->check_maximize = json_object_get_boolean(get(get(j, "check_workload"), "maximize"));
	get_str(j, "objective", c->objective, sizeof(c->objective), "throughput");
	a = get(j, "require");
	for (i = 0; a && json_object_is_type(a, json_type_array) && i < json_object_array_length(a) &&
		    c->nrequire < RUNCONFIG_MAX_REQUIRE;
	     i++)
		snprintf(c->require[c->nrequire++], sizeof(c->require[0]), "%s",
			 json_object_get_string(json_object_array_get_idx(a, i)));
	if ((a = get(j, "design")) && json_object_is_type(a, json_type_object)) {
		c->has_design = true;
		c->baseline_every = json_object_get_int(get(a, "baseline_every"));
		c->finalists = json_object_get_int(get(a, "finalists"));
		c->race_rounds = json_object_get_int(get(a, "race_rounds"));
		c->confirm_rounds = json_object_get_int(get(a, "confirm_rounds"));
		c->confirm_max_rounds = json_object_get_int(get(a, "confirm_max_rounds"));
		c->min_effect = json_object_get_double(get(a, "min_effect"));
		c->warmup = json_object_get_int(get(a, "warmup"));
		get_str(a, "settle", c->settle, sizeof(c->settle), "");
	}
	json_object_put(j);
	return run_config_clean(c) ? 0 : -1;
}

int run_config_knob(const struct run_config *c, const char *name)
{
	for (int i = 0; i < c->nknobs; i++)
		if (strcmp(c->knobs[i], name) == 0)
			return i;
	return -1;
}

char *settings_json(const struct space *sp, const long *vals)
{
	json_object *o = json_object_new_object();
	char *s;

	for (int i = 0; i < sp->d; i++)
		json_object_object_add(o, sp->dim[i].def->name, knob_value_json(sp->dim[i].def, vals[i]));
	s = strdup(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
	return s;
}

int settings_parse(const char *json, const struct space *sp, long *vals, bool *present, char *why, size_t whylen)
{
	json_object *o = json ? json_tokener_parse(json) : NULL, *v;

	why[0] = '\0';
	if (!o || !json_object_is_type(o, json_type_object)) {
		json_object_put(o);
		snprintf(why, whylen, "not a JSON object");
		return -1;
	}
	for (int i = 0; i < sp->d; i++) {
		const struct knob_def *d = sp->dim[i].def;
		present[i] = false;
		if (!(v = get(o, d->name))) {
			if (!why[0])
				snprintf(why, whylen, "lacks %s", d->name);
			continue;
		}
		present[i] = knob_parse_value(d, json_object_get_string(v), &vals[i], why, whylen) == 0;
	}
	json_object_put(o);
	return 0;
}
