/*
 * packed.h - cost vectors kept in as few bytes as their counts need.
 * Every count of a vector has one width, 1, 2, 4 or 8 bytes: the
 * narrowest that holds its largest count, where the all-ones value of a
 * width stands for "never recorded" (COST_NONE).  A vector moves to a
 * wider slot when a sum outgrows its width; the slot it leaves is taken
 * again.  Sums are exact, as cost_add() makes them.
 */
#ifndef CGA_PACKED_H
#define CGA_PACKED_H

#include <stddef.h>
#include <stdint.h>

#include "cost.h"

#define PACKED_WIDTHS	4	/* 1, 2, 4 and 8 bytes a count */
#define PACKED_SHIFT	30	/* map: width << PACKED_SHIFT | slot */
#define PACKED_SLOT	((1U << PACKED_SHIFT) - 1) /* slots a width, at most */

/* The slots of one width. */
struct packed_slots {
	unsigned char	*data;		/* slots of n counts each */
	size_t		 bytes;		/* allocated */
	uint32_t	 n;		/* slots used */
	uint32_t	*free;		/* slots given up, to be taken again */
	size_t		 nfree, free_cap;
};

struct packed {
	unsigned	 n;		/* counts a vector */
	int		 direct;	/* n is 1: vector id == 8-byte slot */
	uint32_t	*ref;		/* vector -> width << 30 | slot
					   (unless direct) */
	uint32_t	 nvec;
	size_t		 ref_cap;
	struct packed_slots w[PACKED_WIDTHS];
};

void		 packed_init(struct packed *);
void		 packed_free(struct packed *);
void		 packed_clear(struct packed *, unsigned);
void		 packed_reserve(struct packed *, uint32_t);
uint32_t	 packed_new(struct packed *, const uint64_t *);
int		 packed_widen(struct packed *, uint32_t, const uint64_t *,
		    unsigned);
void		 packed_get(const struct packed *, uint32_t, uint64_t *);
int		 packed_sum(const struct packed *, uint32_t, uint64_t *);
void		 packed_prefetch_run(const struct packed *, uint32_t,
		    uint32_t);
size_t		 packed_bytes(const struct packed *);

/*
 * Add the counts c[0..n-1] to d, counts of a narrow type whose value
 * none is "never recorded", if every sum stays below none; return 1 if
 * they did, else 0 with d unchanged.  No branch depends on a count: one
 * pass looks, one writes.
 */
#define PACKED_ADD(name, type, none)					\
static inline unsigned							\
name(type *d, const uint64_t *c, unsigned n)				\
{									\
	uint64_t	v, b, bad = 0;					\
	unsigned	i;						\
									\
	for (i = 0; i < n; i++) {					\
		v = c[i];						\
		b = d[i] == (none) ? 0 : d[i];				\
		bad |= (uint64_t)(v != COST_NONE) &			\
		    ((uint64_t)(v >= (none)) | (uint64_t)(b + v >= (none))); \
	}								\
	if (bad)							\
		return 0;						\
	for (i = 0; i < n; i++) {					\
		v = c[i];						\
		b = d[i] == (none) ? 0 : d[i];				\
		d[i] = v == COST_NONE ? d[i] : (type)(b + v);		\
	}								\
	return 1;							\
}
PACKED_ADD(packed_add8, uint8_t, UINT8_MAX)
PACKED_ADD(packed_add16, uint16_t, UINT16_MAX)
PACKED_ADD(packed_add32, uint32_t, UINT32_MAX)

/* Return where the counts of vector id are, and their width in *w. */
static inline unsigned char *
packed_at(const struct packed *pk, uint32_t id, unsigned *w)
{
	uint32_t	r;

	if (pk->direct) {
		*w = 3;
		return pk->w[3].data + (size_t)id * pk->n * 8;
	}
	r = pk->ref[id];
	*w = r >> PACKED_SHIFT;
	return pk->w[*w].data + ((size_t)(r & PACKED_SLOT) * pk->n << *w);
}

/*
 * Add counts c[0..k-1] to vector id, whose counts from k on stay as
 * they are (the cost line gave k); return nonzero if a sum overflowed
 * (kept at COST_MAX, as cost_add() does).
 */
static inline int
packed_add(struct packed *pk, uint32_t id, const uint64_t *c, unsigned k)
{
	unsigned	 w;
	unsigned char	*d = packed_at(pk, id, &w);

	switch (w) {
	case 0:
		if (packed_add8((uint8_t *)d, c, k))
			return 0;
		break;
	case 1:
		if (packed_add16((uint16_t *)(void *)d, c, k))
			return 0;
		break;
	case 2:
		if (packed_add32((uint32_t *)(void *)d, c, k))
			return 0;
		break;
	default:
		return cost_add((uint64_t *)(void *)d, c, k);
	}
	return packed_widen(pk, id, c, k);
}

/* Return the first count of vector id. */
static inline uint64_t
packed_first(const struct packed *pk, uint32_t id)
{
	unsigned	 w;
	const void	*d = packed_at(pk, id, &w);

	switch (w) {
	case 0:
		return *(const uint8_t *)d == UINT8_MAX ? COST_NONE :
		    *(const uint8_t *)d;
	case 1:
		return *(const uint16_t *)d == UINT16_MAX ? COST_NONE :
		    *(const uint16_t *)d;
	case 2:
		return *(const uint32_t *)d == UINT32_MAX ? COST_NONE :
		    *(const uint32_t *)d;
	default:
		return *(const uint64_t *)d;
	}
}

/* Start loading the counts of vector id. */
static inline void
packed_prefetch(const struct packed *pk, uint32_t id)
{
	unsigned	w;

	__builtin_prefetch(packed_at(pk, id, &w));
}

#endif /* CGA_PACKED_H */
