/* fuzz_journal.c - the journal reader on any bytes: an error naming the line, or
 * entries, never a crash or a read past a field. */
#include "fuzz.h"
#include "journal.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	fuzz_quiet();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *f = fmemopen((void *)data, size, "r");

	if (!size)
		return 0;
	if (!f)
		abort();
	journal_parse(f, "fuzz");
	fclose(f);
	return 0;
}
