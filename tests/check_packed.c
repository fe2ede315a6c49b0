/* check_packed.c - packed cost vectors against plain 64-bit sums. */
#include "base/compat.h"

#include <stdlib.h>
#include <string.h>

#include "base/cost.h"
#include "base/hooks.h"
#include "base/packed.h"
#include "base/xmalloc.h"
#include "check_suites.h"
#include "check_util.h"

/*
 * A count as profiles have them: mostly 0 or small, sometimes at a
 * width's edge, sometimes "never recorded", rarely near the top.
 */
static uint64_t
count(uint64_t *s)
{
	uint64_t	r = check_rnd(s), k = r % 100;

	r = check_rnd(s);
	if (k < 40)
		return 0;
	if (k < 70)
		return r % 8;
	if (k < 78)
		return COST_NONE;
	if (k < 84)
		return 250 + r % 10;		/* around 255 */
	if (k < 89)
		return 65530 + r % 10;		/* around 65535 */
	if (k < 93)
		return UINT32_MAX - 5 + r % 10;	/* around 2^32 - 1 */
	if (k < 95)
		return (3ULL << 30) - 5 + r % 10; /* around a direct's limit */
	if (k < 97)
		return r % 100000;
	if (k < 99)
		return r >> (r % 64);
	return COST_MAX - r % 4;		/* overflows when added */
}

static void	same_groups(const struct packed *, const uint64_t *, uint32_t,
		    unsigned, uint32_t);

/* Check every vector of pk against the plain sums want (n each). */
static void
same(const struct packed *pk, const uint64_t *want, uint32_t nvec,
    unsigned n)
{
	uint64_t	*got, *sum, *wsum;
	uint32_t	 i;
	unsigned	 e;
	int		 o1, o2;

	got = xcalloc(n + 1, sizeof(*got));
	sum = xcalloc(n + 1, sizeof(*sum));
	wsum = xcalloc(n + 1, sizeof(*wsum));
	cost_clear(sum, n);
	cost_clear(wsum, n);
	ck_assert_uint_eq(pk->nvec, nvec);
	for (i = 0; i < nvec; i++) {
		packed_get(pk, i, got);
		for (e = 0; e < n; e++)
			if (got[e] != want[(size_t)i * n + e])
				ck_abort_msg("vector %u count %u: got %llu, "
				    "want %llu", i, e,
				    (unsigned long long)got[e],
				    (unsigned long long)want[(size_t)i * n + e]);
		if (n > 0)
			ck_assert_uint_eq(packed_first(pk, i),
			    want[(size_t)i * n]);
		o1 = packed_sum(pk, i, sum);
		o2 = cost_add(wsum, want + (size_t)i * n, n);
		ck_assert_int_eq(o1, o2);
	}
	for (e = 0; e < n; e++)
		ck_assert_uint_eq(sum[e], wsum[e]);
	/* Many vectors a row (summed 16 counts at a time), and few. */
	same_groups(pk, want, nvec, n, 3);
	same_groups(pk, want, nvec, n, nvec);
	free(got);
	free(sum);
	free(wsum);
}

/*
 * Sum every vector of pk into nrows rows, vector i into the row of group
 * i % 11, by packed_sum_groups(), and check the rows and the overflow
 * flag against cost_add() of the plain counts want.
 */
static void
same_groups(const struct packed *pk, const uint64_t *want, uint32_t nvec,
    unsigned n, uint32_t nrows)
{
	uint64_t	*got, *wsum;
	uint32_t	*group, row[11], i;
	int		 over = 0;

	group = xcalloc(nvec + 1, sizeof(*group));
	got = xcalloc((size_t)nrows * n + 1, sizeof(*got));
	wsum = xcalloc((size_t)nrows * n + 1, sizeof(*wsum));
	cost_clear(got, nrows * n);
	cost_clear(wsum, nrows * n);
	for (i = 0; i < 11; i++)
		row[i] = (i * 7) % nrows;
	for (i = 0; i < nvec; i++) {
		group[i] = i % 11;
		over |= cost_add(wsum + (size_t)row[group[i]] * n,
		    want + (size_t)i * n, n);
	}
	ck_assert_int_eq(packed_sum_groups(pk, group, row, nrows, got), over);
	for (i = 0; i < nrows * n; i++)
		if (got[i] != wsum[i])
			ck_abort_msg("%u rows of %u counts: count %u: got %llu, "
			    "want %llu", nrows, n, i,
			    (unsigned long long)got[i],
			    (unsigned long long)wsum[i]);
	free(group);
	free(got);
	free(wsum);
}

