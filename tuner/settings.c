/* settings.c - applying a list of knob values as one transaction: everything is
 * validated first, journalled before each write, read back after it, and rolled
 * back if any write fails. */
#include <stdio.h>
#include <string.h>

#include "journal.h"
#include "knob.h"
#include "settings.h"
#include "vmtune.h"

int setting_parse(const char *arg, struct setting *s)
{
	const char *eq = strchr(arg, '=');
	char name[128], why[256];

	if (!eq || eq == arg || eq[1] == '\0' || (size_t)(eq - arg) >= sizeof(name)) {
		error("malformed setting '%s': expected KNOB=VALUE, e.g. vm.page-cluster=2", arg);
		return EXIT_USAGE;
	}
	memcpy(name, arg, (size_t)(eq - arg));
	name[eq - arg] = '\0';
	s->def = knob_find(name);
	if (!s->def) {
		error("unknown knob '%s' in '%s' (see 'vmtune knobs')", name, arg);
		return EXIT_USAGE;
	}
	if (knob_parse_value(s->def, eq + 1, &s->value, why, sizeof(why)) < 0) {
		error("%s", why);
		return EXIT_USAGE;
	}
	return 0;
}

/* Every file the transaction may have changed, as it was before (knob_files:
 * the knob's own, the pair's, the one the kernel adjusts in response). */
struct snapshot {
	struct knob_file files[KNOB_RESTORE_MAX];
	int n;
};

static int snapshot_add(struct snapshot *sn, const struct knob_state *st)
{
	int n = knob_files(st, sn->files + sn->n, KNOB_RESTORE_MAX - sn->n);

	if (n < 0)
		return -1;
	sn->n += n;
	return 0;
}

/* Put the snapshot back: the pairs by the member that was in force, the files
 * the kernel adjusted, each read back (knob_files_restore). */
static void rollback(const struct snapshot *sn)
{
	bool ok[KNOB_RESTORE_MAX];
	int i;

	if (sn->n == 0)
		return;
	if (knob_files_restore(sn->files, sn->n, ok, NULL) < 0) {
		error("some settings could not be rolled back; run 'vmtune restore'");
		return;
	}
	for (i = 0; i < sn->n; i++)
		info("%s: rolled back to %s (%s)", sn->files[i].name, sn->files[i].raw, sn->files[i].path);
}

static int check(struct setting *s, struct knob_state *st, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		knob_probe(s[i].def, &st[i]);
		if (st[i].status != KS_AVAILABLE) {
			error("%s cannot be set here: %s", s[i].def->name, st[i].why);
			return EXIT_ENV;
		}
		s[i].before = st[i].value;
	}
	return 0;
}

int settings_check(struct setting *s, int n)
{
	struct knob_state st[SETTINGS_MAX];

	return check(s, st, n);
}

int settings_apply(struct setting *s, int n, bool keep)
{
	struct knob_state st[SETTINGS_MAX];
	static struct snapshot sn;
	char a[64], b[64], c[64];
	int i, rc;

	/* everything must be there and writable before anything is written */
	if ((rc = check(s, st, n)) != 0)
		return rc;
	sn.n = 0;
	for (i = 0; i < n; i++) {
		struct knob_state side;
		long rb, side_before = 0;

		if (s[i].def->affects) {
			knob_probe(knob_find(s[i].def->affects), &side);
			side_before = side.value;
		}
		if (vt_interrupted || snapshot_add(&sn, &st[i]) < 0 || journal_knob(&st[i], keep) < 0 ||
		    (crashpoint("knob-journalled"), knob_write(&st[i], s[i].value, &rb)) < 0) {
			rollback(&sn); /* i too: a multi-file knob may be half written */
			return vt_interrupted ? 128 + vt_interrupted : EXIT_ENV;
		}
		crashpoint("knob-written");
		knob_format_value(s[i].def, s[i].before, a, sizeof(a));
		knob_format_value(s[i].def, s[i].value, b, sizeof(b));
		if (rb != s[i].value)
			warning("%s: wrote %s, the kernel kept %s", s[i].def->name, b,
				knob_format_value(s[i].def, rb, c, sizeof(c)));
		info("%s: %s -> %s", s[i].def->name, a, knob_format_value(s[i].def, rb, c, sizeof(c)));
		if (s[i].def->affects && side.have_value) {
			long was = side_before;
			knob_probe(side.def, &side);
			if (side.have_value && side.value != was)
				info("%s: %ld -> %ld (changed by the kernel in response; journalled, restored with it)",
				     side.def->name, was, side.value);
		}
	}
	return keep && journal_keep() < 0 ? EXIT_ENV : 0;
}
