/*
 * report.c - the text report in callgrind_annotate's layout: the
 * header block, PROGRAM TOTALS and the function totals (self or
 * inclusive) sorted by the chosen events down to the threshold, with
 * callers and callees under --tree.  It reads the model only
 * through const accessors and the analyses.
 */
#include "compat.h"

#include <stdlib.h>
#include <string.h>

#include "annotate.h"
#include "callgraph.h"
#include "cells.h"
#include "cost.h"
#include "fntotals.h"
#include "msg.h"
#include "profile.h"
#include "report.h"
#include "xmalloc.h"

#define FANCY	"--------------------------------------------------------------------------------\n"

struct reporter {
	struct cells		  c;		/* the count columns */
	FILE			 *out;
	const struct profile	 *p;
	const struct report_opts *o;
	unsigned		  nev;
	int			 *show;		/* event indices shown */
	size_t			  nshow;
	int			 *sort;		/* event indices sorted by */
	size_t			  nsort;
	double			 *thr;		/* threshold per sort event */
	double			  single;	/* --threshold, 0 if per event */
	uint64_t		 *total;	/* percentage base */
	enum totals_source	  source;
	struct callgraph	 *g;		/* unless only self costs */
	struct fntotals		 *t;		/* rows (g's if g is set) */
	uint32_t		 *files;	/* files of printed functions */
	size_t			  nfiles, files_cap;
};

/* A printed entry: a function row, or a cycle with --inclusive=yes. */
struct entry {
	const char	*label;
	uint32_t	 obj;
	int		 named;
	const uint64_t	*cost;		/* self or inclusive */
	uint32_t	 row;		/* row, or CG_NONE for a cycle */
	uint32_t	 cycle;		/* cycle, or CG_NONE for a row */
};

/* A caller or callee line of a tree. */
struct callline {
	uint32_t	 row;		/* the row at the other end */
	uint64_t	 count;
	const uint64_t	*cost;
};

static int	report_resolve(const struct profile *, const char *,
		    char **, size_t, int **);
static double	report_prop(uint64_t, uint64_t);
static void	report_header(const struct reporter *);
static void	report_summary(const struct reporter *);
static void	report_functions(struct reporter *);
static int	report_costcmp(const struct reporter *, const uint64_t *,
		    const uint64_t *);
static int	report_entrycmp(const void *, const void *);
static int	report_callcmp(const void *, const void *);
static int	report_labelcmp(const char *, const char *);
static void	report_calls(const struct reporter *, struct callline *,
		    size_t, const char *, const unsigned *);
static size_t	report_gather(const struct reporter *, const uint32_t *,
		    size_t, int, struct callline *, uint64_t *);
static void	report_tree_side(const struct reporter *, uint32_t,
		    uint32_t, int, const unsigned *);
static void	report_entry(const struct reporter *, const struct entry *,
		    const unsigned *);
static int	report_incl_passes(const struct reporter *,
		    const struct entry *);
static void	report_obj(const struct reporter *, int, uint32_t, int);
static void	report_part_name(const struct reporter *, const struct part *);
static void	report_parts(const struct reporter *);
static void	report_per_part(const struct reporter *);

/* Context for report_rowcmp, which qsort cannot pass. */
static const struct reporter	*cmp_ctx;

/*
 * Map event names to indices into *idx; with names NULL take every
 * event in file order.  Print an error naming opt for an unknown event.
 */
static int
report_resolve(const struct profile *p, const char *opt, char **names,
    size_t n, int **idx)
{
	size_t	i;
	int	e;

	if (names == NULL) {
		n = profile_nevents(p);
		*idx = xreallocarray(NULL, n, sizeof(**idx));
		for (i = 0; i < n; i++)
			(*idx)[i] = (int)i;
		return (int)n;
	}
	*idx = xreallocarray(NULL, n, sizeof(**idx));
	for (i = 0; i < n; i++) {
		if ((e = profile_event_index(p, names[i])) < 0) {
			msg_usage_error("%s event '%s' does not appear in the "
			    "profile's events: line", opt, names[i]);
			free(*idx);
			*idx = NULL;
			return -1;
		}
		(*idx)[i] = e;
	}
	return (int)n;
}

