/*
 * instrs.c - machine code costs: instructions by (function, address),
 * jumps by (function, kind, address, target), calls by (function,
 * address, callee), each an id-indexed table with its sums.
 */
#include "base/compat.h"

#include <err.h>
#include <stdlib.h>
#include <string.h>

#include "base/cost.h"
#include "base/keytab.h"
#include "base/packed.h"
#include "base/xmalloc.h"
#include "model/instrs.h"

/*
 * The instructions' index: open addressing on (function, address), each
 * slot an id and the high half of its key's hash, where probing starts:
 * a key not there (most, while reading) is told from the slots alone,
 * one cache line, and a rehash reads no key (a keytab's slots hold ids
 * only: the keys, elsewhere, are a second miss a probe).
 */
#define INSTRS_AHEAD	8	/* instructions a merge loads ahead */

struct islot {
	uint32_t	 tag;		/* the key's hash, high half */
	uint32_t	 id;		/* instruction id + 1, 0 if empty */
};

struct instrs {
	unsigned	 nevents;
	struct islot	*islots;	/* (fn, addr) -> instruction, while
					   read (else NULL: instrs_trim()), */
	uint32_t	 imask;		/*   imask + 1 slots, */
	uint32_t	 n;		/*   n used */
	uint32_t	*byfn;		/* once read, made by instrs_find():
					   ids by function, then address, */
	uint32_t	*fnstart;	/*   each function's first, */
	uint32_t	 nfn;		/*   for functions below nfn */
	uint32_t	*fn;		/* instruction -> function, */
	uint64_t	*addr;		/*   address, */
	uint32_t	*file;		/*   source file, */
	uint64_t	*line;		/*   line (the first given) */
	struct packed	 cost;		/*   and self cost, packed: mostly
					   small counts (12 MB instead of
					   59 on cc1's cache simulation) */
	uint64_t	*none;		/* nevents counts never recorded */
	size_t		 icap;
	struct keytab	 jkeys;		/* (fn, cond, addr, target) */
	struct ijump	*jumps;
	size_t		 jcap;
	struct keytab	 ckeys;		/* (fn, addr, callee) */
	struct icall	*calls;
	uint64_t	*ccost;		/* call * nevents */
	size_t		 ccap;
};

static void	instrs_put(struct islot *, uint32_t, struct islot);
static void	instrs_rehash(struct instrs *);
static void	instrs_sort(struct instrs *);
static int	instrs_addrcmp(const void *, const void *);

/* Return the hash of (fn, addr), 32 bits. */
static inline uint32_t
instrs_hash(uint32_t fn, uint64_t addr)
{
	return (uint32_t)((addr ^ (uint64_t)fn << 40 ^ fn) *
	    0x9e3779b97f4a7c15ULL >> 32);
}

/* Double the instructions' index. */
static void
instrs_grow(struct instrs *t)
{
	struct islot	*old = t->islots;
	uint32_t	 i, omask = t->imask;

	if (omask >= UINT32_MAX / 2)
		errx(1, "more than %u instructions", 3U << 30);
	t->imask = 2 * omask + 1;
	t->islots = xcalloc((size_t)t->imask + 1, sizeof(*t->islots));
	for (i = 0; i <= omask; i++)
		if (old[i].id != 0)
			instrs_put(t->islots, t->imask, old[i]);
	free(old);
}

/* Put s in the first free slot from its tag on, of mask + 1 slots. */
static void
instrs_put(struct islot *slots, uint32_t mask, struct islot s)
{
	uint32_t	j;

	for (j = s.tag & mask; slots[j].id != 0; j = (j + 1) & mask)
		continue;
	slots[j] = s;
}

/* Make an empty table of machine code costs of nevents events. */
struct instrs *
instrs_new(unsigned nevents)
{
	struct instrs	*t;

	t = xcalloc(1, sizeof(*t));
	t->nevents = nevents;
	t->imask = 1023;
	t->islots = xcalloc((size_t)t->imask + 1, sizeof(*t->islots));
	packed_init(&t->cost);
	packed_clear(&t->cost, nevents);
	t->none = xcalloc(nevents + 1, sizeof(*t->none));
	cost_clear(t->none, nevents);
	keytab_init(&t->jkeys, 4);
	keytab_init(&t->ckeys, 3);
	return t;
}

/* Free a table of machine code costs. */
void
instrs_free(struct instrs *t)
{
	if (t == NULL)
		return;
	free(t->islots);
	free(t->byfn);
	free(t->fnstart);
	free(t->fn);
	free(t->addr);
	keytab_free(&t->jkeys);
	keytab_free(&t->ckeys);
	free(t->file);
	free(t->line);
	packed_free(&t->cost);
	free(t->none);
	free(t->jumps);
	free(t->calls);
	free(t->ccost);
	free(t);
}

