/* check_vpack.c - cost vectors as varints against the counts written. */
#include "base/compat.h"

#include <stdlib.h>
#include <string.h>

#include "base/cost.h"
#include "base/sort.h"
#include "base/vpack.h"
#include "base/xmalloc.h"
#include "check_suites.h"
#include "check_util.h"

/*
 * A count as machine code has them: mostly 0 or small, sometimes at a
 * varint's edge (2^7k), "never recorded", or the largest counts.
 */
static uint64_t
count(uint64_t *s)
{
	uint64_t	r = check_rnd(s), k = r % 100;

	r = check_rnd(s);
	if (k < 50)
		return 0;
	if (k < 75)
		return 1 + r % 200;
	if (k < 80)
		return COST_NONE;
	if (k < 90)
		return ((uint64_t)1 << (7 * (1 + r % 9))) - 1 + r % 3;
	if (k < 95)
		return r >> (r % 64);
	return COST_MAX - r % 2;
}

/*
 * Make nvec random vectors of n counts in want (the counts a reader gets:
 * those past the k given "never recorded") and add them to vp.
 */
static void
fill(struct vpack *vp, uint64_t *want, uint32_t nvec, unsigned n,
    uint64_t *s)
{
	uint64_t	*c = xcalloc(n + 3, sizeof(*c));
	uint32_t	 i;
	unsigned	 k, e;

	for (i = 0; i < nvec; i++) {
		k = (unsigned)(check_rnd(s) % (n + 3));	/* n + 2 at most */
		for (e = 0; e < n + 2; e++)
			c[e] = count(s);
		for (e = 0; e < n; e++)
			want[(size_t)i * n + e] = e < k ? c[e] : COST_NONE;
		ck_assert_uint_eq(vpack_add(vp, c, k), vp->nvec - 1);
	}
	free(c);
}

/* Check vectors [from, from + nvec) of vp against want (n each). */
static void
same(const struct vpack *vp, uint32_t from, const uint64_t *want,
    uint32_t nvec, unsigned n)
{
	uint64_t	*got = xcalloc(n + 1, sizeof(*got));
	uint32_t	 i;
	unsigned	 e;

	for (i = 0; i < nvec; i++) {
		vpack_get(vp, from + i, got);
		for (e = 0; e < n; e++) {
			if (got[e] != want[(size_t)i * n + e])
				ck_abort_msg("vector %u count %u of %u: got "
				    "%llu, want %llu", from + i, e, n,
				    (unsigned long long)got[e],
				    (unsigned long long)want[(size_t)i * n + e]);
			ck_assert_uint_eq(vpack_get1(vp, from + i, e), got[e]);
		}
	}
	free(got);
}

/* Vectors of every width written, past a block of offsets, read back. */
START_TEST(test_vpack_random)
{
	static const unsigned	 ns[] = { 0, 1, 2, 7, 8, 9, 13, 64, 256 };
	struct vpack		 vp;
	uint64_t		*want, s = 0x9e3779b97f4a7c15ULL;
	uint32_t		 nvec;
	unsigned		 t, n;

	for (t = 0; t < sizeof(ns) / sizeof(ns[0]); t++) {
		n = ns[t];
		nvec = n <= 13 ? ((uint32_t)1 << VPACK_SHIFT) + 1000 : 3000;
		want = xcalloc((size_t)nvec * n + 1, sizeof(*want));
		vpack_init(&vp, n);
		fill(&vp, want, nvec, n, &s);
		ck_assert_uint_eq(vp.nvec, nvec);
		same(&vp, 0, want, nvec, n);
		ck_assert_uint_ge(vpack_bytes(&vp), vp.len);
		vpack_free(&vp);
		ck_assert_uint_eq(vp.nvec, 0);
		ck_assert_uint_eq(vp.n, n);
		free(want);
	}
}
END_TEST

