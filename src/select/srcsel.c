/*
 * srcsel.c - the selection for source annotation: the files holding the
 * printed functions and those the user named, found (-I) and read, in
 * the order of the listings (by kind, then name); each of their lines'
 * self cost summed over functions; the calls made from each line,
 * summed per callee and sorted by the caller's calls to it.  For JSON,
 * the same lines of the same files, by name, without reading them.
 */
#include "base/compat.h"

#include <sys/stat.h>

#include <stdlib.h>
#include <string.h>

#include "analysis/callgraph.h"
#include "analysis/fntotals.h"
#include "base/cost.h"
#include "base/msg.h"
#include "base/num.h"
#include "base/xmalloc.h"
#include "model/profile.h"
#include "select/reportopts.h"
#include "select/srcsel.h"

static uint32_t	*srcsel_sorted_index(const uint64_t *, uint32_t);
static int	srcsel_keycmp(const void *, const void *);
static int	srcsel_filecmp(const void *, const void *);
static int	srcsel_namecmp(const void *, const void *);
static int	srcsel_strptrcmp(const void *, const void *);
static int	srcsel_callcmp(const void *, const void *);
static void	srcsel_choose(struct srcsel *, const struct srcsel_from *);
static void	srcsel_sum_lines(struct srcsel *, const struct profile *,
		    const unsigned char *, const uint32_t *, unsigned);
static size_t	srcsel_line_calls(const struct srcsel_from *,
		    struct anncall *, size_t);
static void	srcsel_gather_calls(struct srcsel *, const struct srcsel_from *,
		    const unsigned char *, const uint32_t *);
static void	srcsel_spread(struct srcsel *);

/* Context for the qsort comparisons, which qsort cannot pass. */
static const uint64_t		*cmp_keys;
static const struct srcsel_from	*cmp_sel;

/* Order indices by the (file, line, id) triples in cmp_keys. */
static int
srcsel_keycmp(const void *a, const void *b)
{
	const uint64_t	*x = cmp_keys + 3 * *(const uint32_t *)a;
	const uint64_t	*y = cmp_keys + 3 * *(const uint32_t *)b;
	int		 i;

	for (i = 0; i < 3; i++)
		if (x[i] != y[i])
			return x[i] < y[i] ? -1 : 1;
	return 0;
}

/* Return 0..n-1 sorted by the (file, line, id) triples of keys. */
static uint32_t *
srcsel_sorted_index(const uint64_t *keys, uint32_t n)
{
	uint32_t	*idx, i;

	idx = xreallocarray(NULL, n, sizeof(*idx));
	for (i = 0; i < n; i++)
		idx[i] = i;
	cmp_keys = keys;
	qsort(idx, n, sizeof(*idx), srcsel_keycmp);
	cmp_keys = NULL;
	return idx;
}

/* Order files by kind (Auto before User), then by the name shown. */
static int
srcsel_filecmp(const void *a, const void *b)
{
	const struct annfile	*x = a, *y = b;

	if (x->user != y->user)
		return x->user - y->user;
	return strcmp(x->display, y->display);
}