/* Random adds to n-count vectors give the sums cost_add() gives. */
static void
random_adds(unsigned n, uint32_t nvec, unsigned rounds, uint64_t seed)
{
	struct packed	 pk;
	uint64_t	*want, *c, s = seed;
	uint32_t	 i, id;
	unsigned	 r, e, k;

	packed_init(&pk);
	packed_clear(&pk, n);
	want = xcalloc((size_t)nvec * n + 1, sizeof(*want));
	c = xcalloc(n + 1, sizeof(*c));
	for (r = 0; r < rounds; r++) {
		for (i = 0; i < nvec; i++) {
			for (e = 0; e < n; e++)
				c[e] = count(&s);
			if (r == 0) {
				id = packed_new(&pk, c);
				ck_assert_uint_eq(id, i);
				memcpy(want + (size_t)i * n, c, n * sizeof(*c));
				continue;
			}
			/*
			 * Vectors in a random order, some added twice; k
			 * counts given, as a cost line may give fewer.
			 */
			id = (uint32_t)(check_rnd(&s) % nvec);
			k = (unsigned)(check_rnd(&s) % (n + 1));
			if (check_rnd(&s) % 2 == 0)
				k = n;
			for (e = k; e < n; e++)
				c[e] = COST_NONE;
			ck_assert_int_eq(packed_add(&pk, id, c, k),
			    cost_add(want + (size_t)id * n, c, n));
		}
		same(&pk, want, nvec, n);
	}
	packed_free(&pk);
	free(want);
	free(c);
}

START_TEST(test_random)
{
	static const unsigned	ns[] = { 1, 2, 3, 13, 16, 17, 40 };
	size_t			i;

	for (i = 0; i < sizeof(ns) / sizeof(ns[0]); i++)
		random_adds(ns[i], 3000, 6, 0x9e3779b97f4a7c15ULL + i);
}
END_TEST

/*
 * Vectors added from another store, one at a time or a run at once,
 * give the sums cost_add() gives.
 */
static void
random_from(unsigned n, uint32_t nvec, uint64_t seed)
{
	struct packed	 dst, src;
	uint64_t	*want, *c, s = seed;
	uint32_t	 i, id, len, k;
	unsigned	 e, r;

	packed_init(&dst);
	packed_init(&src);
	packed_clear(&dst, n);
	want = xcalloc(2 * (size_t)nvec * n + 1, sizeof(*want));
	c = xcalloc(n + 1, sizeof(*c));
	for (i = 0; i < nvec; i++) {
		for (e = 0; e < n; e++)
			c[e] = count(&s) % 300;
		(void)packed_new(&dst, c);
		memcpy(want + (size_t)i * n, c, n * sizeof(*c));
	}
	for (r = 0; r < 4; r++) {
		/* A chunk's store, as a thread reading ahead makes one. */
		packed_clear(&src, n);
		for (i = 0; i < nvec / 2; i++) {
			for (e = 0; e < n; e++)
				c[e] = r % 2 == 0 ? count(&s) % 300 : count(&s);
			ck_assert_uint_eq(packed_new(&src, c), i);
		}
		for (i = 0; i < nvec / 2; i++) {
			if (check_rnd(&s) % 8 == 0 && dst.nvec + 40 < 2 * nvec) {
				/* A run at once, as a function's in a chunk. */
				len = 1 + (uint32_t)(check_rnd(&s) % 40);
				len = len < nvec / 2 - i ? len : nvec / 2 - i;
				id = packed_append(&dst, &src, i, len);
				for (k = 0; k < len; k++) {
					packed_get(&src, i + k, c);
					memcpy(want + ((size_t)id + k) * n, c,
					    n * sizeof(*c));
				}
				i += len - 1;
				continue;
			}
			packed_get(&src, i, c);
			if (check_rnd(&s) % 4 == 0 && dst.nvec < 2 * nvec) {
				id = packed_new_from(&dst, &src, i);
				memcpy(want + (size_t)id * n, c,
				    n * sizeof(*c));
				continue;
			}
			id = (uint32_t)(check_rnd(&s) % dst.nvec);
			ck_assert_int_eq(packed_add_from(&dst, id, &src, i),
			    cost_add(want + (size_t)id * n, c, n));
		}
		same(&dst, want, dst.nvec, n);
	}
	packed_free(&dst);
	packed_free(&src);
	free(want);
	free(c);
}

