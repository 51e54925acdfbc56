/* crashpoint.c - the named points where a test build stops for the crash test
 * (tests/live/test-live-crash.sh): it SIGKILLs vmtune there and checks that restore
 * and --resume lose nothing. Compiled to nothing outside a test build. */
#ifdef VMTUNE_CRASHPOINTS
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vmtune.h"

void crashpoint(const char *name)
{
	static long passed;
	const char *at = getenv("VMTUNE_CRASH_AT"), *nth = getenv("VMTUNE_CRASH_NTH");

	if (!at || strcmp(at, name) != 0 || ++passed < (nth ? atol(nth) : 1))
		return;
	fprintf(stderr, "vmtune: crashpoint %s (passage %ld) reached by pid %ld; stopped\n", name, passed,
		(long)getpid());
	fflush(stderr);
	raise(SIGSTOP);
}
#else
typedef int crashpoint_unused; /* an empty unit is not ISO C */
#endif
