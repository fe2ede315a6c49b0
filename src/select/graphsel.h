/*
 * graphsel.h - the selection for a call graph picture (--format=dot):
 * the functions whose inclusive cost reaches --node-threshold and the
 * calls between them reaching --edge-threshold, of the first sort
 * event, kept to what --root reaches and what reaches --leaf.
 */
#ifndef CGA_GRAPHSEL_H
#define CGA_GRAPHSEL_H

#include <stddef.h>
#include <stdint.h>

struct callgraph;
struct fntotals;
struct report_opts;

/* A function drawn. */
struct gnode {
	uint32_t	 row;
	const uint64_t	*incl;
	uint64_t	*self;		/* its row's, with the code inlined
					   into it from other files */
	uint64_t	 calls;		/* calls into it from other rows */
	uint32_t	 cycle;		/* CG_NONE if in none */
	uint64_t	 old_incl;	/* --diff: OLD's inclusive cost of the
					   event (COST_NONE: not there) */
};

/* A call drawn: the sum of the calls from one row to another. */
struct gedge {
	size_t		 from, to;	/* nodes */
	uint64_t	 count;
	uint64_t	*cost;		/* summed over the rows drawn as its
					   two nodes */
	int		 inner;		/* inside a cycle, or to itself: its
					   cost is counted in the node's */
	uint64_t	 old_cost;	/* --diff: OLD's cost of those calls */
};

/* What the graph selection starts from. */
struct graphsel_from {
	const struct report_opts *o;
	const struct callgraph	 *g;
	struct fntotals		 *t;
	const uint64_t		 *total;	/* program totals */
	int			  ev;		/* the event drawn */
	const struct callgraph	 *old_g;	/* --diff: OLD's call graph, */
	struct fntotals		 *old_t;	/*   its rows, */
	int			  old_ev;	/*   the event's index there */
};

struct graphsel {
	int		 ev;
	int		 diff;		/* old_incl and old_cost are set */
	struct gnode	*nodes;		/* by label */
	size_t		 nnodes;
	struct gedge	*edges;		/* by (from, to) */
	size_t		 nedges;
	uint32_t	*cycles;	/* the cycles with a node drawn */
	size_t		 ncycles;
	uint64_t	*selfs;		/* backing store of the nodes' self */
	uint64_t	*costs;		/*   and of the edges' cost */
};

struct graphsel	*graphsel_build(const struct graphsel_from *);
void		 graphsel_free(struct graphsel *);

#endif /* CGA_GRAPHSEL_H */
