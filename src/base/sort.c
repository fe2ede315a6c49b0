/*
 * sort.c - a least-significant-digit radix sort of 64-bit keys, sixteen
 * bits a pass (eight for short lists), for the call graph's hundreds of
 * thousands of edges: a few linear passes where qsort() would make
 * millions of calls; and a tree's nodes in depth-first order.
 */
#include "base/compat.h"

#include <stdlib.h>
#include <string.h>

#include "base/sort.h"
#include "base/xmalloc.h"

#define SORT_SMALL	32768	/* fewer keys: digits of eight bits */

/*
 * Set order[0 .. n) to the indices of key[] in increasing order of key;
 * equal keys keep their index order.  A pass whose digit is the same in
 * every key is skipped.  Digits of sixteen bits for many keys, of eight
 * for fewer than SORT_SMALL: a pass then clears and sums 256 counts,
 * not 65,536 (256 KB, fresh pages each time), which for a list of a few
 * thousand functions cost more than the keys.
 */
void
sort_index_u64(const uint64_t *key, uint32_t n, uint32_t *order)
{
	uint32_t	*cnt, *tmp, *src, *dst, *t, i, c, sum, v, ndig, mask;
	unsigned	 shift, bits;

	for (i = 0; i < n; i++)
		order[i] = i;
	if (n < 2)
		return;
	bits = n < SORT_SMALL ? 8 : 16;
	ndig = (uint32_t)1 << bits;
	mask = ndig - 1;
	cnt = xreallocarray(NULL, ndig, sizeof(*cnt));
	tmp = xreallocarray(NULL, n, sizeof(*tmp));
	src = order;
	dst = tmp;
	for (shift = 0; shift < 64; shift += bits) {
		memset(cnt, 0, ndig * sizeof(*cnt));
		for (i = 0; i < n; i++)
			cnt[(key[i] >> shift) & mask]++;
		if (cnt[(key[0] >> shift) & mask] == n)
			continue;
		for (sum = 0, c = 0; c < ndig; c++) {
			v = cnt[c];
			cnt[c] = sum;
			sum += v;
		}
		for (i = 0; i < n; i++)
			dst[cnt[(key[src[i]] >> shift) & mask]++] = src[i];
		t = src;
		src = dst;
		dst = t;
	}
	if (src != order)
		memcpy(order, src, (size_t)n * sizeof(*order));
	free(tmp);
	free(cnt);
}

/*
 * Put the nodes 1 .. n-1 of a tree whose root is 0 in depth-first order
 * (a node before its children, a child's subtree before its next
 * sibling) in dfs[0 .. n-2]: node v's children, in order, are kids[k]
 * for k from start[v] to start[v + 1] - 1.  The nodes waiting are kept
 * on a stack of their own, not in calls: a tree may be a chain of
 * millions.
 */
void
sort_preorder(const uint32_t *start, const uint32_t *kids, uint32_t n,
    uint32_t *dfs)
{
	uint32_t	*stack, top = 0, v, k, m = 0;

	if (n < 2)
		return;
	stack = xreallocarray(NULL, n, sizeof(*stack));
	stack[top++] = 0;
	while (top > 0) {
		v = stack[--top];
		if (v != 0)
			dfs[m++] = v;
		/* The first child on top. */
		for (k = start[v + 1]; k-- > start[v]; )
			stack[top++] = kids[k];
	}
	free(stack);
}
