/* check_profile.c - cost vectors, the model's sums and the totals. */
#include "base/compat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/fntotals.h"
#include "base/cost.h"
#include "base/msg.h"
#include "base/xmalloc.h"
#include "check_suites.h"
#include "check_util.h"
#include "model/profile.h"
#include "read/load.h"

START_TEST(test_cost_add)
{
	uint64_t	a[4] = { COST_NONE, 5, COST_NONE, COST_MAX - 1 };
	uint64_t	b[4] = { COST_NONE, 7, 0, 1 };

	ck_assert_int_eq(cost_add(a, b, 4), 0);
	ck_assert_uint_eq(a[0], COST_NONE);	/* none + none = none */
	ck_assert_uint_eq(a[1], 12);
	ck_assert_uint_eq(a[2], 0);		/* none + 0 = 0, recorded */
	ck_assert_uint_eq(a[3], COST_MAX);
	ck_assert_int_eq(cost_add(a, b, 4), 1);	/* overflow: kept at max */
	ck_assert_uint_eq(a[3], COST_MAX);
	ck_assert_int_eq(cost_is_zero(b, 1), 1);
	ck_assert_int_eq(cost_is_zero(b, 2), 0);
}
END_TEST

START_TEST(test_sums)
{
	struct profile	*p;
	uint64_t	 total[2];
	int		 rc;

	p = load("events: A B\nfl=a.c\nfn=f\n1 1 1\n1 2\n2 4 4\n"
	    "fn=g\n1 8\ncfn=f\ncalls=1 1\n1 1000 1000\n", &rc);
	ck_assert_int_eq(rc, 0);
	/* Same (function, file, line) entries are summed into one. */
	ck_assert_uint_eq(profile_nlines(p), 3);
	ck_assert_uint_eq(self_cost(p, "f", "a.c", 1, 0), 3);
	ck_assert_uint_eq(self_cost(p, "f", "a.c", 1, 1), 1);
	profile_self_total(p, total);
	ck_assert_uint_eq(total[0], 15);	/* call cost is not self */
	ck_assert_uint_eq(total[1], 5);
	ck_assert_uint_eq(totals_compute(p, total), TOTALS_CALCULATED);
	ck_assert_uint_eq(total[0], 15);
	profile_free(p);
}
END_TEST

START_TEST(test_totals_source)
{
	struct profile	*p;
	uint64_t	 total[1];

	p = load("events: A\nsummary: 50\nfl=a\nfn=f\n1 5\ntotals: 40\n",
	    NULL);
	ck_assert_uint_eq(totals_compute(p, total), TOTALS_SUMMARY);
	ck_assert_uint_eq(total[0], 50);
	profile_free(p);
	/* An all-zero summary falls back to totals. */
	p = load("events: A\nsummary: 0\nfl=a\nfn=f\n1 5\ntotals: 40\n",
	    NULL);
	ck_assert_uint_eq(totals_compute(p, total), TOTALS_TOTALS);
	ck_assert_uint_eq(total[0], 40);
	profile_free(p);
	/* Several parts: the sum of their summaries, never the last. */
	p = load("events: A\nsummary: 5\nfl=a\nfn=f\n1 5\n"
	    "part: 2\nsummary: 7\nfn=f\n1 7\n", NULL);
	ck_assert_uint_eq(totals_compute(p, total), TOTALS_SUMMARY);
	ck_assert_uint_eq(total[0], 12);
	profile_free(p);
	/* A part without summary: calculated. */
	p = load("events: A\nsummary: 5\nfl=a\nfn=f\n1 5\n"
	    "part: 2\nfn=f\n1 7\n", NULL);
	ck_assert_uint_eq(totals_compute(p, total), TOTALS_CALCULATED);
	ck_assert_uint_eq(total[0], 12);
	profile_free(p);
}
END_TEST

START_TEST(test_fntotals)
{
	struct profile		*p;
	struct fntotals		*t;
	size_t			 i;
	int			 seen = 0;

	p = load("events: A\n"
	    "ob=one\nfl=x.c\nfn=f\n1 1\n"
	    "fi=inl.h\n2 2\n"
	    "ob=two\nfl=x.c\nfn=f\n1 10\n"	/* same label, other object */
	    "fn=empty\n", NULL);
	t = fntotals_build(p);
	ck_assert_uint_eq(t->nrows, 3);
	for (i = 0; i < t->nrows; i++) {
		if (strcmp(fntotals_label(t, i), "x.c:f") == 0) {
			ck_assert_uint_eq(t->rows[i].cost[0], 11);
			ck_assert_str_eq(profile_str(p, t->rows[i].obj), "two");
			seen |= 1;
		} else if (strcmp(fntotals_label(t, i), "inl.h:f") == 0) {
			ck_assert_uint_eq(t->rows[i].cost[0], 2);
			ck_assert_uint_eq(t->rows[i].obj, 0);
			seen |= 2;
		} else if (strcmp(fntotals_label(t, i), "x.c:empty") == 0) {
			ck_assert_uint_eq(t->rows[i].cost[0], COST_NONE);
			seen |= 4;
		}
	}
	ck_assert_int_eq(seen, 7);
	fntotals_free(t);
	profile_free(p);
}
END_TEST

