/* space.c - which knobs a search varies and how their values map to the
 * coordinates the strategies work in: [-1, 1] on a line (log2 for knobs whose
 * scale is logarithmic), or a choice index for enums. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "knob.h"
#include "space.h"
#include "swap.h"
#include "vmtune.h"

/* A knob a search can use: writable, or (for a plan or a model) readable. */
static bool usable(const struct knob_state *st, bool write)
{
	return st->status == KS_AVAILABLE || (!write && st->status == KS_READONLY && st->have_value);
}

static int add_dim(struct space *sp, const struct knob_def *d, bool write)
{
	struct space_dim *dm;
	struct knob_state st;
	int i;

	for (i = 0; i < sp->d; i++)
		if (sp->dim[i].def == d) {
			error("--knobs names %s twice", d->name);
			return EXIT_USAGE;
		}
	if (sp->d >= SPACE_MAX) {
		error("at most %d knobs can be searched at once", SPACE_MAX);
		return EXIT_USAGE;
	}
	if (d == &swap_knob) {
		/* the sandbox's swap backend: no kernel file; search sets its original from --swap */
		dm = &sp->dim[sp->d];
		memset(dm, 0, sizeof(*dm));
		dm->def = d;
		dm->original = d->def;
		dm->categorical = true;
		dm->pseudo = true;
		dm->lo = d->smin;
		dm->hi = d->smax;
		sp->categorical[sp->d++] = true;
		return 0;
	}
	knob_probe(d, &st);
	if (!usable(&st, write)) {
		error("%s cannot be searched here: %s", d->name, st.why);
		return EXIT_ENV;
	}
	dm = &sp->dim[sp->d];
	memset(dm, 0, sizeof(*dm));
	dm->def = d;
	dm->original = st.value;
	dm->categorical = d->type == KT_ENUM;
	knob_search_range(d, st.value, &dm->lo, &dm->hi);
	dm->log = d->scale == SCALE_LOG2 && dm->lo > 0;
	for (long v = dm->lo; v <= dm->hi && v - dm->lo < 64; v++)
		if (!knob_value_exists(&st, v))
			dm->absent |= 1ULL << (v - dm->lo);
	sp->categorical[sp->d] = dm->categorical;
	sp->d++;
	return 0;
}

int space_build_for(struct space *sp, const char *list, bool write)
{
	char buf[1024], *save = NULL, *tok;
	size_t i;
	int rc;

	memset(sp, 0, sizeof(*sp));
	if (!list) {
		for (i = 0; i < knob_catalogue_len; i++) {
			struct knob_state st;
			if (!knob_searchable(&knob_catalogue[i]))
				continue;
			knob_probe(&knob_catalogue[i], &st);
			if (usable(&st, write) && (rc = add_dim(sp, &knob_catalogue[i], write)) != 0)
				return rc;
		}
		if (sp->d == 0) {
			error("no searchable knob is available here (see 'vmtune knobs')");
			return EXIT_ENV;
		}
		return 0;
	}
	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
		const struct knob_def *d = strcmp(tok, swap_knob.name) == 0 ? &swap_knob : knob_find(tok);
		if (!d) {
			error("--knobs: unknown knob '%s' (see 'vmtune knobs')", tok);
			return EXIT_USAGE;
		}
		if (!knob_searchable(d)) {
			error("--knobs: %s is never searched (%s)", tok, d->note ? d->note : "not a tuning knob");
			return EXIT_USAGE;
		}
		if ((rc = add_dim(sp, d, write)) != 0)
			return rc;
	}
	if (sp->d == 0) {
		error("--knobs names no knob");
		return EXIT_USAGE;
	}
	return 0;
}

