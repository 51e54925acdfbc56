/* extract.h - numbers out of a program's output: a path into its JSON, or a regular
 * expression with one group, each giving a named value. What `exec:` workloads
 * carry in their spec ("exec{...}:CMD", so the store, --resume, the profile's
 * evidence, verify and the mixes all run them the same way), and what the built-in
 * tool workloads (tools.c) use to read JSON. */
#ifndef VMTUNE_EXTRACT_H
#define VMTUNE_EXTRACT_H

#include <stdbool.h>
#include <stddef.h>

#include "runner.h"

#define EXTRACT_MAX_RULES 8

enum extract_kind { EX_JSON, EX_REGEX };

struct extract_rule {
	enum extract_kind kind;
	char name[48];
	char expr[512];
};

struct extract {
	int n;
	struct extract_rule r[EXTRACT_MAX_RULES];
	char file[4096]; /* "": the command's stdout */
};

/* Add "NAME=EXPR" of --metric-json or --metric-regex (opt names the option for
 * the message): 0, or -1 with the reason said (a bad name, a path that does not
 * parse, a regex that does not compile or has not exactly one group). */
int extract_add(struct extract *ex, enum extract_kind kind, const char *arg, const char *opt);

/* The spec "exec{...}:CMD" that carries ex (a JSON object) for the command of an
 * exec: spec. A spec that is not exec:, or ex with no rule, is copied as it is.
 * 0, or -1 when it does not fit. */
int extract_wrap(const char *spec, const struct extract *ex, char *out, size_t size);

/* Read a spec's extraction: for "exec{...}:CMD" fills ex and points *cmd at CMD
 * (1); for any other spec 0 (ex->n = 0); -1 with the reason said when the braces
 * do not hold a valid extraction. */
int extract_from_spec(const char *spec, struct extract *ex, const char **cmd);

/* Apply ex to a run's output (out[0..len), NUL-terminated), or to ex->file when
 * set: each value into vals[]. 0, or -1 with why (the rule, what was missing). */
int extract_apply(const struct extract *ex, const char *out, size_t len, struct run_value *vals, int *n, char *why,
		  size_t whysize);

/* Is name one of ex's rules? */
bool extract_names(const struct extract *ex, const char *name);

/* A path of the small syntax (keys by dots, ["quoted key"], [N] for an index)
 * into a parsed JSON document: the number there (a JSON number, or a string that
 * is one). 0, or -1 with why. */
struct json_object;
int extract_json_path(struct json_object *root, const char *path, double *v, char *why, size_t whysize);
/* Does the path parse? (why: where it does not) */
int extract_json_path_check(const char *path, char *why, size_t whysize);

/* The options --metric-json, --metric-regex and --metric-file (opt without the
 * dashes) into ex: 0, or -1 said. */
int extract_option(struct extract *ex, const char *opt, const char *arg);
/* spec with ex folded in when it is exec: and ex has rules (a new string for the
 * command's lifetime), spec itself otherwise; NULL said when it does not fit. */
const char *extract_wrap_spec(const char *spec, const struct extract *ex);

/* Put a named value (replacing one of the same name). */
void extract_put(struct run_value *vals, int *n, const char *name, double v);

#endif