/* Size the arrays of t for cap instructions. */
static void
instrs_resize(struct instrs *t, size_t cap)
{
	t->icap = cap;
	t->fn = xreallocarray(t->fn, cap, sizeof(*t->fn));
	t->addr = xreallocarray(t->addr, cap, sizeof(*t->addr));
	t->file = xreallocarray(t->file, cap, sizeof(*t->file));
	t->line = xreallocarray(t->line, cap, sizeof(*t->line));
}

/*
 * Make the instructions' index anew, for n of them (after
 * instrs_trim(), if more are added after all).
 */
static void
instrs_rehash(struct instrs *t)
{
	uint32_t	i;

	free(t->byfn);
	free(t->fnstart);
	t->byfn = t->fnstart = NULL;
	t->nfn = 0;
	t->imask = 1023;
	t->islots = xcalloc((size_t)t->imask + 1, sizeof(*t->islots));
	while (4 * (uint64_t)t->n > 3 * ((uint64_t)t->imask + 1))
		instrs_grow(t);
	for (i = 0; i < t->n; i++)
		instrs_put(t->islots, t->imask, (struct islot){
		    instrs_hash(t->fn[i], t->addr[i]), i + 1 });
}

/*
 * Fit t's arrays of instructions, jumps and calls to what they hold, once
 * read: their room to grow, up to half of each, is given back before the
 * report reads them (cc1's machine code, 11.6 MB: 9 MB).  The index by
 * (function, address) goes too: only instrs_find() asks, for some
 * exports, and it sorts the ids instead (4 bytes an instruction, not
 * 10 to 21: cc1plus's 5.6 million, 67 MB).
 */
void
instrs_trim(struct instrs *t)
{
	free(t->islots);
	t->islots = NULL;
	t->imask = 0;
	if (t->n < t->icap)
		instrs_resize(t, t->n > 0 ? t->n : 1);
	if (t->jkeys.n < t->jcap) {
		t->jcap = t->jkeys.n > 0 ? t->jkeys.n : 1;
		t->jumps = xreallocarray(t->jumps, t->jcap, sizeof(*t->jumps));
	}
	if (t->ckeys.n < t->ccap) {
		t->ccap = t->ckeys.n > 0 ? t->ckeys.n : 1;
		t->calls = xreallocarray(t->calls, t->ccap, sizeof(*t->calls));
		t->ccost = xreallocarray(t->ccost, t->ccap,
		    t->nevents * sizeof(*t->ccost));
	}
}

/*
 * Make room in t for n instructions, so that adding that many grows no
 * table (a chunk read ahead holds about as many as the one before).
 */
void
instrs_reserve(struct instrs *t, uint32_t n)
{
	if (n > t->icap)
		instrs_resize(t, n);
	packed_reserve(&t->cost, n);
	if (t->islots == NULL)
		instrs_rehash(t);
	while (4 * (uint64_t)n > 3 * ((uint64_t)t->imask + 1))
		instrs_grow(t);
}

/*
 * Add cost (k counts given, the rest "never recorded") to the
 * instruction at addr of function fn, in source file (string id) at
 * line; return nonzero if a sum overflowed.
 */
int
instrs_add(struct instrs *t, uint32_t fn, uint64_t addr, uint32_t file,
    uint64_t line, const uint64_t *cost, unsigned k)
{
	struct islot	*sl;
	uint32_t	 h = instrs_hash(fn, addr), id, j;

	if (t->islots == NULL)
		instrs_rehash(t);
	for (j = h & t->imask; ; j = (j + 1) & t->imask) {
		sl = &t->islots[j];
		if (sl->id == 0)
			break;
		if (sl->tag == h && t->addr[sl->id - 1] == addr &&
		    t->fn[sl->id - 1] == fn) {
			id = sl->id - 1;
			goto found;
		}
	}
	if (t->n == UINT32_MAX - 1)
		errx(1, "more than %u instructions", UINT32_MAX - 2);
	id = t->n++;
	if (id >= t->icap)
		instrs_resize(t, t->icap ? 2 * t->icap : 1024);
	sl->tag = h;
	sl->id = id + 1;
	t->fn[id] = fn;
	t->addr[id] = addr;
	t->file[id] = file;
	t->line[id] = line;
	(void)packed_new(&t->cost, t->none);	/* its id is id */
	if (4 * (uint64_t)t->n > 3 * ((uint64_t)t->imask + 1))
		instrs_grow(t);
found:
	return packed_add(&t->cost, id, cost, k < t->nevents ? k :
	    t->nevents);
}

