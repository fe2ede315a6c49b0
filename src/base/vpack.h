/*
 * vpack.h - cost vectors written once and read by id, each in as few
 * bytes as its counts need: how many counts it gives (those after are
 * "never recorded"), a bit for each of those that is not 0, then those
 * counts as varints (0 standing for "never recorded").  A vector is not
 * changed once written: sums are written as new vectors into another
 * store.  Machine code's costs are mostly a count or two of thirteen:
 * about 5 bytes a vector and 4 of offset on gcc's cc1plus, against 27 in
 * packed.h's slots, which are for vectors summed in place.
 */
#ifndef CGA_VPACK_H
#define CGA_VPACK_H

#include <stddef.h>
#include <stdint.h>

#define VPACK_SHIFT	16	/* vectors a block: offsets within it */

struct vpack {
	unsigned	 n;		/* counts a vector */
	uint8_t		*bytes;		/* the vectors, in order of id */
	size_t		 len, cap;
	uint32_t	*off;		/* id -> its first byte, from its
					   block's first */
	size_t		 off_cap;
	uint64_t	*base;		/* block -> its first vector's byte */
	size_t		 base_cap;
	uint32_t	 nvec;
};

void		 vpack_init(struct vpack *, unsigned);
void		 vpack_free(struct vpack *);
void		 vpack_reserve(struct vpack *, uint32_t);
uint32_t	 vpack_add(struct vpack *, const uint64_t *, unsigned);
void		 vpack_get(const struct vpack *, uint32_t, uint64_t *);
uint64_t	 vpack_get1(const struct vpack *, uint32_t, unsigned);
void		 vpack_append(struct vpack *, const struct vpack *, uint32_t,
		    uint32_t);
void		 vpack_rewrite(struct vpack *, const uint64_t *,
		    const struct vpack *, const uint64_t *, const uint32_t *,
		    uint32_t);
size_t		 vpack_bytes(const struct vpack *);

#endif /* CGA_VPACK_H */
