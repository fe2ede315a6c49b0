/*
 * callgraph.c - the call graph between function rows, with Tarjan's
 * strongly connected components found without recursion, and inclusive
 * costs after KCachegrind's rules:
 *
 * - a row that is called from outside its cycle: the sum of the calls
 *   entering it from outside (so recursion is never counted twice);
 * - a row that is not (a root, a thread start): its self cost plus its
 *   calls leaving its cycle;
 * - a member of a cycle: the larger of that and the sum of the calls
 *   entering it from outside the cycle (KCachegrind and gprof give it
 *   the former only, often far below what it costs);
 * - a cycle of several rows: the sum of the calls entering it, or, if
 *   none do, its members' self costs plus the calls leaving it.
 */
#include "base/compat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/callgraph.h"
#include "analysis/fntotals.h"
#include "base/cost.h"
#include "base/keytab.h"
#include "base/sort.h"
#include "base/xmalloc.h"
#include "model/profile.h"

#define CG_AHEAD	8	/* edges loaded ahead, see callgraph_crossing() */

static void	callgraph_edges(struct callgraph *, const struct profile *);
static int	cycle_cmp(const void *, const void *);
static void	callgraph_index(struct callgraph *);
static void	callgraph_cycles(struct callgraph *);
static void	callgraph_inclusive(struct callgraph *);
static int	same_scc(const struct callgraph *, uint32_t, uint32_t);
static int	callgraph_crossing(const struct callgraph *, uint32_t, int,
		    uint64_t *);


/*
 * Sum the profile's call arcs into one edge per (caller row, callee
 * row), sorted by (from, to).  The caller row is the function under the
 * file of the call site (code inlined from a header calls from that
 * header's row).  An edge of one arc points at the arc's costs in the
 * profile: most are, and copies of 13 counts an edge were pages to
 * fault in.
 */
static void
callgraph_edges(struct callgraph *g, const struct profile *p)
{
	struct cgedge	*e;
	uint32_t	 i, j, k, m, caller, callee, file, o, f, name, nf, na;
	uint32_t	*fn_row, *order;
	uint64_t	 line, *key, *c;
	size_t		 n = 0, nc = 0;

	nf = profile_nfuncs(p);
	na = profile_narcs(p);
	fn_row = xreallocarray(NULL, nf, sizeof(*fn_row));
	for (i = 0; i < nf; i++)
		fn_row[i] = CG_NONE;
	key = xreallocarray(NULL, na, sizeof(*key));
	for (i = 0; i < na; i++) {
		profile_arc(p, i, &caller, &callee, &file, &line);
		/* The caller's row is its pair's; the callee's, its own. */
		if (fn_row[callee] == CG_NONE) {
			profile_func(p, callee, &o, &f, &name);
			fn_row[callee] = fntotals_row(g->t, f, name);
		}
		key[i] = (uint64_t)g->t->pair_row[profile_arc_pair(p, i)] <<
		    32 | fn_row[callee];
	}
	free(fn_row);
	order = xreallocarray(NULL, na, sizeof(*order));
	sort_index_u64(key, na, order);
	/*
	 * Edges, and edges of several arcs (whose costs are sums), counted
	 * first to be made exactly: room for a sum an arc was a sixth of
	 * the report's peak on cc1 with cache simulation (13 events: 2 MB
	 * for its 19,584 arcs, 2 of its edges sums; cc1plus: none).
	 */
	for (j = 0; j < na; j = k) {
		for (k = j + 1; k < na && key[order[k]] == key[order[j]]; k++)
			continue;
		n++;
		nc += k > j + 1;
	}
	g->edges = xreallocarray(NULL, n, sizeof(*g->edges));
	g->costs = xreallocarray(NULL, nc, g->nevents * sizeof(*g->costs));
	n = nc = 0;
	for (j = 0; j < na; j = k) {
		i = order[j];
		for (k = j + 1; k < na && key[order[k]] == key[i]; k++)
			continue;
		e = &g->edges[n++];
		e->from = (uint32_t)(key[i] >> 32);
		e->to = (uint32_t)key[i];
		e->count = 0;
		for (m = j; m < k; m++)
			if (__builtin_add_overflow(e->count,
			    profile_arc_count(p, order[m]), &e->count))
				e->count = UINT64_MAX;
		/* One call site: its costs as they are, not copied. */
		if (k == j + 1) {
			e->cost = profile_arc_cost(p, i);
			continue;
		}
		c = g->costs + nc++ * g->nevents;
		cost_clear(c, g->nevents);
		for (m = j; m < k; m++)
			cost_add(c, profile_arc_cost(p, order[m]), g->nevents);
		e->cost = c;
	}
	g->nedges = n;
	free(order);
	free(key);
}

