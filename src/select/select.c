/*
 * select.c - the selection layer: the events shown and sorted by, the
 * thresholds, the program totals, and the entries every view prints:
 * function totals (self or inclusive, with cycles under --inclusive=yes)
 * sorted by the sort events down to the threshold, with their callers
 * and callees; or with --diff every function's change, sorted by its
 * size; the --fail-above limits evaluated on those rows; and what
 * source annotation prints (srcsel.c).  Every order is total (cost
 * descending, then name), so the output is deterministic.
 */
#include "base/compat.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/callgraph.h"
#include "analysis/derive.h"
#include "analysis/diff.h"
#include "analysis/flame.h"
#include "analysis/gate.h"
#include "analysis/reshape.h"
#include "base/cost.h"
#include "base/msg.h"
#include "base/sort.h"
#include "base/xmalloc.h"
#include "model/profile.h"
#include "select/asmsel.h"
#include "select/flamesel.h"
#include "select/graphsel.h"
#include "select/select.h"
#include "select/select_impl.h"
#include "select/srcsel.h"

#define SELECT_AHEAD	16	/* entries loaded ahead, sorting and choosing */

/* Context for the qsort comparisons, which qsort cannot pass. */
static const struct selection	*cmp_ctx;

static int	select_resolve(const struct profile *, const char *,
		    char **, size_t, int **);
static void	select_unknown_event(const struct profile *, const char *,
		    const char *);
static int	select_setup(struct selection *, const struct profile *,
		    const struct report_opts *);
static uint32_t	select_objof(const struct selection *,
		    const struct selentry *);
static int	select_entrycmp(const void *, const void *);
static int	select_incl_passes(const struct selection *,
		    const struct selentry *);
static uint32_t	*select_order(const struct selection *, struct selentry *,
		    size_t);
static size_t	select_sort_run(const struct selection *,
		    const struct selentry *, const uint32_t *, size_t, size_t,
		    struct selentry *);
static void	select_entries(struct selection *);
static int	select_wanted(const struct selection *, uint32_t);
static void	select_asm(struct selection *);
static int	select_old_event(const struct selection *,
		    const struct profile *, int);
static void	select_graph(struct selection *, const struct profile *);
static int	select_flame(struct selection *, const struct profile *);
static void	select_cycles(struct selection *);
static void	select_gates(struct selection *);
static int	select_derive(struct derive *, const char *);
static int	select_reshape(struct selection *, const struct profile **,
		    const struct profile **);

/* Say that opt names an event the profile lacks, listing its events. */
static void
select_unknown_event(const struct profile *p, const char *opt,
    const char *name)
{
	msg_usage_error("%s event '%s' is not among the profile's events "
	    "(%s) nor derived from them", opt, name,
	    profile_str(p, profile_events_list(p)));
}

/*
 * Map event names to indices into *idx; with names NULL take every
 * event in file order.  Print an error naming opt for an unknown event.
 */
static int
select_resolve(const struct profile *p, const char *opt, char **names,
    size_t n, int **idx)
{
	size_t	i;
	int	e;

	if (names == NULL) {
		n = profile_nrecorded(p);
		*idx = xreallocarray(NULL, n, sizeof(**idx));
		for (i = 0; i < n; i++)
			(*idx)[i] = (int)i;
		return (int)n;
	}
	*idx = xreallocarray(NULL, n, sizeof(**idx));
	for (i = 0; i < n; i++) {
		if ((e = profile_event_index(p, names[i])) < 0) {
			select_unknown_event(p, opt, names[i]);
			free(*idx);
			*idx = NULL;
			return -1;
		}
		(*idx)[i] = e;
	}
	return (int)n;
}

/*
 * Set up sel on profile p: the events shown and sorted by and those of
 * the limits (an error if one is not in p), the thresholds.  Return 0,
 * or -1 after a message.
 */
