/*
 * fntotals.c - per-function self totals and the program totals.
 */
#include "base/compat.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/fntotals.h"
#include "base/arena.h"
#include "base/cost.h"
#include "base/keytab.h"
#include "base/xmalloc.h"
#include "model/profile.h"

/*
 * Return the row of label (file, name) if name is one function's and
 * that function has code in file: the row of that pair, made without a
 * table (most rows of a C++ program, a function inlined in many files);
 * else UINT32_MAX.
 */
static uint32_t
fntotals_pair_row(const struct fntotals *t, uint32_t file, uint32_t name)
{
	uint32_t	fn, k;

	if (t->pair_row == NULL || name >= t->nnames ||
	    (fn = t->name_fn[name]) >= FNT_SHARED ||
	    (k = profile_pair_find(t->p, fn, file)) == UINT32_MAX)
		return UINT32_MAX;
	return t->pair_row[k];
}

/* Make the next row, of label (file, name), with no cost yet. */
static struct fnrow *
fntotals_new_row(struct fntotals *t, uint32_t file, uint32_t name)
{
	struct fnrow	*r;
	uint32_t	 id = (uint32_t)t->nrows;
	size_t		 i;

	if (id >= t->cap) {
		t->cap = t->cap ? t->cap * 2 : 256;
		t->rows = xreallocarray(t->rows, t->cap, sizeof(*t->rows));
		t->costs = xreallocarray(t->costs, t->cap,
		    t->nevents * sizeof(*t->costs));
		for (i = 0; i < id; i++)
			t->rows[i].cost = t->costs + i * t->nevents;
	}
	t->nrows = id + 1;
	/* The rows' pages made present as they are entered (xahead()). */
	xahead_at(t->rows, id, sizeof(*t->rows), t->cap);
	xahead_at(t->costs, id, t->nevents * sizeof(*t->costs), t->cap);
	r = &t->rows[id];
	memset(r, 0, sizeof(*r));
	r->fn = UINT32_MAX;
	r->file = file;
	r->name = name;
	r->called_only = 1;
	r->cost = t->costs + (size_t)id * t->nevents;
	cost_clear(r->cost, t->nevents);
	return r;
}

/*
 * Return the row of label (file, name), adding a called-only row.  A
 * function alone in its name has its pairs' rows (fntotals_pair_row());
 * other rows are keyed by (name, file) in a table indexed by name (a
 * string id): a name with one row is found without hashing, in about the
 * order names were met; only names that several files share are hashed.
 */
uint32_t
fntotals_row(struct fntotals *t, uint32_t file, uint32_t name)
{
	uint64_t	 key[2] = { name, file };
	uint32_t	 id;
	int		 created;

	if ((id = fntotals_pair_row(t, file, name)) != UINT32_MAX)
		return id;
	id = keytab_get(&t->keys, key, &created);
	if (!created)
		return t->key_row[id];
	t->key_row = xgrow(t->key_row, &t->key_cap, (size_t)id + 1,
	    sizeof(*t->key_row));
	t->key_row[id] = (uint32_t)t->nrows;
	(void)fntotals_new_row(t, file, name);
	return t->key_row[id];
}

/*
 * Return the label "file:function" of row id, made the first time it is
 * asked for: most rows are never printed nor compared by label.
 */
const char *
fntotals_label(struct fntotals *t, uint32_t id)
{
	struct fnrow	*r = &t->rows[id];
	size_t		 flen, nlen;

	if (r->label != NULL)
		return r->label;
	/* A group's label is its name. */
	flen = profile_rows(t->p) != PROFILE_ROWS_FUNCTIONS ? 0 :
	    profile_strlen(t->p, r->file);
	nlen = profile_strlen(t->p, r->name);
	r->label = arena_alloc(&t->labels_bytes, flen + nlen + 2);
	if (profile_rows(t->p) != PROFILE_ROWS_FUNCTIONS) {
		memcpy(r->label, profile_str(t->p, r->name), nlen + 1);
		return r->label;
	}
	memcpy(r->label, profile_str(t->p, r->file), flen);
	r->label[flen] = ':';
	memcpy(r->label + flen + 1, profile_str(t->p, r->name), nlen + 1);
	return r->label;
}

/*
 * A row's label in pieces (file, ":" and name; the name alone for a
 * group), its strings looked up once for a sort.
 */
struct fnlabel {
	const char	*s[3];
	size_t		 len[3];
	uint32_t	 row;
};

/* Resolve the pieces of row's label into l. */
static void
fntotals_pieces(const struct fntotals *t, uint32_t row, struct fnlabel *l)
{
	l->row = row;
	l->s[0] = profile_str(t->p, t->rows[row].file);
	l->len[0] = profile_strlen(t->p, t->rows[row].file);
	l->s[1] = ":";
	l->len[1] = 1;
	if (profile_rows(t->p) != PROFILE_ROWS_FUNCTIONS)
		l->len[0] = l->len[1] = 0;	/* the name alone */
	l->s[2] = profile_str(t->p, t->rows[row].name);
	l->len[2] = profile_strlen(t->p, t->rows[row].name);
}