/* Build the out and in indices (compressed sparse rows) of the edges. */
static void
callgraph_index(struct callgraph *g)
{
	size_t		n = g->t->nrows, k;
	uint32_t	v, *next;

	g->out = xcalloc(n + 1, sizeof(*g->out));
	g->in = xcalloc(n + 1, sizeof(*g->in));
	g->in_edges = xreallocarray(NULL, g->nedges, sizeof(*g->in_edges));
	for (k = 0; k < g->nedges; k++) {
		g->out[g->edges[k].from + 1]++;
		g->in[g->edges[k].to + 1]++;
	}
	for (v = 0; v < n; v++) {
		g->out[v + 1] += g->out[v];
		g->in[v + 1] += g->in[v];
	}
	/*
	 * A counting sort by callee: the edges are in (from, to) order, so
	 * taking them in turn leaves each callee's in (to, from) order.
	 */
	next = xreallocarray(NULL, n + 1, sizeof(*next));
	memcpy(next, g->in, (n + 1) * sizeof(*next));
	for (k = 0; k < g->nedges; k++)
		g->in_edges[next[g->edges[k].to]++] = (uint32_t)k;
	free(next);
}

/*
 * Tarjan's strongly connected components over n nodes whose successors
 * of v are succ[start[v]] .. succ[start[v + 1] - 1], with an explicit
 * stack so that call chains of any depth are safe.  Writes each node's
 * component number to comp (numbered from 0 in the order found) and
 * returns the number of components.
 */
uint32_t
callgraph_scc(const uint32_t *start, const uint32_t *succ, uint32_t n,
    uint32_t *comp)
{
	uint32_t	*index, *low, *stack, *call, *next;
	uint32_t	 v, w, top = 0, depth = 0, counter = 0, ncomp = 0, root;
	int		*onstack;

	index = xreallocarray(NULL, n, sizeof(*index));
	low = xreallocarray(NULL, n, sizeof(*low));
	stack = xreallocarray(NULL, n, sizeof(*stack));
	call = xreallocarray(NULL, n, sizeof(*call));
	next = xreallocarray(NULL, n, sizeof(*next));
	onstack = xcalloc(n, sizeof(*onstack));
	for (v = 0; v < n; v++)
		index[v] = CG_NONE;
	for (root = 0; root < n; root++) {
		if (index[root] != CG_NONE)
			continue;
		/* call[] is the DFS path; next[v] its next successor. */
		call[depth++] = root;
		index[root] = low[root] = counter++;
		next[root] = start[root];
		stack[top++] = root;
		onstack[root] = 1;
		while (depth > 0) {
			v = call[depth - 1];
			if (next[v] < start[v + 1]) {
				w = succ[next[v]++];
				if (index[w] == CG_NONE) {
					index[w] = low[w] = counter++;
					next[w] = start[w];
					stack[top++] = w;
					onstack[w] = 1;
					call[depth++] = w;
				} else if (onstack[w] && index[w] < low[v])
					low[v] = index[w];
				continue;
			}
			/* All successors of v done: close v. */
			if (low[v] == index[v]) {
				do {
					w = stack[--top];
					onstack[w] = 0;
					comp[w] = ncomp;
				} while (w != v);
				ncomp++;
			}
			depth--;
			if (depth > 0 && low[v] < low[call[depth - 1]])
				low[call[depth - 1]] = low[v];
		}
	}
	free(index);
	free(low);
	free(stack);
	free(call);
	free(next);
	free(onstack);
	return ncomp;
}

/*
 * Context for the label comparisons, which qsort cannot pass; one per
 * thread, as the terminal browser builds call graphs in a second one.
 */
static _Thread_local struct fntotals *cmp_rows;

/* Order cycles by their first member's label. */
static int
cycle_cmp(const void *a, const void *b)
{
	const struct cgcycle	*x = a, *y = b;

	return fntotals_labelcmp(cmp_rows, x->members[0], y->members[0]);
}

/*
 * Find the cycles: components of more than one row.  They are numbered
 * from 1 in the order of their first member by label, so the numbers
 * do not depend on the order of the input.
 */
