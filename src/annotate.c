/*
 * annotate.c - annotated source listings: for each file holding a
 * printed function (and each file the user named), the lines with self
 * costs and the lines around them, each followed by the calls made from
 * it, then the totals of what was printed.  The layout, the windows of
 * context and their "-- line N" markers are callgrind_annotate's; the
 * order of the files is fixed (by kind, then name).
 */
#include "compat.h"

#include <sys/stat.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "annotate.h"
#include "callgraph.h"
#include "cells.h"
#include "cost.h"
#include "fntotals.h"
#include "msg.h"
#include "profile.h"
#include "report.h"
#include "srcfile.h"
#include "xmalloc.h"

#define FANCY	"--------------------------------------------------------------------------------\n"
#define ATS	"@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\n"
#define WARNBAR	"@@ WARNING @@ WARNING @@ WARNING @@ WARNING @@ WARNING @@ WARNING @@ WARNING @@\n"

/* A file to annotate. */
struct annfile {
	const char	*name;		/* as in the profile or as named */
	uint32_t	 id;		/* string id, or UINT32_MAX if unknown */
	int		 user;		/* named on the command line */
	struct srcfile	 src;
	enum srcfile_result found;
	char		*display;	/* name, or "dir + name" */
};

/* A call made from a line, summed per (caller, callee) row. */
struct anncall {
	uint32_t	 file;		/* index into the files */
	uint64_t	 line;
	uint32_t	 caller, callee;	/* rows */
	uint64_t	 count;
	uint64_t	*cost;
};

struct annotator {
	const struct cells	 *c;
	const struct profile	 *p;
	struct fntotals		 *t;		/* the rows */
	struct callgraph	**gp;		/* the call graph, made when
						   a line calls */
	const struct report_opts *o;
	const int		 *sort;
	size_t			  nsort;
	unsigned		  nev;
	uint64_t		 *printed;	/* sum of printed line costs */
	struct annfile		 *files;	/* the files to annotate */
	size_t			  nfiles;
	uint32_t		 *slot;		/* string id -> file index */
	unsigned char		 *want;		/* string id -> annotated */
	struct annline		 *lines;	/* by file, then line */
	size_t			  nlines;
	uint64_t		 *lcost;
	struct anncall		 *calls;	/* by file, line, first seen */
	size_t			  ncalls;
	uint64_t		 *ccost;
	time_t			  profile_mtime;
	int			  have_mtime;
};

/* Context for the qsort comparisons, which qsort cannot pass. */
static const struct annotator	*cmp_ctx;
static const uint64_t		*cmp_keys;

static int	annfile_cmp(const void *, const void *);
static int	key_cmp(const void *, const void *);
static int	call_cmp(const void *, const void *);
static void	annotate_bogus_box(const struct cells *, const char *, int);
static ssize_t	annotate_choose(struct annotator *, const uint32_t *, size_t);
static void	annotate_gather_calls(struct annotator *);
static void	annotate_unfound(const struct annotator *, size_t);
static void	annotate_totals(const struct annotator *);
static void	annotate_one(struct annotator *, struct annfile *,
		    struct annline *, size_t, struct anncall *, size_t);
static void	annotate_calls(const struct annotator *, struct anncall *,
		    size_t, const unsigned *);
static const char *next_line(const char **, const char *, size_t *);
static uint64_t	sat_add(uint64_t, uint64_t);

/* Add without wrapping: line numbers may be as large as 2^64 - 1. */
static uint64_t
sat_add(uint64_t a, uint64_t b)
{
	uint64_t	s;

	return __builtin_add_overflow(a, b, &s) ? UINT64_MAX : s;
}
static uint32_t	*sorted_index(const uint64_t *, uint32_t);
static int	strptrcmp(const void *, const void *);

/* Return 0..n-1 sorted by the (file, line, id) triples of keys. */
static uint32_t *
sorted_index(const uint64_t *keys, uint32_t n)
{
	uint32_t	*idx, i;

	idx = xreallocarray(NULL, n, sizeof(*idx));
	for (i = 0; i < n; i++)
		idx[i] = i;
	cmp_keys = keys;
	qsort(idx, n, sizeof(*idx), key_cmp);
	cmp_keys = NULL;
	return idx;
}

/* Order C strings given by pointer. */
static int
strptrcmp(const void *a, const void *b)
{
	return strcmp(*(const char * const *)a, *(const char * const *)b);
}

