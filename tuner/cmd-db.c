/* cmd-db.c - `vmtune db export|import|merge`: moving results between stores as JSON
 * lines, one run a line. Runs keep their uuid, so importing or merging the same runs
 * again adds nothing. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "store.h"
#include "vmtune.h"

static const char db_opts[] = "  export [-o FILE]     every run of --db (default STATE/vmtune.db) as JSON lines\n"
			      "  import FILE...       add the runs of JSON-lines files to --db\n"
			      "  merge OUT.db IN.db...  add the runs of other databases to OUT.db\n";

/* Feed every line of f to the store; counts what was added and what was there. */
static int import_stream(struct store *s, FILE *f, const char *name, long *added, long *present)
{
	char *line = NULL, where[PATH_MAX + 32];
	size_t cap = 0;
	ssize_t n;
	long lineno = 0;
	int rc = 0;

	while ((n = getline(&line, &cap, f)) > 0) {
		lineno++;
		if (n == 1 && line[0] == '\n')
			continue;
		snprintf(where, sizeof(where), "%s:%ld", name, lineno);
		switch (store_import_run(s, line, where)) {
		case 1:
			(*added)++;
			break;
		case 0:
			(*present)++;
			break;
		default:
			rc = -1;
		}
		if (rc)
			break;
	}
	free(line);
	return rc;
}

/* 0, EXIT_USAGE (no such file) or EXIT_ENV (it cannot be opened or reached). */
static int open_db(struct store **s, const char *path, bool must_exist)
{
	if (must_exist && !store_exists(path)) {
		error("no database '%s': %s", path, strerror(errno));
		return EXIT_USAGE;
	}
	if (!must_exist && !store_is_url(path) && vt_state_dir_ensure() < 0)
		return EXIT_ENV;
	return store_open(s, path) < 0 ? EXIT_ENV : 0;
}

int cmd_db(int argc, char **argv)
{
	static const struct option opts[] = { { "help", no_argument, NULL, 'h' },
					      { "output", required_argument, NULL, 'o' },
					      { NULL, 0, NULL, 0 } };
	const char *output = NULL, *sub;
	struct store *s;
	long added = 0, present = 0, count;
	int c, i, rc = 0;

	while ((c = getopt_long(argc, argv, "+ho:", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			print_cmd_help("db", db_opts);
			return 0;
		case 'o':
			output = optarg;
			break;
		default:
			return usage_error("db", "unknown option");
		}
	}
	if (optind >= argc)
		return usage_error("db", "name export, import or merge");
	sub = argv[optind++];
	/* options may also follow the subcommand */
	while ((c = getopt_long(argc, argv, "ho:", opts, NULL)) != -1) {
		if (c == 'o')
			output = optarg;
		else if (c == 'h') {
			print_cmd_help("db", db_opts);
			return 0;
		} else
			return usage_error("db", "unknown option");
	}
	if (strcmp(sub, "export") == 0) {
		FILE *f = stdout;
		if (optind != argc)
			return usage_error("db", "export takes no arguments (it reads --db)");
		if ((rc = open_db(&s, vt.db, true)) != 0)
			return rc;
		if (output && !(f = fopen(output, "we"))) {
			store_close(s);
			error("cannot write '%s': %s", output, strerror(errno));
			return EXIT_ENV;
		}
		rc = store_export(s, f, &count) < 0 ? EXIT_ENV : 0;
		if (output && fclose(f) != 0)
			rc = EXIT_ENV;
		store_close(s);
		info("exported %ld run(s) from %s", count, vt.db);
		return rc;
	}
	if (strcmp(sub, "import") == 0) {
		if (optind >= argc)
			return usage_error("db", "import needs one or more files (- for standard input)");
		if ((rc = open_db(&s, vt.db, false)) != 0)
			return rc;
		for (i = optind; i < argc && rc == 0; i++) {
			FILE *f = strcmp(argv[i], "-") == 0 ? stdin : fopen(argv[i], "re");
			if (!f) {
				error("cannot read '%s': %s", argv[i], strerror(errno));
				rc = EXIT_USAGE;
				break;
			}
			if (import_stream(s, f, argv[i], &added, &present) < 0)
				rc = EXIT_USAGE;
			if (f != stdin)
				fclose(f);
		}
		store_close(s);
		info("imported %ld run(s) into %s; %ld were there already", added, vt.db, present);
		return rc;
	}
	if (strcmp(sub, "merge") == 0) {
		if (argc - optind < 2)
			return usage_error("db", "merge needs OUT.db and one or more IN.db");
		if ((rc = open_db(&s, argv[optind], false)) != 0)
			return rc;
		for (i = optind + 1; i < argc && rc == 0; i++) {
			struct store *in;
			char *buf = NULL;
			size_t len = 0;
			FILE *mem;

			if ((rc = open_db(&in, argv[i], true)) != 0)
				break;
			mem = open_memstream(&buf, &len);
			if (!mem || store_export(in, mem, &count) < 0) {
				rc = EXIT_ENV;
			} else {
				fclose(mem);
				mem = fmemopen(buf, len, "r");
				if (!mem || import_stream(s, mem, argv[i], &added, &present) < 0)
					rc = EXIT_ENV;
			}
			if (mem)
				fclose(mem);
			free(buf);
			store_close(in);
		}
		store_close(s);
		info("merged %ld run(s) into %s; %ld were there already", added, argv[optind], present);
		return rc;
	}
	return usage_error("db", "unknown subcommand '%s' (export, import or merge)", sub);
}
