/* swap.h - the sandbox's swap: a temporary swapfile, a zram device, zswap in front,
 * or the machine's own swap as it is. */
#ifndef VMTUNE_SWAP_H
#define VMTUNE_SWAP_H

#include <stddef.h>
#include <stdint.h>

/* Where the sandbox's swap comes from (--swap, a mix's swap:). */
enum swap_backend {
	SWAP_NONE,    /* no --swap: swap is neither added nor limited */
	SWAP_FILE,    /* file:SIZE (or SIZE): at least SIZE of swap, a swapfile if needed */
	SWAP_ZRAM,    /* zram:SIZE[:ALGO]: the free device zram0, configured for the run */
	SWAP_MACHINE, /* machine: the swap the machine has, as it is */
};

#define SWAP_ZRAM_DEV "zram0"

struct swap_spec {
	enum swap_backend backend;
	uint64_t size; /* file and zram */
	char algo[32]; /* zram: the compressor ("" keeps the device's) */
	bool zswap;    /* zswap enabled in front of it (file and machine) */
};

/* "SIZE", "file:SIZE", "zram:SIZE[:ALGO]" or "machine", each optionally followed by
 * "+zswap". Returns 0, or -1 with why. */
int swap_spec_parse(const char *s, struct swap_spec *sp, char *why, size_t whylen);
/* The same text back (what a run's stored configuration and a profile keep). */
const char *swap_spec_format(const struct swap_spec *sp, char *buf, size_t size);
/* Combine a --zswap flag with the spec; -1 with why when the two do not go together. */
int swap_spec_add_zswap(struct swap_spec *sp, char *why, size_t whylen);
/* The swap the sandbox's cgroup may use: the spec's size, or 0 (not limited). */
uint64_t swap_spec_limit(const struct swap_spec *sp);
/* What the spec would add, for dry runs: "a temporary swapfile", "zram0 (1G, lz4)", ... */
const char *swap_spec_describe(const struct swap_spec *sp, char *buf, size_t size);

/* Set the sandbox's swap up as the spec says, each change journalled first. made:
 * the swap area vmtune made and switches off and on between runs (a swapfile's path
 * or /dev/zram0), "" when none. 0, or -1 with the reason said. */
int swap_setup(const struct swap_spec *sp, char *made, size_t madelen);

/* Total swap configured on the live system, in bytes. */
uint64_t swap_total(void);
/* Make sure at least `want` bytes of swap exist. If a swapfile had to be made,
 * its path is put in made (journalled); otherwise made is "". */
int swap_ensure(uint64_t want, char *made, size_t madelen);
/* swapoff and unlink a swapfile vmtune made (journal restore uses it too). */
int swap_remove(const char *path);

/* swapoff and swapon again: every slot free, the slot allocator back at the start. */
int swap_reset(const char *path);
/* kB in use on one swap area (from /proc/swaps), or -1 when it is not active. */
long swap_used_kb(const char *path);

/* The swap backend as a search dimension: the pseudo-knob "swap", an enum over
 * these (not in the catalogue; search --knobs names it). */
enum { SWAP_VARY_FILE, SWAP_VARY_ZRAM, SWAP_VARY_ZSWAP, SWAP_VARY_N };
struct knob_def;
extern const struct knob_def swap_knob;
/* A spec's backend as the pseudo-knob's value (file, zram, file+zswap), -1 for
 * none and machine. */
int swap_spec_vary_index(const struct swap_spec *sp);
/* The spec with its backend replaced by the pseudo-knob's value, same size. */
void swap_spec_for_backend(const struct swap_spec *sp, int backend, struct swap_spec *out);

/* A search that varies the backend keeps both areas made (each journalled) and
 * only the chosen one on; zswap.enabled (journalled) follows the choice. */
struct swap_vary {
	char file[4096]; /* the swapfile made, "" when the machine's own swap sufficed */
	char zram[32];	 /* /dev/zram0 */
	int cur;	 /* the backend on now */
};
/* Make both areas for the spec's size and select the spec's own backend. active:
 * the area vmtune made that is on now (for the settle step's swap reset). */
int swap_vary_setup(const struct swap_spec *sp, struct swap_vary *v, char *active, size_t len);
/* Switch to a backend: the other area off, this one on, zswap on or off. */
int swap_vary_select(struct swap_vary *v, int backend, char *active, size_t len);

/* The journal's record of a swapfile vmtune made: undone by swap_remove. */
struct journal_kind;
extern const struct journal_kind swap_journal_kind;
/* The journal's record of a zram device vmtune configured: swapoff and reset. */
extern const struct journal_kind zram_journal_kind;

#endif
