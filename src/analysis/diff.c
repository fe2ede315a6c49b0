/*
 * diff.c - the difference of two profiles, function by function: each
 * file:function row of OLD and NEW, its names rewritten by the
 * --mod-filename and --mod-funcname expressions (POSIX extended regular
 * expressions, as s/REGEX/REPL/ with an optional g), is matched by its
 * rewritten label; costs of rows that come to share a label are summed.
 */
#include "base/compat.h"

#include <err.h>

#include <stdlib.h>
#include <string.h>

#include "analysis/callgraph.h"
#include "analysis/diff.h"
#include "analysis/fntotals.h"
#include "base/cost.h"
#include "base/rematch.h"
#include "base/strtab.h"
#include "base/xmalloc.h"
#include "model/profile.h"

static void	diff_add(struct diff *, struct strtab *, uint32_t **, size_t *,
		    size_t *, const char *, const char *, const uint64_t *,
		    int, int, const struct namemod *, const struct namemod *);

/*
 * Parse "s/REGEX/REPL/" or "s/REGEX/REPL/g" ("\/" stands for "/") into
 * m.  Return 0, or -1 with a reason in err (of errsize bytes).
 */
int
namemod_parse(struct namemod *m, const char *s, char *err, size_t errsize)
{
	char	*part[2], *p;
	size_t	 len = strlen(s), i, k;

	memset(m, 0, sizeof(*m));
	if (len < 4 || s[0] != 's' || s[1] != '/') {
		strlcpy(err, "not of the form s/REGEX/REPL/[g]", errsize);
		return -1;
	}
	s += 2;
	for (k = 0; k < 2; k++) {
		part[k] = p = xmalloc(strlen(s) + 1);
		for (i = 0; s[i] != '\0' && s[i] != '/'; i++) {
			if (s[i] == '\\' && s[i + 1] == '/')
				i++;
			*p++ = s[i];
		}
		*p = '\0';
		if (s[i] != '/') {
			free(part[0]);
			if (k == 1)
				free(part[1]);
			strlcpy(err, "not of the form s/REGEX/REPL/[g]",
			    errsize);
			return -1;
		}
		s += i + 1;
	}
	if (strcmp(s, "g") == 0)
		m->global = 1;
	else if (*s != '\0') {
		free(part[0]);
		free(part[1]);
		strlcpy(err, "the only flag is g", errsize);
		return -1;
	}
	if ((m->re = rematch_new(part[0], 1, err, errsize)) == NULL) {
		free(part[0]);
		free(part[1]);
		return -1;
	}
	free(part[0]);
	m->repl = part[1];
	m->set = 1;
	return 0;
}

/*
 * Return a new string: s rewritten by m (a copy if m is not set).  In
 * the replacement, \1 to \9 stand for the groups, \0 and & for the match.
 */
char *
namemod_apply(const struct namemod *m, const char *s)
{
	struct rematch_span g[REMATCH_NSUB];
	char		*out = NULL;
	const char	*r;
	size_t		 len = 0, cap = 0, n;
	int		 k, notbol = 0, first = 1;

#define PUT(src, cnt) do {						\
	out = xgrow(out, &cap, len + (cnt) + 1, 1);			\
	memcpy(out + len, (src), (cnt));				\
	len += (cnt);							\
} while (0)

	if (!m->set)
		return xstrdup(s);
	while (*s != '\0' || first) {
		if ((!first && !m->global) ||
		    rematch_find(m->re, s, g, notbol) != 0)
			break;
		first = 0;
		PUT(s, (size_t)g[0].so);
		for (r = m->repl; *r != '\0'; r++) {
			k = -1;
			if (*r == '&')
				k = 0;
			else if (*r == '\\' && r[1] >= '0' && r[1] <= '9')
				k = *++r - '0';
			else if (*r == '\\' && r[1] != '\0')
				r++;
			if (k < 0)
				PUT(r, 1);
			else if (g[k].so >= 0)
				PUT(s + g[k].so, (size_t)(g[k].eo - g[k].so));
		}
		n = (size_t)g[0].eo;
		if (g[0].eo == g[0].so) {
			/* An empty match: keep one character, go on. */
			if (s[n] == '\0') {
				s += n;
				break;
			}
			PUT(s + n, 1);
			n++;
		}
		s += n;
		notbol = 1;
	}
	PUT(s, strlen(s));
	out[len] = '\0';
	return out;
#undef PUT
}

/* Free a rewrite. */
void
namemod_free(struct namemod *m)
{
	rematch_free(m->re);
	free(m->repl);
	memset(m, 0, sizeof(*m));
}

/*
 * Set *d to new - old, exactly (never recorded counting as 0); return 0
 * if neither was ever recorded.
 */
int
diff_value(uint64_t new, uint64_t old, struct snum *d)
{
	d->mag = 0;
	d->neg = 0;
	if (new == COST_NONE && old == COST_NONE)
		return 0;
	if (new == COST_NONE)
		new = 0;
	if (old == COST_NONE)
		old = 0;
	if (new >= old)
		d->mag = new - old;
	else {
		d->mag = old - new;
		d->neg = 1;
	}
	return 1;
}

/*
 * Return the label of (file, name) as --diff matches rows: both
 * rewritten by fm and nm, "file:name", or with bare set (a group, whose
 * file is its name, a path) the file alone.  The rewritten file and
 * name go to *fp and *np (to free) if they are not NULL.
 */
