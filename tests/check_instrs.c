/* check_instrs.c - machine code costs: kept instructions, jumps, calls. */
#include "base/compat.h"

#include <stdlib.h>
#include <string.h>

#include "base/cost.h"
#include "base/msg.h"
#include "base/xmalloc.h"
#include "check_suites.h"
#include "check_util.h"
#include "model/instrs.h"
#include "model/profile.h"
#include "read/load.h"
#include "read/parse.h"

/* Parse text keeping machine code. */
static struct profile *
load_instrs(const char *text)
{
	struct parse_opts	 po;
	struct profile		*p = profile_create();

	memset(&po, 0, sizeof(po));
	po.instrs = 1;
	ck_assert_int_eq(parse_buffer(p, "t.out", text, strlen(text), &po), 0);
	return p;
}

START_TEST(test_instrs_parse)
{
	static const char	 text[] =
	    "positions: instr line\n"
	    "events: Ir Dr\n"
	    "fl=a.c\nfn=f\n"
	    "0x10 3 2 1\n"
	    "+4 * 5\n"
	    "jcnd=7/9 +12 +1\n"
	    "* *\n"
	    "fi=h.h\n"
	    "+2 40 1 1\n"
	    "fe=a.c\n"
	    "cfn=g\ncalls=3 0x40 9\n"
	    "-2 4 30 6\n"
	    "jump=2 0x10 3\n"
	    "* *\n"
	    "0x10 3 1\n"
	    "fn=g\n0x40 9 30 6\n";
	struct profile		*p;
	const struct instrs	*ins;
	const struct ijump	*j;
	const struct icall	*c;
	uint32_t		 fn, file;
	uint64_t		 addr, line;

	p = load_instrs(text);
	ck_assert_ptr_nonnull(ins = profile_instrs(p));
	ck_assert_uint_eq(instrs_count(ins), 4);
	instrs_get(ins, 0, &fn, &addr, &file, &line);
	ck_assert_uint_eq(addr, 0x10);
	ck_assert_uint_eq(line, 3);
	ck_assert_uint_eq(instrs_cost(ins, 0)[0], 2 + 1);
	ck_assert_uint_eq(instrs_cost(ins, 0)[1], 1);
	instrs_get(ins, 1, &fn, &addr, &file, &line);
	ck_assert_uint_eq(addr, 0x14);
	ck_assert_uint_eq(instrs_cost(ins, 1)[0], 5);
	ck_assert_uint_eq(instrs_cost(ins, 1)[1], COST_NONE);
	instrs_get(ins, 2, &fn, &addr, &file, &line);
	ck_assert_uint_eq(addr, 0x16);
	ck_assert_str_eq(profile_str(p, file), "h.h");
	ck_assert_uint_eq(line, 40);
	ck_assert_uint_eq(instrs_njumps(ins), 2);
	j = instrs_jump(ins, 0);
	ck_assert_int_eq(j->cond, 1);
	ck_assert_uint_eq(j->addr, 0x14);
	ck_assert_uint_eq(j->target, 0x14 + 12);
	ck_assert_uint_eq(j->taken, 7);
	ck_assert_uint_eq(j->executed, 9);
	j = instrs_jump(ins, 1);
	ck_assert_int_eq(j->cond, 0);
	ck_assert_uint_eq(j->addr, 0x14);
	ck_assert_uint_eq(j->target, 0x10);
	ck_assert_uint_eq(j->taken, 2);
	ck_assert_uint_eq(instrs_ncalls(ins), 1);
	c = instrs_call(ins, 0);
	ck_assert_uint_eq(c->addr, 0x14);
	ck_assert_uint_eq(c->count, 3);
	ck_assert_uint_eq(instrs_call_cost(ins, 0)[0], 30);
	ck_assert_str_eq(profile_str(p, profile_event(p, 0)), "Ir");
	profile_free(p);
	/* Not asked for: nothing kept. */
	p = load(text, NULL);
	ck_assert_ptr_null(profile_instrs(p));
	profile_free(p);
}
END_TEST

/*
 * Every function's instructions add up to its self cost, on a profile
 * with instruction positions read keeping them; its report is the same.
 */
static void
instrs_one(const char *path, void *arg)
{
	struct parse_opts	 po;
	struct profile		*p = profile_create(), *q = profile_create();
	const struct instrs	*ins;
	uint64_t		*a, *b, l;
	uint32_t		 i, fn, file, nf;
	unsigned		 nev, e;
	size_t			*n = arg;

	msg_set_quiet(1);
	memset(&po, 0, sizeof(po));
	po.instrs = 1;
	if (load_file(p, path, &po) != 0 || (ins = profile_instrs(p)) ==
	    NULL) {
		profile_free(p);
		profile_free(q);
		return;
	}
	(*n)++;
	ck_assert_int_eq(load_file(q, path, NULL), 0);
	nev = profile_nevents(p);
	nf = profile_nfuncs(p);
	a = xcalloc((size_t)nf * nev + 1, sizeof(*a));
	b = xcalloc((size_t)nf * nev + 1, sizeof(*b));
	for (i = 0; i < (size_t)nf * nev; i++)
		a[i] = b[i] = COST_NONE;
	for (i = 0; i < instrs_count(ins); i++) {
		instrs_get(ins, i, &fn, &l, &file, &l);
		cost_add(a + (size_t)fn * nev, instrs_cost(ins, i), nev);
	}
	for (i = 0; i < profile_nlines(p); i++) {
		uint64_t	*c = xcalloc(nev, sizeof(*c));

		profile_line(p, i, &fn, &file, &l);
		profile_line_cost(p, i, c);
		cost_add(b + (size_t)fn * nev, c, nev);
		free(c);
	}
	for (i = 0; i < nf; i++)
		for (e = 0; e < nev; e++)
			ck_assert_msg(a[(size_t)i * nev + e] ==
			    b[(size_t)i * nev + e] || cost_is_zero(b +
			    (size_t)i * nev, nev), "%s: function %u: "
			    "instructions %llu, lines %llu", path, i,
			    (unsigned long long)a[(size_t)i * nev + e],
			    (unsigned long long)b[(size_t)i * nev + e]);
	/* Keeping machine code changes nothing else. */
	ck_assert_uint_eq(profile_nlines(p), profile_nlines(q));
	ck_assert_uint_eq(profile_narcs(p), profile_narcs(q));
	free(a);
	free(b);
	profile_free(p);
	profile_free(q);
}

START_TEST(test_instrs_profiles)
{
	size_t	n = 0;

	each_profile("profiles", instrs_one, &n);
	each_profile("asm", instrs_one, &n);
	each_profile("producers", instrs_one, &n);
	ck_assert_uint_ge(n, 8);
	msg_reset();
}
END_TEST

Suite *
make_instrs_suite(void)
{
	Suite	*s = suite_create("instrs");
	TCase	*tc = check_tcase();

	tcase_add_test(tc, test_instrs_parse);
	tcase_add_test(tc, test_instrs_profiles);
	suite_add_tcase(s, tc);
	return s;
}
