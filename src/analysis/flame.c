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
#include "compat.h"

#include <stdlib.h>
#include <string.h>

#include "cost.h"
#include "flame.h"
#include "profile.h"
#include "stacks.h"
#include "xmalloc.h"

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

static int	flame_callcmp(const void *, const void *);
static int	flame_add(struct flame *, const uint32_t *, size_t, int,
		    uint64_t);
static void	flame_estimate(struct flame *, const struct profile *,
		    unsigned);
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
 * innermost first), making the nodes of the tree it needs.  Return -1,
 * adding nothing and marking f over the limit (walked above it), if that
 * walks more than FLAME_MAX_FRAMES in all.
 */
static int
flame_add(struct flame *f, const uint32_t *frames, size_t n, int rev,
    uint64_t count)
{
	uint64_t	key[2];
	uint32_t	cur = 0, id;
	size_t		i;
	int		created;

	if (f->walked + n > FLAME_MAX_FRAMES ||
	    flame_nnodes(f) + n >= KEYTAB_NONE) {
		f->walked = FLAME_MAX_FRAMES + 1;
		return -1;
	}
	f->walked += n;
	for (i = 0; i < n; i++) {
		key[0] = cur;
		key[1] = rev ? frames[n - 1 - i] : frames[i];
		id = keytab_get(&f->nodes, key, &created);
		cur = id + 1;
		if (created) {
			f->count = xgrow(f->count, &f->cap, (size_t)cur + 1,
			    sizeof(*f->count));
			f->count[cur] = 0;
		}
	}
	f->count[cur] += count;
	return 0;
}

