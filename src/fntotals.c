/*
 * fntotals.c - per-function self totals and the program totals.
 */
#include "compat.h"

#include <stdlib.h>
#include <string.h>

#include "cost.h"
#include "fntotals.h"
#include "keytab.h"
#include "profile.h"
#include "xmalloc.h"

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
	struct keytab	 labels;
	unsigned	 nev = profile_nevents(p);
	uint32_t	 i, npairs, fn, file, obj, ffile, name, *pair_row;
	uint64_t	 line, key[2], *best;
	size_t		 flen, nlen;
	const char	*fs, *ns;
	int		 created;

	t = xcalloc(1, sizeof(*t));
	t->nevents = nev;
	npairs = profile_npairs(p);
	t->rows = xreallocarray(NULL, npairs, sizeof(*t->rows));
	pair_row = xreallocarray(NULL, npairs, sizeof(*pair_row));
	best = xreallocarray(NULL, npairs, sizeof(*best));
	keytab_init(&labels, 2);
	for (i = 0; i < npairs; i++) {
		profile_pair(p, i, &fn, &file);
		profile_func(p, fn, &obj, &ffile, &name);
		key[0] = file;
		key[1] = name;
		pair_row[i] = keytab_get(&labels, key, &created);
		r = &t->rows[pair_row[i]];
		if (created) {
			r->fn = fn;
			r->file = file;
			r->obj = 0;
			best[pair_row[i]] = 0;
			fs = profile_str(p, file);
			ns = profile_str(p, name);
			flen = strlen(fs);
			nlen = strlen(ns);
			r->label = xmalloc(flen + nlen + 2);
			memcpy(r->label, fs, flen);
			r->label[flen] = ':';
			memcpy(r->label + flen + 1, ns, nlen + 1);
		}
		if (file == ffile && profile_func_seq(p, fn) > best[pair_row[i]]) {
			best[pair_row[i]] = profile_func_seq(p, fn);
			r->fn = fn;
			r->obj = obj;
		}
	}
	t->nrows = labels.n;
	keytab_free(&labels);
	free(best);
	t->costs = xreallocarray(NULL, t->nrows, nev * sizeof(*t->costs));
	for (i = 0; i < t->nrows; i++) {
		t->rows[i].cost = t->costs + (size_t)i * nev;
		cost_clear(t->rows[i].cost, nev);
	}
	for (i = 0; i < profile_nlines(p); i++) {
		profile_line(p, i, &fn, &file, &line);
		r = &t->rows[pair_row[profile_pair_find(p, fn, file)]];
		cost_add(r->cost, profile_line_cost(p, i), nev);
	}
	free(pair_row);
	return t;
}

/* Free function totals. */
void
fntotals_free(struct fntotals *t)
{
	size_t	i;

	if (t == NULL)
		return;
	for (i = 0; i < t->nrows; i++)
		free(t->rows[i].label);
	free(t->rows);
	free(t->costs);
	free(t);
}

/*
 * Compute the program totals into total (nevents counts): the parts'
 * summary: lines if every part has a non-zero one, else their totals:
 * lines likewise, else the sum of all self costs.
 */
enum totals_source
totals_compute(const struct profile *p, uint64_t *total)
{
	const struct part	*pt;
	const uint64_t		*c;
	unsigned		 nev = profile_nevents(p);
	size_t			 i, n = profile_nparts(p);
	int			 src, ok;

	for (src = TOTALS_SUMMARY; src <= TOTALS_TOTALS; src++) {
		cost_clear(total, nev);
		ok = 0;
		for (i = 0; i < n; i++) {
			pt = profile_part(p, i);
			if (!pt->has_data && pt->summary == NULL &&
			    pt->totals == NULL)
				continue;
			c = src == TOTALS_SUMMARY ?
			    pt->summary : pt->totals;
			if (c == NULL || cost_is_zero(c, nev)) {
				ok = 0;
				break;
			}
			cost_add(total, c, nev);
			ok = 1;
		}
		if (ok)
			return (enum totals_source)src;
	}
	profile_self_total(p, total);
	return TOTALS_CALCULATED;
}