static int
select_setup(struct selection *sel, const struct profile *p,
    const struct report_opts *o)
{
	size_t	i;
	int	n;

	sel->o = o;
	sel->p = p;
	sel->nev = profile_nevents(p);
	if ((n = select_resolve(p, "--show", o->show, o->nshow,
	    &sel->show)) < 0)
		return -1;
	sel->nshow = (size_t)n;
	if ((n = select_resolve(p, "--sort", o->sort, o->nsort,
	    &sel->sort)) < 0)
		return -1;
	sel->nsort = (size_t)n;
	for (i = 0; i < o->ngates; i++) {
		sel->gate_ev = xreallocarray(sel->gate_ev, i + 1,
		    sizeof(*sel->gate_ev));
		sel->gate_ev[i] = profile_event_index(p, o->gates[i].event);
		if (sel->gate_ev[i] < 0) {
			select_unknown_event(p, "--fail-above",
			    o->gates[i].event);
			return -1;
		}
	}
	sel->thr = xcalloc(sel->nsort, sizeof(*sel->thr));
	if (o->sort_thr != NULL) {
		for (i = 0; i < sel->nsort; i++)
			sel->thr[i] = strtod(o->sort_thr[i], NULL);
		sel->single = 0;
	} else {
		sel->single = strtod(o->threshold, NULL);
		if (sel->nsort > 0)
			sel->thr[0] = sel->single;
	}
	return 0;
}

/* Return the threshold of sort event i as given ("0" if none was). */
const char *
select_threshold(const struct selection *sel, size_t i)
{
	if (sel->o->sort_thr != NULL)
		return sel->o->sort_thr[i];
	return i == 0 ? sel->o->threshold : "0";
}

/* Return the object of entry en: its row's, or 0 for a cycle. */
static uint32_t
select_objof(const struct selection *sel, const struct selentry *en)
{
	return en->row != CG_NONE ? sel->t->rows[en->row].obj : 0;
}

/* Return the label of entry en: its row's or its cycle's. */
const char *
select_label(const struct selection *sel, const struct selentry *en)
{
	return en->row != CG_NONE ? fntotals_label(sel->t, en->row) :
	    sel->g->cycles[en->cycle].label;
}

/*
 * Return nonzero if entry en has a call tree: a cycle, or a row other
 * than "???:???".
 */
int
select_has_tree(const struct selection *sel, const struct selentry *en)
{
	const struct fnrow	*row;

	if (en->cycle != CG_NONE)
		return 1;
	row = &sel->t->rows[en->row];
	return strcmp(profile_str(sel->p, row->file), "???") != 0 ||
	    strcmp(profile_str(sel->p, row->name), "???") != 0;
}

/*
 * Order entries by the sort events, descending, "never recorded" below
 * 0; then by label, then by object name, so the order is total.
 */
static int
select_entrycmp(const void *a, const void *b)
{
	const struct selentry	*x = a, *y = b;
	int			 c;

	if ((c = cost_cmp(x->cost, y->cost, cmp_ctx->sort,
	    cmp_ctx->nsort)) != 0)
		return c;
	if (x->row != CG_NONE && y->row != CG_NONE)
		c = fntotals_labelcmp(cmp_ctx->t, x->row, y->row);
	else
		c = strcmp(select_label(cmp_ctx, x), select_label(cmp_ctx, y));
	if (c != 0)
		return c;
	if ((c = strcmp(profile_str(cmp_ctx->p, select_objof(cmp_ctx, x)),
	    profile_str(cmp_ctx->p, select_objof(cmp_ctx, y)))) != 0)
		return c;
	return x->row < y->row ? -1 : x->row > y->row;
}

/*
 * Return nonzero if entry en passes the --inclusive=yes threshold: for
 * some sort event, at least (100 - its threshold)% of the total.  An
 * event with a threshold whose total is 0 (an xtree file's curB once
 * all is freed) cannot tell a share: it hides nothing, as in
 * callgrind_annotate.
 */
