/*
 * instrs.c - machine code costs: instructions by (function, address),
 * jumps by (function, kind, address, target), calls by (function,
 * address, callee), each an id-indexed table with its sums.
 */
#include "base/compat.h"

#include <err.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "base/bits.h"
#include "base/cost.h"
#include "base/hooks.h"
#include "base/sort.h"
#include "base/vpack.h"
#include "base/xmalloc.h"
#include "model/instrs.h"

/*
 * Instructions of a function given again (the same code in another
 * part, thread or file, whose cost lines come again) are summed while
 * reading once there are at least this many of them, as many as there
 * were instructions after the last such sum, and half of those read
 * since: memory follows the distinct instructions, not the cost lines,
 * and a profile whose functions come again only here and there (5% of
 * cc1plus's instructions) is not summed before its end.
 */
#define INSTRS_AGAIN	((uint32_t)1 << 18)
/* Instructions compacted in two threads from this many on. */
#define INSTRS_SPLIT	((uint32_t)1 << 20)

/* A function's least and greatest address. */
struct irange {
	uint64_t	 lo, hi;
};

/*
 * A value of an instruction too wide for its 32 bits, kept aside: a line
 * number of 2^32 - 1 or more (the instruction's own says INSTRS_BIGLINE),
 * an address whose upper half is not its function's.  A profile's lines
 * are far smaller and a function's code lies within 4 GB: 8 bytes an
 * instruction less (cc1plus's 5.9 million: 47 MB).
 */
#define INSTRS_BIGLINE	UINT32_MAX
#define INSTRS_NOHI	UINT64_MAX	/* a function's upper half, unset */
struct iwide {
	uint32_t	 id;		/* the instruction */
	uint64_t	 v;
};

/* Values kept aside, by id. */
struct iwides {
	struct iwide	*v;
	uint32_t	 n;
	size_t		 cap;
};

struct instrs {
	unsigned	 nevents;
	uint32_t	 n;		/* instructions: while read, one for
					   each cost line (an address may come
					   again: instrs_trim() sums them) */
	int		 done;		/* trimmed: each address once, and */
	uint32_t	*byfn;		/*   the ids by function, then
					   address, */
	uint32_t	*fnstart;	/*   each function's first, */
	uint32_t	 nfn;		/*   for functions below nfn */
	uint32_t	*fn;		/* instruction -> function, */
	uint32_t	*addr;		/*   address's lower half (the upper:
					   its function's, or in far), */
	uint32_t	*file;		/*   source file, */
	uint32_t	*line;		/*   line (the first given; or
					   INSTRS_BIGLINE: in bigline) */
	struct iwides	 far, bigline;
	uint64_t	*fnhi;		/* fn -> its addresses' upper half */
	size_t		 hicap;
	struct vpack	 cost;		/*   and self cost, as varints: mostly
					   a count or two (cc1plus's cache
					   simulation: 47 MB instead of 152
					   as packed.h keeps them) */
	uint64_t	*vec;		/* nevents counts: a cost line's */
	size_t		 icap;
	unsigned char	*seen;		/* fn -> read before the current one */
	size_t		 seen_cap;
	uint32_t	 cur;		/* the function read (UINT32_MAX:
					   none yet), */
	int		 cur_again;	/*   read before */
	uint32_t	 again;		/* instructions of functions read
					   before, since the last sum, */
	uint32_t	 kept;		/*   instructions after it */
	int		 over;		/*   where a sum overflowed */
	struct ijump	*jumps;		/* as read (a jump again summed by
					   instrs_trim()) */
	uint32_t	 njumps;
	size_t		 jcap;
	struct icall	*calls;		/* as read, likewise, */
	uint64_t	*ccost;		/*   their costs (call * nevents) */
	uint32_t	 ncalls;
	size_t		 ccap;
	int		 sites;		/* the calls and ranges alone: */
	struct irange	*range;		/*   fn -> its least and greatest
					   address (lo > hi: none), */
	size_t		 rcap;		/*   for functions below rcap */
};

/* An instruction's address and id, for instrs_index(). */
struct iaddr {
	uint64_t	 addr;
	uint32_t	 id;
};

/*
 * instrs_recost()'s work: the costs at cost written again in place,
 * without those dropped, the firsts of those given again taking sums.
 */
struct recost {
	struct vpack	*cost;
	const uint64_t	*drop;
	const struct vpack *sums;
	const uint64_t	*keeps;
	uint32_t	 nsum;
};

static uint32_t	instrs_next(struct instrs *, uint32_t, uint32_t);
static int	instrs_index(struct instrs *);
static void	instrs_drop(struct instrs *, const uint64_t *);
static void	instrs_recost(struct recost *);
static void	*instrs_recost_thread(void *);
static void	instrs_compact(struct instrs *, const uint64_t *,
		    const struct vpack *, const uint64_t *, uint32_t);
static void	instrs_sort_runs(struct iaddr *, uint32_t, struct iaddr **,
		    size_t *, uint32_t **, size_t *);
static uint32_t	*instrs_byfunc(const void *, size_t, uint32_t, uint32_t **,
		    uint32_t *);
static uint32_t	*instrs_order(const void *, size_t, uint32_t,
		    int (*)(const void *, const void *));