/* Check that every --show and --sort event is in the profile. */
int
report_check_events(const struct profile *p, const struct report_opts *o)
{
	int	*idx;

	if (report_resolve(p, "--show", o->show, o->nshow, &idx) < 0)
		return -1;
	free(idx);
	if (report_resolve(p, "--sort", o->sort, o->nsort, &idx) < 0)
		return -1;
	free(idx);
	return 0;
}

/* Print the header block: file, descriptions, target, options. */
static void
report_header(const struct reporter *r)
{
	const struct part	*pt = profile_part(r->p, 0);
	const char		*s;
	size_t			 i;

	fputs(FANCY, r->out);
	fprintf(r->out, "Profile data file '%s'", r->o->profile_name);
	if (*(s = profile_str(r->p, pt->creator)) != '\0') {
		fputs(" (creator: ", r->out);
		cells_name(&r->c, s);
		fputc(')', r->out);
	}
	fputs("\n" FANCY, r->out);
	for (i = 0; i < pt->ndesc; i++) {
		s = profile_str(r->p, pt->desc[i]);
		if (strncmp(s, "Option:", 7) != 0) {
			cells_name(&r->c, s);
			fputc('\n', r->out);
		}
	}
	s = profile_str(r->p, pt->cmd);
	fputs("Profiled target:  ", r->out);
	cells_name(&r->c, *s != '\0' ? s : "(unknown)");
	if (*(s = profile_str(r->p, pt->pid)) != '\0') {
		fputs(" (PID ", r->out);
		cells_name(&r->c, s);
		if (*(s = profile_str(r->p, pt->part)) != '\0') {
			fputs(", part ", r->out);
			cells_name(&r->c, s);
		}
		if (*(s = profile_str(r->p, pt->thread)) != '\0') {
			fputs(", thread ", r->out);
			cells_name(&r->c, s);
		}
		fputc(')', r->out);
	}
	fputc('\n', r->out);
	report_parts(r);
	fputs("Events recorded: ", r->out);
	for (i = 0; i < r->nev; i++) {
		fputc(' ', r->out);
		cells_name(&r->c, profile_str(r->p, profile_event(r->p,
		    (unsigned)i)));
	}
	fputs("\nEvents shown:    ", r->out);
	for (i = 0; i < r->nshow; i++) {
		fputc(' ', r->out);
		cells_name(&r->c, r->o->show != NULL ? r->o->show[i] :
		    profile_str(r->p, profile_event(r->p, r->show[i])));
	}
	fputs("\nEvent sort order:", r->out);
	for (i = 0; i < r->nsort; i++) {
		fputc(' ', r->out);
		cells_name(&r->c, r->o->sort != NULL ? r->o->sort[i] :
		    profile_str(r->p, profile_event(r->p, r->sort[i])));
	}
	fputs("\nThresholds:      ", r->out);
	for (i = 0; i < r->nsort; i++)
		fprintf(r->out, " %s", r->o->sort_thr != NULL ?
		    r->o->sort_thr[i] : i == 0 ? r->o->threshold : "0");
	fprintf(r->out, "\nInclude dirs:     %s\n", r->o->ninclude > 0 ?
	    r->o->include[0] : "");
	for (i = 1; i < r->o->ninclude; i++)
		fprintf(r->out, "                  %s\n", r->o->include[i]);
	fprintf(r->out, "User annotated:   %s\n", r->o->nuser_files > 0 ?
	    r->o->user_files[0] : "");
	for (i = 1; i < r->o->nuser_files; i++)
		fprintf(r->out, "                  %s\n", r->o->user_files[i]);
	fprintf(r->out, "Auto-annotation:  %s\n\n",
	    r->o->auto_annotate ? "on" : "off");
}

/* Print a part's name: "FILE: part P, thread T (trigger)". */
static void
report_part_name(const struct reporter *r, const struct part *pt)
{
	const char	*s;
	int		 comma = 0;

	cells_name(&r->c, profile_str(r->p, pt->file));
	if (*(s = profile_str(r->p, pt->part)) != '\0') {
		fputs(": part ", r->out);
		cells_name(&r->c, s);
		comma = 1;
	}
	if (*(s = profile_str(r->p, pt->thread)) != '\0') {
		fputs(comma ? ", thread " : ": thread ", r->out);
		cells_name(&r->c, s);
	}
	if (*(s = profile_str(r->p, pt->trigger)) != '\0') {
		fputs(" (", r->out);
		cells_name(&r->c, s);
		fputc(')', r->out);
	}
}

