/*
 * flame.c - call stacks for flame graphs.
 *
 * A profile of valgrind's xtree files holds its stacks: they are taken
 * as they are.  A callgrind profile holds a call graph, not stacks, and
 * its stacks are estimated as gprof assumes: each function's self cost
 * is spread over its callers in proportion to the cost of their calls to
 * it (their counts if no call has a cost, equally if none has a count),
 * and each share over their callers likewise, up to a function nothing
 * calls; a caller already on the stack is left out (a cycle is cut where
 * it closes).  Counts stay whole numbers: a share is rounded down and
 * what is left goes to the callers with the largest remainders, so the
 * stacks of a function add up to its self cost exactly.  A share smaller
 * than a hundred-thousandth of the total (FLAME_SPLIT) is not split
 * further but goes up whole through the costliest caller at each level;
 * where the stacks would hold more than their budget of frames (flame.h),
 * the walk stops as soon as it sees so (by the share of the costs it has
 * taken up) and starts again ten times coarser.  With
 * --separate-callers, the functions are caller contexts, whose calls
 * come only from their callers' contexts: the stacks are exact as far as
 * the contexts reach.  The stacks of several events (the exports') are
 * made in one walk: each event's count goes up as its own walk would
 * take it, and what goes up through one caller is one piece of work.
 */
#include "base/compat.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/flame.h"
#include "base/cost.h"
#include "base/handoff.h"
#include "base/hooks.h"
#include "base/sort.h"
#include "base/xmalloc.h"
#include "model/profile.h"
#include "model/stacks.h"

/* A node's ends sorted by insertion up to this many, else by qsort(). */
#define FLAME_ENDS_FEW	32
/* The tree's ends put in order by a copy up to this many (32 MB more). */
#define FLAME_ENDS_COPY	((size_t)1 << 21)
/* Remainders sorted by insertion up to this many callers, else qsort(). */
#define FLAME_SHARE_FEW	32
/* A callee's calls ordered by insertion up to this many, else qsort(). */
#define FLAME_CALLS_FEW	32
/*
 * Words of stacks a walk may make ahead of the tree's making
 * (handoff_deep()) while it looks too fine for its budget: 16 MB.  Walks
 * that stop as too fine stop sooner (the tree, whose frames are mostly
 * new nodes, is the slower), and what was made ahead is dropped; a walk
 * that fits waits on the tree as before (ahead, its stacks' buffers
 * were fresh memory read again later: cc1 with cache simulation's
 * speedscope export 8% slower).
 */
#define FLAME_DEEP	((size_t)1 << 22)

/* The calls into a function from one caller, summed. */
struct fcall {
	uint32_t	 callee, caller;
	uint64_t	 count;
};

/* A piece of a function's cost on its way up: work for the walk. */
struct fwork {
	uint32_t	 fn;
	size_t		 depth;
	size_t		 at, n;		/* its counts: the walk's wc[] */
};

/*
 * A callee's costliest call for one event, where flame_best_small()
 * looks first: its place, its caller, whether it costs anything; kept
 * together for all the events of a callee (one or two cache lines, where
 * bycost, calls and cost are three misses an event).
 */
struct ftop {
	uint32_t	 call;
	uint32_t	 caller;
	uint32_t	 costs;
};

/* One event's count in a piece of work. */
struct fcount {
	uint32_t	 k;
	uint64_t	 count;
};

/* Exact sums of a count times a weight. */
__extension__ typedef unsigned __int128 u128;

/*
 * The walk of flame_estimate(), of nev events at once: the calls, the
 * stack, the work left.  An event's count in a piece of work goes up
 * exactly as a walk of that event alone would take it: each event is
 * shared out by its own weights, and the pieces of all the events that
 * go up through a caller are one piece.
 */
struct fest {
	unsigned	 nev;
	size_t		 nf;		/* functions */
	struct fcall	*calls;		/* by callee, then caller, */
	uint64_t	*cost;		/*   their costs (call * nev + k), */
	size_t		 ncalls;
	uint32_t	*first;		/*   each callee's first, */
	uint32_t	*bycost;	/*   each callee's in the order of */
	uint32_t	*bycount;	/*   flame_best(): by event k's cost
					   (bycost + k * ncalls) or count,
					   largest first, then by place */
	struct ftop	*top;		/* each callee's first in bycost, by
					   event (fn * nev + k), */
	struct ftop	*ctop;		/*   in bycount, */
	uint32_t	*fcaller;	/*   the caller of its first call */
	uint64_t	*min;		/* a count below it goes up whole */
	uint32_t	*path;		/* the stack walked, */
	unsigned char	*onpath;	/*   its functions, */
	size_t		 depth;		/*   its depth */
	struct fwork	*work;
	struct fcount	*wc;		/* the work's counts, events in
					   order, none zero */
	size_t		 nwork, work_cap, nwc, wc_cap;
	unsigned char	*skip;		/* callers left out, */
	uint64_t	 sum;		/*   the weight of the others for one
					   event (0: none, at most 2^64 - 1), */
	int		 counts;	/*   in call counts */
	u128		*rem;		/* shares and remainders */
	uint64_t	*shares;	/*   of one event */
	uint64_t	*cur;		/* the piece at hand's counts, */
	uint32_t	*act;		/*   its events (none zero) */
	size_t		 nact;
	uint32_t	*given;		/*   room for as many (flame_step()
					   leaves there those it came with,
					   in order, and in act those that
					   end) */
	uint32_t	*every;		/* each event: 0, 1, ... nev - 1 */
	uint64_t	*up;		/* caller * nev + k: what goes up, */
	uint32_t	*touched;	/*   the callers given some, */
	uint32_t	*ucaller;	/*   their functions, */
	unsigned char	*mark;		/*   marked */
	size_t		 ntouched;
	size_t		*order;		/* flame_share()'s remainders sorted */
	size_t		 skip_cap, rem_cap, shares_cap, touched_cap;
	size_t		 order_cap;
	struct handoff	*ho;		/* the stacks, to the caller's thread,
					   which adds them to the tree */
	const uint64_t	*self;		/* the functions' self costs */
	uint64_t	 walked;	/* frames walked, up to limit: */
	uint64_t	 limit;		/*   f's, counted here, not in f, */
	uint64_t	*walked_ev;	/*   whose lines the tree's making in
					   the other thread writes */
	const uint64_t	*total;		/* each event's self costs, summed */
	unsigned	 npos;		/*   the events whose total is not 0 */
	uint64_t	 budget;	/* frames the stacks may hold (0: no
					   bound but the limits), */
	uint64_t	 emitted;	/*   frames handed over, */
	double		 done;		/*   the shares of the totals in them
					   (npos when all are), */
	int		 coarser;	/*   set: stopped, too fine, */
	atomic_int	*drop;		/*   and so this: the tree's making
					   drops the rest */
	int		 deep;		/* the stacks made ahead of the tree
					   (FLAME_DEEP) */
};

