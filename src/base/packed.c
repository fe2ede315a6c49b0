/*
 * packed.c - cost vectors kept in as few bytes as their counts need.
 *
 * Vector id's home slot is home[id * hs]: its counts, a byte each,
 * while they fit (the all-ones byte is "never recorded"); when a sum
 * would not, the vector moves to a slot of 2, 4 or 8 bytes a count in
 * the arena of that width, its bit in moved[] is set, and its home slot
 * holds width << PACKED_SHIFT | slot.  A slot left for a wider one is
 * taken again.  Most lines of a profile hold small counts (a
 * cache-simulation profile's 13 counts are mostly 0), so most vectors
 * take n bytes instead of 8 n and one memory access.  Vectors of one
 * count ("direct", Ir alone) would save little as bytes: their home
 * slots are 4 bytes, the count itself below PACKED_DMOVED, else
 * PACKED_DMOVED | its slot of 8 bytes (half the space of 8 bytes
 * each: 24 MB on a 300 MB profile of 6 million lines).
 */
#include "base/compat.h"

#include <err.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "base/bits.h"
#include "base/cost.h"
#include "base/hooks.h"
#include "base/packed.h"
#include "base/xmalloc.h"

static uint32_t	 packed_take(struct packed *, unsigned);
static void	 packed_store(unsigned, void *, unsigned, const uint64_t *);
static unsigned	 packed_width(const uint64_t *, unsigned);
static void	 packed_home(struct packed *, size_t);
static uint32_t	 packed_next(struct packed *);
static void	 packed_put(struct packed *, uint32_t, const uint64_t *);
static int	 packed_add16from(uint8_t *, const uint8_t *, unsigned);
static void	 packed_give(struct packed *, unsigned, uint32_t);
static int	 packed_moved(const struct packed *, uint32_t, unsigned *,
		    uint32_t *);

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

	free(pk->home);
	free(pk->moved);
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
	pk->hs = n < 4 ? 4 : n;
	pk->nvec = 0;
	for (w = 0; w < PACKED_WIDTHS; w++)
		pk->w[w].n = 0, pk->w[w].nfree = 0;
}

/* Make the home slots and their bits hold nvec vectors. */
static void
packed_home(struct packed *pk, size_t nvec)
{
	/* 16 bytes more: packed_add16from() loads 16 at a slot. */
	size_t	need = nvec * pk->hs + 16;

	if (need > pk->home_bytes || pk->home == NULL) {
		pk->home_bytes = pk->home_bytes < 4096 ? 4096 : pk->home_bytes;
		while (pk->home_bytes < need)
			pk->home_bytes *= 2;
		pk->home = xreallocarray(pk->home, pk->home_bytes, 1);
	}
	if (!pk->direct)
		pk->moved = xgrow(pk->moved, &pk->moved_cap, (nvec + 63) / 64,
		    sizeof(*pk->moved));
}

/* Make room for nvec vectors of small counts without growing. */
void
packed_reserve(struct packed *pk, uint32_t nvec)
{
	packed_home(pk, nvec);
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

/* Take a slot of width w (1 to 3): one given up before, else a new one. */
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
	xahead(s->data, (size_t)s->n * size, need, s->bytes);
	return s->n++;
}