/*
 * Under the target line, when the profile has several parts (dumps,
 * threads, files), list them: one line each, and how they were found.
 */
static void
report_parts(const struct reporter *r)
{
	const struct part	*pt;
	size_t			 i, n = profile_nparts(r->p), skipped = 0;

	if (n < 2 && r->o->prefix == NULL)
		return;
	for (i = 0; i < n; i++)
		skipped += profile_part(r->p, i)->skipped;
	fprintf(r->out, "Parts:            %zu, summed", n - skipped);
	if (skipped > 0)
		fprintf(r->out, " (%zu more left out)", skipped);
	if (r->o->prefix != NULL) {
		fputs("; files found by the prefix ", r->out);
		cells_name(&r->c, r->o->prefix);
	}
	fputc('\n', r->out);
	for (i = 0; i < n; i++) {
		pt = profile_part(r->p, i);
		fputs("                  ", r->out);
		report_part_name(r, pt);
		if (pt->skipped)
			fputs(", left out", r->out);
		fputc('\n', r->out);
	}
}

/* With --per-part, print each part's totals, as the program totals. */
static void
report_per_part(const struct reporter *r)
{
	const struct part	*pt;
	const uint64_t		*c;
	unsigned		*w;
	size_t			 i, n = profile_nparts(r->p);

	w = cells_widths_new(&r->c);
	for (i = 0; i < n; i++)
		if (!profile_part(r->p, i)->skipped &&
		    totals_part(r->p, i, &c) >= 0 && c != NULL)
			cells_widths_add(&r->c, w, c);
	fputs(FANCY, r->out);
	cells_events(&r->c, w);
	fputs(" part\n" FANCY, r->out);
	for (i = 0; i < n; i++) {
		pt = profile_part(r->p, i);
		if (pt->skipped || (!pt->has_data && pt->summary == NULL &&
		    pt->totals == NULL))
			continue;
		(void)totals_part(r->p, i, &c);
		cells_cost(&r->c, c, w);
		fputc(' ', r->out);
		report_part_name(r, pt);
		fputc('\n', r->out);
	}
	fputc('\n', r->out);
	free(w);
}

/* Print the PROGRAM TOTALS block. */
static void
report_summary(const struct reporter *r)
{
	unsigned	*w;

	w = cells_widths_new(&r->c);
	cells_widths_add(&r->c, w, r->total);
	fputs(FANCY, r->out);
	cells_events(&r->c, w);
	fputs("\n" FANCY, r->out);
	cells_cost(&r->c, r->total, w);
	fputs(" PROGRAM TOTALS", r->out);
	if (r->source == TOTALS_CALCULATED)
		fputs(" (calculated)", r->out);
	fputs("\n\n", r->out);
	free(w);
}

/* Compare two cost vectors by the sort events: -1 if a sorts first. */
static int
report_costcmp(const struct reporter *r, const uint64_t *a, const uint64_t *b)
{
	uint64_t	u, v;
	size_t		i;

	for (i = 0; i < r->nsort; i++) {
		u = a[r->sort[i]];
		v = b[r->sort[i]];
		if (u == v)
			continue;
		if (u == COST_NONE)
			return 1;
		if (v == COST_NONE)
			return -1;
		return u > v ? -1 : 1;
	}
	return 0;
}

/*
 * Order entries by the sort events, descending, "never recorded" below
 * 0; then by label, then by object name, so the order is total.
 */
static int
report_entrycmp(const void *a, const void *b)
{
	const struct entry	*x = a, *y = b;
	int			 c;

	if ((c = report_costcmp(cmp_ctx, x->cost, y->cost)) != 0)
		return c;
	if ((c = strcmp(x->label, y->label)) != 0)
		return c;
	if ((c = strcmp(profile_str(cmp_ctx->p, x->obj),
	    profile_str(cmp_ctx->p, y->obj))) != 0)
		return c;
	return x->row < y->row ? -1 : x->row > y->row;
}

/*
 * Compare two labels as they stand in a call line, followed by " (":
 * ties are then in the order of the lines' text.
 */
