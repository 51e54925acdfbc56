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

struct ctx {
	const char *path;
	yaml_document_t *doc;
	struct mix *m;
};

static int at(const struct ctx *c, const yaml_node_t *n, const char *what, const char *arg)
{
	char msg[600];

	snprintf(msg, sizeof(msg), what, arg);
	return error("%s:%lu:%lu: %s", c->path, (unsigned long)n->start_mark.line + 1,
		     (unsigned long)n->start_mark.column + 1, msg);
}

static const char *scalar(const yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

static int text(const struct ctx *c, yaml_node_t *v, const char *key, char *dst, size_t size)
{
	const char *s = scalar(v);

	if (!s)
		return at(c, v, "'%s' must be a single value", key);
	if (strlen(s) >= size)
		return at(c, v, "'%s' is too long", key);
	snprintf(dst, size, "%s", s);
	return 0;
}

static int spec_ok(const struct ctx *c, yaml_node_t *v, const char *spec)
{
	char **argv, name[64];

	if (workload_argv(spec, &argv, name, sizeof(name)) < 0)
		return at(c, v, "workload '%s' is not usable (see the message above)", spec);
	workload_argv_free(argv);
	return 0;
}

static bool dup_key(yaml_document_t *doc, yaml_node_t *map, yaml_node_pair_t *upto, const char *key)
{
	yaml_node_pair_t *b;

	for (b = map->data.mapping.pairs.start; b < upto; b++)
		if (strcmp(scalar(yaml_document_get_node(doc, b->key)) ?: "", key) == 0)
			return true;
	return false;
}

static int workload_item(struct ctx *c, yaml_node_t *item)
{
	struct mix_workload *w;
	yaml_node_pair_t *p;
	bool have_run = false;

	if (c->m->nwl >= MIX_MAX_WORKLOADS)
		return at(c, item, "at most %s workloads in a mix", "8");
	w = &c->m->wl[c->m->nwl];
	memset(w, 0, sizeof(*w));
	w->repeat = 1;
	w->weight = 1;
	if (scalar(item)) { /* "- mtest01 -p 80 -w" */
		if (text(c, item, "workload", w->run, sizeof(w->run)) < 0 || spec_ok(c, item, w->run) < 0)
			return -1;
		c->m->nwl++;
		return 0;
	}
	if (item->type != YAML_MAPPING_NODE)
		return at(c, item, "a workload is a command line or a mapping with run:, repeat:, weight:%s", "");
	for (p = item->data.mapping.pairs.start; p < item->data.mapping.pairs.top; p++) {
		yaml_node_t *k = yaml_document_get_node(c->doc, p->key), *v = yaml_document_get_node(c->doc, p->value);
		const char *key = scalar(k), *s;
		char why[256], *end;

		if (!key)
			return at(c, k, "keys must be plain words%s", "");
		if (dup_key(c->doc, item, p, key))
			return at(c, k, "duplicate key '%s'", key);
		if (strcmp(key, "run") == 0) {
			if (text(c, v, key, w->run, sizeof(w->run)) < 0 || spec_ok(c, v, w->run) < 0)
				return -1;
			have_run = true;
		} else if (strcmp(key, "repeat") == 0) {
			if (!(s = scalar(v)) || parse_long(s, 1, 1000, &w->repeat, why, sizeof(why)) < 0)
				return at(c, v, "repeat: %s", s ? why : "must be a number");
		} else if (strcmp(key, "weight") == 0) {
			errno = 0;
			if (!(s = scalar(v)) || (w->weight = strtod(s, &end),
						 errno || end == s || *end || w->weight <= 0 || w->weight > 1000))
				return at(c, v, "weight must be a number above 0 and at most 1000, not '%s'",
					  s ? s : "");
		} else {
			return at(c, k, "unknown key '%s' in a workload (known: run, repeat, weight)", key);
		}
	}
	if (!have_run)
		return at(c, item, "a workload needs 'run:' (its command line)%s", "");
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
		if (!(s = scalar(v)) || parse_long(s, 0, 1000, &version, why, sizeof(why)) < 0 || version != 1)
			return at(c, v, "mix schema version '%s' is not known to this vmtune (it reads 1)", s ? s : "");
		return 0;
	}
	if (strcmp(key, "name") == 0)
		return text(c, v, key, m->name, sizeof(m->name));
	if (strcmp(key, "description") == 0)
		return text(c, v, key, m->description, sizeof(m->description));
	if (strcmp(key, "probe") == 0)
		return text(c, v, key, m->probe, sizeof(m->probe)) < 0 ? -1 : spec_ok(c, v, m->probe);
	if (strcmp(key, "memory_limit") == 0 || strcmp(key, "swap") == 0) {
		uint64_t *dst = key[0] == 'm' ? &m->memory_limit : &m->swap;
		if (!(s = scalar(v)) || parse_size(s, dst, why, sizeof(why)) < 0)
			return at(c, v, "%s", s ? why : "a size such as 512M");
		if (key[0] == 'm' && *dst < (16 << 20))
			return at(c, v, "memory_limit %s is too small (at least 16M)", s);
		return 0;
	}
	if (strcmp(key, "objective") == 0) {
		if (text(c, v, key, m->objective, sizeof(m->objective)) < 0)
			return -1;
		if (strcmp(m->objective, "throughput") && strcmp(m->objective, "interactive") &&
		    strcmp(m->objective, "balanced"))
			return at(c, v, "objective must be throughput, interactive or balanced, not '%s'",
				  m->objective);
		return 0;
	}
	if (strcmp(key, "require") == 0) {
		if (v->type != YAML_SEQUENCE_NODE)
			return at(c, v, "require is a list, e.g. [played>=0.99]%s", "");
		for (it = v->data.sequence.items.start; it < v->data.sequence.items.top; it++) {
			yaml_node_t *n = yaml_document_get_node(c->doc, *it);
			if (m->nrequire >= MIX_MAX_REQUIRE)
				return at(c, n, "at most %s requirements", "8");
			if (text(c, n, "require", m->require[m->nrequire], sizeof(m->require[0])) < 0)
				return -1;
			m->nrequire++;
		}
		return 0;
	}
	if (strcmp(key, "workloads") == 0) {
		if (v->type != YAML_SEQUENCE_NODE)
			return at(c, v, "workloads is a list%s", "");
		for (it = v->data.sequence.items.start; it < v->data.sequence.items.top; it++)
			if (workload_item(c, yaml_document_get_node(c->doc, *it)) < 0)
				return -1;
		return 0;
	}
	return at(c, k,
		  "unknown key '%s' (known: vmtune-mix, name, description, workloads, probe, memory_limit, swap, "
		  "objective, require)",
		  key);
}

