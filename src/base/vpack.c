/*
 * vpack.c - cost vectors written once, as varints: see vpack.h.  The
 * vectors lie in id order one after another; an id's first byte is its
 * block's first (64 bits) plus its own offset (32: a block holds
 * 2^VPACK_SHIFT vectors of at most VPACK_MOST bytes).
 */
#include "base/compat.h"

#include <err.h>
#include <stdlib.h>
#include <string.h>

#include "base/bits.h"
#include "base/cost.h"
#include "base/num.h"
#include "base/vpack.h"
#include "base/xmalloc.h"

/* Counts a vector, at most: a block's bytes stay below 2^32. */
#define VPACK_COUNTS	4096

/* The bytes of a vector of n counts, at most: k, its bits, its counts. */
#define VPACK_MOST(n)	(5 + ((size_t)(n) + 7) / 8 + 10 * (size_t)(n))

/* Make vp an empty store of vectors of n counts. */
void
vpack_init(struct vpack *vp, unsigned n)
{
	if (n > VPACK_COUNTS)
		errx(1, "more than %u counts a cost", VPACK_COUNTS);
	memset(vp, 0, sizeof(*vp));
	vp->n = n;
}

/* Free what vp holds; it is then empty, of the same counts a vector. */
void
vpack_free(struct vpack *vp)
{
	unsigned	n = vp->n;

	free(vp->bytes);
	free(vp->off);
	free(vp->base);
	vpack_init(vp, n);
}

/* Make room for the offsets of nvec vectors in all. */
void
vpack_reserve(struct vpack *vp, uint32_t nvec)
{
	vp->off = xgrow(vp->off, &vp->off_cap, nvec, sizeof(*vp->off));
	vp->base = xgrow(vp->base, &vp->base_cap,
	    ((size_t)nvec >> VPACK_SHIFT) + 1, sizeof(*vp->base));
}

/* Return the first byte of vector id. */
static inline uint64_t
vpack_pos(const struct vpack *vp, uint32_t id)
{
	return vp->base[id >> VPACK_SHIFT] + vp->off[id];
}

/* Give the next id the vector at byte pos (its bytes made already). */
static void
vpack_place(struct vpack *vp, uint64_t pos)
{
	uint32_t	id = vp->nvec;

	if (id == UINT32_MAX)
		errx(1, "more than %u cost vectors", UINT32_MAX - 1);
	if (id >= vp->off_cap || (id >> VPACK_SHIFT) >= vp->base_cap)
		vpack_reserve(vp, id + 1);
	if ((id & ((1U << VPACK_SHIFT) - 1)) == 0)
		vp->base[id >> VPACK_SHIFT] = pos;
	vp->off[id] = (uint32_t)(pos - vp->base[id >> VPACK_SHIFT]);
	vp->nvec++;
}

/* Read a varint at p into *v; return the byte after it. */
static inline const uint8_t *
vpack_take(const uint8_t *p, uint64_t *v)
{
	uint64_t	x = 0;
	unsigned	s = 0;

	while (*p & 0x80) {
		x |= (uint64_t)(*p++ & 0x7f) << s;
		s += 7;
	}
	*v = x | (uint64_t)*p++ << s;
	return p;
}

/*
 * Add a vector of the counts c[0..k-1], those after "never recorded";
 * return its id (the one after the last).
 */
uint32_t
vpack_add(struct vpack *vp, const uint64_t *c, unsigned k)
{
	uint8_t		*o, *bits;
	unsigned	 i;

	if (k > vp->n)
		k = vp->n;
	while (k > 0 && c[k - 1] == COST_NONE)
		k--;
	vp->bytes = xgrow(vp->bytes, &vp->cap, vp->len + VPACK_MOST(k), 1);
	vpack_place(vp, vp->len);
	o = num_varint(vp->bytes + vp->len, k);
	bits = o;
	o += (k + 7) / 8;
	memset(bits, 0, (k + 7) / 8);
	for (i = 0; i < k; i++)
		if (c[i] != 0) {
			bits[i >> 3] |= (uint8_t)(1U << (i & 7));
			o = num_varint(o, c[i] == COST_NONE ? 0 : c[i]);
		}
	vp->len = (size_t)(o - vp->bytes);
	return vp->nvec - 1;
}

/* Give vector id's counts in out (vp->n of them). */
void
vpack_get(const struct vpack *vp, uint32_t id, uint64_t *out)
{
	const uint8_t	*p = vp->bytes + vpack_pos(vp, id), *bits;
	uint64_t	 k, v;
	unsigned	 i;

	p = vpack_take(p, &k);
	bits = p;
	p += (k + 7) / 8;
	for (i = 0; i < k; i++) {
		if (!(bits[i >> 3] >> (i & 7) & 1)) {
			out[i] = 0;
			continue;
		}
		p = vpack_take(p, &v);
		out[i] = v == 0 ? COST_NONE : v;
	}
	for (; i < vp->n; i++)
		out[i] = COST_NONE;
}

/* Return count ev of vector id. */
uint64_t
vpack_get1(const struct vpack *vp, uint32_t id, unsigned ev)
{
	const uint8_t	*p = vp->bytes + vpack_pos(vp, id), *bits;
	uint64_t	 k, v;
	unsigned	 i, skip = 0;

	p = vpack_take(p, &k);
	if (ev >= k)
		return COST_NONE;
	bits = p;
	if (!(bits[ev >> 3] >> (ev & 7) & 1))
		return 0;
	for (i = 0; i < ev >> 3; i++)
		skip += (unsigned)__builtin_popcount(bits[i]);
	skip += (unsigned)__builtin_popcount(bits[ev >> 3] &
	    ((1U << (ev & 7)) - 1));
	p += (k + 7) / 8;
	for (; skip > 0; p++)
		if (!(*p & 0x80))
			skip--;
	(void)vpack_take(p, &v);
	return v == 0 ? COST_NONE : v;
}

