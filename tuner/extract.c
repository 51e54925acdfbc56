/* extract.c - named numbers out of a program's output: JSON paths (json-c) and
 * POSIX extended regular expressions with one group. The output is a program's,
 * hostile until read: every failure says which rule found what missing, and what
 * is quoted of the output goes through text_safe. */
#include <ctype.h>
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "extract.h"
#include "text.h"
#include "vmtune.h"

#define FILE_MAX (16u << 20) /* what is read of an output file */

static bool name_ok(const char *s, size_t len)
{
	size_t i;

	if (len == 0 || len >= sizeof(((struct extract_rule *)0)->name))
		return false;
	for (i = 0; i < len; i++)
		if (!(isalnum((unsigned char)s[i]) || s[i] == '_' || s[i] == '.'))
			return false;
	return true;
}

/* One step of a path: a key (into an object) or an index (into an array). p points
 * at the step's start; on return *p is past it. */
struct step {
	bool index;
	long n;
	char key[256];
};

static int next_step(const char **pp, struct step *st, char *why, size_t whysize, const char *path)
{
	const char *p = *pp;
	size_t k = 0;

	if (*p == '[') {
		p++;
		if (*p == '"') {
			st->index = false;
			for (p++; *p && *p != '"'; p++) {
				if (*p == '\\' && p[1])
					p++;
				if (k + 1 >= sizeof(st->key))
					goto bad;
				st->key[k++] = *p;
			}
			if (*p != '"' || p[1] != ']')
				goto bad;
			st->key[k] = '\0';
			*pp = p + 2;
			return 0;
		}
		if (!isdigit((unsigned char)*p))
			goto bad;
		errno = 0;
		st->index = true;
		st->n = strtol(p, (char **)&p, 10);
		if (errno || *p != ']')
			goto bad;
		*pp = p + 1;
		return 0;
	}
	st->index = false;
	for (; *p && *p != '.' && *p != '['; p++) {
		if (k + 1 >= sizeof(st->key))
			goto bad;
		st->key[k++] = *p;
	}
	if (k == 0)
		goto bad;
	st->key[k] = '\0';
	*pp = p;
	return 0;
bad:
	snprintf(why, whysize, "JSON path '%s': cannot read it at offset %d (keys by dots, [\"key\"] or [N])", path,
		 (int)(p - path));
	return -1;
}

/* Walk path over root (NULL: only check the syntax). */
static int walk(json_object *root, const char *path, double *v, char *why, size_t whysize)
{
	const char *p = path;
	char safe[600], done[600] = "";
	json_object *cur = root, *nxt;

	text_safe(path, safe, sizeof(safe));
	if (*p == '$')
		p++;
	if (*p == '.')
		p++;
	if (!*p) {
		snprintf(why, whysize, "JSON path '%s' is empty", safe);
		return -1;
	}
	while (*p) {
		struct step st;

		if (next_step(&p, &st, why, whysize, safe) < 0)
			return -1;
		if (*p == '.') {
			p++;
			if (!*p || *p == '.' || *p == '[') {
				snprintf(why, whysize, "JSON path '%s': a '.' names no key", safe);
				return -1;
			}
		} else if (*p && *p != '[') {
			snprintf(why, whysize, "JSON path '%s': cannot read it", safe);
			return -1;
		}
		if (!root)
			continue;
		if (st.index) {
			if (!json_object_is_type(cur, json_type_array) || st.n >= (long)json_object_array_length(cur)) {
				snprintf(why, whysize, "the output's JSON has no [%ld] at %s%s", st.n,
					 done[0] ? done : "the top",
					 json_object_is_type(cur, json_type_array) ? "" : " (not an array)");
				return -1;
			}
			nxt = json_object_array_get_idx(cur, (size_t)st.n);
		} else if (!json_object_is_type(cur, json_type_object) ||
			   !json_object_object_get_ex(cur, st.key, &nxt)) {
			char k[300];
			snprintf(why, whysize, "the output's JSON has no key '%s' at %s",
				 text_safe(st.key, k, sizeof(k)), done[0] ? done : "the top");
			return -1;
		}
		cur = nxt;
		snprintf(done, sizeof(done), "%.*s", (int)(p - path), path);
		text_safe(done, safe, sizeof(safe));
		snprintf(done, sizeof(done), "%s", safe);
	}
	if (!root)
		return 0;
	if (json_object_is_type(cur, json_type_double) || json_object_is_type(cur, json_type_int)) {
		*v = json_object_get_double(cur);
	} else if (json_object_is_type(cur, json_type_string)) {
		const char *s = json_object_get_string(cur);
		char *end;
		errno = 0;
		*v = strtod(s, &end);
		if (errno || end == s || *end) {
			char q[80];
			snprintf(why, whysize, "the output's JSON at %s is the string \"%s\", not a number", done,
				 text_safe(s, q, sizeof(q)));
			return -1;
		}
	} else {
		snprintf(why, whysize, "the output's JSON at %s is %s, not a number", done,
			 json_type_to_name(json_object_get_type(cur)));
		return -1;
	}
	if (!isfinite(*v)) {
		snprintf(why, whysize, "the output's JSON at %s is not a finite number", done);
		return -1;
	}
	return 0;
}

