/*
 * reshape.c - a profile made again from another, in its order (so ids,
 * fn= order and every tie come out as a reading would give them): each
 * cost vector with its derived events after the recorded ones, each
 * function under its folded name or as its group (object, or the source
 * file its code is in), costs of functions that become one summed.
 * Totals of parts are made again likewise, so they never change but for
 * the derived events.
 */
#include "base/compat.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/derive.h"
#include "analysis/fold.h"
#include "analysis/reshape.h"
#include "base/cost.h"
#include "base/msg.h"
#include "base/xmalloc.h"
#include "model/instrs.h"
#include "model/profile.h"
#include "model/stacks.h"

struct rs {
	const struct profile	*src;
	struct profile		*dst;
	const struct reshape	*how;
	const char		*what;	/* the profile's name, for messages */
	uint32_t		*strmap; /* src string id -> dst, or NONE */
	uint32_t		 unknown; /* dst's "???" */
	char			*buf;	/* a folded name */
	size_t			 bufsize;
	uint64_t		*in;	/* a line's cost */
	uint64_t		*vec;	/* a cost with its derived events */
	unsigned		 nrec, nall;
	int			 over, negative;
	int			 find;	/* functions looked up, not added */
};

#define NONE	UINT32_MAX

static uint32_t	rs_str(struct rs *, uint32_t);
static uint32_t	rs_func(struct rs *, uint32_t);
static uint32_t	rs_group(struct rs *, uint32_t);
static const uint64_t *rs_cost(struct rs *, const uint64_t *, const char *,
		    uint32_t);
static int	rs_seqcmp(const void *, const void *);
static void	rs_events(struct rs *);
static void	rs_parts(struct rs *);
static void	rs_instrs(struct rs *, const uint32_t *,
		    const unsigned char *);
static void	rs_init(struct rs *, const struct profile *, struct profile *,
		    const struct reshape *, const char *);
static void	rs_fini(struct rs *);
static void	rs_stacks(struct rs *, const uint32_t *);

/* Return dst's id of src's string id. */
static uint32_t
rs_str(struct rs *r, uint32_t id)
{
	if (r->strmap[id] == NONE)
		r->strmap[id] = profile_intern_from(r->dst, r->src, id);
	return r->strmap[id];
}

/* Return the group (a string id of dst) that code in file of fn is in. */
static uint32_t
rs_group(struct rs *r, uint32_t id)
{
	if (*profile_str(r->src, id) == '\0')
		return r->unknown;
	return rs_str(r, id);
}

/*
 * Return dst's function for src's function fn, under its folded name
 * (functions only: groups are made by the caller).
 */
static uint32_t
rs_func(struct rs *r, uint32_t fn)
{
	uint32_t	 obj, file, name;
	size_t		 len;

	profile_func(r->src, fn, &obj, &file, &name);
	if (r->how->fold != 0) {
		len = profile_strlen(r->src, name);
		if (len + 1 > r->bufsize) {
			r->bufsize = len + 1;
			r->buf = xreallocarray(r->buf, r->bufsize, 1);
		}
		len = fold_name(profile_str(r->src, name), len, r->how->fold,
		    r->buf);
		name = profile_intern(r->dst, r->buf, len);
	} else
		name = rs_str(r, name);
	if (r->find)
		return profile_func_find(r->dst, rs_str(r, obj), rs_str(r, file),
		    name);
	return profile_func_id(r->dst, rs_str(r, obj), rs_str(r, file), name);
}

/*
 * Return cost c (src's events) with its derived events after, in r->vec;
 * note an overflow, and a value below 0 as an error naming what (of
 * src's function fn, unless it is NONE).
 */
static const uint64_t *
rs_cost(struct rs *r, const uint64_t *c, const char *what, uint32_t fn)
{
	uint32_t	obj, file, name;
	unsigned	which = 0;
	int		rc;

	if (r->how->derive == NULL)
		return c;
	memcpy(r->vec, c, r->nrec * sizeof(*c));
	rc = derive_eval(r->how->derive, c, r->vec + r->nrec, &which);
	if (rc & DERIVE_OVERFLOW)
		r->over = 1;
	if ((rc & DERIVE_NEGATIVE) && !r->negative) {
		r->negative = 1;
		if (fn != NONE) {
			profile_func(r->src, fn, &obj, &file, &name);
			msg(MSG_DERIVED_NEGATIVE, r->what, 0, "'%s = %s' in %s "
			    "of '%s:%s'", derive_name(r->how->derive, which),
			    derive_formula(r->how->derive, which), what,
			    profile_str(r->src, file), profile_str(r->src, name));
		} else
			msg(MSG_DERIVED_NEGATIVE, r->what, 0, "'%s = %s' in %s",
			    derive_name(r->how->derive, which),
			    derive_formula(r->how->derive, which), what);
	}
	return r->vec;
}

