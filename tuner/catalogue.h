/* catalogue.h - the one table that describes every knob vmtune knows (DESIGN §3). */
#ifndef VMTUNE_CATALOGUE_H
#define VMTUNE_CATALOGUE_H

#include <stdbool.h>
#include <stddef.h>

enum knob_type {
	KT_INT,	  /* a plain integer */
	KT_BYTES, /* an integer number of bytes; sizes like 64M are accepted */
	KT_ENUM,  /* one of choices[]; the value is the index */
};

/* How a value is stored in a file. */
enum knob_codec {
	KC_INT,		/* decimal integer */
	KC_HEX,		/* an integer read in hex ("0x0007"), written in decimal */
	KC_ENUM,	/* sysfs "a [b] c": the bracketed word is current; write the word */
	KC_PAGES_ORDER, /* bytes = page size << order (fault_around_bytes) */
	KC_MTHP,	/* the directory holding hugepages-<N>kB/enabled files */
};

enum knob_scale { SCALE_LINEAR, SCALE_LOG2 };

enum {
	KF_NOSEARCH = 1 << 0,		 /* shown, settable, never searched */
	KF_DEFAULT_COMPUTED = 1 << 1,	 /* default depends on the machine (see knob_default) */
	KF_RANGE_FROM_ORIGINAL = 1 << 2, /* search range derived from the original value */
};

/* Where transparent hugepages (and the mTHP sizes under it) are controlled. */
#define KNOB_THP_DIR "/sys/kernel/mm/transparent_hugepage"

struct knob_path {
	const char *path;
	enum knob_codec codec;
};

#define KNOB_MAX_PATHS 2

struct knob_def {
	const char *name;
	struct knob_path paths[KNOB_MAX_PATHS]; /* first that exists wins */
	enum knob_type type;
	long min, max;	 /* the full valid range */
	long def;	 /* the kernel's default */
	long smin, smax; /* the safe search range */
	enum knob_scale scale;
	const char *const *choices; /* KT_ENUM only, NULL-terminated */
	unsigned flags;
	const char *pair;     /* writing this knob zeroes the pair (dirty ratio/bytes) */
	const char *note;     /* the trap, in one line */
	const char *affects;  /* the kernel may change this knob when we write ours */
	const char *together; /* knobs with the same word move as one: reverted together by the ablation */
};

extern const struct knob_def knob_catalogue[];
extern const size_t knob_catalogue_len;

const struct knob_def *knob_find(const char *name);
bool knob_searchable(const struct knob_def *d);
/* The default for this machine (min_free_kbytes is computed from RAM). */
long knob_default(const struct knob_def *d);
/* The safe search range, given the value found before vmtune changed anything. */
void knob_search_range(const struct knob_def *d, long original, long *lo, long *hi);
int knob_choice_count(const struct knob_def *d);
/* Is v a safe value here: for a searchable knob, inside its safe search range on
 * this machine (current: its value now, which some ranges derive from), or the
 * value it has now? *lo and *hi get the range. Knobs never searched have no safe
 * range, and any valid value of theirs passes. */
bool knob_safe(const struct knob_def *d, long current, long v, long *lo, long *hi);

#endif
