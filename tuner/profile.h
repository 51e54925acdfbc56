/* profile.h - profiles: YAML files (schema v1, DESIGN §6) of settings and evidence. */
#ifndef VMTUNE_PROFILE_H
#define VMTUNE_PROFILE_H

#include <stdbool.h>
#include <stdint.h>

#include "catalogue.h"

#define PROFILE_MAX_SETTINGS 64

struct profile_setting {
	const struct knob_def *def;
	long value;
	int line, column; /* where the value stands in the file, 1-based */
};

struct profile {
	char name[128];
	char description[512];
	char created[64];
	struct {
		bool present;
		char hostname[256], kernel[128];
		long cpus, mem_total_kb, swap_total_kb;
		char swap[32]; /* the swap it was measured with: none, rotational, flash or compressed, +zswap */
		char swap_backend[64]; /* the search's --swap (file:1G, zram:1G:lz4, machine...), "" if none */
	} machine;
	struct {
		bool has_min, has_max;
		uint64_t mem_min, mem_max;
	} match;
	int nsettings;
	struct profile_setting settings[PROFILE_MAX_SETTINGS];
	struct {
		bool present;
		char workload[512];
		long trials;
		char metric[64];
		char direction[8]; /* min or max */
		double baseline, best, change_pct, ci_lo, ci_hi;
		bool significant;
		char run[40]; /* the uuid of the search's run in its results store, "" if not known */
		/* where it was measured, so that verify --measure can measure it again */
		bool has_sandbox;
		uint64_t memory_limit;
		char swap[64], probe[512];
		/* per knob the profile changes: what putting it back cost (its share of the gain) */
		int nshares;
		struct profile_share {
			const struct knob_def *def;
			double pct, lo, hi;
			char how[16]; /* step (its own step of the walk back), whole (the whole gain), none */
		} share[PROFILE_MAX_SETTINGS];
		/* how the guards moved against the original */
		int nguards;
		struct profile_guard {
			char name[16], limit[64];
			double pct, lo, hi;
			bool broken;
		} guard[8];
	} evidence;
};

/* Load and validate a profile. Errors are printed as FILE:LINE:COLUMN: what, and
 * the way out; returns 0 or EXIT_USAGE. Nothing about the system is touched. */
int profile_load(const char *path, struct profile *p);
/* The profile as a JSON object (json-c; the caller puts it): what report --json
 * and export --format json print. */
struct json_object *profile_json(const struct profile *p);
struct machine;
/* Does the profile's match fit the machine? why gets the reason either way. */
bool profile_fits(const struct profile *p, const struct machine *m, char *why, size_t size);
/* Write a profile ("-" for stdout). Returns 0 or -1. */
int profile_write(const char *path, const struct profile *p);

/* How many of the profile's values lie outside their knob's safe range on this
 * machine (knob_safe); with say, a warning names each. */
int profile_unsafe(const struct profile *p, bool say);

#endif
