/*
 * seldiff.c - the rows of a difference (--diff OLD NEW): every
 * function's change per event, exact, sorted by the size of the change
 * in the sort events, then by name.
 */
#include "base/compat.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/diff.h"
#include "analysis/gate.h"
#include "base/cost.h"
#include "base/xmalloc.h"
#include "select/select.h"
#include "select/select_impl.h"

/* Context for the qsort comparison, which qsort cannot pass. */
static const struct selection	*cmp_ctx;

static int	select_drowcmp(const void *, const void *);

/* Order rows of a difference by the size of their change, then label. */
static int
select_drowcmp(const void *a, const void *b)
{
	const struct seldiff	*x = a, *y = b;
	uint64_t		 u, v;
	size_t			 i;
	int			 e;

	for (i = 0; i < cmp_ctx->nsort; i++) {
		e = cmp_ctx->sort[i];
		if (x->def[e] != y->def[e])
			return x->def[e] ? -1 : 1;
		u = x->delta[e].mag;
		v = y->delta[e].mag;
		if (u != v)
			return u > v ? -1 : 1;
	}
	return strcmp(x->r->label, y->r->label);
}

/*
 * The difference NEW - OLD (sel->p is NEW): every function's change,
 * sorted by its size, the first ndsel down to the threshold on the
 * cumulative size of the changes; the totals' change; the limits on
 * the change of the totals and of each function.  Percentages are of
 * OLD's totals.
 */
void
select_diff(struct selection *sel, const struct profile *old)
{
	const struct report_opts *o = sel->o;
	const struct gate	*g;
	struct seldiff		*rows;
	struct diff		*d;
	struct gate_result	 res;
	uint64_t		*sum, *all;
	size_t			 i, k, nsel;
	int			 e, ev, nev = (int)sel->nev;

	d = sel->d = diff_build(old, sel->p, o->inclusive, o->mod_file,
	    o->mod_func);
	sel->base = d->old_total;

	/* The changes, and the total size of the changes per event. */
	rows = sel->drows = xreallocarray(NULL, d->nrows, sizeof(*rows));
	sel->ndrows = d->nrows;
	all = xcalloc(sel->nev, sizeof(*all));
	for (i = 0; i < d->nrows; i++) {
		rows[i].r = &d->rows[i];
		rows[i].delta = xreallocarray(NULL, sel->nev,
		    sizeof(*rows[i].delta));
		rows[i].def = xreallocarray(NULL, sel->nev, 1);
		for (e = 0; e < nev; e++) {
			rows[i].def[e] = (unsigned char)diff_value(
			    d->rows[i].new[e], d->rows[i].old[e],
			    &rows[i].delta[e]);
			if (__builtin_add_overflow(all[e],
			    rows[i].delta[e].mag, &all[e]))
				all[e] = UINT64_MAX;
		}
	}
	sel->tdelta = xreallocarray(NULL, sel->nev, sizeof(*sel->tdelta));
	sel->tdef = xreallocarray(NULL, sel->nev, 1);
	for (e = 0; e < nev; e++)
		sel->tdef[e] = (unsigned char)diff_value(d->new_total[e],
		    d->old_total[e], &sel->tdelta[e]);
	cmp_ctx = sel;
	qsort(rows, d->nrows, sizeof(*rows), select_drowcmp);
	cmp_ctx = NULL;

	/*
	 * Down to the threshold, on the cumulative size of the changes;
	 * functions that did not change are listed only when everything is
	 * (--threshold=100), as functions without cost are.
	 */
	sum = xcalloc(sel->nsort, sizeof(*sum));
	for (nsel = 0; nsel < d->nrows; nsel++) {
		if (o->sort_thr != NULL || sel->single < 100) {
			for (k = 0; k < sel->nsort; k++)
				if (rows[nsel].def[sel->sort[k]] &&
				    rows[nsel].delta[sel->sort[k]].mag != 0)
					break;
			if (k == sel->nsort)
				break;
		}
		if (sel->single < 100 && select_reached(sel, sum, all))
			break;
		for (k = 0; k < sel->nsort; k++)
			if (__builtin_add_overflow(sum[k],
			    rows[nsel].delta[sel->sort[k]].mag, &sum[k]))
				sum[k] = UINT64_MAX;
	}
	sel->ndsel = nsel;

	/* The limits: on the change of the totals and of each function. */
	for (k = 0; k < o->ngates; k++) {
		g = &o->gates[k];
		ev = sel->gate_ev[k];
		for (i = 0; i <= d->nrows; i++) {
			if (i == d->nrows ? !gate_check(g, NULL, NULL, 1,
			    sel->tdelta[ev], d->old_total[ev] == COST_NONE ?
			    0 : d->old_total[ev], &res) :
			    !gate_check(g, rows[i].r->label, rows[i].r->name,
			    1, rows[i].delta[ev], rows[i].r->old[ev] ==
			    COST_NONE ? 0 : rows[i].r->old[ev], &res))
				continue;
			select_gate_add(sel, &res);
		}
	}
	free(all);
	free(sum);
}
