/* check_derive.c - derived events, folded names, profiles made again. */
#include "base/compat.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/callgraph.h"
#include "analysis/derive.h"
#include "analysis/fntotals.h"
#include "analysis/fold.h"
#include "analysis/reshape.h"
#include "base/cost.h"
#include "base/msg.h"
#include "base/xmalloc.h"
#include "check_suites.h"
#include "check_util.h"
#include "model/profile.h"
#include "read/load.h"

/* A profile with formulas: nested, a cycle, an unknown name, a minus. */
static const char formulas[] =
    "event: A = Ir + 2 Dr\n"
    "event: B = 3*A - Dr : B long\n"
    "event: C = D + Ir\n"
    "event: D = C\n"
    "event: E = Ir + Nope\n"
    "event: F = -4Ir + Dr\n"
    "event: Bm = 7 Ir\n"
    "events: Ir Dr\n"
    "summary: 30 5\n"
    "fl=a.c\n"
    "fn=f\n"
    "1 10 2\n"
    "2 15\n"
    "cfn=g\n"
    "calls=2 10\n"
    "3 5 3\n"
    "fn=g\n"
    "10 5 3\n";

/* Fold name with how; return it (to be freed). */
static char *
folded(const char *name, int how)
{
	char	*out = xmalloc(strlen(name) + 1);
	size_t	 n;

	n = fold_name(name, strlen(name), how, out);
	out[n] = '\0';
	return out;
}

START_TEST(test_fold_name)
{
	static const struct {
		const char	*in;
		int		 how;
		const char	*out;
	} t[] = {
		{ "fib'2", FOLD_RECURSION, "fib" },
		{ "fib'2", FOLD_CONTEXTS, "fib'2" },
		{ "fib'12'main'(below main)", FOLD_RECURSION,
		    "fib'main'(below main)" },
		{ "fib'12'main'(below main)", FOLD_CONTEXTS, "fib'12" },
		{ "fib'12'main'(below main)", FOLD_RECURSION | FOLD_CONTEXTS,
		    "fib" },
		{ "f'g'h", FOLD_RECURSION, "f'g'h" },
		{ "f'g'h", FOLD_CONTEXTS, "f" },
		{ "f'2x", FOLD_RECURSION, "f'2x" },	/* a caller "2x" */
		{ "f'2x", FOLD_CONTEXTS, "f" },
		{ "f'", FOLD_CONTEXTS, "f" },
		{ "plain", FOLD_RECURSION | FOLD_CONTEXTS, "plain" },
		{ "(below main)'0x1ab70", FOLD_CONTEXTS, "(below main)" },
		{ "<&'a str as core::fmt::Display>::fmt'2",
		    FOLD_RECURSION, "<&'a str as core::fmt::Display>::fmt" },
		{ "foo<(char)39, 'x'>(int)'main", FOLD_CONTEXTS,
		    "foo<(char)39, 'x'>(int)" },
		{ "std::operator<<(std::ostream&, char const*)'3'main",
		    FOLD_RECURSION | FOLD_CONTEXTS,
		    "std::operator<<(std::ostream&, char const*)" },
		{ "S::operator<(S const&) const'2", FOLD_RECURSION,
		    "S::operator<(S const&) const" },
		{ "S::operator->() const'2", FOLD_RECURSION,
		    "S::operator->() const" },
		{ "S::operator()(int)'2'g", FOLD_RECURSION, "S::operator()(int)'g" },
		{ "coperator<x'2", FOLD_RECURSION, "coperator<x'2" },
		{ "a->b'2", FOLD_RECURSION, "a->b" },
		{ "x)'2", FOLD_RECURSION, "x)" },
	};
	size_t	 i;
	char	*r;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		r = folded(t[i].in, t[i].how);
		ck_assert_msg(strcmp(r, t[i].out) == 0, "%s (%d): %s, not %s",
		    t[i].in, t[i].how, r, t[i].out);
		free(r);
	}
}
END_TEST

