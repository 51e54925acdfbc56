/* test_store.c - the SQLite results store on a real file: a run's trials and
 * measurements come back as written, a cut-short trial shows as such, scores are
 * updated in place, export/import is idempotent by uuid, a damaged line is
 * refused, and the file passes integrity_check throughout. */
#include <math.h>
#include <sqlite3.h>

#include "testutil.h"
#include "store.h"

static char path[PATH_MAX];
static FILE *devnull;

static int setup(void **state)
{
	(void)state;
	snprintf(path, sizeof(path), "/tmp/vmtune-unit-store-XXXXXX");
	int fd = mkstemp(path);
	if (fd < 0)
		return -1;
	close(fd);
	unlink(path); /* store_open makes it */
	log_setup(0, true);
	log_to(devnull);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(path);
	log_to(NULL);
	return 0;
}

static struct run_result result(double elapsed, double value)
{
	struct run_result r;

	memset(&r, 0, sizeof(r));
	r.outcome = RUN_OK;
	r.elapsed = elapsed;
	r.nvalues = 1;
	snprintf(r.values[0].name, sizeof(r.values[0].name), "value");
	r.values[0].value = value;
	return r;
}

struct seen {
	int n, last_seq, kinds[3];
	double metric[8];
	int nmetrics[8];
	bool failed[8];
};

static int each(void *arg, long trial_id, int seq, const char *kind, const char *settings_json, bool failed,
		const double *metrics, const double *inter, const double *played, int nmetrics)
{
	struct seen *s = arg;

	(void)trial_id, (void)inter, (void)played;
	assert_true(s->n == 0 || seq > s->last_seq); /* in order */
	s->last_seq = seq;
	assert_non_null(strstr(settings_json, "vm.page-cluster"));
	s->kinds[strcmp(kind, "baseline") == 0 ? 0 : strcmp(kind, "candidate") == 0 ? 1 : 2]++;
	s->metric[s->n] = nmetrics ? metrics[0] : NAN;
	s->nmetrics[s->n] = nmetrics;
	s->failed[s->n] = failed;
	s->n++;
	return 0;
}

