/* main.c - the command table, global options (--root, --state-dir, --db, -q, -v,
 * --json) and dispatch. Commands live in tuner/cmd-*.c, one entry point each. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroup.h"
#include "commands.h"
#include "journal.h"
#include "machine.h"
#include "workload.h"
#include "swap.h"
#include "tools.h"
#include "vmtune.h"

static const struct cmd_entry commands[] = {
	{ "knobs", cmd_knobs, "[--json]", "list every knob: value, default, search range, path, status" },
	{ "get", cmd_get, "KNOB... [--json]", "print knob values" },
	{ "set", cmd_set, "KNOB=VALUE...", "change knobs (journalled; 'vmtune restore' undoes)" },
	{ "run", cmd_run,
	  "--workload SPEC | --mix FILE [--runs N] [--memory-limit SIZE] [--swap SWAP [--zswap]] "
	  "[--set KNOB=VALUE]... [--probe SPEC] [--timeout D] [--json]",
	  "measure workloads, seed-style averages with a 95% CI" },
	{ "search", cmd_search,
	  "--workload SPEC | --mix FILE [--knobs LIST] [--trials N] [--time D] [--strategy bo|random|grid] "
	  "[--probe SPEC] [--objective throughput|interactive|balanced] [--require COND] [--out FILE] "
	  "[--apply] [--memory-limit SIZE --swap SWAP [--zswap]] [--dry-run] [--resume RUN] [--warm-start]",
	  "search the knobs for the best settings of a workload; writes a profile" },
	{ "report", cmd_report, "[RUN|PROFILE] [--html FILE] [--json]",
	  "a stored run (the latest by default), as text or an HTML page of charts; or what a profile holds" },
	{ "runs", cmd_runs, "[--json]", "the runs in the results store, newest first" },
	{ "apply", cmd_apply, "PROFILE [--dry-run] [--force] | --boot",
	  "apply a profile (journalled, read back, rolled back on failure); --dry-run reports" },
	{ "verify", cmd_verify, "PROFILE | --measure PROFILE [--workload SPEC...]",
	  "compare the live settings with a profile (exit 1 on drift), or measure its gain again" },
	{ "export", cmd_export, "PROFILE|--current [--format sysctl|tmpfiles|tuned|json|yaml|sh] [-o FILE]",
	  "a profile as sysctl.d, tmpfiles.d, tuned, JSON, YAML or a sh script" },
	{ "install-boot", cmd_install_boot, "PROFILE [--dry-run] [--force] | --remove",
	  "apply a profile at every boot (systemd unit after systemd-sysctl)" },
	{ "machine", cmd_machine, "[--json]", "this machine's fingerprint: memory, swap devices, CPUs, kernel, THP" },
	{ "db", cmd_db, "export [-o FILE] | import FILE... | merge OUT.db IN.db...",
	  "move search results between stores (JSON lines; idempotent by run)" },
	{ "recommend", cmd_recommend,
	  "[--workload SPEC... | --mix FILE] [--objective O] [--knobs LIST] [--db FILE]... [--out FILE] [--explain]",
	  "settings for this machine from every stored trial (a model over knobs and machines)" },
	{ "restore", cmd_restore, "", "put back everything vmtune changed (knobs, swapfile, cgroups)" },
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static const char global_help[] =
    "global options:\n"
    "  --root DIR        resolve every knob path under DIR (env VMTUNE_ROOT); nothing outside DIR is written\n"
    "  --state-dir DIR   journal, lock and temporary swapfile (default /var/lib/vmtune as root)\n"
    "  --db FILE|URI     results store: a SQLite file (default STATE/vmtune.db) or postgresql://...;\n"
    "                    recommend and search --warm-start pool every --db given\n"
    "  --machine FILE    take the machine fingerprint from FILE ('vmtune machine --json' of another\n"
    "                    machine): recommend for it, or simulate it with --root\n"
    "  -q, --quiet       only errors\n"
    "  -v, --verbose     more detail (and the workloads' own output)\n"
    "  --json            machine-readable output where a command supports it\n"
    "  --version         print the version\n";

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: vmtune [global options] COMMAND [ARGS]\n\n"
		   "vmtune tunes Linux virtual-memory settings by measuring workloads under them.\n\ncommands:\n");
	for (i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].summary);
	fprintf(f,
		"\n%s\n'vmtune COMMAND --help' describes a command; exit codes: 0 ok, 1 check failed,\n"
		"2 usage or input error, 3 environment (not root, knob missing, no cgroup), 4 internal.\n",
		global_help);
}

static const struct cmd_entry *find_command(const char *name)
{
	const struct cmd_entry *hit = NULL;
	size_t i, len = strlen(name);
	int matches = 0;
	char list[256] = "";

	for (i = 0; i < NCOMMANDS; i++) {
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
		if (strncmp(commands[i].name, name, len) == 0) {
			hit = &commands[i];
			matches++;
			strncat(list, matches > 1 ? ", " : "", sizeof(list) - strlen(list) - 1);
			strncat(list, commands[i].name, sizeof(list) - strlen(list) - 1);
		}
	}
	if (matches == 1)
		return hit;
	if (matches > 1)
		error("ambiguous command '%s', could be: %s", name, list);
	else
		error("unknown command '%s' (see 'vmtune --help')", name);
	return NULL;
}

void print_cmd_help(const char *cmd, const char *options)
{
	const struct cmd_entry *c = find_command(cmd);

	printf("usage: vmtune %s %s\n\n%s\n", c->name, c->args, c->summary);
	if (options && *options)
		printf("\noptions:\n%s", options);
	if (options && strstr(options, "--workload")) {
		int i;
		printf("\nbuilt-in workloads (SPEC is a NAME and its options), or exec:CMD for any program:\n");
		for (i = 0; workload_builtins[i].name; i++)
			printf("  %-10s %s\n", workload_builtins[i].name, workload_builtins[i].summary);
		printf("\ntools (SPEC is TOOL: and the tool's own options; --metric one of its metrics, + higher is\n"
		       "better, - lower; each also per job or test as NAME.METRIC; the first is the default):\n");
		for (i = 0; tools[i].name; i++) {
			char m[512];
			printf("  %-10s %s\n  %-10s metrics: %s\n", tools[i].name, tools[i].summary, "",
			       tool_metrics(&tools[i], m, sizeof(m)));
		}
	}
	printf("\n%s", global_help);
}

int usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	const struct cmd_entry *c = find_command(cmd);

	fprintf(stderr, "vmtune %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nusage: vmtune %s %s\n", c->name, c->args);
	return EXIT_USAGE;
}

/* Global options may stand before or after the command; take them out of argv. */
static int take_global(int *argcp, char **argv, char *root, size_t rootlen)
{
	int argc = *argcp, i, j = 1;
	bool dashdash = false;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *val = NULL;
		const char *names[] = { "--root", "--state-dir", "--db", "--machine" };
		int k, which = -1;

		if (dashdash || strcmp(a, "--") == 0) {
			dashdash = true;
			argv[j++] = argv[i];
			continue;
		}
		for (k = 0; k < 4; k++) {
			size_t n = strlen(names[k]);
			if (strncmp(a, names[k], n) == 0 && (a[n] == '\0' || a[n] == '=')) {
				which = k;
				if (a[n] == '=')
					val = a + n + 1;
				else if (i + 1 < argc)
					val = argv[++i];
				else
					return error("option '%s' needs a value", names[k]);
			}
		}
		if (which == 0)
			snprintf(root, rootlen, "%s", val);
		else if (which == 1)
			snprintf(vt.state_dir, sizeof(vt.state_dir), "%s", val);
		else if (which == 2) {
			if (vt.ndbs == 0)
				snprintf(vt.db, sizeof(vt.db), "%s", val);
			if (vt.ndbs < 16)
				vt.dbs[vt.ndbs++] = val;
		} else if (which == 3) {
			if (machine_override(val) != 0)
				return -1;
		} else if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0)
			vt.quiet = 1;
		else if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0)
			vt.verbose++;
		else if (strcmp(a, "--json") == 0)
			vt.json = 1;
		else
			argv[j++] = argv[i];
	}
	argv[j] = NULL;
	*argcp = j;
	return 0;
}

