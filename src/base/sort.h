/*
 * sort.h - sorting large arrays of integer keys without comparisons.
 */
#ifndef CGA_SORT_H
#define CGA_SORT_H

#include <stdint.h>

void	sort_index_u64(const uint64_t *, uint32_t, uint32_t *);

#endif /* CGA_SORT_H */