char *
namemod_label(const struct namemod *fm, const struct namemod *nm,
    const char *file, const char *name, int bare, char **fp, char **np)
{
	char	*f, *n, *label;
	size_t	 fl;

	f = namemod_apply(fm, file);
	n = namemod_apply(nm, name);
	fl = strlen(f);
	label = xjoin(f, fl, ':', n, strlen(n));
	if (bare)
		label[fl] = '\0';
	if (fp != NULL)
		*fp = f;
	else
		free(f);
	if (np != NULL)
		*np = n;
	else
		free(n);
	return label;
}

/* Add one row's cost (to the old or the new side) under its new label. */
static void
diff_add(struct diff *d, struct strtab *labels, uint32_t **slot,
    size_t *slotcap, size_t *slotn, const char *file, const char *name,
    const uint64_t *cost, int new, int bare, const struct namemod *fm,
    const struct namemod *nm)
{
	struct diffrow	*r;
	char		*f, *n, *label;
	uint32_t	 id, i;

	label = namemod_label(fm, nm, file, name, bare, &f, &n);
	id = strtab_intern(labels, label, strlen(label));
	*slot = xgrow(*slot, slotcap, (size_t)id + 1, sizeof(**slot));
	while (*slotn <= id)
		(*slot)[(*slotn)++] = 0;
	if ((*slot)[id] == 0) {
		d->rows = xgrow(d->rows, &d->rows_cap, d->nrows + 1,
		    sizeof(*d->rows));
		r = &d->rows[d->nrows];
		r->file = f;
		r->name = n;
		r->label = label;
		r->old = xreallocarray(NULL, d->nevents, sizeof(*r->old));
		r->new = xreallocarray(NULL, d->nevents, sizeof(*r->new));
		cost_clear(r->old, d->nevents);
		cost_clear(r->new, d->nevents);
		(*slot)[id] = (uint32_t)++d->nrows;
	} else {
		free(f);
		free(n);
		free(label);
	}
	i = (*slot)[id] - 1;
	cost_add(new ? d->rows[i].new : d->rows[i].old, cost, d->nevents);
}

/*
 * Map NEW's events to OLD's by name into map (NEW's count of entries)
 * unless it is NULL: map[e] is the index in OLD of NEW's event e.
 * Return 0, or -1 if the two profiles do not have the same events (in
 * any order).
 */
int
diff_events(const struct profile *old, const struct profile *new, int *map)
{
	unsigned	e, n = profile_nevents(new);
	int		i;

	if (profile_nevents(old) != n)
		return -1;
	for (e = 0; e < n; e++) {
		if ((i = profile_event_index(old, profile_str(new,
		    profile_event(new, e)))) < 0)
			return -1;
		if (map != NULL)
			map[e] = i;
	}
	return 0;
}

/* Put cost c of OLD's events into NEW's order (map) in out. */
static const uint64_t *
diff_order(const uint64_t *c, const int *map, unsigned n, uint64_t *out)
{
	unsigned	e;

	for (e = 0; e < n; e++)
		out[e] = c[map[e]];
	return out;
}

/*
 * Build the difference of NEW and OLD, whose events are the same but
 * maybe in another order (the caller checked with diff_events()): self
 * costs, or inclusive costs if incl, per rewritten label, in NEW's
 * order of events.
 */
struct diff *
diff_build(const struct profile *old, const struct profile *new, int incl,
    const struct namemod *fm, const struct namemod *nm)
{
	const struct profile	*p;
	struct callgraph	*g;
	struct fntotals		*t;
	const uint64_t		*c;
	struct strtab		*labels;
	struct diff		*d;
	uint32_t		*slot = NULL;
	uint64_t		*buf, *tot;
	size_t			 slotcap = 0, slotn = 0, i;
	int			 side, *map;

	d = xcalloc(1, sizeof(*d));
	d->nevents = profile_nevents(new);
	map = xreallocarray(NULL, d->nevents, sizeof(*map));
	if (diff_events(old, new, map) == -1)
		errx(1, "diff_build: the profiles' events differ");
	buf = xreallocarray(NULL, d->nevents, sizeof(*buf));
	labels = strtab_create();
	for (side = 0; side < 2; side++) {
		p = side ? new : old;
		g = NULL;
		if (incl) {
			g = callgraph_build(p);
			t = g->t;
		} else
			t = fntotals_build(p);
		for (i = 0; i < t->nrows; i++) {
			if (t->rows[i].called_only && !incl)
				continue;
			c = incl ? g->incl + i * d->nevents :
			    t->rows[i].cost;
			diff_add(d, labels, &slot, &slotcap, &slotn,
			    profile_str(p, t->rows[i].file),
			    profile_str(p, t->rows[i].name), side ? c :
			    diff_order(c, map, d->nevents, buf), side,
			    profile_rows(p) != PROFILE_ROWS_FUNCTIONS, fm, nm);
		}
		if (g != NULL)
			callgraph_free(g);
		else
			fntotals_free(t);
	}
	d->old_total = xreallocarray(NULL, d->nevents, sizeof(uint64_t));
	d->new_total = xreallocarray(NULL, d->nevents, sizeof(uint64_t));
	tot = xreallocarray(NULL, d->nevents, sizeof(*tot));
	totals_compute(old, tot);
	diff_order(tot, map, d->nevents, d->old_total);
	totals_compute(new, d->new_total);
	free(tot);
	free(buf);
	free(map);
	free(slot);
	strtab_free(labels);
	return d;
}

/* Free a difference. */
void
diff_free(struct diff *d)
{
	size_t	i;

	if (d == NULL)
		return;
	for (i = 0; i < d->nrows; i++) {
		free(d->rows[i].file);
		free(d->rows[i].name);
		free(d->rows[i].label);
		free(d->rows[i].old);
		free(d->rows[i].new);
	}
	free(d->rows);
	free(d->old_total);
	free(d->new_total);
	free(d);
}