int extract_json_path(json_object *root, const char *path, double *v, char *why, size_t whysize)
{
	return walk(root, path, v, why, whysize);
}

int extract_json_path_check(const char *path, char *why, size_t whysize)
{
	return walk(NULL, path, NULL, why, whysize);
}

static int regex_check(const char *re, char *why, size_t whysize)
{
	regex_t rx;
	int rc = regcomp(&rx, re, REG_EXTENDED | REG_NEWLINE);
	char safe[600];

	text_safe(re, safe, sizeof(safe));
	if (rc != 0) {
		char e[200];
		regerror(rc, &rx, e, sizeof(e));
		snprintf(why, whysize, "regular expression '%s' does not compile: %s", safe, e);
		return -1;
	}
	rc = rx.re_nsub == 1 ? 0 : -1;
	if (rc < 0)
		snprintf(why, whysize,
			 "regular expression '%s' has %zu groups; it needs exactly one, around the number", safe,
			 rx.re_nsub);
	regfree(&rx);
	return rc;
}

int extract_add(struct extract *ex, enum extract_kind kind, const char *arg, const char *opt)
{
	const char *eq = strchr(arg, '=');
	struct extract_rule *r;
	char why[768], safe[600];
	int i;

	if (!eq || !name_ok(arg, (size_t)(eq - arg)))
		return error("%s '%s': give NAME=%s, NAME of letters, digits, '_' and '.'", opt,
			     text_safe(arg, safe, sizeof(safe)), kind == EX_JSON ? "PATH" : "REGEX");
	if (ex->n >= EXTRACT_MAX_RULES)
		return error("%s: at most %d values a workload", opt, EXTRACT_MAX_RULES);
	if (strlen(eq + 1) >= sizeof(ex->r[0].expr))
		return error("%s '%.*s': the expression is longer than %zu characters", opt, (int)(eq - arg), arg,
			     sizeof(ex->r[0].expr) - 1);
	for (i = 0; i < ex->n; i++)
		if (strncmp(ex->r[i].name, arg, (size_t)(eq - arg)) == 0 && ex->r[i].name[eq - arg] == '\0')
			return error("%s: the value '%.*s' is named twice", opt, (int)(eq - arg), arg);
	if ((kind == EX_JSON ? extract_json_path_check(eq + 1, why, sizeof(why))
			     : regex_check(eq + 1, why, sizeof(why))) < 0)
		return error("%s %.*s: %s", opt, (int)(eq - arg), arg, why);
	r = &ex->r[ex->n++];
	r->kind = kind;
	snprintf(r->name, sizeof(r->name), "%.*s", (int)(eq - arg), arg);
	snprintf(r->expr, sizeof(r->expr), "%s", eq + 1);
	return 0;
}

int extract_wrap(const char *spec, const struct extract *ex, char *out, size_t size)
{
	json_object *o, *j = NULL, *rx = NULL;
	int i, n;

	if (strncmp(spec, "exec:", 5) != 0 || ex->n == 0) {
		n = snprintf(out, size, "%s", spec);
		return n < 0 || (size_t)n >= size ? -1 : 0;
	}
	o = json_object_new_object();
	for (i = 0; i < ex->n; i++) {
		json_object **into = ex->r[i].kind == EX_JSON ? &j : &rx;
		if (!*into)
			*into = json_object_new_object();
		json_object_object_add(*into, ex->r[i].name, json_object_new_string(ex->r[i].expr));
	}
	if (j)
		json_object_object_add(o, "json", j);
	if (rx)
		json_object_object_add(o, "regex", rx);
	if (ex->file[0])
		json_object_object_add(o, "file", json_object_new_string(ex->file));
	n = snprintf(out, size, "exec%s:%s", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN), spec + 5);
	json_object_put(o);
	if (n < 0 || (size_t)n >= size)
		return error("the workload spec with its extraction is longer than %zu characters", size - 1);
	return 0;
}

