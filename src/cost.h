/*
 * cost.h - cost vectors: one 64-bit count per event, where COST_NONE
 * marks an event never recorded for that entry (printed as "."), which
 * is not the same as a recorded 0.
 */
#ifndef CGA_COST_H
#define CGA_COST_H

#include <stdint.h>

#define COST_NONE	UINT64_MAX
#define COST_MAX	(UINT64_MAX - 1)

/* Set n counts to "never recorded". */
static inline void
cost_clear(uint64_t *c, unsigned n)
{
	unsigned	i;

	for (i = 0; i < n; i++)
		c[i] = COST_NONE;
}

/* Add src to dst; return nonzero if a sum overflowed (kept at COST_MAX). */
static inline int
cost_add(uint64_t *dst, const uint64_t *src, unsigned n)
{
	unsigned	i;
	uint64_t	s;
	int		over = 0;

	for (i = 0; i < n; i++) {
		if (src[i] == COST_NONE)
			continue;
		if (dst[i] == COST_NONE)
			dst[i] = src[i];
		else if (__builtin_add_overflow(dst[i], src[i], &s) ||
		    s == COST_NONE) {
			dst[i] = COST_MAX;
			over = 1;
		} else
			dst[i] = s;
	}
	return over;
}

/* Return nonzero if every count is "never recorded" or 0. */
static inline int
cost_is_zero(const uint64_t *c, unsigned n)
{
	unsigned	i;

	for (i = 0; i < n; i++)
		if (c[i] != COST_NONE && c[i] != 0)
			return 0;
	return 1;
}

#endif /* CGA_COST_H */
