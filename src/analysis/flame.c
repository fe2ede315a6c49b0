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
 * than a hundred-thousandth of the total is not split further but goes
 * up whole through the costliest caller at each level.  With
 * --separate-callers, the functions are caller contexts, whose calls
 * come only from their callers' contexts: the stacks are exact as far as
 * the contexts reach.
 */
#include "base/compat.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/flame.h"
#include "base/cost.h"
#include "base/xmalloc.h"
#include "model/profile.h"
#include "model/stacks.h"

#define FLAME_SPLIT	100000	/* shares below total / this go up whole */

/* The calls into a function from one caller, summed. */
struct fcall {
	uint32_t	 callee, caller;
	uint64_t	 cost, count;
};

/* A piece of a function's cost on its way up: work for the walk. */
struct fwork {
	uint32_t	 fn;
	uint64_t	 count;
	size_t		 depth;
};

/* Exact sums of a count times a weight. */
__extension__ typedef unsigned __int128 u128;

/* The walk of flame_estimate(): the calls, the stack, the work left. */
struct fest {
	struct fcall	*calls;		/* by callee, then caller, */
	uint32_t	*first;		/*   each callee's first, */
	uint32_t	*bycost;	/*   each callee's in the order of */
	uint32_t	*bycount;	/*   flame_best(): by cost or count,
					   largest first, then by place */
	uint64_t	 min;		/* a count below it goes up whole */
	uint32_t	*path;		/* the stack walked, */
	unsigned char	*onpath;	/*   its functions, */
	size_t		 depth;		/*   its depth */
	struct fwork	*work;
	size_t		 nwork, work_cap;
	unsigned char	*skip;		/* callers left out, */
	uint64_t	 sum;		/*   the weight of the others (0:
					   none, at most 2^64 - 1), */
	int		 counts;	/*   in call counts */
	u128		*rem;		/* shares and remainders */
	uint64_t	*shares;
	size_t		 skip_cap, rem_cap, shares_cap;
};

/* The calls being ordered, for flame_costcmp() and flame_countcmp(). */
static const struct fcall	*calls_of;

static int	flame_callcmp(const void *, const void *);
static int	flame_add(struct flame *, const uint32_t *, size_t, int,
		    uint64_t);
static void	flame_estimate(struct flame *, const struct profile *,
		    unsigned);
static uint64_t	*flame_self(const struct profile *, unsigned);
static void	flame_calls(struct fest *, const struct profile *, unsigned);
static void	flame_push(struct fest *, uint32_t, uint64_t, size_t);
static size_t	flame_callers(struct fest *, size_t, size_t);
static size_t	flame_best(const struct fest *, size_t, size_t);
static size_t	flame_best_small(const struct fest *, size_t, size_t);
static size_t	flame_first(const struct fest *, const uint32_t *, size_t,
		    size_t, int);
static int	flame_costcmp(const void *, const void *);
static int	flame_countcmp(const void *, const void *);
static int	flame_remcmp(const void *, const void *);
static void	flame_share(struct fest *, const struct fwork *, size_t,
		    size_t, size_t);
static int	flame_closed(const struct fcall *, const uint32_t *,
		    const unsigned char *, uint32_t);

/*
 * Return nonzero if function fn is called, but only by functions on the
 * stack (onpath) or by itself: walking up through it would stop there.
 */
static int
flame_closed(const struct fcall *calls, const uint32_t *first,
    const unsigned char *onpath, uint32_t fn)
{
	uint32_t	i;

	if (first[fn] == first[fn + 1])
		return 0;
	for (i = first[fn]; i < first[fn + 1]; i++)
		if (!onpath[calls[i].caller] && calls[i].caller != fn)
			return 0;
	return 1;
}

/* Order calls by callee, then caller. */
static int
flame_callcmp(const void *a, const void *b)
{
	const struct fcall	*x = a, *y = b;

	if (x->callee != y->callee)
		return x->callee < y->callee ? -1 : 1;
	return (x->caller > y->caller) - (x->caller < y->caller);
}

