/*
 * flame.h - analysis: call stacks with counts for flame graphs, of one
 * event or several together: exact where the profile holds them (xtree
 * files), else estimated from the call graph.  Each event's counts add
 * up exactly to the sum of its self costs.
 */
#ifndef CGA_FLAME_H
#define CGA_FLAME_H

#include <stddef.h>
#include <stdint.h>

#include "base/keytab.h"


/*
 * Frames walked at most, making stacks and adding them up: a chain of
 * 10^5 calls makes 5 * 10^9, and its folded stacks as many names.
 */
#define FLAME_MAX_FRAMES	((uint64_t)1 << 28)

/*
 * The stacks of several events made together walk that many once for
 * each event, up to this many times.
 */
#define FLAME_MAX_EVENTS	4

/*
 * The estimate's resolution: a share below total / FLAME_SPLIT goes up
 * whole through the costliest caller, not split; where the stacks of the
 * events made together would hold more than a budget of frames (a frame
 * shared by events counted once; FLAME_BUDGET unless the caller gives
 * less), the shares split are ten times coarser, and so on down to none
 * (split 1).
 */
#define FLAME_SPLIT	100000
#define FLAME_BUDGET	((uint64_t)1 << 25)

struct profile;

/* The count of one event's stacks ending at a node. */
struct flame_end {
	uint32_t	 node;
	uint32_t	 k;		/* the event, 0 to nev - 1 */
	uint64_t	 count;
};

/*
 * The stacks as a prefix tree: node 0 is the root, above every stack's
 * outermost function; node i + 1 is the i-th key of nodes, its parent
 * node and its function in one word (the parent the upper half), made
 * after its parent; a stack is the path from the root to a node, and the
 * node's ends the counts of the events' stacks ending there (a node may
 * end stacks of some events only, or none).
 */
struct flame {
	int		 exact;		/* the profile's own stacks */
	uint32_t	 split;		/* estimated: the resolution (shares
					   below total / split went up whole),
					   else 0 */
	uint64_t	 budget;	/*   for frames at most (see above) */
	struct keytab	 nodes;
	unsigned	 nev;		/* events counted */
	struct flame_end *ends;		/* by node, then event */
	size_t		 nends, ends_cap;
	uint32_t	*endat;		/* node -> its first end */
	uint32_t	*evnodes;	/* by event, the nodes at or under
					   which a stack of it ends, in
					   order: */
	size_t		*evat;		/*   event k's from evat[k] */
	uint64_t	 walked;	/* frames, up to limit: */
	uint64_t	 limit;		/*   FLAME_MAX_FRAMES an event, up
					   to FLAME_MAX_EVENTS, */
	uint64_t	*walked_ev;	/*   and for each, up to
					   FLAME_MAX_FRAMES */
	uint32_t	*last;		/* the stack added last, from the
					   root: function, node; */
	size_t		 nlast;		/*   its frames */
	size_t		 last_cap;
	uint32_t	*hint;		/* node -> the function + 1 and node
					   of the child last looked up (0:
					   none) */
	size_t		 hint_cap;
};

struct flame	*flame_build(const struct profile *, const unsigned *,
		    unsigned, uint64_t);
void		 flame_free(struct flame *);

/* Return the number of nodes of f, the root included. */
static inline size_t
flame_nnodes(const struct flame *f)
{
	return (size_t)f->nodes.n + 1;
}

/* Return the count of the k-th event's stacks ending at node i of f. */
static inline uint64_t
flame_count(const struct flame *f, size_t i, unsigned k)
{
	uint32_t	j;

	for (j = f->endat[i]; j < f->endat[i + 1]; j++)
		if (f->ends[j].k == k)
			return f->ends[j].count;
	return 0;
}

/*
 * Return the nodes of f (the root left out) at or under which a stack of
 * the k-th event ends, in order, *n of them: those a view of that event
 * alone draws.
 */
static inline const uint32_t *
flame_event_nodes(const struct flame *f, unsigned k, size_t *n)
{
	*n = f->evat[k + 1] - f->evat[k];
	return f->evnodes + f->evat[k];
}

/* Return the parent of node i > 0 of f, and its function in *fn. */
static inline uint32_t
flame_node(const struct flame *f, size_t i, uint32_t *fn)
{
	uint64_t	k = *keytab_key(&f->nodes, (uint32_t)(i - 1));

	*fn = (uint32_t)k;
	return (uint32_t)(k >> 32);
}

#endif /* CGA_FLAME_H */