static int	instrs_idcmp(const void *, const void *);
static int	instrs_jumpcmp(const void *, const void *);
static int	instrs_callcmp(const void *, const void *);
static int	instrs_jump_sum(struct instrs *, uint32_t, uint32_t);
static int	instrs_call_sum(struct instrs *, uint32_t, uint32_t);
static void	instrs_call_move(struct instrs *, uint32_t, uint32_t);
static uint32_t	instrs_sum_again(struct instrs *, void *, size_t, uint32_t,
		    int (*)(const void *, const void *),
		    int (*)(struct instrs *, uint32_t, uint32_t),
		    void (*)(struct instrs *, uint32_t, uint32_t), int *);
static int	instrs_branches(struct instrs *);
static int	instrs_split(const struct instrs *);
static void	*instrs_branches_thread(void *);
static int	instrs_sum(struct instrs *);
static void	instrs_set_line(struct instrs *, uint32_t, uint64_t);
static uint64_t	instrs_line(const struct instrs *, uint32_t);
static void	instrs_set_addr(struct instrs *, uint32_t, uint32_t,
		    uint64_t);
static uint64_t	instrs_addr(const struct instrs *, uint32_t);
static void	iwide_add(struct iwides *, uint32_t, uint64_t);
static int	iwide_find(const struct iwides *, uint32_t, uint64_t *);
static void	iwide_drop(struct iwides *, const uint64_t *,
		    const uint32_t *);
static uint32_t	instrs_renumber(const uint64_t *, const uint32_t *,
		    uint32_t);

/* The records being ordered by instrs_order(), for instrs_idcmp(). */
static const unsigned char	*order_base;
static size_t			 order_size;
static int			(*order_cmp)(const void *, const void *);

/* Make an empty table of machine code costs of nevents events. */
struct instrs *
instrs_new(unsigned nevents)
{
	struct instrs	*t;

	t = xcalloc(1, sizeof(*t));
	t->nevents = nevents;
	vpack_init(&t->cost, nevents);
	t->vec = xcalloc(nevents + 1, sizeof(*t->vec));
	t->cur = UINT32_MAX;
	return t;
}

/* Free a table of machine code costs. */
void
instrs_free(struct instrs *t)
{
	if (t == NULL)
		return;
	free(t->byfn);
	free(t->fnstart);
	free(t->fn);
	free(t->addr);
	free(t->file);
	free(t->line);
	free(t->far.v);
	free(t->bigline.v);
	free(t->fnhi);
	vpack_free(&t->cost);
	free(t->vec);
	free(t->seen);
	free(t->jumps);
	free(t->calls);
	free(t->ccost);
	free(t->range);
	free(t);
}

/*
 * Keep only the calls of t and each function's range of addresses from
 * now on (t holds nothing yet): instrs_add() then adds an address to its
 * function's range, instrs_add_jump() nothing.
 */
void
instrs_set_sites(struct instrs *t)
{
	t->sites = 1;
}

/* Return whether t keeps the calls and ranges alone. */
int
instrs_sites(const struct instrs *t)
{
	return t->sites;
}

/* Add the addresses [lo, hi] to the range of function fn (sites only). */
void
instrs_add_range(struct instrs *t, uint32_t fn, uint64_t lo, uint64_t hi)
{
	size_t	old = t->rcap, i;

	if (fn >= t->rcap) {
		t->range = xgrow(t->range, &t->rcap, (size_t)fn + 1,
		    sizeof(*t->range));
		for (i = old; i < t->rcap; i++)
			t->range[i] = (struct irange){ UINT64_MAX, 0 };
	}
	if (lo < t->range[fn].lo)
		t->range[fn].lo = lo;
	if (hi > t->range[fn].hi)
		t->range[fn].hi = hi;
}

/*
 * Give the least and greatest address of function fn's instructions in
 * *lo and *hi; return 0 if it has none (once trimmed).
 */