/* Add src's n vectors from id first to dst, in order. */
void
vpack_append(struct vpack *dst, const struct vpack *src, uint32_t first,
    uint32_t n)
{
	uint64_t	 a, b;
	uint32_t	 i;
	size_t		 at = dst->len;

	if (n == 0)
		return;
	if (src->n != dst->n)
		abort();
	if (n > UINT32_MAX - 1 - dst->nvec)
		errx(1, "more than %u cost vectors", UINT32_MAX - 1);
	a = vpack_pos(src, first);
	b = first + n < src->nvec ? vpack_pos(src, first + n) : src->len;
	dst->bytes = xgrow(dst->bytes, &dst->cap, dst->len + (b - a), 1);
	memcpy(dst->bytes + at, src->bytes + a, b - a);
	vpack_reserve(dst, dst->nvec + n);
	for (i = 0; i < n; i++)
		vpack_place(dst, at + (vpack_pos(src, first + i) - a));
	dst->len += b - a;
}

/*
 * The bytes vpack_rewrite() has made that would pass the vectors not yet
 * read, in order, from head on.
 */
struct vqueue {
	uint8_t		*b;
	size_t		 head, len, cap;
};

/*
 * Write the len bytes at src as the next of vp's new bytes, at *done
 * (those written) if none wait and they end by byte stop (the first not
 * yet read), else after those that wait; then write what waits, up to
 * stop.
 */
static void
vpack_emit(struct vpack *vp, struct vqueue *q, size_t *done, size_t stop,
    const uint8_t *src, size_t len)
{
	size_t	n;

	if (q->len == q->head && *done + len <= stop) {
		if (len > 0)
			memmove(vp->bytes + *done, src, len);
		*done += len;
		return;
	}
	if (len > 0) {
		if (q->head > 0 && q->len == q->head)
			q->head = q->len = 0;
		q->b = xgrow(q->b, &q->cap, q->len + len, 1);
		memcpy(q->b + q->len, src, len);
		q->len += len;
	}
	n = q->len - q->head;
	if (n > stop - *done)
		n = stop - *done;
	memcpy(vp->bytes + *done, q->b + q->head, n);
	q->head += n;
	*done += n;
}

/*
 * Write vp again in place, its ids counting on without the vectors whose
 * bit is set in drop: vector keeps[order[s]] (ascending with s, nsum of
 * them) takes vector order[s] of sums instead of its own.  A sum longer
 * than the vector it replaces may pass the vectors not yet read (before
 * enough are dropped): its bytes and those after wait until they are
 * read.  No second store is made: cc1plus's machine code, 47 MB of
 * counts and 24 of offsets, not made again fresh.
 */
void
vpack_rewrite(struct vpack *vp, const uint64_t *drop,
    const struct vpack *sums, const uint64_t *keeps, const uint32_t *order,
    uint32_t nsum)
{
	struct vqueue	 q;
	uint64_t	*oldbase, a, b;
	uint32_t	 n = vp->nvec, i, e, k, s = 0;
	size_t		 nb = ((size_t)n >> VPACK_SHIFT) + 1, done = 0, out = 0;
	size_t		 oldlen = vp->len;

	if (sums->n != vp->n)
		abort();
	memset(&q, 0, sizeof(q));
	oldbase = xreallocarray(NULL, nb, sizeof(*oldbase));
	memcpy(oldbase, vp->base, (n > 0 ? nb : 0) * sizeof(*oldbase));
#define VPACK_OLD(id)	((id) < n ? oldbase[(id) >> VPACK_SHIFT] +	\
	    vp->off[(id)] : oldlen)
	vp->nvec = 0;
	for (i = 0; i < n; i = e) {
		e = i + 1;
		if (bits_has(drop, i)) {
			vpack_emit(vp, &q, &done, VPACK_OLD(e), NULL, 0);
			continue;
		}
		if (s < nsum && keeps[order[s]] == i) {
			a = vpack_pos(sums, order[s]);
			b = order[s] + 1 < sums->nvec ?
			    vpack_pos(sums, order[s] + 1) : sums->len;
			s++;
			vpack_place(vp, out);
			out += b - a;
			vpack_emit(vp, &q, &done, VPACK_OLD(e),
			    sums->bytes + a, b - a);
			continue;
		}
		/* Up to the next dropped or summed, at once. */
		while (e < n && !bits_has(drop, e) &&
		    !(s < nsum && keeps[order[s]] == e))
			e++;
		a = VPACK_OLD(i);
		b = VPACK_OLD(e);
		/* Each offset read before the new one is written there. */
		for (k = i; k < e; k++)
			vpack_place(vp, out + (VPACK_OLD(k) - a));
		out += b - a;
		vpack_emit(vp, &q, &done, b, vp->bytes + a, b - a);
	}
#undef VPACK_OLD
	/* What waits, at the end (the bytes grown for it if need be). */
	if (q.len > q.head) {
		vp->bytes = xgrow(vp->bytes, &vp->cap, out, 1);
		memcpy(vp->bytes + done, q.b + q.head, q.len - q.head);
		done += q.len - q.head;
	}
	vp->len = out;
	free(q.b);
	free(oldbase);
}

/* Return the bytes vp has allocated. */
size_t
vpack_bytes(const struct vpack *vp)
{
	return vp->cap + vp->off_cap * sizeof(*vp->off) + vp->base_cap *
	    sizeof(*vp->base);
}
