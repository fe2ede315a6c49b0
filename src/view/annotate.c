/*
 * annotate.c - annotated source listings: for each file holding a
 * printed function (and each file the user named), the lines with self
 * costs and the lines around them, each followed by the calls made from
 * it, then the totals of what was printed.  The layout, the windows of
 * context and their "-- line N" markers are callgrind_annotate's.  The
 * files, their order, their lines and the calls are chosen by srcsel.c.
 */
#include "base/compat.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/fntotals.h"
#include "base/cost.h"
#include "base/num.h"
#include "base/xmalloc.h"
#include "select/select.h"
#include "select/srcsel.h"
#include "view/cells.h"
#include "view/header.h"
#include "view/report.h"

#define ATS	"@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\n"
#define WARNBAR	"@@ WARNING @@ WARNING @@ WARNING @@ WARNING @@ WARNING @@ WARNING @@ WARNING @@\n"

struct annotator {
	const struct cells	 *c;
	const struct selection	 *sel;
	const struct report_opts *o;
	const struct srcsel	 *s;
	unsigned		  nev;
	uint64_t		 *printed;	/* sum of printed line costs */
};

static void	annotate_bogus_box(const struct cells *, const char *, int);
static void	annotate_unfound(const struct annotator *);
static void	annotate_totals(const struct annotator *);
static void	annotate_one(struct annotator *, const struct annfile *);
static void	annotate_calls(const struct annotator *,
		    const struct anncall *, size_t, const unsigned *);
static uint64_t	sat_add(uint64_t, uint64_t);

/* Add without wrapping: line numbers may be as large as 2^64 - 1. */
static uint64_t
sat_add(uint64_t a, uint64_t b)
{
	uint64_t	s;

	return __builtin_add_overflow(a, b, &s) ? UINT64_MAX : s;
}
/* Print the calls made from one line: " => callee (Nx)". */
static void
annotate_calls(const struct annotator *a, const struct anncall *calls,
    size_t n, const unsigned *w)
{
	const struct fnrow	*row;
	char			 count[32];
	size_t			 i;

	for (i = 0; i < n; i++) {
		cells_cost(a->c, calls[i].cost, w);
		num_commify(calls[i].count, count);
		fputs(" => ", a->c->out);
		row = &a->sel->t->rows[calls[i].callee];
		cells_label(a->c, row->file, row->name);
		fprintf(a->c->out, " (%sx)\n", count);
	}
}

/* Print the box about data for lines past the end of the file. */
static void
annotate_bogus_box(const struct cells *c, const char *name, int newer)
{
	FILE	*out = c->out;
	size_t	 len = strlen(name);

	fputs(ATS WARNBAR ATS "@@\n", out);
	fputs("@@ Information recorded about lines past the end of '", out);
	cells_name(c, name);
	fputs("'.\n@@\n@@ Probable cause and solution:\n", out);
	if (newer) {
		fputs("@@ cause:    '", out);
		cells_name(c, name);
		fputs("' has changed since information was gathered.\n@@"
		    "           If so, a warning will have already been issued "
		    "about this.\n@@ solution: Recompile program and rerun "
		    "under \"valgrind --cachesim=yes\" to \n@@           "
		    "gather new information.\n", out);
	}
	else if (len >= 2 && strcmp(name + len - 2, ".h") == 0)
		fputs("@@ cause:    bug in the Valgrind's debug info reader "
		    "that screws up with .h\n@@           files sometimes\n"
		    "@@ solution: none, sorry\n", out);
	else
		fputs("@@ cause:    not sure, sorry\n", out);
	fputs("@@\n" ATS, out);
}

/*
 * Print the listing of one file: its lines with costs, and after each
 * line the calls made from it.
 */