/*
 * Add count to the stack of n frames (with rev set, frames[] is the
 * innermost first), making the nodes of the tree it needs.  The frames
 * it shares from the root with the stack added before are found again
 * without a lookup (f->last).  Return -1, adding nothing and marking f
 * over the limit (walked above it), if that walks more than
 * FLAME_MAX_FRAMES in all.
 */
static int
flame_add(struct flame *f, const uint32_t *frames, size_t n, int rev,
    uint64_t count)
{
	uint64_t	key[2];
	uint32_t	cur = 0, id, fn;
	size_t		i;
	int		created;

	if (f->walked + n > FLAME_MAX_FRAMES ||
	    flame_nnodes(f) + n >= KEYTAB_NONE) {
		f->walked = FLAME_MAX_FRAMES + 1;
		return -1;
	}
	f->walked += n;
	f->last = xgrow(f->last, &f->last_cap, 2 * n + 2, sizeof(*f->last));
	for (i = 0; i < n; i++) {
		fn = rev ? frames[n - 1 - i] : frames[i];
		if (i < f->nlast && f->last[2 * i] == fn) {
			cur = f->last[2 * i + 1];
			continue;
		}
		f->nlast = i;	/* shared no further */
		key[0] = cur;
		key[1] = fn;
		id = keytab_get(&f->nodes, key, &created);
		cur = id + 1;
		if (created) {
			f->count = xgrow(f->count, &f->cap, (size_t)cur + 1,
			    sizeof(*f->count));
			f->count[cur] = 0;
		}
		f->last[2 * i] = fn;
		f->last[2 * i + 1] = cur;
	}
	f->nlast = n;
	f->count[cur] += count;
	return 0;
}

/* The stacks of profile p, estimated from its call graph (see above). */
static void
flame_estimate(struct flame *f, const struct profile *p, unsigned ev)
{
	struct fest	 e;
	uint64_t	*self, total = 0;
	size_t		 nf = profile_nfuncs(p), lo, hi, ncand, best;
	uint32_t	 fn;

	memset(&e, 0, sizeof(e));
	self = flame_self(p, ev);
	for (fn = 0; fn < nf; fn++)
		cost_add1(&total, self[fn]);
	e.min = total / FLAME_SPLIT > 0 ? total / FLAME_SPLIT : 1;
	flame_calls(&e, p, ev);

	/* Each function's self cost, walked up depth first. */
	e.path = xreallocarray(NULL, nf + 1, sizeof(*e.path));
	e.onpath = xcalloc(nf + 1, 1);
	for (fn = 0; fn < nf; fn++) {
		if (self[fn] == 0)
			continue;
		e.nwork = 0;
		flame_push(&e, fn, self[fn], 0);
		e.depth = 0;
		while (e.nwork > 0) {
			struct fwork	it = e.work[--e.nwork];

			if (++f->walked > FLAME_MAX_FRAMES)
				goto done;
			/* Leave the frames below this one's depth. */
			while (e.depth > it.depth)
				e.onpath[e.path[--e.depth]] = 0;
			e.path[e.depth++] = it.fn;
			e.onpath[it.fn] = 1;
			lo = e.first[it.fn];
			hi = e.first[it.fn + 1];
			if (it.count < e.min) {
				/* Up whole: only the costliest caller. */
				if ((best = flame_best_small(&e, lo, hi)) < hi) {
					flame_push(&e, e.calls[best].caller,
					    it.count, e.depth);
					continue;
				}
				ncand = 0;
			} else
				ncand = flame_callers(&e, lo, hi);
			if (ncand == 0) {
				if (flame_add(f, e.path, e.depth, 1,
				    it.count) == -1)
					goto done;
				continue;
			}
			if (ncand == 1)
				flame_push(&e, e.calls[flame_best(&e, lo,
				    hi)].caller, it.count, e.depth);
			else
				flame_share(&e, &it, lo, hi, ncand);
		}
		while (e.depth > 0)
			e.onpath[e.path[--e.depth]] = 0;
	}
done:
	/* Over the limit, f->walked says so. */
	free(e.work);
	free(e.rem);
	free(e.shares);
	free(e.skip);
	free(e.onpath);
	free(e.path);
	free(e.first);
	free(e.bycost);
	free(e.bycount);
	free(e.calls);
	free(self);
}

