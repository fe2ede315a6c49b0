/*
 * stacks.c - exact call stacks: each a run of function ids (outermost
 * first) in one growing array, with its cost vector, in the order read.
 */
#include "base/compat.h"

#include <stdlib.h>
#include <string.h>

#include "base/cost.h"
#include "base/xmalloc.h"
#include "model/stacks.h"

struct stacks {
	unsigned	 nevents;
	uint32_t	*frames;	/* every stack's, one after another */
	size_t		 nframes, frames_cap;
	size_t		*start;		/* stack -> its first frame; n + 1 */
	uint64_t	*cost;		/* stack * nevents */
	size_t		 n, cap;
};

/* Make an empty set of stacks of nevents events. */
struct stacks *
stacks_new(unsigned nevents)
{
	struct stacks	*s;

	s = xcalloc(1, sizeof(*s));
	s->nevents = nevents;
	s->start = xcalloc(1, sizeof(*s->start));
	return s;
}

/* Free a set of stacks. */
void
stacks_free(struct stacks *s)
{
	if (s == NULL)
		return;
	free(s->frames);
	free(s->start);
	free(s->cost);
	free(s);
}

/*
 * Add the stack of n functions (outermost first) with cost (k counts
 * given, the rest "never recorded"); return nonzero on overflow (there
 * is none: each stack is kept apart).
 */
int
stacks_add(struct stacks *s, const uint32_t *fns, size_t n,
    const uint64_t *cost, unsigned k)
{
	uint64_t	*c;

	if (s->n + 1 >= s->cap) {
		s->cap = s->cap ? 2 * s->cap : 64;
		s->start = xreallocarray(s->start, s->cap + 1,
		    sizeof(*s->start));
		s->cost = xreallocarray(s->cost, s->cap,
		    s->nevents * sizeof(*s->cost));
	}
	s->frames = xgrow(s->frames, &s->frames_cap, s->nframes + n + 1,
	    sizeof(*s->frames));
	memcpy(s->frames + s->nframes, fns, n * sizeof(*fns));
	s->nframes += n;
	c = s->cost + s->n * s->nevents;
	cost_clear(c, s->nevents);
	memcpy(c, cost, (k < s->nevents ? k : s->nevents) * sizeof(*c));
	s->start[++s->n] = s->nframes;
	return 0;
}

/* Return the number of stacks. */
size_t
stacks_count(const struct stacks *s)
{
	return s->n;
}

/* Return the frames of stack i (outermost first), their number in *n. */
const uint32_t *
stacks_frames(const struct stacks *s, size_t i, size_t *n)
{
	*n = s->start[i + 1] - s->start[i];
	return s->frames + s->start[i];
}

/* Return the cost of stack i. */
const uint64_t *
stacks_cost(const struct stacks *s, size_t i)
{
	return s->cost + i * s->nevents;
}
