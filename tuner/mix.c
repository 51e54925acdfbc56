/* mix.c - loads workload mixes with libyaml's document API; every error names the
 * file, line and column. Workload specs and the probe are checked against the
 * built-in workloads the same way the command line's are. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "mix.h"
#include "size.h"
#include "vmtune.h"
#include "workload.h"
#include "yamldoc.h"

struct ctx {
	struct ydoc *y;
	struct mix *m;
};

static int text(const struct ctx *c, yaml_node_t *v, const char *key, char *dst, size_t size)
{
	return ydoc_text(c->y, v, key, dst, size);
}

static int spec_ok(const struct ctx *c, yaml_node_t *v, const char *spec)
{
	char **argv, name[64];

	if (workload_argv(spec, &argv, name, sizeof(name)) < 0)
		return ydoc_error(c->y, v, "workload '%s' is not usable (see the message above)", spec);
	workload_argv_free(argv);
	return 0;
}

struct item {
	struct ctx *c;
	struct mix_workload *w;
	bool have_run;
};

static int workload_pair(void *arg, const char *key, yaml_node_t *k, yaml_node_t *v)
{
	struct item *it = arg;
	struct ctx *c = it->c;
	struct mix_workload *w = it->w;
	const char *s;
	char why[256], *end;

	if (strcmp(key, "run") == 0) {
		if (text(c, v, key, w->run, sizeof(w->run)) < 0 || spec_ok(c, v, w->run) < 0)
			return -1;
		it->have_run = true;
	} else if (strcmp(key, "repeat") == 0) {
		if (!(s = ydoc_scalar(v)) || parse_long(s, 1, 1000, &w->repeat, why, sizeof(why)) < 0)
			return ydoc_error(c->y, v, "repeat: %s", s ? why : "must be a number");
	} else if (strcmp(key, "weight") == 0) {
		errno = 0;
		if (!(s = ydoc_scalar(v)) ||
		    (w->weight = strtod(s, &end), errno || end == s || *end || !(w->weight > 0 && w->weight <= 1000)))
			return ydoc_error(c->y, v, "weight must be a number above 0 and at most 1000, not '%s'",
					  s ? s : "");
	} else {
		return ydoc_error(c->y, k, "unknown key '%s' in a workload (known: run, repeat, weight)", key);
	}
	return 0;
}

static int workload_item(struct ctx *c, yaml_node_t *item)
{
	struct item it = { .c = c };

	if (c->m->nwl >= MIX_MAX_WORKLOADS)
		return ydoc_error(c->y, item, "at most %d workloads in a mix", MIX_MAX_WORKLOADS);
	it.w = &c->m->wl[c->m->nwl];
	memset(it.w, 0, sizeof(*it.w));
	it.w->repeat = 1;
	it.w->weight = 1;
	if (ydoc_scalar(item)) { /* "- mtest01 -p 80 -w" */
		if (text(c, item, "workload", it.w->run, sizeof(it.w->run)) < 0 || spec_ok(c, item, it.w->run) < 0)
			return -1;
		c->m->nwl++;
		return 0;
	}
	if (item->type != YAML_MAPPING_NODE)
		return ydoc_error(c->y, item, "a workload is a command line or a mapping with run:, repeat:, weight:");
	if (ydoc_each_pair(c->y, item, "a workload", workload_pair, &it) < 0)
		return -1;
	if (!it.have_run)
		return ydoc_error(c->y, item, "a workload needs 'run:' (its command line)");
	c->m->nwl++;
	return 0;
}

