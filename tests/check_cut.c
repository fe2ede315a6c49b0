/*
 * check_cut.c - a real profile cut between lines of every kind and at
 * 200 pseudo-random byte offsets: each piece parses to a clean result (a
 * profile or a diagnosed error) and reports without a crash; run under
 * the sanitizer build, any memory error fails the test.  Each piece is
 * read from the start, so the cuts are between the first lines, every
 * CUT_STRIDE-th line and the first CUT_PAIRS of each pair of line kinds
 * (a cost line, calls=, fn=, ...) met: at every line boundary the test
 * took minutes under the sanitizers, the loader's lines alone being
 * half the profile.
 */
#include "base/compat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/msg.h"
#include "base/xmalloc.h"
#include "check_suites.h"
#include "check_util.h"
#include "model/profile.h"
#include "read/parse.h"
#include "select/select.h"
#include "view/format.h"
#include "view/report.h"

#define CUT_PROFILE	CGA_TESTDATA "/profiles/cg-instr-jumps.out"
#define CUT_HEAD	64	/* lines from the start: every one */
#define CUT_STRIDE	16	/* after them, one line in this many */
#define CUT_PAIRS	4	/*   and this many of each pair of kinds */
#define CUT_KINDS	64

static char	*cut_data;
static size_t	 cut_len;

/* Read the whole profile once. */
static void
cut_load(void)
{
	cut_data = check_file_bytes(CUT_PROFILE, &cut_len);
	ck_assert_uint_gt(cut_len, 0);
}

/*
 * Return the kind of the line at s (up to end): the hash of its key, the
 * text before '=' or ':', or one kind for the cost lines.
 */
static unsigned
cut_kind(const char *s, const char *end)
{
	unsigned	h = 7;

	if (s < end && (*s == '+' || *s == '-' || *s == '*' ||
	    (*s >= '0' && *s <= '9')))
		return 1;
	for (; s < end && *s != '\n' && *s != '=' && *s != ':'; s++)
		h = h * 31 + (unsigned char)*s;
	return 2 + h % (CUT_KINDS - 2);
}

/* Parse and report the first len bytes; return the parse result. */
static int
cut_run(size_t len, FILE *out)
{
	struct report_opts	 o;
	struct report_run	 run;
	struct profile		*p = profile_create();
	int			 rc;

	memset(&o, 0, sizeof(o));
	o.format = &formats[0];
	memset(&run, 0, sizeof(run));
	run.profile_name = "cut";
	o.threshold = "100";
	o.show_percs = 1;
	o.tree = REPORT_TREE_CALLER | REPORT_TREE_CALLING;
	o.inclusive = (len & 1) != 0;
	o.context = 2;
	rc = parse_buffer(p, "cut", cut_data, len, NULL);
	if (rc == 0)
		ck_assert_int_eq(report_print(out, p, NULL, &o, &run), 0);
	profile_free(p);
	return rc;
}

START_TEST(test_cut_everywhere)
{
	FILE		*out;
	size_t		 i, line = 0, lines = 0, ok = 0, bad = 0;
	uint64_t	 x = 0x9e3779b97f4a7c15ULL;
	unsigned	 kind, prev = 0, seen[CUT_KINDS][CUT_KINDS];
	int		 k;

	cut_load();
	ck_assert_ptr_nonnull(out = fopen("/dev/null", "w"));
	msg_set_quiet(1);
	memset(seen, 0, sizeof(seen));
	for (i = 0; i <= cut_len; i++) {
		if (i != cut_len && (i == 0 || cut_data[i - 1] != '\n'))
			continue;
		kind = cut_kind(cut_data + i, cut_data + cut_len);
		if (i != cut_len && line++ >= CUT_HEAD &&
		    line % CUT_STRIDE != 0 && seen[prev][kind] >= CUT_PAIRS) {
			prev = kind;
			continue;
		}
		if (seen[prev][kind] < CUT_PAIRS)
			seen[prev][kind]++;
		prev = kind;
		lines++;
		if (cut_run(i, out) == 0)
			ok++;
		else
			bad++;
	}
	for (k = 0; k < 200; k++) {
		x ^= x >> 12;
		x ^= x << 25;
		x ^= x >> 27;
		if (cut_run((size_t)(x * 0x2545f4914f6cdd1dULL % cut_len),
		    out) == 0)
			ok++;
		else
			bad++;
	}
	fclose(out);
	free(cut_data);
	/* Pieces before "events:" are rejected, the others are reports. */
	ck_assert_uint_gt(line, 18000);
	ck_assert_uint_gt(lines, 1000);
	ck_assert_uint_gt(ok, lines - 20);
	ck_assert_uint_lt(bad, 40);
	msg_reset();
}
END_TEST

Suite *
make_cut_suite(void)
{
	Suite	*s = suite_create("cut");
	TCase	*tc = check_tcase();

	tcase_add_test(tc, test_cut_everywhere);
	suite_add_tcase(s, tc);
	return s;
}