/* Return the self costs of event ev of p's functions, one more slot. */
static uint64_t *
flame_self(const struct profile *p, unsigned ev)
{
	uint64_t	*self, *cost, line;
	uint32_t	 fn, file;
	size_t		 i;

	self = xcalloc(profile_nfuncs(p) + 1, sizeof(*self));
	cost = xreallocarray(NULL, profile_nevents(p), sizeof(*cost));
	for (i = 0; i < profile_nlines(p); i++) {
		profile_line(p, (uint32_t)i, &fn, &file, &line);
		profile_line_cost(p, (uint32_t)i, cost);
		if (cost[ev] != COST_NONE)
			cost_add1(&self[fn], cost[ev]);
	}
	free(cost);
	return self;
}

/*
 * Gather into e the calls into each function per caller (recursive
 * calls left out), summed over call sites, by callee: e->first[fn] is
 * the first of fn's.
 */
static void
flame_calls(struct fest *e, const struct profile *p, unsigned ev)
{
	size_t		 nf = profile_nfuncs(p), nc = 0, i, k;
	uint32_t	 fn, callee, caller, file;
	uint64_t	 w, line;

	e->calls = xreallocarray(NULL, profile_narcs(p) + 1,
	    sizeof(*e->calls));
	for (i = 0; i < profile_narcs(p); i++) {
		profile_arc(p, (uint32_t)i, &caller, &callee, &file, &line);
		if (caller == callee)
			continue;
		e->calls[nc].callee = callee;
		e->calls[nc].caller = caller;
		w = profile_arc_cost(p, (uint32_t)i)[ev];
		e->calls[nc].cost = w == COST_NONE ? 0 : w;
		e->calls[nc].count = profile_arc_count(p, (uint32_t)i);
		nc++;
	}
	if (nc > 1)
		qsort(e->calls, nc, sizeof(*e->calls), flame_callcmp);
	for (i = k = 0; i < nc; i++) {
		if (k > 0 && e->calls[k - 1].callee == e->calls[i].callee &&
		    e->calls[k - 1].caller == e->calls[i].caller) {
			cost_add1(&e->calls[k - 1].cost, e->calls[i].cost);
			cost_add1(&e->calls[k - 1].count, e->calls[i].count);
			continue;
		}
		e->calls[k++] = e->calls[i];
	}
	nc = k;
	e->first = xcalloc(nf + 1, sizeof(*e->first));
	for (i = 0; i < nc; i++)
		e->first[e->calls[i].callee + 1]++;
	for (fn = 0; fn < nf; fn++)
		e->first[fn + 1] += e->first[fn];
	e->bycost = xreallocarray(NULL, nc + 1, sizeof(*e->bycost));
	e->bycount = xreallocarray(NULL, nc + 1, sizeof(*e->bycount));
	for (i = 0; i < nc; i++)
		e->bycost[i] = e->bycount[i] = (uint32_t)i;
	calls_of = e->calls;
	for (fn = 0; fn < nf; fn++) {
		k = e->first[fn + 1] - e->first[fn];
		if (k < 2)
			continue;
		qsort(e->bycost + e->first[fn], k, sizeof(*e->bycost),
		    flame_costcmp);
		qsort(e->bycount + e->first[fn], k, sizeof(*e->bycount),
		    flame_countcmp);
	}
	calls_of = NULL;
}

/* Order calls (indices) by cost, largest first, then by place. */
static int
flame_costcmp(const void *a, const void *b)
{
	uint32_t	x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	if (calls_of[x].cost != calls_of[y].cost)
		return calls_of[x].cost > calls_of[y].cost ? -1 : 1;
	return (x > y) - (x < y);
}

