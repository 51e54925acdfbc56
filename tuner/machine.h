/* machine.h - the fingerprint of this machine, stored with every search. */
#ifndef VMTUNE_MACHINE_H
#define VMTUNE_MACHINE_H

struct machine {
	char hostname[256];
	char kernel[128];
	int cpus;
	long mem_total_kb, swap_total_kb, page_size;
};

void machine_read(struct machine *m);
/* As a JSON object text; caller frees. */
char *machine_json(const struct machine *m);

#endif
