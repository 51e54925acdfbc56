/* workload.h - what a workload spec means: a built-in program or exec:CMD. */
#ifndef VMTUNE_WORKLOAD_H
#define VMTUNE_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>

struct workload_info {
	const char *name;
	const char *metric; /* primary metric: "elapsed" or a name=value it prints */
	bool maximize;
	const char *summary;
	const char *opts; /* its getopt string */
};

extern const struct workload_info workload_builtins[];

/* Turn a spec into an argv (words split like the shell, no command
 * substitution). name receives the workload's short name. Free with
 * workload_argv_free(). */
int workload_argv(const char *spec, char ***argv, char *name, size_t namelen);
void workload_argv_free(char **argv);
const struct workload_info *workload_find(const char *name);

/* "mtest01" alone is the seeds' "mtest01 -p 80 -w"; any other spec is itself. */
const char *workload_alias(const char *spec);
/* A built-in workload's spec as its program reads it, in one order: the options
 * sorted by letter (a repeated one in the order given), each with its argument,
 * then the operands, so "swapbench -s 600M -a seq" and "swapbench -a seq -s600M"
 * read the same. exec: specs, and specs that do not parse, are kept as written. */
void workload_canonical(const char *spec, char *out, size_t size);
/* Do two specs ask for the same run? */
bool workload_same(const char *a, const char *b);

#endif