static int
select_incl_passes(const struct selection *sel, const struct selentry *en)
{
	uint64_t	v, total;
	size_t		k;

	if (sel->o->sort_thr == NULL && sel->single >= 100)
		return 1;
	for (k = 0; k < sel->nsort; k++) {
		total = sel->total[sel->sort[k]];
		if (sel->thr[k] > 0 && (total == COST_NONE || total == 0))
			return 1;
		v = en->cost[sel->sort[k]];
		if (v != COST_NONE && select_prop(v, total) >=
		    100 - sel->thr[k])
			return 1;
	}
	return 0;
}

/*
 * Return the order of the n entries ents by the first sort event's
 * count (descending, "never recorded" last), made with a radix sort:
 * ents[order[0]] first.  select_sort_run() finishes the order
 * (select_entrycmp()) of each run of equal counts when the choice
 * reaches it: most entries of a large profile are never printed, nor
 * copied.  Return NULL if ents were sorted in place instead.
 */
static uint32_t *
select_order(const struct selection *sel, struct selentry *ents, size_t n)
{
	uint64_t	*key, v;
	uint32_t	*order;
	size_t		 i;

	if (sel->nsort == 0 || n > UINT32_MAX) {
		qsort(ents, n, sizeof(*ents), select_entrycmp);
		return NULL;
	}
	key = xreallocarray(NULL, n, sizeof(*key));
	for (i = 0; i < n; i++) {
		v = ents[i].cost[sel->sort[0]];
		key[i] = v == COST_NONE ? UINT64_MAX : UINT64_MAX - 1 - v;
	}
	order = xreallocarray(NULL, n, sizeof(*order));
	sort_index_u64(key, (uint32_t)n, order);
	free(key);
	return order;
}

/*
 * Put in out[i...] the run of entries, in the order given (NULL: as
 * they are), whose first sort event's count is that of the i-th, sorted
 * by select_entrycmp(); return the end of the run.
 */
static size_t
select_sort_run(const struct selection *sel, const struct selentry *ents,
    const uint32_t *order, size_t n, size_t i, struct selentry *out)
{
	uint64_t	v;
	size_t		j;

	if (order == NULL) {
		out[i] = ents[i];	/* select_order() sorted all */
		return i + 1;
	}
	v = ents[order[i]].cost[sel->sort[0]];
	for (j = i; j < n && ents[order[j]].cost[sel->sort[0]] == v; j++) {
		if (j + SELECT_AHEAD < n)
			__builtin_prefetch(&ents[order[j + SELECT_AHEAD]]);
		out[j] = ents[order[j]];
	}
	if (j - i > 1)
		qsort(out + i, j - i, sizeof(*out), select_entrycmp);
	return j;
}

/*
 * Choose the entries to print, in order: self costs down to the
 * cumulative threshold, or with --inclusive=yes every entry (functions
 * and cycles) whose inclusive cost reaches (100 - threshold)% of the
 * total.  The extent covers every entry, printed or not (the old tool
 * fits its columns to them all).
 */
