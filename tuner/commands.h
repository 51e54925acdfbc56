/* commands.h - one entry point per command (tuner/cmd-*.c) and the table in main.c. */
#ifndef VMTUNE_COMMANDS_H
#define VMTUNE_COMMANDS_H

struct cmd_entry {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *args;
	const char *summary;
};

int cmd_knobs(int argc, char **argv);
int cmd_get(int argc, char **argv);
int cmd_set(int argc, char **argv);
int cmd_restore(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_search(int argc, char **argv);
struct search_opts;
/* The search options' defaults with the global options (--db, --state-dir, --root,
 * -q, -v) filled in: what search and verify --measure start from. */
void search_opts_global(struct search_opts *o);
int cmd_report(int argc, char **argv);
int cmd_runs(int argc, char **argv);
int cmd_apply(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_install_boot(int argc, char **argv);
int cmd_machine(int argc, char **argv);
int cmd_db(int argc, char **argv);
int cmd_recommend(int argc, char **argv);

/* Shared by commands: print usage for a command, handle --help. */
int usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void print_cmd_help(const char *cmd, const char *options);

#endif
