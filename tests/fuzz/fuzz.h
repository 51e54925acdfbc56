/* fuzz.h - what every libFuzzer target shares: quiet messages, and the input as a
 * NUL-terminated string or as a file (the loaders take a path). */
#ifndef VMTUNE_FUZZ_H
#define VMTUNE_FUZZ_H

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vmtune.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

static inline void fuzz_quiet(void)
{
	static FILE *null;

	if (!null && !(null = fopen("/dev/null", "w")))
		abort();
	log_setup(0, true);
	log_to(null);
}

/* The input with a NUL after it (free it). */
static inline char *fuzz_string(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* The input written to one file per process under /dev/shm; its path. */
static inline const char *fuzz_file(const uint8_t *data, size_t size, const char *ext)
{
	static char path[64];
	int fd;

	snprintf(path, sizeof(path), "/dev/shm/vmtune-fuzz-%ld.%s", (long)getpid(), ext);
	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600)) < 0)
		abort();
	if (size && write(fd, data, size) != (ssize_t)size)
		abort();
	close(fd);
	return path;
}

#endif
