/*
 * check_sort.c - the radix sort: the order of a stable sort by key, with
 * digits of eight bits (short lists) and of sixteen (long ones).
 */
#include "base/compat.h"

#include <stdint.h>
#include <stdlib.h>

#include "base/sort.h"
#include "base/xmalloc.h"
#include "check_suites.h"
#include "check_util.h"

/* A small generator of its own: the same keys on every machine. */
static uint64_t
next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/*
 * Return the first place where order[] fails key[] (a repeated or out of
 * range index, a key that falls, equal keys out of index order), or n.
 * Checked here, asserted once: Check marks every assertion that passes.
 */
static uint32_t
bad_order(const uint64_t *key, const uint32_t *order, uint32_t n)
{
	unsigned char	*seen = xcalloc(n + 1, 1);
	uint32_t	 i;

	for (i = 0; i < n; i++) {
		if (order[i] >= n || seen[order[i]])
			break;
		seen[order[i]] = 1;
		if (i > 0 && (key[order[i - 1]] > key[order[i]] ||
		    (key[order[i - 1]] == key[order[i]] &&
		    order[i - 1] > order[i])))
			break;
	}
	free(seen);
	return i;
}

/*
 * Lists of 0 to 100,000 keys, on both sides of the digit width's switch:
 * costs as the report sorts them (2^64 - 2 - cost, the top bits alike),
 * few distinct keys (ties), and keys of every bit.
 */
START_TEST(test_sort)
{
	static const uint32_t sizes[] = { 0, 1, 2, 3, 255, 256, 1000,
	    32767, 32768, 100000 };
	uint64_t	*key, s = 0x9e3779b97f4a7c15ULL;
	uint32_t	*order, i, n;
	size_t		 k, kind;

	for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++)
		for (kind = 0; kind < 3; kind++) {
			n = sizes[k];
			key = xreallocarray(NULL, n + 1, sizeof(*key));
			order = xreallocarray(NULL, n + 1, sizeof(*order));
			for (i = 0; i < n; i++)
				key[i] = kind == 0 ? UINT64_MAX - 1 -
				    next(&s) % 5000000 : kind == 1 ?
				    next(&s) % 7 << 40 : next(&s);
			sort_index_u64(key, n, order);
			ck_assert_uint_eq(bad_order(key, order, n), n);
			free(key);
			free(order);
		}
}
END_TEST

/* Append node v's subtree to out[*m ..] depth first (the reference). */
static void
preorder_ref(const uint32_t *start, const uint32_t *kids, uint32_t v,
    uint32_t *out, uint32_t *m)
{
	uint32_t	k;

	if (v != 0)
		out[(*m)++] = v;
	for (k = start[v]; k < start[v + 1]; k++)
		preorder_ref(start, kids, kids[k], out, m);
}

/*
 * Random trees (each node's parent made before it), each node's children
 * grouped in index order and in reverse, against a recursive walk; and a
 * chain of a million nodes, which recursion would not survive.
 */
START_TEST(test_preorder)
{
	static const uint32_t sizes[] = { 1, 2, 3, 10, 1000, 5000 };
	uint64_t	 s = 0x9e3779b97f4a7c15ULL;
	uint32_t	*parent, *start, *kids, *got, *want, n, i, m, rev;
	size_t		 k;

	for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++)
		for (rev = 0; rev < 2; rev++) {
			n = sizes[k];
			parent = xcalloc(n + 1, sizeof(*parent));
			start = xcalloc(n + 2, sizeof(*start));
			kids = xcalloc(n + 1, sizeof(*kids));
			got = xcalloc(n + 1, sizeof(*got));
			want = xcalloc(n + 1, sizeof(*want));
			/* Deep and wide: near parents and far ones. */
			for (i = 1; i < n; i++)
				parent[i] = next(&s) % 2 ? i - 1 -
				    (uint32_t)(next(&s) % (i < 3 ? i : 3)) :
				    (uint32_t)(next(&s) % i);
			for (i = 1; i < n; i++)
				start[parent[i] + 2]++;
			for (i = 0; i < n; i++)
				start[i + 2] += start[i + 1];
			for (i = 1; i < n; i++) {
				m = rev ? n - i : i;
				kids[start[parent[m] + 1]++] = m;
			}
			sort_preorder(start, kids, n, got);
			m = 0;
			preorder_ref(start, kids, 0, want, &m);
			ck_assert_uint_eq(m, n > 0 ? n - 1 : 0);
			for (i = 0; i + 1 < n; i++)
				ck_assert_msg(got[i] == want[i], "n %u: node "
				    "%u depth first is %u, not %u", n, i,
				    got[i], want[i]);
			free(parent);
			free(start);
			free(kids);
			free(got);
			free(want);
		}
	/* A chain: node i the only child of node i - 1. */
	n = 1000000;
	start = xreallocarray(NULL, n + 1, sizeof(*start));
	kids = xreallocarray(NULL, n, sizeof(*kids));
	got = xreallocarray(NULL, n, sizeof(*got));
	for (i = 0; i < n; i++) {
		start[i] = i;
		kids[i] = i + 1;
	}
	start[n - 1] = start[n] = n - 1;	/* the last has none */
	sort_preorder(start, kids, n, got);
	for (i = 0; i + 1 < n; i++)
		ck_assert_uint_eq(got[i], i + 1);
	free(start);
	free(kids);
	free(got);
}
END_TEST

Suite *
make_sort_suite(void)
{
	Suite	*s = suite_create("sort");
	TCase	*tc = check_tcase();

	tcase_add_test(tc, test_sort);
	tcase_add_test(tc, test_preorder);
	suite_add_tcase(s, tc);
	return s;
}
