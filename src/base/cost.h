/*
 * cost.h - cost vectors: one 64-bit count per event, where COST_NONE
 * marks an event never recorded for that entry (printed as "."), which
 * is not the same as a recorded 0.
 */
#ifndef CGA_COST_H
#define CGA_COST_H

#include <stddef.h>
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

/* Add count v to *dst; return nonzero if the sum overflowed. */
static inline int
cost_add1(uint64_t *dst, uint64_t v)
{
	uint64_t	s;

	if (v == COST_NONE)
		return 0;
	if (*dst == COST_NONE)
		*dst = v;
	else if (__builtin_add_overflow(*dst, v, &s) || s == COST_NONE) {
		*dst = COST_MAX;
		return 1;
	} else
		*dst = s;
	return 0;
}

/* Add src to dst; return nonzero if a sum overflowed (kept at COST_MAX). */
static inline int
cost_add(uint64_t *dst, const uint64_t *src, unsigned n)
{
	uint64_t	m = 0;
	unsigned	i;
	int		over = 0;

	if (n == 1)
		return cost_add1(dst, src[0]);	/* one event: the usual */
	/* No count "never recorded" nor near 2^64: plain sums. */
	for (i = 0; i < n; i++)
		m |= dst[i] | src[i];
	if (m >> 62 == 0) {
		for (i = 0; i < n; i++)
			dst[i] += src[i];
		return 0;
	}
	for (i = 0; i < n; i++)
		over |= cost_add1(dst + i, src[i]);
	return over;
}

/* Raise each count of dst to src's where that is larger (and recorded). */
static inline void
cost_max(uint64_t *dst, const uint64_t *src, unsigned n)
{
	unsigned	i;

	for (i = 0; i < n; i++)
		if (src[i] != COST_NONE && (dst[i] == COST_NONE ||
		    src[i] > dst[i]))
			dst[i] = src[i];
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

/*
 * Compare cost vectors a and b by the events sort[0..n-1] in turn, each
 * descending, "never recorded" below any count: -1 if a sorts first, 1
 * if b does, 0 if they tie.
 */
static inline int
cost_cmp(const uint64_t *a, const uint64_t *b, const int *sort, size_t n)
{
	uint64_t	u, v;
	size_t		i;

	for (i = 0; i < n; i++) {
		u = a[sort[i]];
		v = b[sort[i]];
		if (u == v)
			continue;
		if (u == COST_NONE)
			return 1;
		if (v == COST_NONE)
			return -1;
		return u > v ? -1 : 1;
	}
	return 0;
}

#endif /* CGA_COST_H */