/* The state of the tree's making from the walk's stacks (flame_take()). */
struct ftake {
	struct flame	*f;
	uint64_t	*counts;	/* a stack's, by event */
	uint32_t	*act;		/*   its events */
	atomic_int	 drop;		/* the walk stopped as too fine */
};

/*
 * The counts calls are ordered by, for flame_keycmp(): an id's at
 * key_base + id * key_stride bytes.
 */
static const unsigned char	*key_base;
static size_t			 key_stride;

static int	flame_walked(uint64_t *, uint64_t, uint64_t *, size_t,
		    const uint32_t *, size_t);
static int	flame_add(struct flame *, const uint32_t *, size_t, int,
		    const uint64_t *, const uint32_t *, size_t);
static int	flame_insert(struct flame *, const uint32_t *, size_t, int,
		    const uint64_t *, const uint32_t *, size_t);
static int	flame_emit(struct fest *, const uint64_t *, size_t);
static int	flame_take(void *, const uint32_t *, size_t);
static void	flame_walk(void *, struct handoff *);
static void	flame_estimate(struct flame *, const struct profile *,
		    const unsigned *);
static int	flame_budget(struct fest *, const uint64_t *, size_t);
static void	flame_again(struct flame *, struct fest *);
static uint64_t	*flame_self(const struct profile *, const unsigned *,
		    unsigned);
static void	flame_calls(struct fest *, const struct profile *,
		    const unsigned *);
static void	flame_order(struct fest *);
static void	flame_sortby(uint32_t *, size_t, const unsigned char *, size_t);
static void	flame_push(struct fest *, uint32_t, const uint64_t *,
		    const uint32_t *, size_t, size_t);
static __always_inline void flame_push1(struct fest *, uint32_t, unsigned,
		    uint64_t, size_t);
static __always_inline void flame_work(struct fest *, uint32_t, size_t,
		    size_t);
static void	flame_give(struct fest *, size_t, unsigned, uint64_t,
		    uint32_t);
static int	flame_desc(const void *, const void *);
static void	flame_ends(struct flame *);
static void	flame_index(struct flame *);
static int	flame_endcmp(const void *, const void *);
static int	flame_step(struct fest *, size_t);
static size_t	flame_callers(struct fest *, size_t, size_t);
static void	flame_weigh(struct fest *, unsigned, size_t, size_t);
static size_t	flame_best(const struct fest *, unsigned, size_t, size_t);
static __always_inline size_t flame_best_small(const struct fest *,
		    uint32_t, unsigned, size_t, size_t, uint32_t *);
static size_t	flame_first(const struct fest *, const uint32_t *, size_t,
		    size_t, int);
static uint64_t	flame_key(uint32_t);
static int	flame_keycmp(const void *, const void *);
static int	flame_remcmp(const void *, const void *);
static void	flame_share(struct fest *, unsigned, uint64_t, size_t,
		    size_t, size_t);
static int	flame_closed(const struct fest *, uint32_t);

/*
 * Return nonzero if function fn is called, but only by functions on the
 * stack (onpath) or by itself: walking up through it would stop there.
 */
static int
flame_closed(const struct fest *e, uint32_t fn)
{
	uint32_t	i, c;

	if (e->first[fn] == e->first[fn + 1])
		return 0;
	/* Its first caller, kept apart: most often off the stack. */
	if (!e->onpath[c = e->fcaller[fn]] && c != fn)
		return 0;
	for (i = e->first[fn] + 1; i < e->first[fn + 1]; i++)
		if (!e->onpath[c = e->calls[i].caller] && c != fn)
			return 0;
	return 1;
}

/*
 * Count a stack of n frames of the events of act (nact of them) as
 * walked, in *walked (up to limit) and walked_ev[] (each event's); return
 * -1, marking *walked over the limit, if that walks more than limit in
 * all, or than FLAME_MAX_FRAMES for one event.
 */
static int
flame_walked(uint64_t *walked, uint64_t limit, uint64_t *walked_ev, size_t n,
    const uint32_t *act, size_t nact)
{
	size_t	i;

	if (*walked + n > limit) {
		*walked = limit + 1;
		return -1;
	}
	for (i = 0; i < nact; i++)
		if ((walked_ev[act[i]] += n) > FLAME_MAX_FRAMES) {
			*walked = limit + 1;
			return -1;
		}
	*walked += n;
	return 0;
}

/*
 * Add counts[k] of each event k of act (nact of them, in order, none
 * zero) to the stack of n frames, counted as walked (flame_walked()).
 * Return -1, adding nothing, if that walks more than the limits.
 */
static int
flame_add(struct flame *f, const uint32_t *frames, size_t n, int rev,
    const uint64_t *counts, const uint32_t *act, size_t nact)
{
	if (flame_walked(&f->walked, f->limit, f->walked_ev, n, act,
	    nact) == -1)
		return -1;
	if (flame_insert(f, frames, n, rev, counts, act, nact) == -1) {
		f->walked = f->limit + 1;
		return -1;
	}
	return 0;
}

/*
 * Send the stack on top of e's path, of the events of e->act (nend of
 * them) and their counts c[k], to the caller's thread, which adds it
 * (flame_take()), counted as walked.  A record: the frames, the events,
 * the frames innermost first, then each event and its count's two
 * halves.  Return -1 if that walks more than the limits, or the tree
 * could not hold what came before.
 */
static int
flame_emit(struct fest *e, const uint64_t *c, size_t nend)
{
	size_t		 n = e->depth, i;
	uint32_t	*r;

	if (flame_walked(&e->walked, e->limit, e->walked_ev, n, e->act,
	    nend) == -1)
		return -1;
	if (e->budget > 0 && flame_budget(e, c, nend) == -1)
		return -1;
	if ((r = handoff_room(e->ho, 2 + n + 3 * nend)) == NULL) {
		e->walked = e->limit + 1;
		return -1;
	}
	r[0] = (uint32_t)n;
	r[1] = (uint32_t)nend;
	memcpy(r + 2, e->path, n * sizeof(*r));
	r += 2 + n;
	for (i = 0; i < nend; i++) {
		r[3 * i] = e->act[i];
		r[3 * i + 1] = (uint32_t)c[e->act[i]];
		r[3 * i + 2] = (uint32_t)(c[e->act[i]] >> 32);
	}
	handoff_put(e->ho, 2 + n + 3 * nend);
	return 0;
}

/*
 * Count the stack on top of e's path, of the events of e->act (nend of
 * them) and their counts c[k], against e's budget; return -1, stopping
 * the walk (e->coarser set), if the stacks have passed it, or will at
 * the rate they take it: once an eighth is spent, more frames than the
 * share of the totals handed over times the budget.  Before that, the
 * walk goes ahead of the tree while the rate says it will not fit.
 */