static void
select_entries(struct selection *sel)
{
	const struct report_opts *o = sel->o;
	struct selentry		*ents, en;
	const struct fnrow	*row;
	uint64_t		*sum, v;
	uint32_t		*order;
	size_t			 i, k, n = 0, nrows, run;
	unsigned		 e;

	nrows = sel->t->nrows;
	ents = xreallocarray(NULL, nrows + (sel->g ? sel->g->ncycles : 0),
	    sizeof(*ents));
	for (i = 0; i < nrows; i++) {
		row = &sel->t->rows[i];
		if (row->called_only && !o->inclusive)
			continue;
		if (!select_wanted(sel, (uint32_t)i))
			continue;
		ents[n].cost = o->inclusive ? sel->g->incl + i * sel->nev :
		    row->cost;
		ents[n].row = (uint32_t)i;
		ents[n].cycle = CG_NONE;
		n++;
	}
	if (o->inclusive)
		for (i = 0; i < sel->g->ncycles; i++) {
			for (k = 0; o->nfunctions > 0 && k <
			    sel->g->cycles[i].nmembers; k++)
				if (select_wanted(sel,
				    sel->g->cycles[i].members[k]))
					break;
			if (o->nfunctions > 0 &&
			    k == sel->g->cycles[i].nmembers)
				continue;
			ents[n].cost = sel->g->cycles[i].incl;
			ents[n].row = CG_NONE;
			ents[n].cycle = (uint32_t)i;
			n++;
		}
	sel->extent = xreallocarray(NULL, sel->nev, sizeof(*sel->extent));
	for (e = 0; e < sel->nev; e++)
		sel->extent[e] = COST_NONE;
	for (i = 0; i < n; i++)
		for (e = 0; e < sel->nev; e++) {
			v = ents[i].cost[e];
			if (v != COST_NONE && (sel->extent[e] == COST_NONE ||
			    v > sel->extent[e]))
				sel->extent[e] = v;
		}
	cmp_ctx = sel;
	if (o->inclusive) {
		/* Only the entries that pass are printed and sorted. */
		for (i = k = 0; i < n; i++)
			if (select_incl_passes(sel, &ents[i]))
				ents[k++] = ents[i];
		n = k;
	}
	order = select_order(sel, ents, n);

	/* Each run is sorted where it is chosen from: in sel->ents. */
	sel->ents = xreallocarray(NULL, n, sizeof(*sel->ents));
	sum = xcalloc(sel->nsort, sizeof(*sum));
	for (i = run = 0; i < n; i++) {
		if (i == run)
			run = select_sort_run(sel, ents, order, n, i, sel->ents);
		if (!o->inclusive && sel->single < 100 &&
		    select_reached(sel, sum, sel->total))
			break;
		if (i + 1 < run) {
			__builtin_prefetch(sel->ents[i + 1].cost);
			if (sel->ents[i + 1].row != CG_NONE)
				__builtin_prefetch(&sel->t->rows[
				    sel->ents[i + 1].row]);
		}
		en = sel->ents[i];
		sel->nents++;
		if (en.row != CG_NONE) {
			sel->files = xgrow(sel->files, &sel->files_cap,
			    sel->nfiles + 1, sizeof(*sel->files));
			sel->files[sel->nfiles++] = sel->t->rows[en.row].file;
		}
		for (k = 0; k < sel->nsort; k++) {
			v = en.cost[sel->sort[k]];
			if (v != COST_NONE && __builtin_add_overflow(sum[k], v,
			    &sum[k]))
				sum[k] = UINT64_MAX;
		}
	}
	cmp_ctx = NULL;
	free(sum);
	free(order);
	free(ents);
	select_cycles(sel);
}

/*
 * The cycles the printed entries name: those printed as entries, in
 * their order, then those that printed functions belong to, in the
 * order of the functions.
 */
static void
select_cycles(struct selection *sel)
{
	unsigned char	*seen;
	uint32_t	 c;
	size_t		 i, pass;

	if (sel->g == NULL || sel->g->ncycles == 0)
		return;
	seen = xcalloc(sel->g->ncycles, 1);
	sel->cycles = xreallocarray(NULL, sel->g->ncycles,
	    sizeof(*sel->cycles));
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < sel->nents; i++) {
			c = pass == 0 ? sel->ents[i].cycle :
			    sel->ents[i].row != CG_NONE ?
			    sel->g->cycle[sel->ents[i].row] : CG_NONE;
			if (c == CG_NONE || seen[c])
				continue;
			seen[c] = 1;
			sel->cycles[sel->ncycles++] = c;
		}
	free(seen);
}

