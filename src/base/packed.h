/*
 * packed.h - cost vectors kept in as few bytes as their counts need.
 * Every count of a vector has one width, 1, 2, 4 or 8 bytes: the
 * narrowest that holds its largest count, where the all-ones value of a
 * width stands for "never recorded" (COST_NONE).  Each vector has a home
 * slot, at its id, holding its counts while they fit a byte; a vector
 * whose sums outgrow that moves to a slot of a wider width, and its home
 * slot then holds where (a bit a vector tells which).  So a vector of
 * small counts is found in one memory access, as an array of 64-bit
 * counts would be, in an eighth of the space.  Sums are exact, as
 * cost_add() makes them.
 */
#ifndef CGA_PACKED_H
#define CGA_PACKED_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/bits.h"
#include "base/cost.h"

#define PACKED_WIDTHS	4	/* 1, 2, 4 and 8 bytes a count */
#define PACKED_SHIFT	30	/* moved: width << PACKED_SHIFT | slot */
#define PACKED_SLOT	((1U << PACKED_SHIFT) - 1) /* slots a width, at most */
#define PACKED_DMOVED	(3U << PACKED_SHIFT) /* direct: moved from here up,
					   below UINT32_MAX ("never
					   recorded") */

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
	unsigned	 hs;		/* bytes a home slot: n, at least 4 */
	int		 direct;	/* n is 1: home slots of 4 bytes, a
					   count or PACKED_DMOVED | its
					   slot in w[3]; no moved bits */
	unsigned char	*home;		/* home slots, by id */
	size_t		 home_bytes;	/* allocated */
	uint64_t	*moved;		/* a bit a vector: its home slot
					   holds where it went */
	size_t		 moved_cap;	/* words allocated */
	uint32_t	 nvec;
	struct packed_slots w[PACKED_WIDTHS]; /* wider slots, [1..3] */
};

void		 packed_init(struct packed *);
void		 packed_free(struct packed *);
void		 packed_clear(struct packed *, unsigned);
void		 packed_reserve(struct packed *, uint32_t);
uint32_t	 packed_new_slow(struct packed *, const uint64_t *);
uint32_t	 packed_new_from(struct packed *, const struct packed *,
		    uint32_t);
uint32_t	 packed_append(struct packed *, const struct packed *,
		    uint32_t, uint32_t);
int		 packed_add_from(struct packed *, uint32_t,
		    const struct packed *, uint32_t);
int		 packed_widen(struct packed *, uint32_t, const uint64_t *,
		    unsigned, unsigned);
uint32_t	 packed_drop(struct packed *, const uint64_t *);
unsigned	 packed_get(const struct packed *, uint32_t, uint64_t *);
int		 packed_sum(const struct packed *, uint32_t, uint64_t *);
int		 packed_sum_groups(const struct packed *, const uint32_t *,
		    const uint32_t *, uint32_t, uint64_t *);
void		 packed_prefetch_run(const struct packed *, uint32_t,
		    uint32_t);
size_t		 packed_bytes(const struct packed *);

/*
 * Add the counts c[0..n-1] to d, counts of a narrow type whose value
 * none is "never recorded", while each sum stays below none; return the
 * index of the first count that does not fit (n if all did).  Counts
 * not recorded are rare among the n a cost line gave, sums that do not
 * fit rarer: the branches are foreseen.
 */
#define PACKED_ADD(name, type, none)					\
static inline unsigned							\
name(type *d, const uint64_t *c, unsigned n)				\
{									\
	uint64_t	v, s;						\
	unsigned	i;						\
									\
	for (i = 0; i < n; i++) {					\
		if ((v = c[i]) == COST_NONE)				\
			continue;					\
		s = (d[i] == (none) ? 0 : d[i]) + v;			\
		if (v >= (none) || s >= (none))				\
			return i;					\
		d[i] = (type)s;						\
	}								\
	return n;							\
}
PACKED_ADD(packed_add8, uint8_t, UINT8_MAX)
PACKED_ADD(packed_add16, uint16_t, UINT16_MAX)
PACKED_ADD(packed_add32, uint32_t, UINT32_MAX)