START_TEST(test_from)
{
	static const unsigned	ns[] = { 1, 2, 5, 13, 17 };
	size_t			i;

	for (i = 0; i < sizeof(ns) / sizeof(ns[0]); i++)
		random_from(ns[i], 2000, 0x2545f4914f6cdd1dULL + i);
}
END_TEST

/* Small counts take a byte; a count that outgrows it moves its vector. */
START_TEST(test_narrow)
{
	struct packed	pk;
	uint64_t	c[13], got[13];
	uint32_t	i;
	unsigned	e;

	packed_init(&pk);
	packed_clear(&pk, 13);
	for (e = 0; e < 13; e++)
		c[e] = e % 3 == 0 ? COST_NONE : e;
	for (i = 0; i < 1000; i++)
		ck_assert_uint_eq(packed_new(&pk, c), i);
	/* A byte a count, and a bit a vector. */
	ck_assert_uint_eq(packed_bytes(&pk), 1000 * 13 + 16 * 8);
	/* 254 is the largest count of a byte (255 is "never recorded"). */
	c[1] = 254 - 1;
	ck_assert_int_eq(packed_add(&pk, 7, c, 13), 0);
	ck_assert_uint_eq(pk.w[1].n, 0);
	packed_get(&pk, 7, got);
	ck_assert_uint_eq(got[1], 254);
	ck_assert_uint_eq(got[0], COST_NONE);
	c[1] = 1;
	ck_assert_int_eq(packed_add(&pk, 7, c, 13), 0);
	ck_assert_uint_eq(pk.w[1].n, 1);
	packed_get(&pk, 7, got);
	ck_assert_uint_eq(got[1], 255);
	ck_assert_uint_eq(got[0], COST_NONE);
	ck_assert_uint_eq(got[2], 6);
	ck_assert_uint_eq(packed_bytes(&pk), 1000 * 13 + 16 * 8 + 13 * 2);
	/* A slot left for a wider one is taken by the next to move. */
	c[1] = 70000;
	ck_assert_int_eq(packed_add(&pk, 7, c, 13), 0);
	ck_assert_uint_eq(pk.w[2].n, 1);
	ck_assert_uint_eq(pk.w[1].nfree, 1);
	c[1] = 300;
	ck_assert_int_eq(packed_add(&pk, 8, c, 13), 0);
	ck_assert_uint_eq(pk.w[1].n, 1);
	ck_assert_uint_eq(pk.w[1].nfree, 0);
	packed_get(&pk, 7, got);
	ck_assert_uint_eq(got[1], 70255);
	ck_assert_uint_eq(got[2], 8);
	packed_get(&pk, 8, got);
	ck_assert_uint_eq(got[1], 301);
	ck_assert_uint_eq(got[2], 4);
	c[1] = 1;
	ck_assert_uint_eq(packed_new(&pk, c), 1000);
	/* Straight to the width a first count needs. */
	c[5] = (uint64_t)1 << 40;
	ck_assert_uint_eq(packed_new(&pk, c), 1001);
	ck_assert_uint_eq(pk.w[3].n, 1);
	packed_get(&pk, 1001, got);
	ck_assert_uint_eq(got[5], (uint64_t)1 << 40);
	/* Overflow stays at COST_MAX and is told. */
	c[5] = COST_MAX;
	ck_assert_int_eq(packed_add(&pk, 1001, c, 13), 1);
	packed_get(&pk, 1001, got);
	ck_assert_uint_eq(got[5], COST_MAX);
	packed_free(&pk);
}
END_TEST

