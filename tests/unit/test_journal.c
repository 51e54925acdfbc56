/* test_journal.c - originals are journalled before writes and put back: at the end
 * of a session, by `restore`, after a crash, and for the dirty ratio/bytes pairs. */
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"

#include "journal.h"
#include "knob.h"
#include "settings.h"

static const char *journal_text(void)
{
	static char buf[8192];
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s/journal", vt.state_dir);
	if (read_small_file(p, buf, sizeof(buf)) < 0)
		return "";
	return buf;
}

static int set(const char *arg, bool keep)
{
	struct setting s;

	if (setting_parse(arg, &s) != 0)
		return -1;
	return settings_apply(&s, 1, keep);
}

static void session_end_puts_back_transient_changes(void **state)
{
	(void)state;
	assert_int_equal(session_begin(), 0);
	assert_int_equal(set("vm.page-cluster=6", false), 0);
	assert_int_equal(set("thp.enabled=never", false), 0);
	assert_string_equal(tree_read("/proc/sys/vm/page-cluster"), "6");
	/* the original is on disk before the write */
	assert_non_null(strstr(journal_text(), "vm.page-cluster"));
	assert_non_null(strstr(journal_text(), "\t3"));
	assert_int_equal(session_end(), 0);
	assert_string_equal(tree_read("/proc/sys/vm/page-cluster"), "3");
	assert_string_equal(tree_read("/sys/kernel/mm/transparent_hugepage/enabled"), "madvise");
	assert_string_equal(journal_text(), ""); /* nothing left to undo */
}

static void first_original_wins(void **state)
{
	(void)state;
	assert_int_equal(session_begin(), 0);
	assert_int_equal(set("vm.swappiness=10", false), 0);
	assert_int_equal(set("vm.swappiness=20", false), 0);
	assert_int_equal(session_end(), 0);
	assert_string_equal(tree_read("/proc/sys/vm/swappiness"), "60");
}

static void kept_changes_stay_until_restore(void **state)
{
	int count = 0;

	(void)state;
	assert_int_equal(session_begin(), 0);
	assert_int_equal(set("vm.swappiness=10", true), 0);
	assert_int_equal(session_end(), 0);
	assert_string_equal(tree_read("/proc/sys/vm/swappiness"), "10");
	assert_non_null(strstr(journal_text(), "knob\tK\t"));
	/* a later transient change unwinds to the kept value, not the original */
	assert_int_equal(session_begin(), 0);
	assert_int_equal(set("vm.swappiness=100", false), 0);
	assert_int_equal(session_end(), 0);
	assert_string_equal(tree_read("/proc/sys/vm/swappiness"), "10");
	/* restore goes all the way back */
	assert_int_equal(session_begin(), 0);
	assert_int_equal(journal_restore_all(&count), 0);
	assert_int_equal(count, 1);
	assert_int_equal(session_end(), 0);
	assert_string_equal(tree_read("/proc/sys/vm/swappiness"), "60");
	assert_string_equal(journal_text(), "");
}

static void dirty_pair_restores_the_active_member(void **state)
{
	(void)state;
	/* original: ratio 20 active, bytes 0 */
	assert_int_equal(session_begin(), 0);
	assert_int_equal(set("vm.dirty_bytes=64M", false), 0);
	assert_string_equal(tree_read("/proc/sys/vm/dirty_bytes"), "67108864");
	assert_int_equal(session_end(), 0);
	assert_string_equal(tree_read("/proc/sys/vm/dirty_ratio"), "20");
	assert_string_equal(tree_read("/proc/sys/vm/dirty_bytes"), "0");
	/* original: bytes active, ratio 0 (as the kernel leaves it) */
	tree_write("/proc/sys/vm/dirty_background_bytes", "33554432");
	tree_write("/proc/sys/vm/dirty_background_ratio", "0");
	assert_int_equal(session_begin(), 0);
	assert_int_equal(set("vm.dirty_background_ratio=5", false), 0);
	assert_int_equal(session_end(), 0);
	assert_string_equal(tree_read("/proc/sys/vm/dirty_background_bytes"), "33554432");
	assert_string_equal(tree_read("/proc/sys/vm/dirty_background_ratio"), "0");
}

static void crash_leaves_a_journal_that_restore_undoes(void **state)
{
	int status, count = 0;
	pid_t pid;

	(void)state;
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (session_begin() != 0 || set("vm.page-cluster=5", false) != 0)
			_exit(1);
		_exit(0); /* like kill -9: no atexit, no session_end */
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_string_equal(tree_read("/proc/sys/vm/page-cluster"), "5");
	assert_non_null(strstr(journal_text(), "knob\tT\t"));
	assert_int_equal(session_begin(), 0);
	assert_int_equal(journal_restore_all(&count), 0);
	assert_int_equal(count, 1);
	assert_int_equal(session_end(), 0);
	assert_string_equal(tree_read("/proc/sys/vm/page-cluster"), "3");
}

static void failed_write_rolls_back_the_others(void **state)
{
	struct setting s[3];
	char p[PATH_MAX];

	(void)state;
	snprintf(p, sizeof(p), "%s/proc/sys/vm/swappiness", test_dir);
	assert_int_equal(unlink(p), 0);
	assert_int_equal(symlink("/dev/full", p), 0); /* reads 0, every write fails */
	assert_int_equal(setting_parse("vm.page-cluster=6", &s[0]), 0);
	assert_int_equal(setting_parse("thp.defrag=never", &s[1]), 0);
	assert_int_equal(setting_parse("vm.swappiness=10", &s[2]), 0);
	assert_int_equal(session_begin(), 0);
	assert_int_not_equal(settings_apply(s, 3, true), 0);
	assert_string_equal(tree_read("/proc/sys/vm/page-cluster"), "3");
	assert_string_equal(tree_read("/sys/kernel/mm/transparent_hugepage/defrag"), "madvise");
	assert_int_equal(session_end(), 0);
}

static void damaged_journal_is_refused(void **state)
{
	char p[PATH_MAX];
	FILE *f;

	(void)state;
	assert_int_equal(vt_state_dir_ensure(), 0);
	snprintf(p, sizeof(p), "%s/journal", vt.state_dir);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs("garbage without tabs\n", f);
	fclose(f);
	assert_int_not_equal(session_begin(), 0);
	/* and a line naming a file that is not the knob's is never written */
	f = fopen(p, "w");
	assert_non_null(f);
	fprintf(f, "knob\tT\t1\tvm.swappiness\t%s/proc/sys/vm/page-cluster\t0\n", test_dir);
	fclose(f);
	assert_int_equal(session_begin(), 0);
	assert_int_not_equal(journal_restore_all(NULL), 0);
	assert_string_equal(tree_read("/proc/sys/vm/page-cluster"), "3");
	session_end();
}

#define T(f) cmocka_unit_test_setup_teardown(f, fake_root_setup, fake_root_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(session_end_puts_back_transient_changes),
		T(first_original_wins),
		T(kept_changes_stay_until_restore),
		T(dirty_pair_restores_the_active_member),
		T(crash_leaves_a_journal_that_restore_undoes),
		T(failed_write_rolls_back_the_others),
		T(damaged_journal_is_refused),
	};

	return cmocka_run_group_tests_name("journal", tests, NULL, NULL);
}
