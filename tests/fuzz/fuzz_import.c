/* fuzz_import.c - one JSON line of `vmtune db import` into an SQLite store in
 * memory: imported or refused, never a crash, and the store stays whole. */
#include <sqlite3.h>

#include "fuzz.h"
#include "store.h"

static struct store *s;
static long n;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	fuzz_quiet();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *line = fuzz_string(data, size);

	/* a fresh store now and then, so it does not grow without end */
	if (s && ++n % 5000 == 0) {
		store_close(s);
		s = NULL;
	}
	if (!s && store_open(&s, ":memory:") < 0)
		abort();
	store_import_run(s, line, "fuzz:1");
	free(line);
	return 0;
}
