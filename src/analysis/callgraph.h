/*
 * callgraph.h - analysis: the call graph between "file:function" rows,
 * its cycles (strongly connected components), and inclusive costs that
 * stay right under recursion.
 */
#ifndef CGA_CALLGRAPH_H
#define CGA_CALLGRAPH_H

#include <stddef.h>
#include <stdint.h>

struct profile;
struct fntotals;

/* Calls from one row to another, summed over call sites. */
struct cgedge {
	uint32_t	 from, to;	/* rows */
	uint64_t	 count;		/* calls made */
	const uint64_t	*cost;		/* inclusive cost of those calls */
};

/* A cycle: a strongly connected component of more than one row. */
struct cgcycle {
	uint32_t	*members;	/* rows, by label */
	size_t		 nmembers;
	uint64_t	*incl;		/* calls entering the cycle */
	char		*label;		/* "<cycle N>" */
};

struct callgraph {
	struct fntotals	*t;		/* rows; owned */
	unsigned	 nevents;
	struct cgedge	*edges;		/* sorted by (from, to) */
	size_t		 nedges;
	uint32_t	*out;		/* row -> first edge from it (CSR) */
	uint32_t	*in_edges;	/* edge ids sorted by (to, from) */
	uint32_t	*in;		/* row -> first of in_edges to it */
	uint32_t	*cycle;		/* row -> cycle index, or CG_NONE */
	struct cgcycle	*cycles;
	size_t		 ncycles;
	uint64_t	*incl;		/* row * nevents: inclusive cost */
	uint64_t	*costs;		/* backing store of edges of
					   several arcs */
};

#define CG_NONE	UINT32_MAX

struct callgraph *callgraph_build(const struct profile *);
struct callgraph *callgraph_build_on(const struct profile *,
		    struct fntotals *);
void		 callgraph_free(struct callgraph *);
void		 callgraph_group_incl(struct callgraph *,
		    const struct profile *, int);
uint32_t	 callgraph_scc(const uint32_t *, const uint32_t *, uint32_t,
		    uint32_t *);

#endif /* CGA_CALLGRAPH_H */
