/*
 * graphsel.c - what a call graph picture draws.  Every function whose
 * inclusive cost of the event drawn is at least --node-threshold
 * percent of its total, and every call between two of them of at least
 * --edge-threshold percent; with --root, only what the matching
 * functions reach by calls, with --leaf only what reaches the matching
 * ones (both over the whole call graph, before the thresholds), with
 * --function only the functions it matches.  Nodes
 * are in label order, edges in (from, to) order: the picture is the
 * same for the same input.  A function is drawn once: the rows of code
 * inlined into it from other files are part of its node (their cost is
 * in its self cost, as it is already in the calls to it).
 *
 * The picture stays in one piece where the calls allow: both ends of
 * every call at the node threshold are drawn (a cycle member's lower
 * bound can be below a call inside its cycle), and a piece that no call
 * at the edge threshold joins to the piece of the costliest function is
 * joined by its costliest function's heaviest call in, and so on up,
 * drawn whatever its cost (graphsel_link()).
 */
#include "base/compat.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/callgraph.h"
#include "analysis/diff.h"
#include "analysis/fntotals.h"
#include "base/cost.h"
#include "base/xmalloc.h"
#include "model/profile.h"
#include "select/graphsel.h"
#include "select/reportopts.h"

static void	graphsel_reach(const struct callgraph *, struct fntotals *,
		    struct rematch *const *, size_t, int,
		    unsigned char *);
static int	graphsel_passes(uint64_t, uint64_t, double);
static int	graphsel_nodecmp(const void *, const void *);
static int	graphsel_edgecmp(const void *, const void *);
static int	graphsel_u32cmp(const void *, const void *);
static char	*graphsel_label(const struct report_opts *, struct fntotals *,
		    uint32_t);
static int	graphsel_strcmp(const void *, const void *);
static void	graphsel_old(struct graphsel *, const struct graphsel_from *);
static uint32_t	*graphsel_nodes(struct graphsel *,
		    const struct graphsel_from *, const uint32_t *,
		    uint64_t **, size_t *);
static void	graphsel_edges(struct graphsel *, const struct graphsel_from *,
		    const uint32_t *, const uint32_t *, const uint64_t *,
		    size_t);
static struct rowedge *graphsel_rowedges(const struct graphsel_from *,
		    const uint32_t *, const unsigned char *, size_t *);
static int	graphsel_rowedgecmp(const void *, const void *);
static int	graphsel_tocmp(const void *, const void *);
static uint32_t	graphsel_find(uint32_t *, uint32_t);
static uint64_t	*graphsel_link(const struct graphsel_from *,
		    const uint32_t *, const unsigned char *, unsigned char *,
		    size_t *);
static uint64_t	graphsel_val(uint64_t);
static int	graphsel_costcmp(const void *, const void *);
static int	graphsel_u64cmp(const void *, const void *);

/* The calls from one row's owner to another's, summed (one event). */
struct rowedge {
	uint32_t	 from, to;
	uint64_t	 cost;
};


/* A label of OLD's with what it stands for: a row, or an edge. */
struct oldkey {
	char		*label;
	uint64_t	 cost;
};

static struct fntotals	*cmp_t;		/* for graphsel_nodecmp() */

/* Order nodes by label, then by row. */
static int
graphsel_nodecmp(const void *a, const void *b)
{
	const struct gnode	*x = a, *y = b;
	int			 c;

	if ((c = fntotals_labelcmp(cmp_t, x->row, y->row)) != 0)
		return c;
	return (x->row > y->row) - (x->row < y->row);
}

/* Order edges by their source, then target node. */
static int
graphsel_edgecmp(const void *a, const void *b)
{
	const struct gedge	*x = a, *y = b;

	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	return (x->to > y->to) - (x->to < y->to);
}

