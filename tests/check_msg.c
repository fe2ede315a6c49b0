/* check_msg.c - the diagnostics module and its documentation. */
#include "base/compat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/msg.h"
#include "base/xmalloc.h"
#include "check_suites.h"
#include "check_util.h"

/*
 * Send stderr to a temporary file, returned, messages printed from a
 * fresh start; the old stderr in *saved.
 */
static FILE *
err_catch(int *saved)
{
	FILE	*t;

	ck_assert_ptr_nonnull(t = tmpfile());
	fflush(stderr);
	*saved = dup(STDERR_FILENO);
	dup2(fileno(t), STDERR_FILENO);
	msg_reset();
	msg_set_quiet(0);
	return t;
}

/*
 * Give stderr back (saved) and read what t caught into got (size bytes,
 * ended by a NUL); return its length.
 */
static size_t
err_take(FILE *t, int saved, char *got, size_t size)
{
	size_t	n;

	msg_set_quiet(1);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	rewind(t);
	n = fread(got, 1, size - 1, t);
	got[n] = '\0';
	fclose(t);
	return n;
}

START_TEST(test_every_message_documented)
{
	char	*man;
	size_t	 n;
	int	 id;

	/* Every message the program can print is in DIAGNOSTICS. */
	man = check_file_bytes(CGA_MANPAGE, &n);
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

	/* The bytes as they are: msg() makes the whole line visible. */
	ck_assert_str_eq(msg_excerpt(buf, sizeof(buf), "a\033[2Jb\n", 7),
	    "a\033[2Jb\n");
	memset(longer, 'x', sizeof(longer));
	msg_excerpt(buf, sizeof(buf), longer, sizeof(longer));
	ck_assert_uint_eq(strlen(buf), 63);
	ck_assert_str_eq(buf + 60, "...");
}
END_TEST

/*
 * What a profile puts into a message (a file name, a detail, a note, a
 * usage error) reaches stderr visible: no escape byte, no bell.
 */
START_TEST(test_visible)
{
	char	 got[1024];
	FILE	*t;
	size_t	 n;
	int	 saved;

	t = err_catch(&saved);
	msg(MSG_OPEN, "e\033]0;title\007.out", 0, "fn \033[2J%s", "x\ty");
	msg(MSG_UNKNOWN_LINE, "a.out", 3, "%s", "caf\303\251");
	msg_note("limit exceeded: %s", "f\033[31m");
	msg_usage_error("--show event '%s' is unknown", "I\033r");
	n = err_take(t, saved, got, sizeof(got));
	msg_reset();
	ck_assert_ptr_null(memchr(got, '\033', n));
	ck_assert_ptr_null(memchr(got, '\007', n));
	ck_assert_ptr_nonnull(strstr(got, ": e\\033]0;title\\a.out: error: "
	    "cannot open: fn \\033[2Jx\\ty\n"));
	ck_assert_ptr_nonnull(strstr(got, ": a.out:3: warning: unknown line, "
	    "ignored: caf\\303\\251\n"));
	ck_assert_ptr_nonnull(strstr(got, ": limit exceeded: f\\033[31m\n"));
	ck_assert_ptr_nonnull(strstr(got, ": --show event 'I\\033r' is "
	    "unknown\n"));
}
END_TEST

/*
 * Messages held back (a read or report that may be done again) are
 * printed when released to be, in order, after those before; dropped,
 * they leave nothing: not a line, not a count, not the exit status.
 */
START_TEST(test_hold)
{
	char	 got[1024];
	FILE	*t;
	int	 saved;

	t = err_catch(&saved);
	msg(MSG_UNKNOWN_LINE, "a.out", 1, NULL);
	msg_hold();
	msg(MSG_UNKNOWN_LINE, "a.out", 2, NULL);
	msg(MSG_NO_EVENTS, "a.out", 0, NULL);
	msg_note("dropped note");
	ck_assert_uint_eq(msg_count(MSG_UNKNOWN_LINE), 2);
	ck_assert_int_eq(msg_rc(), 1);
	msg_release(0);
	ck_assert_uint_eq(msg_count(MSG_UNKNOWN_LINE), 1);
	ck_assert_uint_eq(msg_count(MSG_NO_EVENTS), 0);
	ck_assert_int_eq(msg_rc(), 0);
	msg_hold();
	msg(MSG_UNKNOWN_LINE, "a.out", 3, NULL);
	msg_note("kept note");
	fflush(stderr);
	ck_assert_int_eq(ftell(t), (long)strlen(getprogname()) +
	    strlen(": a.out:1: warning: unknown line, ignored\n"));
	msg_release(1);
	msg_note("after");
	(void)err_take(t, saved, got, sizeof(got));
	ck_assert_uint_eq(msg_count(MSG_UNKNOWN_LINE), 2);
	msg_reset();
	ck_assert_ptr_null(strstr(got, "a.out:2:"));
	ck_assert_ptr_null(strstr(got, "dropped"));
	ck_assert_ptr_null(strstr(got, "error"));
	ck_assert_ptr_nonnull(strstr(got, "a.out:1:"));
	ck_assert_ptr_nonnull(strstr(got, "a.out:3:"));
	ck_assert(strstr(got, "a.out:1:") < strstr(got, "a.out:3:"));
	ck_assert(strstr(got, "kept note") < strstr(got, "after"));
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
	tcase_add_test(tc, test_visible);
	tcase_add_test(tc, test_hold);
	suite_add_tcase(s, tc);
	return s;
}