static int top(struct ctx *c, const char *key, yaml_node_t *k, yaml_node_t *v)
{
	struct mix *m = c->m;
	const char *s;
	char why[256];
	long version;
	yaml_node_item_t *it;

	if (strcmp(key, "vmtune-mix") == 0) {
		if (!(s = ydoc_scalar(v)) || parse_long(s, 0, 1000, &version, why, sizeof(why)) < 0 || version != 1)
			return ydoc_error(c->y, v, "mix schema version '%s' is not known to this vmtune (it reads 1)",
					  s ? s : "");
		return 0;
	}
	if (strcmp(key, "name") == 0)
		return text(c, v, key, m->name, sizeof(m->name));
	if (strcmp(key, "description") == 0)
		return text(c, v, key, m->description, sizeof(m->description));
	if (strcmp(key, "probe") == 0)
		return text(c, v, key, m->probe, sizeof(m->probe)) < 0 ? -1 : spec_ok(c, v, m->probe);
	if (strcmp(key, "memory_limit") == 0) {
		if (!(s = ydoc_scalar(v)) || parse_size(s, &m->memory_limit, why, sizeof(why)) < 0)
			return ydoc_error(c->y, v, "%s", s ? why : "a size such as 512M");
		if (m->memory_limit < (16 << 20))
			return ydoc_error(c->y, v, "memory_limit %s is too small (at least 16M)", s);
		return 0;
	}
	if (strcmp(key, "swap") == 0) {
		if (!(s = ydoc_scalar(v)) || swap_spec_parse(s, &m->swap, why, sizeof(why)) < 0)
			return ydoc_error(c->y, v, "swap: %s",
					  s ? why : "a size such as 1G, file:SIZE, zram:SIZE[:ALGO] or machine");
		return 0;
	}
	if (strcmp(key, "objective") == 0) {
		if (text(c, v, key, m->objective, sizeof(m->objective)) < 0)
			return -1;
		if (strcmp(m->objective, "throughput") && strcmp(m->objective, "interactive") &&
		    strcmp(m->objective, "balanced"))
			return ydoc_error(c->y, v, "objective must be throughput, interactive or balanced, not '%s'",
					  m->objective);
		return 0;
	}
	if (strcmp(key, "require") == 0) {
		if (v->type != YAML_SEQUENCE_NODE)
			return ydoc_error(c->y, v, "require is a list, e.g. [played>=0.99]");
		for (it = v->data.sequence.items.start; it < v->data.sequence.items.top; it++) {
			yaml_node_t *n = yaml_document_get_node(&c->y->doc, *it);
			if (m->nrequire >= MIX_MAX_REQUIRE)
				return ydoc_error(c->y, n, "at most %s requirements", "8");
			if (text(c, n, "require", m->require[m->nrequire], sizeof(m->require[0])) < 0)
				return -1;
			m->nrequire++;
		}
		return 0;
	}
	if (strcmp(key, "workloads") == 0) {
		if (v->type != YAML_SEQUENCE_NODE)
			return ydoc_error(c->y, v, "workloads is a list");
		for (it = v->data.sequence.items.start; it < v->data.sequence.items.top; it++)
			if (workload_item(c, yaml_document_get_node(&c->y->doc, *it)) < 0)
				return -1;
		return 0;
	}
	return ydoc_error(
	    c->y, k,
	    "unknown key '%s' (known: vmtune-mix, name, description, workloads, probe, memory_limit, swap, "
	    "objective, require)",
	    key);
}

static int top_step(void *arg, const char *key, yaml_node_t *k, yaml_node_t *v)
{
	return top(arg, key, k, v);
}

int mix_load(const char *path, struct mix *m)
{
	struct ydoc y;
	struct ctx c = { &y, m };
	int rc;

	memset(m, 0, sizeof(*m));
	if ((rc = ydoc_load(&y, path, "mix")) != 0)
		return rc;
	if (!y.root || y.root->type != YAML_MAPPING_NODE) {
		error("%s:1:1: a mix is a mapping with vmtune-mix: 1 and workloads:", path);
		rc = EXIT_USAGE;
	} else if (ydoc_each_pair(&y, y.root, "the mix", top_step, &c) < 0) {
		rc = EXIT_USAGE;
	} else if (m->nwl == 0) {
		ydoc_error(&y, y.root, "the mix names no workloads (workloads: [ ... ])");
		rc = EXIT_USAGE;
	}
	ydoc_free(&y);
	return rc;
}
