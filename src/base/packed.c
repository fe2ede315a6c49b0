/*
 * packed.c - cost vectors kept in as few bytes as their counts need.
 *
 * A vector is a slot of n counts in the arena of its width; ref[] maps
 * the vector to its width and slot.  Most lines of a profile hold small
 * counts (a cache-simulation profile's 13 counts are mostly 0), so most
 * vectors take n bytes instead of 8 n.  The all-ones value of a width is
 * "never recorded"; a count that would reach it moves the vector to the
 * next width that holds it.  Vectors of one count save little that
 * way and would pay for the map on every access: they are kept 8 bytes
 * wide, in the order of their ids, with no map ("direct").
 */
#include "compat.h"

#include <err.h>
#include <stdlib.h>
#include <string.h>

#include "cost.h"
#include "packed.h"
#include "xmalloc.h"

static uint32_t	 packed_take(struct packed *, unsigned);
static void	 packed_store(struct packed *, unsigned, uint32_t,
		    const uint64_t *);
static unsigned	 packed_width(const uint64_t *, unsigned);

/* Make an empty store. */
void
packed_init(struct packed *pk)
{
	memset(pk, 0, sizeof(*pk));
}

/* Free what a store holds. */
void
packed_free(struct packed *pk)
{
	unsigned	w;

	free(pk->ref);
	for (w = 0; w < PACKED_WIDTHS; w++) {
		free(pk->w[w].data);
		free(pk->w[w].free);
	}
	packed_init(pk);
}

/* Empty a store for vectors of n counts, keeping its memory. */
void
packed_clear(struct packed *pk, unsigned n)
{
	unsigned	w;

	pk->n = n;
	pk->direct = n == 1;
	pk->nvec = 0;
	for (w = 0; w < PACKED_WIDTHS; w++)
		pk->w[w].n = 0, pk->w[w].nfree = 0;
}

/* Make room for nvec vectors of small counts without growing. */
void
packed_reserve(struct packed *pk, uint32_t nvec)
{
	struct packed_slots	*s = &pk->w[pk->direct ? 3 : 0];
	size_t			 need = (size_t)nvec * pk->n << (pk->direct ?
				    3 : 0);

	if (!pk->direct)
		pk->ref = xgrow(pk->ref, &pk->ref_cap, nvec,
		    sizeof(*pk->ref));
	if (need > s->bytes) {
		s->bytes = need;
		s->data = xreallocarray(s->data, s->bytes, 1);
	}
}

/* Return the narrowest width that holds every count of c. */
static unsigned
packed_width(const uint64_t *c, unsigned n)
{
	uint64_t	m = 0;
	unsigned	i;

	for (i = 0; i < n; i++)
		if (c[i] != COST_NONE && c[i] > m)
			m = c[i];
	if (m < UINT8_MAX)
		return 0;
	if (m < UINT16_MAX)
		return 1;
	if (m < UINT32_MAX)
		return 2;
	return 3;
}

/* Take a slot of width w: one given up before, else a new one. */
static uint32_t
packed_take(struct packed *pk, unsigned w)
{
	struct packed_slots	*s = &pk->w[w];
	size_t			 need, size = (size_t)pk->n << w;

	if (s->nfree > 0)
		return s->free[--s->nfree];
	if (s->n == PACKED_SLOT)
		errx(1, "more than %u cost vectors of one width", PACKED_SLOT);
	need = ((size_t)s->n + 1) * size;
	if (need > s->bytes || s->data == NULL) {
		s->bytes = s->bytes < 4096 ? 4096 : s->bytes;
		while (s->bytes < need)
			s->bytes *= 2;
		s->data = xreallocarray(s->data, s->bytes, 1);
	}
	return s->n++;
}

/* Write counts c into slot of width w. */
static void
packed_store(struct packed *pk, unsigned w, uint32_t slot, const uint64_t *c)
{
	unsigned	 i, n = pk->n;
	void		*d = pk->w[w].data + ((size_t)slot * n << w);

	switch (w) {
	case 0:
		for (i = 0; i < n; i++)
			((uint8_t *)d)[i] = c[i] == COST_NONE ? UINT8_MAX :
			    (uint8_t)c[i];
		break;
	case 1:
		for (i = 0; i < n; i++)
			((uint16_t *)d)[i] = c[i] == COST_NONE ? UINT16_MAX :
			    (uint16_t)c[i];
		break;
	case 2:
		for (i = 0; i < n; i++)
			((uint32_t *)d)[i] = c[i] == COST_NONE ? UINT32_MAX :
			    (uint32_t)c[i];
		break;
	default:
		memcpy(d, c, n * sizeof(*c));
		break;
	}
}

