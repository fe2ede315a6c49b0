/*
 * sort.h - sorting large arrays of integer keys without comparisons; a
 * tree's nodes in depth-first order; the few elements of many small
 * lists.
 */
#ifndef CGA_SORT_H
#define CGA_SORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SORT_FEW_SIZE	32	/* sort_few()'s largest element, bytes */

void	sort_index_u64(const uint64_t *, uint32_t, uint32_t *);
void	sort_preorder(const uint32_t *, const uint32_t *, uint32_t,
	    uint32_t *);

/*
 * Sort the n elements of size bytes (at most SORT_FEW_SIZE) at base by
 * cmp as qsort() does: by insertion up to few of them, else by qsort().
 * For the many short lists of a walk (a node's ends, a share's callers,
 * a frame's children: mostly one or two), where a call of qsort() each
 * cost more than the sorting.  Where cmp is a total order both give the
 * same order.  Inline, so that cmp is too.
 */
static inline void
sort_few(void *base, size_t n, size_t size,
    int (*cmp)(const void *, const void *), size_t few)
{
	unsigned char	*v = base, t[SORT_FEW_SIZE];
	size_t		 i, j;

	if (n > few) {
		qsort(base, n, size, cmp);
		return;
	}
	for (i = 1; i < n; i++) {
		memcpy(t, v + i * size, size);
		for (j = i; j > 0 && cmp(v + (j - 1) * size, t) > 0; j--)
			memcpy(v + j * size, v + (j - 1) * size, size);
		memcpy(v + j * size, t, size);
	}
}

#endif /* CGA_SORT_H */
