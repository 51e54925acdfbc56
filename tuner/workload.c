/* workload.c - resolves workload specs: built-in programs live next to the vmtune
 * binary, in $VMTUNE_WORKLOAD_DIR, or in PREFIX/libexec/vmtune beside PREFIX/bin;
 * anything else runs as exec:CMD through /bin/sh. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wordexp.h>

#include "extract.h"
#include "tools.h"
#include "vmtune.h"
#include "workload.h"

#ifndef WORKLOAD_DIR
#define WORKLOAD_DIR "/usr/local/libexec/vmtune"
#endif

const struct workload_info workload_builtins[] = {
#define WORKLOAD(name, metric, maximize, opts, summary) { #name, metric, maximize, summary, opts },
#include "workloads.def"
#undef WORKLOAD
	{ NULL, NULL, false, NULL, NULL },
};

const char *workload_alias(const char *spec)
{
	return strcmp(spec, "mtest01") == 0 ? "mtest01 -p 80 -w" : spec;
}

const struct workload_info *workload_find(const char *name)
{
	int i;

	for (i = 0; workload_builtins[i].name; i++)
		if (strcmp(workload_builtins[i].name, name) == 0)
			return &workload_builtins[i];
	return NULL;
}

static int builtin_path(const char *name, char *out, size_t size)
{
	char dir[PATH_MAX];
	const char *env = getenv("VMTUNE_WORKLOAD_DIR");

	if (env && *env) {
		snprintf(out, size, "%s/%s", env, name);
		if (access(out, X_OK) == 0)
			return 0;
	}
	if (vt_exe_dir(dir, sizeof(dir))) {
		/* next to vmtune (the build tree), or PREFIX/libexec/vmtune for PREFIX/bin/vmtune */
		snprintf(out, size, "%s/%s", dir, name);
		if (access(out, X_OK) == 0)
			return 0;
		snprintf(out, size, "%s/../libexec/vmtune/%s", dir, name);
		if (access(out, X_OK) == 0)
			return 0;
	}
	snprintf(out, size, "%s/%s", WORKLOAD_DIR, name);
	return access(out, X_OK) == 0 ? 0 : -1;
}

void workload_argv_free(char **argv)
{
	int i;

	for (i = 0; argv && argv[i]; i++)
		free(argv[i]);
	free(argv);
}

int workload_argv(const char *spec, char ***argvp, char *name, size_t namelen)
{
	wordexp_t we;
	char **argv, path[PATH_MAX];
	size_t i;
	int r;

	const struct tool *t;
	const char *cmd = spec + 5, *args;
	struct extract ex;

	if ((t = tool_of(spec, &args))) {
		if (tool_check(t, args) < 0 || tool_binary(t, path, sizeof(path)) < 0)
			return -1;
		argv = calloc(2, sizeof(*argv));
		if (!argv || !(argv[0] = strdup(path))) {
			free(argv);
			return error("out of memory");
		}
		snprintf(name, namelen, "%s", t->name);
		*argvp = argv;
		return 0;
	}
	if ((r = extract_from_spec(spec, &ex, &cmd)) < 0)
		return -1;
	if (r == 1 || strncmp(spec, "exec:", 5) == 0) {
		if (cmd[0] == '\0')
			return error("workload 'exec:' names no command");
		argv = calloc(4, sizeof(*argv));
		if (!argv)
			return error("out of memory");
		argv[0] = strdup("/bin/sh");
		argv[1] = strdup("-c");
		argv[2] = strdup(cmd);
		snprintf(name, namelen, "exec");
		*argvp = argv;
		return 0;
	}
	r = wordexp(spec, &we, WRDE_NOCMD);
	if (r != 0 || we.we_wordc == 0) {
		if (r == 0)
			wordfree(&we);
		return error("workload '%s' cannot be split into words (unbalanced quotes or $(...)?)", spec);
	}
	if (!workload_find(we.we_wordv[0])) {
		int k;
		char list[256] = "";
		for (k = 0; workload_builtins[k].name; k++) {
			strncat(list, k ? ", " : "", sizeof(list) - strlen(list) - 1);
			strncat(list, workload_builtins[k].name, sizeof(list) - strlen(list) - 1);
		}
		char tl[128] = "", want[80];
		for (k = 0; tools[k].name; k++)
			snprintf(tl + strlen(tl), sizeof(tl) - strlen(tl), "%s%s:", k ? ", " : "", tools[k].name);
		snprintf(want, sizeof(want), "%s:", we.we_wordv[0]);
		if (tool_of(want, NULL))
			error("unknown workload '%s': the tool's workload is '%s:' and its options (%s:%s)",
			      we.we_wordv[0], we.we_wordv[0], we.we_wordv[0], spec + strlen(we.we_wordv[0]));
		else
			error("unknown workload '%s' (built-in: %s; tools: %s, each with the tool's own options; or "
			      "exec:CMD for any program)",
			      we.we_wordv[0], list, tl);
		wordfree(&we);
		return -1;
	}
	if (builtin_path(we.we_wordv[0], path, sizeof(path)) < 0) {
		error("workload program '%s' not found next to vmtune, in $VMTUNE_WORKLOAD_DIR or in %s; run 'make'",
		      we.we_wordv[0], WORKLOAD_DIR);
		wordfree(&we);
		return -1;
	}
	argv = calloc(we.we_wordc + 1, sizeof(*argv));
	if (!argv) {
		wordfree(&we);
		return error("out of memory");
	}
	snprintf(name, namelen, "%s", we.we_wordv[0]);
	argv[0] = strdup(path);
	for (i = 1; i < we.we_wordc; i++)
		argv[i] = strdup(we.we_wordv[i]);
	wordfree(&we);
	*argvp = argv;
	return 0;
}