static int
flame_budget(struct fest *e, const uint64_t *c, size_t nend)
{
	size_t	 i;
	unsigned k;
	int	 over;

	for (i = 0; i < nend; i++) {
		k = e->act[i];
		e->done += (double)c[k] / (double)e->total[k];
	}
	e->emitted += e->depth;
	over = (double)e->emitted * e->npos > e->done * (double)e->budget;
	if (over != e->deep) {
		e->deep = over;
		handoff_deep(e->ho, over ? FLAME_DEEP : 0);
	}
	if (e->emitted > e->budget || (e->emitted >= e->budget / 8 && over)) {
		e->coarser = 1;
		atomic_store_explicit(e->drop, 1, memory_order_relaxed);
		e->walked = e->limit + 1;
		return -1;
	}
	return 0;
}

/*
 * Add the stacks of the records of flame_emit() at words (n of them) to
 * the tree (arg: a struct ftake), in the caller's thread; return -1 if
 * the tree cannot hold them, or if the walk stopped as too fine (its
 * tree is made again).
 */
static int
flame_take(void *arg, const uint32_t *words, size_t n)
{
	struct ftake	*t = arg;
	const uint32_t	*r = words, *end = words + n, *ev;
	uint32_t	 depth, nact, i;

	while (r < end) {
		if (atomic_load_explicit(&t->drop, memory_order_relaxed))
			return -1;
		depth = r[0];
		nact = r[1];
		ev = r + 2 + depth;
		for (i = 0; i < nact; i++) {
			t->act[i] = ev[3 * i];
			t->counts[ev[3 * i]] = (uint64_t)ev[3 * i + 2] << 32 |
			    ev[3 * i + 1];
		}
		if (flame_insert(t->f, r + 2, depth, 1, t->counts, t->act,
		    nact) == -1)
			return -1;
		r = ev + 3 * (size_t)nact;
	}
	return 0;
}

/*
 * Add counts[k] of each event k of act (nact of them, in order, none
 * zero) to the stack of n frames (with rev set, frames[] is the innermost
 * first), making the nodes of the tree it needs.  The frames it shares
 * from the root with the stack added before are found again without a
 * lookup (f->last), and so is a node's child looked up last from it
 * (f->hint: the estimate's stacks share their outer frames with many
 * before them, nine lookups in ten on big C++ programs).  Return -1,
 * adding nothing, if the nodes would be more than ids can tell.
 */
static int
flame_insert(struct flame *f, const uint32_t *frames, size_t n, int rev,
    const uint64_t *counts, const uint32_t *act, size_t nact)
{
	uint64_t	key;
	uint32_t	cur = 0, id, fn;
	size_t		i;
	int		created;

	if (flame_nnodes(f) + n >= KEYTAB_NONE)
		return -1;
	f->last = xgrow(f->last, &f->last_cap, 2 * n + 2, sizeof(*f->last));
	for (i = 0; i < n; i++) {
		fn = rev ? frames[n - 1 - i] : frames[i];
		if (i < f->nlast && f->last[2 * i] == fn) {
			cur = f->last[2 * i + 1];
			continue;
		}
		f->nlast = i;	/* shared no further */
		if (f->hint[2 * (size_t)cur] == fn + 1)
			cur = f->hint[2 * (size_t)cur + 1];
		else {
			key = keytab_pair(cur, fn);
			id = keytab_get(&f->nodes, &key, &created);
			f->hint[2 * (size_t)cur] = fn + 1;
			f->hint[2 * (size_t)cur + 1] = id + 1;
			cur = id + 1;
			if (created) {
				f->hint = xgrow(f->hint, &f->hint_cap, 2 *
				    (size_t)cur + 2, sizeof(*f->hint));
				f->hint[2 * (size_t)cur] = 0;
			}
		}
		f->last[2 * i] = fn;
		f->last[2 * i + 1] = cur;
	}
	f->nlast = n;
	f->ends = xgrow(f->ends, &f->ends_cap, f->nends + nact,
	    sizeof(*f->ends));
	for (i = 0; i < nact; i++)
		f->ends[f->nends++] = (struct flame_end){ cur, act[i],
		    counts[act[i]] };
	return 0;
}

/* Order ends (by the event, after a sort by node). */
static int
flame_endcmp(const void *a, const void *b)
{
	const struct flame_end	*x = a, *y = b;

	return (x->k > y->k) - (x->k < y->k);
}

/*
 * Sort f's ends by node, then event, each node's and event's summed into
 * one, and index them by node (f->endat).
 */
static void
flame_ends(struct flame *f)
{
	struct flame_end	 t, *sorted;
	size_t			 n = flame_nnodes(f), i, j, m, lo;
	uint32_t		*fill, *to, u;

	f->endat = xcalloc(n + 1, sizeof(*f->endat));
	for (i = 0; i < f->nends; i++)
		f->endat[f->ends[i].node + 1]++;
	for (i = 0; i < n; i++)
		f->endat[i + 1] += f->endat[i];
	/*
	 * In order of node, by a counting sort: up to FLAME_ENDS_COPY of
	 * them copied, each read from its place (1.3 million ends of cc1
	 * with cache simulation: 0.03 s, against 0.26 s moved in place,
	 * one dependent cache miss an end); more, moved in place along the
	 * cycles of their permutation (4 bytes an end, not 16).
	 */
	fill = xreallocarray(NULL, n + 1, sizeof(*fill));
	memcpy(fill, f->endat, (n + 1) * sizeof(*fill));
	to = xreallocarray(NULL, f->nends + 1, sizeof(*to));
	if (f->nends <= FLAME_ENDS_COPY && !hooks.ends_in_place) {
		for (i = 0; i < f->nends; i++)
			to[fill[f->ends[i].node]++] = (uint32_t)i;
		sorted = xreallocarray(NULL, f->nends + 1, sizeof(*sorted));
		for (i = 0; i < f->nends; i++)
			sorted[i] = f->ends[to[i]];
		free(f->ends);
		f->ends = sorted;
		f->ends_cap = f->nends + 1;
	} else {
		for (i = 0; i < f->nends; i++)
			to[i] = fill[f->ends[i].node]++;
		for (i = 0; i < f->nends; i++)
			while (to[i] != i) {
				j = to[i];
				t = f->ends[j];
				f->ends[j] = f->ends[i];
				f->ends[i] = t;
				u = to[j];
				to[j] = (uint32_t)j;
				to[i] = u;
			}
	}
	free(fill);
	free(to);
	/*
	 * Each node's by event, equal ones summed (as plain sums).  A node
	 * mostly holds a few (one an event, or none: cc1 with cache
	 * simulation, 1.3 million ends on 510,000 nodes): up to
	 * FLAME_ENDS_FEW sorted in place by insertion, not by a call of
	 * qsort() each.
	 */
	for (i = m = 0; i < n; i++) {
		lo = f->endat[i];
		sort_few(f->ends + lo, f->endat[i + 1] - lo, sizeof(*f->ends),
		    flame_endcmp, FLAME_ENDS_FEW);
		f->endat[i] = (uint32_t)m;
		for (j = lo; j < f->endat[i + 1]; j++) {
			if (m > f->endat[i] && f->ends[m - 1].k == f->ends[j].k)
				f->ends[m - 1].count += f->ends[j].count;
			else
				f->ends[m++] = f->ends[j];
		}
	}
	f->endat[n] = (uint32_t)m;
	f->nends = m;
}

