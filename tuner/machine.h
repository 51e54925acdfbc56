/* machine.h - the fingerprint of this machine, stored with every search. */
#ifndef VMTUNE_MACHINE_H
#define VMTUNE_MACHINE_H

#include <stdbool.h>
#include <stddef.h>

#define MACHINE_MAX_SWAPS 8

struct machine {
	char hostname[256];
	char id[33]; /* /etc/machine-id hashed for vmtune (it cannot be turned back); "" unknown */
	char kernel[128];
	int cpus, numa_nodes;
	long mem_total_kb, swap_total_kb, page_size;
	int nswaps;
	struct {
		char name[256];
		char kind[32]; /* rotational, ssd, nvme, zram, file-on-rotational, file-on-ssd, ... */
		long size_kb;
	} swaps[MACHINE_MAX_SWAPS];
	int zswap;	      /* 1 on, 0 off, -1 unknown */
	bool thp;	      /* transparent huge pages available */
	char mthp_sizes[256]; /* "16kB 32kB ..." with an enabled file */
};

struct json_object;

/* This machine, or the one described by --machine FILE when it was given. */
void machine_read(struct machine *m);
/* The fingerprint as stored (what machine_json gives); -1 when it is not one. */
int machine_from_json(struct json_object *o, struct machine *m);
/* Load --machine FILE (a `vmtune machine --json`); 0 or EXIT_USAGE after a message. */
int machine_override(const char *path);
bool machine_overridden(void);
/* The same box? By machine id when both have one (a renamed host stays itself, two
 * clones under one hostname are two), else by hostname and memory within 5%. */
bool machine_same(const struct machine *a, const struct machine *b);

/* The features models use to tell machines apart, coded near [-1, 1]: log memory,
 * the kind of swap (a category), log CPUs, zswap, kernel version. */
#define MACHINE_NFEAT 5
extern const char *const machine_feature_names[MACHINE_NFEAT];
extern const bool machine_feature_categorical[MACHINE_NFEAT];
void machine_features(const struct machine *m, double *f);
/* none, rotational, flash or compressed (zram): the biggest swap device's class. */
const char *machine_swap_class(const struct machine *m);
/* The class with "+zswap" when zswap is on: what a profile records of the swap its
 * settings were measured with, and what apply compares with the machine's. */
const char *machine_swap_kind(const struct machine *m, char *buf, size_t size);
/* "24G, swap file-on-ssd, 2 cpus, 6.18" */
const char *machine_summary(const struct machine *m, char *buf, size_t size);
/* As a JSON object (caller puts it) or its text (caller frees). */
struct json_object *machine_json_object(const struct machine *m);
char *machine_json(const struct machine *m);

#endif
