/*
 * report.c - the text report in callgrind_annotate's layout: the
 * header block, PROGRAM TOTALS and the function totals sorted by the
 * chosen events down to the threshold.  It reads the model only
 * through const accessors and the analyses.
 */
#include "compat.h"

#include <stdlib.h>
#include <string.h>

#include "cost.h"
#include "fntotals.h"
#include "msg.h"
#include "profile.h"
#include "report.h"
#include "xmalloc.h"

#define FANCY	"--------------------------------------------------------------------------------\n"
#define PERC_WIDTH	9	/* " (12.34%)" */

struct reporter {
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
};

static int	report_resolve(const struct profile *, const char *,
		    char **, size_t, int **);
static size_t	report_commify(uint64_t, char *);
static unsigned	report_numlen(uint64_t);
static void	report_widths(const struct reporter *, unsigned *,
		    const uint64_t *);
static unsigned	*report_widths_new(const struct reporter *);
static double	report_prop(uint64_t, uint64_t);
static void	report_events(const struct reporter *, const unsigned *);
static void	report_cost(const struct reporter *, const uint64_t *,
		    const unsigned *);
static void	report_header(const struct reporter *);
static void	report_summary(const struct reporter *);
static void	report_functions(const struct reporter *);
static int	report_rowcmp(const void *, const void *);

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