static int setup_paths(const char *root)
{
	struct stat sb;
	const char *home;

	if (root[0]) {
		if (!realpath(root, vt.root) || stat(vt.root, &sb) < 0 || !S_ISDIR(sb.st_mode)) {
			error("--root '%s': not a directory", root);
			return EXIT_USAGE;
		}
		if (strcmp(vt.root, "/") == 0)
			vt.root[0] = '\0';
	}
	if (!vt.state_dir[0]) {
		if (!vt_live())
			snprintf(vt.state_dir, sizeof(vt.state_dir), "%s/var/lib/vmtune", vt.root);
		else if (geteuid() == 0)
			snprintf(vt.state_dir, sizeof(vt.state_dir), "/var/lib/vmtune");
		else if ((home = getenv("XDG_STATE_HOME")) && *home)
			snprintf(vt.state_dir, sizeof(vt.state_dir), "%s/vmtune", home);
		else
			snprintf(vt.state_dir, sizeof(vt.state_dir), "%s/.local/state/vmtune",
				 (home = getenv("HOME")) ? home : "/tmp");
	}
	if (!vt.db[0])
		snprintf(vt.db, sizeof(vt.db), "%s/vmtune.db", vt.state_dir);
	if (vt.ndbs == 0)
		vt.dbs[vt.ndbs++] = vt.db;
	return 0;
}

int main(int argc, char **argv)
{
	const struct cmd_entry *c;
	char root[PATH_MAX] = "";
	const char *env = getenv("VMTUNE_ROOT");
	int rc;

	if (env)
		snprintf(root, sizeof(root), "%s", env);
	if (take_global(&argc, argv, root, sizeof(root)) < 0)
		return EXIT_USAGE;
	log_setup(vt.verbose, vt.quiet);
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return 0;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
		printf("vmtune %s\n", VMTUNE_VERSION);
		return 0;
	}
	if (argv[1][0] == '-') {
		error("unknown option '%s' (see 'vmtune --help')", argv[1]);
		return EXIT_USAGE;
	}
	if (!(c = find_command(argv[1])))
		return EXIT_USAGE;
	if ((rc = setup_paths(root)) != 0)
		return rc;
	/* what the journal may have to undo besides knobs */
	journal_register(&cgroup_journal_kind);
	journal_register(&swap_journal_kind);
	journal_register(&zram_journal_kind);
	journal_register(&tool_data_journal_kind);
	if (c->fn != cmd_restore)
		journal_warn_stale();
	rc = c->fn(argc - 1, argv + 1);
	progress_clear();
	if (session_end() < 0 && rc == 0)
		rc = EXIT_ENV;
	fflush(stdout);
	return rc;
}
