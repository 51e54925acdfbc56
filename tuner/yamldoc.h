/* yamldoc.h - a YAML file loaded with libyaml's document API, for the loaders of
 * profiles and mixes: every node keeps its mark, so each error names FILE:LINE:COLUMN. */
#ifndef VMTUNE_YAMLDOC_H
#define VMTUNE_YAMLDOC_H

#include <stdbool.h>
#include <stddef.h>
#include <yaml.h>

struct ydoc {
	const char *path;
	yaml_document_t doc;
	yaml_node_t *root; /* NULL for an empty document */
};

/* Open and parse path (what: "profile", "mix", for the messages). Returns 0, or
 * EXIT_USAGE after an error naming the file and where it stops being YAML. */
int ydoc_load(struct ydoc *y, const char *path, const char *what);
void ydoc_free(struct ydoc *y);

/* "FILE:LINE:COLUMN: message" at node n; returns -1. */
int ydoc_error(const struct ydoc *y, const yaml_node_t *n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A scalar node's text, or NULL for anything else. */
const char *ydoc_scalar(const yaml_node_t *n);
/* The value node of key in a mapping, or NULL. */
yaml_node_t *ydoc_get(struct ydoc *y, yaml_node_t *map, const char *key);

/* Walk a mapping: keys must be plain words and not repeat; fn gets each pair. */
typedef int (*ydoc_pair_fn)(void *arg, const char *key, yaml_node_t *k, yaml_node_t *v);
int ydoc_each_pair(struct ydoc *y, yaml_node_t *map, const char *what, ydoc_pair_fn fn, void *arg);
/* A single value copied into dst (size bytes), or an error naming key. */
int ydoc_text(struct ydoc *y, yaml_node_t *v, const char *key, char *dst, size_t size);

#endif