/*
 * Evaluate the --fail-above limits on one profile: against the program
 * totals and every function (self cost, or inclusive with
 * --inclusive=yes), in that order per limit.
 */
static void
select_gates(struct selection *sel)
{
	const struct report_opts *o = sel->o;
	const struct fnrow	*row;
	const struct gate	*g;
	struct gate_result	 res;
	const uint64_t		*c;
	uint64_t		 v;
	size_t			 i, k;

	for (k = 0; k < o->ngates; k++) {
		g = &o->gates[k];
		for (i = 0; i <= sel->t->nrows; i++) {
			if (i == sel->t->nrows) {
				v = sel->total[sel->gate_ev[k]];
				if (!gate_check(g, NULL, NULL, 0, select_count(v),
				    0, &res))
					continue;
			} else {
				row = &sel->t->rows[i];
				if (row->called_only && !o->inclusive)
					continue;
				c = o->inclusive ? sel->g->incl + i * sel->nev :
				    row->cost;
				v = c[sel->gate_ev[k]];
				if (!gate_check(g, fntotals_label(sel->t, i),
				    profile_str(sel->p, row->name), 0,
				    select_count(v), 0, &res))
					continue;
			}
			select_gate_add(sel, &res);
		}
	}
}

/* Return OLD's index of the profile's event ev (--diff checked both). */
static int
select_old_event(const struct selection *sel, const struct profile *old,
    int ev)
{
	return profile_event_index(old, profile_str(sel->p,
	    profile_event(sel->p, (unsigned)ev)));
}

/*
 * What a call graph picture draws, of the first sort event; with old
 * set (--diff), beside OLD's costs, the percentages of OLD's totals.
 */
static void
select_graph(struct selection *sel, const struct profile *old)
{
	struct graphsel_from	gf;

	memset(&gf, 0, sizeof(gf));
	gf.o = sel->o;
	gf.ev = sel->nsort > 0 ? sel->sort[0] : 0;
	if (old != NULL) {
		sel->g = callgraph_build(sel->p);
		sel->t = sel->g->t;
		sel->old_g = callgraph_build(old);
		gf.old_g = sel->old_g;
		gf.old_t = sel->old_g->t;
		gf.old_ev = select_old_event(sel, old, gf.ev);
		gf.total = sel->d->old_total;
	} else
		gf.total = sel->total;
	gf.g = sel->g;
	gf.t = sel->t;
	sel->graph = graphsel_build(&gf);
}

/*
 * The flame graph frames of the first sort event (and OLD's, --diff).
 * Return -1 after a message if they are too many to make.
 */
static int
select_flame(struct selection *sel, const struct profile *old)
{
	struct flamesel_from	ff;
	unsigned		*evs;
	size_t			 i;

	ff.p = sel->p;
	ff.old = old;
	ff.o = sel->o;
	ff.run = sel->run;
	ff.ev = sel->nsort > 0 ? sel->sort[0] : 0;
	ff.old_ev = old != NULL ? select_old_event(sel, old, ff.ev) : 0;
	if (old != NULL || !(sel->o->format->needs & FORMAT_STACKS_EVERY)) {
		sel->flame = flamesel_build(&ff);
		return sel->flame == NULL ? -1 : 0;
	}
	/* Each event shown, their stacks made together. */
	evs = xreallocarray(NULL, sel->nshow + 1, sizeof(*evs));
	for (i = 0; i < sel->nshow; i++)
		evs[i] = (unsigned)sel->show[i];
	sel->stacks = flamesel_stacks(&ff, evs, (unsigned)sel->nshow);
	free(evs);
	return sel->stacks == NULL ? -1 : 0;
}

/*
 * Return the flame graph frames of the k-th event shown, made from the
 * stacks the selection made (FORMAT_STACKS_EVERY) for one view to print
 * and free: one event's at a time, in those of the event before (prev,
 * or NULL), whose names and room are kept.
 */
