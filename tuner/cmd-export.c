/* cmd-export.c - `vmtune export`: a profile (or the live settings) as sysctl.d,
 * systemd-tmpfiles, a tuned profile, JSON, YAML, or a POSIX sh script that applies
 * the settings and prints the commands that undo them. */
#include <errno.h>
#include <getopt.h>
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "knob.h"
#include "profile.h"
#include "text.h"
#include "vmtune.h"

static const char export_opts[] = "  -f, --format F   sysctl, tmpfiles, tuned, json, yaml or sh (default sysctl)\n"
				  "  -o, --output FILE  write to FILE instead of standard output\n"
				  "      --current  export the live settings instead of a profile\n";

static const char *sysctl_key(const char *path, char *buf, size_t size)
{
	size_t i;

	snprintf(buf, size, "%s", path + strlen("/proc/sys/"));
	for (i = 0; buf[i]; i++)
		if (buf[i] == '/')
			buf[i] = '.';
	return buf;
}

/* The comment lines at the top. Every string in them came from a file (the
 * profile, its path): escaped to one printable line each, so none can end the
 * comment and start a line of the format. */
static void header(FILE *f, const struct profile *p, const char *source, const char *comment)
{
	char a[1024], b[PATH_MAX * 2], c[1024];

	fprintf(f, "%s vmtune profile %s, exported from %s\n", comment,
		text_safe(p->name[0] ? p->name : "(unnamed)", a, sizeof(a)), text_safe(source, b, sizeof(b)));
	if (p->description[0])
		fprintf(f, "%s %s\n", comment, text_safe(p->description, c, sizeof(c)));
	if (p->evidence.present && p->evidence.metric[0])
		fprintf(f, "%s evidence: %s: %s %+.1f%% (95%% CI %+.1f%% .. %+.1f%%), %s\n", comment,
			text_safe(p->evidence.workload, b, sizeof(b)), text_safe(p->evidence.metric, a, sizeof(a)),
			p->evidence.change_pct, p->evidence.ci_lo, p->evidence.ci_hi,
			p->evidence.significant ? "significant" : "not significant");
}

/* sysctl.d and tmpfiles.d are two halves of one list: each writes its own kind of
 * file as lines and names the other kind in comments. */
static void export_lines(FILE *f, const struct profile *p, const char *src, bool tmpfiles)
{
	struct knob_assignment a[16];
	char key[256];
	int i, j, n;

	header(f, p, src, "#");
	for (i = 0; i < p->nsettings; i++) {
		n = knob_assignments(p->settings[i].def, p->settings[i].value, a, 16);
		for (j = 0; j < n; j++) {
			if (a[j].sysctl && !tmpfiles)
				fprintf(f, "%s = %s\n", sysctl_key(a[j].path, key, sizeof(key)), a[j].value);
			else if (a[j].sysctl)
				fprintf(f, "# a sysctl (use the sysctl export): %s = %s\n",
					sysctl_key(a[j].path, key, sizeof(key)), a[j].value);
			else if (tmpfiles)
				fprintf(f, "w %s - - - - %s\n", a[j].path, a[j].value);
			else
				fprintf(f, "# not a sysctl (use the tmpfiles or tuned export): %s: %s = %s\n",
					p->settings[i].def->name, a[j].path, a[j].value);
		}
	}
}

static void export_tuned(FILE *f, const struct profile *p, const char *src)
{
	struct knob_assignment a[16];
	char key[256], summary[1024];
	int i, j, n;

	header(f, p, src, "#");
	fprintf(f, "\n[main]\nsummary=%s\n",
		text_ini(p->description[0] ? p->description : "vmtune profile", summary, sizeof(summary)));
	fprintf(f, "\n[sysctl]\n");
	for (i = 0; i < p->nsettings; i++) {
		n = knob_assignments(p->settings[i].def, p->settings[i].value, a, 16);
		for (j = 0; j < n; j++)
			if (a[j].sysctl)
				fprintf(f, "%s=%s\n", sysctl_key(a[j].path, key, sizeof(key)), a[j].value);
	}
	fprintf(f, "\n[sysfs]\n");
	for (i = 0; i < p->nsettings; i++) {
		n = knob_assignments(p->settings[i].def, p->settings[i].value, a, 16);
		for (j = 0; j < n; j++)
			if (!a[j].sysctl)
				fprintf(f, "%s=%s\n", a[j].path, a[j].value);
	}
}