/* Write the n counts c at d, w (1 to 3) wide. */
static void
packed_store(unsigned w, void *d, unsigned n, const uint64_t *c)
{
	unsigned	i;

	switch (w) {
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

/*
 * Put the n counts c of vector id where they fit: in its home slot if a
 * byte holds each, else in a slot of the width they need.
 */
static void
packed_put(struct packed *pk, uint32_t id, const uint64_t *c)
{
	unsigned char	*h = pk->home + (size_t)id * pk->hs;
	uint64_t	*bits, bit = (uint64_t)1 << (id & 63);
	uint64_t	 v, big = 0;
	unsigned	 w, i;
	uint32_t	 slot, r;

	if (pk->direct) {
		if ((v = c[0]) == COST_NONE)
			r = UINT32_MAX;
		else if (v < PACKED_DMOVED)
			r = (uint32_t)v;
		else {
			slot = packed_take(pk, 3);
			memcpy(pk->w[3].data + (size_t)slot * 8, &v,
			    sizeof(v));
			r = PACKED_DMOVED | slot;
		}
		memcpy(h, &r, sizeof(r));
		return;
	}
	bits = &pk->moved[id >> 6];
	/* Bytes at home, as most are; then look whether they were. */
	for (i = 0; i < pk->n; i++) {
		v = c[i];
		big |= (uint64_t)(v != COST_NONE && v >= UINT8_MAX);
		h[i] = v == COST_NONE ? UINT8_MAX : (uint8_t)v;
	}
	if (!big) {
		*bits &= ~bit;
		return;
	}
	w = packed_width(c, pk->n);
	slot = packed_take(pk, w);
	packed_store(w, pk->w[w].data + ((size_t)slot * pk->n << w), pk->n,
	    c);
	r = (uint32_t)w << PACKED_SHIFT | slot;
	memcpy(h, &r, sizeof(r));
	*bits |= bit;
}

/* Return the id of a new vector, its home slot made room for. */
static uint32_t
packed_next(struct packed *pk)
{
	if (pk->nvec == UINT32_MAX)
		errx(1, "more than %u cost vectors", UINT32_MAX - 1);
	packed_home(pk, (size_t)pk->nvec + 1);
	xahead(pk->home, (size_t)pk->nvec * pk->hs, ((size_t)pk->nvec + 1) *
	    pk->hs, pk->home_bytes);
	return pk->nvec++;
}

/* Add a vector holding counts c, as packed_new() (its slow way). */
uint32_t
packed_new_slow(struct packed *pk, const uint64_t *c)
{
	uint32_t	id = packed_next(pk);

	packed_put(pk, id, c);
	return id;
}

/*
 * Add to dst a vector holding the counts of vector sid of src, which
 * counts as many; return its id.
 */
uint32_t
packed_new_from(struct packed *dst, const struct packed *src, uint32_t sid)
{
	uint64_t	 buf[16], *t;
	unsigned	 w;
	const void	*d = packed_at(src, sid, &w);
	uint32_t	 id;

	if (w == 0) {
		/* Bytes at home: copied as they are. */
		id = packed_next(dst);
		memcpy(dst->home + (size_t)id * dst->hs, d, dst->n);
		bits_clear(dst->moved, id);
		return id;
	}
	t = src->n <= 16 ? buf : xreallocarray(NULL, src->n, sizeof(*t));
	(void)packed_get(src, sid, t);
	id = packed_new(dst, t);
	if (t != buf)
		free(t);
	return id;
}

/*
 * Add to dst vectors sid to sid + n - 1 of src, which counts as many, as
 * n new vectors; return the first's id.  Their home slots are copied as
 * they are, at once; those that moved wider are put again one by one.
 */
uint32_t
packed_append(struct packed *dst, const struct packed *src, uint32_t sid,
    uint32_t n)
{
	uint64_t	 buf[16], *t = buf;
	uint32_t	 id = dst->nvec, i, r;
	int		 moved;

	if (n > UINT32_MAX - 1 - dst->nvec)
		errx(1, "more than %u cost vectors", UINT32_MAX - 1);
	packed_home(dst, (size_t)id + n);
	xahead(dst->home, (size_t)id * dst->hs, ((size_t)id + n) * dst->hs,
	    dst->home_bytes);
	memcpy(dst->home + (size_t)id * dst->hs, src->home + (size_t)sid *
	    src->hs, (size_t)n * dst->hs);
	dst->nvec += n;
	if (src->n > 16)
		t = xreallocarray(NULL, src->n, sizeof(*t));
	for (i = 0; i < n; i++) {
		if (dst->direct) {
			memcpy(&r, src->home + ((size_t)sid + i) * 4,
			    sizeof(r));
			moved = r >= PACKED_DMOVED && r != UINT32_MAX;
		} else {
			moved = bits_has(src->moved, sid + i);
			bits_clear(dst->moved, id + i);
		}
		if (moved) {
			(void)packed_get(src, sid + i, t);
			packed_put(dst, id + i, t);
		}
	}
	if (t != buf)
		free(t);
	return id;
}

/*
 * Add the n (at most 16) byte counts s to those at d, 0xff "never
 * recorded", if no sum reaches 0xff; return 1 if so, else 0 with d
 * unchanged.  Sixteen at once, with the compiler's vector types: the
 * bytes after n are loaded (the home slots have room after the last)
 * and written back as they were.
 */
static int
packed_add16from(uint8_t *d, const uint8_t *s, unsigned n)
{
	typedef uint8_t	v16 __attribute__((vector_size(16)));
	static const v16 lane = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
			    13, 14, 15 };
	const v16	 ff = lane | 0xff;
	v16		 a, b, an, bn, sum, in, some, bad, r;
	uint64_t	 any[2];

	memcpy(&a, d, sizeof(a));
	memcpy(&b, s, sizeof(b));
	in = (v16)(lane < (uint8_t)n);
	an = a & (v16)(a != ff);
	bn = b & (v16)(b != ff);
	some = (v16)(b != ff) & in;
	sum = an + bn;
	bad = ((v16)(sum < an) | (v16)(sum == ff)) & some;
	memcpy(any, &bad, sizeof(any));
	if ((any[0] | any[1]) != 0)
		return 0;
	r = (some & sum) | (~some & a);
	memcpy(d, &r, sizeof(r));
	return 1;
}

/*
 * Add vector sid of src to vector id of dst, which count as many;
 * return nonzero on overflow.
 */
int
packed_add_from(struct packed *dst, uint32_t id, const struct packed *src,
    uint32_t sid)
{
	uint64_t	 buf[16], *t;
	unsigned	 w, sw, n = dst->n, k;
	uint8_t		*d = packed_at(dst, id, &w);
	const uint8_t	*s = packed_at(src, sid, &sw);
	int		 over;

	/* 64-bit counts on both sides (every vector of one count) add. */
	if (w == 3 && sw == 3)
		return cost_add((uint64_t *)(void *)d,
		    (const uint64_t *)(const void *)s, n);
	/* Bytes on both sides, up to 16 of them: added as they are. */
	if (w == 0 && sw == 0 && n <= 16 && packed_add16from(d, s, n))
		return 0;
	t = n <= 16 ? buf : xreallocarray(NULL, n, sizeof(*t));
	k = packed_get(src, sid, t);
	over = packed_add(dst, id, t, k);
	if (t != buf)
		free(t);
	return over;
}

/*
 * Add the counts c to counts from..k-1 of vector id (c[0] is count
 * from), which a sum outgrows, moving it to a slot wide enough; return
 * nonzero on overflow.
 */
int
packed_widen(struct packed *pk, uint32_t id, const uint64_t *c,
    unsigned from, unsigned k)
{
	uint64_t	 buf[16], *t;
	uint32_t	 slot = 0;
	unsigned	 w;
	int		 over, moved = packed_moved(pk, id, &w, &slot);

	t = pk->n <= 16 ? buf : xreallocarray(NULL, pk->n, sizeof(*t));
	(void)packed_get(pk, id, t);
	over = cost_add(t + from, c, k - from);
	packed_put(pk, id, t);
	/* Its old slot is for the next to need one. */
	if (moved)
		packed_give(pk, w, slot);
	if (t != buf)
		free(t);
	return over;
}

/*
 * Return nonzero if vector id has moved from its home slot, giving the
 * width (1 to 3) and the slot it moved to (a direct vector at home is 4
 * bytes wide, width 2, but not moved).
 */
static int
packed_moved(const struct packed *pk, uint32_t id, unsigned *w,
    uint32_t *slot)
{
	uint32_t	r;

	(void)packed_at(pk, id, w);
	if (*w == 0 || (pk->direct && *w < 3))
		return 0;
	memcpy(&r, pk->home + (size_t)id * pk->hs, sizeof(r));
	*slot = r & PACKED_SLOT;
	return 1;
}

/* Give slot of width w (1 to 3) up, for packed_take() to take again. */
static void
packed_give(struct packed *pk, unsigned w, uint32_t slot)
{
	struct packed_slots	*s = &pk->w[w];

	s->free = xgrow(s->free, &s->free_cap, s->nfree + 1, sizeof(*s->free));
	s->free[s->nfree++] = slot;
}

/*
 * Drop the vectors whose bit is set in drop (a bit an id, from bit 0 of
 * drop[0]); the others keep their order, each id less the number
 * dropped before it.  Return how many are left.
 */
uint32_t
packed_drop(struct packed *pk, const uint64_t *drop)
{
	uint32_t	 id, to, slot;
	unsigned	 w;

	for (id = to = 0; id < pk->nvec; id++) {
		if (bits_has(drop, id)) {
			if (packed_moved(pk, id, &w, &slot))
				packed_give(pk, w, slot);
			continue;
		}
		if (to < id) {
			memcpy(pk->home + (size_t)to * pk->hs, pk->home +
			    (size_t)id * pk->hs, pk->hs);
			if (!pk->direct) {
				if (bits_has(pk->moved, id))
					bits_set(pk->moved, to);
				else
					bits_clear(pk->moved, to);
			}
		}
		to++;
	}
	pk->nvec = to;
	return to;
}

/*
 * Unpack counts d[0..n-1] of a narrow type whose value none is "never
 * recorded" into out; return 1 + the index of the last recorded count
 * (0 if none is).
 */
#define PACKED_GET(name, type, none)					\
static inline unsigned							\
name(const type *d, unsigned n, uint64_t *out)				\
{									\
	unsigned	i, k = 0;					\
									\
	for (i = 0; i < n; i++) {					\
		out[i] = d[i] == (none) ? COST_NONE : d[i];		\
		k = d[i] == (none) ? k : i + 1;				\
	}								\
	return k;							\
}
PACKED_GET(packed_get8, uint8_t, UINT8_MAX)
PACKED_GET(packed_get16, uint16_t, UINT16_MAX)
PACKED_GET(packed_get32, uint32_t, UINT32_MAX)

/*
 * Add counts d[0..n-1] of a narrow type whose value none is "never
 * recorded" to sum; return nonzero on overflow.
 */
#define PACKED_SUM(name, type, none)					\
static inline int							\
name(const type *d, unsigned n, uint64_t *sum)				\
{									\
	unsigned	i;						\
	int		over = 0;					\
									\
	for (i = 0; i < n; i++)						\
		if (d[i] != (none))					\
			over |= cost_add1(sum + i, d[i]);		\
	return over;							\
}
PACKED_SUM(packed_sum8, uint8_t, UINT8_MAX)
PACKED_SUM(packed_sum16, uint16_t, UINT16_MAX)
PACKED_SUM(packed_sum32, uint32_t, UINT32_MAX)

/*
 * Give the counts of vector id in out (n of them); return how many
 * matter: those after are "never recorded".
 */
unsigned
packed_get(const struct packed *pk, uint32_t id, uint64_t *out)
{
	unsigned	 w, n = pk->n, k;
	const void	*d = packed_at(pk, id, &w);

	switch (w) {
	case 0:
		return packed_get8(d, n, out);
	case 1:
		return packed_get16(d, n, out);
	case 2:
		return packed_get32(d, n, out);
	default:
		memcpy(out, d, n * sizeof(*out));
		for (k = n; k > 0 && out[k - 1] == COST_NONE; k--)
			continue;
		return k;
	}
}

/* Add vector id to sum (n counts); return nonzero on overflow. */
int
packed_sum(const struct packed *pk, uint32_t id, uint64_t *sum)
{
	unsigned	 n = pk->n, w;
	const void	*d = packed_at(pk, id, &w);

	switch (w) {
	case 0:
		return packed_sum8(d, n, sum);
	case 1:
		return packed_sum16(d, n, sum);
	case 2:
		return packed_sum32(d, n, sum);
	default:
		return cost_add(sum, d, n);
	}
}

/*
 * The running sums of one group in packed_sum_groups(): a vector of
 * byte-wide counts is added to 16 16-bit sums in one go, as many as 258
 * of them (each below 255) before a sum could overflow; then they are
 * added to the row's counts.  A group has a few vectors, most often: 16
 * bits a sum keep the sums of a C++ program's 415,000 rows in 21 MB
 * rather than 35.  The arrays of sums are plain, loaded and stored with
 * memcpy(): malloc() does not align to a vector's size.
 */
typedef uint8_t		pk_v16u8 __attribute__((vector_size(16)));
typedef uint16_t	pk_v16u16 __attribute__((vector_size(32)));
#define PACKED_LANES	16
#define PACKED_ADDS	(UINT16_MAX / (UINT8_MAX - 1))
#define PACKED_SPLIT	((uint32_t)1 << 20)	/* vectors: two threads */
#define PACKED_SAMPLE	1024			/* rows read for the split */

/*
 * Add the 16-bit sums sum[0..n-1] that vectors have made (where seen is
 * not 0) to out, 64-bit counts; return nonzero on overflow.
 */
static int
packed_flush_sums(const uint16_t *sum, const uint8_t *seen, unsigned n,
    uint64_t *out)
{
	unsigned	i;
	int		over = 0;

	for (i = 0; i < n; i++)
		if (seen[i] != 0)
			over |= cost_add1(out + i, sum[i]);
	return over;
}

/*
 * The vectors of one range of rows for packed_sum_groups(): those whose
 * row is in [lo, hi), summed by one thread.
 */
struct pk_sumjob {
	const struct packed	*pk;
	const uint32_t		*group, *row;
	uint32_t		 lo, hi;	/* rows */
	uint32_t		 nrows;
	uint64_t		*out;
	int			 over;
};

/*
 * Sum the vectors of job j's rows one count at a time (direct ones, or
 * rows with too few vectors to pay for 16-bit sums: wide).
 */
static void
packed_sum_each(struct pk_sumjob *j, int direct)
{
	const struct packed	*pk = j->pk;
	uint32_t		 i, r, span = j->hi - j->lo;
	unsigned		 n = pk->n;

	for (i = 0; i < pk->nvec; i++) {
		r = j->row[j->group[i]];
		if (r - j->lo >= span)
			continue;
		if (direct)
			j->over |= cost_add1(j->out + r, packed_first(pk, i));
		else
			j->over |= packed_sum(pk, i, j->out + (size_t)n * r);
	}
}

/*
 * Sum the vectors of job j's rows: vectors of byte-wide counts, most of
 * them, 16 counts at a time in 16-bit sums kept per row (50 bytes a row,
 * worth it when rows have four such vectors or more), their "never
 * recorded" bytes masked; the rest one count at a time.
 */
static void
packed_sum_narrow(struct pk_sumjob *j)
{
	static const pk_v16u8 lane = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
			    12, 13, 14, 15 };
	const struct packed *pk = j->pk;
	const pk_v16u8	 ff = lane | 0xff;
	pk_v16u16	 v;
	pk_v16u8	 a, in, m, sn;
	uint32_t	 i, r, span = j->hi - j->lo;
	uint16_t	*sum, *adds;
	uint8_t		*seen;
	unsigned	 n = pk->n;
	uint64_t	*out = j->out;
	int		 over = 0;

	/* Indexed by row less lo. */
	sum = xcalloc((size_t)span + 1, PACKED_LANES * sizeof(*sum));
	seen = xcalloc((size_t)span + 1, PACKED_LANES);
	adds = xcalloc((size_t)span + 1, sizeof(*adds));
	in = (pk_v16u8)(lane < (uint8_t)n);
	for (i = 0; i < pk->nvec; i++) {
		if ((r = j->row[j->group[i]] - j->lo) >= span)
			continue;
		if (bits_has(pk->moved, i)) {
			over |= packed_sum(pk, i, out + (size_t)n *
			    (r + j->lo));
			continue;
		}
		/* The home slots have 16 bytes to spare at their end. */
		memcpy(&a, pk->home + (size_t)i * pk->hs, sizeof(a));
		m = (pk_v16u8)(a != ff) & in;
		memcpy(&v, sum + (size_t)r * PACKED_LANES, sizeof(v));
		v += __builtin_convertvector(a & m, pk_v16u16);
		memcpy(sum + (size_t)r * PACKED_LANES, &v, sizeof(v));
		memcpy(&sn, seen + (size_t)r * PACKED_LANES, sizeof(sn));
		sn |= m;
		memcpy(seen + (size_t)r * PACKED_LANES, &sn, sizeof(sn));
		if (++adds[r] < PACKED_ADDS)
			continue;
		over |= packed_flush_sums(sum + (size_t)r * PACKED_LANES,
		    seen + (size_t)r * PACKED_LANES, n, out + (size_t)n *
		    (r + j->lo));
		memset(sum + (size_t)r * PACKED_LANES, 0,
		    PACKED_LANES * sizeof(*sum));
		memset(seen + (size_t)r * PACKED_LANES, 0, PACKED_LANES);
		adds[r] = 0;
	}
	for (r = 0; r < span; r++)
		if (adds[r] > 0)
			over |= packed_flush_sums(sum + (size_t)r *
			    PACKED_LANES, seen + (size_t)r * PACKED_LANES, n,
			    out + (size_t)n * (r + j->lo));
	free(sum);
	free(seen);
	free(adds);
	j->over |= over;
}