/* Order calls (indices) by count, largest first, then by place. */
static int
flame_countcmp(const void *a, const void *b)
{
	uint32_t	x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	if (calls_of[x].count != calls_of[y].count)
		return calls_of[x].count > calls_of[y].count ? -1 : 1;
	return (x > y) - (x < y);
}

/* Push onto e's work a piece of count going up to fn at depth. */
static void
flame_push(struct fest *e, uint32_t fn, uint64_t count, size_t depth)
{
	e->work = xgrow(e->work, &e->work_cap, e->nwork + 1,
	    sizeof(*e->work));
	e->work[e->nwork].fn = fn;
	e->work[e->nwork].count = count;
	e->work[e->nwork++].depth = depth;
}

/*
 * Choose the callers the function on top of e's path goes up through,
 * of its calls lo..hi: e->skip marks the others, e->sum is the
 * callers' weight (costs, or counts if e->counts: the costs are all
 * zero).  A caller on the stack is left out, and so is a caller whose
 * own callers are all on the stack (it would end the stack in the middle
 * of a cycle) while another caller goes on.  Return how many are left.
 */
static size_t
flame_callers(struct fest *e, size_t lo, size_t hi)
{
	size_t	i, ncand = 0;

	e->skip = xgrow(e->skip, &e->skip_cap, hi - lo + 1, 1);
	for (i = lo; i < hi; i++)
		e->skip[i - lo] = e->onpath[e->calls[i].caller];
	for (i = lo; i < hi; i++)
		if (!e->skip[i - lo] && !flame_closed(e->calls, e->first,
		    e->onpath, e->calls[i].caller))
			ncand++;
	if (ncand > 0)
		for (i = lo; i < hi; i++)
			if (!e->skip[i - lo] && flame_closed(e->calls,
			    e->first, e->onpath, e->calls[i].caller))
				e->skip[i - lo] = 1;
	e->sum = 0;
	e->counts = 0;
	ncand = 0;
	for (i = lo; i < hi; i++)
		if (!e->skip[i - lo]) {
			ncand++;
			cost_add1(&e->sum, e->calls[i].cost);
		}
	if (ncand > 0 && e->sum == 0) {
		e->counts = 1;
		for (i = lo; i < hi; i++)
			if (!e->skip[i - lo])
				cost_add1(&e->sum, e->calls[i].count);
	}
	return ncand;
}

/* Return the costliest caller left of calls lo..hi (the first of equals). */
static size_t
flame_best(const struct fest *e, size_t lo, size_t hi)
{
	size_t		best = hi, i;
	uint64_t	w;

	for (i = lo; i < hi; i++) {
		if (e->skip[i - lo])
			continue;
		w = e->counts ? e->calls[i].count : e->calls[i].cost;
		if (best == hi || w > (e->counts ? e->calls[best].count :
		    e->calls[best].cost))
			best = i;
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
		if (!e->onpath[c] && (!open || !flame_closed(e->calls,
		    e->first, e->onpath, c)))
			return ord[i];
	}
	return hi;
}

/*
 * Return the caller, of calls lo..hi, that a share below e->min goes up
 * through: the one flame_callers() leaves and flame_best() chooses,
 * found by looking at the callers from the costliest down and stopping
 * at the first that qualifies; hi if none does.  The callers left are
 * those not closed if there is one, else all off the path; their
 * counts weigh them if their costs are all zero.
 */