static int
report_labelcmp(const char *a, const char *b)
{
	static const char	 tail[] = " (";
	const unsigned char	*x = (const unsigned char *)a;
	const unsigned char	*y = (const unsigned char *)b;
	size_t			 i = 0, j = 0;
	unsigned		 u, v;

	for (;;) {
		u = *x != '\0' ? *x : i < 2 ? (unsigned char)tail[i] : 0;
		v = *y != '\0' ? *y : j < 2 ? (unsigned char)tail[j] : 0;
		if (u != v || u == 0)
			return (u > v) - (u < v);
		if (*x != '\0')
			x++;
		else
			i++;
		if (*y != '\0')
			y++;
		else
			j++;
	}
}

/* Order call lines by cost, then as their text, then by count. */
static int
report_callcmp(const void *a, const void *b)
{
	const struct callline	*x = a, *y = b;
	char			 cx[32], cy[32];
	int			 c;

	if ((c = report_costcmp(cmp_ctx, x->cost, y->cost)) != 0)
		return c;
	if ((c = report_labelcmp(cmp_ctx->t->rows[x->row].label,
	    cmp_ctx->t->rows[y->row].label)) != 0)
		return c;
	cells_commify(x->count, cx);
	cells_commify(y->count, cy);
	if ((c = strcmp(cx, cy)) != 0)
		return c;
	return strcmp(profile_str(cmp_ctx->p, cmp_ctx->t->rows[x->row].obj),
	    profile_str(cmp_ctx->p, cmp_ctx->t->rows[y->row].obj));
}

/* Return the percentage of the total that cumulative cost sum is. */
static double
report_prop(uint64_t sum, uint64_t total)
{
	double	prop;

	prop = sum <= UINT64_MAX / 100 ? (double)(sum * 100) :
	    (double)sum * 100.0;
	if (total != COST_NONE && total > 0)
		prop /= (double)total;
	return prop;
}

/*
 * Print sorted call lines (callers with mark "<", callees with ">"):
 * cost, the other row's label, the count, and its object if an fn=
 * line named it.
 */
static void
report_calls(const struct reporter *r, struct callline *cl, size_t n,
    const char *mark, const unsigned *w)
{
	const struct fnrow	*row;
	char			 count[32];
	size_t			 i;

	cmp_ctx = r;
	qsort(cl, n, sizeof(*cl), report_callcmp);
	cmp_ctx = NULL;
	for (i = 0; i < n; i++) {
		row = &r->t->rows[cl[i].row];
		cells_cost(&r->c, cl[i].cost, w);
		cells_commify(cl[i].count, count);
		fprintf(r->out, " %s ", mark);
		cells_name(&r->c, row->label);
		fprintf(r->out, " (%sx)", count);
		report_obj(r, row->named, row->obj, 1);
		fputc('\n', r->out);
	}
}

/*
 * Gather the edges in ids[0..n-1] into call lines keyed by the row at
 * their far end (from if callers, else to), summing edges that share it.
 */
static size_t
report_gather(const struct reporter *r, const uint32_t *ids, size_t n,
    int callers, struct callline *cl, uint64_t *costs)
{
	const struct cgedge	*e;
	size_t			 i, j, m = 0;
	uint32_t		 far;

	for (i = 0; i < n; i++) {
		e = &r->g->edges[ids[i]];
		far = callers ? e->from : e->to;
		for (j = 0; j < m; j++)
			if (cl[j].row == far)
				break;
		if (j == m) {
			cl[m].row = far;
			cl[m].count = 0;
			cl[m].cost = costs + m * r->nev;
			cost_clear(costs + m * r->nev, r->nev);
			m++;
		}
		if (__builtin_add_overflow(cl[j].count, e->count,
		    &cl[j].count))
			cl[j].count = UINT64_MAX;
		cost_add(costs + j * r->nev, e->cost, r->nev);
	}
	return m;
}

