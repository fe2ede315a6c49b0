/*
 * selcalls.c - the callers and callees of a printed entry (--tree), as
 * the views list them: a call graph's edges gathered by the row at their
 * far end and summed, in a total order (inclusive cost, then name).
 */
#include "base/compat.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/callgraph.h"
#include "base/cost.h"
#include "base/xmalloc.h"
#include "model/profile.h"
#include "select/select.h"

/* Context for the qsort comparisons, which qsort cannot pass. */
static const struct selection	*cmp_ctx;
static const struct cgedge	*far_edges;
static int			 far_callers;

static int	select_callcmp(const void *, const void *);
static int	select_farcmp(const void *, const void *);
static size_t	select_gather(const struct selection *, uint32_t *, size_t,
		    int, struct selcall *, uint64_t *);

/* Order call lines by cost, then as their text, then by count. */
static int
select_callcmp(const void *a, const void *b)
{
	const struct selcall	*x = a, *y = b;
	char			 cx[32], cy[32];
	int			 c;

	if ((c = cost_cmp(x->cost, y->cost, cmp_ctx->sort,
	    cmp_ctx->nsort)) != 0)
		return c;
	if ((c = fntotals_labeltextcmp(fntotals_label(cmp_ctx->t, x->row),
	    fntotals_label(cmp_ctx->t, y->row))) != 0)
		return c;
	num_commify(x->count, cx);
	num_commify(y->count, cy);
	if ((c = strcmp(cx, cy)) != 0)
		return c;
	return strcmp(profile_str(cmp_ctx->p, cmp_ctx->t->rows[x->row].obj),
	    profile_str(cmp_ctx->p, cmp_ctx->t->rows[y->row].obj));
}

/* Order edge ids by the row at their far end, then by id. */
static int
select_farcmp(const void *a, const void *b)
{
	uint32_t	x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	uint32_t	u, v;

	u = far_callers ? far_edges[x].from : far_edges[x].to;
	v = far_callers ? far_edges[y].from : far_edges[y].to;
	if (u != v)
		return u < v ? -1 : 1;
	return x < y ? -1 : x > y;
}

/*
 * Gather the edges in ids[0..n-1] into call lines keyed by the row at
 * their far end (from if callers, else to), summing edges that share it
 * (sorted first, so a cycle of any size costs n log n).
 */
static size_t
select_gather(const struct selection *sel, uint32_t *ids, size_t n,
    int callers, struct selcall *cl, uint64_t *costs)
{
	const struct cgedge	*e;
	size_t			 i, m = 0;
	uint32_t		 far;

	far_edges = sel->g->edges;
	far_callers = callers;
	if (n > 1)
		qsort(ids, n, sizeof(*ids), select_farcmp);
	far_edges = NULL;
	for (i = 0; i < n; i++) {
		e = &sel->g->edges[ids[i]];
		far = callers ? e->from : e->to;
		if (m == 0 || cl[m - 1].row != far) {
			cl[m].row = far;
			cl[m].count = 0;
			cl[m].cost = costs + m * sel->nev;
			cost_clear(costs + m * sel->nev, sel->nev);
			m++;
		}
		if (__builtin_add_overflow(cl[m - 1].count, e->count,
		    &cl[m - 1].count))
			cl[m - 1].count = UINT64_MAX;
		cost_add(costs + (m - 1) * sel->nev, e->cost, sel->nev);
	}
	return m;
}

/*
 * The callers (callers set) or the callees of entry en, sorted: into
 * *clp, the costs of summed lines into *costsp (both to free).  Calls
 * within a cycle are not the cycle's.  Return their number.
 */
size_t
select_calls(const struct selection *sel, const struct selentry *en,
    int callers, struct selcall **clp, uint64_t **costsp)
{
	const struct callgraph	*g = sel->g;
	const struct cgcycle	*cy;
	const struct cgedge	*e;
	struct selcall		*cl;
	uint32_t		*ids = NULL, k, m, v = en->row, c = en->cycle;
	uint64_t		*costs;
	size_t			 n = 0, i, cap = 0;

	if (c == CG_NONE) {
		if (callers)
			for (k = g->in[v]; k < g->in[v + 1]; k++) {
				ids = xgrow(ids, &cap, n + 1, sizeof(*ids));
				ids[n++] = g->in_edges[k];
			}
		else
			for (k = g->out[v]; k < g->out[v + 1]; k++) {
				ids = xgrow(ids, &cap, n + 1, sizeof(*ids));
				ids[n++] = k;
			}
	} else {
		cy = &g->cycles[c];
		for (i = 0; i < cy->nmembers; i++) {
			m = cy->members[i];
			for (k = callers ? g->in[m] : g->out[m];
			    k < (callers ? g->in[m + 1] : g->out[m + 1]); k++) {
				e = &g->edges[callers ? g->in_edges[k] : k];
				if (g->cycle[callers ? e->from : e->to] == c)
					continue;
				ids = xgrow(ids, &cap, n + 1, sizeof(*ids));
				ids[n++] = callers ? g->in_edges[k] : k;
			}
		}
	}
	cl = xreallocarray(NULL, n, sizeof(*cl));
	costs = xreallocarray(NULL, n, sel->nev * sizeof(*costs));
	if (c == CG_NONE) {
		/* One edge per (caller, callee) already. */
		for (i = 0; i < n; i++) {
			e = &g->edges[ids[i]];
			cl[i].row = callers ? e->from : e->to;
			cl[i].count = e->count;
			cl[i].cost = e->cost;
		}
	} else
		n = select_gather(sel, ids, n, callers, cl, costs);
	free(ids);
	cmp_ctx = sel;
	qsort(cl, n, sizeof(*cl), select_callcmp);
	cmp_ctx = NULL;
	*clp = cl;
	*costsp = costs;
	return n;
}

/*
 * The callers (callers set) or the callees of the rows[0..nrows-1] of
 * one function (its own row and those of code inlined into it), summed
 * per row at the other end, sorted, as select_calls() gives them; calls
 * between these rows are left out.  Return their number.
 */
size_t
select_calls_rows(const struct selection *sel, const uint32_t *rows,
    size_t nrows, int callers, struct selcall **clp, uint64_t **costsp)
{
	const struct callgraph	*g = sel->g;
	const struct cgedge	*e;
	uint32_t		*ids = NULL, k, v, far;
	size_t			 n = 0, i, j, cap = 0;

	for (i = 0; i < nrows; i++) {
		v = rows[i];
		for (k = callers ? g->in[v] : g->out[v];
		    k < (callers ? g->in[v + 1] : g->out[v + 1]); k++) {
			e = &g->edges[callers ? g->in_edges[k] : k];
			far = callers ? e->from : e->to;
			for (j = 0; j < nrows && rows[j] != far; j++)
				continue;
			if (j < nrows)
				continue;
			ids = xgrow(ids, &cap, n + 1, sizeof(*ids));
			ids[n++] = callers ? g->in_edges[k] : k;
		}
	}
	*clp = xreallocarray(NULL, n + 1, sizeof(**clp));
	*costsp = xreallocarray(NULL, n + 1, sel->nev * sizeof(**costsp));
	n = select_gather(sel, ids, n, callers, *clp, *costsp);
	free(ids);
	cmp_ctx = sel;
	if (n > 1)
		qsort(*clp, n, sizeof(**clp), select_callcmp);
	cmp_ctx = NULL;
	return n;
}
