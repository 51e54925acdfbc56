/* fuzz_mix.c - mix_load on any bytes: an error or a mix within its bounds. */
#include "fuzz.h"
#include "mix.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	fuzz_quiet();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct mix m;
	const char *path = fuzz_file(data, size, "yaml");

	if (mix_load(path, &m) == 0) {
		if (m.nwl < 1 || m.nwl > MIX_MAX_WORKLOADS || m.nrequire < 0 || m.nrequire > MIX_MAX_REQUIRE)
			abort();
		for (int i = 0; i < m.nwl; i++)
			if (!m.wl[i].run[0] || m.wl[i].repeat < 1 || !(m.wl[i].weight > 0))
				abort();
	}
	unlink(path);
	return 0;
}
