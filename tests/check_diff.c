/* check_diff.c - name rewriting, differences and --fail-above limits. */
#include "base/compat.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/diff.h"
#include "analysis/gate.h"
#include "base/cost.h"
#include "check_suites.h"
#include "check_util.h"
#include "model/profile.h"

/* Rewrite s with expression e; return the result (to be freed). */
static char *
rewrite(const char *e, const char *s)
{
	struct namemod	 m;
	char		 err[128], *r;

	ck_assert_msg(namemod_parse(&m, e, err, sizeof(err)) == 0, "%s: %s",
	    e, err);
	r = namemod_apply(&m, s);
	namemod_free(&m);
	return r;
}

START_TEST(test_namemod)
{
	static const struct {
		const char	*expr, *in, *out;
	} t[] = {
		{ "s/^\\/build\\/(old|new)\\///", "/build/old/src/a.c",
		    "src/a.c" },
		{ "s/o/0/", "foo", "f0o" },
		{ "s/o/0/g", "foo", "f00" },
		{ "s/([a-z]+)-([0-9]+)/\\2_\\1/", "x abc-12 y", "x 12_abc y" },
		{ "s/b/[&]/g", "abcb", "a[b]c[b]" },
		{ "s/'[0-9]+$//", "fib'2", "fib" },
		{ "s/zzz/q/", "abc", "abc" },
		{ "s/^/pre-/", "x", "pre-x" },
	};
	size_t	i;
	char	*r;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		r = rewrite(t[i].expr, t[i].in);
		ck_assert_str_eq(r, t[i].out);
		free(r);
	}
}
END_TEST

START_TEST(test_namemod_errors)
{
	static const char	*bad[] = { "", "s/x", "x/a/b/", "s/a/b/i",
	    "s/(/x/" };
	struct namemod		 m;
	char			 err[128];
	size_t			 i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		ck_assert_int_eq(namemod_parse(&m, bad[i], err, sizeof(err)),
		    -1);
		ck_assert_str_ne(err, "");
	}
}
END_TEST

START_TEST(test_diff)
{
	struct profile	*a, *b;
	struct diff	*d;
	struct namemod	 fm, nm;
	char		 err[128];
	struct snum	 v;
	size_t		 i;
	int		 seen = 0;

	a = load("events: Ir\nfl=/old/x.c\nfn=f\n1 10\nfn=g\n2 5\n", NULL);
	b = load("events: Ir\nfl=/new/x.c\nfn=f\n1 4\nfn=h\n3 7\n", NULL);
	ck_assert_int_eq(namemod_parse(&fm, "s/^\\/(old|new)\\///", err,
	    sizeof(err)), 0);
	memset(&nm, 0, sizeof(nm));
	d = diff_build(a, b, 0, &fm, &nm);
	ck_assert_uint_eq(d->nrows, 3);
	for (i = 0; i < d->nrows; i++) {
		ck_assert_int_eq(diff_value(d->rows[i].new[0],
		    d->rows[i].old[0], &v), 1);
		if (strcmp(d->rows[i].label, "x.c:f") == 0) {
			ck_assert(v.neg && v.mag == 6);
			seen |= 1;
		} else if (strcmp(d->rows[i].label, "x.c:g") == 0) {
			ck_assert(v.neg && v.mag == 5);
			seen |= 2;
		} else if (strcmp(d->rows[i].label, "x.c:h") == 0) {
			ck_assert(!v.neg && v.mag == 7);
			seen |= 4;
		}
	}
	ck_assert_int_eq(seen, 7);
	ck_assert_uint_eq(d->old_total[0], 15);
	ck_assert_uint_eq(d->new_total[0], 11);
	ck_assert_int_eq(diff_value(COST_NONE, COST_NONE, &v), 0);
	/* Exact beyond the int64 range: 65 bits, a sign and a magnitude. */
	ck_assert_int_eq(diff_value(UINT64_MAX - 1, 0, &v), 1);
	ck_assert(!v.neg && v.mag == UINT64_MAX - 1);
	ck_assert_int_eq(diff_value(1, UINT64_MAX - 1, &v), 1);
	ck_assert(v.neg && v.mag == UINT64_MAX - 2);
	ck_assert_int_eq(diff_value(5, 5, &v), 1);
	ck_assert(!v.neg && v.mag == 0);
	diff_free(d);
	namemod_free(&fm);
	profile_free(a);
	profile_free(b);
}
END_TEST

/* A non-negative exact number. */
static struct snum
sn(uint64_t mag, int neg)
{
	struct snum	v = { mag, neg };

	return v;
}

START_TEST(test_gates)
{
	struct gate		 g;
	struct gate_result	 r;
	char			 err[128];

	ck_assert_int_eq(gate_parse(&g, "Ir:2%", err, sizeof(err)), 0);
	ck_assert_int_eq(g.percent, 1);
	/* A totals gate: +3% of 100 fails, +2% does not, functions skip. */
	ck_assert_int_eq(gate_check(&g, NULL, NULL, 1, sn(3, 0), 100, &r), 1);
	ck_assert_int_eq(r.failed, 1);
	ck_assert_int_eq(gate_check(&g, NULL, NULL, 1, sn(2, 0), 100, &r), 1);
	ck_assert_int_eq(r.failed, 0);
	ck_assert_int_eq(gate_check(&g, "a.c:f", "f", 1, sn(3, 0), 100, &r), 0);
	ck_assert_int_eq(gate_check(&g, NULL, NULL, 1, sn(UINT64_MAX - 2, 1),
	    UINT64_MAX - 1, &r), 1);
	ck_assert_int_eq(r.failed, 0);
	ck_assert(r.value.neg && r.value.mag == UINT64_MAX - 2);
	gate_free(&g);

	ck_assert_int_eq(gate_parse(&g, "Dr:1000:^parse_", err, sizeof(err)),
	    0);
	ck_assert_str_eq(g.event, "Dr");
	ck_assert_uint_eq(g.limit, 1000);
	ck_assert_int_eq(gate_check(&g, NULL, NULL, 0, sn(5000, 0), 0, &r), 0);
	ck_assert_int_eq(gate_check(&g, "p.c:parse_x", "parse_x", 0,
	    sn(1001, 0), 0,
	    &r), 1);
	ck_assert_int_eq(r.failed, 1);
	ck_assert_int_eq(gate_check(&g, "p.c:other", "other", 0,
	    sn(9999, 0), 0,
	    &r), 0);
	gate_free(&g);

	ck_assert_int_eq(gate_parse(&g, "Ir", err, sizeof(err)), -1);
	ck_assert_int_eq(gate_parse(&g, ":5", err, sizeof(err)), -1);
	ck_assert_int_eq(gate_parse(&g, "Ir:x", err, sizeof(err)), -1);
	ck_assert_int_eq(gate_parse(&g, "Ir:-5", err, sizeof(err)), -1);
	ck_assert_int_eq(gate_parse(&g, "Ir:5:(", err, sizeof(err)), -1);
}
END_TEST

Suite *
make_diff_suite(void)
{
	Suite	*s = suite_create("diff");
	TCase	*tc = check_tcase();

	tcase_add_test(tc, test_namemod);
	tcase_add_test(tc, test_namemod_errors);
	tcase_add_test(tc, test_diff);
	tcase_add_test(tc, test_gates);
	suite_add_tcase(s, tc);
	return s;
}
