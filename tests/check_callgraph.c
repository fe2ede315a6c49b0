/* check_callgraph.c - cycles and inclusive costs, rule by rule. */
#include "base/compat.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/callgraph.h"
#include "analysis/fntotals.h"
#include "base/cost.h"
#include "base/xmalloc.h"
#include "check_suites.h"
#include "check_util.h"
#include "model/profile.h"
#include "read/load.h"
#include "read/parse.h"

/* Return the row of label, or fail. */
static uint32_t
row_of(const struct callgraph *g, const char *label)
{
	size_t	i;

	for (i = 0; i < g->t->nrows; i++)
		if (strcmp(fntotals_label(g->t, i), label) == 0)
			return (uint32_t)i;
	ck_abort_msg("no row %s", label);
	return 0;
}

/* Return the inclusive cost of event 0 of label. */
static uint64_t
incl(const struct callgraph *g, const char *label)
{
	return g->incl[(size_t)row_of(g, label) * g->nevents];
}

START_TEST(test_direct_recursion)
{
	struct profile		*p;
	struct callgraph	*g;

	/* f is called by main (100) and by itself (90): 100, not 190. */
	p = load("events: Ir\nfl=a\nfn=main\n1 10\ncfn=f\ncalls=1 2\n1 100\n"
	    "fn=f\n2 100\ncfn=f\ncalls=9 2\n2 90\n", NULL);
	g = callgraph_build(p);
	ck_assert_uint_eq(incl(g, "a:main"), 110);
	ck_assert_uint_eq(incl(g, "a:f"), 100);
	ck_assert_uint_eq(g->ncycles, 0);
	callgraph_free(g);
	profile_free(p);
}
END_TEST

START_TEST(test_mutual_recursion)
{
	struct profile		*p;
	struct callgraph	*g;

	/* x -> a -> b -> c -> a: one cycle, entered by x -> a (60). */
	p = load("events: Ir\nfl=m\nfn=x\n1 5\ncfn=a\ncalls=1 1\n1 60\n"
	    "fn=a\n1 20\ncfn=b\ncalls=3 1\n1 40\n"
	    "fn=b\n1 20\ncfn=c\ncalls=3 1\n1 20\n"
	    "fn=c\n1 20\ncfn=a\ncalls=2 1\n1 5\n", NULL);
	g = callgraph_build(p);
	ck_assert_uint_eq(g->ncycles, 1);
	ck_assert_str_eq(g->cycles[0].label, "<cycle 1>");
	ck_assert_uint_eq(g->cycles[0].nmembers, 3);
	ck_assert_str_eq(fntotals_label(g->t, g->cycles[0].members[0]),
	    "m:a");
	ck_assert_uint_eq(g->cycles[0].incl[0], 60);
	/*
	 * Members: the calls entering from outside (a, 60), else as
	 * gprof: self and the calls leaving the cycle.
	 */
	ck_assert_uint_eq(incl(g, "m:a"), 60);
	ck_assert_uint_eq(incl(g, "m:b"), 20);
	ck_assert_uint_eq(incl(g, "m:c"), 20);
	ck_assert_uint_eq(incl(g, "m:x"), 65);
	callgraph_free(g);
	profile_free(p);
}
END_TEST

START_TEST(test_two_entries)
{
	struct profile		*p;
	struct callgraph	*g;

	/* w recurses and is entered from main (30) and from h (20). */
	p = load("events: Ir\nfl=r\nfn=main\n1 10\ncfn=w\ncalls=2 1\n1 30\n"
	    "cfn=h\ncalls=1 1\n1 25\n"
	    "fn=w\n1 50\ncfn=w\ncalls=5 1\n1 35\n"
	    "fn=h\n1 5\ncfn=w\ncalls=1 1\n1 20\n", NULL);
	g = callgraph_build(p);
	ck_assert_uint_eq(incl(g, "r:w"), 50);
	ck_assert_uint_eq(incl(g, "r:h"), 25);
	ck_assert_uint_eq(incl(g, "r:main"), 65);
	callgraph_free(g);
	profile_free(p);
}
END_TEST