/* Order files by name, then string id (JSON). */
static int
srcsel_namecmp(const void *a, const void *b)
{
	const struct annfile	*x = a, *y = b;
	int			 c;

	if ((c = strcmp(x->name, y->name)) != 0)
		return c;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* Order C strings given by pointer. */
static int
srcsel_strptrcmp(const void *a, const void *b)
{
	return strcmp(*(const char * const *)a, *(const char * const *)b);
}

/*
 * Order the calls of one line by the caller's total calls to each
 * callee (the sort events, descending), then as the rows' text.
 */
static int
srcsel_callcmp(const void *a, const void *b)
{
	const struct anncall	*x = a, *y = b;
	const struct callgraph	*g = *cmp_sel->g;
	const uint64_t		*u = NULL, *v = NULL;
	uint32_t		 k;
	char			 cx[32], cy[32];
	int			 c;

	for (k = g->out[x->caller]; k < g->out[x->caller + 1]; k++) {
		if (g->edges[k].to == x->callee)
			u = g->edges[k].cost;
		if (g->edges[k].to == y->callee)
			v = g->edges[k].cost;
	}
	if (u != NULL && v != NULL && (c = cost_cmp(u, v, cmp_sel->sort,
	    cmp_sel->nsort)) != 0)
		return c;
	if ((c = fntotals_labeltextcmp(fntotals_label(*cmp_sel->t, x->callee),
	    fntotals_label(*cmp_sel->t, y->callee))) != 0)
		return c;
	num_commify(x->count, cx);
	num_commify(y->count, cy);
	return strcmp(cx, cy);
}

/*
 * Choose the files: those holding the printed functions (never "???")
 * and those the user named, without repeats; find and read them; sort
 * them into the order of the listings.  Say which the user named and
 * could not be read, and list the others not found.
 */
static void
srcsel_choose(struct srcsel *s, const struct srcsel_from *sel)
{
	const struct profile	*p = sel->p;
	const struct report_opts *o = sel->o;
	const struct report_run	*run = sel->run;
	struct annfile		*files, *f;
	uint32_t		 i, *slot;
	size_t			 k, nfiles = 0, nauto;

	nauto = sel->every ? sel->nfiles : 0;
	files = xcalloc(nauto + run->nuser_files + 1, sizeof(*files));
	slot = xreallocarray(NULL, profile_nstrings(p), sizeof(*slot));
	for (i = 0; i < profile_nstrings(p); i++)
		slot[i] = UINT32_MAX;
	for (k = 0; k < nauto; k++) {
		i = sel->files[k];
		if (strcmp(profile_str(p, i), "???") == 0 ||
		    slot[i] != UINT32_MAX)
			continue;
		slot[i] = (uint32_t)nfiles;
		files[nfiles].name = profile_str(p, i);
		files[nfiles++].id = i;
	}
	for (k = 0; k < run->nuser_files; k++) {
		i = profile_str_find(p, run->user_files[k]);
		if (i != UINT32_MAX && slot[i] != UINT32_MAX) {
			files[slot[i]].user = 1;
			continue;
		}
		if (i != UINT32_MAX)
			slot[i] = (uint32_t)nfiles;
		files[nfiles].name = run->user_files[k];
		files[nfiles].id = i;
		files[nfiles++].user = 1;
	}
	free(slot);
	/* Find and read them; name them as the old tool does. */
	s->unfound = xreallocarray(NULL, nfiles, sizeof(*s->unfound));
	for (k = 0; k < nfiles; k++) {
		f = &files[k];
		f->found = run->find != NULL ? srcfind_find(run->find,
		    f->name, &f->src) : srcfile_find(f->name, o->include,
		    o->ninclude, &f->src);
		/* Found since its lines were read as one: as not found. */
		if (f->found == SRCFILE_OK && f->id != UINT32_MAX &&
		    !profile_file_lines(p, f->id)) {
			srcfile_free(&f->src);
			f->found = SRCFILE_MISSING;
		}
		if (f->found == SRCFILE_NOT_REGULAR)
			msg(MSG_NOT_REGULAR, f->name, 0, NULL);
		if (f->found != SRCFILE_OK) {
			f->display = xstrdup(f->name);
			if (f->user) {
				msg(MSG_OPEN, f->name, 0, "not found in the "
				    "current directory or any -I directory");
				s->user_missing = 1;
			} else
				s->unfound[s->nunfound++] = f->name;
			continue;
		}
		if (f->src.dir < 0)
			f->display = xstrdup(f->name);
		else {
			const char	*d = o->include[f->src.dir];
			size_t		 dl = strlen(d), nl = strlen(f->name);

			f->display = xmalloc(dl + nl + 4);
			memcpy(f->display, d, dl);
			memcpy(f->display + dl, " + ", 3);
			memcpy(f->display + dl + 3, f->name, nl + 1);
		}
	}
	qsort(s->unfound, s->nunfound, sizeof(*s->unfound), srcsel_strptrcmp);
	qsort(files, nfiles, sizeof(*files), srcsel_filecmp);
	s->files = files;
	s->nfiles = nfiles;
}

/*
 * Sum the self costs of the lines of the files marked in want (string
 * id -> nonzero), one row per (slot[file], line), in that order, with
 * nev events each.
 */
static void
srcsel_sum_lines(struct srcsel *s, const struct profile *p,
    const unsigned char *want, const uint32_t *slot, unsigned nev)
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
	idx = srcsel_sorted_index(keys, n);
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
		(void)profile_line_sum(p, (uint32_t)kk[2],
		    lines[nl - 1].cost);
	}
	free(idx);
	free(keys);
	s->lines = lines;
	s->nlines = nl;
	s->lcost = lcost;
}

