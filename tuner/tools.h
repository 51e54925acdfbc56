/* tools.h - the workloads of tools people already run: fio, stress-ng, sysbench,
 * and the servers Redis and PostgreSQL (pgbench), each a spec "TOOL:ITS OPTIONS".
 * The tool's own numbers are read from its machine-readable output; a server runs
 * inside the run's memory cgroup (the client outside it), its data built once per
 * process and kept out of the measured time, and journalled so that nothing is
 * left behind on any exit path. */
#ifndef VMTUNE_TOOLS_H
#define VMTUNE_TOOLS_H

#include <stdbool.h>
#include <stddef.h>

#include "cgroup.h"
#include "journal.h"
#include "runner.h"

struct tool {
	const char *name;    /* the spec's prefix, before ':' */
	const char *package; /* the Debian package(s) it needs */
	const char *binary;  /* the client program, looked up in PATH */
	const char *metric;  /* the primary metric */
	const char *summary;
	bool server;
};

extern const struct tool tools[];

/* The tool of a spec "NAME:..." (NULL when it is no tool's); *args points at what
 * follows the ':'. */
const struct tool *tool_of(const char *spec, const char **args);
/* The client's path in PATH into out: 0, or -1 with the package to install said. */
int tool_binary(const struct tool *t, char *out, size_t size);
/* Does the tool report metric name, and which way is better? (a name the tool
 * reports per job or per test, "JOB.read_iops", has its base name's direction)
 * 0, or -1 with the tool's metrics listed. */
int tool_metric(const struct tool *t, const char *name, bool *maximize);
/* Its metrics, "iops+ read_iops+ ... read_clat_p99_ms-" ('+': higher is better). */
const char *tool_metrics(const struct tool *t, char *buf, size_t size);
/* The spec's options checked without running anything (the ones vmtune sets
 * itself refused, a server's data options read): 0, or -1 with the reason. */
int tool_check(const struct tool *t, const char *args);

/* One run of a tool: tool_begin builds its data once (per process and spec),
 * starts its server in cg (when it has one) and waits until it answers, and gives
 * the client's argv, and whether the client goes into cg too; tool_end reads the
 * tool's numbers out of what the client printed (out[0..len)) into res, and stops
 * the server. -1 with the reason said (and res->note set by tool_end). */
struct tool_run;
int tool_begin(const char *spec, const struct cgroup *cg, double timeout, struct tool_run **tr, char ***argv,
	       bool *client_in_cgroup);
int tool_end(struct tool_run *tr, const char *out, size_t len, struct run_result *res);

/* Read a tool's numbers into res->values out of what its client printed (out,
 * NUL-terminated) and, for stress-ng its --yaml file, for pgbench the directory
 * of its per-transaction log (file): 0, or -1 with res->note saying what was
 * missing. (tool_end's reader; the unit tests feed it the tools' real output.) */
int tool_parse(const struct tool *t, const char *out, size_t len, const char *file, struct run_result *res);

/* A tool's data directory and its server: made by tool_begin, removed (the
 * server stopped first) when the command ends or by `vmtune restore`. */
extern const struct journal_kind tool_data_journal_kind;

#endif