/*
 * Check on the profile at path that its lines summed by pair for every
 * event in order (all at once) are those summed entry by entry for the
 * events in reverse; count the profiles and rows with a count in *arg.
 */
static void
lines_sum_compare(const char *path, void *arg)
{
	struct profile	*p = profile_create();
	size_t		*seen = arg, r;
	uint64_t	*all, *rev;
	uint32_t	*row, i, np;
	unsigned	*evs, k, n;

	if (load_file(p, path, NULL) != 0) {
		profile_free(p);
		return;
	}
	n = profile_nevents(p);
	np = profile_npairs(p);
	row = xreallocarray(NULL, (size_t)np + 1, sizeof(*row));
	for (i = 0; i < np; i++)
		row[i] = i;
	evs = xreallocarray(NULL, n + 1, sizeof(*evs));
	all = xcalloc((size_t)np * n + 1, sizeof(*all));
	rev = xcalloc((size_t)np * n + 1, sizeof(*rev));
	for (k = 0; k < n; k++)
		evs[k] = k;
	(void)profile_lines_sum_evs(p, row, np, evs, n, all);
	for (k = 0; k < n; k++)
		evs[k] = n - 1 - k;
	(void)profile_lines_sum_evs(p, row, np, evs, n, rev);
	for (r = 0; r < np; r++)
		for (k = 0; k < n; k++) {
			ck_assert_msg(all[r * n + k] == rev[r * n + n - 1 - k],
			    "%s: pair %zu, event %u: summed at once %llu, "
			    "entry by entry %llu", path, r, k,
			    (unsigned long long)all[r * n + k],
			    (unsigned long long)rev[r * n + n - 1 - k]);
			seen[1] += all[r * n + k] != 0;
		}
	seen[0]++;
	free(row);
	free(evs);
	free(all);
	free(rev);
	profile_free(p);
}

/* The lines' sums by pair the same both ways (profile_lines_sum_evs()). */
START_TEST(test_lines_sum_evs)
{
	size_t	seen[2] = { 0, 0 };

	msg_set_quiet(1);
	(void)each_profile("profiles", lines_sum_compare, seen);
	(void)each_profile("producers", lines_sum_compare, seen);
	(void)each_profile("real", lines_sum_compare, seen);
	/* Not vacuous: many profiles, many sums. */
	ck_assert_uint_ge(seen[0], 40);
	ck_assert_uint_gt(seen[1], 10000);
	msg_reset();
}
END_TEST

/* Labels compared without making them order as strcmp() orders them. */
START_TEST(test_labelcmp)
{
	struct profile	*p;
	struct fntotals	*t;
	uint32_t	 i, j;
	int		 c, want;

	p = load("events: A\n"
	    "fl=a\nfn=b\n1 1\nfn=\n1 1\nfn=b:c\n1 1\nfn=:\n1 1\n"
	    "fl=a:b\nfn=c\n1 1\nfn=b\n1 1\nfn=\n1 1\n"
	    "fl=a:\nfn=b\n1 1\nfn=:b\n1 1\n"
	    "fl=\nfn=a:b\n1 1\nfn=a\n1 1\n"
	    "fl=ab\nfn=c\n1 1\nfn=\xc3\xa9\n1 1\n"
	    "fl=a\xc3\xa9\nfn=x\n1 1\n", NULL);
	t = fntotals_build(p);
	ck_assert_uint_ge(t->nrows, 14);
	for (i = 0; i < t->nrows; i++)
		for (j = 0; j < t->nrows; j++) {
			want = strcmp(fntotals_label(t, i),
			    fntotals_label(t, j));
			want = (want > 0) - (want < 0);
			c = fntotals_labelcmp(t, i, j);
			c = (c > 0) - (c < 0);
			ck_assert_msg(c == want, "%s vs %s: %d, not %d",
			    fntotals_label(t, i), fntotals_label(t, j), c,
			    want);
		}
	fntotals_free(t);
	profile_free(p);
}
END_TEST