/*
 * Summed by group, the byte-wide sums a row keeps are added to its
 * counts before they could overflow: many vectors of the largest byte
 * count (254) into a few rows, some counts never recorded.
 */
START_TEST(test_groups_full)
{
	struct packed	 pk;
	uint64_t	 c[13], *want;
	uint32_t	 i, nvec = 5000;
	unsigned	 e;

	packed_init(&pk);
	packed_clear(&pk, 13);
	want = xcalloc((size_t)nvec * 13, sizeof(*want));
	for (i = 0; i < nvec; i++) {
		for (e = 0; e < 13; e++)
			c[e] = e == 4 && i % 3 == 0 ? COST_NONE : 254;
		ck_assert_uint_eq(packed_new(&pk, c), i);
		memcpy(want + (size_t)i * 13, c, sizeof(c));
	}
	ck_assert_uint_eq(pk.w[1].n, 0);
	same_groups(&pk, want, nvec, 13, 1);
	same_groups(&pk, want, nvec, 13, 5);
	packed_free(&pk);
	free(want);
}
END_TEST

/*
 * Summed by group in two threads (hooks.sum_split), each with the rows
 * on one side of a sampled median: random groups and rows give the sums
 * cost_add() gives, and the overflow flag, as in one thread.
 */
static void
split_groups(unsigned n, uint32_t nvec, uint32_t nrows, uint64_t seed)
{
	struct packed	 pk;
	uint64_t	*want, *got[2], *c, s = seed;
	uint32_t	*group, *row, i, ngroup = 2 * nrows, t;
	unsigned	 e;
	int		 over = 0, o[2];

	packed_init(&pk);
	packed_clear(&pk, n);
	want = xcalloc((size_t)nrows * n + 1, sizeof(*want));
	c = xcalloc(n + 1, sizeof(*c));
	group = xcalloc(nvec + 1, sizeof(*group));
	row = xcalloc(ngroup + 1, sizeof(*row));
	cost_clear(want, nrows * n);
	for (i = 0; i < ngroup; i++)	/* a few rows take most */
		row[i] = (uint32_t)(check_rnd(&s) % (i % 4 == 0 ? 3 : nrows));
	for (i = 0; i < nvec; i++) {
		for (e = 0; e < n; e++)
			c[e] = count(&s);
		ck_assert_uint_eq(packed_new(&pk, c), i);
		group[i] = (uint32_t)(check_rnd(&s) % ngroup);
		over |= cost_add(want + (size_t)row[group[i]] * n, c, n);
	}
	for (t = 0; t < 2; t++) {
		hooks.sum_split = t == 0 ? UINT32_MAX : 1;
		got[t] = xcalloc((size_t)nrows * n + 1, sizeof(*got[t]));
		cost_clear(got[t], nrows * n);
		o[t] = packed_sum_groups(&pk, group, row, nrows, got[t]);
		hooks.sum_split = 0;
		ck_assert_int_eq(o[t], over);
		for (i = 0; i < nrows * n; i++)
			if (got[t][i] != want[i])
				ck_abort_msg("%s, %u rows of %u counts: count "
				    "%u: got %llu, want %llu", t == 0 ?
				    "one thread" : "two", nrows, n, i,
				    (unsigned long long)got[t][i],
				    (unsigned long long)want[i]);
		free(got[t]);
	}
	packed_free(&pk);
	free(want);
	free(c);
	free(group);
	free(row);
}

START_TEST(test_groups_split)
{
	static const unsigned	ns[] = { 1, 3, 13, 17 };
	static const uint32_t	rows[] = { 2, 7, 1000 };
	size_t			i, k;

	for (i = 0; i < sizeof(ns) / sizeof(ns[0]); i++)
		for (k = 0; k < sizeof(rows) / sizeof(rows[0]); k++)
			split_groups(ns[i], 20000, rows[k],
			    0x5851f42d4c957f2dULL + i * 8 + k);
}
END_TEST

