/*
 * sort.c - a least-significant-digit radix sort of 64-bit keys, sixteen
 * bits a pass, for the call graph's hundreds of thousands of edges: a
 * few linear passes where qsort() would make millions of calls.
 */
#include "base/compat.h"

#include <stdlib.h>
#include <string.h>

#include "base/sort.h"
#include "base/xmalloc.h"

#define SORT_DIGITS	65536

/*
 * Set order[0 .. n) to the indices of key[] in increasing order of key;
 * equal keys keep their index order.  A pass whose digit is the same in
 * every key is skipped.
 */
void
sort_index_u64(const uint64_t *key, uint32_t n, uint32_t *order)
{
	uint32_t	*cnt, *tmp, *src, *dst, *t, i, c, sum, v;
	unsigned	 shift;

	for (i = 0; i < n; i++)
		order[i] = i;
	if (n < 2)
		return;
	cnt = xreallocarray(NULL, SORT_DIGITS, sizeof(*cnt));
	tmp = xreallocarray(NULL, n, sizeof(*tmp));
	src = order;
	dst = tmp;
	for (shift = 0; shift < 64; shift += 16) {
		memset(cnt, 0, SORT_DIGITS * sizeof(*cnt));
		for (i = 0; i < n; i++)
			cnt[(key[i] >> shift) & (SORT_DIGITS - 1)]++;
		if (cnt[(key[0] >> shift) & (SORT_DIGITS - 1)] == n)
			continue;
		for (sum = 0, c = 0; c < SORT_DIGITS; c++) {
			v = cnt[c];
			cnt[c] = sum;
			sum += v;
		}
		for (i = 0; i < n; i++)
			dst[cnt[(key[src[i]] >> shift) & (SORT_DIGITS - 1)]++] =
			    src[i];
		t = src;
		src = dst;
		dst = t;
	}
	if (src != order)
		memcpy(order, src, (size_t)n * sizeof(*order));
	free(tmp);
	free(cnt);
}
