/*
 * report_text.c - the text report in callgrind_annotate's layout: the
 * header block, PROGRAM TOTALS (and each part's with --per-part), and
 * the chosen function totals, self or inclusive, with their callers and
 * callees under --tree.  It prints a selection: the rows, their order
 * and their calls are chosen by select.c.
 */
#include "base/compat.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/callgraph.h"
#include "analysis/fntotals.h"
#include "base/cost.h"
#include "base/hooks.h"
#include "base/num.h"
#include "base/spool.h"
#include "model/profile.h"
#include "select/select.h"
#include "view/cells.h"
#include "view/header.h"
#include "view/report.h"

#define TEXT_STEP	8	/* rows between the steps of loading names */
#define TEXT_SPLIT	4096	/* rows worth a second thread to print */

/* What the text report prints with. */
struct text {
	struct cells		 c;
	const struct selection	*sel;
	unsigned		*w;	/* the function list's widths */
};

/* Entries printed into memory by a helper thread: text_helper(). */
struct rowhelp {
	const struct text	*x;
	size_t			 from, to;
	struct spool		*sp;	/* what it printed */
};

static void	text_summary(const struct text *);
static void	text_per_part(const struct text *);
static void	text_functions(const struct text *);
static void	text_rows(const struct text *, size_t, size_t);
static void	*text_helper(void *);
static const struct fnrow *text_selrow(const struct selection *, size_t);
static void	text_prefetch(const char *, size_t);
static void	text_rowname(const struct text *, uint32_t);
static void	text_obj(const struct text *, int, uint32_t, int);
static void	text_entry(const struct text *, const struct selentry *);
static void	text_tree_side(const struct text *, const struct selentry *,
		    int);

/* Print the PROGRAM TOTALS block. */
static void
text_summary(const struct text *x)
{
	unsigned	*w;

	w = cells_widths_new(&x->c);
	cells_widths_add(&x->c, w, x->sel->total);
	fputs(FANCY, x->c.out);
	cells_events(&x->c, w);
	fputs("\n" FANCY, x->c.out);
	cells_cost(&x->c, x->sel->total, w);
	fputs(" PROGRAM TOTALS", x->c.out);
	if (x->sel->source == TOTALS_CALCULATED)
		fputs(" (calculated)", x->c.out);
	fputs("\n\n", x->c.out);
	free(w);
}

/* With --per-part, print each part's totals, as the program totals. */
static void
text_per_part(const struct text *x)
{
	const struct profile	*p = x->sel->p;
	const struct part	*pt;
	const uint64_t		*c;
	unsigned		*w;
	size_t			 i, n = profile_nparts(p);

	w = cells_widths_new(&x->c);
	for (i = 0; i < n; i++)
		if (!profile_part(p, i)->skipped &&
		    totals_part(p, i, &c) >= 0 && c != NULL)
			cells_widths_add(&x->c, w, c);
	fputs(FANCY, x->c.out);
	cells_events(&x->c, w);
	fputs(" part\n" FANCY, x->c.out);
	for (i = 0; i < n; i++) {
		pt = profile_part(p, i);
		if (pt->skipped || (!pt->has_data && pt->summary == NULL &&
		    pt->totals == NULL))
			continue;
		(void)totals_part(p, i, &c);
		cells_cost(&x->c, c, w);
		fputc(' ', x->c.out);
		header_part_name(&x->c, pt);
		fputc('\n', x->c.out);
	}
	fputc('\n', x->c.out);
	free(w);
}

/* Print the label of row id (without making it). */
static void
text_rowname(const struct text *x, uint32_t id)
{
	const struct fnrow	*row = &x->sel->t->rows[id];

	cells_label(&x->c, row->file, row->name);
}

/*
 * Print " [object]" if an fn= line named the entry; an empty object is
 * shown as "[]" only if empty is set (call lines), as the old tool does.
 */
static void
text_obj(const struct text *x, int named, uint32_t obj, int empty)
{
	if (!named || (obj == 0 && !empty))
		return;
	fputs(" [", x->c.out);
	cells_name(&x->c, profile_str(x->sel->p, obj));
	fputc(']', x->c.out);
}

/*
 * Print the callers (mark "<") or the callees (">") of entry en: cost,
 * the other row's label, the count, and its object if an fn= line
 * named it.
 */
static void
text_tree_side(const struct text *x, const struct selentry *en, int callers)
{
	const struct fnrow	*row;
	struct selcall		*cl;
	uint64_t		*costs;
	char			 count[32];
	size_t			 i, n;

	n = select_calls(x->sel, en, callers, &cl, &costs);
	for (i = 0; i < n; i++) {
		row = &x->sel->t->rows[cl[i].row];
		cells_cost(&x->c, cl[i].cost, x->w);
		fputs(callers ? " < " : " >   ", x->c.out);
		text_rowname(x, cl[i].row);
		fputs(" (", x->c.out);
		fwrite(count, 1, num_commify(cl[i].count, count), x->c.out);
		fputs("x)", x->c.out);
		text_obj(x, row->named, row->obj, 1);
		fputc('\n', x->c.out);
	}
	free(costs);
	free(cl);
}