/* A store emptied for other vectors works as a new one. */
START_TEST(test_clear)
{
	struct packed	pk;
	uint64_t	c[4] = { 1, 2, 300, COST_NONE }, got[4];

	packed_init(&pk);
	packed_clear(&pk, 4);
	ck_assert_uint_eq(packed_new(&pk, c), 0);
	ck_assert_int_eq(packed_add(&pk, 0, c, 4), 0);
	/* Counts past k are not looked at. */
	ck_assert_int_eq(packed_add(&pk, 0, (uint64_t[]){ 1, 1, 1,
	    1 }, 3), 0);
	packed_get(&pk, 0, got);
	ck_assert_uint_eq(got[2], 601);
	ck_assert_uint_eq(got[3], COST_NONE);
	packed_clear(&pk, 1);
	ck_assert_uint_eq(pk.nvec, 0);
	ck_assert_uint_eq(packed_new(&pk, c), 0);
	ck_assert_int_eq(packed_add(&pk, 0, c + 2, 1), 0);
	packed_get(&pk, 0, got);
	ck_assert_uint_eq(got[0], 301);
	packed_clear(&pk, 4);
	packed_reserve(&pk, 100);
	ck_assert_uint_eq(packed_new(&pk, c), 0);
	packed_get(&pk, 0, got);
	ck_assert_mem_eq(got, c, sizeof(c));
	packed_clear(&pk, 0);
	ck_assert_uint_eq(packed_new(&pk, c), 0);
	ck_assert_int_eq(packed_add(&pk, 0, c, 0), 0);
	ck_assert_int_eq(packed_sum(&pk, 0, got), 0);
	packed_free(&pk);
}
END_TEST

/*
 * Dropping vectors keeps the others in order with their counts, for
 * vectors of 1 (direct), 3 and 13 counts, and the slots of the dropped
 * are taken again.
 */
START_TEST(test_drop)
{
	static const unsigned	 ns[] = { 1, 3, 13 };
	struct packed		 pk;
	uint64_t		 s = 7, *want, *c, drop[1000 / 64 + 1];
	uint32_t		 i, m, nvec = 1000, used[PACKED_WIDTHS];
	unsigned		 n, e, t, w;
	size_t			 nfree;

	for (t = 0; t < sizeof(ns) / sizeof(ns[0]); t++) {
		n = ns[t];
		want = xcalloc((size_t)nvec * n + 1, sizeof(*want));
		c = xcalloc(n + 1, sizeof(*c));
		packed_init(&pk);
		packed_clear(&pk, n);
		for (i = 0; i < nvec; i++) {
			for (e = 0; e < n; e++)
				c[e] = count(&s);
			ck_assert_uint_eq(packed_new(&pk, c), i);
		}
		memset(drop, 0, sizeof(drop));
		for (i = m = 0; i < nvec; i++) {
			packed_get(&pk, i, c);
			if (check_rnd(&s) % 3 == 0 || i == 0 || i == nvec - 1) {
				drop[i >> 6] |= (uint64_t)1 << (i & 63);
				continue;
			}
			memcpy(want + (size_t)m * n, c, n * sizeof(*c));
			m++;
		}
		ck_assert_uint_eq(packed_drop(&pk, drop), m);
		same(&pk, want, m, n);
		/* Each wide slot is a vector's or free to be taken. */
		memset(used, 0, sizeof(used));
		for (i = 0; i < m; i++) {
			(void)packed_at(&pk, i, &w);
			if (w > 0 && !(pk.direct && w < 3))
				used[w]++;
		}
		for (w = 1, nfree = 0; w < PACKED_WIDTHS; w++) {
			ck_assert_uint_eq(pk.w[w].n, used[w] + pk.w[w].nfree);
			nfree += pk.w[w].nfree;
		}
		ck_assert_uint_gt(nfree, 0);
		packed_free(&pk);
		free(want);
		free(c);
	}
}
END_TEST

Suite *
make_packed_suite(void)
{
	Suite	*s = suite_create("packed");
	TCase	*tc = check_tcase();

	tcase_add_test(tc, test_random);
	tcase_add_test(tc, test_from);
	tcase_add_test(tc, test_narrow);
	tcase_add_test(tc, test_groups_full);
	tcase_add_test(tc, test_groups_split);
	tcase_add_test(tc, test_clear);
	tcase_add_test(tc, test_drop);
	suite_add_tcase(s, tc);
	return s;
}