/* Runs of vectors appended from another store are the same vectors. */
START_TEST(test_vpack_append)
{
	struct vpack	 src, dst;
	uint64_t	*want, *got, s = 42;
	uint32_t	 nvec = ((uint32_t)1 << VPACK_SHIFT) + 5000, at, len;
	uint32_t	 m = 0;
	unsigned	 n = 13;

	want = xcalloc((size_t)nvec * n + 1, sizeof(*want));
	got = xcalloc((size_t)3 * nvec * n + 1, sizeof(*got));
	vpack_init(&src, n);
	vpack_init(&dst, n);
	fill(&src, want, nvec, n, &s);
	/* Runs of every length, the empty one and the whole store too. */
	for (at = 0; at < nvec; at += len) {
		len = (uint32_t)(check_rnd(&s) % 300);
		if (len > nvec - at)
			len = nvec - at;
		vpack_append(&dst, &src, at, len);
		memcpy(got + (size_t)m * n, want + (size_t)at * n,
		    (size_t)len * n * sizeof(*got));
		m += len;
	}
	vpack_append(&dst, &src, 0, nvec);
	memcpy(got + (size_t)m * n, want, (size_t)nvec * n * sizeof(*got));
	m += nvec;
	vpack_append(&dst, &src, nvec - 1, 1);	/* the last: to the end */
	memcpy(got + (size_t)m * n, want + (size_t)(nvec - 1) * n,
	    n * sizeof(*got));
	m++;
	ck_assert_uint_eq(dst.nvec, m);
	ck_assert_uint_eq(dst.len, 2 * src.len + (src.len -
	    (src.base[(nvec - 1) >> VPACK_SHIFT] + src.off[nvec - 1])));
	same(&dst, 0, got, m, n);
	vpack_free(&src);
	vpack_free(&dst);
	free(want);
	free(got);
}
END_TEST

/*
 * Written again in place (vpack_rewrite()): some vectors dropped, some
 * taking a sum of the counts (in a store of their own, in any order),
 * the rest kept; the bytes are those of a store made afresh from the
 * vectors that remain.  Rounds where the sums are long and come before
 * the drops make them wait for room; some rounds span blocks of
 * offsets.
 */
START_TEST(test_vpack_rewrite)
{
	struct vpack	 vp, sums, fresh;
	uint64_t	 seed = 99, *want, *res, *drop, *keeps, *big;
	uint32_t	*order, nvec, i, m, nsum, *pos;
	unsigned	 n = 13, e, round;
	int		 waited = 0;

	big = xcalloc(n, sizeof(*big));
	for (round = 0; round < 12; round++) {
		nvec = round % 12 == 5 ? 70000 :
		    1 + (uint32_t)(check_rnd(&seed) % 3000);
		vpack_init(&vp, n);
		vpack_init(&sums, n);
		vpack_init(&fresh, n);
		want = xcalloc((size_t)nvec * n, sizeof(*want));
		res = xcalloc((size_t)nvec * n, sizeof(*res));
		drop = xcalloc(nvec / 64 + 1, sizeof(*drop));
		keeps = xcalloc(nvec, sizeof(*keeps));
		order = xcalloc(nvec, sizeof(*order));
		pos = xcalloc(nvec, sizeof(*pos));
		fill(&vp, want, nvec, n, &seed);
		/* Which go, which take a sum (long ones: every count large). */
		nsum = 0;
		for (i = 0; i < nvec; i++) {
			uint64_t	r = check_rnd(&seed) % 100;
			int		late = i > nvec / 2;

			if (round % 3 != 0 && (round % 2 == 0 ? r < 30 :
			    late && r < 60))
				drop[i >> 6] |= (uint64_t)1 << (i & 63);
			else if (round % 3 != 1 && r >= 80)
				keeps[nsum++] = i;
		}
		/* The sums in another order than their vectors'. */
		for (i = 0; i < nsum; i++)
			pos[i] = i;
		for (i = nsum; i > 1; i--) {
			uint32_t	j = (uint32_t)(check_rnd(&seed) % i), t;

			t = pos[i - 1];
			pos[i - 1] = pos[j];
			pos[j] = t;
		}
		for (i = 0; i < nsum; i++) {
			uint64_t	t = keeps[i];

			keeps[i] = keeps[pos[i]];
			keeps[pos[i]] = t;
		}
		for (i = 0; i < nsum; i++) {
			for (e = 0; e < n; e++)
				big[e] = round % 2 == 1 ? COST_MAX - e :
				    count(&seed);
			(void)vpack_add(&sums, big, n);
			memcpy(want + keeps[i] * n, big, n * sizeof(*big));
			for (e = (unsigned)n; e > 0 && big[e - 1] == COST_NONE;
			    e--)
				continue;
			for (; e < n; e++)
				want[keeps[i] * n + e] = COST_NONE;
		}
		sort_index_u64(keeps, nsum, order);
		for (i = m = 0; i < nvec; i++)
			if (!(drop[i >> 6] >> (i & 63) & 1)) {
				memcpy(res + (size_t)m * n, want + (size_t)i *
				    n, n * sizeof(*res));
				(void)vpack_add(&fresh, res + (size_t)m * n, n);
				m++;
			}
		vpack_rewrite(&vp, drop, &sums, keeps, order, nsum);
		ck_assert_uint_eq(vp.nvec, m);
		ck_assert_uint_eq(vp.len, fresh.len);
		ck_assert_mem_eq(vp.bytes, fresh.bytes, fresh.len);
		same(&vp, 0, res, m, n);
		waited |= round % 2 == 1 && nsum > 0;
		vpack_free(&vp);
		vpack_free(&sums);
		vpack_free(&fresh);
		free(want);
		free(res);
		free(drop);
		free(keeps);
		free(order);
		free(pos);
	}
	ck_assert(waited);
	free(big);
}
END_TEST

