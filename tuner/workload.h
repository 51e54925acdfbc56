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
};

extern const struct workload_info workload_builtins[];

/* Turn a spec into an argv (words split like the shell, no command
 * substitution). name receives the workload's short name. Free with
 * workload_argv_free(). */
int workload_argv(const char *spec, char ***argv, char *name, size_t namelen);
void workload_argv_free(char **argv);
const struct workload_info *workload_find(const char *name);

#endif