/* Order files by kind (Auto before User), then by the name shown. */
static int
annfile_cmp(const void *a, const void *b)
{
	const struct annfile	*x = a, *y = b;

	if (x->user != y->user)
		return x->user - y->user;
	return strcmp(x->display, y->display);
}

/* Order indices by the (file, line, id) triples in cmp_keys. */
static int
key_cmp(const void *a, const void *b)
{
	const uint64_t	*x = cmp_keys + 3 * *(const uint32_t *)a;
	const uint64_t	*y = cmp_keys + 3 * *(const uint32_t *)b;
	int		 i;

	for (i = 0; i < 3; i++)
		if (x[i] != y[i])
			return x[i] < y[i] ? -1 : 1;
	return 0;
}

/*
 * Order the calls of one line by the caller's total calls to each
 * callee (the sort events, descending), then as the rows' text.
 */
static int
call_cmp(const void *a, const void *b)
{
	const struct anncall	*x = a, *y = b;
	const struct callgraph	*g = *cmp_ctx->gp;
	const uint64_t		*u = NULL, *v = NULL;
	uint32_t		 k;
	size_t			 i;
	char			 cx[32], cy[32];
	int			 c;

	for (k = g->out[x->caller]; k < g->out[x->caller + 1]; k++) {
		if (g->edges[k].to == x->callee)
			u = g->edges[k].cost;
		if (g->edges[k].to == y->callee)
			v = g->edges[k].cost;
	}
	for (i = 0; u != NULL && v != NULL && i < cmp_ctx->nsort; i++) {
		uint64_t	p = u[cmp_ctx->sort[i]], q = v[cmp_ctx->sort[i]];

		if (p == q)
			continue;
		if (p == COST_NONE)
			return 1;
		if (q == COST_NONE)
			return -1;
		return p > q ? -1 : 1;
	}
	if ((c = cells_labelcmp(fntotals_label(cmp_ctx->t, x->callee),
	    fntotals_label(cmp_ctx->t, y->callee))) != 0)
		return c;
	cells_commify(x->count, cx);
	cells_commify(y->count, cy);
	return strcmp(cx, cy);
}

/* Return the next line of [*pos, end) with its newline, or NULL. */
static const char *
next_line(const char **pos, const char *end, size_t *len)
{
	const char	*s = *pos, *nl;

	if (s >= end)
		return NULL;
	nl = memchr(s, '\n', end - s);
	*pos = nl != NULL ? nl + 1 : end;
	*len = *pos - s;
	return s;
}