/*
 * Add a jump of function fn from addr to target: jump= (cond 0, taken
 * times) or jcnd= (executed times, taken of them).  Sums stop at the
 * maximum.
 */
void
instrs_add_jump(struct instrs *t, uint32_t fn, int cond, uint64_t addr,
    uint64_t target, uint64_t executed, uint64_t taken)
{
	uint64_t	 key[4] = { fn, (uint64_t)cond, addr, target };
	struct ijump	*j;
	uint32_t	 id;
	int		 created;

	id = keytab_get(&t->jkeys, key, &created);
	if (created) {
		t->jumps = xgrow(t->jumps, &t->jcap, (size_t)id + 1,
		    sizeof(*t->jumps));
		j = &t->jumps[id];
		memset(j, 0, sizeof(*j));
		j->fn = fn;
		j->cond = cond;
		j->addr = addr;
		j->target = target;
	}
	j = &t->jumps[id];
	if (__builtin_add_overflow(j->executed, executed, &j->executed))
		j->executed = UINT64_MAX;
	if (__builtin_add_overflow(j->taken, taken, &j->taken))
		j->taken = UINT64_MAX;
}

/*
 * Add count calls from addr of function fn to callee, with inclusive
 * cost; return nonzero if a sum overflowed.
 */
int
instrs_add_call(struct instrs *t, uint32_t fn, uint64_t addr,
    uint32_t callee, uint64_t count, const uint64_t *cost)
{
	uint64_t	 key[3] = { fn, addr, callee };
	struct icall	*c;
	uint32_t	 id;
	int		 created, over = 0;

	id = keytab_get(&t->ckeys, key, &created);
	if (created) {
		if (id >= t->ccap) {
			t->ccap = t->ccap ? 2 * t->ccap : 256;
			t->calls = xreallocarray(t->calls, t->ccap,
			    sizeof(*t->calls));
			t->ccost = xreallocarray(t->ccost, t->ccap,
			    t->nevents * sizeof(*t->ccost));
		}
		c = &t->calls[id];
		c->fn = fn;
		c->addr = addr;
		c->callee = callee;
		c->count = 0;
		cost_clear(t->ccost + (size_t)id * t->nevents, t->nevents);
	}
	c = &t->calls[id];
	if (__builtin_add_overflow(c->count, count, &c->count)) {
		c->count = UINT64_MAX;
		over = 1;
	}
	return over | cost_add(t->ccost + (size_t)id * t->nevents, cost,
	    t->nevents);
}

/*
 * Add what src holds to t as if src's input had been read after t's,
 * each in src's order: strmap maps src's file string ids to t's, fnmap
 * its function ids.  Return nonzero if a sum overflowed.
 */
int
instrs_merge(struct instrs *t, const struct instrs *src,
    const uint32_t *strmap, const uint32_t *fnmap)
{
	uint64_t	*cost;
	uint32_t	 i;
	int		 over = 0;

	cost = xreallocarray(NULL, src->nevents + 1, sizeof(*cost));
	if (t->islots == NULL)
		instrs_rehash(t);
	for (i = 0; i < src->n; i++) {
		/* Each is a miss in a big index: load it ahead. */
		if (i + INSTRS_AHEAD < src->n)
			__builtin_prefetch(&t->islots[instrs_hash(
			    fnmap[src->fn[i + INSTRS_AHEAD]],
			    src->addr[i + INSTRS_AHEAD]) & t->imask]);
		(void)packed_get(&src->cost, i, cost);
		over |= instrs_add(t, fnmap[src->fn[i]], src->addr[i],
		    strmap[src->file[i]], src->line[i], cost, src->nevents);
	}
	free(cost);
	for (i = 0; i < src->jkeys.n; i++) {
		const struct ijump	*j = &src->jumps[i];

		instrs_add_jump(t, fnmap[j->fn], j->cond, j->addr, j->target,
		    j->executed, j->taken);
	}
	for (i = 0; i < src->ckeys.n; i++) {
		const struct icall	*c = &src->calls[i];

		over |= instrs_add_call(t, fnmap[c->fn], c->addr,
		    fnmap[c->callee], c->count, src->ccost +
		    (size_t)i * src->nevents);
	}
	return over;
}

/* Return the number of events of each cost. */
unsigned
instrs_nevents(const struct instrs *t)
{
	return t->nevents;
}

/* Return the number of instructions with a cost. */
uint32_t
instrs_count(const struct instrs *t)
{
	return t->n;
}

/* Give instruction i's function, address, source file and line. */
void
instrs_get(const struct instrs *t, uint32_t i, uint32_t *fn, uint64_t *addr,
    uint32_t *file, uint64_t *line)
{
	*fn = t->fn[i];
	*addr = t->addr[i];
	*file = t->file[i];
	*line = t->line[i];
}

