/*
 * sort.h - sorting large arrays of integer keys without comparisons; a
 * tree's nodes in depth-first order.
 */
#ifndef CGA_SORT_H
#define CGA_SORT_H

#include <stdint.h>

void	sort_index_u64(const uint64_t *, uint32_t, uint32_t *);
void	sort_preorder(const uint32_t *, const uint32_t *, uint32_t,
	    uint32_t *);

#endif /* CGA_SORT_H */
