/*
 * report.c - the text report in callgrind_annotate's layout: the
 * header block, PROGRAM TOTALS and the function totals (self or
 * inclusive) sorted by the chosen events down to the threshold, with
 * callers and callees under --tree.  It reads the model only
 * through const accessors and the analyses.
 */
#include "compat.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "annotate.h"
#include "callgraph.h"
#include "cells.h"
#include "cost.h"
#include "diff.h"
#include "fntotals.h"
#include "gate.h"
#include "json.h"
#include "msg.h"
#include "profile.h"
#include "report.h"
#include "sort.h"
#include "version.h"
#include "xmalloc.h"

#define REPORT_AHEAD	16	/* entries loaded ahead, sorting and choosing */
#define REPORT_STEP	8	/* rows between the steps of loading names */
#define REPORT_SPLIT	4096	/* rows worth a second thread to print */
#define FANCY	"--------------------------------------------------------------------------------\n"

/* A printed entry: a function row, or a cycle with --inclusive=yes. */
struct entry {
	const uint64_t	*cost;		/* self or inclusive */
	uint32_t	 row;		/* row, or CG_NONE for a cycle */
	uint32_t	 cycle;		/* cycle, or CG_NONE for a row */
};

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
	struct entry		 *sel;		/* the entries printed */
	size_t			  nsel;
	unsigned		 *w;		/* their column widths */
	struct gate_result	 *gres;		/* --fail-above results */
	size_t			  ngres, gres_cap;
	int			  gates_done, gates_failed;
};

/* Entries printed into memory by a helper thread: report_helper(). */
struct rowhelp {
	const struct reporter	*r;
	size_t			 from, to;
	char			*buf;	/* what it printed, */
	size_t			 len;
	int			 ok;	/*   if it could */
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
static int	report_setup(struct reporter *, FILE *,
		    const struct profile *, const struct report_opts *);
static void	report_select(struct reporter *);
static void	report_functions(struct reporter *);
static int	report_gates(struct reporter *);
static void	report_totals_only(const struct reporter *);
static int	report_json(struct reporter *);
static void	json_cost(struct json *, const struct profile *,
		    const uint64_t *);
static void	json_sid(struct json *, const struct profile *, uint32_t);
static void	json_sdelta(struct json *, const struct profile *,
		    const int64_t *, const unsigned char *);
static void	report_header_tail(const struct reporter *,
		    const struct profile *);
static void	report_header_files(const struct reporter *);
static uint64_t	report_abs(int64_t);
static int	report_drowcmp(const void *, const void *);
static void	json_meta(struct json *, const struct profile *);
static void	json_options(struct json *, const struct reporter *);
static void	json_gates(struct json *, const struct reporter *);
static int	report_jfilecmp(const void *, const void *);
static int	report_costcmp(const struct reporter *, const uint64_t *,
		    const uint64_t *);
static int	report_entrycmp(const void *, const void *);
static uint32_t	report_objof(const struct reporter *,
		    const struct entry *);
static const struct fnrow *report_selrow(const struct reporter *, size_t);
static const char *report_label(const struct reporter *,
		    const struct entry *);
static void	report_rowname(const struct reporter *, uint32_t);
static void	report_prefetch(const char *, size_t);
static int	report_unknown(const struct reporter *, uint32_t);
static void	report_order(const struct reporter *, struct entry *,
		    size_t);
static size_t	report_sort_run(const struct reporter *, struct entry *,
		    size_t, size_t);
static int	report_callcmp(const void *, const void *);
static void	report_calls(const struct reporter *, struct callline *,
		    size_t, const char *, const unsigned *);
static size_t	report_gather(const struct reporter *, uint32_t *,
		    size_t, int, struct callline *, uint64_t *);
static int	report_farcmp(const void *, const void *);
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

/* Say that opt names an event the profile lacks, listing its events. */
void
report_unknown_event(const struct profile *p, const char *opt,
    const char *name)
{
	msg_usage_error("%s event '%s' is not among the profile's events "
	    "(%s)", opt, name, profile_str(p, profile_events_list(p)));
}

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
			report_unknown_event(p, opt, names[i]);
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

	fputs(FANCY, r->out);
	fprintf(r->out, "Profile data file '%s'", r->o->profile_name);
	if (*(s = profile_str(r->p, pt->creator)) != '\0') {
		fputs(" (creator: ", r->out);
		cells_name(&r->c, s);
		fputc(')', r->out);
	}
	fputs("\n" FANCY, r->out);
	report_header_tail(r, r->p);
	report_header_files(r);
}