struct flamesel *
select_flames_of(const struct selection *sel, size_t k, struct flamesel *prev)
{
	struct flamesel_from	ff;

	memset(&ff, 0, sizeof(ff));
	ff.p = sel->p;
	ff.o = sel->o;
	ff.run = sel->run;
	ff.ev = sel->show[k];
	return flamesel_event(&ff, sel->stacks, (unsigned)k, prev);
}

/*
 * What machine-code annotation prints: the functions of the printed
 * rows (a cycle's members take its place), in their order.
 */
static void
select_asm(struct selection *sel)
{
	const struct cgcycle	*cy;
	size_t			*rank, i, m, nr = sel->t->nrows;

	rank = xreallocarray(NULL, nr + 1, sizeof(*rank));
	for (i = 0; i < nr; i++)
		rank[i] = SIZE_MAX;
	for (i = sel->nents; i-- > 0; ) {
		if (sel->ents[i].row != CG_NONE) {
			rank[sel->ents[i].row] = i;
			continue;
		}
		cy = &sel->g->cycles[sel->ents[i].cycle];
		for (m = 0; m < cy->nmembers; m++)
			if (rank[cy->members[m]] > i)
				rank[cy->members[m]] = i;
	}
	sel->asm_ = select_asm_of(sel, rank);
	free(rank);
}

/*
 * The machine code of the functions of the rows with a place in rank
 * (SIZE_MAX: none), in that order (for the terminal browser too).
 */
struct asmsel *
select_asm_of(const struct selection *sel, const size_t *rank)
{
	struct asmsel_from	from;

	memset(&from, 0, sizeof(from));
	from.p = sel->p;
	from.o = sel->o;
	from.run = sel->run;
	from.t = sel->t;
	from.rowrank = rank;
	from.sort = sel->sort;
	from.nsort = sel->nsort;
	from.nev = sel->nev;
	return asmsel_build(&from);
}

/*
 * The annotated source of one file (string id), as --auto=yes would
 * give it, for the terminal browser.
 */
struct srcsel *
select_source_of(struct selection *sel, uint32_t file)
{
	struct report_run	run = *sel->run;
	struct srcsel_from	from;

	run.nuser_files = 0;
	memset(&from, 0, sizeof(from));
	from.p = sel->p;
	from.o = sel->o;
	from.run = &run;
	from.every = 1;
	from.files = &file;
	from.nfiles = 1;
	from.sort = sel->sort;
	from.nsort = sel->nsort;
	from.nev = sel->nev;
	from.t = &sel->t;
	from.g = &sel->g;
	return srcsel_annotate(&from);
}

/*
 * Return nonzero if row is wanted: there is no --function, or one of
 * its expressions matches the row's label.
 */
static int
select_wanted(const struct selection *sel, uint32_t row)
{
	const struct report_opts	*o = sel->o;

	return o->nfunctions == 0 || report_matches(o->functions,
	    o->nfunctions, fntotals_label(sel->t, row));
}

/*
 * Ask d for the derived event name, if it is not a recorded one.
 * Return -1 after a message if its formula cannot be computed.
 */
static int
select_derive(struct derive *d, const char *name)
{
	return derive_add(d, name) == -2 ? -1 : 0;
}

/*
 * Make p (and old) again if the options ask for derived events, --fold
 * or --group: the events named that p does not record are derived, in
 * the order named, for old as for p.  Return -1 after a message.
 */