static void
callgraph_cycles(struct callgraph *g)
{
	struct cgcycle	*cy;
	size_t		 ccap = 0;
	uint32_t	 n = (uint32_t)g->t->nrows, *succ, *comp, *size, *cyc;
	uint32_t	 ncomp, v, c;
	size_t		 k, i;
	char		 buf[32];

	succ = xreallocarray(NULL, g->nedges, sizeof(*succ));
	for (k = 0; k < g->nedges; k++)
		succ[k] = g->edges[k].to;
	comp = xreallocarray(NULL, n, sizeof(*comp));
	ncomp = callgraph_scc(g->out, succ, n, comp);
	free(succ);

	size = xcalloc(ncomp, sizeof(*size));
	for (v = 0; v < n; v++)
		size[comp[v]]++;
	cyc = xreallocarray(NULL, ncomp, sizeof(*cyc));
	for (c = 0; c < ncomp; c++) {
		cyc[c] = CG_NONE;
		if (size[c] > 1) {
			g->cycles = xgrow(g->cycles, &ccap, g->ncycles + 1,
			    sizeof(*g->cycles));
			memset(&g->cycles[g->ncycles], 0,
			    sizeof(*g->cycles));
			g->cycles[g->ncycles].members =
			    xreallocarray(NULL, size[c], sizeof(uint32_t));
			cyc[c] = (uint32_t)g->ncycles++;
		}
	}
	for (v = 0; v < n; v++) {
		if (cyc[comp[v]] == CG_NONE)
			continue;
		cy = &g->cycles[cyc[comp[v]]];
		cy->members[cy->nmembers++] = v;
	}
	for (i = 0; i < g->ncycles; i++)
		fntotals_sort(g->t, g->cycles[i].members,
		    g->cycles[i].nmembers);
	cmp_rows = g->t;
	if (g->ncycles > 1)
		qsort(g->cycles, g->ncycles, sizeof(*g->cycles), cycle_cmp);
	cmp_rows = NULL;
	g->cycle = xreallocarray(NULL, n, sizeof(*g->cycle));
	for (v = 0; v < n; v++)
		g->cycle[v] = CG_NONE;
	for (i = 0; i < g->ncycles; i++) {
		snprintf(buf, sizeof(buf), "<cycle %zu>", i + 1);
		g->cycles[i].label = xstrdup(buf);
		for (k = 0; k < g->cycles[i].nmembers; k++)
			g->cycle[g->cycles[i].members[k]] = (uint32_t)i;
	}
	free(size);
	free(cyc);
	free(comp);
}

/* Return nonzero if rows u and v are the same row or in one cycle. */
static int
same_scc(const struct callgraph *g, uint32_t u, uint32_t v)
{
	return u == v || (g->cycle[u] != CG_NONE &&
	    g->cycle[u] == g->cycle[v]);
}

/*
 * Add to c the costs of the edges ids[lo..hi) (in-edge ids if in, else
 * out-edge indices) whose far end lies outside the cycle or row of v;
 * return nonzero if there was such an edge.
 */
static int
callgraph_crossing(const struct callgraph *g, uint32_t v, int in,
    uint64_t *c)
{
	const struct cgedge	*e;
	uint32_t		 k, lo, hi;
	int			 any = 0;

	lo = in ? g->in[v] : g->out[v];
	hi = in ? g->in[v + 1] : g->out[v + 1];
	for (k = lo; k < hi; k++) {
		/*
		 * The rows are taken in order, so the edges into them are
		 * in_edges in order: load those ahead, across rows, and
		 * their costs (all over memory) after.
		 */
		if (in && k + 2 * CG_AHEAD < g->nedges)
			__builtin_prefetch(&g->edges[g->in_edges[k +
			    2 * CG_AHEAD]]);
		if (in && k + CG_AHEAD < g->nedges)
			__builtin_prefetch(g->edges[g->in_edges[k +
			    CG_AHEAD]].cost);
		e = &g->edges[in ? g->in_edges[k] : k];
		if (same_scc(g, in ? e->from : e->to, v))
			continue;
		any = 1;
		cost_add(c, e->cost, g->nevents);
	}
	return any;
}

/*
 * Compute the inclusive cost of every cycle, then of every row.  A
 * cycle that nothing enters (a root) costs its members' self costs plus
 * the calls leaving it; its members are treated as roots too.
 */
static void
callgraph_inclusive(struct callgraph *g)
{
	struct cgcycle	*cy;
	unsigned	 nev = g->nevents;
	uint64_t	*c, *in;
	uint32_t	 v;
	size_t		 i, m;
	int		*entered;

	g->incl = xreallocarray(NULL, g->t->nrows + g->ncycles,
	    nev * sizeof(*g->incl));
	entered = xcalloc(g->ncycles + 1, sizeof(*entered));
	for (i = 0; i < g->ncycles; i++) {
		cy = &g->cycles[i];
		cy->incl = g->incl + (g->t->nrows + i) * nev;
		cost_clear(cy->incl, nev);
		for (m = 0; m < cy->nmembers; m++)
			entered[i] |= callgraph_crossing(g, cy->members[m], 1,
			    cy->incl);
		if (entered[i])
			continue;
		for (m = 0; m < cy->nmembers; m++) {
			cost_add(cy->incl, g->t->rows[cy->members[m]].cost,
			    nev);
			callgraph_crossing(g, cy->members[m], 0, cy->incl);
		}
	}
	in = xreallocarray(NULL, nev, sizeof(*in));
	for (v = 0; v < g->t->nrows; v++) {
		c = g->incl + (size_t)v * nev;
		cost_clear(c, nev);
		if (g->cycle[v] == CG_NONE && callgraph_crossing(g, v, 1, c))
			continue;
		/*
		 * A cycle member, as gprof counts it: its self cost and the
		 * calls it makes that leave the cycle (a member is never
		 * below its self) ...
		 */
		cost_add(c, g->t->rows[v].cost, nev);
		callgraph_crossing(g, v, 0, c);
		/*
		 * ... or, if more, the calls it receives from outside the
		 * cycle: a caller outside cannot run inside the member (it
		 * would be in the cycle), so those calls never nest in one
		 * another and their sum is a lower bound, exact when the
		 * member is entered from outside only.
		 */
		cost_clear(in, nev);
		if (g->cycle[v] != CG_NONE && callgraph_crossing(g, v, 1, in))
			cost_max(c, in, nev);
	}
	free(in);
	free(entered);
}

