/* test_text.c - strings from outside: what one line of text is, and each escape. */
#include <string.h>

#include "testutil.h"

#include "text.h"

static void one_line_is_printable_utf8(void **state)
{
	size_t bad = 99;

	(void)state;
	assert_true(text_oneline("vm.page-cluster = 3, \xc3\xa9t\xc3\xa9 \xe2\x82\xac", &bad));
	assert_true(text_oneline("", &bad));
	assert_false(text_oneline("a\nb", &bad));
	assert_int_equal(bad, 1);
	assert_false(text_oneline("tab\there", &bad));
	assert_int_equal(bad, 3);
	assert_false(text_oneline("\x1b[2J", &bad));
	assert_int_equal(bad, 0);
	assert_false(text_oneline("del\x7f", &bad));
	assert_false(text_oneline("bad \xff utf-8", &bad));
	assert_int_equal(bad, 4);
	assert_false(text_oneline("overlong \xc0\xaf", NULL));
	assert_false(text_oneline("surrogate \xed\xa0\x80", NULL));
	assert_false(text_oneline("cut \xe2\x82", NULL));
}

static void safe_escapes_controls_and_backslashes(void **state)
{
	char buf[128];

	(void)state;
	assert_string_equal(text_safe("plain, \xc3\xa9", buf, sizeof(buf)), "plain, \xc3\xa9");
	assert_string_equal(text_safe("a\nkernel.core_pattern = |x", buf, sizeof(buf)),
			    "a\\x0akernel.core_pattern = |x");
	assert_string_equal(text_safe("\x1b]0;t\a", buf, sizeof(buf)), "\\x1b]0;t\\x07");
	assert_string_equal(text_safe("back\\slash", buf, sizeof(buf)), "back\\\\slash");
	assert_string_equal(text_safe("\xff", buf, sizeof(buf)), "\\xff");
	assert_string_equal(text_safe(NULL, buf, sizeof(buf)), "");
	/* never cut inside an escape */
	assert_string_equal(text_safe("ab\n", buf, 5), "ab");
	assert_true(text_oneline(text_safe("x\ry\tz\x01", buf, sizeof(buf)), NULL));
}

static void ini_drops_comment_signs_and_doubles_percent(void **state)
{
	char buf[128];

	(void)state;
	assert_string_equal(text_ini("cost -5% #not a comment\n", buf, sizeof(buf)), "cost -5%% not a comment\\x0a");
}

static void filename_keeps_to_one_component(void **state)
{
	char buf[64];

	(void)state;
	assert_string_equal(text_filename("host.example.com", buf, sizeof(buf)), "host.example.com");
	assert_string_equal(text_filename("../../etc/cron.d/x", buf, sizeof(buf)), "_._.._etc_cron.d_x");
	assert_string_equal(text_filename("..", buf, sizeof(buf)), "_.");
	assert_string_equal(text_filename(".hidden", buf, sizeof(buf)), "_hidden");
	assert_string_equal(text_filename("", buf, sizeof(buf)), "unnamed");
	assert_string_equal(text_filename("a b\n$(x)", buf, sizeof(buf)), "a_b___x_");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(one_line_is_printable_utf8),
		cmocka_unit_test(safe_escapes_controls_and_backslashes),
		cmocka_unit_test(ini_drops_comment_signs_and_doubles_percent),
		cmocka_unit_test(filename_keeps_to_one_component),
	};

	return cmocka_run_group_tests_name("text", tests, NULL, NULL);
}