/* Compare two labels in pieces as strcmp() compares them whole. */
static int
fntotals_piececmp(const struct fnlabel *x, const struct fnlabel *y)
{
	const struct fnlabel	*l[2] = { x, y };
	size_t			 at[2] = { 0, 0 }, n;
	unsigned		 k[2] = { 0, 0 }, i;
	int			 c;

	/* One file (or none): the names decide. */
	if (x->s[0] == y->s[0] && x->len[0] == y->len[0]) {
		n = x->len[2] < y->len[2] ? x->len[2] : y->len[2];
		if ((c = memcmp(x->s[2], y->s[2], n)) != 0)
			return c < 0 ? -1 : 1;
		return (x->len[2] > n) - (y->len[2] > n);
	}
	for (;;) {
		/* Step over the pieces used up. */
		for (i = 0; i < 2; i++)
			while (k[i] < 3 && at[i] == l[i]->len[k[i]]) {
				k[i]++;
				at[i] = 0;
			}
		if (k[0] == 3 || k[1] == 3)
			return (k[0] < 3) - (k[1] < 3);
		n = l[0]->len[k[0]] - at[0];
		if (l[1]->len[k[1]] - at[1] < n)
			n = l[1]->len[k[1]] - at[1];
		if ((c = memcmp(l[0]->s[k[0]] + at[0], l[1]->s[k[1]] + at[1],
		    n)) != 0)
			return c < 0 ? -1 : 1;
		at[0] += n;
		at[1] += n;
	}
}

/*
 * Compare the labels of rows a and b as strcmp() compares them, without
 * making them: each is three pieces, file, ":" and name.
 */
int
fntotals_labelcmp(const struct fntotals *t, uint32_t a, uint32_t b)
{
	struct fnlabel	x, y;

	fntotals_pieces(t, a, &x);
	fntotals_pieces(t, b, &y);
	return fntotals_piececmp(&x, &y);
}

/* Order labels in pieces, then rows (equal labels: the first row first). */
static int
fntotals_keycmp(const void *a, const void *b)
{
	const struct fnlabel	*x = a, *y = b;
	int			 c;

	if ((c = fntotals_piececmp(x, y)) != 0)
		return c;
	return (x->row > y->row) - (x->row < y->row);
}

/*
 * Sort the n rows of ids by label (equal labels by row), each label's
 * strings looked up once rather than at each comparison: a cycle of
 * 20,000 members of long C++ names made its comparisons' lookups cost
 * more than its names.
 */
void
fntotals_sort(const struct fntotals *t, uint32_t *ids, size_t n)
{
	struct fnlabel	*keys;
	size_t		 i;

	if (n < 2)
		return;
	keys = xreallocarray(NULL, n, sizeof(*keys));
	for (i = 0; i < n; i++)
		fntotals_pieces(t, ids[i], &keys[i]);
	qsort(keys, n, sizeof(*keys), fntotals_keycmp);
	for (i = 0; i < n; i++)
		ids[i] = keys[i].row;
	free(keys);
}

/* Return the row of label (file, name), or UINT32_MAX. */
uint32_t
fntotals_row_find(const struct fntotals *t, uint32_t file, uint32_t name)
{
	uint64_t	key[2] = { name, file };
	uint32_t	id;

	if ((id = fntotals_pair_row(t, file, name)) != UINT32_MAX)
		return id;
	id = keytab_find(&t->keys, key);
	return id == UINT32_MAX ? id : t->key_row[id];
}

/*
 * Make t->name_fn: for each name, the one function of that name, or
 * FNT_SHARED, or FNT_NONE.
 */
static void
fntotals_names(struct fntotals *t)
{
	uint32_t	fn, nf = profile_nfuncs(t->p), obj, file, name;

	t->nnames = profile_nstrings(t->p);
	t->name_fn = xreallocarray(NULL, t->nnames ? t->nnames : 1,
	    sizeof(*t->name_fn));
	xfill(t->name_fn, 0xff, (size_t)t->nnames * sizeof(*t->name_fn));
	for (fn = 0; fn < nf; fn++) {
		profile_func(t->p, fn, &obj, &file, &name);
		t->name_fn[name] = t->name_fn[name] == FNT_NONE ? fn :
		    FNT_SHARED;
	}
}

/*
 * Return the row each row of t belongs to (to free): its own, or for code
 * inlined from another file, its function's own row (a function is one
 * node of a picture, one thing in the browser).
 */
uint32_t *
fntotals_owners(const struct fntotals *t)
{
	uint32_t	*owner, v, w, k, np, fn, file, obj, ffile, name;

	owner = xreallocarray(NULL, t->nrows + 1, sizeof(*owner));
	for (v = 0; v < t->nrows; v++)
		owner[v] = v;
	np = profile_npairs(t->p);
	for (k = 0; k < np; k++) {
		profile_pair(t->p, k, &fn, &file);
		profile_func(t->p, fn, &obj, &ffile, &name);
		v = t->pair_row[k];
		if (file != ffile && (w = fntotals_row_find(t, ffile, name)) !=
		    UINT32_MAX && w != v && !t->rows[v].named)
			owner[v] = w;
	}
	return owner;
}

