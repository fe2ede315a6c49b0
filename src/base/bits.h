/*
 * bits.h - sets of ids kept as arrays of 64-bit words, a bit an id: the
 * instructions dropped when summed, the cost vectors moved wider.
 */
#ifndef CGA_BITS_H
#define CGA_BITS_H

#include <stdint.h>

/* Return whether id is in the set w. */
static inline int
bits_has(const uint64_t *w, uint32_t id)
{
	return (int)(w[id >> 6] >> (id & 63) & 1);
}

/* Put id in the set w. */
static inline void
bits_set(uint64_t *w, uint32_t id)
{
	w[id >> 6] |= (uint64_t)1 << (id & 63);
}

/* Take id out of the set w. */
static inline void
bits_clear(uint64_t *w, uint32_t id)
{
	w[id >> 6] &= ~((uint64_t)1 << (id & 63));
}

/* Return how many ids of the set w below id share its word. */
static inline uint32_t
bits_below(const uint64_t *w, uint32_t id)
{
	return (uint32_t)__builtin_popcountll(w[id >> 6] &
	    (((uint64_t)1 << (id & 63)) - 1));
}

#endif /* CGA_BITS_H */