/* Print the callers, or the callees, of row v or of cycle c. */
static void
report_tree_side(const struct reporter *r, uint32_t v, uint32_t c,
    int callers, const unsigned *w)
{
	const struct callgraph	*g = r->g;
	const struct cgcycle	*cy;
	const struct cgedge	*e;
	struct callline		*cl;
	uint32_t		*ids = NULL, k, m;
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
	costs = xreallocarray(NULL, n, r->nev * sizeof(*costs));
	if (c == CG_NONE) {
		/* One edge per (caller, callee) already. */
		for (i = 0; i < n; i++) {
			e = &g->edges[ids[i]];
			cl[i].row = callers ? e->from : e->to;
			cl[i].count = e->count;
			cl[i].cost = e->cost;
		}
	} else
		n = report_gather(r, ids, n, callers, cl, costs);
	report_calls(r, cl, n, callers ? "<" : ">  ", w);
	free(costs);
	free(cl);
	free(ids);
}

/*
 * Print " [object]" if an fn= line named the entry; an empty object is
 * shown as "[]" only if empty is set (call lines), as the old tool does.
 */
static void
report_obj(const struct reporter *r, int named, uint32_t obj, int empty)
{
	if (!named || (obj == 0 && !empty))
		return;
	fputs(" [", r->out);
	cells_name(&r->c, profile_str(r->p, obj));
	fputc(']', r->out);
}

/* Print one function or cycle entry, with its tree if asked for. */
static void
report_entry(const struct reporter *r, const struct entry *en,
    const unsigned *w)
{
	const struct cgcycle	*cy;
	const struct fnrow	*row;
	int			 tree = r->o->tree != 0;
	int			 hastree = tree && (en->cycle != CG_NONE ||
	    strcmp(en->label, "???:???") != 0);
	size_t			 i;

	if (tree)
		fputc('\n', r->out);
	if (hastree && (r->o->tree & REPORT_TREE_CALLER))
		report_tree_side(r, en->row, en->cycle, 1, w);
	cells_cost(&r->c, en->cost, w);
	if (tree)
		fputs(" * ", r->out);
	fputc(' ', r->out);
	cells_name(&r->c, en->label);
	report_obj(r, en->named, en->obj, 0);
	fputc('\n', r->out);
	if (en->cycle != CG_NONE && tree) {
		cy = &r->g->cycles[en->cycle];
		for (i = 0; i < cy->nmembers; i++) {
			row = &r->t->rows[cy->members[i]];
			cells_cost(&r->c, r->g->incl + (size_t)cy->members[i] *
			    r->nev, w);
			fputs(" +   ", r->out);
			cells_name(&r->c, row->label);
			report_obj(r, row->named, row->obj, 1);
			fputc('\n', r->out);
		}
	}
	if (hastree && (r->o->tree & REPORT_TREE_CALLING))
		report_tree_side(r, en->row, en->cycle, 0, w);
}

/* Return nonzero if entry en passes the --inclusive=yes threshold. */
static int
report_incl_passes(const struct reporter *r, const struct entry *en)
{
	uint64_t	v;
	size_t		k;

	if (r->o->sort_thr == NULL && r->single >= 100)
		return 1;
	for (k = 0; k < r->nsort; k++) {
		v = en->cost[r->sort[k]];
		if (v != COST_NONE && report_prop(v, r->total[r->sort[k]]) >=
		    100 - r->thr[k])
			return 1;
	}
	return 0;
}

/*
 * Print the function totals, sorted: self costs down to the cumulative
 * threshold, or with --inclusive=yes every entry (functions and cycles)
 * whose inclusive cost reaches (100 - threshold)% of the total.
 */