START_TEST(test_roots)
{
	struct profile		*p;
	struct callgraph	*g;

	/*
	 * t is never called but calls itself (a thread start): self plus
	 * its other calls.  u and v form a cycle nothing enters: the cycle
	 * and its members count self costs plus calls leaving the cycle.
	 */
	p = load("events: Ir\nfl=r\nfn=t\n1 7\ncfn=t\ncalls=1 1\n1 3\n"
	    "cfn=k\ncalls=1 1\n1 4\nfn=k\n1 4\n"
	    "fn=u\n1 1\ncfn=v\ncalls=1 1\n1 12\n"
	    "fn=v\n1 2\ncfn=u\ncalls=1 1\n1 11\ncfn=k\ncalls=1 1\n1 4\n",
	    NULL);
	g = callgraph_build(p);
	ck_assert_uint_eq(incl(g, "r:t"), 11);
	ck_assert_uint_eq(g->ncycles, 1);
	ck_assert_uint_eq(g->cycles[0].incl[0], 7);
	ck_assert_uint_eq(incl(g, "r:u"), 1);
	ck_assert_uint_eq(incl(g, "r:v"), 6);
	ck_assert_uint_eq(incl(g, "r:k"), 8);
	callgraph_free(g);
	profile_free(p);
}
END_TEST

START_TEST(test_inlined_rows)
{
	struct profile		*p;
	struct callgraph	*g;

	/* A call made from inlined code leaves the header's row. */
	p = load("events: Ir\nfl=a.c\nfn=f\n1 1\nfi=h.h\n2 2\ncfn=g\n"
	    "calls=1 1\n2 40\nfe=a.c\ncfn=f2\ncalls=1 1\n3 8\n", NULL);
	g = callgraph_build(p);
	ck_assert_uint_eq(incl(g, "h.h:f"), 42);
	ck_assert_uint_eq(incl(g, "a.c:f"), 9);
	ck_assert_uint_eq(incl(g, "h.h:g"), 40);
	ck_assert_int_eq(g->t->rows[row_of(g, "h.h:g")].called_only, 1);
	callgraph_free(g);
	profile_free(p);
}
END_TEST

static void	append(char **, size_t *, size_t *, const char *, ...)
		    __attribute__((__format__(__printf__, 4, 5)));

/* Append printf-style text to a growing buffer. */
static void
append(char **buf, size_t *len, size_t *cap, const char *fmt, ...)
{
	va_list	ap;
	int	n;

	if (*cap - *len < 128) {
		*cap = *cap * 2 + 4096;
		*buf = xreallocarray(*buf, *cap, 1);
	}
	va_start(ap, fmt);
	n = vsnprintf(*buf + *len, *cap - *len, fmt, ap);
	va_end(ap);
	*len += (size_t)n;
}

/* A chain of n functions, or a cycle of n entered from main. */
static char *
deep_profile(unsigned n, int cycle)
{
	char	*buf = NULL;
	size_t	 len = 0, cap = 0;
	unsigned i;

	append(&buf, &len, &cap, "events: Ir\nfl=d\nfn=main\n1 1\n"
	    "cfn=f0\ncalls=1 1\n1 %u\n", n);
	for (i = 0; i < n; i++) {
		append(&buf, &len, &cap, "fn=f%u\n1 1\n", i);
		if (i + 1 < n)
			append(&buf, &len, &cap, "cfn=f%u\ncalls=1 1\n1 %u\n",
			    i + 1, n - i - 1);
		else if (cycle)
			append(&buf, &len, &cap, "cfn=f0\ncalls=1 1\n1 1\n");
	}
	return buf;
}