int
instrs_range(const struct instrs *t, uint32_t fn, uint64_t *lo,
    uint64_t *hi)
{
	const uint32_t	*ids;
	uint32_t	 n;

	if (t->sites) {
		if (fn >= t->rcap || t->range[fn].lo > t->range[fn].hi)
			return 0;
		*lo = t->range[fn].lo;
		*hi = t->range[fn].hi;
		return 1;
	}
	if ((ids = instrs_byfn(t, fn, &n)) == NULL || n == 0)
		return 0;
	*lo = instrs_addr(t, ids[0]);
	*hi = instrs_addr(t, ids[n - 1]);
	return 1;
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
 * Return whether t holds enough instructions (INSTRS_SPLIT,
 * hooks.compact_split in tests) to sum them in two threads.
 */
static int
instrs_split(const struct instrs *t)
{
	return t->n >= (hooks.compact_split > 0 ? hooks.compact_split :
	    INSTRS_SPLIT);
}

/* instrs_branches()' work and its result. */
struct branchjob {
	struct instrs	*t;
	int		 over;
};

/* instrs_branches() in a second thread. */
static void *
instrs_branches_thread(void *arg)
{
	struct branchjob	*job = arg;

	job->over = instrs_branches(job->t);
	return NULL;
}

/*
 * Sum the instructions, jumps and calls of t given more than once
 * (instrs_index(), instrs_branches()): the jumps and calls in a second
 * thread, for INSTRS_SPLIT instructions and more; they share nothing
 * with the instructions (cc1plus: a quarter of summing, one core idle).
 * Return nonzero if a sum overflowed.
 */
static int
instrs_sum(struct instrs *t)
{
	struct branchjob	job;
	pthread_t		thr;
	int			over;

	job.t = t;
	job.over = 0;
	if (!instrs_split(t) ||
	    pthread_create(&thr, NULL, instrs_branches_thread, &job) != 0)
		return instrs_index(t) | instrs_branches(t);
	over = instrs_index(t);
	if (pthread_join(thr, NULL) != 0)
		errx(1, "pthread_join failed");
	return over | job.over;
}

/*
 * Once read, sum the costs of each function's instructions given more
 * than once into the first and make the ids by function and address;
 * fit t's arrays of instructions, jumps and calls to what they hold:
 * their room to grow, up to half of each, is given back before the
 * report reads them (cc1's machine code, 11.6 MB: 9 MB).  Machine code
 * added afterwards (the browser's, a function at a time) is trimmed
 * again.  Return nonzero if a sum overflowed.
 */
int
instrs_trim(struct instrs *t)
{
	int	over = 0;

	if (!t->done)
		over = instrs_sum(t);
	over |= t->over;
	t->over = 0;
	t->done = 1;
	if (t->n < t->icap)
		instrs_resize(t, t->n > 0 ? t->n : 1);
	if (t->njumps < t->jcap) {
		t->jcap = t->njumps > 0 ? t->njumps : 1;
		t->jumps = xreallocarray(t->jumps, t->jcap, sizeof(*t->jumps));
	}
	if (t->ncalls < t->ccap) {
		t->ccap = t->ncalls > 0 ? t->ncalls : 1;
		t->calls = xreallocarray(t->calls, t->ccap, sizeof(*t->calls));
		t->ccost = xreallocarray(t->ccost, t->ccap,
		    t->nevents * sizeof(*t->ccost));
	}
	return over;
}

/*
 * Make room in t for n instructions more, so that adding that many grows
 * no table (a chunk read ahead holds about as many as the one before).
 */
void
instrs_reserve(struct instrs *t, uint32_t n)
{
	size_t	need = (size_t)t->n + n;

	if (t->sites)
		return;
	if (need > t->icap)
		instrs_resize(t, need > 2 * t->icap ? need : 2 * t->icap);
	vpack_reserve(&t->cost, need < UINT32_MAX ? (uint32_t)need :
	    UINT32_MAX);
}

/*
 * Return the id of the first of n new instructions of function fn (the
 * others' follow it), their room made; first sum the instructions given
 * again if there are enough of them.
 */
static uint32_t
instrs_next(struct instrs *t, uint32_t fn, uint32_t n)
{
	size_t		limit = hooks.compact > 0 ? hooks.compact :
			    INSTRS_AGAIN, cap;
	uint32_t	id;

	if (fn != t->cur) {
		if (t->cur != UINT32_MAX) {
			t->seen = xgrow_fill(t->seen, &t->seen_cap,
			    (size_t)t->cur + 1, 1, 0);
			t->seen[t->cur] = 1;
		}
		t->cur = fn;
		t->cur_again = fn < t->seen_cap && t->seen[fn];
	}
	if (t->cur_again && (t->again += n) >= limit && (hooks.compact > 0 ||
	    (t->again >= t->kept && t->again >= (t->n - t->kept) / 2))) {
		/* The jumps and calls given again too. */
		t->over |= instrs_index(t) | instrs_branches(t);
		free(t->byfn);
		free(t->fnstart);
		t->byfn = t->fnstart = NULL;
		t->nfn = 0;
		t->again = 0;
		t->kept = t->n;
	}
	if (n > UINT32_MAX - 1 - t->n)
		errx(1, "more than %u instructions", UINT32_MAX - 2);
	if ((size_t)t->n + n > t->icap) {
		cap = t->icap > 0 ? 2 * t->icap : 1024;
		instrs_resize(t, cap > (size_t)t->n + n ? cap : (size_t)t->n +
		    n);
	}
	t->done = 0;
	id = t->n;
	t->n += n;
	return id;
}

/*
 * Add cost (k counts given, the rest "never recorded") to the
 * instruction at addr of function fn, in source file (string id) at
 * line: as a new one, appended (no lookup while reading: instrs_trim()
 * sums the few given again, 5% of cc1plus's).
 */
void
instrs_add(struct instrs *t, uint32_t fn, uint64_t addr, uint32_t file,
    uint64_t line, const uint64_t *cost, unsigned k)
{
	uint32_t	id;

	if (t->sites) {
		instrs_add_range(t, fn, addr, addr);
		return;
	}
	id = instrs_next(t, fn, 1);

	t->fn[id] = fn;
	instrs_set_addr(t, id, fn, addr);
	t->file[id] = file;
	instrs_set_line(t, id, line);
	(void)vpack_add(&t->cost, cost, k);	/* its id is id */
}

/* Keep value v of instruction id aside, after those of smaller ids. */
static void
iwide_add(struct iwides *w, uint32_t id, uint64_t v)
{
	w->v = xgrow(w->v, &w->cap, (size_t)w->n + 1, sizeof(*w->v));
	w->v[w->n++] = (struct iwide){ id, v };
}

/* Give instruction id's value kept aside in *v; return 0 if none. */
static int
iwide_find(const struct iwides *w, uint32_t id, uint64_t *v)
{
	uint32_t	lo = 0, hi = w->n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (w->v[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == w->n || w->v[lo].id != id)
		return 0;
	*v = w->v[lo].v;
	return 1;
}

/*
 * Return the id that instruction id, not dropped, takes once those whose
 * bit is set in drop are: less the number dropped before it (before[]:
 * up to each word of drop).
 */
static uint32_t
instrs_renumber(const uint64_t *drop, const uint32_t *before, uint32_t id)
{
	return id - before[id >> 6] - bits_below(drop, id);
}

/*
 * Drop the values of instructions whose bit is set in drop, the others'
 * ids less the number dropped before them (before[]: up to each word).
 */
static void
iwide_drop(struct iwides *w, const uint64_t *drop, const uint32_t *before)
{
	uint32_t	i, m, id;

	for (i = m = 0; i < w->n; i++) {
		id = w->v[i].id;
		if (bits_has(drop, id))
			continue;
		w->v[m].id = instrs_renumber(drop, before, id);
		w->v[m++].v = w->v[i].v;
	}
	w->n = m;
}

/* Set the line of instruction id, the first given. */
static void
instrs_set_line(struct instrs *t, uint32_t id, uint64_t line)
{
	if (line < INSTRS_BIGLINE)
		t->line[id] = (uint32_t)line;
	else {
		t->line[id] = INSTRS_BIGLINE;
		iwide_add(&t->bigline, id, line);
	}
}

/* Return the line of instruction id. */
static uint64_t
instrs_line(const struct instrs *t, uint32_t id)
{
	uint64_t	line;

	if (t->line[id] != INSTRS_BIGLINE)
		return t->line[id];
	if (!iwide_find(&t->bigline, id, &line))
		abort();
	return line;
}

/*
 * Set the address of instruction id of function fn: its lower half, and
 * the upper kept aside if not the function's (its first instruction's).
 */
static void
instrs_set_addr(struct instrs *t, uint32_t id, uint32_t fn, uint64_t addr)
{
	size_t	old = t->hicap, i;

	if (fn >= t->hicap) {
		t->fnhi = xgrow(t->fnhi, &t->hicap, (size_t)fn + 1,
		    sizeof(*t->fnhi));
		for (i = old; i < t->hicap; i++)
			t->fnhi[i] = INSTRS_NOHI;
	}
	if (t->fnhi[fn] == INSTRS_NOHI)
		t->fnhi[fn] = addr >> 32;
	t->addr[id] = (uint32_t)addr;
	if (addr >> 32 != t->fnhi[fn])
		iwide_add(&t->far, id, addr);
}

/* Return the address of instruction id. */
static uint64_t
instrs_addr(const struct instrs *t, uint32_t id)
{
	uint64_t	addr;

	if (t->far.n > 0 && iwide_find(&t->far, id, &addr))
		return addr;
	return t->fnhi[t->fn[id]] << 32 | t->addr[id];
}

/*
 * Add a jump of function fn from addr to target: jump= (cond 0, taken
 * times) or jcnd= (executed times, taken of them), appended (summed with
 * the same jump's by instrs_trim(), where sums stop at the maximum).
 */
void
instrs_add_jump(struct instrs *t, uint32_t fn, int cond, uint64_t addr,
    uint64_t target, uint64_t executed, uint64_t taken)
{
	if (t->sites)
		return;
	if (t->njumps == UINT32_MAX - 1)
		errx(1, "more than %u jumps", UINT32_MAX - 2);
	t->jumps = xgrow(t->jumps, &t->jcap, (size_t)t->njumps + 1,
	    sizeof(*t->jumps));
	t->jumps[t->njumps++] = (struct ijump){ fn, cond, addr, target,
	    executed, taken };
	t->done = 0;
}

/*
 * Add count calls from addr of function fn, its line in source file
 * (string id) file, to callee, with inclusive cost (nevents counts),
 * appended as jumps are.
 */
void
instrs_add_call(struct instrs *t, uint32_t fn, uint64_t addr,
    uint32_t file, uint64_t line, uint32_t callee, uint64_t count,
    const uint64_t *cost)
{
	if (t->ncalls == UINT32_MAX - 1)
		errx(1, "more than %u calls", UINT32_MAX - 2);
	if (t->ncalls >= t->ccap) {
		t->ccap = t->ccap ? 2 * t->ccap : 256;
		t->calls = xreallocarray(t->calls, t->ccap, sizeof(*t->calls));
		t->ccost = xreallocarray(t->ccost, t->ccap,
		    t->nevents * sizeof(*t->ccost));
	}
	t->calls[t->ncalls] = (struct icall){ fn, callee, addr, count, file,
	    line };
	memcpy(t->ccost + (size_t)t->ncalls * t->nevents, cost,
	    t->nevents * sizeof(*cost));
	t->ncalls++;
	t->done = 0;
}

/*
 * Add what src holds to t as if src's input had been read after t's,
 * each in src's order: strmap maps src's file string ids to t's, fnmap
 * its function ids.
 */
void
instrs_merge(struct instrs *t, const struct instrs *src,
    const uint32_t *strmap, const uint32_t *fnmap)
{
	uint32_t	 i, j, k, id, fn, b = 0;

	if (src->sites) {
		t->sites = 1;	/* t holds nothing else: read alike */
		for (fn = 0; fn < src->rcap; fn++)
			if (src->range[fn].lo <= src->range[fn].hi)
				instrs_add_range(t, fnmap[fn],
				    src->range[fn].lo, src->range[fn].hi);
	}
	instrs_reserve(t, src->n);
	/* A function's run of instructions at once. */
	for (i = 0; i < src->n; i = j) {
		for (j = i + 1; j < src->n && src->fn[j] == src->fn[i]; j++)
			continue;
		fn = fnmap[src->fn[i]];
		id = instrs_next(t, fn, j - i);
		for (k = 0; k < j - i; k++) {
			t->fn[id + k] = fn;
			t->file[id + k] = strmap[src->file[i + k]];
		}
		/* Their upper halves the function's here too, mostly. */
		for (k = 0; k < j - i; k++)
			instrs_set_addr(t, id + k, fn, instrs_addr(src, i + k));
		memcpy(t->line + id, src->line + i, (j - i) * sizeof(*t->line));
		for (; b < src->bigline.n && src->bigline.v[b].id < j; b++)
			iwide_add(&t->bigline, id + (src->bigline.v[b].id - i),
			    src->bigline.v[b].v);
		vpack_append(&t->cost, &src->cost, i, j - i);
	}
	for (i = 0; i < src->njumps; i++) {
		const struct ijump	*jp = &src->jumps[i];

		instrs_add_jump(t, fnmap[jp->fn], jp->cond, jp->addr,
		    jp->target, jp->executed, jp->taken);
	}
	for (i = 0; i < src->ncalls; i++) {
		const struct icall	*c = &src->calls[i];

		instrs_add_call(t, fnmap[c->fn], c->addr, strmap[c->file],
		    c->line, fnmap[c->callee], c->count, src->ccost +
		    (size_t)i * src->nevents);
	}
}

/* Return the number of events of each cost. */
unsigned
instrs_nevents(const struct instrs *t)
{
	return t->nevents;
}

/*
 * Return whether t holds no instruction (sites only: no function has a
 * range).
 */
int
instrs_empty(const struct instrs *t)
{
	uint32_t	fn;

	if (!t->sites)
		return t->n == 0;
	for (fn = 0; fn < t->rcap; fn++)
		if (t->range[fn].lo <= t->range[fn].hi)
			return 0;
	return 1;
}

/* Return the number of instructions with a cost. */
uint32_t
instrs_count(const struct instrs *t)
{
	return t->n;
}

/* Return instruction i's function. */
uint32_t
instrs_fn(const struct instrs *t, uint32_t i)
{
	return t->fn[i];
}

/* Give instruction i's function, address, source file and line. */
void
instrs_get(const struct instrs *t, uint32_t i, uint32_t *fn, uint64_t *addr,
    uint32_t *file, uint64_t *line)
{
	*fn = t->fn[i];
	*addr = instrs_addr(t, i);
	*file = t->file[i];
	*line = instrs_line(t, i);
}

/*
 * Return the ids of function fn's instructions by address, *n of them
 * (once trimmed).
 */
const uint32_t *
instrs_byfn(const struct instrs *t, uint32_t fn, uint32_t *n)
{
	if (!t->done)
		abort();
	if (fn >= t->nfn) {
		*n = 0;
		return t->byfn;
	}
	*n = t->fnstart[fn + 1] - t->fnstart[fn];
	return t->byfn + t->fnstart[fn];
}

/*
 * Return the id of function fn's instruction at addr, or UINT32_MAX if
 * it has none there (once trimmed).
 */
uint32_t
instrs_find(const struct instrs *t, uint32_t fn, uint64_t addr)
{
	const uint32_t	*ids;
	uint32_t	 n, lo = 0, hi, mid;

	ids = instrs_byfn(t, fn, &n);
	hi = n;
	if (t->far.n == 0) {
		/* Every address's upper half its function's: the lower. */
		if (n == 0 || addr >> 32 != t->fnhi[fn])
			return UINT32_MAX;
		while (lo < hi) {
			mid = lo + (hi - lo) / 2;
			if (t->addr[ids[mid]] < (uint32_t)addr)
				lo = mid + 1;
			else
				hi = mid;
		}
		return lo < n && t->addr[ids[lo]] == (uint32_t)addr ?
		    ids[lo] : UINT32_MAX;
	}
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (instrs_addr(t, ids[mid]) < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && instrs_addr(t, ids[lo]) == addr ? ids[lo] :
	    UINT32_MAX;
}

/* Return whether instruction x comes before y: by address, then id. */
static inline int
instrs_before(const struct iaddr *x, const struct iaddr *y)
{
	return x->addr < y->addr || (x->addr == y->addr && x->id < y->id);
}

/*
 * Sort the n instructions at v by address, then id, using *tmp and
 * *runs (of *tmpcap and *runcap elements, grown as needed): the runs
 * already in order found, then merged two at a time.  A function's
 * instructions come in a few runs in order, one between two jumps back
 * or calls (cc1 with cache simulation: qsort() was an eighth of its
 * pprof export), so a few passes sort them.
 */
static void
instrs_sort_runs(struct iaddr *v, uint32_t n, struct iaddr **tmp,
    size_t *tmpcap, uint32_t **runs, size_t *runcap)
{
	struct iaddr	*src = v, *dst, *t;
	uint32_t	*r, nr = 0, m, i, lo, mid, hi, a, b, o;

	*runs = xgrow(*runs, runcap, (size_t)n + 1, sizeof(**runs));
	*tmp = xgrow(*tmp, tmpcap, n, sizeof(**tmp));
	r = *runs;
	dst = *tmp;
	for (i = 0; i < n; i++)
		if (i == 0 || !instrs_before(&v[i - 1], &v[i]))
			r[nr++] = i;
	r[nr] = n;
	while (nr > 1) {
		for (i = m = 0; i < nr; i += 2) {
			lo = r[i];
			mid = r[i + 1];
			hi = i + 2 <= nr ? r[i + 2] : n;
			a = lo;
			b = mid;
			for (o = lo; a < mid && b < hi; o++)
				dst[o] = instrs_before(&src[b], &src[a]) ?
				    src[b++] : src[a++];
			while (a < mid)
				dst[o++] = src[a++];
			while (b < hi)
				dst[o++] = src[b++];
			r[m++] = lo;
		}
		r[m] = n;
		nr = m;
		t = src;
		src = dst;
		dst = t;
	}
	if (src != v)
		memcpy(v, src, (size_t)n * sizeof(*v));
}

/*
 * Make t->byfn, the ids by function (a counting sort) and within each by
 * address (as read, most often: sorted only where they are not); sum
 * each address given again into its first and drop the others.  Each
 * first with others is summed as it is met, into a store of sums of its
 * own, the firsts' ids then put in order without a comparison
 * (sort_index_u64()): the costs are then written again in one pass.
 * Return nonzero if a sum overflowed.
 */
static int
instrs_index(struct instrs *t)
{
	struct iaddr	*tmp = NULL, *merge = NULL;
	struct vpack	 sums;
	size_t		 tmpcap = 0, kcap = 0, mergecap = 0, runcap = 0;
	uint32_t	*runs = NULL;
	uint64_t	*drop = NULL, *keeps = NULL, *add = NULL;
	uint32_t	 f, k, a, b, keep = 0, nsum = 0, id;
	int		 over = 0;

	free(t->byfn);
	free(t->fnstart);
	t->byfn = instrs_byfunc(t->fn, sizeof(*t->fn), t->n, &t->fnstart,
	    &t->nfn);
	vpack_init(&sums, t->nevents);
	for (f = 0; f < t->nfn; f++) {
		a = t->fnstart[f];
		b = t->fnstart[f + 1];
		for (k = a; k + 1 < b && instrs_addr(t, t->byfn[k]) <
		    instrs_addr(t, t->byfn[k + 1]); k++)
			continue;
		if (b - a < 2 || k + 1 == b)
			continue;
		tmp = xgrow(tmp, &tmpcap, b - a, sizeof(*tmp));
		for (k = a; k < b; k++)
			tmp[k - a] = (struct iaddr){
			    instrs_addr(t, t->byfn[k]),
			    t->byfn[k] };
		instrs_sort_runs(tmp, b - a, &merge, &mergecap, &runs,
		    &runcap);
		/* An address again: its counts to its first, in order. */
		for (k = a; k < b; k++) {
			id = tmp[k - a].id;
			t->byfn[k] = id;
			if (k == a || tmp[k - a].addr != tmp[k - a - 1].addr) {
				keep = id;
				continue;
			}
			if (drop == NULL) {
				drop = xcalloc((size_t)t->n / 64 + 1,
				    sizeof(*drop));
				add = xreallocarray(NULL, t->nevents + 1,
				    sizeof(*add));
			}
			bits_set(drop, id);
			if (tmp[k - a - 1].id == keep)	/* the first again */
				vpack_get(&t->cost, keep, t->vec);
			vpack_get(&t->cost, id, add);
			over |= cost_add(t->vec, add, t->nevents);
			if (k + 1 < b && tmp[k + 1 - a].addr == tmp[k - a].addr)
				continue;
			/* The last again: the sum is the first's. */
			(void)vpack_add(&sums, t->vec, t->nevents);
			keeps = xgrow(keeps, &kcap, (size_t)nsum + 1,
			    sizeof(*keeps));
			keeps[nsum++] = keep;
		}
	}
	free(tmp);
	free(merge);
	free(runs);
	free(add);
	if (drop != NULL)
		instrs_compact(t, drop, &sums, keeps, nsum);
	vpack_free(&sums);
	free(drop);
	free(keeps);
	return over;
}

/*
 * Write the costs of job->cost (n vectors) again in place without those
 * whose bit is set in drop, the nsum firsts of those given again
 * (keeps[], in any order) taking their sums (vector i of sums is
 * keeps[i]'s).
 */
static void
instrs_recost(struct recost *job)
{
	uint32_t	*order;

	order = xreallocarray(NULL, (size_t)job->nsum + 1, sizeof(*order));
	sort_index_u64(job->keeps, job->nsum, order);
	vpack_rewrite(job->cost, job->drop, job->sums, job->keeps, order,
	    job->nsum);
	free(order);
}

/* instrs_recost() in a second thread. */
static void *
instrs_recost_thread(void *arg)
{
	instrs_recost(arg);
	return NULL;
}

/*
 * Drop the instructions whose bit is set in drop from t, their costs
 * those of sums for the nsum firsts of those given again (keeps[]): the
 * costs written again (instrs_recost()) in a second thread while the
 * arrays are compacted (instrs_drop()), for INSTRS_SPLIT instructions
 * and more; the two touch nothing in common (cc1plus's callgrind export,
 * 5.6 million instructions: each about a tenth of a second, one core
 * idle).
 */
static void
instrs_compact(struct instrs *t, const uint64_t *drop,
    const struct vpack *sums, const uint64_t *keeps, uint32_t nsum)
{
	struct recost	job;
	pthread_t	thr;
	int		threaded;

	memset(&job, 0, sizeof(job));
	job.cost = &t->cost;
	job.drop = drop;
	job.sums = sums;
	job.keeps = keeps;
	job.nsum = nsum;
	threaded = instrs_split(t) &&
	    pthread_create(&thr, NULL, instrs_recost_thread, &job) == 0;
	if (!threaded)
		instrs_recost(&job);
	instrs_drop(t, drop);
	if (threaded && pthread_join(thr, NULL) != 0)
		errx(1, "pthread_join failed");
}

/*
 * Drop the instructions whose bit is set in drop from t's arrays and
 * from t->byfn, the others keeping their order (each id less the number
 * dropped before it).
 */
static void
instrs_drop(struct instrs *t, const uint64_t *drop)
{
	uint32_t	*before, i, to, f, k, m, id;
	size_t		 nw = (size_t)t->n / 64 + 1;

	/* The number dropped before each word's first, then each id's. */
	before = xreallocarray(NULL, nw, sizeof(*before));
	for (i = 0, m = 0; i < nw; i++) {
		before[i] = m;
		m += (uint32_t)__builtin_popcountll(drop[i]);
	}
	for (i = to = 0; i < t->n; i++) {
		if (bits_has(drop, i))
			continue;
		t->fn[to] = t->fn[i];
		t->addr[to] = t->addr[i];
		t->file[to] = t->file[i];
		t->line[to] = t->line[i];
		to++;
	}
	for (f = 0, m = 0; f < t->nfn; f++) {
		k = t->fnstart[f];
		t->fnstart[f] = m;
		for (; k < t->fnstart[f + 1]; k++) {
			id = t->byfn[k];
			if (bits_has(drop, id))
				continue;
			t->byfn[m++] = instrs_renumber(drop, before, id);
		}
	}
	t->fnstart[t->nfn] = m;
	iwide_drop(&t->far, drop, before);
	iwide_drop(&t->bigline, drop, before);
	t->n = to;
	free(before);
}

/* Order record ids by order_cmp on the records, then by id. */
static int
instrs_idcmp(const void *a, const void *b)
{
	uint32_t	x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	int		c;

	if ((c = order_cmp(order_base + (size_t)x * order_size,
	    order_base + (size_t)y * order_size)) != 0)
		return c;
	return (x > y) - (x < y);
}

/*
 * Return the ids of the n records at base, size bytes each and each
 * starting with its function's id, by function, each function's in
 * their order (a counting sort); *startp gets each function's first
 * (its end the next one's), *nfnp the number of functions (one past the
 * largest id).
 */
static uint32_t *
instrs_byfunc(const void *base, size_t size, uint32_t n, uint32_t **startp,
    uint32_t *nfnp)
{
	const unsigned char	*b = base;
	uint32_t		*ids, *start, i, fn, nfn = 0;

	for (i = 0; i < n; i++) {
		memcpy(&fn, b + (size_t)i * size, sizeof(fn));
		if (fn >= nfn)
			nfn = fn + 1;
	}
	start = xcalloc((size_t)nfn + 2, sizeof(*start));
	for (i = 0; i < n; i++) {
		memcpy(&fn, b + (size_t)i * size, sizeof(fn));
		start[fn + 2]++;
	}
	for (fn = 0; fn < nfn; fn++)
		start[fn + 2] += start[fn + 1];
	ids = xreallocarray(NULL, (size_t)n + 1, sizeof(*ids));
	for (i = 0; i < n; i++) {
		memcpy(&fn, b + (size_t)i * size, sizeof(fn));
		ids[start[fn + 1]++] = i;
	}
	/* start[fn] is now fn's first, start[fn + 1] its end. */
	*startp = start;
	*nfnp = nfn;
	return ids;
}

/*
 * Return the ids of the n records at base, size bytes each and each
 * starting with its function's id, by function, then each function's by
 * cmp, then by id: equal records follow their first.
 */
static uint32_t *
instrs_order(const void *base, size_t size, uint32_t n,
    int (*cmp)(const void *, const void *))
{
	uint32_t	*ids, *start, fn, nfn;

	ids = instrs_byfunc(base, size, n, &start, &nfn);
	order_base = base;
	order_size = size;
	order_cmp = cmp;
	for (fn = 0; fn < nfn; fn++)
		if (start[fn + 1] - start[fn] > 1)
			qsort(ids + start[fn], start[fn + 1] - start[fn],
			    sizeof(*ids), instrs_idcmp);
	order_base = NULL;
	order_cmp = NULL;
	free(start);
	return ids;
}

/* Order jumps of one function by address, kind, then target. */
static int
instrs_jumpcmp(const void *a, const void *b)
{
	const struct ijump	*x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->cond != y->cond)
		return x->cond < y->cond ? -1 : 1;
	return (x->target > y->target) - (x->target < y->target);
}

/* Order calls of one function by address, then callee. */
static int
instrs_callcmp(const void *a, const void *b)
{
	const struct icall	*x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return (x->callee > y->callee) - (x->callee < y->callee);
}

/* Add jump d to jump k, equal to it; return nonzero on overflow. */
static int
instrs_jump_sum(struct instrs *t, uint32_t k, uint32_t d)
{
	struct ijump	*a = &t->jumps[k];
	const struct ijump *b = &t->jumps[d];
	int		 over = 0;

	if (__builtin_add_overflow(a->executed, b->executed, &a->executed))
		a->executed = UINT64_MAX, over = 1;
	if (__builtin_add_overflow(a->taken, b->taken, &a->taken))
		a->taken = UINT64_MAX, over = 1;
	return over;
}

/* Add call d (count and costs) to call k, equal to it, likewise. */
static int
instrs_call_sum(struct instrs *t, uint32_t k, uint32_t d)
{
	struct icall	*a = &t->calls[k];
	unsigned	 nev = t->nevents;
	int		 over = 0;

	if (__builtin_add_overflow(a->count, t->calls[d].count, &a->count))
		a->count = UINT64_MAX, over = 1;
	return over | cost_add(t->ccost + (size_t)k * nev, t->ccost +
	    (size_t)d * nev, nev);
}

/* Move call from's costs to call to's place. */
static void
instrs_call_move(struct instrs *t, uint32_t to, uint32_t from)
{
	memcpy(t->ccost + (size_t)to * t->nevents, t->ccost +
	    (size_t)from * t->nevents, t->nevents * sizeof(*t->ccost));
}

/*
 * Sum each of the n records at base (size bytes each, its function's id
 * first) that cmp finds equal to one before it of its function into that
 * one (sum()) and drop it; the others keep their order, move() moving
 * what they hold elsewhere (if not NULL).  Return how many are left,
 * setting *over if a sum overflowed.
 */
static uint32_t
instrs_sum_again(struct instrs *t, void *base, size_t size, uint32_t n,
    int (*cmp)(const void *, const void *),
    int (*sum)(struct instrs *, uint32_t, uint32_t),
    void (*move)(struct instrs *, uint32_t, uint32_t), int *over)
{
	unsigned char	*b = base;
	uint32_t	*ids, i, m, keep, fk, fi, dropped = UINT32_MAX;

	if (n < 2)
		return n;
	ids = instrs_order(base, size, n, cmp);
	for (i = 1, keep = ids[0]; i < n; i++) {
		memcpy(&fk, b + (size_t)keep * size, sizeof(fk));
		memcpy(&fi, b + (size_t)ids[i] * size, sizeof(fi));
		if (fk != fi || cmp(b + (size_t)keep * size, b +
		    (size_t)ids[i] * size) != 0) {
			keep = ids[i];
			continue;
		}
		*over |= sum(t, keep, ids[i]);
		memcpy(b + (size_t)ids[i] * size, &dropped, sizeof(dropped));
	}
	free(ids);
	for (i = m = 0; i < n; i++) {
		memcpy(&fi, b + (size_t)i * size, sizeof(fi));
		if (fi == dropped)
			continue;
		if (m < i) {
			memcpy(b + (size_t)m * size, b + (size_t)i * size,
			    size);
			if (move != NULL)
				move(t, m, i);
		}
		m++;
	}
	return m;
}

/*
 * Sum each jump and each call given again into its first and drop the
 * others, which keep their order.  Return nonzero if a sum overflowed.
 */
static int
instrs_branches(struct instrs *t)
{
	int	over = 0;

	t->njumps = instrs_sum_again(t, t->jumps, sizeof(*t->jumps),
	    t->njumps, instrs_jumpcmp, instrs_jump_sum, NULL, &over);
	t->ncalls = instrs_sum_again(t, t->calls, sizeof(*t->calls),
	    t->ncalls, instrs_callcmp, instrs_call_sum, instrs_call_move,
	    &over);
	return over;
}

/* Give instruction i's self cost in out (nevents counts). */
void
instrs_cost(const struct instrs *t, uint32_t i, uint64_t *out)
{
	vpack_get(&t->cost, i, out);
}

/* Return the count of event ev of instruction i (COST_NONE: none). */
uint64_t
instrs_cost1(const struct instrs *t, uint32_t i, unsigned ev)
{
	return vpack_get1(&t->cost, i, ev);
}

/* Return the number of jumps. */
uint32_t
instrs_njumps(const struct instrs *t)
{
	return t->njumps;
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
	return t->ncalls;
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
