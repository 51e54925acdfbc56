/* yamldoc.c - YAML documents with their marks (libyaml), shared by the loaders. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "text.h"
#include "vmtune.h"
#include "yamldoc.h"

int ydoc_load(struct ydoc *y, const char *path, const char *what)
{
	yaml_parser_t parser;
	FILE *f = fopen(path, "re");
	int ok;

	memset(y, 0, sizeof(*y));
	y->path = path;
	if (!f) {
		error("cannot open %s '%s': %s", what, path, strerror(errno));
		return EXIT_USAGE;
	}
	yaml_parser_initialize(&parser);
	yaml_parser_set_input_file(&parser, f);
	ok = yaml_parser_load(&parser, &y->doc);
	if (!ok && parser.context)
		error("%s:%lu:%lu: not valid YAML: %s (%s that starts at line %lu, column %lu)", path,
		      (unsigned long)parser.problem_mark.line + 1, (unsigned long)parser.problem_mark.column + 1,
		      parser.problem ? parser.problem : "syntax error", parser.context,
		      (unsigned long)parser.context_mark.line + 1, (unsigned long)parser.context_mark.column + 1);
	else if (!ok)
		error("%s:%lu:%lu: not valid YAML: %s", path, (unsigned long)parser.problem_mark.line + 1,
		      (unsigned long)parser.problem_mark.column + 1, parser.problem ? parser.problem : "syntax error");
	yaml_parser_delete(&parser);
	fclose(f);
	if (!ok) {
		y->path = NULL;
		return EXIT_USAGE;
	}
	y->root = yaml_document_get_root_node(&y->doc);
	return 0;
}

void ydoc_free(struct ydoc *y)
{
	if (y->path)
		yaml_document_delete(&y->doc);
	y->path = NULL;
}

int ydoc_error(const struct ydoc *y, const yaml_node_t *n, const char *fmt, ...)
{
	char msg[600];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return error("%s:%lu:%lu: %s", y->path, (unsigned long)n->start_mark.line + 1,
		     (unsigned long)n->start_mark.column + 1, msg);
}

const char *ydoc_scalar(const yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

yaml_node_t *ydoc_get(struct ydoc *y, yaml_node_t *map, const char *key)
{
	yaml_node_pair_t *a;

	if (!map || map->type != YAML_MAPPING_NODE)
		return NULL;
	for (a = map->data.mapping.pairs.start; a < map->data.mapping.pairs.top; a++)
		if (strcmp(ydoc_scalar(yaml_document_get_node(&y->doc, a->key)) ?: "", key) == 0)
			return yaml_document_get_node(&y->doc, a->value);
	return NULL;
}

/* Text from a file reaches terminals, comments and other formats: one line of
 * printable UTF-8 only, checked where the file is read. */
static int oneline(struct ydoc *y, yaml_node_t *n, const char *what, const char *s)
{
	size_t bad;

	if (text_oneline(s, &bad))
		return 0;
	return ydoc_error(y, n,
			  "%s holds a control character or invalid UTF-8 (byte %zu, 0x%02x); one line of text is "
			  "expected",
			  what, bad + 1, (unsigned char)s[bad]);
}

int ydoc_each_pair(struct ydoc *y, yaml_node_t *map, const char *what, ydoc_pair_fn fn, void *arg)
{
	yaml_node_pair_t *a, *b;

	if (map->type != YAML_MAPPING_NODE)
		return ydoc_error(y, map, "%s must be a mapping of keys to values", what);
	for (a = map->data.mapping.pairs.start; a < map->data.mapping.pairs.top; a++) {
		yaml_node_t *k = yaml_document_get_node(&y->doc, a->key),
			    *v = yaml_document_get_node(&y->doc, a->value);
		const char *key = ydoc_scalar(k);

		if (!key)
			return ydoc_error(y, k, "keys in %s must be plain words", what);
		if (oneline(y, k, "a key", key) < 0)
			return -1;
		for (b = map->data.mapping.pairs.start; b < a; b++)
			if (strcmp(ydoc_scalar(yaml_document_get_node(&y->doc, b->key)) ?: "", key) == 0)
				return ydoc_error(y, k, "duplicate key '%s' in %s", key, what);
		if (fn(arg, key, k, v) < 0)
			return -1;
	}
	return 0;
}

int ydoc_text(struct ydoc *y, yaml_node_t *v, const char *key, char *dst, size_t size)
{
	const char *s = ydoc_scalar(v);

	if (!s)
		return ydoc_error(y, v, "'%s' must be a single value", key);
	if (oneline(y, v, key, s) < 0)
		return -1;
	if (strlen(s) >= size)
		return ydoc_error(y, v, "'%s' is too long", key);
	snprintf(dst, size, "%s", s);
	return 0;
}