static int rules_of(json_object *o, const char *key, enum extract_kind kind, struct extract *ex)
{
	json_object *m;
	char why[768];

	if (!json_object_object_get_ex(o, key, &m))
		return 0;
	if (!json_object_is_type(m, json_type_object))
		return error("workload exec{...}: \"%s\" must be an object of NAME: %s", key,
			     kind == EX_JSON ? "PATH" : "REGEX");
	json_object_object_foreach(m, name, v)
	{
		struct extract_rule *r;
		const char *e = json_object_get_string(v);

		if (!json_object_is_type(v, json_type_string) || !name_ok(name, strlen(name)) ||
		    strlen(e) >= sizeof(r->expr) || ex->n >= EXTRACT_MAX_RULES)
			return error("workload exec{...}: \"%s\": a bad entry (NAME of letters, digits, '_' and '.', "
				     "a string, at most %d)",
				     key, EXTRACT_MAX_RULES);
		if ((kind == EX_JSON ? extract_json_path_check(e, why, sizeof(why))
				     : regex_check(e, why, sizeof(why))) < 0)
			return error("workload exec{...}: %s: %s", name, why);
		r = &ex->r[ex->n++];
		r->kind = kind;
		snprintf(r->name, sizeof(r->name), "%s", name);
		snprintf(r->expr, sizeof(r->expr), "%s", e);
	}
	return 0;
}

int extract_from_spec(const char *spec, struct extract *ex, const char **cmd)
{
	struct json_tokener *tok;
	json_object *o, *f;
	const char *body;
	size_t end;
	int rc = 0;

	memset(ex, 0, sizeof(*ex));
	if (strncmp(spec, "exec{", 5) != 0)
		return 0;
	body = spec + 4;
	tok = json_tokener_new();
	o = json_tokener_parse_ex(tok, body, (int)strlen(body));
	end = tok->char_offset;
	json_tokener_free(tok);
	if (!o || !json_object_is_type(o, json_type_object) || body[end] != ':') {
		json_object_put(o);
		return error(
		    "workload exec{...}: the braces do not hold one JSON object followed by ':' and the command");
	}
	json_object_object_foreach(o, key, val)
	{
		(void)val;
		if (strcmp(key, "json") && strcmp(key, "regex") && strcmp(key, "file")) {
			char k[200];
			rc = error("workload exec{...}: unknown key \"%s\" (json, regex, file)",
				   text_safe(key, k, sizeof(k)));
		}
	}
	if (rc == 0 && (rules_of(o, "json", EX_JSON, ex) < 0 || rules_of(o, "regex", EX_REGEX, ex) < 0))
		rc = -1;
	if (rc == 0 && json_object_object_get_ex(o, "file", &f)) {
		const char *s = json_object_get_string(f);
		if (!json_object_is_type(f, json_type_string) || s[0] != '/' || strlen(s) >= sizeof(ex->file))
			rc = error("workload exec{...}: \"file\" must be an absolute path");
		else
			snprintf(ex->file, sizeof(ex->file), "%s", s);
	}
	if (rc == 0 && ex->n == 0)
		rc = error("workload exec{...}: no value to extract (\"json\" or \"regex\")");
	json_object_put(o);
	if (rc < 0)
		return -1;
	if (body[end + 1] == '\0')
		return error("workload exec{...}: names no command");
	*cmd = body + end + 1;
	return 1;
}

bool extract_names(const struct extract *ex, const char *name)
{
	for (int i = 0; i < ex->n; i++)
		if (strcmp(ex->r[i].name, name) == 0)
			return true;
	return false;
}

void extract_put(struct run_value *vals, int *n, const char *name, double v)
{
	int i;

	if (!isfinite(v))
		return;
	for (i = 0; i < *n; i++)
		if (strcmp(vals[i].name, name) == 0) {
			vals[i].value = v;
			return;
		}
	if (*n >= RUN_MAX_VALUES)
		return;
	snprintf(vals[*n].name, sizeof(vals[0].name), "%s", name);
	vals[(*n)++].value = v;
}

