/* sysctld.h - who else sets a sysctl at boot: sysctl.d files that would fight a profile. */
#ifndef VMTUNE_SYSCTLD_H
#define VMTUNE_SYSCTLD_H

#include <stddef.h>

/* Look for KEY (e.g. "vm.swappiness") in the sysctl.d configuration (under
 * --root). Calls found(file, line, value) for each assignment; returns how many. */
int sysctld_find(const char *key, void (*found)(void *arg, const char *file, int line, const char *value), void *arg);

#endif