/* Build the call graph, cycles and inclusive costs of profile p. */
struct callgraph *
callgraph_build(const struct profile *p)
{
	return callgraph_build_on(p, fntotals_build(p));
}

/*
 * Build the call graph of profile p over its rows t (fntotals_build()),
 * which the graph takes (rows of functions only called are added).
 */
struct callgraph *
callgraph_build_on(const struct profile *p, struct fntotals *t)
{
	struct callgraph	*g;

	g = xcalloc(1, sizeof(*g));
	g->nevents = profile_nevents(p);
	g->t = t;
	callgraph_edges(g, p);
	callgraph_index(g);
	callgraph_cycles(g);
	callgraph_inclusive(g);
	return g;
}

/* Free a call graph and its rows. */
void
callgraph_free(struct callgraph *g)
{
	size_t	i;

	if (g == NULL)
		return;
	for (i = 0; i < g->ncycles; i++) {
		free(g->cycles[i].members);
		free(g->cycles[i].label);
	}
	free(g->cycles);
	free(g->cycle);
	free(g->edges);
	free(g->costs);
	free(g->out);
	free(g->in);
	free(g->in_edges);
	free(g->incl);
	fntotals_free(g->t);
	free(g);
}

/*
 * Give the rows of g, groups of the functions of src (rows: objects or
 * files), inclusive costs that mean something.  Calls between groups
 * make cycles that swallow the program (libc calls main, main calls
 * libc): every group would cost its self.  A group runs at least as
 * long as its costliest function, and as long as all the functions of
 * it that nothing calls (a program's start, a thread's): the larger of
 * the two, from src's own call graph, is its inclusive cost, a lower
 * bound; g keeps no cycle.  src's events are g's first ones (g may have
 * derived ones after them: those keep a row's self cost).
 */
void
callgraph_group_incl(struct callgraph *g, const struct profile *src,
    int rows)
{
	struct callgraph	*fg = callgraph_build(src);
	const struct fnrow	*fr;
	unsigned		 nev = g->nevents, fnev = fg->nevents;
	uint64_t		*roots, *c, *gi;
	uint32_t		 v, gv, s;
	size_t			 i;

	if (fnev > nev)
		fnev = nev;

	roots = xreallocarray(NULL, (size_t)g->t->nrows + 1,
	    nev * sizeof(*roots));
	for (v = 0; v < g->t->nrows; v++) {
		cost_clear(roots + (size_t)v * nev, nev);
		memcpy(g->incl + (size_t)v * nev, g->t->rows[v].cost,
		    nev * sizeof(*g->incl));
	}
	for (v = 0; v < fg->t->nrows; v++) {
		fr = &fg->t->rows[v];
		s = profile_str_find(g->t->p, profile_str(src,
		    rows == PROFILE_ROWS_OBJECTS ? fr->obj : fr->file));
		if (s == UINT32_MAX ||
		    (gv = fntotals_row_find(g->t, s, s)) == UINT32_MAX)
			continue;
		c = fg->incl + (size_t)v * fg->nevents;
		gi = g->incl + (size_t)gv * nev;
		cost_max(gi, c, fnev);
		if (fr->named && fg->in[v] == fg->in[v + 1] &&
		    fg->cycle[v] == CG_NONE)
			(void)cost_add(roots + (size_t)gv * nev, c, fnev);
	}
	for (v = 0; v < g->t->nrows; v++)
		cost_max(g->incl + (size_t)v * nev, roots + (size_t)v * nev,
		    nev);
	for (i = 0; i < g->ncycles; i++) {
		free(g->cycles[i].members);
		free(g->cycles[i].label);
	}
	g->ncycles = 0;
	for (v = 0; v < g->t->nrows; v++)
		g->cycle[v] = CG_NONE;
	free(roots);
	callgraph_free(fg);
}
