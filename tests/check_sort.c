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

Suite *
make_sort_suite(void)
{
	Suite	*s = suite_create("sort");
	TCase	*tc = check_tcase();

	tcase_add_test(tc, test_sort);
	suite_add_tcase(s, tc);
	return s;
}
