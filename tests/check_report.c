/*
 * check_report.c - the text report printed in two threads (a long list
 * of functions: its last third by a helper, into memory) is the report
 * printed in one, for every test profile and several option sets.
 */
#include "base/compat.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/hooks.h"
#include "base/msg.h"
#include "check_suites.h"
#include "check_util.h"
#include "model/profile.h"
#include "read/load.h"
#include "read/parse.h"
#include "select/select.h"
#include "view/format.h"
#include "view/report.h"

static size_t	report_rows_seen;	/* function lines compared */

/* Return the report of p with options o, split from split functions. */
static char *
report_of(const struct profile *p, const struct report_opts *o,
    const struct report_run *run, size_t split)
{
	FILE	*out;
	char	*text = NULL;
	size_t	 len = 0;

	hooks.split = split;
	ck_assert_ptr_nonnull(out = open_memstream(&text, &len));
	ck_assert_int_eq(report_print(out, p, NULL, o, run), 0);
	hooks.split = 0;
	ck_assert_int_eq(fclose(out), 0);
	return text;
}

/* Count the lines of the function list of report text. */
static size_t
report_count_rows(const char *text)
{
	const char	*s, *e;
	size_t		 n = 0;

	if ((s = strstr(text, " file:function\n")) == NULL ||
	    (s = strchr(s + 1, '\n')) == NULL ||
	    (s = strchr(s + 1, '\n')) == NULL)
		return 0;
	if ((e = strstr(s, "\n\n")) == NULL)
		return 0;
	for (; s < e; s++)
		n += *s == '\n';
	return n;
}

/* Compare the reports of path printed in one thread and in two. */
static void
report_compare(const char *path, void *arg __unused)
{
	struct report_opts	 o;
	struct report_run	 run;
	struct profile		*p = profile_create();
	char			*want, *got;
	int			 k;

	if (load_file(p, path, NULL) != 0) {
		profile_free(p);
		return;
	}
	for (k = 0; k < 4; k++) {
		memset(&o, 0, sizeof(o));
		o.format = &formats[0];
		memset(&run, 0, sizeof(run));
		run.profile_name = path;
		o.threshold = k == 0 ? "99" : "100";
		o.show_percs = k != 2;
		o.inclusive = k == 3;
		want = report_of(p, &o, &run, SIZE_MAX);
		got = report_of(p, &o, &run, 1);
		if (strcmp(want, got) != 0)
			ck_abort_msg("%s, option set %d: printed in two threads "
			    "differs", path, k);
		report_rows_seen += report_count_rows(want);
		free(want);
		free(got);
	}
	profile_free(p);
}

START_TEST(test_report_split)
{
	size_t	nfiles;

	msg_set_quiet(1);
	nfiles = each_profile("profiles", report_compare, NULL);
	nfiles += each_profile("edge", report_compare, NULL);
	/* Not vacuous: many lists long enough for the helper to print. */
	ck_assert_uint_ge(nfiles, 25);
	ck_assert_uint_gt(report_rows_seen, 1000);
	msg_reset();
}
END_TEST

Suite *
make_report_suite(void)
{
	Suite	*s = suite_create("report");
	TCase	*tc = check_tcase();

	tcase_add_test(tc, test_report_split);
	suite_add_tcase(s, tc);
	return s;
}