/*
 * A call from a line met again after the function's line table grew
 * (dense, wider, then hashed) adds to the same arc: the table's growth
 * keeps the pair's calls.
 */
START_TEST(test_calls_after_growth)
{
	struct profile	*p;
	uint32_t	 i;
	int		 rc;

	p = load("events: A\nfl=a.c\nfn=f\n1 1\ncfn=g\ncalls=1 1\n1 10\n"
	    "cfn=h\ncalls=1 1\n1 100\n"
	    "2 1\n50 1\n1000 1\n100000 1\n7000000 1\n"
	    "cfn=g\ncalls=2 1\n1 20\n"
	    "cfn=h\ncalls=2 1\n1 200\n"
	    "fn=g\n1 5\nfn=h\n1 5\n", &rc);
	ck_assert_int_eq(rc, 0);
	ck_assert_uint_eq(profile_nlines(p), 8);
	ck_assert_uint_eq(profile_narcs(p), 2);
	for (i = 0; i < profile_narcs(p); i++) {
		ck_assert_uint_eq(profile_arc_count(p, i), 3);
		ck_assert_uint_eq(profile_arc_cost(p, i)[0],
		    i == 0 ? 30 : 300);
	}
	profile_free(p);
}
END_TEST

/*
 * Line numbers of 2^32 - 1 and above (kept aside from the 32-bit ones)
 * are lines of their own, met again in dense and in hashed tables, in
 * one function and several: 5 and 2^32 + 5 are two lines.
 */
START_TEST(test_big_lines)
{
	static const uint64_t	 want[] = { 5, 4294967301ULL, 4294967295ULL,
	    6, 18446744073709551614ULL, 4294967294ULL };
	struct profile		*p;
	uint64_t		 line, sum[1];
	uint32_t		 i, k, fn, file;
	FILE			*text;
	char			*buf;
	size_t			 len;
	int			 rc;

	p = load("events: A\nfl=a.c\nfn=f\n"
	    "5 1\n4294967301 2\n4294967295 4\n6 8\n"
	    "18446744073709551614 16\n4294967294 32\n"
	    "fn=g\n4294967301 64\n5 128\n"
	    "fn=f\n4294967295 4\n18446744073709551614 16\n5 1\n"
	    "4294967301 2\n4294967294 32\n6 8\n", &rc);
	ck_assert_int_eq(rc, 0);
	ck_assert_uint_eq(profile_nlines(p), 8);
	for (i = 0; i < 6; i++) {
		profile_line(p, i, &fn, &file, &line);
		ck_assert_uint_eq(line, want[i]);
		cost_clear(sum, 1);
		(void)profile_line_sum(p, i, sum);
		ck_assert_uint_eq(sum[0], 2 * (1U << i));
	}
	for (k = 0; i < 8; i++, k++) {
		profile_line(p, i, &fn, &file, &line);
		ck_assert_uint_eq(line, want[1 - k]);
	}
	profile_free(p);

	/* Many in one hashed table: probes pass over each other's. */
	text = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(text);
	fputs("events: A\nfl=a.c\nfn=h\n", text);
	for (k = 0; k < 2 * 64; k++)
		fprintf(text, "%llu 1\n", (unsigned long long)((1ULL << 40) +
		    (k % 64) * 3));
	fclose(text);
	p = load(buf, &rc);
	free(buf);
	ck_assert_int_eq(rc, 0);
	ck_assert_uint_eq(profile_nlines(p), 64);
	for (i = 0; i < 64; i++) {
		profile_line(p, i, &fn, &file, &line);
		ck_assert_uint_eq(line, (1ULL << 40) + i * 3);
		cost_clear(sum, 1);
		(void)profile_line_sum(p, i, sum);
		ck_assert_uint_eq(sum[0], 2);
	}
	profile_free(p);
}
END_TEST

Suite *
make_profile_suite(void)
{
	Suite	*s = suite_create("profile");
	TCase	*tc = check_tcase();

	tcase_add_test(tc, test_cost_add);
	tcase_add_test(tc, test_sums);
	tcase_add_test(tc, test_totals_source);
	tcase_add_test(tc, test_fntotals);
	tcase_add_test(tc, test_calls_after_growth);
	tcase_add_test(tc, test_big_lines);
	tcase_add_test(tc, test_labelcmp);
	tcase_add_test(tc, test_lines_sum_evs);
	suite_add_tcase(s, tc);
	return s;
}
