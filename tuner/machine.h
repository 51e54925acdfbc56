/* machine.h - the fingerprint of this machine, stored with every search. */
#ifndef VMTUNE_MACHINE_H
#define VMTUNE_MACHINE_H

#include <stdbool.h>

#define MACHINE_MAX_SWAPS 8

struct machine {
	char hostname[256];
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

void machine_read(struct machine *m);
struct json_object;
/* As a JSON object (caller puts it) or its text (caller frees). */
struct json_object *machine_json_object(const struct machine *m);
char *machine_json(const struct machine *m);

#endif