/*
 * Index f's nodes by event (f->evnodes, f->evat): each event's nodes at
 * or under which one of its stacks ends, in order.  A view of one event
 * looks at those alone: the estimate's pieces mostly go up one event at
 * a time, and on a large C++ program a node holds about one event's
 * stacks of thirteen (cc1 with cache simulation: three and a half).
 */
static void
flame_index(struct flame *f)
{
	size_t		 n = flame_nnodes(f), nw = (f->nev + 63) / 64, i, w, j;
	size_t		*fill;
	uint64_t	*mask, m;
	uint32_t	 parent, fn;
	unsigned	 k;

	f->evat = xcalloc((size_t)f->nev + 2, sizeof(*f->evat));
	if (f->nev == 1) {
		/* Every node's stacks are the event's. */
		f->evnodes = xreallocarray(NULL, n, sizeof(*f->evnodes));
		for (i = 1; i < n; i++)
			f->evnodes[i - 1] = (uint32_t)i;
		f->evat[1] = n - 1;
		return;
	}
	mask = xcalloc(n * nw + 1, sizeof(*mask));
	/* Each node's events, its own and its children's (made after it). */
	for (i = n; i-- > 1; ) {
		for (j = f->endat[i]; j < f->endat[i + 1]; j++) {
			k = f->ends[j].k;
			mask[i * nw + k / 64] |= (uint64_t)1 << (k % 64);
		}
		parent = flame_node(f, i, &fn);
		for (w = 0; w < nw; w++)
			mask[parent * nw + w] |= mask[i * nw + w];
	}
	for (i = 1; i < n; i++)
		for (w = 0; w < nw; w++)
			for (m = mask[i * nw + w]; m != 0; m &= m - 1)
				f->evat[w * 64 + (size_t)__builtin_ctzll(m) +
				    1]++;
	for (k = 0; k < f->nev; k++)
		f->evat[k + 1] += f->evat[k];
	f->evnodes = xreallocarray(NULL, f->evat[f->nev] + 1,
	    sizeof(*f->evnodes));
	fill = xreallocarray(NULL, (size_t)f->nev + 1, sizeof(*fill));
	memcpy(fill, f->evat, ((size_t)f->nev + 1) * sizeof(*fill));
	for (i = 1; i < n; i++)
		for (w = 0; w < nw; w++)
			for (m = mask[i * nw + w]; m != 0; m &= m - 1)
				f->evnodes[fill[w * 64 +
				    (size_t)__builtin_ctzll(m)]++] = (uint32_t)i;
	free(fill);
	free(mask);
}

/* The stacks of profile p, estimated from its call graph (see above). */
static void
flame_estimate(struct flame *f, const struct profile *p, const unsigned *evs)
{
	struct fest	 e;
	struct ftake	 t;
	uint64_t	*self, *total;
	size_t		 nf = profile_nfuncs(p);
	uint32_t	 fn, split;
	unsigned	 k, nev = f->nev;

	memset(&e, 0, sizeof(e));
	e.nev = nev;
	self = flame_self(p, evs, nev);
	total = xcalloc(nev, sizeof(*total));
	for (fn = 0; fn < nf; fn++)
		for (k = 0; k < nev; k++)
			cost_add1(&total[k], self[(size_t)fn * nev + k]);
	for (k = 0; k < nev; k++)
		e.npos += total[k] > 0;
	e.total = total;
	e.min = xreallocarray(NULL, nev, sizeof(*e.min));
	flame_calls(&e, p, evs);
	flame_order(&e);
	e.cur = xcalloc(nev, sizeof(*e.cur));
	e.act = xreallocarray(NULL, nev, sizeof(*e.act));
	e.given = xreallocarray(NULL, nev, sizeof(*e.given));
	e.every = xreallocarray(NULL, nev, sizeof(*e.every));
	for (k = 0; k < nev; k++)
		e.every[k] = k;
	e.path = xreallocarray(NULL, nf + 1, sizeof(*e.path));
	e.onpath = xcalloc(nf + 1, 1);
	e.self = self;
	e.limit = f->limit;
	e.walked_ev = xcalloc(nev + 1, sizeof(*e.walked_ev));
	t.f = f;
	t.counts = xcalloc(nev + 1, sizeof(*t.counts));
	t.act = xreallocarray(NULL, nev + 1, sizeof(*t.act));
	e.drop = &t.drop;
	for (split = FLAME_SPLIT; ; split /= 10) {
		atomic_init(&t.drop, 0);
		for (k = 0; k < nev; k++)
			e.min[k] = total[k] / split > 0 ? total[k] / split : 1;
		e.budget = split > 1 ? f->budget : 0;
		f->split = split;
		/* The walk in a second thread, the tree made here. */
		if (handoff_run(flame_walk, &e, flame_take, &t) == -1)
			e.walked = e.limit + 1;
		if (!e.coarser)
			break;
		flame_again(f, &e);
	}
	f->walked = e.walked;	/* over the limit: says so */
	free(total);
	free(e.walked_ev);
	free(t.counts);
	free(t.act);
	free(e.work);
	free(e.wc);
	free(e.rem);
	free(e.order);
	free(e.shares);
	free(e.up);
	free(e.cur);
	free(e.act);
	free(e.given);
	free(e.every);
	free(e.touched);
	free(e.mark);
	free(e.skip);
	free(e.onpath);
	free(e.path);
	free(e.first);
	free(e.bycost);
	free(e.bycount);
	free(e.top);
	free(e.ctop);
	free(e.ucaller);
	free(e.fcaller);
	free(e.calls);
	free(e.cost);
	free(e.min);
	free(self);
}

/*
 * Make f and the walk e as they were before a walk stopped as too fine,
 * for a coarser one: no stacks, nothing counted, the walk's state clear.
 */
static void
flame_again(struct flame *f, struct fest *e)
{
	keytab_free(&f->nodes);
	keytab_init(&f->nodes, 1);
	free(f->ends);
	f->ends = NULL;
	f->nends = f->ends_cap = 0;
	f->nlast = 0;
	f->hint[0] = 0;		/* the root's; the others made again */
	e->walked = e->emitted = 0;
	e->done = 0;
	e->coarser = 0;
	memset(e->walked_ev, 0, (e->nev + 1) * sizeof(*e->walked_ev));
	memset(e->onpath, 0, e->nf + 1);
	memset(e->cur, 0, e->nev * sizeof(*e->cur));
	if (e->touched_cap > 0) {
		memset(e->up, 0, e->touched_cap * e->nev * sizeof(*e->up));
		memset(e->mark, 0, e->touched_cap);
	}
	e->ntouched = e->nwork = e->nwc = e->depth = 0;
}