START_TEST(test_formula_syntax)
{
	static const char	*good[] = { "Ir", "Ir + Dr", "Ir+10Bm",
	    "2*Dr", "- x", "Ir - 3 * Dr + 0 Dw", "Time_(10ns) + 2 Mem",
	    "  Ir  ", "Ir Dr" };
	static const char	*bad[] = { "", " ", "Ir +", "10", "Ir + 10",
	    "*Ir", "Ir + + Dr", "99999999999999999999 Ir", "Ir = Dr",
	    "Ir : x" };
	struct derive_opt	 o;
	char			 err[128];
	size_t			 i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		ck_assert_msg(derive_formula_check(good[i], err,
		    sizeof(err)) == 0, "%s: %s", good[i], err);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(derive_formula_check(bad[i], err,
		    sizeof(err)) == -1, "%s accepted", bad[i]);
	ck_assert_int_eq(derive_opt_parse(&o, "X=Ir+Dr", err, sizeof(err)), 0);
	ck_assert_str_eq(o.name, "X");
	ck_assert_str_eq(o.formula, "Ir+Dr");
	derive_opt_free(&o);
	ck_assert_int_eq(derive_opt_parse(&o, "X", err, sizeof(err)), -1);
	ck_assert_int_eq(derive_opt_parse(&o, "=Ir", err, sizeof(err)), -1);
	ck_assert_int_eq(derive_opt_parse(&o, "X Y=Ir", err, sizeof(err)), -1);
	ck_assert_int_eq(derive_opt_parse(&o, "X=", err, sizeof(err)), -1);
}
END_TEST

START_TEST(test_derive)
{
	struct derive_opt	 opt[2];
	struct profile		*p;
	struct derive		*d;
	uint64_t		 in[2], out[5];
	unsigned		 which;
	char			 err[64];

	msg_reset();
	msg_set_quiet(1);
	p = load(formulas, NULL);
	ck_assert_int_eq(derive_opt_parse(&opt[0], "Bm=Ir+Dr", err,
	    sizeof(err)), 0);
	ck_assert_int_eq(derive_opt_parse(&opt[1], "Bm=Dr", err,
	    sizeof(err)), 0);
	d = derive_new(p, opt, 2);
	ck_assert_int_eq(derive_add(d, "Ir"), -1);	/* recorded */
	ck_assert_int_eq(derive_add(d, "B"), 0);
	ck_assert_int_eq(derive_add(d, "A"), 1);
	ck_assert_int_eq(derive_add(d, "B"), 0);	/* once */
	ck_assert_int_eq(derive_add(d, "Bm"), 2);	/* the last --event */
	ck_assert_int_eq(derive_add(d, "F"), 3);
	ck_assert_int_eq(derive_add(d, "L1m"), -1);	/* no input here */
	ck_assert_int_eq(derive_add(d, "CEst"), 4);	/* Ir + 10 Bm */
	ck_assert_int_eq(derive_add(d, "nope"), -1);
	ck_assert_int_eq(derive_add(d, "C"), -2);	/* C = D = C */
	ck_assert_int_eq(derive_add(d, "E"), -2);	/* Nope */
	ck_assert_int_eq(derive_count(d), 5);
	ck_assert_str_eq(derive_name(d, 0), "B");
	ck_assert_str_eq(derive_formula(d, 0), "3*A - Dr");
	ck_assert_str_eq(derive_longname(d, 0), "B long");
	ck_assert_str_eq(derive_formula(d, 2), "Dr");

	in[0] = 10;
	in[1] = 2;
	ck_assert_int_eq(derive_eval(d, in, out, &which), DERIVE_NEGATIVE);
	ck_assert_int_eq(which, 3);
	ck_assert_uint_eq(out[0], 3 * (10 + 4) - 2);
	ck_assert_uint_eq(out[1], 14);
	ck_assert_uint_eq(out[2], 2);
	ck_assert_uint_eq(out[3], 0);
	ck_assert_uint_eq(out[4], 10 + 10 * 2);
	in[0] = 1;
	in[1] = 40;
	ck_assert_int_eq(derive_eval(d, in, out, NULL), 0);
	ck_assert_uint_eq(out[3], 36);
	/* "Never recorded" stays so; one recorded input is enough. */
	in[0] = in[1] = COST_NONE;
	ck_assert_int_eq(derive_eval(d, in, out, NULL), 0);
	ck_assert_uint_eq(out[0], COST_NONE);
	in[1] = 5;
	ck_assert_int_eq(derive_eval(d, in, out, NULL), 0);
	ck_assert_uint_eq(out[0], 25);
	ck_assert_uint_eq(out[1], 10);
	/* Exact to 2^64 - 2, then told. */
	in[0] = (COST_MAX - 2) / 3;
	in[1] = 0;
	ck_assert_int_eq(derive_eval(d, in, out, NULL), DERIVE_NEGATIVE);
	ck_assert_uint_eq(out[0], 3 * ((COST_MAX - 2) / 3));
	ck_assert_uint_eq(out[3], 0);		/* F = -4 Ir */
	in[0] = UINT64_MAX - 5;
	in[1] = UINT64_MAX - 5;
	ck_assert_int_eq(derive_eval(d, in, out, &which) & DERIVE_OVERFLOW,
	    DERIVE_OVERFLOW);
	ck_assert_int_eq(which, 0);
	ck_assert_uint_eq(out[0], COST_MAX);
	derive_free(d);
	derive_opt_free(&opt[0]);
	derive_opt_free(&opt[1]);
	profile_free(p);
	/* The profile's formulas are named in errors, not usage errors. */
	ck_assert_int_eq(msg_rc(), MSGL_ERROR);
	ck_assert_uint_eq(msg_count(MSG_BAD_FORMULA), 2);
	msg_reset();
}
END_TEST