int space_build_stored(struct space *sp, const char *const *names, const long *originals, int n)
{
	int i;

	memset(sp, 0, sizeof(*sp));
	for (i = 0; i < n && sp->d < SPACE_MAX; i++) {
		const struct knob_def *d = strcmp(names[i], swap_knob.name) == 0 ? &swap_knob : knob_find(names[i]);
		struct space_dim *dm = &sp->dim[sp->d];
		if (!d)
			return error("unknown knob '%s'", names[i]);
		memset(dm, 0, sizeof(*dm));
		dm->def = d;
		dm->original = originals[i];
		dm->categorical = d->type == KT_ENUM;
		dm->pseudo = d == &swap_knob;
		if (dm->pseudo) {
			dm->lo = d->smin;
			dm->hi = d->smax;
		} else {
			knob_search_range(d, originals[i], &dm->lo, &dm->hi);
		}
		dm->log = d->scale == SCALE_LOG2 && dm->lo > 0;
		sp->categorical[sp->d++] = dm->categorical;
	}
	return 0;
}

double space_encode(const struct space_dim *dm, long v)
{
	double lo = (double)dm->lo, hi = (double)dm->hi, x = (double)v;

	if (dm->categorical)
		return (double)v;
	if (dm->hi == dm->lo)
		return 0;
	if (dm->log) {
		lo = log2(lo);
		hi = log2(hi);
		x = log2(x > 0 ? x : dm->lo);
	}
	return 2.0 * (x - lo) / (hi - lo) - 1.0;
}

long space_decode(const struct space_dim *dm, double x)
{
	double lo = (double)dm->lo, hi = (double)dm->hi, v;
	long r;

	if (dm->categorical) {
		r = lround(x);
	} else {
		if (x < -1)
			x = -1;
		if (x > 1)
			x = 1;
		if (dm->log)
			v = exp2(log2(lo) + (x + 1) / 2 * (log2(hi) - log2(lo)));
		else
			v = lo + (x + 1) / 2 * (hi - lo);
		r = lround(v);
	}
	return space_snap(dm, r < dm->lo ? dm->lo : r > dm->hi ? dm->hi : r);
}

long space_snap(const struct space_dim *dm, long v)
{
	/* a value the kernel does not offer is the one below it: no trial is spent on it */
	while (v > dm->lo && v - dm->lo < 64 && (dm->absent >> (v - dm->lo) & 1))
		v--;
	return v;
}

void space_from_unit(const struct space *sp, const double *u, long *vals)
{
	int i;

	for (i = 0; i < sp->d; i++) {
		const struct space_dim *dm = &sp->dim[i];
		if (dm->categorical)
			vals[i] = dm->lo + (long)floor(u[i] * (double)(dm->hi - dm->lo + 1));
		else
			vals[i] = space_decode(dm, 2 * u[i] - 1);
		if (vals[i] > dm->hi)
			vals[i] = dm->hi;
	}
}

void space_encode_point(const struct space *sp, const long *vals, double *x)
{
	int i;

	for (i = 0; i < sp->d; i++)
		x[i] = space_encode(&sp->dim[i], vals[i]);
}

void space_decode_point(const struct space *sp, const double *x, long *vals)
{
	int i;

	for (i = 0; i < sp->d; i++)
		vals[i] = space_decode(&sp->dim[i], x[i]);
}

const char *space_describe(const struct space *sp, const long *vals, bool all, char *buf, size_t size)
{
	size_t n = 0;
	char v[64];
	int i;

	buf[0] = '\0';
	for (i = 0; i < sp->d && n < size; i++) {
		if (!all && vals[i] == sp->dim[i].original)
			continue;
		n += (size_t)snprintf(buf + n, size - n, "%s%s=%s", n ? " " : "", sp->dim[i].def->name,
				      knob_format_value(sp->dim[i].def, vals[i], v, sizeof(v)));
	}
	if (!buf[0])
		snprintf(buf, size, "(original settings)");
	return buf;
}

void space_clamp(const struct space *sp, long *vals)
{
	for (int i = 0; i < sp->d; i++) {
		const struct space_dim *dm = &sp->dim[i];
		long v = vals[i] < dm->lo ? dm->lo : vals[i] > dm->hi ? dm->hi : vals[i];
		vals[i] = space_snap(dm, v);
	}
}

int space_find(const struct space *sp, const struct knob_def *d)
{
	for (int i = 0; i < sp->d; i++)
		if (sp->dim[i].def == d)
			return i;
	return -1;
}

int space_build(struct space *sp, const char *list)
{
	return space_build_for(sp, list, true);
}