/*
 * The walk of flame_estimate() (arg: its struct fest), in the second
 * thread of handoff h: each function's self costs, walked up depth
 * first, the stacks handed over; stopped where e->walked goes over the
 * limit.
 */
static void
flame_walk(void *arg, struct handoff *h)
{
	struct fest	*ep = arg, e;
	const uint64_t	*self = ep->self;
	uint32_t	 fn, nf = (uint32_t)ep->nf;
	unsigned	 k, nev = ep->nev;
	size_t		 na;

	ep->ho = h;
	e = *ep;
	e.deep = 0;
	for (fn = 0; fn < nf; fn++) {
		for (k = 0; k < nev && self[(size_t)fn * nev + k] == 0; k++)
			continue;
		if (k == nev)
			continue;
		e.nwork = e.nwc = 0;
		flame_push(&e, fn, self + (size_t)fn * nev, e.every, nev,
		    0);
		e.depth = 0;
		while (e.nwork > 0) {
			struct fwork	it = e.work[--e.nwork];

			if (++e.walked > e.limit)
				goto done;
			/* Leave the frames below this one's depth. */
			while (e.depth > it.depth)
				e.onpath[e.path[--e.depth]] = 0;
			e.path[e.depth++] = it.fn;
			e.onpath[it.fn] = 1;
			/*
			 * Its counts, taken off: the pushes reuse wc[].  The
			 * count of events in a local: e's, kept in memory
			 * (its address is taken), made each step of this
			 * loop wait on the one before.
			 */
			for (na = 0; na < it.n; na++) {
				k = e.wc[it.at + na].k;
				e.act[na] = k;
				if (++e.walked_ev[k] > FLAME_MAX_FRAMES) {
					e.walked = e.limit + 1;
					goto done;
				}
				e.cur[k] = e.wc[it.at + na].count;
			}
			e.nact = na;
			e.nwc = it.at;
			if (flame_step(&e, it.fn) == -1)
				goto done;
		}
		while (e.depth > 0)
			e.onpath[e.path[--e.depth]] = 0;
	}
done:
	*ep = e;	/* the tables it grew, for the caller to free */
}

/*
 * Take the piece at hand (e->cur, its events e->act) of function fn, on
 * top of e's path, one step up: each event's count to its callers, or,
 * if none is left to it, handed over as the stack of the path
 * (flame_emit()); the callers' pieces pushed, the first caller's to be
 * walked first.  e->cur is left all zero.  Return -1 if the walk went
 * over its limit.
 */
static int
flame_step(struct fest *e, size_t fn)
{
	uint64_t	*c = e->cur;
	size_t		 lo = e->first[fn], hi = e->first[fn + 1], i, b, j;
	size_t		 ncand = 0, nend = 0;
	uint32_t	 caller, *ends = e->given;
	unsigned	 k, nev = e->nev;

	if (e->nact == 1 && c[e->act[0]] < e->min[e->act[0]]) {
		/*
		 * The usual step (99 in 100 on a big C++ program): one event's
		 * piece, going up whole, as the loop below would take it.
		 */
		k = e->act[0];
		if ((b = flame_best_small(e, (uint32_t)fn, k, lo, hi,
		    &caller)) == hi) {
			if (flame_emit(e, c, 1) == -1)
				return -1;
		} else
			flame_push1(e, caller, k, c[k], e->depth);
		c[k] = 0;
		return 0;
	}
	for (j = 0; j < e->nact; j++)
		if (c[e->act[j]] >= e->min[e->act[j]])
			break;
	if (j < e->nact)
		ncand = flame_callers(e, lo, hi);
	if (hi - lo > e->touched_cap) {
		/* All zero between steps: made again, not copied. */
		free(e->up);
		free(e->mark);
		free(e->touched);
		free(e->ucaller);
		e->touched_cap = 2 * (hi - lo);
		e->up = xcalloc(e->touched_cap * nev, sizeof(*e->up));
		e->mark = xcalloc(e->touched_cap, 1);
		e->touched = xreallocarray(NULL, e->touched_cap,
		    sizeof(*e->touched));
		e->ucaller = xreallocarray(NULL, e->touched_cap,
		    sizeof(*e->ucaller));
	}
	e->ntouched = 0;
	for (j = 0; j < e->nact; j++) {
		k = e->act[j];
		if (c[k] < e->min[k]) {
			/* Up whole: only the costliest caller. */
			if ((b = flame_best_small(e, (uint32_t)fn, k, lo,
			    hi, &caller)) == hi) {
				ends[nend++] = k;	/* ends here */
				continue;
			}
		} else if (ncand == 0) {
			ends[nend++] = k;
			continue;
		} else {
			flame_weigh(e, k, lo, hi);
			if (ncand > 1) {
				flame_share(e, k, c[k], lo, hi, ncand);
				c[k] = 0;
				continue;
			}
			b = flame_best(e, k, lo, hi);
			caller = e->calls[b].caller;
		}
		flame_give(e, b - lo, k, c[k], caller);
		c[k] = 0;
	}
	/* What is left in c ends here: those events, the act of the emit. */
	e->given = e->act;
	e->act = ends;
	if (nend > 0 && flame_emit(e, c, nend) == -1)
		return -1;
	for (j = 0; j < nend; j++)
		c[e->act[j]] = 0;
	/* Pushed in reverse: the first caller is walked first. */
	if (e->ntouched > 1)
		qsort(e->touched, e->ntouched, sizeof(*e->touched), flame_desc);
	for (j = 0; j < e->ntouched; j++) {
		i = e->touched[j];
		/* Only the events the piece came with went up. */
		flame_push(e, e->ucaller[i], e->up + i * nev, e->given,
		    e->nact, e->depth);
		for (b = 0; b < e->nact; b++)
			e->up[i * nev + e->given[b]] = 0;
		e->mark[i] = 0;
	}
	return 0;
}

/*
 * Add count of event k to what goes up to caller, of the step's i-th
 * call, marking it given some.
 */
static void
flame_give(struct fest *e, size_t i, unsigned k, uint64_t count,
    uint32_t caller)
{
	if (count == 0)
		return;
	e->up[i * e->nev + k] += count;
	if (!e->mark[i]) {
		e->mark[i] = 1;
		e->ucaller[i] = caller;
		e->touched[e->ntouched++] = (uint32_t)i;
	}
}

/* Order places, largest first. */
static int
flame_desc(const void *a, const void *b)
{
	uint32_t	x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x < y) - (x > y);
}