START_TEST(test_builtins)
{
	static const char	 text[] =
	    "events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw Bc Bcm Bi Bim\n"
	    "fl=a.c\nfn=f\n1 1000 1 1 3 5 7 11 13 17 1 19 1 23\n";
	struct profile		*p;
	struct derive		*d;
	uint64_t		 in[13], out[5];
	unsigned		 i;

	p = load(text, NULL);
	d = derive_new(p, NULL, 0);
	ck_assert_int_eq(derive_add(d, "CEst"), 0);
	ck_assert_int_eq(derive_add(d, "L1m"), 1);
	ck_assert_int_eq(derive_add(d, "LLm"), 2);
	ck_assert_int_eq(derive_add(d, "Bm"), 3);
	ck_assert_int_eq(derive_add(d, "L2m"), -1);
	profile_line_cost(p, 0, in);
	for (i = 0; i < 13; i++)
		ck_assert_uint_ne(in[i], COST_NONE);
	ck_assert_int_eq(derive_eval(d, in, out, NULL), 0);
	ck_assert_uint_eq(out[1], 3 + 5 + 7);
	ck_assert_uint_eq(out[2], 11 + 13 + 17);
	ck_assert_uint_eq(out[3], 19 + 23);
	ck_assert_uint_eq(out[0], 1000 + 10 * 42 + 10 * 15 + 100 * 41);
	derive_free(d);
	profile_free(p);
}
END_TEST

/* The self cost of event ev of the row labelled label, or COST_NONE. */
static uint64_t
row_self(const struct profile *p, const char *label, unsigned ev)
{
	struct fntotals	*t = fntotals_build(p);
	uint64_t	 v = COST_NONE;
	uint32_t	 i;

	for (i = 0; i < t->nrows; i++)
		if (strcmp(fntotals_label(t, i), label) == 0)
			v = t->rows[i].cost[ev];
	fntotals_free(t);
	return v;
}