/*
 * Build one row per "file:function" label with its summed self cost.
 * Functions of different objects with one label share a row, as in
 * callgrind_annotate; the row shows the object of the last fn= line.
 */
struct fntotals *
fntotals_build(const struct profile *p)
{
	struct fntotals	*t;
	struct fnrow	*r;
	uint32_t	 i, npairs, fn, file, obj, ffile, name, *pair_row;

	uint64_t	 seq, *best;

	t = xcalloc(1, sizeof(*t));
	t->p = p;
	t->nevents = profile_nevents(p);
	npairs = profile_npairs(p);
	keytab_init_indexed(&t->keys, 2, 0);
	fntotals_names(t);
	/* Most pairs are a function in its own file: a row each. */
	t->cap = npairs > 0 ? npairs : 1;
	t->rows = xreallocarray(NULL, t->cap, sizeof(*t->rows));
	t->costs = xreallocarray(NULL, t->cap, t->nevents * sizeof(*t->costs));
	/* Both written whole, or nearly: their pages made present at once. */
	pair_row = xreallocarray(NULL, npairs, sizeof(*pair_row));
	xfill(pair_row, 0, (size_t)npairs * sizeof(*pair_row));
	best = xreallocarray(NULL, npairs, sizeof(*best));
	xfill(best, 0, (size_t)npairs * sizeof(*best));
	for (i = 0; i < npairs; i++) {
		profile_pair(p, i, &fn, &file);
		profile_func(p, fn, &obj, &ffile, &name);
		if (t->name_fn[name] == fn) {
			pair_row[i] = (uint32_t)t->nrows;
			(void)fntotals_new_row(t, file, name);
		} else
			pair_row[i] = fntotals_row(t, file, name);
		r = &t->rows[pair_row[i]];
		if (r->called_only) {
			r->called_only = 0;
			r->fn = fn;
		}
		seq = profile_func_seq(p, fn);
		if (file == ffile && seq > best[pair_row[i]]) {
			best[pair_row[i]] = seq;
			r->fn = fn;
			r->obj = obj;
			r->named = 1;
		}
	}
	free(best);
	/* A row's costs are t->costs[row]: the rows need not be loaded. */
	(void)profile_lines_sum(p, pair_row, (uint32_t)t->nrows, t->costs);
	t->pair_row = pair_row;
	return t;
}

/* Free function totals. */
void
fntotals_free(struct fntotals *t)
{
	if (t == NULL)
		return;
	arena_free(&t->labels_bytes);
	free(t->rows);
	free(t->costs);
	free(t->pair_row);
	free(t->key_row);
	free(t->name_fn);
	keytab_free(&t->keys);
	free(t);
}

/*
 * Return the totals of one part in *c: its summary: line if not all 0,
 * else its totals: line likewise, else the sum of its cost lines (or
 * NULL if it has none); the source used is returned.
 */
enum totals_source
totals_part(const struct profile *p, size_t i, const uint64_t **c)
{
	const struct part	*pt = profile_part(p, i);
	unsigned		 nev = profile_nevents(p);

	if (pt->summary != NULL && !cost_is_zero(pt->summary, nev)) {
		*c = pt->summary;
		return TOTALS_SUMMARY;
	}
	if (pt->totals != NULL && !cost_is_zero(pt->totals, nev)) {
		*c = pt->totals;
		return TOTALS_TOTALS;
	}
	*c = pt->sum;
	return TOTALS_CALCULATED;
}

/*
 * Compute the program totals into total (nevents counts): the sum over
 * the parts read (not left out by --part or --thread) of each part's
 * totals (see totals_part()).  Return TOTALS_CALCULATED if any part's
 * came from its cost lines, else the source of the first part's.
 */
enum totals_source
totals_compute(const struct profile *p, uint64_t *total)
{
	const uint64_t		*c;
	enum totals_source	 src, first = TOTALS_CALCULATED;
	unsigned		 nev = profile_nevents(p);
	size_t			 i, n = profile_nparts(p), used = 0;
	int			 calculated = 0;

	cost_clear(total, nev);
	for (i = 0; i < n; i++) {
		const struct part	*pt = profile_part(p, i);

		if (pt->skipped || (!pt->has_data && pt->summary == NULL &&
		    pt->totals == NULL))
			continue;
		src = totals_part(p, i, &c);
		if (used++ == 0)
			first = src;
		if (src == TOTALS_CALCULATED)
			calculated = 1;
		if (c != NULL)
			cost_add(total, c, nev);
	}
	return calculated ? TOTALS_CALCULATED : first;
}

/*
 * Compare two labels as they stand in a call line, followed by " (":
 * tied call lines are then in the order of their text.
 */
int
fntotals_labeltextcmp(const char *a, const char *b)
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