START_TEST(test_deep_chain)
{
	struct profile		*p;
	struct callgraph	*g;
	char			*text = deep_profile(100000, 0);

	p = load(text, NULL);
	g = callgraph_build(p);
	ck_assert_uint_eq(g->ncycles, 0);
	ck_assert_uint_eq(incl(g, "d:main"), 100001);
	ck_assert_uint_eq(incl(g, "d:f0"), 100000);
	ck_assert_uint_eq(incl(g, "d:f99999"), 1);
	callgraph_free(g);
	profile_free(p);
	free(text);
}
END_TEST

/*
 * A cycle member's inclusive cost is the calls into it from outside the
 * cycle (is_even: 1000, the whole run) or, if more, its self cost and
 * the calls it makes that leave the cycle: never below its self cost,
 * even when only its cycle calls it (is_odd in mutual recursion).
 */
START_TEST(test_cycle_member)
{
	struct profile		*p;
	struct callgraph	*g;

	p = load("events: Ir\nfl=m\nfn=main\n1 1\ncfn=is_even\n"
	    "calls=1 1\n1 1000\n"
	    "fn=is_even\n1 400\ncfn=is_odd\ncalls=5 1\n1 600\n"
	    "fn=is_odd\n1 500\ncfn=is_even\ncalls=4 1\n1 90\n"
	    "cfn=log\ncalls=1 1\n1 10\n"
	    "fn=log\n1 10\n", NULL);
	g = callgraph_build(p);
	ck_assert_uint_eq(g->ncycles, 1);
	ck_assert_uint_eq(g->cycles[0].incl[0], 1000);
	ck_assert_uint_eq(incl(g, "m:is_even"), 1000);
	ck_assert_uint_eq(incl(g, "m:is_odd"), 510);
	ck_assert_uint_eq(incl(g, "m:log"), 10);
	ck_assert_uint_eq(incl(g, "m:main"), 1001);
	callgraph_free(g);
	profile_free(p);
}
END_TEST

START_TEST(test_big_cycle)
{
	struct profile		*p;
	struct callgraph	*g;
	char			*text = deep_profile(100000, 1);

	p = load(text, NULL);
	g = callgraph_build(p);
	ck_assert_uint_eq(g->ncycles, 1);
	ck_assert_uint_eq(g->cycles[0].nmembers, 100000);
	ck_assert_uint_eq(g->cycles[0].incl[0], 100000);
	ck_assert_uint_eq(incl(g, "d:f0"), 100000);	/* entered */
	ck_assert_uint_eq(incl(g, "d:f5"), 1);
	callgraph_free(g);
	profile_free(p);
	free(text);
}
END_TEST

START_TEST(test_members_by_label)
{
	/*
	 * A ring of seven, labels compared whole: "a:zz" after "a:b:c"
	 * although file "a" is before file "a:b"; "a:b:c" twice (file a,
	 * name b:c; file a:b, name c): equal labels by row.
	 */
	static const char *const ring[][2] = {
		{ "a", "zz" }, { "a:b", "c" }, { "ab", "x" }, { "a", "b:c" },
		{ "a", "b" }, { "a:", "a" }, { "a", "zza" }
	};
	struct profile		*p;
	struct callgraph	*g;
	const struct cgcycle	*cy;
	char			 text[2048];
	size_t			 n = sizeof(ring) / sizeof(ring[0]), i, len;
	uint32_t		 a, b;
	int			 c;

	len = (size_t)snprintf(text, sizeof(text), "events: Ir\n");
	for (i = 0; i < n; i++)
		len += (size_t)snprintf(text + len, sizeof(text) - len,
		    "fl=%s\nfn=%s\n1 1\ncfl=%s\ncfn=%s\ncalls=1 1\n1 1\n",
		    ring[i][0], ring[i][1], ring[(i + 1) % n][0],
		    ring[(i + 1) % n][1]);
	ck_assert_uint_lt(len, sizeof(text));
	p = load(text, NULL);
	g = callgraph_build(p);
	ck_assert_uint_eq(g->ncycles, 1);
	cy = &g->cycles[0];
	ck_assert_uint_eq(cy->nmembers, n);
	for (i = 1; i < n; i++) {
		a = cy->members[i - 1];
		b = cy->members[i];
		c = strcmp(fntotals_label(g->t, a), fntotals_label(g->t, b));
		ck_assert_msg(c < 0 || (c == 0 && a < b), "%s (row %u) "
		    "before %s (row %u)", fntotals_label(g->t, a), a,
		    fntotals_label(g->t, b), b);
		ck_assert_int_eq(fntotals_labelcmp(g->t, a, b), c < 0 ? -1 :
		    c > 0);
	}
	ck_assert_str_eq(fntotals_label(g->t, cy->members[0]), "a::a");
	ck_assert_str_eq(fntotals_label(g->t, cy->members[n - 1]), "ab:x");
	callgraph_free(g);
	profile_free(p);
}
END_TEST

