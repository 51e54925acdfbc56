/* runconfig.h - the stored form of a search, written and read here only: the run's
 * configuration (the JSON in a run row), each trial's settings (the JSON in a trial
 * row) and the trial kinds. The search writes them; resume and the pool read them. */
#ifndef VMTUNE_RUNCONFIG_H
#define VMTUNE_RUNCONFIG_H

#include <json-c/json.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "space.h"

#define RUNCONFIG_MAX_WORKLOADS 8
#define RUNCONFIG_MAX_REQUIRE 8

/* What a trial row measured. */
enum trial_kind {
	TK_BASELINE,
	TK_CANDIDATE,
	TK_REPEAT,
	TK_CONFIRM_BASELINE,
	TK_CONFIRM,
	TK_ABLATE, /* a run of a step of the walk back to the smallest change: either side */
	TK_UNKNOWN
};

const char *trial_kind_name(enum trial_kind k);
enum trial_kind trial_kind_parse(const char *s);
/* A measurement of the original settings (the run's yardstick). */
bool trial_kind_is_baseline(enum trial_kind k);

struct run_config {
	int nwl;
	struct {
		char spec[1024];
		char metric[48];
		bool maximize;
		double weight;
	} wl[RUNCONFIG_MAX_WORKLOADS];
	int nknobs;
	char knobs[SPACE_MAX][64]; /* the knobs searched, in order */
	bool has_original[SPACE_MAX];
	long originals[SPACE_MAX];
	char strategy[16];
	int trials;
	double time_budget;
	unsigned long seed;
	int repeats;
	uint64_t memory_limit, swap;
	char swap_backend[64]; /* the --swap spec (swap.h); "" in runs stored before it was kept */
	char root[PATH_MAX];
	char probe[1024]; /* "" for none */
	char check[1024]; /* --check-workload's spec, "" for none; its metric and direction */
	char check_metric[48];
	bool check_maximize;
	char objective[16];
	int nrequire;
	char require[RUNCONFIG_MAX_REQUIRE][64];
	/* the measurement design; has_design false for runs stored before it was kept */
	bool has_design;
	int baseline_every, finalists, race_rounds, confirm_rounds, confirm_max_rounds, warmup;
	double min_effect;
	char settle[96];
};

/* The JSON text of a configuration (malloc'd), and back. A configuration lacking
 * the later keys (objective, probe, require, weights, originals, design) reads as
 * the defaults those keys had before they existed; a design out of its ranges is
 * a damaged configuration. Returns 0, or -1 if not a config. */
char *run_config_json(const struct run_config *c);
int run_config_parse(const char *json, struct run_config *c);
/* Index of a knob in c->knobs, or -1. */
int run_config_knob(const struct run_config *c, const char *name);

/* A trial's settings: {"vm.page-cluster":2,"thp.enabled":"never"} (malloc'd). */
char *settings_json(const struct space *sp, const long *vals);
/* Read them for sp's knobs: present[i] false where the JSON lacks knob i or its
 * value is not valid (why says which). Returns -1 if the text is not a JSON object. */
int settings_parse(const char *json, const struct space *sp, long *vals, bool *present, char *why, size_t whylen);

#endif