START_TEST(test_reshape_derived)
{
	struct profile	*p, *q;
	struct derive	*d;
	struct reshape	 how = { NULL, 0, PROFILE_ROWS_FUNCTIONS, 1 };
	uint64_t	 tot[3], cnt;

	msg_reset();
	msg_set_quiet(1);
	p = load(formulas, NULL);
	d = derive_new(p, NULL, 0);
	ck_assert_int_eq(derive_add(d, "A"), 0);
	how.derive = d;
	q = reshape_build(p, &how, "t.out");
	ck_assert_ptr_nonnull(q);
	ck_assert_int_eq(profile_nevents(q), 3);
	ck_assert_int_eq(profile_nrecorded(q), 2);
	ck_assert_str_eq(profile_str(q, profile_events_list(q)), "Ir Dr");
	ck_assert_int_eq(profile_event_index(q, "A"), 2);
	ck_assert_uint_eq(row_self(q, "a.c:f", 2), 10 + 4 + 15);
	ck_assert_uint_eq(row_self(q, "a.c:g", 2), 5 + 6);
	ck_assert_uint_eq(call_cost(q, "f", "g", 2, &cnt), 5 + 6);
	ck_assert_int_eq(totals_compute(q, tot), TOTALS_SUMMARY);
	ck_assert_uint_eq(tot[2], 30 + 10);
	profile_free(q);
	/* F is below 0 somewhere: an error, no profile. */
	ck_assert_int_eq(derive_add(d, "F"), 1);
	ck_assert_ptr_null(reshape_build(p, &how, "t.out"));
	ck_assert_int_eq(msg_rc(), MSGL_ERROR);
	ck_assert_uint_eq(msg_count(MSG_DERIVED_NEGATIVE), 1);
	derive_free(d);
	profile_free(p);
	msg_reset();
}
END_TEST

START_TEST(test_reshape_fold_group)
{
	static const char	 text[] =
	    "events: Ir\n"
	    "ob=/bin/p\nfl=a.c\nfn=main\n1 1\n"
	    "cfn=fib'g\ncalls=1 5\n2 100\n"
	    "fn=fib'g\n5 10\n"
	    "cfn=fib'2'fib\ncalls=3 5\n6 80\n"
	    "fi=h.h\n7 5\n"
	    "fn=fib'2'fib\n5 50\n"
	    "cfn=fib'2'fib\ncalls=2 5\n6 30\n"
	    "cob=/lib/c.so\ncfi=c.c\ncfn=put\ncalls=1 1\n7 30\n"
	    "ob=/lib/c.so\nfl=c.c\nfn=put\n1 30\n";
	struct profile	*p, *q;
	struct reshape	 how = { NULL, FOLD_RECURSION | FOLD_CONTEXTS,
	    PROFILE_ROWS_FUNCTIONS, 1 };
	struct callgraph *g;
	uint64_t	 a[1], b[1], cnt;
	uint32_t	 r;

	p = load(text, NULL);
	q = reshape_build(p, &how, "t.out");
	ck_assert_int_eq(func_find(q, "/bin/p", "a.c", "fib"), 1);
	ck_assert_int_eq(func_find(q, "/bin/p", "a.c", "fib'g"), -1);
	ck_assert_uint_eq(row_self(q, "a.c:fib", 0), 10 + 50);
	ck_assert_uint_eq(row_self(q, "h.h:fib", 0), 5);
	ck_assert_uint_eq(call_cost(q, "fib", "fib", 0, &cnt), 80 + 30);
	ck_assert_uint_eq(call_cost(q, "main", "fib", 0, &cnt), 100);
	totals_compute(p, a);
	totals_compute(q, b);
	ck_assert_uint_eq(a[0], b[0]);
	/* The folded recursion is counted once. */
	g = callgraph_build(q);
	r = fntotals_row_find(g->t, profile_str_find(q, "a.c"),
	    profile_str_find(q, "fib"));
	ck_assert_uint_ne(r, UINT32_MAX);
	ck_assert_uint_eq(g->incl[r], 100);
	ck_assert_uint_eq(g->cycle[r], CG_NONE);
	callgraph_free(g);
	profile_free(q);

	how.fold = 0;
	how.rows = PROFILE_ROWS_OBJECTS;
	q = reshape_build(p, &how, "t.out");
	ck_assert_uint_eq(row_self(q, "/bin/p", 0), 1 + 10 + 5 + 50);
	ck_assert_uint_eq(row_self(q, "/lib/c.so", 0), 30);
	ck_assert_uint_eq(call_cost(q, "/bin/p", "/bin/p", 0, &cnt),
	    COST_NONE);
	ck_assert_uint_eq(call_cost(q, "/bin/p", "/lib/c.so", 0, &cnt), 30);
	profile_free(q);

	how.rows = PROFILE_ROWS_FILES;
	q = reshape_build(p, &how, "t.out");
	ck_assert_uint_eq(row_self(q, "a.c", 0), 1 + 10 + 50);
	ck_assert_uint_eq(row_self(q, "h.h", 0), 5);
	ck_assert_uint_eq(row_self(q, "c.c", 0), 30);
	ck_assert_uint_eq(self_cost(q, "a.c", "a.c", 5, 0), 60);
	ck_assert_uint_eq(call_cost(q, "a.c", "c.c", 0, &cnt), 30);
	profile_free(q);
	profile_free(p);
}
END_TEST

