/* fuzz_spec.c - a workload spec ("mtest01 -p 80 -w", a path, quotes): split into an
 * argv or refused, its canonical form never longer than its buffer. */
#include "fuzz.h"
#include "workload.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	fuzz_quiet();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *spec = fuzz_string(data, size), name[64], canon[512], **argv = NULL;

	if (workload_argv(spec, &argv, name, sizeof(name)) == 0) {
		if (!argv || !argv[0])
			abort();
		workload_argv_free(argv);
	}
	workload_canonical(spec, canon, sizeof(canon));
	if (strlen(canon) >= sizeof(canon))
		abort();
	(void)workload_same(spec, canon);
	(void)workload_alias(spec);
	free(spec);
	return 0;
}
