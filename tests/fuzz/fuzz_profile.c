/* fuzz_profile.c - profile_load on any bytes: an error or a profile whose every
 * setting names a knob and lies in its range, never a crash. */
#include <json-c/json.h>

#include "fuzz.h"
#include "profile.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	fuzz_quiet();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct profile p;
	const char *path = fuzz_file(data, size, "yaml");

	if (profile_load(path, &p) == 0) {
		if (p.nsettings < 0 || p.nsettings > PROFILE_MAX_SETTINGS)
			abort();
		for (int i = 0; i < p.nsettings; i++)
			if (!p.settings[i].def || p.settings[i].line < 1 || p.settings[i].column < 1)
				abort();
		json_object_put(profile_json(&p));
	}
	unlink(path);
	return 0;
}