START_TEST(test_scc_deep)
{
	uint32_t	n = 1000000, i, *start, *succ, *comp;

	/* A path of 10^6 nodes closed into one cycle: no recursion. */
	start = xreallocarray(NULL, n + 1, sizeof(*start));
	succ = xreallocarray(NULL, n, sizeof(*succ));
	comp = xreallocarray(NULL, n, sizeof(*comp));
	for (i = 0; i <= n; i++)
		start[i] = i;
	for (i = 0; i < n; i++)
		succ[i] = i + 1 < n ? i + 1 : 0;
	ck_assert_uint_eq(callgraph_scc(start, succ, n, comp), 1);
	succ[n - 1] = n - 1;		/* now a chain with a self-loop */
	ck_assert_uint_eq(callgraph_scc(start, succ, n, comp), n);
	free(start);
	free(succ);
	free(comp);
}
END_TEST

START_TEST(test_never_above_total)
{
	struct callgraph	*g;
	struct profile		*p;
	struct dirent		*de;
	DIR			*d;
	char			 path[4096];
	uint64_t		*total, v;
	size_t			 i, k, n = 0;

	/* Property: on every test profile no inclusive cost is above the
	 * program total. */
	ck_assert_ptr_nonnull(d = opendir(CGA_TESTDATA "/profiles"));
	while ((de = readdir(d)) != NULL) {
		if (strstr(de->d_name, ".out") == NULL)
			continue;
		snprintf(path, sizeof(path), CGA_TESTDATA "/profiles/%s",
		    de->d_name);
		p = profile_create();
		ck_assert_int_eq(load_file(p, path, NULL), 0);
		g = callgraph_build(p);
		total = xreallocarray(NULL, g->nevents, sizeof(*total));
		totals_compute(p, total);
		for (i = 0; i < g->t->nrows + g->ncycles; i++)
			for (k = 0; k < g->nevents; k++) {
				v = g->incl[i * g->nevents + k];
				ck_assert_msg(v == COST_NONE || v <= total[k],
				    "%s: entry %zu event %zu: %llu > %llu",
				    de->d_name, i, k, (unsigned long long)v,
				    (unsigned long long)total[k]);
			}
		free(total);
		callgraph_free(g);
		profile_free(p);
		n++;
	}
	closedir(d);
	ck_assert_uint_ge(n, 10);
}
END_TEST

Suite *
make_callgraph_suite(void)
{
	Suite	*s = suite_create("callgraph");
	TCase	*tc = check_tcase();

	tcase_add_test(tc, test_direct_recursion);
	tcase_add_test(tc, test_mutual_recursion);
	tcase_add_test(tc, test_two_entries);
	tcase_add_test(tc, test_roots);
	tcase_add_test(tc, test_inlined_rows);
	tcase_add_test(tc, test_deep_chain);
	tcase_add_test(tc, test_cycle_member);
	tcase_add_test(tc, test_big_cycle);
	tcase_add_test(tc, test_members_by_label);
	tcase_add_test(tc, test_scc_deep);
	tcase_add_test(tc, test_never_above_total);
	suite_add_tcase(s, tc);
	return s;
}