/*
 * Return the self costs of events evs (nev) of p's functions, fn * nev + k:
 * the lines' costs summed by function (each (function, file) pair's row
 * is its function's).
 */
static uint64_t *
flame_self(const struct profile *p, const unsigned *evs, unsigned nev)
{
	uint64_t	*self;
	uint32_t	 nf = profile_nfuncs(p), np = profile_npairs(p), i, fn;
	uint32_t	 file, *row;

	self = xcalloc(((size_t)nf + 1) * nev, sizeof(*self));
	row = xreallocarray(NULL, (size_t)np + 1, sizeof(*row));
	for (i = 0; i < np; i++) {
		profile_pair(p, i, &fn, &file);
		row[i] = fn;
	}
	(void)profile_lines_sum_evs(p, row, nf, evs, nev, self); /* saturated */
	free(row);
	return self;
}

/*
 * Gather into e the calls into each function per caller (recursive
 * calls left out), summed over call sites, by callee: e->first[fn] is
 * the first of fn's.
 */
static void
flame_calls(struct fest *e, const struct profile *p, const unsigned *evs)
{
	size_t		 nf = profile_nfuncs(p), nc = 0, i, k;
	uint32_t	 fn, callee, caller, file, *order;
	uint64_t	 w, line, *cost, *key;
	unsigned	 nev = e->nev, j;

	e->calls = xreallocarray(NULL, profile_narcs(p) + 1,
	    sizeof(*e->calls));
	cost = xreallocarray(NULL, ((size_t)profile_narcs(p) + 1) * nev,
	    sizeof(*cost));
	order = xreallocarray(NULL, profile_narcs(p) + 1, sizeof(*order));
	key = xreallocarray(NULL, profile_narcs(p) + 1, sizeof(*key));
	for (i = 0; i < profile_narcs(p); i++) {
		profile_arc(p, (uint32_t)i, &caller, &callee, &file, &line);
		if (caller == callee)
			continue;
		e->calls[nc].callee = callee;
		e->calls[nc].caller = caller;
		e->calls[nc].count = profile_arc_count(p, (uint32_t)i);
		key[nc] = (uint64_t)callee << 32 | caller;
		for (j = 0; j < nev; j++) {
			w = profile_arc_cost(p, (uint32_t)i)[evs[j]];
			cost[nc * nev + j] = w == COST_NONE ? 0 : w;
		}
		nc++;
	}
	/*
	 * Sorted as indices, by callee and caller: each call's costs stay
	 * where they are.  A radix sort (cc1plus's 180,000 calls: 25 ms by
	 * qsort()); which of a pair's calls comes first changes no sum.
	 */
	sort_index_u64(key, (uint32_t)nc, order);
	free(key);
	e->cost = xreallocarray(NULL, nc * nev + 1, sizeof(*e->cost));
	{
		struct fcall	*sorted = xreallocarray(NULL, nc + 1,
				    sizeof(*sorted));

		for (i = k = 0; i < nc; i++) {
			const struct fcall *c = &e->calls[order[i]];

			if (k > 0 && sorted[k - 1].callee == c->callee &&
			    sorted[k - 1].caller == c->caller) {
				for (j = 0; j < nev; j++)
					cost_add1(&e->cost[(k - 1) * nev + j],
					    cost[order[i] * nev + j]);
				cost_add1(&sorted[k - 1].count, c->count);
				continue;
			}
			sorted[k] = *c;
			for (j = 0; j < nev; j++)
				e->cost[k * nev + j] = cost[order[i] * nev + j];
			k++;
		}
		free(e->calls);
		e->calls = sorted;
	}
	free(order);
	free(cost);
	nc = k;
	e->ncalls = nc;
	e->nf = nf;
	e->first = xcalloc(nf + 1, sizeof(*e->first));
	for (i = 0; i < nc; i++)
		e->first[e->calls[i].callee + 1]++;
	for (fn = 0; fn < nf; fn++)
		e->first[fn + 1] += e->first[fn];
}

/*
 * Order each callee's calls in e by each event's cost and by count,
 * largest first, then by place: the order flame_best() chooses in.
 */
static void
flame_order(struct fest *e)
{
	size_t		 nc = e->ncalls, i, n;
	uint32_t	 fn, *ord;
	unsigned	 k;

	e->bycost = xreallocarray(NULL, nc * e->nev + 1, sizeof(*e->bycost));
	e->bycount = xreallocarray(NULL, nc + 1, sizeof(*e->bycount));
	for (i = 0; i < nc; i++)
		e->bycount[i] = (uint32_t)i;
	for (k = 0; k < e->nev; k++)
		memcpy(e->bycost + k * nc, e->bycount, nc *
		    sizeof(*e->bycost));
	for (fn = 0; fn < e->nf; fn++) {
		if ((n = e->first[fn + 1] - e->first[fn]) < 2)
			continue;
		flame_sortby(e->bycount + e->first[fn], n,
		    (const unsigned char *)e->calls +
		    offsetof(struct fcall, count), sizeof(*e->calls));
		for (k = 0; k < e->nev; k++) {
			ord = e->bycost + k * nc + e->first[fn];
			/* The event's column: ids carry it in their order. */
			for (i = 0; i < n; i++)
				ord[i] = (uint32_t)((e->first[fn] + i) *
				    e->nev + k);
			flame_sortby(ord, n, (const unsigned char *)e->cost,
			    sizeof(*e->cost));
			for (i = 0; i < n; i++)
				ord[i] /= e->nev;
		}
	}
	e->top = xreallocarray(NULL, e->nf * e->nev + 1, sizeof(*e->top));
	e->ctop = xreallocarray(NULL, e->nf + 1, sizeof(*e->ctop));
	e->fcaller = xreallocarray(NULL, e->nf + 1, sizeof(*e->fcaller));
	for (fn = 0; fn < e->nf; fn++) {
		e->fcaller[fn] = e->first[fn] < e->first[fn + 1] ?
		    e->calls[e->first[fn]].caller : 0;
		e->ctop[fn].call = e->ctop[fn].caller = 0;
		e->ctop[fn].costs = 1;
		if (e->first[fn] < e->first[fn + 1]) {
			e->ctop[fn].call = e->bycount[e->first[fn]];
			e->ctop[fn].caller = e->calls[e->ctop[fn].call].caller;
		}
		for (k = 0; k < e->nev; k++) {
			struct ftop	*t = &e->top[(size_t)fn * e->nev + k];

			if (e->first[fn] == e->first[fn + 1]) {
				t->call = t->caller = t->costs = 0;
				continue;
			}
			t->call = e->bycost[k * nc + e->first[fn]];
			t->caller = e->calls[t->call].caller;
			t->costs = e->cost[(size_t)t->call * e->nev + k] > 0;
		}
	}
}

/* Return the count of id that calls are ordered by (key_base). */
static uint64_t
flame_key(uint32_t id)
{
	return *(const uint64_t *)(const void *)(key_base + (size_t)id *
	    key_stride);
}