/* Return where the counts of vector id are, and their width in *w. */
static inline unsigned char *
packed_at(const struct packed *pk, uint32_t id, unsigned *w)
{
	unsigned char	*h;
	uint32_t	 r;

	if (pk->direct) {
		h = pk->home + (size_t)id * 4;
		memcpy(&r, h, sizeof(r));
		if (r < PACKED_DMOVED || r == UINT32_MAX) {
			*w = 2;
			return h;
		}
		*w = 3;
		return pk->w[3].data + (size_t)(r & PACKED_SLOT) * 8;
	}
	h = pk->home + (size_t)id * pk->hs;
	if (!bits_has(pk->moved, id)) {
		*w = 0;
		return h;
	}
	memcpy(&r, h, sizeof(r));
	*w = r >> PACKED_SHIFT;
	return pk->w[*w].data + ((size_t)(r & PACKED_SLOT) * pk->n << *w);
}

/* Return count k of vector id: COST_NONE if it was never recorded. */
static inline uint64_t
packed_get1(const struct packed *pk, uint32_t id, unsigned k)
{
	const unsigned char	*d;
	unsigned		 w;
	uint16_t		 h;
	uint32_t		 v;
	uint64_t		 q;

	d = packed_at(pk, id, &w);
	switch (w) {
	case 0:
		return d[k] == UINT8_MAX ? COST_NONE : d[k];
	case 1:
		memcpy(&h, d + 2 * (size_t)k, sizeof(h));
		return h == UINT16_MAX ? COST_NONE : h;
	case 2:
		memcpy(&v, d + 4 * (size_t)k, sizeof(v));
		return v == UINT32_MAX ? COST_NONE : v;
	default:
		memcpy(&q, d + 8 * (size_t)k, sizeof(q));
		return q;
	}
}

/*
 * Add counts c[0..k-1] to vector id, whose counts from k on stay as
 * they are (the cost line gave k); return nonzero if a sum overflowed
 * (kept at COST_MAX, as cost_add() does).
 */
static inline __attribute__((always_inline)) int
packed_add(struct packed *pk, uint32_t id, const uint64_t *c, unsigned k)
{
	unsigned	 w, i;
	unsigned char	*d;
	uint32_t	 r;
	uint64_t	 s;

	/* Ir only, the most common: no switch (4% of cc1's time). */
	if (pk->direct) {
		if (k == 0 || c[0] == COST_NONE)
			return 0;
		d = pk->home + (size_t)id * 4;
		memcpy(&r, d, sizeof(r));
		if (r >= PACKED_DMOVED && r != UINT32_MAX)
			return cost_add1((uint64_t *)(void *)(pk->w[3].data +
			    (size_t)(r & PACKED_SLOT) * 8), c[0]);
		s = (r == UINT32_MAX ? 0 : r) + c[0];
		if (c[0] >= PACKED_DMOVED || s >= PACKED_DMOVED)
			return packed_widen(pk, id, c, 0, k);
		r = (uint32_t)s;
		memcpy(d, &r, sizeof(r));
		return 0;
	}
	d = packed_at(pk, id, &w);
	switch (w) {
	case 0:
		i = packed_add8((uint8_t *)d, c, k);
		break;
	case 1:
		i = packed_add16((uint16_t *)(void *)d, c, k);
		break;
	case 2:
		i = packed_add32((uint32_t *)(void *)d, c, k);
		break;
	default:
		return cost_add((uint64_t *)(void *)d, c, k);
	}
	/* Counts before i are added. */
	return i == k ? 0 : packed_widen(pk, id, c + i, i, k);
}

/* Add a vector holding counts c (COST_NONE: never recorded); return it. */
static inline uint32_t
packed_new(struct packed *pk, const uint64_t *c)
{
	uint32_t	r;

	if (pk->direct && (c[0] < PACKED_DMOVED || c[0] == COST_NONE) &&
	    ((size_t)pk->nvec + 1) * 4 <= pk->home_bytes &&
	    pk->nvec < UINT32_MAX - 1) {
		r = c[0] == COST_NONE ? UINT32_MAX : (uint32_t)c[0];
		memcpy(pk->home + (size_t)pk->nvec * 4, &r, sizeof(r));
		return pk->nvec++;
	}
	return packed_new_slow(pk, c);
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