/* Order (fn= number, function) pairs. */
static int
rs_seqcmp(const void *a, const void *b)
{
	const uint64_t	*x = a, *y = b;

	if (x[0] != y[0])
		return x[0] < y[0] ? -1 : 1;
	return (x[1] > y[1]) - (x[1] < y[1]);
}

/* The events (the derived ones after) and their definitions. */
static void
rs_events(struct rs *r)
{
	const struct event_def	*d;
	struct event_def	 nd;
	uint32_t		*names;
	unsigned		 i, n = 0;
	const char		*s;

	names = xreallocarray(NULL, r->nall > 0 ? r->nall : 1,
	    sizeof(*names));
	for (i = 0; i < r->nrec; i++)
		names[i] = rs_str(r, profile_event(r->src, i));
	(void)profile_set_events(r->dst, names, r->nrec);
	if (r->how->derive != NULL)
		n = derive_count(r->how->derive);
	for (i = 0; i < n; i++) {
		s = derive_name(r->how->derive, i);
		names[i] = profile_intern(r->dst, s, strlen(s));
	}
	if (n > 0)
		profile_add_derived(r->dst, names, n);
	free(names);
	for (i = 0; i < profile_nevent_defs(r->src); i++) {
		d = profile_event_def(r->src, (size_t)i);
		nd.name = rs_str(r, d->name);
		nd.longname = d->longname != 0 ? rs_str(r, d->longname) : 0;
		nd.formula = d->formula != 0 ? rs_str(r, d->formula) : 0;
		nd.file = rs_str(r, d->file);
		nd.line = d->line;
		profile_add_event_def(r->dst, &nd);
	}
	/* The formulas computed, as used (the command line's first). */
	for (i = 0; i < n; i++) {
		memset(&nd, 0, sizeof(nd));
		s = derive_name(r->how->derive, i);
		nd.name = profile_intern(r->dst, s, strlen(s));
		s = derive_formula(r->how->derive, i);
		nd.formula = profile_intern(r->dst, s, strlen(s));
		if ((s = derive_longname(r->how->derive, i)) != NULL)
			nd.longname = profile_intern(r->dst, s, strlen(s));
		profile_add_event_def(r->dst, &nd);
	}
}

/* The parts, their header values and totals. */
static void
rs_parts(struct rs *r)
{
	const struct part	*sp;
	struct part		*dp;
	size_t			 i, k;

	for (i = 0; i < profile_nparts(r->src); i++) {
		sp = profile_part(r->src, i);
		dp = profile_new_part(r->dst, rs_str(r, sp->file));
		dp->pid = rs_str(r, sp->pid);
		dp->thread = rs_str(r, sp->thread);
		dp->part = rs_str(r, sp->part);
		dp->cmd = rs_str(r, sp->cmd);
		dp->creator = rs_str(r, sp->creator);
		dp->events = rs_str(r, sp->events);
		dp->trigger = rs_str(r, sp->trigger);
		dp->has_data = sp->has_data;
		dp->skipped = sp->skipped;
		for (k = 0; k < sp->ndesc; k++)
			profile_part_add_desc(r->dst, dp, rs_str(r,
			    sp->desc[k]));
		if (sp->summary != NULL)
			profile_part_set_costs(r->dst, &dp->summary,
			    rs_cost(r, sp->summary, "the summary: line",
			    NONE));
		if (sp->totals != NULL)
			profile_part_set_costs(r->dst, &dp->totals,
			    rs_cost(r, sp->totals, "the totals: line",
			    NONE));
		if (sp->sum != NULL)
			profile_part_set_costs(r->dst, &dp->sum,
			    rs_cost(r, sp->sum, "the sum of the cost lines",
			    NONE));
	}
}

/* The exact stacks of src, each frame's function mapped by fnmap. */
static void
rs_stacks(struct rs *r, const uint32_t *fnmap)
{
	const struct stacks	*ss = profile_stacks(r->src);
	struct stacks		*ds = profile_stacks_mut(r->dst);
	const uint32_t		*fr;
	uint32_t		*map = NULL;
	size_t			 i, k, n, cap = 0;

	for (i = 0; i < stacks_count(ss); i++) {
		fr = stacks_frames(ss, i, &n);
		map = xgrow(map, &cap, n + 1, sizeof(*map));
		for (k = 0; k < n; k++)
			map[k] = fnmap[fr[k]];
		(void)stacks_add(ds, map, n, rs_cost(r, stacks_cost(ss, i),
		    "a stack", n > 0 ? fr[n - 1] : NONE), r->nall);
	}
	free(map);
}

/*
 * The machine code of src, its functions mapped by fnmap: functions
 * that become one share their instructions, summed by address.
 */