/* One word of the canonical form: as it is when the shell would read it back as
 * itself, else in single quotes. */
static void put_word(char *out, size_t size, const char *w)
{
	size_t n = strlen(out);
	bool plain = *w != '\0';
	const char *c;

	for (c = w; *c && plain; c++)
		plain = isalnum((unsigned char)*c) || strchr("-_./:=%+,@", *c);
	if (plain) {
		snprintf(out + n, size - n, "%s%s", n ? " " : "", w);
		return;
	}
	snprintf(out + n, size - n, "%s'", n ? " " : "");
	for (c = w; *c; c++) {
		n = strlen(out);
		snprintf(out + n, size - n, *c == '\'' ? "'\\''" : "%c", *c);
	}
	n = strlen(out);
	snprintf(out + n, size - n, "'");
}

void workload_canonical(const char *spec, char *out, size_t size)
{
	struct word_opt {
		char opt;
		const char *arg;
	} o[64];
	const char *operand[64];
	const struct workload_info *wi;
	wordexp_t we;
	size_t i, no = 0, nv = 0;
	bool ok = true, only_operands = false;

	spec = workload_alias(spec);
	snprintf(out, size, "%s", spec);
	if (strncmp(spec, "exec:", 5) == 0 || wordexp(spec, &we, WRDE_NOCMD) != 0)
		return;
	if (we.we_wordc == 0 || !(wi = workload_find(we.we_wordv[0]))) {
		wordfree(&we);
		return;
	}
	/* getopt's reading: options anywhere (it permutes), clusters such as -wv,
	 * an argument joined (-s600M) or in the next word, operands after -- */
	for (i = 1; i < we.we_wordc && ok; i++) {
		const char *w = we.we_wordv[i], *c;

		if (only_operands || w[0] != '-' || w[1] == '\0') {
			ok = nv < 64;
			if (ok)
				operand[nv++] = w;
			continue;
		}
		if (strcmp(w, "--") == 0) {
			only_operands = true;
			continue;
		}
		for (c = w + 1; *c && ok; c++) {
			const char *d = *c == ':' ? NULL : strchr(wi->opts, *c);

			ok = d && no < 64;
			if (!ok)
				break;
			o[no].opt = *c;
			o[no].arg = NULL;
			if (d[1] == ':') {
				if (c[1])
					o[no].arg = c + 1;
				else if (i + 1 < we.we_wordc)
					o[no].arg = we.we_wordv[++i];
				else
					ok = false;
				no++;
				break;
			}
			no++;
		}
	}
	if (ok) {
		/* options by letter, a repeated one in the order given; then the operands */
		for (i = 1; i < no; i++)
			for (size_t j = i; j > 0 && o[j - 1].opt > o[j].opt; j--) {
				struct word_opt t = o[j];
				o[j] = o[j - 1];
				o[j - 1] = t;
			}
		out[0] = '\0';
		put_word(out, size, we.we_wordv[0]);
		for (i = 0; i < no; i++) {
			char flag[3] = { '-', o[i].opt, '\0' };
			put_word(out, size, flag);
			if (o[i].arg)
				put_word(out, size, o[i].arg);
		}
		for (i = 0; i < nv; i++)
			put_word(out, size, operand[i]);
	}
	wordfree(&we);
}

bool workload_same(const char *a, const char *b)
{
	char ca[1024], cb[1024];

	if (strcmp(a, b) == 0)
		return true;
	workload_canonical(a, ca, sizeof(ca));
	workload_canonical(b, cb, sizeof(cb));
	return strcmp(ca, cb) == 0;
}
