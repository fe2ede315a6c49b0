/* check_instrs.c - machine code costs: kept instructions, jumps, calls. */
#include "base/compat.h"

#include <stdlib.h>
#include <string.h>

#include "base/cost.h"
#include "base/hooks.h"
#include "base/objdump.h"
#include "base/msg.h"
#include "base/xmalloc.h"
#include "check_suites.h"
#include "check_util.h"
#include "model/instrs.h"
#include "model/profile.h"
#include "read/load.h"
#include "read/parse.h"
#include "view/format.h"
#include "view/report.h"

/* Parse text keeping machine code. */
static struct profile *
load_instrs(const char *text)
{
	struct parse_opts	 po;
	struct profile		*p = profile_create();

	memset(&po, 0, sizeof(po));
	po.instrs = 1;
	ck_assert_int_eq(parse_buffer(p, "t.out", text, strlen(text), &po), 0);
	ck_assert_int_eq(profile_done(p), 0);
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
	    "fn=g\n0x40 9 30 6\n"
	    /* f again: its jump and call summed into the first ones. */
	    "fn=f\n"
	    "jcnd=1/2 0x20 6\n"
	    "0x14 5\n"
	    "0x14 5 1\n"
	    "cfn=g\ncalls=1 0x40 9\n"
	    "0x14 5 10 2\n";
	struct profile		*p;
	const struct instrs	*ins;
	const struct ijump	*j;
	const struct icall	*c;
	uint32_t		 fn, file;
	uint64_t		 addr, line, cost[2];

	p = load_instrs(text);
	ck_assert_ptr_nonnull(ins = profile_instrs(p));
	ck_assert_uint_eq(instrs_count(ins), 4);
	instrs_get(ins, 0, &fn, &addr, &file, &line);
	ck_assert_uint_eq(addr, 0x10);
	ck_assert_uint_eq(line, 3);
	instrs_cost(ins, 0, cost);
	ck_assert_uint_eq(cost[0], 2 + 1);
	ck_assert_uint_eq(cost[1], 1);
	instrs_get(ins, 1, &fn, &addr, &file, &line);
	ck_assert_uint_eq(addr, 0x14);
	instrs_cost(ins, 1, cost);
	ck_assert_uint_eq(cost[0], 5 + 1);
	ck_assert_uint_eq(cost[1], COST_NONE);
	instrs_get(ins, 2, &fn, &addr, &file, &line);
	ck_assert_uint_eq(addr, 0x16);
	ck_assert_str_eq(profile_str(p, file), "h.h");
	ck_assert_uint_eq(line, 40);
	ck_assert_uint_eq(instrs_njumps(ins), 2);
	j = instrs_jump(ins, 0);
	ck_assert_int_eq(j->cond, 1);
	ck_assert_uint_eq(j->addr, 0x14);
	ck_assert_uint_eq(j->target, 0x14 + 12);
	ck_assert_uint_eq(j->taken, 7 + 1);
	ck_assert_uint_eq(j->executed, 9 + 2);
	j = instrs_jump(ins, 1);
	ck_assert_int_eq(j->cond, 0);
	ck_assert_uint_eq(j->addr, 0x14);
	ck_assert_uint_eq(j->target, 0x10);
	ck_assert_uint_eq(j->taken, 2);
	ck_assert_uint_eq(instrs_ncalls(ins), 1);
	c = instrs_call(ins, 0);
	ck_assert_uint_eq(c->addr, 0x14);
	ck_assert_uint_eq(c->count, 3 + 1);
	ck_assert_uint_eq(instrs_call_cost(ins, 0)[0], 30 + 10);
	ck_assert_uint_eq(instrs_call_cost(ins, 0)[1], 6 + 2);
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
/*
 * Read path again with the instructions of functions given again summed
 * after each one (hooks.compact), as a big profile of many parts or
 * threads has them summed while it is read, or all at the end, each time
 * in two threads whatever the size (instrs_sum(), instrs_compact()): the
 * same machine code as ins, read without.
 */
static void
instrs_compacted(const char *path, const struct parse_opts *po,
    const struct instrs *ins)
{
	struct profile		*r;
	const struct instrs	*c;
	const struct ijump	*ja, *jb;
	const struct icall	*ca, *cb;
	uint64_t		 x[2][64], aa, ab, la, lb;
	uint32_t		 i, fa, fb, sa, sb;
	unsigned		 nev = instrs_nevents(ins);
	int			 each;

	for (each = 0; each < 2; each++) {
		r = profile_create();
		hooks.compact = each;
		hooks.compact_split = 1;
		ck_assert_int_eq(load_file(r, path, po), 0);
		hooks.compact = 0;
		ck_assert_int_eq(profile_done(r), 0);
		hooks.compact_split = 0;
		ck_assert_ptr_nonnull(c = profile_instrs(r));
		ck_assert_uint_eq(instrs_count(c), instrs_count(ins));
		ck_assert_uint_le(nev, 64);
		for (i = 0; i < instrs_count(ins); i++) {
			instrs_get(ins, i, &fa, &aa, &sa, &la);
			instrs_get(c, i, &fb, &ab, &sb, &lb);
			ck_assert(fa == fb && aa == ab && sa == sb && la == lb);
			instrs_cost(ins, i, x[0]);
			instrs_cost(c, i, x[1]);
			ck_assert_mem_eq(x[0], x[1], nev * sizeof(x[0][0]));
		}
		ck_assert_uint_eq(instrs_njumps(c), instrs_njumps(ins));
		for (i = 0; i < instrs_njumps(ins); i++) {
			ja = instrs_jump(ins, i);
			jb = instrs_jump(c, i);
			ck_assert(ja->fn == jb->fn && ja->addr == jb->addr &&
			    ja->target == jb->target && ja->taken ==
			    jb->taken && ja->executed == jb->executed);
		}
		ck_assert_uint_eq(instrs_ncalls(c), instrs_ncalls(ins));
		for (i = 0; i < instrs_ncalls(ins); i++) {
			ca = instrs_call(ins, i);
			cb = instrs_call(c, i);
			ck_assert(ca->fn == cb->fn && ca->addr == cb->addr &&
			    ca->callee == cb->callee && ca->count ==
			    cb->count);
			ck_assert_mem_eq(instrs_call_cost(ins, i),
			    instrs_call_cost(c, i), nev * sizeof(x[0][0]));
		}
		profile_free(r);
	}
}

/*
 * Read path with every instruction kept (po set so) into a profile, once
 * read; NULL if it cannot be read or holds no machine code.
 */
static struct profile *
load_kept(const char *path, struct parse_opts *po)
{
	struct profile	*p = profile_create();

	msg_set_quiet(1);
	memset(po, 0, sizeof(*po));
	po->instrs = PARSE_INSTRS_ALL;
	if (load_file(p, path, po) != 0 || profile_instrs(p) == NULL) {
		profile_free(p);
		return NULL;
	}
	ck_assert_int_eq(profile_done(p), 0);
	return p;
}

static void
instrs_one(const char *path, void *arg)
{
	struct parse_opts	 po;
	struct profile		*p, *q;
	const struct instrs	*ins;
	const uint32_t		*ids;
	uint64_t		*a, *b, *c, l, addr, prev, next, lo, hi;
	uint32_t		 i, fn, file, nf, j, k, m;
	unsigned		 nev, e;
	size_t			*n = arg;

	if ((p = load_kept(path, &po)) == NULL)
		return;
	ins = profile_instrs(p);
	q = profile_create();
	(*n)++;
	instrs_compacted(path, &po, ins);
	ck_assert_int_eq(load_file(q, path, NULL), 0);
	nev = profile_nevents(p);
	nf = profile_nfuncs(p);
	a = xcalloc((size_t)nf * nev + 1, sizeof(*a));
	b = xcalloc((size_t)nf * nev + 1, sizeof(*b));
	c = xcalloc(nev + 1, sizeof(*c));
	for (i = 0; i < (size_t)nf * nev; i++)
		a[i] = b[i] = COST_NONE;
	for (i = 0; i < instrs_count(ins); i++) {
		instrs_get(ins, i, &fn, &l, &file, &l);
		instrs_cost(ins, i, c);
		cost_add(a + (size_t)fn * nev, c, nev);
	}
	for (i = 0; i < profile_nlines(p); i++) {
		profile_line(p, i, &fn, &file, &l);
		profile_line_cost(p, i, c);
		cost_add(b + (size_t)fn * nev, c, nev);
	}
	free(c);
	/* Each function's once by address, every instruction in one. */
	for (i = m = 0; i < nf; i++) {
		ids = instrs_byfn(ins, i, &k);
		for (j = 0; j < k; j++) {
			instrs_get(ins, ids[j], &fn, &addr, &file, &l);
			ck_assert_uint_eq(fn, i);
			ck_assert_uint_eq(instrs_find(ins, i, addr), ids[j]);
			/* Misses: an address between two, another upper half. */
			if (j + 1 < k) {
				instrs_get(ins, ids[j + 1], &fn, &next, &file,
				    &l);
				if (next > addr + 1)
					ck_assert_uint_eq(instrs_find(ins, i,
					    addr + 1), UINT32_MAX);
			}
			if (instrs_range(ins, i, &lo, &hi) &&
			    ((addr ^ (uint64_t)1 << 40) < lo ||
			    (addr ^ (uint64_t)1 << 40) > hi))
				ck_assert_uint_eq(instrs_find(ins, i, addr ^
				    (uint64_t)1 << 40), UINT32_MAX);
			if (j > 0) {
				instrs_get(ins, ids[j - 1], &fn, &prev,
				    &file, &l);
				ck_assert_uint_lt(prev, addr);
			}
		}
		m += k;
	}
	ck_assert_uint_eq(m, instrs_count(ins));
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

/*
 * Line numbers of 2^32 - 1 and more, and addresses whose upper half is
 * not their function's (a function across a 4 GB boundary), are kept
 * aside: given, merged from another table, and around instructions given
 * again (dropped, the first's line kept), each instruction has its own,
 * and is found by its address in order.
 */
START_TEST(test_instrs_wide)
{
	static const uint64_t	 big = (uint64_t)1 << 32;
	static const struct {
		uint32_t	 fn;
		uint64_t	 addr, line;
	} in[] = {
		{ 0, 0x10, 5 }, { 0, 0x11, big + 5 }, { 0, 0x12, big - 1 },
		{ 0, 0x13, big - 2 }, { 1, 0x20, UINT64_MAX },
		{ 2, big - 0x10, 1 }, { 2, big + 0x10, 2 },
		{ 3, UINT64_MAX - 4, 3 }, { 3, 0x30, 4 },
	}, more[] = {
		{ 0, 0x10, big + 9 }, { 1, 0x21, 3 * big }, { 2, big + 0x10, 9 },
		{ 0, 0x11, 7 }, { 1, 0x20, 1 }, { 2, 2 * big, 5 },
		{ 3, UINT64_MAX - 4, 8 }, { 2, big - 0x20, 6 },
		{ 0, 0x14, big + 100 },
	}, want[] = {
		{ 0, 0x10, 5 }, { 0, 0x11, big + 5 }, { 0, 0x12, big - 1 },
		{ 0, 0x13, big - 2 }, { 0, 0x14, big + 100 },
		{ 1, 0x20, UINT64_MAX }, { 1, 0x21, 3 * big },
		{ 2, big - 0x20, 6 }, { 2, big - 0x10, 1 },
		{ 2, big + 0x10, 2 }, { 2, 2 * big, 5 },
		{ 3, 0x30, 4 }, { 3, UINT64_MAX - 4, 3 },
	};
	static const uint64_t	 again[] = { 0x10, 0x11, 0x20, big + 0x10,
				    UINT64_MAX - 4 };
	struct instrs	*t, *src;
	uint32_t	 map[4] = { 0, 1, 2, 3 }, strmap[1] = { 0 }, fn, file;
	uint32_t	 id, n, k;
	const uint32_t	*ids;
	uint64_t	 one = 1, addr, line, cost, lo, hi;
	size_t		 i;

	t = instrs_new(1);
	src = instrs_new(1);
	for (i = 0; i < sizeof(in) / sizeof(in[0]); i++)
		instrs_add(t, in[i].fn, in[i].addr, 0, in[i].line, &one, 1);
	for (i = 0; i < sizeof(more) / sizeof(more[0]); i++)
		instrs_add(src, more[i].fn, more[i].addr, 0, more[i].line,
		    &one, 1);
	instrs_merge(t, src, strmap, map);
	ck_assert_int_eq(instrs_trim(t), 0);
	ck_assert_uint_eq(instrs_count(t), sizeof(want) / sizeof(want[0]));
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		id = instrs_find(t, want[i].fn, want[i].addr);
		ck_assert_uint_ne(id, UINT32_MAX);
		instrs_get(t, id, &fn, &addr, &file, &line);
		ck_assert_uint_eq(fn, want[i].fn);
		ck_assert_uint_eq(addr, want[i].addr);
		ck_assert_uint_eq(line, want[i].line);
		instrs_cost(t, id, &cost);
		for (k = 0; k < sizeof(again) / sizeof(again[0]); k++)
			if (again[k] == want[i].addr)
				break;
		ck_assert_uint_eq(cost, k < sizeof(again) / sizeof(again[0]) ?
		    2 : 1);
	}
	/* Each function's by address, from its least to its greatest. */
	for (fn = 0, i = 0; fn < 4; fn++) {
		ids = instrs_byfn(t, fn, &n);
		ck_assert_uint_gt(n, 0);
		for (k = 0; k < n; k++, i++) {
			instrs_get(t, ids[k], &file, &addr, &file, &line);
			ck_assert_uint_eq(addr, want[i].addr);
		}
		ck_assert_int_eq(instrs_range(t, fn, &lo, &hi), 1);
		ck_assert_uint_eq(lo, want[i - n].addr);
		ck_assert_uint_eq(hi, want[i - 1].addr);
	}
	ck_assert_uint_eq(instrs_find(t, 2, big), UINT32_MAX);
	instrs_free(src);
	instrs_free(t);
}
END_TEST

/*
 * A function's instructions given in many runs in order, runs backwards
 * and addresses again (instrs_sort_runs(): a bottom-up merge of the
 * runs), dropped in two threads from split instructions on (0: as the
 * program does): each address once, in order, with the sum of its
 * counts and the line it was first given; another function's, given
 * between them, kept apart.
 */
static void
instrs_runs_once(uint32_t split)
{
	enum { N = 3000, A = 700 };
	static uint64_t	 sum[2][A], first[2][A];
	struct instrs	*t;
	uint64_t	 x = 12345, addr, line, cost, lo, hi, prev;
	uint32_t	 fn, file, n, k, id, a = 0;
	const uint32_t	*ids;
	size_t		 i, run = 0;
	unsigned	 f;

	hooks.compact_split = split;
	memset(sum, 0, sizeof(sum));
	memset(first, 0, sizeof(first));
	t = instrs_new(1);
	for (i = 0; i < N; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		if (run == 0) {
			/* A new run: somewhere else, of 1 to 40. */
			a = (uint32_t)(x >> 33) % A;
			run = 1 + (x >> 20) % 40;
		}
		f = (x >> 10) % 7 == 0;		/* now and then the other */
		/* Runs forward, backward (every fifth) or in place. */
		a = (x >> 40) % 5 == 0 ? (a + A - 1) % A : (x >> 40) % 11 == 0 ?
		    a : (a + 1) % A;
		run--;
		cost = i + 1;
		instrs_add(t, f, 0x1000 + a, 0, i + 1, &cost, 1);
		sum[f][a] += cost;
		if (first[f][a] == 0)
			first[f][a] = i + 1;
	}
	ck_assert_int_eq(instrs_trim(t), 0);
	hooks.compact_split = 0;
	for (f = 0; f < 2; f++) {
		ids = instrs_byfn(t, f, &n);
		for (a = k = 0; a < A; a++)
			k += first[f][a] != 0;
		ck_assert_uint_eq(n, k);
		prev = 0;
		for (k = 0; k < n; k++) {
			instrs_get(t, ids[k], &fn, &addr, &file, &line);
			ck_assert_uint_eq(fn, f);
			ck_assert_uint_gt(addr, prev);
			prev = addr;
			a = (uint32_t)(addr - 0x1000);
			ck_assert_uint_lt(a, A);
			ck_assert_uint_eq(line, first[f][a]);
			instrs_cost(t, ids[k], &cost);
			ck_assert_uint_eq(cost, sum[f][a]);
			id = instrs_find(t, f, addr);
			ck_assert_uint_eq(id, ids[k]);
		}
		ck_assert_int_eq(instrs_range(t, f, &lo, &hi), 1);
	}
	instrs_free(t);
}

START_TEST(test_instrs_runs)
{
	instrs_runs_once(0);
	instrs_runs_once(1);
}
END_TEST

/*
 * Call fn on every test profile with machine code to read (testdata's
 * profiles, asm and producers), with a count it adds to: at least 8.
 */
static void
instrs_each(void (*fn)(const char *, void *))
{
	size_t	n = 0;

	each_profile("profiles", fn, &n);
	each_profile("asm", fn, &n);
	each_profile("producers", fn, &n);
	ck_assert_uint_ge(n, 8);
	msg_reset();
}

START_TEST(test_instrs_profiles)
{
	instrs_each(instrs_one);
}
END_TEST

/*
 * Read path with the calls' sites of its machine code alone (in one
 * thread and in chunks read ahead, every other in a second thread) and
 * check them against every instruction kept: the same calls, each with
 * its position, count and costs, the same range of addresses for each
 * function, nothing else of the machine code, the rest of the profile
 * alike.
 */
static void
sites_one(const char *path, void *arg)
{
	struct parse_opts	 po;
	struct profile		*p, *q;
	const struct instrs	*a, *b;
	const struct icall	*x, *y;
	uint64_t		 lo[2], hi[2];
	uint32_t		 i, fn;
	unsigned		 nev;
	size_t			*n = arg, chunk;
	int			 r[2];

	if ((p = load_kept(path, &po)) == NULL)
		return;
	a = profile_instrs(p);
	(*n)++;
	nev = profile_nevents(p);
	for (chunk = 0; chunk <= 32768; chunk += 32768) {
		q = profile_create();
		po.instrs = PARSE_INSTRS_SITES;
		hooks.chunk = chunk;
		hooks.alternate = 1;	/* merged from the second thread */
		ck_assert_int_eq(load_file(q, path, &po), 0);
		hooks.chunk = 0;
		hooks.alternate = 0;
		(void)profile_done(q);
		ck_assert_ptr_nonnull(b = profile_instrs(q));
		ck_assert_int_eq(instrs_sites(b), 1);
		ck_assert_uint_eq(instrs_count(b), 0);
		ck_assert_uint_eq(instrs_njumps(b), 0);
		ck_assert_int_eq(instrs_empty(b), instrs_empty(a));
		ck_assert_uint_eq(profile_nfuncs(q), profile_nfuncs(p));
		ck_assert_uint_eq(profile_nlines(q), profile_nlines(p));
		ck_assert_uint_eq(profile_narcs(q), profile_narcs(p));
		ck_assert_uint_eq(instrs_ncalls(b), instrs_ncalls(a));
		for (i = 0; i < instrs_ncalls(a); i++) {
			x = instrs_call(a, i);
			y = instrs_call(b, i);
			ck_assert_msg(x->fn == y->fn && x->callee ==
			    y->callee && x->addr == y->addr && x->count ==
			    y->count && x->line == y->line && strcmp(
			    profile_str(p, x->file), profile_str(q, y->file))
			    == 0 && memcmp(instrs_call_cost(a, i),
			    instrs_call_cost(b, i), nev * sizeof(uint64_t))
			    == 0, "%s: call %u differs", path, i);
		}
		for (fn = 0; fn < profile_nfuncs(p); fn++) {
			r[0] = instrs_range(a, fn, &lo[0], &hi[0]);
			r[1] = instrs_range(b, fn, &lo[1], &hi[1]);
			ck_assert_int_eq(r[0], r[1]);
			if (r[0]) {
				ck_assert_uint_eq(lo[0], lo[1]);
				ck_assert_uint_eq(hi[0], hi[1]);
			}
		}
		profile_free(q);
	}
	profile_free(p);
}

START_TEST(test_instrs_sites)
{
	instrs_each(sites_one);
}
END_TEST

/*
 * Read the listing of object path into d: its code from a to b and from
 * b to c, the higher range first (so that the listing is sorted after
 * the second), entries and texts written out every held bytes (0: the
 * default).
 */
static void
spool_read(struct objdump *d, const char *path, uint64_t a, uint64_t b,
    uint64_t c, size_t held)
{
	char	err[512];

	memset(d, 0, sizeof(*d));
	hooks.held = held;
	ck_assert_int_eq(objdump_read(d, "objdump", path, b, c, NULL, 0, 60,
	    err, sizeof(err)), OBJDUMP_OK);
	ck_assert_int_eq(objdump_read(d, "objdump", path, a, b, NULL, 0, 60,
	    err, sizeof(err)), OBJDUMP_OK);
	hooks.held = 0;
}

/* Check that runs [j0, j1) of a and b have the same texts. */
static void
spool_same(const struct objdump *a, const struct objdump *b, size_t j0,
    size_t j1)
{
	struct objdump_texts	ta, tb;
	size_t			j;

	objdump_texts(a, j0, j1, &ta);
	objdump_texts(b, j0, j1, &tb);
	for (j = j0; j < j1; j++) {
		ck_assert_uint_eq(ta.insns[j - j0].addr,
		    tb.insns[j - j0].addr);
		ck_assert_uint_eq(objdump_addr(a, j), objdump_addr(b, j));
		ck_assert_uint_eq(objdump_find(a, objdump_addr(a, j)),
		    objdump_find(b, objdump_addr(b, j)));
		ck_assert_uint_eq(objdump_find(a, objdump_addr(a, j) + 1),
		    objdump_find(b, objdump_addr(b, j) + 1));
		ck_assert_str_eq(objdump_text(a, &ta, j),
		    objdump_text(b, &tb, j));
	}
	objdump_texts_free(&ta);
	objdump_texts_free(&tb);
}

/*
 * A listing's texts written to a temporary file as read, a few bytes at
 * a time, come back as those kept in memory: every instruction alone,
 * runs of every length from every start, and the whole, after the
 * listing was sorted (texts apart); and where no file can be made.
 */
START_TEST(test_objdump_spool)
{
	struct objdump	 whole, mem, file, none;
	const char	*tmpdir = getenv("TMPDIR"), *self = "/proc/self/exe";
	char		*saved = tmpdir != NULL ? xstrdup(tmpdir) : NULL;
	char		 err[512];
	uint64_t	 a, b, c;
	size_t		 j, len;

	/* This test program: thousands of instructions, many blocks. */
	memset(&whole, 0, sizeof(whole));
	ck_assert_int_eq(objdump_read(&whole, "objdump", self, 0, UINT64_MAX,
	    NULL, 0, 60, err, sizeof(err)), OBJDUMP_OK);
	ck_assert_uint_gt(whole.n, 20 * OBJDUMP_BLOCK);
	a = objdump_addr(&whole, 0);
	b = objdump_addr(&whole, whole.n / 2);
	c = objdump_addr(&whole, whole.n - 1) + 1;
	objdump_free(&whole);
	spool_read(&mem, self, a, b, c, SIZE_MAX / 2);
	spool_read(&file, self, a, b, c, 64);
	ck_assert_uint_eq(mem.spool, 0);
	ck_assert_uint_eq(mem.ispool, 0);
	ck_assert_uint_ne(file.spool, 0);
	ck_assert_uint_ne(file.ispool, 0);
	ck_assert_uint_gt(file.spooled, 1000);
	ck_assert_uint_gt(file.nout, 100);
	ck_assert_uint_eq(mem.n, file.n);
	for (j = 1; j < mem.n; j++)
		ck_assert_uint_le(objdump_addr(&mem, j - 1),
		    objdump_addr(&mem, j));
	/* Each address found where it is, the first of a run of equals. */
	for (j = 0; j < file.n; j++)
		ck_assert_uint_le(objdump_find(&file, objdump_addr(&file, j)),
		    j);
	ck_assert_uint_eq(objdump_find(&file, 0), 0);
	ck_assert_uint_eq(objdump_find(&file, UINT64_MAX), file.n);
	for (len = 1; len <= 5; len++)
		for (j = 0; j + len <= mem.n; j += len * 7)
			spool_same(&mem, &file, j, j + len);
	spool_same(&mem, &file, 0, mem.n);
	setenv("TMPDIR", "/nonexistent/dir", 1);
	spool_read(&none, self, a, b, c, 64);
	if (saved != NULL)
		setenv("TMPDIR", saved, 1);
	else
		unsetenv("TMPDIR");
	free(saved);
	ck_assert_uint_eq(none.spool, 0);
	ck_assert_int_eq(none.nospool, 1);
	spool_same(&mem, &none, 0, mem.n);
	objdump_free(&mem);
	objdump_free(&file);
	objdump_free(&none);
}
END_TEST

/*
 * Print the machine code of testdata/asm/loop-jumps.out (text, or JSON
 * with every instruction) with the listing's rows and texts read block
 * blocks at a time (0: the default) and return it.
 */
static char *
asm_report(const char *format, size_t block)
{
	struct parse_opts	 po;
	struct report_opts	 o;
	struct report_run	 run;
	struct profile		*p = profile_create();
	char			 path[1024], dir[1024], *text = NULL;
	char			*dirs[1] = { dir };
	size_t			 len = 0;
	FILE			*out;

	snprintf(path, sizeof(path), "%s/asm/loop-jumps.out", CGA_TESTDATA);
	memset(&po, 0, sizeof(po));
	po.instrs = 1;
	ck_assert_int_eq(load_file(p, path, &po), 0);
	ck_assert_int_eq(profile_done(p), 0);
	memset(&o, 0, sizeof(o));
	memset(&run, 0, sizeof(run));
	o.format = format_find(format);
	o.threshold = "100";
	o.asm_annotate = 1;
	o.objdump = "objdump";
	o.objdump_timeout = 60;
	/* Its objects are named from testdata: found under it. */
	snprintf(dir, sizeof(dir), "%s/", CGA_TESTDATA);
	o.objdirs = dirs;
	o.nobjdirs = 1;
	run.profile_name = path;
	ck_assert_ptr_nonnull(out = open_memstream(&text, &len));
	hooks.asm_block = block;
	ck_assert_int_eq(report_print(out, p, NULL, &o, &run), 0);
	hooks.asm_block = 0;
	fclose(out);
	profile_free(p);
	return text;
}

/*
 * A function's rows made with the listing read a few rows at a time,
 * and their texts likewise as they are printed, are those made with it
 * read at once (the blocks of real programs' functions).
 */
START_TEST(test_asm_blocks)
{
	static const char	*fmts[] = { "text", "json" };
	static const size_t	 blocks[] = { 1, 2, 3, 7 };
	char			*want, *got;
	size_t			 i, k;

	for (i = 0; i < 2; i++) {
		want = asm_report(fmts[i], 0);
		/* Not vacuous: the listing is read, with jumps. */
		ck_assert_ptr_nonnull(strstr(want, "jbe    11d0"));
		ck_assert_ptr_nonnull(strstr(want, "push"));
		for (k = 0; k < sizeof(blocks) / sizeof(blocks[0]); k++) {
			got = asm_report(fmts[i], blocks[k]);
			ck_assert_str_eq(got, want);
			free(got);
		}
		free(want);
	}
}
END_TEST

Suite *
make_instrs_suite(void)
{
	Suite	*s = suite_create("instrs");
	TCase	*tc = check_tcase();

	tcase_add_test(tc, test_instrs_parse);
	tcase_add_test(tc, test_instrs_wide);
	tcase_add_test(tc, test_instrs_runs);
	tcase_add_test(tc, test_instrs_profiles);
	tcase_add_test(tc, test_instrs_sites);
	tcase_add_test(tc, test_objdump_spool);
	tcase_add_test(tc, test_asm_blocks);
	suite_add_tcase(s, tc);
	return s;
}