static void
rs_instrs(struct rs *r, const uint32_t *fnmap, const unsigned char *want)
{
	const struct instrs	*si = profile_instrs(r->src);
	struct instrs		*di = profile_instrs_mut(r->dst);
	const struct ijump	*j;
	const struct icall	*c;
	uint32_t		 i, fn, file;
	uint64_t		 addr, line, hi;

	if (instrs_sites(si)) {
		/* The calls and each function's range alone. */
		instrs_set_sites(di);
		for (fn = 0; fn < profile_nfuncs(r->src); fn++)
			if ((want == NULL || want[fn]) &&
			    instrs_range(si, fn, &addr, &hi))
				instrs_add_range(di, fnmap[fn], addr, hi);
	}
	for (i = 0; i < instrs_count(si); i++) {
		instrs_get(si, i, &fn, &addr, &file, &line);
		if (want != NULL && !want[fn])
			continue;
		instrs_cost(si, i, r->in);
		instrs_add(di, fnmap[fn], addr, rs_str(r, file), line,
		    rs_cost(r, r->in, "an instruction", fn), r->nall);
	}
	for (i = 0; i < instrs_njumps(si); i++) {
		j = instrs_jump(si, i);
		if (want == NULL || want[j->fn])
			instrs_add_jump(di, fnmap[j->fn], j->cond, j->addr,
			    j->target, j->executed, j->taken);
	}
	for (i = 0; i < instrs_ncalls(si); i++) {
		c = instrs_call(si, i);
		if (want == NULL || want[c->fn])
			instrs_add_call(di, fnmap[c->fn], c->addr,
			    rs_str(r, c->file), c->line, fnmap[c->callee],
			    c->count, rs_cost(r, instrs_call_cost(si, i),
			    "a call", c->fn));
	}
}

/* Start reshaping src into dst as how asks. */
static void
rs_init(struct rs *r, const struct profile *src, struct profile *dst,
    const struct reshape *how, const char *what)
{
	uint32_t	i, n;

	memset(r, 0, sizeof(*r));
	r->src = src;
	r->how = how;
	r->what = what;
	r->dst = dst;
	r->nrec = profile_nevents(src);
	r->nall = r->nrec + (how->derive != NULL ?
	    derive_count(how->derive) : 0);
	r->vec = xreallocarray(NULL, r->nall > 0 ? r->nall : 1,
	    sizeof(*r->vec));
	r->in = xreallocarray(NULL, r->nall > 0 ? r->nall : 1, sizeof(*r->in));
	n = profile_nstrings(src);
	r->strmap = xreallocarray(NULL, n > 0 ? n : 1, sizeof(*r->strmap));
	for (i = 0; i < n; i++)
		r->strmap[i] = NONE;
	r->unknown = profile_intern(r->dst, "???", 3);
}

/* Free what reshaping used. */
static void
rs_fini(struct rs *r)
{
	free(r->strmap);
	free(r->buf);
	free(r->vec);
	free(r->in);
}

/*
 * Add to dst, made from src by how (functions, not groups) without its
 * machine code, that of each of src's functions that became one of
 * dst's named name (a string id of dst), summed by address as
 * reshape_build() sums it: the browser's machine code of one function,
 * made when its view is opened, not copied for every folding.
 */
void
reshape_instrs_of(const struct profile *src, struct profile *dst,
    const struct reshape *how, uint32_t name, const char *what)
{
	struct rs	 r;
	uint32_t	 i, n = profile_nfuncs(src), *fnmap, obj, file, nm;
	unsigned char	*want;

	if (profile_instrs(src) == NULL || how->rows != PROFILE_ROWS_FUNCTIONS)
		return;
	rs_init(&r, src, dst, how, what);
	r.find = 1;
	fnmap = xreallocarray(NULL, n > 0 ? n : 1, sizeof(*fnmap));
	want = xcalloc(n > 0 ? n : 1, 1);
	for (i = 0; i < n; i++) {
		fnmap[i] = rs_func(&r, i);
		if (fnmap[i] == NONE)
			continue;
		profile_func(dst, fnmap[i], &obj, &file, &nm);
		want[i] = nm == name;
	}
	/* A call's callee is a function of dst: each was made from one. */
	rs_instrs(&r, fnmap, want);
	if (instrs_trim(profile_instrs_mut(dst)) || r.over)
		msg(MSG_COST_OVERFLOW, what, 0, NULL);
	free(want);
	free(fnmap);
	rs_fini(&r);
}

/*
 * Make src again as how asks; what names it in messages.  Return the
 * new profile, or NULL after a message if a derived event is below 0.
 */