static int
select_reshape(struct selection *sel, const struct profile **p,
    const struct profile **old)
{
	const struct report_opts *o = sel->o;
	struct derive		*d, *dold = NULL;
	struct reshape		 how;
	size_t			 i;
	int			 k, rc = 0;

	d = derive_new(*p, o->events, o->nevents);
	for (i = 0; rc == 0 && i < o->nshow; i++)
		rc = select_derive(d, o->show[i]);
	for (i = 0; rc == 0 && i < o->nsort; i++)
		rc = select_derive(d, o->sort[i]);
	for (i = 0; rc == 0 && i < o->ngates; i++)
		rc = select_derive(d, o->gates[i].event);
	if (rc == 0 && *old != NULL) {
		dold = derive_new(*old, o->events, o->nevents);
		for (i = 0; rc == 0 && i < derive_count(d); i++) {
			if ((k = derive_add(dold, derive_name(d, i))) == -2)
				rc = -1;
			else if (k != (int)i) {
				msg(MSG_INPUTS_DIFFER, sel->run->old_name, 0,
				    "'%s' cannot be derived there as in %s",
				    derive_name(d, i), sel->run->profile_name);
				rc = -1;
			}
		}
	}
	if (rc == 0 && (derive_count(d) > 0 || o->fold != 0 ||
	    o->group != PROFILE_ROWS_FUNCTIONS)) {
		how.derive = derive_count(d) > 0 ? d : NULL;
		how.fold = o->fold;
		how.rows = o->group;
		how.instrs = o->asm_annotate ||	/* the browser's: none */
		    (o->format->needs & FORMAT_INSTRS);
		if ((sel->own = reshape_build(*p, &how,
		    sel->run->profile_name)) == NULL)
			rc = -1;
		else
			*p = sel->own;
		how.derive = derive_count(d) > 0 ? dold : NULL;
		if (rc == 0 && *old != NULL && (sel->own_old = reshape_build(
		    *old, &how, sel->run->old_name)) == NULL)
			rc = -1;
		else if (rc == 0 && *old != NULL)
			*old = sel->own_old;
	}
	derive_free(d);
	derive_free(dold);
	return rc;
}

/*
 * Give the call graph of sel to the caller, who frees it (with
 * callgraph_free()) after every selection given it (report_opts'
 * graph) is freed.  Return NULL if sel has none or does not own it.
 */
struct callgraph *
select_take_graph(struct selection *sel)
{
	if (sel->g == NULL || sel->g_borrowed)
		return NULL;
	sel->g_borrowed = 1;
	return sel->g;
}

/* Return what the rows are, for a column's title. */
const char *
select_rowname(const struct selection *sel)
{
	switch (profile_rows(sel->p)) {
	case PROFILE_ROWS_OBJECTS:
		return "object";
	case PROFILE_ROWS_FILES:
		return "file";
	default:
		return "file:function";
	}
}

/*
 * Make the selection for profile p, or with old set for the difference
 * p - old.  Return NULL after an error message if an event named in the
 * options is not in the profile, or if what is asked is too large.
 */
