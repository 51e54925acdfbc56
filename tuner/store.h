/* store.h - the results database (SQLite): runs, trials, measurements. */
#ifndef VMTUNE_STORE_H
#define VMTUNE_STORE_H

#include <stdbool.h>
#include <stdio.h>

#include "runner.h"

#define STORE_SCHEMA_VERSION 1

struct store;

/* path is a SQLite file, or a PostgreSQL connection URI (postgresql://...): the
 * same tables in both, so a fleet can write into one database at once. */
int store_open(struct store **sp, const char *path);
bool store_is_url(const char *path);
/* A URI, or a file that is there (a store is not created by reading it). */
bool store_exists(const char *path);
void store_close(struct store *s);
long store_run_begin(struct store *s, const char *config_json, const char *machine_json);
int store_run_finish(struct store *s, long run, const char *status, const char *result_json);
long store_trial_add(struct store *s, long run, int seq, const char *kind, const char *settings_json, double score,
		     bool failed);
int store_trial_delete(struct store *s, long trial);
int store_trial_score(struct store *s, long trial, double score, bool failed);
/* The same for n trials at once, in one transaction: all or none. */
int store_trial_scores(struct store *s, int n, const long *trial, const double *score, const bool *failed);
int store_measurement_add(struct store *s, long trial, const char *workload, const struct run_result *r, double metric);
/* The config a run was started with; caller frees. NULL if there is no such run. */
char *store_run_config(struct store *s, long run, char *status, size_t statuslen);

/* Walk a run's trials in order: kind, settings JSON, failed, and the metric of
 * each measurement (in the order they were added). */
typedef int (*store_trial_cb)(void *arg, long trial_id, int seq, const char *kind, const char *settings_json,
			      bool failed, const double *metrics, const double *inter, const double *played,
			      int nmetrics);
int store_trials_each(struct store *s, long run, store_trial_cb cb, void *arg);
/* Every run: its id, uuid, status and the machine and config JSON texts. */
typedef int (*store_run_cb)(void *arg, long id, const char *uuid, const char *status, const char *machine_json,
			    const char *config_json);
int store_runs_each(struct store *s, store_run_cb cb, void *arg);
/* A run's trials as scored: kind, settings JSON, score (the cost relative to the
 * run's own baselines; NAN when unscored) and whether it failed. */
typedef int (*store_score_cb)(void *arg, long trial_id, const char *kind, const char *settings_json, double score,
			      bool failed);
int store_scores_each(struct store *s, long run, store_score_cb cb, void *arg);
/* A run as `vmtune runs` and `report` show it. The texts are the store's (hostile
 * until checked); finished and result are NULL while it has none. */
struct store_run {
	long id;
	const char *uuid, *status, *started, *finished, *machine, *config, *result;
	long trials, failed; /* trial rows, and those that failed */
};
typedef int (*store_run_info_cb)(void *arg, const struct store_run *r);
/* The runs newest first, or (run > 0) that run only. */
int store_runs_info(struct store *s, long run, store_run_info_cb cb, void *arg);
/* The id of the run with that uuid, 0 if none, -1 on error. */
long store_run_by_uuid(struct store *s, const char *uuid);
/* The uuid of run id into buf (33 bytes or more); 0, or -1 on error or no such run. */
int store_run_uuid(struct store *s, long id, char *buf, size_t size);
/* Every measurement of a run in order, with its trial and the series the sampler
 * took while it ran (JSON text, NULL if none was kept). */
struct store_meas {
	long id, trial_id;
	int seq;
	const char *kind, *settings, *workload, *outcome, *series;
	bool failed; /* the trial's */
	double metric, user, sys, elapsed, p99_ms, played;
	long majflt, minflt;
};
typedef int (*store_meas_cb)(void *arg, const struct store_meas *m);
int store_measurements_each(struct store *s, long run, store_meas_cb cb, void *arg);
/* Mean wall time of the stored successful runs of a workload (0 when none). */
double store_mean_run_seconds(struct store *s, const char *spec, long *n);

/* Every run with its trials and measurements as JSON lines; *count gets the runs. */
int store_export(struct store *s, FILE *out, long *count);
/* One line of such an export into this store; 1 added, 0 already there (same run
 * uuid), -1 on error. where names the line for messages. */
int store_import_run(struct store *s, const char *line, const char *where);

#endif