struct profile *
reshape_build(const struct profile *src, const struct reshape *how,
    const char *what)
{
	struct rs	 r;
	uint32_t	 i, n, fn, callee, file, obj, ffile, name, *fnmap;
	uint32_t	*pairfn, *pairfile;
	uint64_t	 line, *seq;

	rs_init(&r, src, profile_create(), how, what);
	rs_events(&r);
	profile_set_rows(r.dst, how->rows);
	rs_parts(&r);

	/*
	 * Functions (or the group a call enters), in fn= order, so that a
	 * row shows the object of the last fn= line, as in src.
	 */
	n = profile_nfuncs(src);
	fnmap = xreallocarray(NULL, n > 0 ? n : 1, sizeof(*fnmap));
	if (how->rows == PROFILE_ROWS_FUNCTIONS) {
		seq = xreallocarray(NULL, n > 0 ? n : 1, 2 * sizeof(*seq));
		for (i = 0; i < n; i++) {
			fnmap[i] = rs_func(&r, i);
			seq[2 * i] = profile_func_seq(src, i);
			seq[2 * i + 1] = i;
		}
		qsort(seq, n, 2 * sizeof(*seq), rs_seqcmp);
		for (i = 0; i < n; i++)
			if (seq[2 * i] > 0)
				profile_func_mark(r.dst,
				    fnmap[(uint32_t)seq[2 * i + 1]]);
		free(seq);
	} else
		for (i = 0; i < n; i++) {
			profile_func(src, i, &obj, &ffile, &name);
			file = rs_group(&r, how->rows == PROFILE_ROWS_OBJECTS ?
			    obj : ffile);
			fnmap[i] = profile_func_id(r.dst, 0, file, file);
		}

	/* A file whose lines src summed into one is so in dst. */
	if (how->rows != PROFILE_ROWS_OBJECTS)
		for (i = 0; i < profile_nfiles(src); i++) {
			file = profile_file(src, i);
			if (!profile_file_lines(src, file))
				profile_one_line(r.dst,
				    how->rows == PROFILE_ROWS_FILES ?
				    rs_group(&r, file) : rs_str(&r, file));
		}

	/* Each pair's function and file in dst, in src's order. */
	n = profile_npairs(src);
	pairfn = xreallocarray(NULL, n > 0 ? n : 1, sizeof(*pairfn));
	pairfile = xreallocarray(NULL, n > 0 ? n : 1, sizeof(*pairfile));
	for (i = 0; i < n; i++) {
		profile_pair(src, i, &fn, &file);
		if (how->rows == PROFILE_ROWS_FILES) {
			pairfile[i] = rs_group(&r, file);
			pairfn[i] = profile_func_id(r.dst, 0, pairfile[i],
			    pairfile[i]);
		} else if (how->rows == PROFILE_ROWS_OBJECTS) {
			pairfn[i] = fnmap[fn];
			profile_func(r.dst, pairfn[i], &obj, &pairfile[i],
			    &name);
		} else {
			pairfn[i] = fnmap[fn];
			pairfile[i] = rs_str(&r, file);
		}
		profile_touch(r.dst, pairfn[i], pairfile[i]);
	}

	/* Self costs; an object's all at line 0: it has no source. */
	for (i = 0; i < profile_nlines(src); i++) {
		profile_line(src, i, &fn, &file, &line);
		profile_line_cost(src, i, r.in);
		n = profile_line_pair(src, i);
		r.over |= profile_add_self(r.dst, pairfn[n], pairfile[n],
		    how->rows == PROFILE_ROWS_OBJECTS ? 0 : line,
		    rs_cost(&r, r.in, "a cost line", fn), r.nall);
	}
	for (i = 0; i < profile_narcs(src); i++) {
		profile_arc(src, i, &fn, &callee, &file, &line);
		n = profile_arc_pair(src, i);
		/* A group's calls inside it are its own business. */
		if (how->rows != PROFILE_ROWS_FUNCTIONS &&
		    pairfn[n] == fnmap[callee])
			continue;
		r.over |= profile_add_call(r.dst, pairfn[n], pairfile[n],
		    how->rows == PROFILE_ROWS_OBJECTS ? 0 : line,
		    fnmap[callee], profile_arc_count(src, i),
		    rs_cost(&r, profile_arc_cost(src, i), "a call", fn));
	}
	/* Exact stacks, their frames mapped as the functions are. */
	if (profile_stacks(src) != NULL)
		rs_stacks(&r, fnmap);
	/* Machine code, of functions (a group has none). */
	if (profile_instrs(src) != NULL && how->instrs &&
	    how->rows == PROFILE_ROWS_FUNCTIONS)
		rs_instrs(&r, fnmap, NULL);
	if (r.over)
		msg(MSG_COST_OVERFLOW, what, 0, NULL);
	free(pairfn);
	free(pairfile);
	free(fnmap);
	rs_fini(&r);
	if (r.negative) {
		profile_free(r.dst);
		return NULL;
	}
	if (profile_done(r.dst))
		msg(MSG_COST_OVERFLOW, what, 0, NULL);
	return r.dst;
}