/* The header lines about source files and annotation, and a blank. */
static void
report_header_files(const struct reporter *r)
{
	size_t	i;

	fprintf(r->out, "Include dirs:     %s\n", r->o->ninclude > 0 ?
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

/*
 * Print the header from the descriptions on: target, parts, events and
 * thresholds (of p).
 */
static void
report_header_tail(const struct reporter *r, const struct profile *p)
{
	const struct part	*pt = profile_part(p, 0);
	const char		*s;
	size_t			 i;

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
	fputc('\n', r->out);
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

/* Return the object of entry en: its row's, or 0 for a cycle. */
static uint32_t
report_objof(const struct reporter *r, const struct entry *en)
{
	return en->row != CG_NONE ? r->t->rows[en->row].obj : 0;
}

/* Return the label of entry en: its row's or its cycle's. */
static const char *
report_label(const struct reporter *r, const struct entry *en)
{
	return en->row != CG_NONE ? fntotals_label(r->t, en->row) :
	    r->g->cycles[en->cycle].label;
}

/* Print the label of row id (without making it). */
static void
report_rowname(const struct reporter *r, uint32_t id)
{
	const struct fnrow	*row = &r->t->rows[id];

	cells_label(&r->c, row->file, row->name);
}

/* Return nonzero if row id is "???:???", which has no call tree. */
static int
report_unknown(const struct reporter *r, uint32_t id)
{
	const struct fnrow	*row = &r->t->rows[id];

	return strcmp(profile_str(r->t->p, row->file), "???") == 0 &&
	    strcmp(profile_str(r->t->p, row->name), "???") == 0;
}

/* Start loading the len bytes at s (a name about to be printed). */
static void
report_prefetch(const char *s, size_t len)
{
	size_t	i;

	for (i = 0; i < len && i < 512; i += 64)
		__builtin_prefetch(s + i);
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
	if (x->row != CG_NONE && y->row != CG_NONE)
		c = fntotals_labelcmp(cmp_ctx->t, x->row, y->row);
	else
		c = strcmp(report_label(cmp_ctx, x), report_label(cmp_ctx, y));
	if (c != 0)
		return c;
	if ((c = strcmp(profile_str(cmp_ctx->p, report_objof(cmp_ctx, x)),
	    profile_str(cmp_ctx->p, report_objof(cmp_ctx, y)))) != 0)
		return c;
	return x->row < y->row ? -1 : x->row > y->row;
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
	if ((c = cells_labelcmp(fntotals_label(cmp_ctx->t, x->row),
	    fntotals_label(cmp_ctx->t, y->row))) != 0)
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
		report_rowname(r, cl[i].row);
		fprintf(r->out, " (%sx)", count);
		report_obj(r, row->named, row->obj, 1);
		fputc('\n', r->out);
	}
}

/* Context for report_farcmp, which qsort cannot pass. */
static const struct cgedge	*far_edges;
static int			 far_callers;

/* Order edge ids by the row at their far end, then by id. */
static int
report_farcmp(const void *a, const void *b)
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
report_gather(const struct reporter *r, uint32_t *ids, size_t n,
    int callers, struct callline *cl, uint64_t *costs)
{
	const struct cgedge	*e;
	size_t			 i, m = 0;
	uint32_t		 far;

	far_edges = r->g->edges;
	far_callers = callers;
	if (n > 1)
		qsort(ids, n, sizeof(*ids), report_farcmp);
	far_edges = NULL;
	for (i = 0; i < n; i++) {
		e = &r->g->edges[ids[i]];
		far = callers ? e->from : e->to;
		if (m == 0 || cl[m - 1].row != far) {
			cl[m].row = far;
			cl[m].count = 0;
			cl[m].cost = costs + m * r->nev;
			cost_clear(costs + m * r->nev, r->nev);
			m++;
		}
		if (__builtin_add_overflow(cl[m - 1].count, e->count,
		    &cl[m - 1].count))
			cl[m - 1].count = UINT64_MAX;
		cost_add(costs + (m - 1) * r->nev, e->cost, r->nev);
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
	    !report_unknown(r, en->row));
	size_t			 i;

	if (tree)
		fputc('\n', r->out);
	if (hastree && (r->o->tree & REPORT_TREE_CALLER))
		report_tree_side(r, en->row, en->cycle, 1, w);
	cells_cost(&r->c, en->cost, w);
	if (tree)
		fputs(" * ", r->out);
	fputc(' ', r->out);
	if (en->row != CG_NONE) {
		report_rowname(r, en->row);
		report_obj(r, r->t->rows[en->row].named,
		    r->t->rows[en->row].obj, 0);
	} else
		cells_name(&r->c, r->g->cycles[en->cycle].label);
	fputc('\n', r->out);
	if (en->cycle != CG_NONE && tree) {
		cy = &r->g->cycles[en->cycle];
		for (i = 0; i < cy->nmembers; i++) {
			row = &r->t->rows[cy->members[i]];
			cells_cost(&r->c, r->g->incl + (size_t)cy->members[i] *
			    r->nev, w);
			fputs(" +   ", r->out);
			report_rowname(r, cy->members[i]);
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
 * Order the n entries ents by the first sort event's count (descending,
 * "never recorded" last) with a radix sort; report_sort_run() finishes
 * the order (report_entrycmp()) of each run of equal counts when the
 * choice reaches it: most entries of a large profile are never printed.
 */
static void
report_order(const struct reporter *r, struct entry *ents, size_t n)
{
	struct entry	*sorted;
	uint64_t	*key, v;
	uint32_t	*order;
	size_t		 i;

	if (r->nsort == 0 || n > UINT32_MAX) {
		qsort(ents, n, sizeof(*ents), report_entrycmp);
		return;
	}
	key = xreallocarray(NULL, n, sizeof(*key));
	for (i = 0; i < n; i++) {
		v = ents[i].cost[r->sort[0]];
		key[i] = v == COST_NONE ? UINT64_MAX : UINT64_MAX - 1 - v;
	}
	order = xreallocarray(NULL, n, sizeof(*order));
	sort_index_u64(key, (uint32_t)n, order);
	sorted = xreallocarray(NULL, n, sizeof(*sorted));
	for (i = 0; i < n; i++) {
		if (i + REPORT_AHEAD < n)
			__builtin_prefetch(&ents[order[i + REPORT_AHEAD]]);
		sorted[i] = ents[order[i]];
	}
	memcpy(ents, sorted, n * sizeof(*ents));
	free(sorted);
	free(order);
	free(key);
}

/*
 * Sort the run of entries with the first sort event's count of entry i,
 * from i on, by report_entrycmp(); return the end of the run.
 */
static size_t
report_sort_run(const struct reporter *r, struct entry *ents, size_t n,
    size_t i)
{
	size_t	j;

	if (r->nsort == 0 || n > UINT32_MAX)
		return n;		/* report_order() sorted all */
	for (j = i + 1; j < n && ents[j].cost[r->sort[0]] ==
	    ents[i].cost[r->sort[0]]; j++)
		continue;
	if (j - i > 1)
		qsort(ents + i, j - i, sizeof(*ents), report_entrycmp);
	return j;
}

/*
 * Choose the entries the report prints, in order: self costs down to the
 * cumulative threshold, or with --inclusive=yes every entry (functions
 * and cycles) whose inclusive cost reaches (100 - threshold)% of the
 * total.  The widths fit every entry, printed or not (as the old tool).
 */
static void
report_select(struct reporter *r)
{
	struct entry		*ents, en;
	const struct fnrow	*row;
	uint64_t		*sum, v;
	size_t			 i, k, n = 0, nrows, run;
	int			 reached;

	nrows = r->t->nrows;
	ents = xreallocarray(NULL, nrows + (r->g ? r->g->ncycles : 0),
	    sizeof(*ents));
	for (i = 0; i < nrows; i++) {
		row = &r->t->rows[i];
		if (row->called_only && !r->o->inclusive)
			continue;
		ents[n].cost = r->o->inclusive ? r->g->incl + i * r->nev :
		    row->cost;
		ents[n].row = (uint32_t)i;
		ents[n].cycle = CG_NONE;
		n++;
	}
	if (r->o->inclusive)
		for (i = 0; i < r->g->ncycles; i++) {
			ents[n].cost = r->g->cycles[i].incl;
			ents[n].row = CG_NONE;
			ents[n].cycle = (uint32_t)i;
			n++;
		}
	r->w = cells_widths_new(&r->c);
	for (i = 0; i < n; i++)
		cells_widths_add(&r->c, r->w, ents[i].cost);
	cmp_ctx = r;
	if (r->o->inclusive) {
		/* Only the entries that pass are printed and sorted. */
		for (i = k = 0; i < n; i++)
			if (report_incl_passes(r, &ents[i]))
				ents[k++] = ents[i];
		n = k;
	}
	report_order(r, ents, n);

	r->sel = xreallocarray(NULL, n, sizeof(*r->sel));
	sum = xcalloc(r->nsort, sizeof(*sum));
	for (i = run = 0; i < n; i++) {
		if (i == run)
			run = report_sort_run(r, ents, n, i);
		if (!r->o->inclusive && r->single < 100) {
			reached = 1;
			for (k = 0; k < r->nsort; k++)
				if (report_prop(sum[k], r->total[r->sort[k]]) <
				    r->thr[k])
					reached = 0;
			if (reached)
				break;
		}
		if (i + REPORT_AHEAD < n) {
			__builtin_prefetch(ents[i + REPORT_AHEAD].cost);
			if (ents[i + REPORT_AHEAD].row != CG_NONE)
				__builtin_prefetch(&r->t->rows[
				    ents[i + REPORT_AHEAD].row]);
		}
		en = ents[i];
		r->sel[r->nsel++] = en;
		if (en.row != CG_NONE) {
			r->files = xgrow(r->files, &r->files_cap,
			    r->nfiles + 1, sizeof(*r->files));
			r->files[r->nfiles++] = r->t->rows[en.row].file;
		}
		for (k = 0; k < r->nsort; k++) {
			v = en.cost[r->sort[k]];
			if (v != COST_NONE && __builtin_add_overflow(sum[k], v,
			    &sum[k]))
				sum[k] = UINT64_MAX;
		}
	}
	cmp_ctx = NULL;
	free(sum);
	free(ents);
}

/*
 * Return where the row of chosen entry j is (not loading it), or NULL
 * past the last entry or for a cycle.
 */
static const struct fnrow *
report_selrow(const struct reporter *r, size_t j)
{
	if (j >= r->nsel || r->sel[j].row == CG_NONE)
		return NULL;
	return &r->t->rows[r->sel[j].row];
}

/*
 * Print the chosen entries [from, to) to r->out.  The names are all over
 * memory: they are loaded ahead, in three steps, each using what the one
 * before loaded: the row, where its strings are, their bytes.
 */
static void
report_rows(const struct reporter *r, size_t from, size_t to)
{
	const struct fnrow	*row;
	size_t			 i;

	for (i = from; i < to; i++) {
		if ((row = report_selrow(r, i + 3 * REPORT_STEP)) != NULL)
			__builtin_prefetch(row);
		if ((row = report_selrow(r, i + 2 * REPORT_STEP)) != NULL) {
			profile_str_prefetch(r->p, row->name);
			profile_str_prefetch(r->p, row->file);
		}
		if ((row = report_selrow(r, i + REPORT_STEP)) != NULL) {
			report_prefetch(profile_str(r->p, row->name),
			    profile_strlen(r->p, row->name));
			__builtin_prefetch(profile_str(r->p, row->file));
		}
		report_entry(r, &r->sel[i], r->w);
	}
}

/* The helper thread of report_functions(): print [from, to) into memory. */
static void *
report_helper(void *arg)
{
	struct rowhelp	*h = arg;
	struct reporter	 r = *h->r;
	FILE		*f;

	if ((f = open_memstream(&h->buf, &h->len)) == NULL)
		return NULL;
	r.out = r.c.out = f;
	report_rows(&r, h->from, h->to);
	h->ok = fclose(f) == 0;
	return NULL;
}

/*
 * Print the function totals chosen by report_select().  Without trees,
 * a long list is printed in two threads: the last third into memory by
 * a helper, while this one prints the rest (the names are all over
 * memory, and loading them is most of the time).
 */
static void
report_functions(struct reporter *r)
{
	struct rowhelp	 h;
	pthread_t	 thr;

	fputs(FANCY, r->out);
	cells_events(&r->c, r->w);
	fputs(" file:function\n" FANCY, r->out);
	memset(&h, 0, sizeof(h));
	h.r = r;
	h.from = r->nsel - r->nsel / 3;
	h.to = r->nsel;
	if (r->o->tree != 0 || r->nsel < (r->o->split > 0 ? r->o->split :
	    REPORT_SPLIT) || sysconf(_SC_NPROCESSORS_ONLN) < 2 ||
	    pthread_create(&thr, NULL, report_helper, &h) != 0)
		report_rows(r, 0, r->nsel);
	else {
		report_rows(r, 0, h.from);
		pthread_join(thr, NULL);
		if (h.ok)
			fwrite(h.buf, 1, h.len, r->out);
		else
			report_rows(r, h.from, h.to);
		free(h.buf);
	}
	fputc('\n', r->out);
}

/*
 * Check the --fail-above limits against the program totals and every
 * function (self cost, or inclusive with --inclusive=yes); remember the
 * results and say which failed.  Return nonzero if any did.
 */
static int
report_gates(struct reporter *r)
{
	const struct fnrow	*row;
	struct gate_result	 res;
	const uint64_t		*c;
	uint64_t		 v;
	size_t			 i, k;
	int			 failed = 0;

	for (k = 0; k < r->o->ngates; k++) {
		const struct gate	*g = &r->o->gates[k];

		for (i = 0; i <= r->t->nrows; i++) {
			if (i == r->t->nrows) {
				v = r->total[g->ev];
				if (!gate_check(g, NULL, NULL, 0, v == COST_NONE ?
				    0 : v > INT64_MAX ? INT64_MAX : (int64_t)v,
				    0, &res))
					continue;
			} else {
				row = &r->t->rows[i];
				if (row->called_only && !r->o->inclusive)
					continue;
				c = r->o->inclusive ? r->g->incl + i * r->nev :
				    row->cost;
				v = c[g->ev];
				if (!gate_check(g, fntotals_label(r->t, i),
				    profile_str(r->p, row->name), 0,
				    v == COST_NONE ? 0 :
				    v > INT64_MAX ? INT64_MAX : (int64_t)v, 0,
				    &res))
					continue;
			}
			r->gres = xgrow(r->gres, &r->gres_cap, r->ngres + 1,
			    sizeof(*r->gres));
			r->gres[r->ngres++] = res;
			if (res.failed) {
				gate_report(&res);
				failed = 1;
			}
		}
	}
	return failed;
}

/* --totals: one "EVENT VALUE" line per shown event. */
static void
report_totals_only(const struct reporter *r)
{
	size_t	i;
	int	e;

	for (i = 0; i < r->nshow; i++) {
		e = r->show[i];
		cells_name(&r->c, profile_str(r->p, profile_event(r->p,
		    (unsigned)e)));
		if (r->total[e] == COST_NONE)
			fputs(" .\n", r->out);
		else
			fprintf(r->out, " %llu\n",
			    (unsigned long long)r->total[e]);
	}
}

/* A file of the JSON report. */
struct jfile {
	const char	*name;
	uint32_t	 id;		/* string id */
};

/* Order JSON files by name, then string id. */
static int
report_jfilecmp(const void *a, const void *b)
{
	const struct jfile	*x = a, *y = b;
	int			 c;

	if ((c = strcmp(x->name, y->name)) != 0)
		return c;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* Write a cost vector as an object of event: count (null if none). */
static void
json_cost(struct json *j, const struct profile *p, const uint64_t *c)
{
	unsigned	i, n = profile_nevents(p);

	json_open(j, '{');
	for (i = 0; i < n; i++) {
		json_key(j, profile_str(p, profile_event(p, i)));
		if (c == NULL || c[i] == COST_NONE)
			json_null(j);
		else
			json_u64(j, c[i]);
	}
	json_close(j, '}');
}

/* Write signed changes as an object of event: change (null if none). */
static void
json_sdelta(struct json *j, const struct profile *p, const int64_t *v,
    const unsigned char *def)
{
	unsigned	i, n = profile_nevents(p);

	json_open(j, '{');
	for (i = 0; i < n; i++) {
		json_key(j, profile_str(p, profile_event(p, i)));
		if (!def[i])
			json_null(j);
		else
			json_i64(j, v[i]);
	}
	json_close(j, '}');
}

/* Write a string id's string, or null for the empty string. */
static void
json_sid(struct json *j, const struct profile *p, uint32_t id)
{
	if (id == 0)
		json_null(j);
	else
		json_str(j, profile_str(p, id));
}

/* The metadata of a profile: inputs, parts, events. */
static void
json_meta(struct json *j, const struct profile *p)
{
	const struct event_def	*d;
	const struct part	*pt;
	const uint64_t		*c;
	size_t			 i, k;
	unsigned		 e;

	pt = profile_part(p, 0);
	json_key(j, "creator");
	json_sid(j, p, pt->creator);
	json_key(j, "command");
	json_sid(j, p, pt->cmd);
	json_key(j, "pid");
	json_sid(j, p, pt->pid);
	json_key(j, "parts");
	json_open(j, '[');
	for (i = 0; i < profile_nparts(p); i++) {
		pt = profile_part(p, i);
		json_open(j, '{');
		json_key(j, "file");
		json_sid(j, p, pt->file);
		json_key(j, "part");
		json_sid(j, p, pt->part);
		json_key(j, "thread");
		json_sid(j, p, pt->thread);
		json_key(j, "trigger");
		json_sid(j, p, pt->trigger);
		json_key(j, "left_out");
		json_bool(j, pt->skipped);
		json_key(j, "totals_source");
		json_str(j, (const char *[]){ "summary", "totals",
		    "calculated" }[totals_part(p, i, &c)]);
		json_key(j, "totals");
		json_cost(j, p, c);
		json_close(j, '}');
	}
	json_close(j, ']');
	json_key(j, "events");
	json_open(j, '[');
	for (e = 0; e < profile_nevents(p); e++) {
		json_open(j, '{');
		json_key(j, "name");
		json_str(j, profile_str(p, profile_event(p, e)));
		json_key(j, "long_name");
		for (k = 0; k < profile_nevent_defs(p); k++)
			if (profile_event_def(p, k)->name ==
			    profile_event(p, e))
				break;
		json_sid(j, p, k < profile_nevent_defs(p) ?
		    profile_event_def(p, k)->longname : 0);
		json_close(j, '}');
	}
	json_close(j, ']');
	json_key(j, "derived_events");
	json_open(j, '[');
	for (k = 0; k < profile_nevent_defs(p); k++) {
		d = profile_event_def(p, k);
		if (d->formula == 0)
			continue;
		json_open(j, '{');
		json_key(j, "name");
		json_str(j, profile_str(p, d->name));
		json_key(j, "formula");
		json_str(j, profile_str(p, d->formula));
		json_key(j, "long_name");
		json_sid(j, p, d->longname);
		json_close(j, '}');
	}
	json_close(j, ']');
}

/* The options that shaped the report. */
static void
json_options(struct json *j, const struct reporter *r)
{
	size_t	i;

	json_key(j, "shown");
	json_open(j, '[');
	for (i = 0; i < r->nshow; i++)
		json_str(j, profile_str(r->p, profile_event(r->p,
		    (unsigned)r->show[i])));
	json_close(j, ']');
	json_key(j, "sort");
	json_open(j, '[');
	for (i = 0; i < r->nsort; i++)
		json_str(j, profile_str(r->p, profile_event(r->p,
		    (unsigned)r->sort[i])));
	json_close(j, ']');
	json_key(j, "thresholds");
	json_open(j, '[');
	for (i = 0; i < r->nsort; i++)
		json_str(j, r->o->sort_thr != NULL ? r->o->sort_thr[i] :
		    i == 0 ? r->o->threshold : "0");
	json_close(j, ']');
	json_key(j, "inclusive");
	json_bool(j, r->o->inclusive);
}

/* The results of the --fail-above limits. */
static void
json_gates(struct json *j, const struct reporter *r)
{
	const struct gate_result	*g;
	size_t				 i;
	int				 failed = 0;

	json_key(j, "gates");
	json_open(j, '[');
	for (i = 0; i < r->ngres; i++) {
		g = &r->gres[i];
		json_open(j, '{');
		json_key(j, "limit");
		json_str(j, g->gate->spec);
		json_key(j, "event");
		json_str(j, g->gate->event);
		json_key(j, "function");
		if (g->what != NULL)
			json_str(j, g->what);
		else
			json_null(j);
		json_key(j, g->diff ? "change" : "value");
		json_i64(j, g->value);
		if (g->diff) {
			json_key(j, "old");
			json_u64(j, g->base);
		}
		json_key(j, "failed");
		json_bool(j, g->failed);
		json_close(j, '}');
		failed |= g->failed;
	}
	json_close(j, ']');
	json_key(j, "failed");
	json_bool(j, failed);
}

/*
 * --format=json for one profile: metadata, events, totals, the printed
 * functions with self and inclusive costs and their calls, cycles, the
 * per-line costs of the files that would be annotated, gate results.
 * The schema is described in the man page.
 */
static int
report_json(struct reporter *r)
{
	struct json		 j;
	const struct fnrow	*row;
	const struct cgedge	*e;
	unsigned char		*want;
	uint32_t		 k, nstr, i;
	size_t			 n, m;

	/* The gates' results go into the document: check them first. */
	r->gates_failed = report_gates(r);
	r->gates_done = 1;
	json_init(&j, r->out);
	json_open(&j, '{');
	json_key(&j, "schema");
	json_str(&j, "cg-annotate/1");
	json_key(&j, "generator");
	json_str(&j, "cg-annotate " CGA_VERSION);
	json_key(&j, "profile");
	json_str(&j, r->o->profile_name);
	json_meta(&j, r->p);
	json_options(&j, r);
	json_key(&j, "totals_source");
	json_str(&j, (const char *[]){ "summary", "totals", "calculated" }
	    [r->source]);
	json_key(&j, "totals");
	json_cost(&j, r->p, r->total);
	json_key(&j, "functions");
	json_open(&j, '[');
	for (n = 0; n < r->nsel; n++) {
		if (r->sel[n].row == CG_NONE)
			continue;
		i = r->sel[n].row;
		row = &r->t->rows[i];
		json_open(&j, '{');
		json_key(&j, "label");
		json_str(&j, fntotals_label(r->t, i));
		json_key(&j, "file");
		json_str(&j, profile_str(r->p, row->file));
		json_key(&j, "name");
		json_str(&j, profile_str(r->p, row->name));
		json_key(&j, "object");
		if (row->named)
			json_str(&j, profile_str(r->p, row->obj));
		else
			json_null(&j);
		json_key(&j, "self");
		json_cost(&j, r->p, row->cost);
		json_key(&j, "inclusive");
		json_cost(&j, r->p, r->g->incl + (size_t)i * r->nev);
		json_key(&j, "cycle");
		if (r->g->cycle[i] != CG_NONE)
			json_str(&j, r->g->cycles[r->g->cycle[i]].label);
		else
			json_null(&j);
		json_key(&j, "calls");
		json_open(&j, '[');
		for (k = r->g->out[i]; k < r->g->out[i + 1]; k++) {
			e = &r->g->edges[k];
			json_open(&j, '{');
			json_key(&j, "callee");
			json_str(&j, fntotals_label(r->t, e->to));
			json_key(&j, "count");
			json_u64(&j, e->count);
			json_key(&j, "inclusive");
			json_cost(&j, r->p, e->cost);
			json_close(&j, '}');
		}
		json_close(&j, ']');
		json_close(&j, '}');
	}
	json_close(&j, ']');
	json_key(&j, "cycles");
	json_open(&j, '[');
	for (n = 0; n < r->nsel; n++) {
		const struct cgcycle	*cy;

		if (r->sel[n].cycle == CG_NONE)
			continue;
		cy = &r->g->cycles[r->sel[n].cycle];
		json_open(&j, '{');
		json_key(&j, "name");
		json_str(&j, cy->label);
		json_key(&j, "inclusive");
		json_cost(&j, r->p, cy->incl);
		json_key(&j, "members");
		json_open(&j, '[');
		for (m = 0; m < cy->nmembers; m++)
			json_str(&j, fntotals_label(r->t,
			    cy->members[m]));
		json_close(&j, ']');
		json_close(&j, '}');
	}
	json_close(&j, ']');

	/* Per-line self costs of the files annotation would list. */
	json_key(&j, "files");
	json_open(&j, '[');
	nstr = profile_nstrings(r->p);
	want = xcalloc(nstr, 1);
	if (r->o->auto_annotate)
		for (n = 0; n < r->nfiles; n++)
			want[r->files[n]] = 1;
	for (n = 0; n < r->o->nuser_files; n++)
		if ((k = profile_str_find(r->p, r->o->user_files[n])) !=
		    UINT32_MAX)
			want[k] = 1;
	/* Files by name, then their lines summed as annotation sums them. */
	{
		struct jfile	*fs = NULL;
		struct annline	*ls;
		uint64_t	*lcost;
		uint32_t	*slot;
		size_t		 nf = 0, nl, a, b;

		k = profile_str_find(r->p, "???");
		if (k != UINT32_MAX)
			want[k] = 0;
		for (i = 0; i < nstr; i++)
			if (want[i])
				nf++;
		fs = xreallocarray(NULL, nf, sizeof(*fs));
		slot = xreallocarray(NULL, nstr, sizeof(*slot));
		for (nf = 0, i = 0; i < nstr; i++)
			if (want[i]) {
				fs[nf].name = profile_str(r->p, i);
				fs[nf++].id = i;
			}
		if (nf > 1)
			qsort(fs, nf, sizeof(*fs), report_jfilecmp);
		for (a = 0; a < nf; a++)
			slot[fs[a].id] = (uint32_t)a;
		ls = annotate_sum_lines(r->p, want, slot, r->nev, &lcost, &nl);
		for (a = 0; a < nl; a = b) {
			for (b = a; b < nl && ls[b].file == ls[a].file; b++)
				continue;
			json_open(&j, '{');
			json_key(&j, "name");
			json_str(&j, fs[ls[a].file].name);
			json_key(&j, "lines");
			json_open(&j, '[');
			for (; a < b; a++) {
				json_open(&j, '{');
				json_key(&j, "line");
				json_u64(&j, ls[a].line);
				json_key(&j, "self");
				json_cost(&j, r->p, ls[a].cost);
				json_close(&j, '}');
			}
			json_close(&j, ']');
			json_close(&j, '}');
		}
		free(ls);
		free(lcost);
		free(slot);
		free(fs);
	}
	free(want);
	json_close(&j, ']');
	json_gates(&j, r);
	json_close(&j, '}');
	json_end(&j);
	return 0;
}

/*
 * Set up a reporter on profile p: the events shown and sorted by (an
 * error if one is not in p), the thresholds, the count columns (whose
 * percentage base the caller sets).  Return 0, or -1 after a message.
 */
static int
report_setup(struct reporter *r, FILE *out, const struct profile *p,
    const struct report_opts *o)
{
	size_t	i;
	int	n;

	memset(r, 0, sizeof(*r));
	r->out = out;
	r->p = p;
	r->o = o;
	r->nev = profile_nevents(p);
	if ((n = report_resolve(p, "--show", o->show, o->nshow, &r->show)) < 0)
		return -1;
	r->nshow = (size_t)n;
	if ((n = report_resolve(p, "--sort", o->sort, o->nsort,
	    &r->sort)) < 0) {
		free(r->show);
		return -1;
	}
	r->nsort = (size_t)n;
	r->thr = xcalloc(r->nsort, sizeof(*r->thr));
	if (o->sort_thr != NULL) {
		for (i = 0; i < r->nsort; i++)
			r->thr[i] = strtod(o->sort_thr[i], NULL);
		r->single = 0;
	} else {
		r->single = strtod(o->threshold, NULL);
		if (r->nsort > 0)
			r->thr[0] = r->single;
	}
	r->c.out = out;
	r->c.p = p;
	r->c.nev = r->nev;
	r->c.show = r->show;
	r->c.nshow = r->nshow;
	r->c.show_percs = o->show_percs;
	r->c.visible = o->visible_names;
	return 0;
}

/*
 * Print the report for profile p to out.  Return 0; -1 after an error
 * message if an event named in the options is not in p; 1 if a source
 * file the user named could not be read; GATE_EXIT if a --fail-above
 * limit was exceeded.
 */
int
report_text(FILE *out, const struct profile *p, const struct report_opts *o)
{
	struct reporter	 r;
	int		 annotating, rc = 0;

	if (report_setup(&r, out, p, o) == -1)
		return -1;
	r.total = xreallocarray(NULL, r.nev, sizeof(*r.total));
	r.source = totals_compute(p, r.total);
	r.c.total = r.total;

	annotating = (o->auto_annotate || o->nuser_files > 0) &&
	    !o->totals_only;
	/* Annotation makes the call graph itself if a line calls. */
	if (o->tree != 0 || o->inclusive || o->format == REPORT_JSON) {
		r.g = callgraph_build(p);
		r.t = r.g->t;
	} else
		r.t = fntotals_build(p);

	report_select(&r);
	/* Once a second thread has run, stdio locks out on every call. */
	flockfile(out);
	if (o->format == REPORT_JSON)
		rc = report_json(&r);
	else if (o->totals_only)
		report_totals_only(&r);
	else {
		report_header(&r);
		report_summary(&r);
		if (o->per_part)
			report_per_part(&r);
		report_functions(&r);
		/* The choice is printed: the rows may grow now. */
		if (annotating && annotate_files(&r.c, p, r.t, &r.g, r.files,
		    o->auto_annotate ? r.nfiles : 0, o, r.sort, r.nsort) == -1)
			rc = 1;
	}
	funlockfile(out);
	if ((r.gates_done ? r.gates_failed : report_gates(&r)) && rc == 0)
		rc = GATE_EXIT;

	if (r.g != NULL)
		callgraph_free(r.g);
	else
		fntotals_free(r.t);
	free(r.files);
	free(r.sel);
	free(r.w);
	free(r.gres);

	free(r.total);
	free(r.thr);
	free(r.sort);
	free(r.show);
	return rc;
}

/* A row of a difference, with its changes. */
struct drow {
	const struct diffrow	*r;
	int64_t			*delta;
	unsigned char		*def;
};

static const int	*dcmp_sort;
static size_t		 dcmp_nsort;

/* The magnitude of a change, for sorting by it. */
static uint64_t
report_abs(int64_t v)
{
	return v >= 0 ? (uint64_t)v : v == INT64_MIN ?
	    (uint64_t)INT64_MAX + 1 : (uint64_t)-v;
}

/* Order rows of a difference by the size of their change, then label. */
static int
report_drowcmp(const void *a, const void *b)
{
	const struct drow	*x = a, *y = b;
	uint64_t		 u, v;
	size_t			 i;
	int			 e;

	for (i = 0; i < dcmp_nsort; i++) {
		e = dcmp_sort[i];
		if (x->def[e] != y->def[e])
			return x->def[e] ? -1 : 1;
		u = report_abs(x->delta[e]);
		v = report_abs(y->delta[e]);
		if (u != v)
			return u > v ? -1 : 1;
	}
	return strcmp(x->r->label, y->r->label);
}

/*
 * Print the difference NEW - OLD of two profiles: the header, the old,
 * new and changed totals, and the functions sorted by the size of their
 * change down to the threshold (on the cumulative size of the changes);
 * or with --totals the changes only, or with --format=json a document.
 * Percentages are of OLD's totals.  Return as report_text().
 */
int
report_diff(FILE *out, const struct profile *old, const struct profile *new,
    const struct report_opts *o)
{
	struct reporter		 r;
	struct diff		*d;
	struct drow		*rows;
	struct gate_result	 res;
	struct json		 j;
	unsigned char		*tdef;
	int64_t			*tdelta;
	uint64_t		*sum, *all;
	unsigned		*w;
	size_t			 i, k, nsel = 0;
	int			 e, rc = 0, failed = 0, reached;

	if (report_setup(&r, out, new, o) == -1)
		return -1;
	d = diff_build(old, new, o->inclusive, o->mod_file, o->mod_func);
	r.c.total = d->old_total;

	/* The changes, and the total size of the changes per event. */
	rows = xreallocarray(NULL, d->nrows, sizeof(*rows));
	all = xcalloc(r.nev, sizeof(*all));
	for (i = 0; i < d->nrows; i++) {
		rows[i].r = &d->rows[i];
		rows[i].delta = xreallocarray(NULL, r.nev, sizeof(int64_t));
		rows[i].def = xreallocarray(NULL, r.nev, 1);
		for (e = 0; e < (int)r.nev; e++) {
			rows[i].def[e] = (unsigned char)diff_value(
			    d->rows[i].new[e], d->rows[i].old[e],
			    &rows[i].delta[e]);
			all[e] += report_abs(rows[i].delta[e]);
		}
	}
	tdelta = xreallocarray(NULL, r.nev, sizeof(*tdelta));
	tdef = xreallocarray(NULL, r.nev, 1);
	for (e = 0; e < (int)r.nev; e++)
		tdef[e] = (unsigned char)diff_value(d->new_total[e],
		    d->old_total[e], &tdelta[e]);
	dcmp_sort = r.sort;
	dcmp_nsort = r.nsort;
	qsort(rows, d->nrows, sizeof(*rows), report_drowcmp);

	/* Down to the threshold, on the cumulative size of the changes. */
	sum = xcalloc(r.nsort, sizeof(*sum));
	for (nsel = 0; nsel < d->nrows; nsel++) {
		if (r.single < 100) {
			reached = 1;
			for (k = 0; k < r.nsort; k++)
				if (report_prop(sum[k], all[r.sort[k]]) <
				    r.thr[k])
					reached = 0;
			if (reached)
				break;
		}
		for (k = 0; k < r.nsort; k++)
			sum[k] += report_abs(rows[nsel].delta[r.sort[k]]);
	}

	/* The limits: on the change of the totals and of each function. */
	for (k = 0; k < o->ngates; k++) {
		const struct gate	*g = &o->gates[k];

		for (i = 0; i <= d->nrows; i++) {
			if (i == d->nrows ? !gate_check(g, NULL, NULL, 1,
			    tdelta[g->ev], d->old_total[g->ev] == COST_NONE ?
			    0 : d->old_total[g->ev], &res) :
			    !gate_check(g, rows[i].r->label, rows[i].r->name,
			    1, rows[i].delta[g->ev],
			    rows[i].r->old[g->ev] == COST_NONE ? 0 :
			    rows[i].r->old[g->ev], &res))
				continue;
			r.gres = xgrow(r.gres, &r.gres_cap, r.ngres + 1,
			    sizeof(*r.gres));
			r.gres[r.ngres++] = res;
			failed |= res.failed;
		}
	}

	if (o->format == REPORT_JSON) {
		json_init(&j, out);
		json_open(&j, '{');
		json_key(&j, "schema");
		json_str(&j, "cg-annotate/1");
		json_key(&j, "generator");
		json_str(&j, "cg-annotate " CGA_VERSION);
		json_key(&j, "diff");
		json_open(&j, '{');
		json_key(&j, "old");
		json_str(&j, o->old_name);
		json_key(&j, "new");
		json_str(&j, o->profile_name);
		json_close(&j, '}');
		json_meta(&j, new);
		json_options(&j, &r);
		json_key(&j, "totals");
		json_open(&j, '{');
		json_key(&j, "old");
		json_cost(&j, new, d->old_total);
		json_key(&j, "new");
		json_cost(&j, new, d->new_total);
		json_key(&j, "change");
		json_sdelta(&j, new, tdelta, tdef);
		json_close(&j, '}');
		json_key(&j, "functions");
		json_open(&j, '[');
		for (i = 0; i < nsel; i++) {
			json_open(&j, '{');
			json_key(&j, "label");
			json_str(&j, rows[i].r->label);
			json_key(&j, "file");
			json_str(&j, rows[i].r->file);
			json_key(&j, "name");
			json_str(&j, rows[i].r->name);
			json_key(&j, "old");
			json_cost(&j, new, rows[i].r->old);
			json_key(&j, "new");
			json_cost(&j, new, rows[i].r->new);
			json_key(&j, "change");
			json_sdelta(&j, new, rows[i].delta, rows[i].def);
			json_close(&j, '}');
		}
		json_close(&j, ']');
		json_gates(&j, &r);
		json_close(&j, '}');
		json_end(&j);
	} else if (o->totals_only) {
		for (i = 0; i < r.nshow; i++) {
			e = r.show[i];
			cells_name(&r.c, profile_str(new, profile_event(new,
			    (unsigned)e)));
			if (!tdef[e])
				fputs(" .\n", out);
			else
				fprintf(out, " %lld\n", (long long)tdelta[e]);
		}
	} else {
		fputs(FANCY, out);
		fprintf(out, "Differences: '%s' minus '%s'\n" FANCY,
		    o->profile_name, o->old_name);
		report_header_tail(&r, new);
		fprintf(out, "Rewritten names:  %s\n\n", o->mod_file->set &&
		    o->mod_func->set ? "files, functions" : o->mod_file->set ?
		    "files" : o->mod_func->set ? "functions" : "none");
		w = cells_widths_new(&r.c);
		cells_widths_add(&r.c, w, d->old_total);
		cells_widths_add(&r.c, w, d->new_total);
		cells_swidths_add(&r.c, w, tdelta, tdef);
		fputs(FANCY, out);
		cells_events(&r.c, w);
		fputs("\n" FANCY, out);
		cells_cost(&r.c, d->old_total, w);
		fprintf(out, " OLD TOTALS: %s\n", o->old_name);
		cells_cost(&r.c, d->new_total, w);
		fprintf(out, " NEW TOTALS: %s\n", o->profile_name);
		cells_scost(&r.c, tdelta, tdef, w);
		fputs(" PROGRAM TOTALS (change)\n\n", out);
		free(w);
		w = cells_widths_new(&r.c);
		for (i = 0; i < d->nrows; i++)
			cells_swidths_add(&r.c, w, rows[i].delta,
			    rows[i].def);
		fputs(FANCY, out);
		cells_events(&r.c, w);
		fputs(" file:function\n" FANCY, out);
		for (i = 0; i < nsel; i++) {
			cells_scost(&r.c, rows[i].delta, rows[i].def, w);
			fputc(' ', out);
			cells_name(&r.c, rows[i].r->label);
			fputc('\n', out);
		}
		fputc('\n', out);
		free(w);
	}
	for (i = 0; i < r.ngres; i++)
		if (r.gres[i].failed)
			gate_report(&r.gres[i]);
	if (failed)
		rc = GATE_EXIT;

	for (i = 0; i < d->nrows; i++) {
		free(rows[i].delta);
		free(rows[i].def);
	}
	free(rows);
	free(all);
	free(sum);
	free(tdelta);
	free(tdef);
	free(r.gres);
	diff_free(d);
	free(r.thr);
	free(r.sort);
	free(r.show);
	return rc;
}