/*
 * Keep, of the n calls made from one line (in the order first seen),
 * those of the first function seen calling from there, sorted; return
 * how many.
 */
static size_t
srcsel_line_calls(const struct srcsel_from *sel, struct anncall *calls,
    size_t n)
{
	size_t	i, m = 0;

	for (i = 0; i < n; i++)
		if (calls[i].caller == calls[0].caller)
			calls[m++] = calls[i];
	cmp_sel = sel;
	qsort(calls, m, sizeof(*calls), srcsel_callcmp);
	cmp_sel = NULL;
	return m;
}

/*
 * Gather the calls made from the wanted files' lines, summed per
 * (caller row, callee row) within a line, then each line's sorted.  The
 * order needs the call graph: it is made here if it is not yet.
 */
static void
srcsel_gather_calls(struct srcsel *s, const struct srcsel_from *sel,
    const unsigned char *want, const uint32_t *slot)
{
	const struct profile	*p = sel->p;
	const uint64_t		*kk;
	struct anncall		*calls;
	uint64_t		*keys = NULL, line;
	uint32_t		 i, m = 0, fn, file, callee, obj, ff, name, arc;
	uint32_t		 crow, cerow, *idx;
	size_t			 kcap = 0, nc, q, j, gstart, gend;
	unsigned		 nev = sel->nev;

	for (i = 0; i < profile_narcs(p); i++) {
		profile_arc(p, i, &fn, &callee, &file, &line);
		if (!want[file])
			continue;
		keys = xgrow(keys, &kcap, (size_t)m + 1, 3 * sizeof(*keys));
		keys[3 * m] = slot[file];
		keys[3 * m + 1] = line;
		keys[3 * m + 2] = i;
		m++;
	}
	if (m > 0 && *sel->g == NULL) {
		*sel->g = callgraph_build_on(p, *sel->t);
		*sel->t = (*sel->g)->t;
	}
	idx = srcsel_sorted_index(keys, m);
	calls = xreallocarray(NULL, m, sizeof(*calls));
	s->ccost = xreallocarray(NULL, m, nev * sizeof(*s->ccost));
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
			crow = fntotals_row_find(*sel->t, file, name);
			profile_func(p, callee, &obj, &ff, &name);
			cerow = fntotals_row_find(*sel->t, ff, name);
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
				calls[q].cost = s->ccost + q * nev;
				cost_clear(calls[q].cost, nev);
			}
			if (__builtin_add_overflow(calls[q].count,
			    profile_arc_count(p, arc), &calls[q].count))
				calls[q].count = UINT64_MAX;
			cost_add(calls[q].cost, profile_arc_cost(p, arc), nev);
		}
		nc = gstart + srcsel_line_calls(sel, calls + gstart,
		    nc - gstart);
	}
	free(idx);
	free(keys);
	s->calls = calls;
	s->ncalls = nc;
}

/*
 * Give each file its run of the lines and of the calls (NULL where it
 * has none: often nothing at all was gathered).
 */
static void
srcsel_spread(struct srcsel *s)
{
	struct annfile	*f;
	size_t		 k, li = 0, cj = 0, n;

	for (k = 0; k < s->nfiles; k++) {
		f = &s->files[k];
		for (n = 0; li + n < s->nlines && s->lines[li + n].file == k;
		    n++)
			continue;
		f->lines = n > 0 ? s->lines + li : NULL;
		f->nlines = n;
		li += n;
		for (n = 0; cj + n < s->ncalls && s->calls[cj + n].file == k;
		    n++)
			continue;
		f->calls = n > 0 ? s->calls + cj : NULL;
		f->ncalls = n;
		cj += n;
	}
}

