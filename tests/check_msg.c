/* check_msg.c - the diagnostics module and its documentation. */
#include "compat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "check_util.h"
#include "msg.h"
#include "xmalloc.h"

START_TEST(test_every_message_documented)
{
	FILE	*f;
	char	*man;
	long	 n;
	int	 id;

	/* Every message the program can print is in DIAGNOSTICS. */
	ck_assert_ptr_nonnull(f = fopen(CGA_MANPAGE, "rb"));
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	man = xmalloc((size_t)n + 1);
	ck_assert_uint_eq(fread(man, 1, (size_t)n, f), (size_t)n);
	man[n] = '\0';
	fclose(f);
	for (id = 0; id < MSG__MAX; id++)
		ck_assert_msg(strstr(man, msg_text((enum msgid)id)) != NULL,
		    "not in the man page: %s", msg_text((enum msgid)id));
	free(man);
}
END_TEST

START_TEST(test_cap_and_levels)
{
	int	i;

	msg_reset();
	msg_set_quiet(1);
	for (i = 0; i < 50; i++)
		msg(MSG_UNKNOWN_LINE, "f", (uint64_t)i + 1, NULL);
	ck_assert_uint_eq(msg_count(MSG_UNKNOWN_LINE), 50);
	ck_assert_int_eq(msg_rc(), 0);		/* warnings: still 0 */
	msg(MSG_NO_EVENTS, "f", 0, NULL);
	ck_assert_int_eq(msg_rc(), 1);		/* an error: 1 */
	msg_reset();
	ck_assert_int_eq(msg_rc(), 0);
}
END_TEST

START_TEST(test_excerpt)
{
	char	buf[MSG_EXCERPT];
	char	longer[100];

	ck_assert_str_eq(msg_excerpt(buf, sizeof(buf), "a\033[2Jb\n", 7),
	    "a\\033[2Jb\\n");
	memset(longer, 'x', sizeof(longer));
	msg_excerpt(buf, sizeof(buf), longer, sizeof(longer));
	ck_assert_uint_eq(strlen(buf), 63);
	ck_assert_str_eq(buf + 60, "...");
}
END_TEST

Suite *
make_msg_suite(void)
{
	Suite	*s = suite_create("msg");
	TCase	*tc = check_tcase();

	tcase_add_test(tc, test_every_message_documented);
	tcase_add_test(tc, test_cap_and_levels);
	tcase_add_test(tc, test_excerpt);
	suite_add_tcase(s, tc);
	return s;
}