/* Order ids by their counts (flame_key()), largest first, then by id. */
static int
flame_keycmp(const void *a, const void *b)
{
	uint32_t	x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	uint64_t	kx = flame_key(x), ky = flame_key(y);

	if (kx != ky)
		return kx > ky ? -1 : 1;
	return (x > y) - (x < y);
}

/*
 * Order ids[0 .. n) by the count at base + id * stride bytes (a call's
 * count, or an event's cost of it), largest first, then by id: by
 * insertion up to FLAME_CALLS_FEW, the few calls into most functions (a
 * call of qsort() for each, once by count and once an event: the 100 MB
 * large-C++ synthetic's calls ordered in 22.5 ms, 12.7 so), else by
 * qsort().
 */
static void
flame_sortby(uint32_t *ids, size_t n, const unsigned char *base,
    size_t stride)
{
	size_t		i, j;
	uint32_t	v, u;
	uint64_t	kv, ku;

	key_base = base;
	key_stride = stride;
	if (n > FLAME_CALLS_FEW) {
		qsort(ids, n, sizeof(*ids), flame_keycmp);
		return;
	}
	for (i = 1; i < n; i++) {
		v = ids[i];
		kv = flame_key(v);
		for (j = i; j > 0; j--) {
			u = ids[j - 1];
			if ((ku = flame_key(u)) > kv || (ku == kv && u < v))
				break;
			ids[j] = u;
		}
		ids[j] = v;
	}
}

/*
 * Push onto e's work a piece going up to fn at depth: counts (one an
 * event), of which the nonzero of events ks (nks of them, in order; the
 * others all zero) are kept.
 */
static void
flame_push(struct fest *e, uint32_t fn, const uint64_t *counts,
    const uint32_t *ks, size_t nks, size_t depth)
{
	size_t		at = e->nwc, j;
	uint32_t	k;

	e->wc = xgrow(e->wc, &e->wc_cap, e->nwc + nks, sizeof(*e->wc));
	for (j = 0; j < nks; j++)
		if (counts[k = ks[j]] != 0)
			e->wc[e->nwc++] = (struct fcount){ k, counts[k] };
	flame_work(e, fn, at, depth);
}

/* Push onto e's work a piece going up to fn at depth: count of event k. */
static void
flame_push1(struct fest *e, uint32_t fn, unsigned k, uint64_t count,
    size_t depth)
{
	e->wc = xgrow(e->wc, &e->wc_cap, e->nwc + 1, sizeof(*e->wc));
	e->wc[e->nwc++] = (struct fcount){ k, count };
	flame_work(e, fn, e->nwc - 1, depth);
}

/*
 * Push onto e's work the piece going up to fn at depth whose counts are
 * e->wc[at] on.
 */
static void
flame_work(struct fest *e, uint32_t fn, size_t at, size_t depth)
{
	/* What its step will look at first (see flame_best_small()). */
	__builtin_prefetch(&e->top[(size_t)fn * e->nev]);
	__builtin_prefetch(&e->top[(size_t)fn * e->nev + e->nev - 1]);
	__builtin_prefetch(&e->first[fn]);
	e->work = xgrow(e->work, &e->work_cap, e->nwork + 1,
	    sizeof(*e->work));
	e->work[e->nwork].fn = fn;
	e->work[e->nwork].depth = depth;
	e->work[e->nwork].at = at;
	e->work[e->nwork++].n = e->nwc - at;
}

/*
 * Choose the callers the function on top of e's path goes up through,
 * of its calls lo..hi: e->skip marks the others.  A caller on the stack
 * is left out, and so is a caller whose own callers are all on the stack
 * (it would end the stack in the middle of a cycle) while another caller
 * goes on.  Return how many are left.
 */
static size_t
flame_callers(struct fest *e, size_t lo, size_t hi)
{
	size_t	i, open = 0, ncand;

	/* 1: on the stack; 2: closed; 0: open. */
	e->skip = xgrow(e->skip, &e->skip_cap, hi - lo + 1, 1);
	for (i = lo; i < hi; i++) {
		e->skip[i - lo] = e->onpath[e->calls[i].caller] ? 1 :
		    flame_closed(e, e->calls[i].caller) ? 2 : 0;
		if (e->skip[i - lo] == 0)
			open++;
	}
	ncand = open;
	for (i = lo; i < hi; i++)
		if (e->skip[i - lo] == 2) {
			e->skip[i - lo] = open > 0;
			if (open == 0)
				ncand++;
		}
	return ncand;
}

/*
 * Weigh the callers flame_callers() left for event k: e->sum is their
 * weight, in costs, or in counts (e->counts) if their costs are all zero.
 */
static void
flame_weigh(struct fest *e, unsigned k, size_t lo, size_t hi)
{
	size_t	i;

	e->sum = 0;
	e->counts = 0;
	for (i = lo; i < hi; i++)
		if (!e->skip[i - lo])
			cost_add1(&e->sum, e->cost[i * e->nev + k]);
	if (e->sum == 0) {
		e->counts = 1;
		for (i = lo; i < hi; i++)
			if (!e->skip[i - lo])
				cost_add1(&e->sum, e->calls[i].count);
	}
}

/*
 * Return the costliest caller left of calls lo..hi for event k (the first
 * of equals), weighed as flame_weigh() said.
 */
static size_t
flame_best(const struct fest *e, unsigned k, size_t lo, size_t hi)
{
	size_t		best = hi, i;
	uint64_t	w, bw = 0;

	for (i = lo; i < hi; i++) {
		if (e->skip[i - lo])
			continue;
		w = e->counts ? e->calls[i].count : e->cost[i * e->nev + k];
		if (best == hi || w > bw) {
			best = i;
			bw = w;
		}
	}
	return best;
}

/*
 * Return the first of calls lo..hi in order ord (lo..hi of it) whose
 * caller is not on e's path and, with open set, not closed (all its
 * callers on the path); hi if there is none.
 */
static size_t
flame_first(const struct fest *e, const uint32_t *ord, size_t lo, size_t hi,
    int open)
{
	size_t		i;
	uint32_t	c;

	for (i = lo; i < hi; i++) {
		c = e->calls[ord[i]].caller;
		if (!e->onpath[c] && (!open || !flame_closed(e, c)))
			return ord[i];
	}
	return hi;
}

/*
 * Return the caller, of calls lo..hi, that event k's share below
 * e->min[k] goes up through: the one flame_callers(), flame_weigh() and
 * flame_best() would choose, found by looking at the callers from the
 * costliest down and stopping at the first that qualifies; hi if none
 * does.  The callers left are those not closed if there is one, else all
 * off the path; their counts weigh them if their costs are all zero.
 */
