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

static void rollback(struct setting *s, struct knob_state *st, int upto)
{
	long rb;
	int i;

	for (i = upto - 1; i >= 0; i--) {
		knob_probe(s[i].def, &st[i]);
		if (st[i].have_value && st[i].value == s[i].before)
			continue; /* the failed write changed nothing */
		if (knob_write(&st[i], s[i].before, &rb) < 0)
			error("%s: could not roll back; run 'vmtune restore'", s[i].def->name);
		else
			info("%s: rolled back to %ld", s[i].def->name, rb);
	}
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
	char a[64], b[64], c[64];
	int i, rc;

	/* everything must be there and writable before anything is written */
	if ((rc = check(s, st, n)) != 0)
		return rc;
	for (i = 0; i < n; i++) {
		struct knob_state side;
		long rb, side_before = 0;

		if (s[i].def->affects) {
			knob_probe(knob_find(s[i].def->affects), &side);
			side_before = side.value;
		}
		if (vt_interrupted || journal_knob(&st[i], keep) < 0 || knob_write(&st[i], s[i].value, &rb) < 0) {
			rollback(s, st, i + 1); /* i too: a multi-file knob may be half written */
			return vt_interrupted ? 128 + vt_interrupted : EXIT_ENV;
		}
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
	return 0;
}
