/* swap.h - making sure enough swap exists, with a temporary swapfile if needed. */
#ifndef VMTUNE_SWAP_H
#define VMTUNE_SWAP_H

#include <stddef.h>
#include <stdint.h>

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

/* The journal's record of a swapfile vmtune made: undone by swap_remove. */
struct journal_kind;
extern const struct journal_kind swap_journal_kind;

#endif