static void
report_functions(struct reporter *r)
{
	struct entry		*ents;
	const struct fnrow	*row;
	unsigned		*w;
	uint64_t		*sum, v;
	size_t			 i, k, n = 0, nrows;
	int			 reached;

	nrows = r->t->nrows;
	ents = xreallocarray(NULL, nrows + (r->g ? r->g->ncycles : 0),
	    sizeof(*ents));
	for (i = 0; i < nrows; i++) {
		row = &r->t->rows[i];
		if (row->called_only && !r->o->inclusive)
			continue;
		ents[n].label = row->label;
		ents[n].obj = row->obj;
		ents[n].named = row->named;
		ents[n].cost = r->o->inclusive ? r->g->incl + i * r->nev :
		    row->cost;
		ents[n].row = (uint32_t)i;
		ents[n].cycle = CG_NONE;
		n++;
	}
	if (r->o->inclusive)
		for (i = 0; i < r->g->ncycles; i++) {
			ents[n].label = r->g->cycles[i].label;
			ents[n].obj = 0;
			ents[n].named = 0;
			ents[n].cost = r->g->cycles[i].incl;
			ents[n].row = CG_NONE;
			ents[n].cycle = (uint32_t)i;
			n++;
		}
	w = cells_widths_new(&r->c);
	for (i = 0; i < n; i++)
		cells_widths_add(&r->c, w, ents[i].cost);
	cmp_ctx = r;
	qsort(ents, n, sizeof(*ents), report_entrycmp);
	cmp_ctx = NULL;

	fputs(FANCY, r->out);
	cells_events(&r->c, w);
	fputs(" file:function\n" FANCY, r->out);
	sum = xcalloc(r->nsort, sizeof(*sum));
	for (i = 0; i < n; i++) {
		if (r->o->inclusive) {
			if (!report_incl_passes(r, &ents[i]))
				continue;
		} else if (r->single < 100) {
			reached = 1;
			for (k = 0; k < r->nsort; k++)
				if (report_prop(sum[k], r->total[r->sort[k]]) <
				    r->thr[k])
					reached = 0;
			if (reached)
				break;
		}
		report_entry(r, &ents[i], w);
		if (ents[i].row != CG_NONE) {
			r->files = xgrow(r->files, &r->files_cap,
			    r->nfiles + 1, sizeof(*r->files));
			r->files[r->nfiles++] = r->t->rows[ents[i].row].file;
		}
		for (k = 0; k < r->nsort; k++) {
			v = ents[i].cost[r->sort[k]];
			if (v != COST_NONE && __builtin_add_overflow(sum[k], v,
			    &sum[k]))
				sum[k] = UINT64_MAX;
		}
	}
	fputc('\n', r->out);
	free(sum);
	free(ents);
	free(w);
}

/*
 * Print the report for profile p to out.  Return 0; -1 after an error
 * message if an event named in the options is not in p; 1 if a source
 * file the user named could not be read.
 */
int
report_text(FILE *out, const struct profile *p, const struct report_opts *o)
{
	struct reporter	 r;
	size_t		 i;
	int		 n, annotating, rc = 0;

	memset(&r, 0, sizeof(r));
	r.out = out;
	r.p = p;
	r.o = o;
	r.nev = profile_nevents(p);
	if ((n = report_resolve(p, "--show", o->show, o->nshow, &r.show)) < 0)
		return -1;
	r.nshow = (size_t)n;
	if ((n = report_resolve(p, "--sort", o->sort, o->nsort, &r.sort)) < 0) {
		free(r.show);
		return -1;
	}
	r.nsort = (size_t)n;
	r.thr = xcalloc(r.nsort, sizeof(*r.thr));
	if (o->sort_thr != NULL) {
		for (i = 0; i < r.nsort; i++)
			r.thr[i] = strtod(o->sort_thr[i], NULL);
		r.single = 0;
	} else {
		r.single = strtod(o->threshold, NULL);
		if (r.nsort > 0)
			r.thr[0] = r.single;
	}
	r.total = xreallocarray(NULL, r.nev, sizeof(*r.total));
	r.source = totals_compute(p, r.total);
	r.c.out = out;
	r.c.p = p;
	r.c.nev = r.nev;
	r.c.show = r.show;
	r.c.nshow = r.nshow;
	r.c.show_percs = o->show_percs;
	r.c.total = r.total;
	r.c.visible = o->visible_names;

	annotating = o->auto_annotate || o->nuser_files > 0;
	if (o->tree != 0 || o->inclusive || annotating) {
		r.g = callgraph_build(p);
		r.t = r.g->t;
	} else
		r.t = fntotals_build(p);

	report_header(&r);
	report_summary(&r);
	if (o->per_part)
		report_per_part(&r);
	report_functions(&r);
	if (annotating && annotate_files(&r.c, p, r.g, r.files,
	    o->auto_annotate ? r.nfiles : 0, o, r.sort, r.nsort) == -1)
		rc = 1;

	if (r.g != NULL)
		callgraph_free(r.g);
	else
		fntotals_free(r.t);
	free(r.files);

	free(r.total);
	free(r.thr);
	free(r.sort);
	free(r.show);
	return rc;
}