/* Sum job j's vectors by the way packed_sum_groups() chose. */
static void
packed_sum_job(struct pk_sumjob *j)
{
	const struct packed	*pk = j->pk;
	uint32_t		 narrow;
	unsigned		 w;

	if (pk->direct) {
		packed_sum_each(j, 1);
		return;
	}
	/* Byte-wide vectors (the slots of wider ones are counted). */
	narrow = pk->nvec;
	for (w = 1; w < PACKED_WIDTHS; w++)
		narrow -= pk->w[w].n - (uint32_t)pk->w[w].nfree < narrow ?
		    pk->w[w].n - (uint32_t)pk->w[w].nfree : narrow;
	if (pk->n > PACKED_LANES || narrow / 4 < j->nrows)
		packed_sum_each(j, 0);	/* too few a row for their sums */
	else
		packed_sum_narrow(j);
}

/* The second thread of packed_sum_groups(). */
static void *
packed_sum_thread(void *arg)
{
	packed_sum_job(arg);
	return NULL;
}

/* Order 32-bit numbers. */
static int
packed_u32cmp(const void *a, const void *b)
{
	uint32_t	x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/*
 * Add every vector i to the counts of its group's row: out + n *
 * row[group[i]], nrows rows of 64-bit counts (COST_NONE: none yet);
 * return nonzero if a sum overflowed (kept at COST_MAX).  Many vectors
 * are summed in two threads, each with the rows on one side of the
 * median row of a sample: every row's vectors are added by one thread,
 * in order.  The order of the additions does not change a saturating
 * sum.
 */
int
packed_sum_groups(const struct packed *pk, const uint32_t *group,
    const uint32_t *row, uint32_t nrows, uint64_t *out)
{
	struct pk_sumjob j[2];
	pthread_t	 thr;
	uint32_t	 sample[PACKED_SAMPLE], i, ns = 0, mid;

	j[0] = (struct pk_sumjob){ pk, group, row, 0, nrows, nrows, out, 0 };
	if (pk->nvec < (hooks.sum_split > 0 ? hooks.sum_split :
	    PACKED_SPLIT) || nrows < 2) {
		packed_sum_job(&j[0]);
		return j[0].over;
	}
	for (i = 0; i < PACKED_SAMPLE; i++)
		sample[ns++] = row[group[(uint64_t)i * pk->nvec /
		    PACKED_SAMPLE]];
	qsort(sample, ns, sizeof(*sample), packed_u32cmp);
	mid = sample[ns / 2] > 0 ? sample[ns / 2] : 1;
	j[1] = j[0];
	j[0].hi = mid;
	j[1].lo = mid;
	if (pthread_create(&thr, NULL, packed_sum_thread, &j[1]) != 0) {
		packed_sum_job(&j[0]);
		packed_sum_job(&j[1]);
	} else {
		packed_sum_job(&j[0]);
		if (pthread_join(thr, NULL) != 0)
			errx(1, "pthread_join failed");
	}
	return j[0].over | j[1].over;
}

/*
 * Start loading the home slots of the n vectors from id on: all their
 * counts, unless moved.
 */
void
packed_prefetch_run(const struct packed *pk, uint32_t id, uint32_t n)
{
	const char	*c = (const char *)pk->home + (size_t)id * pk->hs;
	size_t		 bytes = (size_t)n * pk->hs, i;

	for (i = 0; i < bytes && i < 1024; i += 64)
		__builtin_prefetch(c + i);
}

/* Return the bytes of slots in use and of the bits telling where. */
size_t
packed_bytes(const struct packed *pk)
{
	size_t		b = (size_t)pk->nvec * pk->hs;
	unsigned	w;

	if (!pk->direct)
		b += (((size_t)pk->nvec + 63) / 64) * sizeof(*pk->moved);
	for (w = 1; w < PACKED_WIDTHS; w++)
		b += (size_t)pk->w[w].n * pk->n << w;
	return b;
}