/* The stacks of profile p, estimated from its call graph (see above). */
static void
flame_estimate(struct flame *f, const struct profile *p, unsigned ev)
{
	struct fcall	*calls;
	struct fwork	*work = NULL;
	uint64_t	*self, *cost, total = 0, min, w, sum, left;
	uint32_t	*first, *path, fn, callee, caller, file;
	unsigned char	*onpath;
	size_t		 nf = profile_nfuncs(p), nc = 0, i, k, nwork = 0,
			 work_cap = 0, depth = 0, lo, hi, best, ncand;
	uint64_t	 line;
	int		 counts;
	u128		*rem = NULL;
	uint64_t	*shares = NULL;
	unsigned char	*skip = NULL;
	size_t		 rem_cap = 0, shares_cap = 0, skip_cap = 0;

	/* Self costs. */
	self = xcalloc(nf + 1, sizeof(*self));
	cost = xreallocarray(NULL, profile_nevents(p), sizeof(*cost));
	for (i = 0; i < profile_nlines(p); i++) {
		profile_line(p, (uint32_t)i, &fn, &file, &line);
		profile_line_cost(p, (uint32_t)i, cost);
		if (cost[ev] != COST_NONE)
			cost_add1(&self[fn], cost[ev]);
	}
	free(cost);
	for (fn = 0; fn < nf; fn++)
		cost_add1(&total, self[fn]);
	min = total / FLAME_SPLIT > 0 ? total / FLAME_SPLIT : 1;

	/* The calls into each function, per caller. */
	calls = xreallocarray(NULL, profile_narcs(p) + 1, sizeof(*calls));
	for (i = 0; i < profile_narcs(p); i++) {
		profile_arc(p, (uint32_t)i, &caller, &callee, &file, &line);
		if (caller == callee)
			continue;
		calls[nc].callee = callee;
		calls[nc].caller = caller;
		w = profile_arc_cost(p, (uint32_t)i)[ev];
		calls[nc].cost = w == COST_NONE ? 0 : w;
		calls[nc].count = profile_arc_count(p, (uint32_t)i);
		nc++;
	}
	if (nc > 1)
		qsort(calls, nc, sizeof(*calls), flame_callcmp);
	for (i = k = 0; i < nc; i++) {
		if (k > 0 && calls[k - 1].callee == calls[i].callee &&
		    calls[k - 1].caller == calls[i].caller) {
			cost_add1(&calls[k - 1].cost, calls[i].cost);
			cost_add1(&calls[k - 1].count, calls[i].count);
			continue;
		}
		calls[k++] = calls[i];
	}
	nc = k;
	first = xcalloc(nf + 1, sizeof(*first));
	for (i = 0; i < nc; i++)
		first[calls[i].callee + 1]++;
	for (fn = 0; fn < nf; fn++)
		first[fn + 1] += first[fn];

	/* Each function's self cost, walked up depth first. */
	path = xreallocarray(NULL, nf + 1, sizeof(*path));
	onpath = xcalloc(nf + 1, 1);
	for (fn = 0; fn < nf; fn++) {
		if (self[fn] == 0)
			continue;
		nwork = 0;
		work = xgrow(work, &work_cap, 1, sizeof(*work));
		work[nwork].fn = fn;
		work[nwork].count = self[fn];
		work[nwork++].depth = 0;
		depth = 0;
		while (nwork > 0) {
			struct fwork	it = work[--nwork];

			if (++f->walked > FLAME_MAX_FRAMES)
				goto done;
			/* Leave the frames below this one's depth. */
			while (depth > it.depth)
				onpath[path[--depth]] = 0;
			path[depth++] = it.fn;
			onpath[it.fn] = 1;
			lo = first[it.fn];
			hi = first[it.fn + 1];
			skip = xgrow(skip, &skip_cap, hi - lo + 1, 1);
			/*
			 * The callers not on the stack, and their weight.  A
			 * caller whose own callers are all on the stack would
			 * end it in the middle of a cycle: it is left out
			 * while another caller goes on.
			 */
			for (i = lo; i < hi; i++)
				skip[i - lo] = onpath[calls[i].caller];
			ncand = 0;
			for (i = lo; i < hi; i++)
				if (!skip[i - lo] && !flame_closed(calls, first,
				    onpath, calls[i].caller))
					ncand++;
			if (ncand > 0)
				for (i = lo; i < hi; i++)
					if (!skip[i - lo] && flame_closed(calls,
					    first, onpath, calls[i].caller))
						skip[i - lo] = 1;
			sum = 0;
			ncand = 0;
			counts = 0;
			for (i = lo; i < hi; i++)
				if (!skip[i - lo]) {
					ncand++;
					cost_add1(&sum, calls[i].cost);
				}
			if (ncand > 0 && sum == 0) {
				counts = 1;
				for (i = lo; i < hi; i++)
					if (!skip[i - lo])
						cost_add1(&sum, calls[i].count);
			}
			if (ncand == 0) {
				if (flame_add(f, path, depth, 1, it.count) == -1)
					goto done;
				continue;
			}
			work = xgrow(work, &work_cap, nwork + ncand + 1,
			    sizeof(*work));
			if (it.count < min || ncand == 1) {
				/* Whole, through the costliest caller. */
				best = hi;
				for (i = lo; i < hi; i++) {
					if (skip[i - lo])
						continue;
					w = counts ? calls[i].count :
					    calls[i].cost;
					if (best == hi || w > (counts ?
					    calls[best].count :
					    calls[best].cost))
						best = i;
				}
				work[nwork].fn = calls[best].caller;
				work[nwork].count = it.count;
				work[nwork++].depth = depth;
				continue;
			}
			/* Shares rounded down, the rest by remainders. */
			rem = xgrow(rem, &rem_cap, hi - lo + 1, sizeof(*rem));
			shares = xgrow(shares, &shares_cap, hi - lo + 1,
			    sizeof(*shares));
			left = it.count;
			for (i = lo; i < hi; i++) {
				rem[i - lo] = 0;
				shares[i - lo] = 0;
				if (skip[i - lo])
					continue;
				w = sum == 0 ? 1 : counts ? calls[i].count :
				    calls[i].cost;
				if (sum == 0) {
					shares[i - lo] = it.count / ncand;
					rem[i - lo] = 1;
				} else {
					shares[i - lo] = (uint64_t)((u128)
					    it.count * w / sum);
					rem[i - lo] = (u128)it.count * w % sum;
				}
				left -= shares[i - lo];
			}
			while (left > 0) {
				best = hi;
				for (i = lo; i < hi; i++)
					if (!skip[i - lo] &&
					    (best == hi || rem[i - lo] >
					    rem[best - lo]))
						best = i;
				shares[best - lo]++;
				rem[best - lo] = 0;
				left--;
			}
			/* Pushed in reverse: the first caller is walked first. */
			for (i = hi; i-- > lo; ) {
				if (skip[i - lo] ||
				    shares[i - lo] == 0)
					continue;
				work[nwork].fn = calls[i].caller;
				work[nwork].count = shares[i - lo];
				work[nwork++].depth = depth;
			}
		}
		while (depth > 0)
			onpath[path[--depth]] = 0;
	}
done:
	/* Over the limit, f->walked says so. */
	free(work);
	free(rem);
	free(shares);
	free(skip);
	free(onpath);
	free(path);
	free(first);
	free(calls);
	free(self);
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
	} else
		flame_estimate(f, p, ev);
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
	free(f);
}