/*
 * The selection for annotating the sources of the printed functions
 * (--auto=yes) and those the user named.  It may make the call graph
 * (*sel->g), adding rows to *sel->t.
 */
struct srcsel *
srcsel_annotate(const struct srcsel_from *sel)
{
	const struct profile	*p = sel->p;
	struct srcsel		*s;
	struct stat		 st;
	unsigned char		*want, *known;
	uint32_t		*slot, nstr = profile_nstrings(p), i, fn, file;
	size_t			 f, nwant = 0;

	s = xcalloc(1, sizeof(*s));
	if (strcmp(sel->run->profile_name, "-") != 0 &&
	    stat(sel->run->profile_name, &st) == 0) {
		s->profile_mtime = st.st_mtime;
		s->have_mtime = 1;
	}
	srcsel_choose(s, sel);

	/* Which files are wanted, and which the profile knows at all. */
	want = xcalloc(nstr, 1);
	slot = xreallocarray(NULL, nstr, sizeof(*slot));
	for (f = 0; f < s->nfiles; f++)
		if (s->files[f].id != UINT32_MAX &&
		    s->files[f].found == SRCFILE_OK) {
			want[s->files[f].id] = 1;
			slot[s->files[f].id] = (uint32_t)f;
			nwant++;
		}
	/* Often no source file is at hand: then nothing is gathered. */
	if (nwant > 0) {
		known = xcalloc(nstr, 1);
		for (i = 0; i < profile_npairs(p); i++) {
			profile_pair(p, i, &fn, &file);
			known[file] = 1;
		}
		for (f = 0; f < s->nfiles; f++)
			s->files[f].known = s->files[f].id != UINT32_MAX &&
			    known[s->files[f].id];
		free(known);
		srcsel_sum_lines(s, p, want, slot, sel->nev);
		srcsel_gather_calls(s, sel, want, slot);
	}
	srcsel_spread(s);
	free(slot);
	free(want);
	return s;
}

/*
 * The lines of the files that annotation would list (JSON): those of
 * the printed functions with --auto=yes and those the user named that
 * the profile knows, never "???", by name; not read from disk.
 */
struct srcsel *
srcsel_lines(const struct srcsel_from *sel)
{
	const struct profile	*p = sel->p;
	const struct report_run	*run = sel->run;
	struct srcsel		*s;
	unsigned char		*want;
	uint32_t		*slot, nstr = profile_nstrings(p), i, k;
	size_t			 n, nf = 0;

	s = xcalloc(1, sizeof(*s));
	want = xcalloc(nstr, 1);
	if (sel->every)
		for (n = 0; n < sel->nfiles; n++)
			want[sel->files[n]] = 1;
	for (n = 0; n < run->nuser_files; n++)
		if ((k = profile_str_find(p, run->user_files[n])) != UINT32_MAX)
			want[k] = 1;
	if ((k = profile_str_find(p, "???")) != UINT32_MAX)
		want[k] = 0;
	for (i = 0; i < nstr; i++)
		if (want[i])
			nf++;
	s->files = xcalloc(nf, sizeof(*s->files));
	for (nf = 0, i = 0; i < nstr; i++)
		if (want[i]) {
			s->files[nf].name = profile_str(p, i);
			s->files[nf].known = 1;
			s->files[nf++].id = i;
		}
	s->nfiles = nf;
	qsort(s->files, nf, sizeof(*s->files), srcsel_namecmp);
	slot = xreallocarray(NULL, nstr, sizeof(*slot));
	for (n = 0; n < nf; n++)
		slot[s->files[n].id] = (uint32_t)n;
	srcsel_sum_lines(s, p, want, slot, sel->nev);
	srcsel_spread(s);
	free(slot);
	free(want);
	return s;
}

/* Free what a source selection holds. */
void
srcsel_free(struct srcsel *s)
{
	size_t	f;

	if (s == NULL)
		return;
	for (f = 0; f < s->nfiles; f++) {
		srcfile_free(&s->files[f].src);
		free(s->files[f].display);
	}
	free(s->files);
	free(s->unfound);
	free(s->lines);
	free(s->lcost);
	free(s->calls);
	free(s->ccost);
	free(s);
}