int mix_load(const char *path, struct mix *m)
{
	yaml_parser_t parser;
	yaml_document_t doc;
	yaml_node_t *root;
	yaml_node_pair_t *p;
	struct ctx c = { path, &doc, m };
	FILE *f = fopen(path, "re");
	int rc = 0;

	memset(m, 0, sizeof(*m));
	if (!f) {
		error("cannot open mix '%s': %s", path, strerror(errno));
		return EXIT_USAGE;
	}
	yaml_parser_initialize(&parser);
	yaml_parser_set_input_file(&parser, f);
	if (!yaml_parser_load(&parser, &doc)) {
		error("%s:%lu:%lu: not valid YAML: %s", path, (unsigned long)parser.problem_mark.line + 1,
		      (unsigned long)parser.problem_mark.column + 1, parser.problem ? parser.problem : "syntax error");
		yaml_parser_delete(&parser);
		fclose(f);
		return EXIT_USAGE;
	}
	root = yaml_document_get_root_node(&doc);
	if (!root || root->type != YAML_MAPPING_NODE) {
		error("%s:1:1: a mix is a mapping with vmtune-mix: 1 and workloads:", path);
		rc = EXIT_USAGE;
		goto out;
	}
	for (p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top; p++) {
		yaml_node_t *k = yaml_document_get_node(&doc, p->key), *v = yaml_document_get_node(&doc, p->value);
		const char *key = scalar(k);

		if (!key || dup_key(&doc, root, p, key)) {
			at(&c, k, key ? "duplicate key '%s'" : "keys must be plain words%s", key ? key : "");
			rc = EXIT_USAGE;
			goto out;
		}
		if (top(&c, key, k, v) < 0) {
			rc = EXIT_USAGE;
			goto out;
		}
	}
	if (m->nwl == 0) {
		at(&c, root, "the mix names no workloads (workloads: [ ... ])%s", "");
		rc = EXIT_USAGE;
	}
out:
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	fclose(f);
	return rc;
}