static void
annotate_one(struct annotator *a, const struct annfile *f)
{
	FILE		*out = a->c->out;
	const struct annline *lines = f->lines;
	const struct anncall *calls = f->calls;
	size_t		 nlines = f->nlines, ncalls = f->ncalls;
	unsigned	*w;
	uint64_t	*pairs, cur = 0, low, high, ctx = (uint64_t)a->o->context;
	struct srcreader *src;
	size_t		 i, j, np = 0, next, first, ci = 0, ce;
	int		 newer = 0, end = 0;

	if (a->s->have_mtime && f->src.mtime > a->s->profile_mtime) {
		newer = 1;
		fputs(ATS WARNBAR ATS "@ Source file '", out);
		cells_name(a->c, f->name);
		fprintf(out, "' is more recent than input file '%s'.\n"
		    "@ Annotations may not be correct.\n" ATS "\n",
		    a->sel->run->profile_name);
	}
	w = cells_widths_new(a->c);
	for (i = 0; i < nlines; i++)
		cells_widths_add(a->c, w, lines[i].cost);
	cells_events(a->c, w);
	fputs("\n\n", out);

	/* Windows: each line with cost, ctx lines on each side, merged. */
	first = nlines > 0 && lines[0].line == 0 ? 1 : 0;
	pairs = xreallocarray(NULL, 2 * (nlines + 1), sizeof(*pairs));
	for (i = first; i < nlines; i++) {
		pairs[np++] = lines[i].line > ctx ? lines[i].line - ctx : 0;
		while (i + 1 < nlines && sat_add(lines[i].line, 2 * ctx) >=
		    lines[i + 1].line)
			i++;
		pairs[np++] = sat_add(lines[i].line, ctx);
	}
	if (np > 0 && pairs[0] < 1)
		pairs[0] = 1;
	next = first;
	src = srcfile_reader(&f->src);
	for (j = 0; j < np; j += 2) {
		low = pairs[j];
		high = pairs[j + 1];
		while (cur + 1 < low && srcfile_more(src)) {
			srcfile_line(src, NULL);
			cur++;
		}
		if (low != 1)
			fprintf(out, "-- line %llu ----------------------------"
			    "------------\n", (unsigned long long)low);
		end = 1;
		while (cur < high && (end = !srcfile_more(src)) == 0) {
			cur++;
			if (next < nlines && lines[next].line == cur) {
				cells_cost(a->c, lines[next].cost, w);
				cost_add(a->printed, lines[next].cost, a->nev);
				next++;
			} else
				cells_cost(a->c, NULL, w);
			fputc(' ', out);
			srcfile_line(src, out);
			while (ci < ncalls && calls[ci].line < cur)
				ci++;
			for (ce = ci; ce < ncalls && calls[ce].line == cur;
			    ce++)
				continue;
			if (ce > ci)
				annotate_calls(a, calls + ci, ce - ci, w);
		}
		if (end)
			break;
		fprintf(out, "-- line %llu ----------------------------"
		    "------------\n", (unsigned long long)high);
	}
	srcfile_reader_close(src);
	free(pairs);

	if (next < nlines) {
		for (i = next; i < nlines; i++) {
			cells_cost(a->c, lines[i].cost, w);
			fprintf(out, " <bogus line %llu>\n",
			    (unsigned long long)lines[i].line);
		}
		fputc('\n', out);
		annotate_bogus_box(a->c, f->name, newer);
	}
	fputc('\n', out);
	if (first) {
		cells_cost(a->c, lines[0].cost, w);
		fputs(" <counts for unidentified lines in ", out);
		cells_name(a->c, f->name);
		fputs(">\n\n", out);
	}
	free(w);
}

/* List the files chosen for annotation that were not found. */
static void
annotate_unfound(const struct annotator *a)
{
	const struct cells	*c = a->c;
	size_t			 f;

	if (a->s->nunfound == 0)
		return;
	fputs(FANCY "The following files chosen for auto-annotation "
	    "could not be found:\n" FANCY, c->out);
	for (f = 0; f < a->s->nunfound; f++) {
		fputs("  ", c->out);
		cells_name(c, a->s->unfound[f]);
		fputc('\n', c->out);
	}
	fputc('\n', c->out);
}

/*
 * Print the sum of the printed lines' costs, "events annotated"; where
 * the total is 0 or below that sum, the sum is the percentage base.
 */
static void
annotate_totals(const struct annotator *a)
{
	const struct cells	*c = a->c;
	struct cells		 cc = *c;
	uint64_t		*summary;
	unsigned		*w, k;

	summary = xreallocarray(NULL, a->nev, sizeof(*summary));
	for (k = 0; k < a->nev; k++) {
		summary[k] = c->total[k];
		if (summary[k] == COST_NONE || summary[k] == 0 ||
		    (a->printed[k] != COST_NONE && a->printed[k] > summary[k]))
			summary[k] = a->printed[k];
	}
	cc.total = summary;
	w = cells_widths_new(&cc);
	cells_widths_add(&cc, w, a->printed);
	fputs(FANCY, c->out);
	cells_events(&cc, w);
	fputs("\n" FANCY, c->out);
	cells_cost(&cc, a->printed, w);
	fputs(" events annotated\n\n", c->out);
	free(w);
	free(summary);
}

/*
 * Annotate the files chosen (those holding the printed functions, and
 * those the user named), then list the files that could not be found
 * and the totals of the printed lines.  Return REPORT_ERR_FILE if a
 * file the user named could not be read, else 0.
 */
int
annotate_files(FILE *out, const struct selection *sel)
{
	const struct srcsel	*s = sel->src;
	const struct annfile	*f;
	struct annotator	 a;
	struct cells		 c;
	size_t			 k;
	int			 did = 0;

	cells_init(&c, out, sel);
	memset(&a, 0, sizeof(a));
	a.c = &c;
	a.sel = sel;
	a.o = sel->o;
	a.s = s;
	a.nev = sel->nev;
	a.printed = xreallocarray(NULL, a.nev, sizeof(*a.printed));
	cost_clear(a.printed, a.nev);
	for (k = 0; k < s->nfiles; k++) {
		f = &s->files[k];
		if (f->found != SRCFILE_OK)
			continue;
		fprintf(out, FANCY "-- %s-annotated source: ",
		    f->user ? "User" : "Auto");
		cells_name(&c, f->display);
		fputs("\n" FANCY, out);
		if (!f->known) {
			fputs("  No information has been collected for ", out);
			cells_name(&c, f->name);
			fputs("\n\n", out);
			continue;
		}
		did = 1;
		annotate_one(&a, f);
	}
	annotate_unfound(&a);
	if (did)
		annotate_totals(&a);
	free(a.printed);
	return s->user_missing ? REPORT_ERR_FILE : 0;
}