/* The last match of re in text: its group as a number. */
static int regex_value(const char *re, const char *text, double *v, char *why, size_t whysize)
{
	regex_t rx;
	regmatch_t m[2];
	const char *p = text, *g = NULL;
	size_t glen = 0;
	char num[64], safe[600], *end;

	if (regcomp(&rx, re, REG_EXTENDED | REG_NEWLINE) != 0)
		return -1;
	while (regexec(&rx, p, 2, m, p == text ? 0 : REG_NOTBOL) == 0) {
		if (m[1].rm_so >= 0) {
			g = p + m[1].rm_so;
			glen = (size_t)(m[1].rm_eo - m[1].rm_so);
		}
		p += m[0].rm_eo > m[0].rm_so ? m[0].rm_eo : m[0].rm_eo + 1;
		if (p > text + strlen(text))
			break;
	}
	regfree(&rx);
	text_safe(re, safe, sizeof(safe));
	if (!g) {
		snprintf(why, whysize, "the output does not match /%s/", safe);
		return -1;
	}
	snprintf(num, sizeof(num), "%.*s", (int)(glen < sizeof(num) - 1 ? glen : sizeof(num) - 1), g);
	errno = 0;
	*v = strtod(num, &end);
	if (errno || end == num || *end || glen >= sizeof(num) || !isfinite(*v)) {
		char q[200];
		snprintf(why, whysize, "/%s/ matched, but its group \"%s\" is not a number", safe,
			 text_safe(num, q, sizeof(q)));
		return -1;
	}
	return 0;
}

/* The whole of a file the command wrote (at most FILE_MAX), NUL-terminated. */
static char *slurp(const char *path, size_t *len, char *why, size_t whysize)
{
	FILE *f = fopen(path, "re");
	char *buf, safe[600];

	text_safe(path, safe, sizeof(safe));
	if (!f) {
		snprintf(why, whysize, "cannot read the output file %s: %s", safe, strerror(errno));
		return NULL;
	}
	buf = malloc(FILE_MAX + 1);
	if (!buf) {
		fclose(f);
		snprintf(why, whysize, "out of memory");
		return NULL;
	}
	*len = fread(buf, 1, FILE_MAX, f);
	buf[*len] = '\0';
	fclose(f);
	return buf;
}

int extract_apply(const struct extract *ex, const char *out, size_t len, struct run_value *vals, int *n, char *why,
		  size_t whysize)
{
	char *file = NULL, rwhy[768];
	const char *text = out;
	json_object *doc = NULL;
	int i, rc = 0;

	if (ex->file[0]) {
		if (!(file = slurp(ex->file, &len, why, whysize)))
			return -1;
		text = file;
	}
	for (i = 0; i < ex->n && rc == 0; i++) {
		const struct extract_rule *r = &ex->r[i];
		double v;

		if (r->kind == EX_JSON && !doc) {
			const char *s = text + strcspn(text, "{[");
			struct json_tokener *tok = json_tokener_new();
			doc = *s ? json_tokener_parse_ex(tok, s, (int)(len - (size_t)(s - text))) : NULL;
			if (!doc) {
				snprintf(why, whysize, "%s: the %s holds no JSON%s%s", r->name,
					 ex->file[0] ? "output file" : "output", *s ? ": " : "",
					 *s ? json_tokener_error_desc(json_tokener_get_error(tok)) : "");
				json_tokener_free(tok);
				rc = -1;
				break;
			}
			json_tokener_free(tok);
		}
		if ((r->kind == EX_JSON ? walk(doc, r->expr, &v, rwhy, sizeof(rwhy))
					: regex_value(r->expr, text, &v, rwhy, sizeof(rwhy))) < 0) {
			snprintf(why, whysize, "%s: %s", r->name, rwhy);
			rc = -1;
		} else
			extract_put(vals, n, r->name, v);
	}
	json_object_put(doc);
	free(file);
	return rc;
}

const char *extract_wrap_spec(const char *spec, const struct extract *ex)
{
	char buf[8192];

	if (ex->n == 0 || strncmp(spec, "exec:", 5) != 0)
		return spec;
	if (extract_wrap(spec, ex, buf, sizeof(buf)) < 0)
		return NULL;
	return strdup(buf); /* the command's lifetime */
}

int extract_option(struct extract *ex, const char *opt, const char *arg)
{
	if (strcmp(opt, "metric-file") == 0) {
		if (arg[0] != '/' || strlen(arg) >= sizeof(ex->file) || strchr(arg, '\n'))
			return error("--metric-file '%s': give an absolute path (the file the command writes)", arg);
		snprintf(ex->file, sizeof(ex->file), "%s", arg);
		return 0;
	}
	return extract_add(ex, strcmp(opt, "metric-json") == 0 ? EX_JSON : EX_REGEX, arg,
			   strcmp(opt, "metric-json") == 0 ? "--metric-json" : "--metric-regex");
}