/* Print one function or cycle entry, with its tree if asked for. */
static void
text_entry(const struct text *x, const struct selentry *en)
{
	const struct selection	*sel = x->sel;
	const struct cgcycle	*cy;
	const struct fnrow	*row;
	int			 tree = sel->o->tree != 0;
	int			 hastree = tree && select_has_tree(sel, en);
	size_t			 i;

	if (tree)
		fputc('\n', x->c.out);
	if (hastree && (sel->o->tree & REPORT_TREE_CALLER))
		text_tree_side(x, en, 1);
	cells_cost(&x->c, en->cost, x->w);
	if (tree)
		fputs(" * ", x->c.out);
	fputc(' ', x->c.out);
	if (en->row != CG_NONE) {
		text_rowname(x, en->row);
		text_obj(x, sel->t->rows[en->row].named,
		    sel->t->rows[en->row].obj, 0);
	} else
		cells_name(&x->c, sel->g->cycles[en->cycle].label);
	fputc('\n', x->c.out);
	if (en->cycle != CG_NONE && tree) {
		cy = &sel->g->cycles[en->cycle];
		for (i = 0; i < cy->nmembers; i++) {
			row = &sel->t->rows[cy->members[i]];
			cells_cost(&x->c, sel->g->incl +
			    (size_t)cy->members[i] * sel->nev, x->w);
			fputs(" +   ", x->c.out);
			text_rowname(x, cy->members[i]);
			text_obj(x, row->named, row->obj, 1);
			fputc('\n', x->c.out);
		}
	}
	if (hastree && (sel->o->tree & REPORT_TREE_CALLING))
		text_tree_side(x, en, 0);
}

/* Start loading the len bytes at s (a name about to be printed). */
static void
text_prefetch(const char *s, size_t len)
{
	size_t	i;

	for (i = 0; i < len && i < 512; i += 64)
		__builtin_prefetch(s + i);
}

/*
 * Return where the row of chosen entry j is (not loading it), or NULL
 * past the last entry or for a cycle.
 */
static const struct fnrow *
text_selrow(const struct selection *sel, size_t j)
{
	if (j >= sel->nents || sel->ents[j].row == CG_NONE)
		return NULL;
	return &sel->t->rows[sel->ents[j].row];
}

/*
 * Print the chosen entries [from, to).  The names are all over memory:
 * they are loaded ahead, in three steps, each using what the one before
 * loaded: the row, where its strings are, their bytes.
 */
static void
text_rows(const struct text *x, size_t from, size_t to)
{
	const struct selection	*sel = x->sel;
	const struct fnrow	*row;
	size_t			 i;

	for (i = from; i < to; i++) {
		if ((row = text_selrow(sel, i + 3 * TEXT_STEP)) != NULL)
			__builtin_prefetch(row);
		if ((row = text_selrow(sel, i + 2 * TEXT_STEP)) != NULL) {
			profile_str_prefetch(sel->p, row->name);
			profile_str_prefetch(sel->p, row->file);
		}
		if ((row = text_selrow(sel, i + TEXT_STEP)) != NULL) {
			text_prefetch(profile_str(sel->p, row->name),
			    profile_strlen(sel->p, row->name));
			__builtin_prefetch(profile_str(sel->p, row->file));
		}
		text_entry(x, &sel->ents[i]);
	}
}

/* The helper thread of text_functions(): print [from, to) into memory. */
static void *
text_helper(void *arg)
{
	struct rowhelp	*h = arg;
	struct text	 x = *h->x;

	x.c.out = spool_stream(h->sp);
	text_rows(&x, h->from, h->to);
	return NULL;
}

/*
 * Print the chosen function totals.  Without trees, a long list is
 * printed in two threads: the last third into memory by a helper, while
 * this one prints the rest (the names are all over memory, and loading
 * them is most of the time).
 */
static void
text_functions(const struct text *x)
{
	const struct selection	*sel = x->sel;
	struct rowhelp		 h;
	pthread_t		 thr;

	fputs(FANCY, x->c.out);
	cells_events(&x->c, x->w);
	fprintf(x->c.out, " %s\n" FANCY, select_rowname(x->sel));
	memset(&h, 0, sizeof(h));
	h.x = x;
	h.from = sel->nents - sel->nents / 3;
	h.to = sel->nents;
	if (sel->o->tree != 0 || sel->nents < (hooks.split > 0 ?
	    hooks.split : TEXT_SPLIT) || sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		text_rows(x, 0, sel->nents);
		fputc('\n', x->c.out);
		return;
	}
	h.sp = spool_open();
	if (pthread_create(&thr, NULL, text_helper, &h) != 0)
		text_rows(x, 0, sel->nents);
	else {
		text_rows(x, 0, h.from);
		pthread_join(thr, NULL);
		if (spool_copy(h.sp, x->c.out) == -1)
			text_rows(x, h.from, h.to);
	}
	spool_free(h.sp);
	fputc('\n', x->c.out);
}

/*
 * Print the text report of a selection on one profile: header, totals,
 * each part's totals if asked for, the function list.  Return 0.
 */
int
report_text(FILE *out, const struct selection *sel)
{
	struct text	x;

	cells_init(&x.c, out, sel);
	x.sel = sel;
	/* The widths fit every entry, printed or not (as the old tool). */
	x.w = cells_widths_new(&x.c);
	cells_widths_add(&x.c, x.w, sel->extent);
	header_print(&x.c, sel);
	text_summary(&x);
	if (sel->o->per_part)
		text_per_part(&x);
	text_functions(&x);
	free(x.w);
	return 0;
}