/* Write v with thousands separators into buf; return its length. */
static size_t
report_commify(uint64_t v, char *buf)
{
	char	digits[24];
	int	n = 0, i, j = 0;

	do {
		digits[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v > 0);
	for (i = n - 1; i >= 0; i--) {
		buf[j++] = digits[i];
		if (i > 0 && i % 3 == 0)
			buf[j++] = ',';
	}
	buf[j] = '\0';
	return (size_t)j;
}

/* Return the number of decimal digits of v. */
static unsigned
report_numlen(uint64_t v)
{
	unsigned	n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

/* Widen the columns in w to fit cost c (all events, as the old tool). */
static void
report_widths(const struct reporter *r, unsigned *w, const uint64_t *c)
{
	unsigned	i, len, width;

	for (i = 0; i < r->nev; i++) {
		if (c[i] == COST_NONE)
			continue;
		len = report_numlen(c[i]);
		width = len + (len - 1) / 3;
		if (r->o->show_percs)
			width += PERC_WIDTH;
		if (width > w[i])
			w[i] = width;
	}
}

/* Start column widths at the lengths of the event names. */
static unsigned *
report_widths_new(const struct reporter *r)
{
	unsigned	*w, i;

	w = xreallocarray(NULL, r->nev, sizeof(*w));
	for (i = 0; i < r->nev; i++)
		w[i] = (unsigned)strlen(profile_str(r->p,
		    profile_event(r->p, i)));
	return w;
}

/* Print the shown event names, each padded to its column. */
static void
report_events(const struct reporter *r, const unsigned *w)
{
	const char	*name;
	size_t		 i;

	for (i = 0; i < r->nshow; i++) {
		name = profile_str(r->p, profile_event(r->p, r->show[i]));
		fprintf(r->out, "%-*s ", (int)w[r->show[i]], name);
	}
}

/* Print the shown counts of c with percentages, right-aligned. */
static void
report_cost(const struct reporter *r, const uint64_t *c, const unsigned *w)
{
	char		 text[64];
	size_t		 i, len;
	uint64_t	 v, base;
	double		 perc;
	int		 e;

	for (i = 0; i < r->nshow; i++) {
		e = r->show[i];
		v = c[e];
		if (v == COST_NONE) {
			text[0] = '.';
			text[1] = '\0';
			len = 1;
		} else
			len = report_commify(v, text);
		if (r->o->show_percs) {
			if (v != COST_NONE && v != 0) {
				base = r->total[e];
				if (base == COST_NONE || base == 0)
					perc = 0;
				else if (v <= UINT64_MAX / 100)
					perc = (double)(v * 100) /
					    (double)base;
				else
					perc = (double)v * 100.0 /
					    (double)base;
				len += snprintf(text + len, sizeof(text) - len,
				    perc > -9.995 && perc < 99.995 ?
				    " (%5.2f%%)" : " (%5.1f%%)", perc);
			} else {
				memset(text + len, ' ', PERC_WIDTH);
				len += PERC_WIDTH;
				text[len] = '\0';
			}
		}
		fprintf(r->out, "%*s ", (int)w[e], text);
	}
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
	if (*(s = profile_str(r->p, pt->creator)) != '\0')
		fprintf(r->out, " (creator: %s)", s);
	fputs("\n" FANCY, r->out);
	for (i = 0; i < pt->ndesc; i++) {
		s = profile_str(r->p, pt->desc[i]);
		if (strncmp(s, "Option:", 7) != 0)
			fprintf(r->out, "%s\n", s);
	}
	s = profile_str(r->p, pt->cmd);
	fprintf(r->out, "Profiled target:  %s", *s != '\0' ? s : "(unknown)");
	if (*(s = profile_str(r->p, pt->pid)) != '\0') {
		fprintf(r->out, " (PID %s", s);
		if (*(s = profile_str(r->p, pt->part)) != '\0')
			fprintf(r->out, ", part %s", s);
		if (*(s = profile_str(r->p, pt->thread)) != '\0')
			fprintf(r->out, ", thread %s", s);
		fputc(')', r->out);
	}
	fputs("\nEvents recorded: ", r->out);
	for (i = 0; i < r->nev; i++)
		fprintf(r->out, " %s", profile_str(r->p, profile_event(r->p,
		    (unsigned)i)));
	fputs("\nEvents shown:    ", r->out);
	for (i = 0; i < r->nshow; i++)
		fprintf(r->out, " %s", r->o->show != NULL ? r->o->show[i] :
		    profile_str(r->p, profile_event(r->p, r->show[i])));
	fputs("\nEvent sort order:", r->out);
	for (i = 0; i < r->nsort; i++)
		fprintf(r->out, " %s", r->o->sort != NULL ? r->o->sort[i] :
		    profile_str(r->p, profile_event(r->p, r->sort[i])));
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

/* Print the PROGRAM TOTALS block. */
static void
report_summary(const struct reporter *r)
{
	unsigned	*w;

	w = report_widths_new(r);
	report_widths(r, w, r->total);
	fputs(FANCY, r->out);
	report_events(r, w);
	fputs("\n" FANCY, r->out);
	report_cost(r, r->total, w);
	fputs(" PROGRAM TOTALS", r->out);
	if (r->source == TOTALS_CALCULATED)
		fputs(" (calculated)", r->out);
	fputs("\n\n", r->out);
	free(w);
}

/*
 * Order function rows by the sort events, descending, "never recorded"
 * below 0; then by label, then by object name, so the order is total.
 */
static int
report_rowcmp(const void *a, const void *b)
{
	const struct fnrow	*x = *(const struct fnrow * const *)a;
	const struct fnrow	*y = *(const struct fnrow * const *)b;
	uint64_t		 u, v;
	size_t			 i;
	int			 c;

	for (i = 0; i < cmp_ctx->nsort; i++) {
		u = x->cost[cmp_ctx->sort[i]];
		v = y->cost[cmp_ctx->sort[i]];
		if (u == v)
			continue;
		if (u == COST_NONE)
			return 1;
		if (v == COST_NONE)
			return -1;
		return u > v ? -1 : 1;
	}
	if ((c = strcmp(x->label, y->label)) != 0)
		return c;
	if ((c = strcmp(profile_str(cmp_ctx->p, x->obj),
	    profile_str(cmp_ctx->p, y->obj))) != 0)
		return c;
	return x->fn < y->fn ? -1 : x->fn > y->fn;
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

/* Print the function totals, sorted, down to the threshold. */
static void
report_functions(const struct reporter *r)
{
	struct fntotals		 *t;
	const struct fnrow	**rows;
	unsigned		 *w;
	uint64_t		 *sum, v;
	size_t			  i, k;
	int			  reached;

	t = fntotals_build(r->p);
	w = report_widths_new(r);
	rows = xreallocarray(NULL, t->nrows, sizeof(*rows));
	for (i = 0; i < t->nrows; i++) {
		rows[i] = &t->rows[i];
		report_widths(r, w, rows[i]->cost);
	}
	cmp_ctx = r;
	qsort(rows, t->nrows, sizeof(*rows), report_rowcmp);
	cmp_ctx = NULL;

	fputs(FANCY, r->out);
	report_events(r, w);
	fputs(" file:function\n" FANCY, r->out);
	sum = xcalloc(r->nsort, sizeof(*sum));
	for (i = 0; i < t->nrows; i++) {
		if (r->single < 100) {
			reached = 1;
			for (k = 0; k < r->nsort; k++)
				if (report_prop(sum[k], r->total[r->sort[k]]) <
				    r->thr[k])
					reached = 0;
			if (reached)
				break;
		}
		report_cost(r, rows[i]->cost, w);
		fprintf(r->out, " %s", rows[i]->label);
		if (rows[i]->obj != 0)
			fprintf(r->out, " [%s]", profile_str(r->p,
			    rows[i]->obj));
		fputc('\n', r->out);
		for (k = 0; k < r->nsort; k++) {
			v = rows[i]->cost[r->sort[k]];
			if (v != COST_NONE && __builtin_add_overflow(sum[k], v,
			    &sum[k]))
				sum[k] = UINT64_MAX;
		}
	}
	fputc('\n', r->out);
	free(sum);
	free(rows);
	free(w);
	fntotals_free(t);
}

/*
 * Print the report for profile p to out.  Return 0, or -1 after an
 * error message if an event named in the options is not in p.
 */
int
report_text(FILE *out, const struct profile *p, const struct report_opts *o)
{
	struct reporter	 r;
	size_t		 i;
	int		 n;

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

	report_header(&r);
	report_summary(&r);
	report_functions(&r);

	free(r.total);
	free(r.thr);
	free(r.sort);
	free(r.show);
	return 0;
}