/* Add a vector holding counts c (COST_NONE: never recorded); return it. */
uint32_t
packed_new(struct packed *pk, const uint64_t *c)
{
	unsigned	w;
	uint32_t	slot;

	if (pk->nvec == UINT32_MAX)
		errx(1, "more than %u cost vectors", UINT32_MAX - 1);
	if (pk->direct) {
		/* No slot is ever given up: slot == id. */
		packed_store(pk, 3, packed_take(pk, 3), c);
		return pk->nvec++;
	}
	w = packed_width(c, pk->n);
	if (pk->nvec >= pk->ref_cap)
		pk->ref = xgrow(pk->ref, &pk->ref_cap, (size_t)pk->nvec + 1,
		    sizeof(*pk->ref));
	slot = packed_take(pk, w);
	packed_store(pk, w, slot, c);
	pk->ref[pk->nvec] = (uint32_t)w << PACKED_SHIFT | slot;
	return pk->nvec++;
}

/*
 * Add counts c[0..k-1] to vector id, which a sum outgrows, moving it to
 * a slot wide enough; return nonzero on overflow.
 */
int
packed_widen(struct packed *pk, uint32_t id, const uint64_t *c, unsigned k)
{
	uint64_t	 buf[16], *t;
	uint32_t	 r = pk->ref[id], slot;
	unsigned	 w = r >> PACKED_SHIFT, nw, n = pk->n;
	int		 over;
	struct packed_slots *s = &pk->w[w];

	t = n <= 16 ? buf : xreallocarray(NULL, n, sizeof(*t));
	packed_get(pk, id, t);
	over = cost_add(t, c, k);
	nw = packed_width(t, n);
	slot = packed_take(pk, nw);
	packed_store(pk, nw, slot, t);
	pk->ref[id] = (uint32_t)nw << PACKED_SHIFT | slot;
	s->free = xgrow(s->free, &s->free_cap, s->nfree + 1,
	    sizeof(*s->free));
	s->free[s->nfree++] = r & PACKED_SLOT;
	if (t != buf)
		free(t);
	return over;
}

/* Give the counts of vector id in out (n of them). */
void
packed_get(const struct packed *pk, uint32_t id, uint64_t *out)
{
	unsigned	 w, n = pk->n, i;
	const void	*d = packed_at(pk, id, &w);

	switch (w) {
	case 0:
		for (i = 0; i < n; i++)
			out[i] = ((const uint8_t *)d)[i] == UINT8_MAX ?
			    COST_NONE : ((const uint8_t *)d)[i];
		break;
	case 1:
		for (i = 0; i < n; i++)
			out[i] = ((const uint16_t *)d)[i] == UINT16_MAX ?
			    COST_NONE : ((const uint16_t *)d)[i];
		break;
	case 2:
		for (i = 0; i < n; i++)
			out[i] = ((const uint32_t *)d)[i] == UINT32_MAX ?
			    COST_NONE : ((const uint32_t *)d)[i];
		break;
	default:
		memcpy(out, d, n * sizeof(*out));
		break;
	}
}

/* Add vector id to sum (n counts); return nonzero on overflow. */
int
packed_sum(const struct packed *pk, uint32_t id, uint64_t *sum)
{
	uint64_t	 buf[16], *t;
	unsigned	 n = pk->n, w;
	const void	*d = packed_at(pk, id, &w);
	int		 over;

	if (w == 3)
		return cost_add(sum, d, n);
	t = n <= 16 ? buf : xreallocarray(NULL, n, sizeof(*t));
	packed_get(pk, id, t);
	over = cost_add(sum, t, n);
	if (t != buf)
		free(t);
	return over;
}

/*
 * Start loading what finding the counts of the n vectors from id on
 * reads first: their map, or their counts when there is none.
 */
void
packed_prefetch_run(const struct packed *pk, uint32_t id, uint32_t n)
{
	const char	*c;
	size_t		 bytes, i;

	if (pk->direct) {
		c = (const char *)(pk->w[3].data + (size_t)id * pk->n * 8);
		bytes = (size_t)n * pk->n * 8;
	} else {
		c = (const char *)&pk->ref[id];
		bytes = (size_t)n * sizeof(*pk->ref);
	}
	for (i = 0; i < bytes && i < 1024; i += 64)
		__builtin_prefetch(c + i);
}

/* Return the bytes of slots in use and of the map to them. */
size_t
packed_bytes(const struct packed *pk)
{
	size_t		b = pk->direct ? 0 : (size_t)pk->nvec * sizeof(*pk->ref);
	unsigned	w;

	for (w = 0; w < PACKED_WIDTHS; w++)
		b += (size_t)pk->w[w].n * pk->n << w;
	return b;
}
