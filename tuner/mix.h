/* mix.h - workload mixes: YAML files in workloads/mixes/ naming workloads, their
 * repetitions and weights, the interactivity probe, limits and the objective. */
#ifndef VMTUNE_MIX_H
#define VMTUNE_MIX_H

#include <stdbool.h>
#include <stdint.h>

#include "swap.h"

#define MIX_MAX_WORKLOADS 8
#define MIX_MAX_REQUIRE 8

struct mix_workload {
	char run[512];
	long repeat;
	double weight;
};

struct mix {
	char name[128], description[512];
	int nwl;
	struct mix_workload wl[MIX_MAX_WORKLOADS];
	char probe[512];
	uint64_t memory_limit;
	struct swap_spec swap; /* backend SWAP_NONE when the mix names none */
	char objective[16];    /* throughput, interactive, balanced; "" when not given */
	int nrequire;
	char require[MIX_MAX_REQUIRE][64];
};

/* Load and check a mix: errors as FILE:LINE:COLUMN, returns 0 or EXIT_USAGE. */
int mix_load(const char *path, struct mix *m);

#endif