/* Order 32-bit numbers. */
static int
graphsel_u32cmp(const void *a, const void *b)
{
	uint32_t	x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/*
 * Mark in keep[] the rows that the rows matching one of the n
 * expressions reach by calls (down), or that reach them (up).
 */
static void
graphsel_reach(const struct callgraph *g, struct fntotals *t,
    struct rematch *const *re, size_t n, int up, unsigned char *keep)
{
	uint32_t	*stack, v, w, k, lo, hi;
	size_t		 sp = 0, nrows = t->nrows;

	stack = xreallocarray(NULL, nrows + 1, sizeof(*stack));
	for (v = 0; v < nrows; v++)
		if (report_matches(re, n, fntotals_label(t, v))) {
			keep[v] = 1;
			stack[sp++] = v;
		}
	while (sp > 0) {
		v = stack[--sp];
		lo = up ? g->in[v] : g->out[v];
		hi = up ? g->in[v + 1] : g->out[v + 1];
		for (k = lo; k < hi; k++) {
			w = up ? g->edges[g->in_edges[k]].from : g->edges[k].to;
			if (!keep[w]) {
				keep[w] = 1;
				stack[sp++] = w;
			}
		}
	}
	free(stack);
}

/* Return nonzero if cost v is at least pct percent of total. */
static int
graphsel_passes(uint64_t v, uint64_t total, double pct)
{
	if (v == COST_NONE)
		return 0;
	if (total == COST_NONE || total == 0)
		return v > 0 || pct <= 0;
	return (double)v * 100.0 >= pct * (double)total;
}

/* Choose what the call graph picture draws. */
struct graphsel *
graphsel_build(const struct graphsel_from *f)
{
	struct graphsel		*s;
	uint32_t		*node, *owner, v;
	uint64_t		*links;
	size_t			 nrows = f->t->nrows, nev = f->g->nevents;
	size_t			 nlinks;

	s = xcalloc(1, sizeof(*s));
	s->ev = f->ev;
	owner = fntotals_owners(f->t);
	node = graphsel_nodes(s, f, owner, &links, &nlinks);
	/* Self costs: each node's row's and those of the rows it owns. */
	s->selfs = xreallocarray(NULL, s->nnodes + 1, nev * sizeof(*s->selfs));
	for (v = 0; v < s->nnodes; v++) {
		s->nodes[v].self = s->selfs + (size_t)v * nev;
		cost_clear(s->nodes[v].self, (unsigned)nev);
	}
	for (v = 0; v < nrows; v++)
		if (node[owner[v]] != UINT32_MAX)
			cost_add(s->nodes[node[owner[v]]].self,
			    f->t->rows[v].cost, (unsigned)nev);
	graphsel_edges(s, f, owner, node, links, nlinks);
	free(links);
	if (s->ncycles > 1)
		qsort(s->cycles, s->ncycles, sizeof(*s->cycles),
		    graphsel_u32cmp);
	if (f->old_g != NULL)
		graphsel_old(s, f);
	free(owner);
	free(node);
	return s;
}

/*
 * Choose s's nodes: the rows that own themselves, reached from --root
 * and reaching --leaf, matched by --function, at the node threshold or
 * at an end of a call at the node threshold, or joining a piece to the
 * rest (*links gets those calls' (row << 32 | row), sorted); by label,
 * each with its calls in and its cycle, the cycles listed once.  Return
 * each row's node (UINT32_MAX: not drawn).
 */
static uint32_t *
graphsel_nodes(struct graphsel *s, const struct graphsel_from *f,
    const uint32_t *owner, uint64_t **links, size_t *nlinks)
{
	const struct report_opts *o = f->o;
	const struct callgraph	*g = f->g;
	const struct cgedge	*e;
	unsigned char		*keep, *ok, *down = NULL, *up = NULL, *seen;
	uint32_t		*node, v, k;
	uint64_t		 total = f->total[f->ev];
	size_t			 nrows = f->t->nrows, nev = g->nevents, i;

	keep = xcalloc(nrows + 1, 1);
	ok = xcalloc(nrows + 1, 1);
	if (o->nroots > 0) {
		down = xcalloc(nrows + 1, 1);
		graphsel_reach(g, f->t, o->roots, o->nroots, 0, down);
	}
	if (o->nleaves > 0) {
		up = xcalloc(nrows + 1, 1);
		graphsel_reach(g, f->t, o->leaves, o->nleaves, 1, up);
	}
	node = xreallocarray(NULL, nrows + 1, sizeof(*node));
	for (v = 0; v < nrows; v++) {
		node[v] = UINT32_MAX;
		ok[v] = owner[v] == v &&
		    (down == NULL || down[v]) && (up == NULL || up[v]) &&
		    (o->nfunctions == 0 || report_matches(o->functions,
		    o->nfunctions, fntotals_label(f->t, v)));
		keep[v] = ok[v] && graphsel_passes(g->incl[(size_t)v * nev +
		    f->ev], total, o->node_threshold);
	}
	*links = graphsel_link(f, owner, ok, keep, nlinks);
	free(ok);
	/* Rows are numbered as a keytab gives them: draw by label. */
	s->nodes = xreallocarray(NULL, nrows + 1, sizeof(*s->nodes));
	for (v = 0; v < nrows; v++)
		if (keep[v])
			s->nodes[s->nnodes++].row = v;
	cmp_t = f->t;
	if (s->nnodes > 1)
		qsort(s->nodes, s->nnodes, sizeof(*s->nodes),
		    graphsel_nodecmp);
	cmp_t = NULL;
	seen = xcalloc(g->ncycles + 1, 1);
	for (k = 0; k < s->nnodes; k++) {
		struct gnode	*n = &s->nodes[k];

		v = n->row;
		node[v] = k;
		n->incl = g->incl + (size_t)v * nev;
		n->cycle = g->cycle[v];
		n->calls = 0;
		for (i = g->in[v]; i < g->in[v + 1]; i++) {
			e = &g->edges[g->in_edges[i]];
			if (e->from != v && __builtin_add_overflow(n->calls,
			    e->count, &n->calls))
				n->calls = UINT64_MAX;
		}
		if (n->cycle != CG_NONE && !seen[n->cycle]) {
			seen[n->cycle] = 1;
			s->cycles = xreallocarray(s->cycles, s->ncycles + 1,
			    sizeof(*s->cycles));
			s->cycles[s->ncycles++] = n->cycle;
		}
	}
	free(seen);
	free(keep);
	free(down);
	free(up);
	return node;
}

/*
 * The edges between s's nodes, the calls made from code inlined into a
 * function counted as its own; summed per pair of nodes, then those at
 * the edge threshold.
 */
static void
graphsel_edges(struct graphsel *s, const struct graphsel_from *f,
    const uint32_t *owner, const uint32_t *node, const uint64_t *links,
    size_t nlinks)
{
	const struct callgraph	*g = f->g;
	const struct cgedge	*e;
	const uint64_t		*src;
	uint64_t		 total = f->total[f->ev], key;
	size_t			 nev = g->nevents, i, m;
	uint32_t		 v, w;

	s->edges = xreallocarray(NULL, g->nedges + 1, sizeof(*s->edges));
	s->costs = xreallocarray(NULL, g->nedges + 1, nev * sizeof(*s->costs));
	for (i = 0; i < g->nedges; i++) {
		e = &g->edges[i];
		v = owner[e->from];
		w = owner[e->to];
		if (node[v] == UINT32_MAX || node[w] == UINT32_MAX)
			continue;
		s->edges[s->nedges].from = node[v];
		s->edges[s->nedges].to = node[w];
		s->edges[s->nedges].count = e->count;
		s->edges[s->nedges].cost = (uint64_t *)e->cost;
		s->edges[s->nedges].inner = v == w ||
		    (g->cycle[v] != CG_NONE && g->cycle[v] == g->cycle[w]);
		s->nedges++;
	}
	if (s->nedges > 1)
		qsort(s->edges, s->nedges, sizeof(*s->edges),
		    graphsel_edgecmp);
	for (i = m = 0; i < s->nedges; i++) {
		if (m > 0 && s->edges[m - 1].from == s->edges[i].from &&
		    s->edges[m - 1].to == s->edges[i].to) {
			cost_add(s->edges[m - 1].cost, s->edges[i].cost,
			    (unsigned)nev);
			if (__builtin_add_overflow(s->edges[m - 1].count,
			    s->edges[i].count, &s->edges[m - 1].count))
				s->edges[m - 1].count = UINT64_MAX;
			continue;
		}
		src = s->edges[i].cost;
		s->edges[m] = s->edges[i];
		s->edges[m].cost = s->costs + m * nev;
		memcpy(s->edges[m].cost, src, nev * sizeof(*s->costs));
		m++;
	}
	s->nedges = m;
	for (i = m = 0; i < s->nedges; i++) {
		key = (uint64_t)s->nodes[s->edges[i].from].row << 32 |
		    s->nodes[s->edges[i].to].row;
		if (graphsel_passes(s->edges[i].cost[f->ev], total,
		    f->o->edge_threshold) || (nlinks > 0 && bsearch(&key,
		    links, nlinks, sizeof(*links), graphsel_u64cmp) != NULL))
			s->edges[m++] = s->edges[i];
	}
	s->nedges = m;
}

/* Order rowedges by (from, to). */
static int
graphsel_rowedgecmp(const void *a, const void *b)
{
	const struct rowedge	*x = a, *y = b;

	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	return (x->to > y->to) - (x->to < y->to);
}

/* Order rowedges by (to, from). */
static int
graphsel_tocmp(const void *a, const void *b)
{
	const struct rowedge	*x = a, *y = b;

	if (x->to != y->to)
		return x->to < y->to ? -1 : 1;
	return (x->from > y->from) - (x->from < y->from);
}

/* Order 64-bit numbers. */
static int
graphsel_u64cmp(const void *a, const void *b)
{
	uint64_t	x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/*
 * Return the calls between the owners of rows (owner) that ok allows,
 * other than to itself, summed per (from, to) for the event drawn and
 * sorted so; *n gets how many.
 */
static struct rowedge *
graphsel_rowedges(const struct graphsel_from *f, const uint32_t *owner,
    const unsigned char *ok, size_t *n)
{
	const struct callgraph	*g = f->g;
	struct rowedge		*re;
	size_t			 i, m = 0;
	uint32_t		 v, w;

	re = xreallocarray(NULL, g->nedges + 1, sizeof(*re));
	for (i = 0; i < g->nedges; i++) {
		v = owner[g->edges[i].from];
		w = owner[g->edges[i].to];
		if (v == w || !ok[v] || !ok[w])
			continue;
		re[m].from = v;
		re[m].to = w;
		re[m++].cost = g->edges[i].cost[f->ev];
	}
	if (m > 1)
		qsort(re, m, sizeof(*re), graphsel_rowedgecmp);
	for (i = *n = 0; i < m; i++) {
		if (*n > 0 && re[*n - 1].from == re[i].from &&
		    re[*n - 1].to == re[i].to) {
			(void)cost_add1(&re[*n - 1].cost, re[i].cost);
			continue;
		}
		re[(*n)++] = re[i];
	}
	return re;
}

/* Return the representative of v's piece in the union-find forest up. */
static uint32_t
graphsel_find(uint32_t *up, uint32_t v)
{
	uint32_t	r = v, next;

	while (up[r] != r)
		r = up[r];
	while (up[v] != r) {	/* shorten the path for the next time */
		next = up[v];
		up[v] = r;
		v = next;
	}
	return r;
}

/* Return the count c of a cost, 0 for "never recorded". */
static uint64_t
graphsel_val(uint64_t c)
{
	return c == COST_NONE ? 0 : c;
}

static const uint64_t	*cmp_incl;	/* for graphsel_costcmp() */
static size_t		 cmp_nev, cmp_ev;

/* Order rows by inclusive cost of the event drawn, descending, then row. */
static int
graphsel_costcmp(const void *a, const void *b)
{
	uint32_t	v = *(const uint32_t *)a, w = *(const uint32_t *)b;
	uint64_t	x = graphsel_val(cmp_incl[v * cmp_nev + cmp_ev]);
	uint64_t	y = graphsel_val(cmp_incl[w * cmp_nev + cmp_ev]);

	if (x != y)
		return x > y ? -1 : 1;
	return (v > w) - (v < w);
}

/*
 * Add to keep (the rows at the node threshold) both ends of every call
 * at the node threshold between rows ok allows (each end costs at least
 * the call, whatever a cycle member's lower bound says), then join the
 * pieces that the calls at the edge threshold make to the piece of the
 * costliest row kept: from each other piece's costliest row, costliest
 * first, follow the heaviest call into it from a row ok allows (ties:
 * the lower row), keeping that row, until a row of the main piece is
 * reached or no call comes in (a thread's start, --root's edge).
 * Return the calls followed, as (from << 32 | to), sorted; *n gets how
 * many.
 */
static uint64_t *
graphsel_link(const struct graphsel_from *f, const uint32_t *owner,
    const unsigned char *ok, unsigned char *keep, size_t *n)
{
	struct rowedge	*re;
	uint64_t	*links = NULL, total = f->total[f->ev];
	uint32_t	*up, *first, *mark, *tops, v, u, top;
	unsigned char	*seen;
	size_t		 nrows = f->t->nrows, nre, i, k, ntops = 0, cap = 0, b;

	*n = 0;
	re = graphsel_rowedges(f, owner, ok, &nre);
	for (i = 0; i < nre; i++)
		if (graphsel_passes(re[i].cost, total, f->o->node_threshold))
			keep[re[i].from] = keep[re[i].to] = 1;
	/* The pieces the calls at the threshold make. */
	up = xreallocarray(NULL, nrows + 1, sizeof(*up));
	for (v = 0; v < nrows; v++)
		up[v] = v;
	for (i = 0; i < nre; i++)
		if (keep[re[i].from] && keep[re[i].to] && graphsel_passes(
		    re[i].cost, total, f->o->edge_threshold))
			up[graphsel_find(up, re[i].from)] =
			    graphsel_find(up, re[i].to);
	/* Each piece's costliest row, the costliest of all first. */
	tops = xreallocarray(NULL, nrows + 1, sizeof(*tops));
	for (v = 0; v < nrows; v++)
		if (keep[v])
			tops[ntops++] = v;
	cmp_incl = f->g->incl;
	cmp_nev = f->g->nevents;
	cmp_ev = (size_t)f->ev;
	if (ntops > 1)
		qsort(tops, ntops, sizeof(*tops), graphsel_costcmp);
	seen = xcalloc(nrows + 1, 1);
	for (i = k = 0; i < ntops; i++)
		if (!seen[u = graphsel_find(up, tops[i])]) {
			seen[u] = 1;
			tops[k++] = tops[i];
		}
	ntops = k;
	/* The calls into each row, for the walks up. */
	if (nre > 1)
		qsort(re, nre, sizeof(*re), graphsel_tocmp);
	first = xcalloc(nrows + 2, sizeof(*first));
	for (i = 0; i < nre; i++)
		first[re[i].to + 1]++;
	for (v = 0; v < nrows; v++)
		first[v + 1] += first[v];
	mark = xcalloc(nrows + 1, sizeof(*mark));
	top = ntops > 0 ? tops[0] : 0;
	for (k = 1; k < ntops; k++) {
		for (v = tops[k]; graphsel_find(up, v) !=
		    graphsel_find(up, top); v = u) {
			mark[v] = (uint32_t)k;
			b = SIZE_MAX;
			for (i = first[v]; i < first[v + 1]; i++)
				if (mark[re[i].from] != k && (b == SIZE_MAX ||
				    graphsel_val(re[i].cost) >
				    graphsel_val(re[b].cost)))
					b = i;
			if (b == SIZE_MAX)
				break;
			u = re[b].from;
			keep[u] = 1;
			links = xgrow(links, &cap, *n + 1, sizeof(*links));
			links[(*n)++] = (uint64_t)u << 32 | v;
			up[graphsel_find(up, u)] = graphsel_find(up, v);
		}
	}
	if (*n > 1)
		qsort(links, *n, sizeof(*links), graphsel_u64cmp);
	cmp_incl = NULL;
	free(mark);
	free(first);
	free(seen);
	free(tops);
	free(up);
	free(re);
	return links;
}


/*
 * Return the label of row of t as --diff matches it: file and name
 * rewritten by --mod-filename and --mod-funcname.
 */
static char *
graphsel_label(const struct report_opts *o, struct fntotals *t, uint32_t row)
{
	return namemod_label(o->mod_file, o->mod_func,
	    profile_str(t->p, t->rows[row].file),
	    profile_str(t->p, t->rows[row].name),
	    profile_rows(t->p) != PROFILE_ROWS_FUNCTIONS, NULL, NULL);
}

/* Order keys by label. */
static int
graphsel_strcmp(const void *a, const void *b)
{
	return strcmp(((const struct oldkey *)a)->label,
	    ((const struct oldkey *)b)->label);
}

/*
 * --diff: OLD's inclusive cost of each node and cost of each edge, found
 * by label (as rewritten), "from\nto" for an edge; COST_NONE if OLD has
 * none.
 */
static void
graphsel_old(struct graphsel *s, const struct graphsel_from *f)
{
	const struct callgraph	*g = f->old_g;
	struct oldkey		*rows, *edges, key, *hit;
	char			*a, *b, **nl;
	uint32_t		*owner;
	size_t			 nr = f->old_t->nrows, i, k, ne = 0;
	unsigned		 nev = g->nevents;

	s->diff = 1;
	rows = xreallocarray(NULL, nr + 1, sizeof(*rows));
	for (i = 0; i < nr; i++) {
		rows[i].label = graphsel_label(f->o, f->old_t, (uint32_t)i);
		rows[i].cost = g->incl[i * nev + (unsigned)f->old_ev];
	}
	owner = fntotals_owners(f->old_t);
	edges = xreallocarray(NULL, g->nedges + 1, sizeof(*edges));
	for (i = 0; i < g->nedges; i++) {
		a = rows[owner[g->edges[i].from]].label;
		b = rows[owner[g->edges[i].to]].label;
		edges[ne].label = xjoin(a, strlen(a), '\n', b, strlen(b));
		edges[ne++].cost = g->edges[i].cost[f->old_ev];
	}
	free(owner);
	qsort(rows, nr, sizeof(*rows), graphsel_strcmp);
	qsort(edges, ne, sizeof(*edges), graphsel_strcmp);
	/* Calls between the same two nodes, summed. */
	for (i = k = 0; i < ne; i++) {
		if (k > 0 && strcmp(edges[k - 1].label, edges[i].label) == 0) {
			cost_add1(&edges[k - 1].cost, edges[i].cost);
			free(edges[i].label);
			continue;
		}
		edges[k++] = edges[i];
	}
	ne = k;
	/* Inlined pieces are part of their nodes: OLD's rows, unowned. */
	nl = xreallocarray(NULL, s->nnodes + 1, sizeof(*nl));
	for (i = 0; i < s->nnodes; i++) {
		nl[i] = key.label = graphsel_label(f->o, f->t, s->nodes[i].row);
		hit = nr > 0 ? bsearch(&key, rows, nr, sizeof(*rows),
		    graphsel_strcmp) : NULL;
		s->nodes[i].old_incl = hit != NULL ? hit->cost : COST_NONE;
	}
	for (i = 0; i < s->nedges; i++) {
		a = nl[s->edges[i].from];
		b = nl[s->edges[i].to];
		key.label = xjoin(a, strlen(a), '\n', b, strlen(b));
		hit = ne > 0 ? bsearch(&key, edges, ne, sizeof(*edges),
		    graphsel_strcmp) : NULL;
		s->edges[i].old_cost = hit != NULL ? hit->cost : COST_NONE;
		free(key.label);
	}
	for (i = 0; i < s->nnodes; i++)
		free(nl[i]);
	free(nl);
	for (i = 0; i < nr; i++)
		free(rows[i].label);
	for (i = 0; i < ne; i++)
		free(edges[i].label);
	free(rows);
	free(edges);
}

/* Free a graph selection. */
void
graphsel_free(struct graphsel *s)
{
	if (s == NULL)
		return;
	free(s->nodes);
	free(s->edges);
	free(s->cycles);
	free(s->selfs);
	free(s->costs);
	free(s);
}