static size_t
flame_best_small(const struct fest *e, size_t lo, size_t hi)
{
	size_t	best;
	int	open = 1;

	if ((best = flame_first(e, e->bycost, lo, hi, 1)) == hi) {
		open = 0;
		if ((best = flame_first(e, e->bycost, lo, hi, 0)) == hi)
			return hi;
	}
	if (e->calls[best].cost > 0)
		return best;
	return flame_first(e, e->bycount, lo, hi, open);
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
 * Share it->count among the ncand callers left of calls lo..hi by
 * their weight (a count or cost never recorded weighs nothing): shares
 * rounded down, the rest, fewer than the callers, one each to the
 * largest remainders; push them, the first caller to be walked first.
 * The weights are summed in 128 bits: a sum kept at the maximum made
 * the shares more than the count, and the rest, wrapped, was given out
 * one at a time for ever (a hostile profile's calls near 2^64).
 */
static void
flame_share(struct fest *e, const struct fwork *it, size_t lo, size_t hi,
    size_t ncand)
{
	uint64_t	w, left = it->count;
	u128		sum = 0;
	size_t		i, n, *order;

	e->rem = xgrow(e->rem, &e->rem_cap, hi - lo + 1, sizeof(*e->rem));
	e->shares = xgrow(e->shares, &e->shares_cap, hi - lo + 1,
	    sizeof(*e->shares));
	for (i = lo; i < hi; i++)
		if (!e->skip[i - lo] && (w = e->counts ? e->calls[i].count :
		    e->calls[i].cost) != COST_NONE)
			sum += w;
	for (i = lo; i < hi; i++) {
		e->rem[i - lo] = 0;
		e->shares[i - lo] = 0;
		if (e->skip[i - lo])
			continue;
		w = e->counts ? e->calls[i].count : e->calls[i].cost;
		if (w == COST_NONE)
			w = 0;
		if (sum == 0) {
			e->shares[i - lo] = it->count / ncand;
			e->rem[i - lo] = 1;
		} else {
			e->shares[i - lo] = (uint64_t)((u128)it->count * w /
			    sum);
			e->rem[i - lo] = (u128)it->count * w % sum;
		}
		left -= e->shares[i - lo];
	}
	if (left > 0) {
		order = xreallocarray(NULL, hi - lo + 1, sizeof(*order));
		for (i = lo, n = 0; i < hi; i++)
			if (!e->skip[i - lo])
				order[n++] = i - lo;
		rem_of = e->rem;
		qsort(order, n, sizeof(*order), flame_remcmp);
		for (i = 0; i < n && left > 0; i++, left--)
			e->shares[order[i]]++;
		free(order);
	}
	/* Pushed in reverse: the first caller is walked first. */
	for (i = hi; i-- > lo; ) {
		if (e->skip[i - lo] || e->shares[i - lo] == 0)
			continue;
		flame_push(e, e->calls[i].caller, e->shares[i - lo], e->depth);
	}
}

/*
 * Return the stacks of event ev of profile p: the profile's own if it
 * has them, else estimated from its call graph; NULL if making them
 * walks more than FLAME_MAX_FRAMES frames.
 */
struct flame *
flame_build(const struct profile *p, unsigned ev)
{
	const struct stacks	*st = profile_stacks(p);
	const uint32_t		*fr;
	struct flame		*f;
	uint64_t		 c;
	size_t			 i, n;

	f = xcalloc(1, sizeof(*f));
	keytab_init(&f->nodes, 2);
	f->count = xgrow(NULL, &f->cap, 1, sizeof(*f->count));
	f->count[0] = 0;
	if (st != NULL && stacks_count(st) > 0) {
		f->exact = 1;
		for (i = 0; i < stacks_count(st); i++) {
			c = stacks_cost(st, i)[ev];
			if (c == COST_NONE || c == 0)
				continue;
			fr = stacks_frames(st, i, &n);
			if (flame_add(f, fr, n, 0, c) == -1)
				break;
		}
	} else {
		flame_estimate(f, p, ev);
		/* No call at all: each function its own stack, exact. */
		f->exact = profile_narcs(p) == 0;
	}
	if (f->walked > FLAME_MAX_FRAMES) {
		flame_free(f);
		return NULL;
	}
	return f;
}

/* Free stacks. */
void
flame_free(struct flame *f)
{
	if (f == NULL)
		return;
	keytab_free(&f->nodes);
	free(f->count);
	free(f->last);
	free(f);
}