static const char *integrity(void)
{
	static char out[64];
	sqlite3 *db;
	sqlite3_stmt *st;

	assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	snprintf(out, sizeof(out), "%s", (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	sqlite3_close(db);
	return out;
}

static void trials_come_back_as_written(void **state)
{
	struct store *s;
	struct seen seen = { 0 };
	struct run_result r;
	long run, t[4];
	char status[32];
	char *cfg;

	(void)state;
	assert_int_equal(store_open(&s, path), 0);
	run = store_run_begin(s, "{\"knobs\":[\"vm.page-cluster\"]}", "{\"hostname\":\"h\"}");
	assert_true(run > 0);
	t[0] = store_trial_add(s, run, 0, "baseline", "{\"vm.page-cluster\":3}", 1, false);
	t[1] = store_trial_add(s, run, 1, "candidate", "{\"vm.page-cluster\":5}", NAN, false);
	t[2] = store_trial_add(s, run, 2, "candidate", "{\"vm.page-cluster\":0}", NAN, false);
	t[3] = store_trial_add(s, run, 3, "repeat", "{\"vm.page-cluster\":5}", NAN, false);
	r = result(2.5, 10);
	assert_int_equal(store_measurement_add(s, t[0], "mtest01", &r, 10), 0);
	r = result(2.0, 8);
	assert_int_equal(store_measurement_add(s, t[1], "mtest01", &r, 8), 0);
	r = result(0, 0);
	r.outcome = RUN_OOM;
	assert_int_equal(store_measurement_add(s, t[2], "mtest01", &r, NAN), 0);
	assert_int_equal(store_trial_score(s, t[1], 0.8, false), 0);
	assert_int_equal(store_trial_score(s, t[2], 3, true), 0);
	/* t[3] was cut short: no measurement, no score */
	assert_int_equal(store_trials_each(s, run, each, &seen), 0);
	assert_int_equal(seen.n, 4);
	assert_int_equal(seen.kinds[0], 1);
	assert_int_equal(seen.kinds[1], 2);
	assert_int_equal(seen.kinds[2], 1);
	assert_true(seen.metric[0] == 10 && seen.metric[1] == 8);
	assert_true(isnan(seen.metric[2]) && seen.failed[2]); /* an OOM kill: failed, no metric */
	assert_int_equal(seen.nmetrics[3], 0);		      /* --resume measures it again */
	cfg = store_run_config(s, run, status, sizeof(status));
	assert_non_null(cfg);
	assert_string_equal(status, "running");
	assert_string_equal(cfg, "{\"knobs\":[\"vm.page-cluster\"]}");
	free(cfg);
	assert_int_equal(store_run_finish(s, run, "done", "{\"significant\":false}"), 0);
	cfg = store_run_config(s, run, status, sizeof(status));
	assert_string_equal(status, "done");
	free(cfg);
	assert_null(store_run_config(s, run + 1, status, sizeof(status)));
	/* a deleted trial (half a trial after Ctrl-C) is gone with its measurements */
	assert_int_equal(store_trial_delete(s, t[1]), 0);
	memset(&seen, 0, sizeof(seen));
	assert_int_equal(store_trials_each(s, run, each, &seen), 0);
	assert_int_equal(seen.n, 3);
	assert_true(seen.metric[0] == 10 && isnan(seen.metric[1]));
	store_close(s);
	assert_string_equal(integrity(), "ok");
}

static void export_and_import_are_idempotent(void **state)
{
	struct store *s, *s2;
	char *buf = NULL, line[1 << 16];
	size_t len = 0;
	long run, t, count;
	FILE *f;
	struct run_result r = result(1.5, 7);
	char other[PATH_MAX];

	(void)state;
	assert_int_equal(store_open(&s, path), 0);
	run = store_run_begin(s, "{\"knobs\":[\"vm.page-cluster\"]}", "{\"hostname\":\"h\"}");
	t = store_trial_add(s, run, 0, "baseline", "{\"vm.page-cluster\":3}", 1, false);
	store_measurement_add(s, t, "mtest01", &r, 7);
	store_run_finish(s, run, "done", NULL);
	f = open_memstream(&buf, &len);
	assert_int_equal(store_export(s, f, &count), 0);
	fclose(f);
	assert_int_equal(count, 1);
	assert_non_null(strchr(buf, '\n'));
	snprintf(line, sizeof(line), "%.*s", (int)(strchr(buf, '\n') - buf), buf);
	/* into the same store: already there */
	assert_int_equal(store_import_run(s, line, "x:1"), 0);
	store_close(s);
	/* into another: added once, then already there, and exported the same */
	snprintf(other, sizeof(other), "%s-2", path);
	unlink(other);
	assert_int_equal(store_open(&s2, other), 0);
	assert_int_equal(store_import_run(s2, line, "x:1"), 1);
	assert_int_equal(store_import_run(s2, line, "x:1"), 0);
	{
		char *buf2 = NULL;
		size_t len2 = 0;
		FILE *f2 = open_memstream(&buf2, &len2);
		assert_int_equal(store_export(s2, f2, &count), 0);
		fclose(f2);
		assert_int_equal(count, 1);
		assert_string_equal(buf2, buf);
		free(buf2);
	}
	free(buf);
	buf = NULL;
	/* damaged lines are refused and add nothing */
	assert_int_equal(store_import_run(s2, "{\"uuid\": 5}", "x:2"), -1);
	assert_int_equal(store_import_run(s2, "not json", "x:3"), -1);
	assert_int_equal(store_import_run(s2, "{\"uuid\":\"abc\",\"trials\":[{\"kind\":7}]}", "x:4"), -1);
	f = open_memstream(&buf, &len);
	store_export(s2, f, &count);
	fclose(f);
	assert_int_equal(count, 1);
	store_close(s2);
	unlink(other);
	free(buf);
	assert_string_equal(integrity(), "ok");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(trials_come_back_as_written, setup, teardown),
		cmocka_unit_test_setup_teardown(export_and_import_are_idempotent, setup, teardown),
	};
	int rc;

	devnull = fopen("/dev/null", "w");
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	fclose(devnull);
	return rc;
}