struct selection *
select_build(const struct profile *p, const struct profile *old,
    const struct report_opts *o, const struct report_run *run)
{
	struct selection	*sel;
	struct srcsel_from	 from;
	const struct profile	*src = p;
	size_t			 i;

	sel = xcalloc(1, sizeof(*sel));
	sel->o = o;
	sel->run = run;
	if (select_reshape(sel, &p, &old) == -1 ||
	    select_setup(sel, p, o) == -1) {
		select_free(sel);
		return NULL;
	}
	if (old != NULL) {
		sel->old = old;
		select_diff(sel, old);
		if (o->format->needs & FORMAT_GRAPH)
			select_graph(sel, old);
		if ((o->format->needs & FORMAT_STACKS) &&
		    select_flame(sel, old) == -1) {
			select_free(sel);
			return NULL;
		}
		return sel;
	}
	sel->total = xreallocarray(NULL, sel->nev, sizeof(*sel->total));
	sel->source = totals_compute(p, sel->total);
	sel->base = sel->total;
	/*
	 * The stack views read the stacks alone, the callgrind export the
	 * profile: rows, entries and a call graph only for --fail-above's
	 * limits on functions (the 100 MB large-C++ synthetic's stacks: 0.1
	 * s, fresh pages for 138,000 rows' costs).
	 */
	if (!(o->format->needs & FORMAT_ROWS) && o->ngates == 0) {
		if ((o->format->needs & FORMAT_STACKS) &&
		    select_flame(sel, NULL) == -1) {
			select_free(sel);
			return NULL;
		}
		return sel;
	}
	if (run->graph != NULL && run->graph_of == p) {
		/* The caller's call graph of this very profile (--tui). */
		sel->g = run->graph;
		sel->g_borrowed = 1;
		sel->t = sel->g->t;
	} else if (o->tree != 0 || o->inclusive ||
	    (o->format->needs & FORMAT_CALLS)) {
		sel->g = callgraph_build(p);
		sel->t = sel->g->t;
		/* Groups: inclusive costs from the functions' calls. */
		if (profile_rows(p) != PROFILE_ROWS_FUNCTIONS && p != src)
			callgraph_group_incl(sel->g, src, profile_rows(p));
	} else
		sel->t = fntotals_build(p);
	select_entries(sel);
	select_gates(sel);
	if (o->format->needs & FORMAT_GRAPH) {
		select_graph(sel, NULL);
		return sel;
	}
	if (o->format->needs & FORMAT_STACKS) {
		if (select_flame(sel, NULL) == -1) {
			select_free(sel);
			return NULL;
		}
		return sel;
	}
	/* --totals prints no source; JSON is whole whatever it says. */
	if (o->totals_only && !(o->format->needs & FORMAT_WHOLE))
		return sel;
	/* Machine code, of functions (not groups). */
	if (o->asm_annotate && profile_rows(p) == PROFILE_ROWS_FUNCTIONS &&
	    (o->format->needs & FORMAT_ASM))
		select_asm(sel);
	/* An object's costs have no source lines. */
	if (profile_rows(p) == PROFILE_ROWS_OBJECTS)
		return sel;
	from.p = p;
	from.o = o;
	from.run = run;
	from.every = o->auto_annotate;
	from.files = sel->files;
	from.nfiles = sel->nfiles;
	from.sort = sel->sort;
	from.nsort = sel->nsort;
	from.nev = sel->nev;
	from.t = &sel->t;
	from.g = &sel->g;
	if (o->format->needs & FORMAT_LINES)
		sel->src = srcsel_lines(&from);
	else if ((o->format->needs & FORMAT_ANNOTATE) &&
	    (o->auto_annotate || run->nuser_files > 0)) {
		sel->src = srcsel_annotate(&from);
		/* Rows added by a call graph made there moved the costs. */
		for (i = 0; i < sel->nents; i++)
			if (sel->ents[i].row != CG_NONE && !o->inclusive)
				sel->ents[i].cost =
				    sel->t->rows[sel->ents[i].row].cost;
	}
	return sel;
}

/* Free a selection and all it holds. */
void
select_free(struct selection *sel)
{
	size_t	i;

	if (sel == NULL)
		return;
	srcsel_free(sel->src);
	asmsel_free(sel->asm_);
	graphsel_free(sel->graph);
	flamesel_free(sel->flame);
	flame_free(sel->stacks);
	callgraph_free(sel->old_g);
	if (sel->g != NULL) {
		if (!sel->g_borrowed)
			callgraph_free(sel->g);
	} else if (sel->t != NULL)
		fntotals_free(sel->t);
	for (i = 0; i < sel->ndrows; i++) {
		free(sel->drows[i].delta);
		free(sel->drows[i].def);
	}
	free(sel->drows);
	if (sel->d != NULL)
		diff_free(sel->d);
	free(sel->tdelta);
	free(sel->tdef);
	free(sel->ents);
	free(sel->cycles);
	free(sel->extent);
	free(sel->files);
	free(sel->gres);
	free(sel->total);
	free(sel->gate_ev);
	free(sel->thr);
	free(sel->sort);
	free(sel->show);
	profile_free(sel->own);
	profile_free(sel->own_old);
	free(sel);
}
