/* testutil.h - a fresh fake --root tree per test (tests/mkroot.sh) and file helpers. */
#ifndef VMTUNE_TESTUTIL_H
#define VMTUNE_TESTUTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "vmtune.h"

static char test_dir[PATH_MAX];

/* Make a fresh tree; point vt at it. Run from the source tree's top. */
static inline int fake_root_setup(void **state)
{
	char cmd[PATH_MAX + 64];

	(void)state;
	snprintf(test_dir, sizeof(test_dir), "/tmp/vmtune-unit-XXXXXX");
	if (!mkdtemp(test_dir))
		return -1;
	snprintf(cmd, sizeof(cmd), "tests/mkroot.sh %s", test_dir);
	if (system(cmd) != 0)
		return -1;
	memset(&vt, 0, sizeof(vt));
	vt.quiet = 1;
	log_setup(0, true);
	snprintf(vt.root, sizeof(vt.root), "%s", test_dir);
	snprintf(vt.state_dir, sizeof(vt.state_dir), "%s/var/lib/vmtune", test_dir);
	return 0;
}

static inline int fake_root_teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", test_dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* Content of DIR/rel with the trailing newline stripped. */
static inline const char *tree_read(const char *rel)
{
	static char buf[256];
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s%s", test_dir, rel);
	if (read_small_file(p, buf, sizeof(buf)) < 0)
		return "<unreadable>";
	return buf;
}

static inline void tree_write(const char *rel, const char *s)
{
	char p[PATH_MAX];
	FILE *f;

	snprintf(p, sizeof(p), "%s%s", test_dir, rel);
	f = fopen(p, "w");
	assert_non_null(f);
	fprintf(f, "%s\n", s);
	assert_int_equal(fclose(f), 0);
}

#endif