/* Fold and group every test profile: totals and self sums hold. */
static void
reshape_one(const char *path, void *arg)
{
	static const struct reshape	 hows[] = {
		{ NULL, FOLD_RECURSION, PROFILE_ROWS_FUNCTIONS, 1 },
		{ NULL, FOLD_CONTEXTS, PROFILE_ROWS_FUNCTIONS, 1 },
		{ NULL, FOLD_RECURSION | FOLD_CONTEXTS, PROFILE_ROWS_FUNCTIONS, 1 },
		{ NULL, 0, PROFILE_ROWS_OBJECTS, 1 },
		{ NULL, 0, PROFILE_ROWS_FILES, 1 },
	};
	struct profile		*p = profile_create(), *q;
	struct callgraph	*g;
	uint64_t		*a, *b, *s;
	unsigned		 nev, e;
	uint32_t		 r;
	size_t			 h;

	(void)arg;
	msg_set_quiet(1);
	if (load_file(p, path, NULL) != 0 || profile_nevents(p) == 0) {
		profile_free(p);
		return;
	}
	nev = profile_nevents(p);
	a = xcalloc(nev, sizeof(*a));
	b = xcalloc(nev, sizeof(*b));
	s = xcalloc(nev, sizeof(*s));
	for (h = 0; h < sizeof(hows) / sizeof(hows[0]); h++) {
		ck_assert_ptr_nonnull(q = reshape_build(p, &hows[h], path));
		totals_compute(p, a);
		totals_compute(q, b);
		ck_assert_msg(memcmp(a, b, nev * sizeof(*a)) == 0,
		    "%s: totals changed (%zu)", path, h);
		profile_self_total(p, s);
		profile_self_total(q, b);
		ck_assert_msg(memcmp(s, b, nev * sizeof(*s)) == 0,
		    "%s: self costs changed (%zu)", path, h);
		/*
		 * No entry above the totals (summary: lines may be above
		 * the self costs) or the self costs.
		 */
		for (e = 0; e < nev; e++)
			if (b[e] == COST_NONE || (a[e] != COST_NONE &&
			    a[e] > b[e]))
				b[e] = a[e];
		g = callgraph_build(q);
		for (r = 0; r < g->t->nrows; r++)
			for (e = 0; e < nev; e++)
				ck_assert_msg(g->incl[(size_t)r * nev + e] ==
				    COST_NONE || b[e] == COST_NONE ||
				    g->incl[(size_t)r * nev + e] <= b[e],
				    "%s: %s above the total (%zu)", path,
				    fntotals_label(g->t, r), h);
		callgraph_free(g);
		profile_free(q);
	}
	free(a);
	free(b);
	free(s);
	profile_free(p);
}

START_TEST(test_reshape_profiles)
{
	ck_assert_uint_gt(each_profile("profiles", reshape_one, NULL), 10);
	ck_assert_uint_gt(each_profile("producers", reshape_one, NULL), 3);
	msg_reset();
}
END_TEST

Suite *
make_derive_suite(void)
{
	Suite	*s = suite_create("derive");
	TCase	*tc = check_tcase();

	tcase_add_test(tc, test_fold_name);
	tcase_add_test(tc, test_formula_syntax);
	tcase_add_test(tc, test_derive);
	tcase_add_test(tc, test_builtins);
	tcase_add_test(tc, test_reshape_derived);
	tcase_add_test(tc, test_reshape_fold_group);
	tcase_add_test(tc, test_reshape_profiles);
	suite_add_tcase(s, tc);
	return s;
}