static size_t
flame_best_small(const struct fest *e, uint32_t fn, unsigned k, size_t lo,
    size_t hi, uint32_t *caller)
{
	const uint32_t	*ord = e->bycost + (size_t)k * e->ncalls;
	const struct ftop *t = &e->top[(size_t)fn * e->nev + k];
	const struct ftop *ct = &e->ctop[fn];
	size_t		 best;
	int		 open = 1;

	/*
	 * Most often the costliest caller (or the most frequent, if it
	 * costs nothing): found without the tables.
	 */
	if (lo < hi && !e->onpath[t->caller] && !flame_closed(e, t->caller)) {
		if (t->costs) {
			*caller = t->caller;
			return t->call;
		}
		if (!e->onpath[ct->caller] && !flame_closed(e, ct->caller)) {
			*caller = ct->caller;
			return ct->call;
		}
		best = flame_first(e, e->bycount, lo, hi, 1);
		*caller = e->calls[best].caller;
		return best;
	}
	if ((best = flame_first(e, ord, lo, hi, 1)) == hi) {
		open = 0;
		if ((best = flame_first(e, ord, lo, hi, 0)) == hi)
			return hi;
	}
	if (e->cost[best * e->nev + k] == 0)
		best = flame_first(e, e->bycount, lo, hi, open);
	*caller = e->calls[best].caller;
	return best;
}

/* The remainders of a share, for flame_remcmp(). */
static const u128	*rem_of;

/* Order callers by remainder, largest first, then by place: a total order. */
static int
flame_remcmp(const void *a, const void *b)
{
	size_t	x = *(const size_t *)a, y = *(const size_t *)b;

	if (rem_of[x] != rem_of[y])
		return rem_of[x] > rem_of[y] ? -1 : 1;
	return (x > y) - (x < y);
}

/*
 * Share event k's count among the ncand callers left of calls lo..hi
 * by their weight (flame_weigh(); a count or cost never recorded weighs
 * nothing): shares rounded down, the rest, fewer than the callers, one
 * each to the largest remainders; each share added to what goes up to
 * its caller (e->up).  The weights are summed in 128 bits: a sum kept at
 * the maximum made the shares more than the count, and the rest,
 * wrapped, was given out one at a time for ever (a hostile profile's
 * calls near 2^64).
 */
static void
flame_share(struct fest *e, unsigned k, uint64_t count, size_t lo, size_t hi,
    size_t ncand)
{
	uint64_t	w, left = count;
	u128		sum = 0;
	size_t		i, n, *order;

	e->rem = xgrow(e->rem, &e->rem_cap, hi - lo + 1, sizeof(*e->rem));
	e->shares = xgrow(e->shares, &e->shares_cap, hi - lo + 1,
	    sizeof(*e->shares));
	for (i = lo; i < hi; i++)
		if (!e->skip[i - lo] && (w = e->counts ? e->calls[i].count :
		    e->cost[i * e->nev + k]) != COST_NONE)
			sum += w;
	for (i = lo; i < hi; i++) {
		e->rem[i - lo] = 0;
		e->shares[i - lo] = 0;
		if (e->skip[i - lo])
			continue;
		w = e->counts ? e->calls[i].count : e->cost[i * e->nev + k];
		if (w == COST_NONE)
			w = 0;
		if (sum == 0) {
			e->shares[i - lo] = count / ncand;
			e->rem[i - lo] = 1;
		} else {
			e->shares[i - lo] = (uint64_t)((u128)count * w / sum);
			e->rem[i - lo] = (u128)count * w % sum;
		}
		left -= e->shares[i - lo];
	}
	if (left > 0) {
		e->order = xgrow(e->order, &e->order_cap, hi - lo + 1,
		    sizeof(*e->order));
		order = e->order;
		for (i = lo, n = 0; i < hi; i++)
			if (!e->skip[i - lo])
				order[n++] = i - lo;
		/*
		 * The few callers most functions have (a call of qsort()
		 * a share was 3% of speedscope's export of cc1 with cache
		 * simulation).
		 */
		rem_of = e->rem;
		sort_few(order, n, sizeof(*order), flame_remcmp,
		    FLAME_SHARE_FEW);
		for (i = 0; i < n && left > 0; i++, left--)
			e->shares[order[i]]++;
	}
	for (i = lo; i < hi; i++)
		flame_give(e, i - lo, k, e->shares[i - lo], e->calls[i].caller);
}

/*
 * Return the stacks of events evs (nev of them) of profile p, made
 * together: the profile's own if it has them, else estimated from its
 * call graph, each event's as if made alone, estimated within budget
 * frames (0: FLAME_BUDGET, the most); NULL if making them walks more than
 * FLAME_MAX_FRAMES frames.
 */
struct flame *
flame_build(const struct profile *p, const unsigned *evs, unsigned nev,
    uint64_t budget)
{
	const struct stacks	*st = profile_stacks(p);
	const uint32_t		*fr;
	struct flame		*f;
	uint64_t		*c;
	uint32_t		*act;
	size_t			 i, n, nact;
	unsigned		 k;

	f = xcalloc(1, sizeof(*f));
	f->nev = nev;
	f->budget = budget > 0 && budget < FLAME_BUDGET ? budget : FLAME_BUDGET;
	f->limit = FLAME_MAX_FRAMES * (nev < FLAME_MAX_EVENTS ? (nev > 0 ?
	    nev : 1) : FLAME_MAX_EVENTS);
	f->walked_ev = xcalloc(nev + 1, sizeof(*f->walked_ev));
	keytab_init(&f->nodes, 1);
	f->hint = xgrow(NULL, &f->hint_cap, 2, sizeof(*f->hint));
	f->hint[0] = 0;
	if (st != NULL && stacks_count(st) > 0) {
		f->exact = 1;
		c = xreallocarray(NULL, nev + 1, sizeof(*c));
		act = xreallocarray(NULL, nev + 1, sizeof(*act));
		for (i = 0; i < stacks_count(st); i++) {
			for (k = 0, nact = 0; k < nev; k++) {
				c[k] = stacks_cost(st, i)[evs[k]];
				if (c[k] != COST_NONE && c[k] != 0)
					act[nact++] = k;
			}
			if (nact == 0)
				continue;
			fr = stacks_frames(st, i, &n);
			if (flame_add(f, fr, n, 0, c, act, nact) == -1)
				break;
		}
		free(act);
		free(c);
	} else {
		flame_estimate(f, p, evs);
		/* No call at all: each function its own stack, exact. */
		f->exact = profile_narcs(p) == 0;
	}
	if (f->walked > f->limit) {
		flame_free(f);
		return NULL;
	}
	flame_ends(f);
	flame_index(f);
	return f;
}

/* Free stacks. */
void
flame_free(struct flame *f)
{
	if (f == NULL)
		return;
	keytab_free(&f->nodes);
	free(f->ends);
	free(f->endat);
	free(f->evnodes);
	free(f->evat);
	free(f->last);
	free(f->hint);
	free(f->walked_ev);
	free(f);
}