/*
 * Return the id of function fn's instruction at addr, or UINT32_MAX if
 * it has none there.
 */
uint32_t
instrs_find(const struct instrs *t, uint32_t fn, uint64_t addr)
{
	const struct islot	*sl;
	uint32_t		 h = instrs_hash(fn, addr), j, lo, hi, mid;

	if (t->islots != NULL) {
		for (j = h & t->imask; (sl = &t->islots[j])->id != 0;
		    j = (j + 1) & t->imask)
			if (sl->tag == h && t->addr[sl->id - 1] == addr &&
			    t->fn[sl->id - 1] == fn)
				return sl->id - 1;
		return UINT32_MAX;
	}
	/* Read: the ids by function and address, made on the first call. */
	if (t->byfn == NULL)
		instrs_sort((struct instrs *)(uintptr_t)t);
	if (fn >= t->nfn)
		return UINT32_MAX;
	lo = t->fnstart[fn];
	hi = t->fnstart[fn + 1];
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (t->addr[t->byfn[mid]] < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < t->fnstart[fn + 1] && t->addr[t->byfn[lo]] == addr ?
	    t->byfn[lo] : UINT32_MAX;
}

/* An instruction's address and id, for instrs_sort(). */
struct iaddr {
	uint64_t	 addr;
	uint32_t	 id;
};

/* Order instructions by address (one function's: no two share one). */
static int
instrs_addrcmp(const void *a, const void *b)
{
	const struct iaddr	*x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return (x->id > y->id) - (x->id < y->id);
}

/*
 * Make t->byfn, the ids by function (a counting sort) and within each by
 * address (as read, most often: sorted only where they are not).
 */
static void
instrs_sort(struct instrs *t)
{
	struct iaddr	*tmp = NULL;
	size_t		 tmpcap = 0;
	uint32_t	 i, f, k, a, b, *fill;

	for (i = 0, t->nfn = 0; i < t->n; i++)
		if (t->fn[i] >= t->nfn)
			t->nfn = t->fn[i] + 1;
	t->fnstart = xcalloc((size_t)t->nfn + 2, sizeof(*t->fnstart));
	for (i = 0; i < t->n; i++)
		t->fnstart[t->fn[i] + 1]++;
	for (f = 0; f < t->nfn; f++)
		t->fnstart[f + 1] += t->fnstart[f];
	fill = xreallocarray(NULL, (size_t)t->nfn + 1, sizeof(*fill));
	memcpy(fill, t->fnstart, ((size_t)t->nfn + 1) * sizeof(*fill));
	t->byfn = xreallocarray(NULL, (size_t)t->n + 1, sizeof(*t->byfn));
	for (i = 0; i < t->n; i++)
		t->byfn[fill[t->fn[i]]++] = i;
	free(fill);
	for (f = 0; f < t->nfn; f++) {
		a = t->fnstart[f];
		b = t->fnstart[f + 1];
		for (k = a; k + 1 < b && t->addr[t->byfn[k]] <
		    t->addr[t->byfn[k + 1]]; k++)
			continue;
		if (b - a < 2 || k + 1 == b)
			continue;
		tmp = xgrow(tmp, &tmpcap, b - a, sizeof(*tmp));
		for (k = a; k < b; k++)
			tmp[k - a] = (struct iaddr){ t->addr[t->byfn[k]],
			    t->byfn[k] };
		qsort(tmp, b - a, sizeof(*tmp), instrs_addrcmp);
		for (k = a; k < b; k++)
			t->byfn[k] = tmp[k - a].id;
	}
	free(tmp);
}

/* Give instruction i's self cost in out (nevents counts). */
void
instrs_cost(const struct instrs *t, uint32_t i, uint64_t *out)
{
	(void)packed_get(&t->cost, i, out);
}

/* Return the number of jumps. */
uint32_t
instrs_njumps(const struct instrs *t)
{
	return t->jkeys.n;
}

/* Return jump i. */
const struct ijump *
instrs_jump(const struct instrs *t, uint32_t i)
{
	return &t->jumps[i];
}

/* Return the number of (instruction, callee) calls. */
uint32_t
instrs_ncalls(const struct instrs *t)
{
	return t->ckeys.n;
}

/* Return call i. */
const struct icall *
instrs_call(const struct instrs *t, uint32_t i)
{
	return &t->calls[i];
}

/* Return the inclusive cost of call i. */
const uint64_t *
instrs_call_cost(const struct instrs *t, uint32_t i)
{
	return t->ccost + (size_t)i * t->nevents;
}