static void export_json(FILE *f, const struct profile *p, const char *src)
{
	json_object *o = profile_json(p);

	(void)src;
	fprintf(f, "%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
}

/* POSIX sh: each file's old value is read first; the undo commands are printed
 * at the end. A dirty ratio/bytes pair is undone by writing the member that was
 * non-zero (the kernel refuses 0 for *_bytes). */
static void export_sh(FILE *f, const struct profile *p, const char *src)
{
	struct knob_assignment a[16];
	int i, j, n;

	fprintf(f, "#!/bin/sh\n");
	header(f, p, src, "#");
	fprintf(f,
		"# Applies the settings (as root) and prints the commands that undo them.\n"
		"set -e\n"
		"undo=''\n"
		"old() { v=$(cat \"$1\"); case $v in *\\[*) v=${v#*[}; v=${v%%%%]*};; esac; printf '%%s' \"$v\"; }\n"
		"set_file() { o=$(old \"$1\"); printf '%%s\\n' \"$2\" > \"$1\"; undo=\"echo '$o' > $1\n$undo\"; }\n"
		"set_pair() { # file, value, partner file\n"
		"\to=$(old \"$1\"); po=$(old \"$3\"); printf '%%s\\n' \"$2\" > \"$1\"\n"
		"\tif [ \"$o\" = 0 ]; then undo=\"echo '$po' > $3\n$undo\"; else undo=\"echo '$o' > $1\n$undo\"; fi\n"
		"}\n");
	for (i = 0; i < p->nsettings; i++) {
		const struct knob_def *d = p->settings[i].def;
		n = knob_assignments(p->settings[i].def, p->settings[i].value, a, 16);
		for (j = 0; j < n; j++) {
			if (d->pair)
				fprintf(f, "set_pair %s '%s' %s\n", a[j].path, a[j].value,
					knob_find(d->pair)->paths[0].path);
			else
				fprintf(f, "set_file %s '%s'\n", a[j].path, a[j].value);
		}
	}
	fprintf(f, "printf '# to undo:\\n%%s' \"$undo\"\n");
}

static void export_sysctl(FILE *f, const struct profile *p, const char *src)
{
	export_lines(f, p, src, false);
}

static void export_tmpfiles(FILE *f, const struct profile *p, const char *src)
{
	export_lines(f, p, src, true);
}

/* The formats: a new one is a writer and a row. yaml goes through profile_write. */
static const struct {
	const char *name;
	void (*write)(FILE *f, const struct profile *p, const char *src);
} formats[] = {
	{ "sysctl", export_sysctl },
	{ "tmpfiles", export_tmpfiles },
	{ "tuned", export_tuned },
	{ "json", export_json },
	{ "yaml", NULL },
	{ "sh", export_sh },
};

#define NFORMATS (sizeof(formats) / sizeof(formats[0]))

/* Every knob that is available here, with its live value. */
static void current_profile(struct profile *p)
{
	size_t i;

	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "current");
	snprintf(p->description, sizeof(p->description), "the live settings of this machine");
	for (i = 0; i < knob_catalogue_len && p->nsettings < PROFILE_MAX_SETTINGS; i++) {
		const struct knob_def *d = &knob_catalogue[i];
		struct knob_state st;

		knob_probe(d, &st);
		/* readable is enough: an export writes nothing here (and needs no root) */
		if (!st.have_value || (st.status != KS_AVAILABLE && st.status != KS_READONLY))
			continue;
		/* of a ratio/bytes pair only the member in force */
		if (!knob_in_force(d, st.value))
			continue;
		p->settings[p->nsettings].def = d;
		p->settings[p->nsettings++].value = st.value;
	}
}

int cmd_export(int argc, char **argv)
{
	static const struct option opts[] = { { "help", no_argument, NULL, 'h' },
					      { "format", required_argument, NULL, 'f' },
					      { "output", required_argument, NULL, 'o' },
					      { "current", no_argument, NULL, 'c' },
					      { NULL, 0, NULL, 0 } };
	struct profile p;
	const char *format = "sysctl", *output = NULL, *src;
	bool current = false;
	FILE *f = stdout;
	int c, rc;
	size_t i;

	while ((c = getopt_long(argc, argv, "hf:o:c", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			print_cmd_help("export", export_opts);
			return 0;
		case 'f':
			format = optarg;
			break;
		case 'o':
			output = optarg;
			break;
		case 'c':
			current = true;
			break;
		default:
			return usage_error("export", "unknown option");
		}
	}
	for (i = 0; i < NFORMATS && strcmp(formats[i].name, format); i++)
		;
	if (i == NFORMATS)
		return usage_error("export", "unknown format '%s' (sysctl, tmpfiles, tuned, json, yaml or sh)", format);
	if (current ? optind != argc : optind != argc - 1)
		return usage_error("export",
				   current ? "--current takes no profile" : "name one profile file (or --current)");
	if (current) {
		current_profile(&p);
		src = "the live settings";
	} else {
		if ((rc = profile_load(argv[optind], &p)) != 0)
			return rc;
		src = argv[optind];
	}
	if (!formats[i].write)
		return profile_write(output ? output : "-", &p) < 0 ? EXIT_ENV : 0;
	if (output && !(f = fopen(output, "we"))) {
		error("cannot write '%s': %s", output, strerror(errno));
		return EXIT_ENV;
	}
	formats[i].write(f, &p, src);
	if (output && fclose(f) != 0) {
		error("cannot write '%s': %s", output, strerror(errno));
		return EXIT_ENV;
	}
	if (output && strcmp(format, "sh") == 0)
		chmod(output, 0755);
	return 0;
}