/* Print the calls made from one line: " => callee (Nx)". */
static void
annotate_calls(const struct annotator *a, struct anncall *calls, size_t n,
    const unsigned *w)
{
	const struct fnrow	*row;
	char			 count[32];
	size_t			 i, m = 0;

	/* Only the calls of the first function seen calling from here. */
	for (i = 0; i < n; i++)
		if (calls[i].caller == calls[0].caller)
			calls[m++] = calls[i];
	cmp_ctx = a;
	qsort(calls, m, sizeof(*calls), call_cmp);
	cmp_ctx = NULL;
	for (i = 0; i < m; i++) {
		cells_cost(a->c, calls[i].cost, w);
		cells_commify(calls[i].count, count);
		fputs(" => ", a->c->out);
		row = &a->t->rows[calls[i].callee];
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
 * Print the listing of one file: lines holds its lines with costs
 * (sorted), calls the calls made from it (sorted by line, then parse
 * order).
 */
static void
annotate_one(struct annotator *a, struct annfile *f, struct annline *lines,
    size_t nlines, struct anncall *calls, size_t ncalls)
{
	FILE		*out = a->c->out;
	unsigned	*w;
	uint64_t	*pairs, cur = 0, low, high, ctx = (uint64_t)a->o->context;
	const char	*pos = f->src.data, *end = f->src.data + f->src.len;
	const char	*text = NULL;
	size_t		 i, j, np = 0, next, first, len, ci = 0, ce;
	int		 newer = 0;

	if (a->have_mtime && f->src.mtime > a->profile_mtime) {
		newer = 1;
		fputs(ATS WARNBAR ATS "@ Source file '", out);
		cells_name(a->c, f->name);
		fprintf(out, "' is more recent than input file '%s'.\n"
		    "@ Annotations may not be correct.\n" ATS "\n",
		    a->o->profile_name);
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
	for (j = 0; j < np; j += 2) {
		low = pairs[j];
		high = pairs[j + 1];
		while (cur + 1 < low) {
			if (next_line(&pos, end, &len) == NULL)
				break;
			cur++;
		}
		if (low != 1)
			fprintf(out, "-- line %llu ----------------------------"
			    "------------\n", (unsigned long long)low);
		text = NULL;
		while (cur < high && (text = next_line(&pos, end, &len)) !=
		    NULL) {
			cur++;
			if (next < nlines && lines[next].line == cur) {
				cells_cost(a->c, lines[next].cost, w);
				cost_add(a->printed, lines[next].cost, a->nev);
				next++;
			} else
				cells_cost(a->c, NULL, w);
			fputc(' ', out);
			fwrite(text, 1, len, out);
			while (ci < ncalls && calls[ci].line < cur)
				ci++;
			for (ce = ci; ce < ncalls && calls[ce].line == cur;
			    ce++)
				continue;
			if (ce > ci)
				annotate_calls(a, calls + ci, ce - ci, w);
		}
		if (text == NULL)
			break;
		fprintf(out, "-- line %llu ----------------------------"
		    "------------\n", (unsigned long long)high);
	}
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

/*
 * Choose the files: those holding the printed functions (auto, string
 * ids; never "???") and those the user named, without repeats; find and
 * read them; sort them into the order of the listings.  Return the
 * number not found, or -1 if one the user named was not.
 */
static ssize_t
annotate_choose(struct annotator *a, const uint32_t *autofiles, size_t nauto)
{
	const struct profile	*p = a->p;
	const struct report_opts *o = a->o;
	struct annfile		*files;
	uint32_t		 i, nstr = profile_nstrings(p), *slot;
	size_t			 f, nfiles = 0;
	ssize_t			 unfound = 0;
	int			 rc = 0;

	files = xcalloc(nauto + o->nuser_files + 1, sizeof(*files));
	slot = xreallocarray(NULL, nstr, sizeof(*slot));
	for (i = 0; i < nstr; i++)
		slot[i] = UINT32_MAX;
	for (f = 0; f < nauto; f++) {
		if (strcmp(profile_str(p, autofiles[f]), "???") == 0 ||
		    slot[autofiles[f]] != UINT32_MAX)
			continue;
		slot[autofiles[f]] = (uint32_t)nfiles;
		files[nfiles].name = profile_str(p, autofiles[f]);
		files[nfiles++].id = autofiles[f];
	}
	for (f = 0; f < o->nuser_files; f++) {
		i = profile_str_find(p, o->user_files[f]);
		if (i != UINT32_MAX && slot[i] != UINT32_MAX) {
			files[slot[i]].user = 1;
			continue;
		}
		if (i != UINT32_MAX)
			slot[i] = (uint32_t)nfiles;
		files[nfiles].name = o->user_files[f];
		files[nfiles].id = i;
		files[nfiles++].user = 1;
	}
	/* Find and read them; name them as the old tool does. */
	for (f = 0; f < nfiles; f++) {
		files[f].found = srcfile_find(files[f].name, o->include,
		    o->ninclude, 0, &files[f].src);
		if (files[f].found == SRCFILE_NOT_REGULAR)
			msg(MSG_NOT_REGULAR, files[f].name, 0, NULL);
		if (files[f].found != SRCFILE_OK) {
			files[f].display = xstrdup(files[f].name);
			if (files[f].user) {
				msg(MSG_OPEN, files[f].name, 0, "not found "
				    "in the current directory or any -I "
				    "directory");
				rc = -1;
			} else
				unfound++;
			continue;
		}
		if (files[f].src.dir < 0)
			files[f].display = xstrdup(files[f].name);
		else {
			const char	*d = o->include[files[f].src.dir];
			size_t		 dl = strlen(d), nl2 =
			    strlen(files[f].name);

			files[f].display = xmalloc(dl + nl2 + 4);
			memcpy(files[f].display, d, dl);
			memcpy(files[f].display + dl, " + ", 3);
			memcpy(files[f].display + dl + 3, files[f].name,
			    nl2 + 1);
		}
	}
	qsort(files, nfiles, sizeof(*files), annfile_cmp);
	for (f = 0; f < nfiles; f++)
		if (files[f].id != UINT32_MAX)
			slot[files[f].id] = (uint32_t)f;

	a->files = files;
	a->nfiles = nfiles;
	a->slot = slot;
	return rc == -1 ? -1 : unfound;
}

/*
 * Sum the self costs of the lines of the files marked in want (string
 * id -> nonzero), one row per (slot[file], line), in that order, with
 * nev events each in *costp.  Return the rows and their number in *np.
 */
struct annline *
annotate_sum_lines(const struct profile *p, const unsigned char *want,
    const uint32_t *slot, unsigned nev, uint64_t **costp, size_t *np)
{
	struct annline		*lines;
	const uint64_t		*kk;
	uint64_t		*keys = NULL, *lcost, line;
	uint32_t		 i, n = 0, fn, file, *idx;
	size_t			 kcap = 0, nl;

	for (i = 0; i < profile_nlines(p); i++) {
		profile_line(p, i, &fn, &file, &line);
		if (!want[file])
			continue;
		keys = xgrow(keys, &kcap, (size_t)n + 1, 3 * sizeof(*keys));
		keys[3 * n] = slot[file];
		keys[3 * n + 1] = line;
		keys[3 * n + 2] = i;
		n++;
	}
	idx = sorted_index(keys, n);
	lines = xreallocarray(NULL, n, sizeof(*lines));
	lcost = xreallocarray(NULL, n, nev * sizeof(*lcost));
	nl = 0;
	for (i = 0; i < n; i++) {
		kk = keys + 3 * idx[i];
		if (nl == 0 || lines[nl - 1].file != kk[0] ||
		    lines[nl - 1].line != kk[1]) {
			lines[nl].file = (uint32_t)kk[0];
			lines[nl].line = kk[1];
			lines[nl].cost = lcost + nl * nev;
			cost_clear(lines[nl].cost, nev);
			nl++;
		}
		cost_add(lines[nl - 1].cost, profile_line_cost(p,
		    (uint32_t)kk[2]), nev);
	}
	free(idx);
	free(keys);
	*costp = lcost;
	*np = nl;
	return lines;
}

/*
 * Gather the calls made from the wanted files' lines, summed per
 * (caller row, callee row) within a line, in the order first seen.
 */
static void
annotate_gather_calls(struct annotator *a)
{
	const struct profile	*p = a->p;
	const uint64_t		*kk;
	struct anncall		*calls;
	uint64_t		*keys = NULL, line;
	uint32_t		 i, m = 0, fn, file, callee, obj, ff, name, arc;
	uint32_t		 crow, cerow, *idx;
	size_t			 kcap = 0, nc, q, j, gstart, gend;

	for (i = 0; i < profile_narcs(p); i++) {
		profile_arc(p, i, &fn, &callee, &file, &line);
		if (!a->want[file])
			continue;
		keys = xgrow(keys, &kcap, (size_t)m + 1, 3 * sizeof(*keys));
		keys[3 * m] = a->slot[file];
		keys[3 * m + 1] = line;
		keys[3 * m + 2] = i;
		m++;
	}
	/* Calls to order by the call graph's edges: make it now. */
	if (m > 0 && *a->gp == NULL)
		*a->gp = callgraph_build_on(p, a->t);
	idx = sorted_index(keys, m);
	calls = xreallocarray(NULL, m, sizeof(*calls));
	a->ccost = xreallocarray(NULL, m, a->nev * sizeof(*a->ccost));
	nc = 0;
	for (i = 0; i < m; i = gend) {
		kk = keys + 3 * idx[i];
		for (gend = i; gend < m && keys[3 * idx[gend]] == kk[0] &&
		    keys[3 * idx[gend] + 1] == kk[1]; gend++)
			continue;
		gstart = nc;
		for (j = i; j < gend; j++) {
			arc = (uint32_t)keys[3 * idx[j] + 2];
			profile_arc(p, arc, &fn, &callee, &file, &line);
			profile_func(p, fn, &obj, &ff, &name);
			crow = fntotals_row_find(a->t, file, name);
			profile_func(p, callee, &obj, &ff, &name);
			cerow = fntotals_row_find(a->t, ff, name);
			for (q = gstart; q < nc; q++)
				if (calls[q].caller == crow &&
				    calls[q].callee == cerow)
					break;
			if (q == nc) {
				nc++;
				calls[q].file = (uint32_t)kk[0];
				calls[q].line = line;
				calls[q].caller = crow;
				calls[q].callee = cerow;
				calls[q].count = 0;
				calls[q].cost = a->ccost + q * a->nev;
				cost_clear(calls[q].cost, a->nev);
			}
			if (__builtin_add_overflow(calls[q].count,
			    profile_arc_count(p, arc), &calls[q].count))
				calls[q].count = UINT64_MAX;
			cost_add(calls[q].cost, profile_arc_cost(p, arc),
			    a->nev);
		}
	}
	free(idx);
	free(keys);
	a->calls = calls;
	a->ncalls = nc;
}

/* List, sorted, the files chosen for annotation that were not found. */
static void
annotate_unfound(const struct annotator *a, size_t unfound)
{
	const struct cells	*c = a->c;
	const char		**names;
	size_t			  f, u = 0;

	if (unfound == 0)
		return;
	names = xreallocarray(NULL, unfound, sizeof(*names));
	for (f = 0; f < a->nfiles; f++)
		if (a->files[f].found != SRCFILE_OK && !a->files[f].user)
			names[u++] = a->files[f].name;
	qsort(names, u, sizeof(*names), strptrcmp);
	fputs(FANCY "The following files chosen for auto-annotation "
	    "could not be found:\n" FANCY, c->out);
	for (f = 0; f < u; f++) {
		fputs("  ", c->out);
		cells_name(c, names[f]);
		fputc('\n', c->out);
	}
	fputc('\n', c->out);
	free(names);
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
 * Annotate the files holding the printed functions (auto, string ids)
 * and those the user named, in a fixed order; then list the files that
 * could not be found and the totals of the printed lines.  Return -1
 * if a file the user named could not be read.
 */
int
annotate_files(const struct cells *c, const struct profile *p,
    struct fntotals *t, struct callgraph **gp, const uint32_t *autofiles,
    size_t nauto,
    const struct report_opts *o, const int *sort, size_t nsort)
{
	struct annotator	 a;
	struct annfile		*files;
	struct stat		 st;
	unsigned char		*known;
	uint32_t		 nstr = profile_nstrings(p), i, fn, file;
	size_t			 f, li = 0, cj = 0, lstart, cstart, nwant = 0;
	ssize_t			 unfound;
	int			 did = 0;

	memset(&a, 0, sizeof(a));
	a.c = c;
	a.p = p;
	a.t = t;
	a.gp = gp;
	a.o = o;
	a.sort = sort;
	a.nsort = nsort;
	a.nev = c->nev;
	a.printed = xreallocarray(NULL, a.nev, sizeof(*a.printed));
	cost_clear(a.printed, a.nev);
	if (strcmp(o->profile_name, "-") != 0 &&
	    stat(o->profile_name, &st) == 0) {
		a.profile_mtime = st.st_mtime;
		a.have_mtime = 1;
	}
	unfound = annotate_choose(&a, autofiles, nauto);
	files = a.files;

	/* Which files are wanted, and which the profile knows at all. */
	a.want = xcalloc(nstr, 1);
	known = xcalloc(nstr, 1);
	for (f = 0; f < a.nfiles; f++)
		if (files[f].id != UINT32_MAX && files[f].found == SRCFILE_OK) {
			a.want[files[f].id] = 1;
			nwant++;
		}
	/* Often no source file is at hand: then nothing is gathered. */
	if (nwant > 0) {
		for (i = 0; i < profile_npairs(p); i++) {
			profile_pair(p, i, &fn, &file);
			known[file] = 1;
		}
		a.lines = annotate_sum_lines(p, a.want, a.slot, a.nev,
		    &a.lcost, &a.nlines);
		annotate_gather_calls(&a);
	}

	/* The listings. */
	for (f = 0; f < a.nfiles; f++) {
		if (files[f].found != SRCFILE_OK)
			continue;
		fprintf(c->out, FANCY "-- %s-annotated source: ",
		    files[f].user ? "User" : "Auto");
		cells_name(c, files[f].display);
		fputs("\n" FANCY, c->out);
		lstart = li;
		while (li < a.nlines && a.lines[li].file == f)
			li++;
		cstart = cj;
		while (cj < a.ncalls && a.calls[cj].file == f)
			cj++;
		if (files[f].id == UINT32_MAX || !known[files[f].id]) {
			fputs("  No information has been collected for ",
			    c->out);
			cells_name(c, files[f].name);
			fputs("\n\n", c->out);
			continue;
		}
		did = 1;
		annotate_one(&a, &files[f], a.lines + lstart, li - lstart,
		    a.calls + cstart, cj - cstart);
	}
	annotate_unfound(&a, unfound > 0 ? (size_t)unfound : 0);
	if (did)
		annotate_totals(&a);

	for (f = 0; f < a.nfiles; f++) {
		srcfile_free(&files[f].src);
		free(files[f].display);
	}
	free(files);
	free(a.slot);
	free(a.want);
	free(known);
	free(a.lines);
	free(a.lcost);
	free(a.calls);
	free(a.ccost);
	free(a.printed);
	return unfound < 0 ? -1 : 0;
}