/* A vector takes the bytes its counts need: the format, byte by byte. */
START_TEST(test_vpack_bytes)
{
	struct vpack	 vp;
	uint64_t	 c[13], got[13];
	static const uint8_t one[] = { 1, 0x01, 7 };
	static const uint8_t sparse[] = { 13, 0x05, 0x14, 0x04, 0x80, 0x01,
	    0, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01 };
	static const uint8_t zeros[] = { 13, 0, 0 };

	vpack_init(&vp, 13);
	memset(c, 0, sizeof(c));
	c[0] = 7;
	(void)vpack_add(&vp, c, 13);	/* trailing 0s are counts: */
	ck_assert_uint_eq(vp.len, 4);	/*   13, two bytes of bits, 7 */
	vpack_free(&vp);
	(void)vpack_add(&vp, c, 1);
	ck_assert_uint_eq(vp.len, sizeof(one));
	ck_assert_mem_eq(vp.bytes, one, sizeof(one));
	vpack_free(&vp);
	/* Counts 0, 2 and 10 set, 11 never recorded, 12 the largest. */
	memset(c, 0, sizeof(c));
	c[0] = 4;
	c[2] = 128;
	c[10] = COST_NONE;
	c[12] = COST_MAX;
	(void)vpack_add(&vp, c, 13);
	ck_assert_uint_eq(vp.len, sizeof(sparse));
	ck_assert_mem_eq(vp.bytes, sparse, sizeof(sparse));
	vpack_get(&vp, 0, got);
	ck_assert_mem_eq(got, c, sizeof(c));
	vpack_free(&vp);
	memset(c, 0, sizeof(c));
	(void)vpack_add(&vp, c, 13);
	ck_assert_mem_eq(vp.bytes, zeros, sizeof(zeros));
	vpack_get(&vp, 0, got);
	ck_assert_mem_eq(got, c, sizeof(c));
	cost_clear(c, 13);
	(void)vpack_add(&vp, c, 13);	/* nothing recorded: k is 0 */
	ck_assert_uint_eq(vp.len, sizeof(zeros) + 1);
	vpack_get(&vp, 1, got);
	ck_assert_mem_eq(got, c, sizeof(c));
	ck_assert_uint_eq(vpack_get1(&vp, 1, 12), COST_NONE);
	vpack_free(&vp);
}
END_TEST

Suite *
make_vpack_suite(void)
{
	Suite	*s = suite_create("vpack");
	TCase	*tc = check_tcase();

	tcase_add_test(tc, test_vpack_random);
	tcase_add_test(tc, test_vpack_append);
	tcase_add_test(tc, test_vpack_bytes);
	tcase_add_test(tc, test_vpack_rewrite);
	suite_add_tcase(s, tc);
	return s;
}
