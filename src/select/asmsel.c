/*
 * asmsel.c - what machine-code annotation prints: the functions of the
 * printed rows (any of their file:function rows: code inlined from a
 * header is part of the machine code) that have instruction costs, in
 * the order of the rows; their objects found (as named by ob=, then
 * under each --objdir), checked and disassembled by objdump, one run per
 * range of nearby functions; each function's instructions in address
 * order, the profile's costs, positions, calls and jumps beside
 * objdump's text, those objdump did not list kept.
 */
#include "base/compat.h"

#include <sys/stat.h>

#include <stdlib.h>
#include <string.h>

#include "analysis/fntotals.h"
#include "base/cost.h"
#include "base/hooks.h"
#include "base/objdump.h"
#include "base/xmalloc.h"
#include "model/instrs.h"
#include "model/profile.h"
#include "select/asmsel.h"
#include "select/reportopts.h"

/*
 * Nearby functions are read in one run of objdump: those less than
 * ASM_GAP bytes apart, or a 64th of their object's size.  Each run reads
 * the object's code and symbols whole whatever range it lists (0.14 s
 * on gcc's 33 MB cc1, 0.25 s a MB of its code listed), so it is worth
 * a run only past a gap of about that size.  No run lists more than
 * ASM_RUN_SPAN bytes, so that each stays well within the timeout.
 */
#define ASM_GAP		(128 * 1024)
#define ASM_GAP_DIV	64
#define ASM_RUN_SPAN	((uint64_t)32 << 20)
#define ASM_INSN_MAX	16	/* bytes of the longest instruction of any
				   architecture objdump reads (x86: 15) */
#define NONE		UINT32_MAX

/* A function's place: the first printed entry of its rows. */
struct asmrank {
	size_t		 rank;
	uint32_t	 fn;
};

/* An address range of one object to disassemble. */
struct asmrange {
	uint64_t	 lo, hi;	/* hi included */
};

static const struct asmsel_from *cmp_sel; /* for the qsort comparisons */

static int	asmsel_rankcmp(const void *, const void *);
static uint32_t	*asmsel_funcs(struct asmsel *, const struct asmsel_from *,
		    const struct instrs *);
static void	asmsel_branches(struct asmsel *, const struct instrs *,
		    const uint32_t *);
static void	asmsel_objects(struct asmsel *, const struct asmsel_from *,
		    const struct instrs *);
static int	asmsel_callcmp(const void *, const void *);
static int	asmsel_jumpcmp(const void *, const void *);
static int	asmsel_rangecmp(const void *, const void *);
static void	asmsel_find(struct asmobj *, const char *,
		    const struct report_opts *);
static void	asmsel_disassemble(struct asmsel *,
		    const struct asmsel_from *, size_t);
static void	asmsel_listing(struct asmsel *, struct asmfunc *);
static size_t	asmsel_block(void);
static uint64_t	asmsel_laddr(const struct objdump *, const struct asmfunc *,
		    struct objdump_insn *, size_t *, size_t);

/* Order functions by their place, then by id. */
static int
asmsel_rankcmp(const void *a, const void *b)
{
	const struct asmrank	*x = a, *y = b;

	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return (x->fn > y->fn) - (x->fn < y->fn);
}

/*
 * Order calls by address, then by cost (the sort events, descending),
 * then by the callee's name, then by count: a total order.
 */
static int
asmsel_callcmp(const void *a, const void *b)
{
	const struct asmcall	*x = a, *y = b;
	const struct profile	*p = cmp_sel->p;
	uint32_t		 o1, f1, n1, o2, f2, n2;
	int			 c;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if ((c = cost_cmp(x->cost, y->cost, cmp_sel->sort,
	    cmp_sel->nsort)) != 0)
		return c;
	profile_func(p, x->callee, &o1, &f1, &n1);
	profile_func(p, y->callee, &o2, &f2, &n2);
	if ((c = strcmp(profile_str(p, f1), profile_str(p, f2))) != 0 ||
	    (c = strcmp(profile_str(p, n1), profile_str(p, n2))) != 0 ||
	    (c = strcmp(profile_str(p, o1), profile_str(p, o2))) != 0)
		return c;
	return (x->count > y->count) - (x->count < y->count);
}

/* Order jumps by address, kind and target. */
static int
asmsel_jumpcmp(const void *a, const void *b)
{
	const struct asmjump	*x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->cond != y->cond)
		return x->cond > y->cond ? -1 : 1;
	return (x->target > y->target) - (x->target < y->target);
}

/* Order ranges by their start. */
static int
asmsel_rangecmp(const void *a, const void *b)
{
	const struct asmrange	*x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return (x->hi > y->hi) - (x->hi < y->hi);
}

/*
 * Find the object named name: as named, then under each --objdir with
 * its path, then with its file name alone; the first file that exists
 * is checked.
 */
static void
asmsel_find(struct asmobj *ob, const char *name, const struct report_opts *o)
{
	const char	*base = strrchr(name, '/'), *tail;
	char		*path;
	time_t		 mtime;
	uint64_t	 size;
	size_t		 i, k;
	enum objdump_result r;

	ob->found = OBJDUMP_MISSING;
	if (*name == '\0' || strcmp(name, "???") == 0)
		return;
	base = base != NULL ? base + 1 : name;
	for (i = 0; i <= 2 * o->nobjdirs; i++) {
		if (i == 0)
			path = xstrdup(name);
		else {
			/* Each directory ends in "/". */
			k = (i - 1) / 2;
			tail = (i - 1) % 2 == 0 ? name + (*name == '/') : base;
			path = xmalloc(strlen(o->objdirs[k]) + strlen(tail) + 1);
			strcpy(path, o->objdirs[k]);
			strcat(path, tail);
		}
		if ((r = objdump_check(path, &mtime, &size)) ==
		    OBJDUMP_MISSING) {
			free(path);
			continue;
		}
		ob->found = r;
		ob->path = path;
		ob->newer = 0;
		ob->mtime = mtime;
		ob->size = size;
		return;
	}
}

/*
 * Disassemble object k: the ranges of the functions in it, nearby ones
 * in one run of objdump.
 */
static void
asmsel_disassemble(struct asmsel *s, const struct asmsel_from *sel,
    size_t k)
{
	struct asmobj	*ob = &s->objs[k];
	struct asmrange	*r;
	struct objdump_span *keep;
	const struct asmfunc *f;
	size_t		 i, j, e, n = 0, m, nkeep;
	uint64_t	 stop, gap;
	char		 err[512];

	if (ob->found != OBJDUMP_OK)
		return;
	if (s->have_mtime && ob->mtime > s->profile_mtime)
		ob->newer = 1;
	r = xreallocarray(NULL, s->nfuncs + 1, sizeof(*r));
	for (i = 0; i < s->nfuncs; i++) {
		f = &s->funcs[i];
		if (f->obj != k || f->unread != ASM_READ)
			continue;
		r[n].lo = f->lo;
		r[n].hi = f->hi;
		n++;
	}
	qsort(r, n, sizeof(*r), asmsel_rangecmp);
	/* The spans whose instructions are kept: ranges that overlap, one. */
	keep = xreallocarray(NULL, n + 1, sizeof(*keep));
	for (i = nkeep = 0; i < n; i++) {
		if (nkeep > 0 && keep[nkeep - 1].hi >= r[i].lo) {
			if (r[i].hi > keep[nkeep - 1].hi)
				keep[nkeep - 1].hi = r[i].hi;
			continue;
		}
		keep[nkeep].lo = r[i].lo;
		keep[nkeep++].hi = r[i].hi;
	}
	/* Nearby ranges in one run. */
	gap = ob->size / ASM_GAP_DIV > ASM_GAP ? ob->size / ASM_GAP_DIV :
	    ASM_GAP;
	for (i = m = 0; i < n; i++) {
		if (m > 0 && (r[m - 1].hi >= r[i].lo ||
		    r[i].lo - r[m - 1].hi <= gap) &&
		    (r[i].hi < r[m - 1].hi || r[i].hi - r[m - 1].lo <
		    ASM_RUN_SPAN)) {
			if (r[i].hi > r[m - 1].hi)
				r[m - 1].hi = r[i].hi;
			continue;
		}
		r[m++] = r[i];
	}
	/*
	 * Each range stops past the whole of its last instruction, which
	 * starts at hi (objdump lists bytes below the stop only), but not
	 * past the next range's start, which that instruction cannot
	 * cross: no instruction is listed twice.  Only the instructions of
	 * the spans it holds are kept.
	 */
	for (i = j = 0; i < m; i++) {
		stop = r[i].hi > UINT64_MAX - ASM_INSN_MAX ? UINT64_MAX :
		    r[i].hi + ASM_INSN_MAX;
		if (i + 1 < m && stop > r[i + 1].lo)
			stop = r[i + 1].lo;
		while (j < nkeep && keep[j].hi < r[i].lo)
			j++;
		for (e = j; e < nkeep && keep[e].lo <= r[i].hi; e++)
			continue;
		if (objdump_read(&ob->dis, sel->o->objdump, ob->path, r[i].lo,
		    stop, keep + j, e - j, sel->o->objdump_timeout, err,
		    sizeof(err)) != OBJDUMP_OK) {
			ob->found = OBJDUMP_FAILED;
			ob->why = xstrdup(err);
			objdump_free(&ob->dis);
			break;
		}
	}
	free(keep);
	free(r);
}

/*
 * Set what objdump listed of function f, unless the listings before it
 * hold ASM_MAX_ROWS instructions already; its rows are made when it is
 * printed (asmsel_rows()).
 */
static void
asmsel_listing(struct asmsel *s, struct asmfunc *f)
{
	const struct objdump	*d = &s->objs[f->obj].dis;
	size_t			 j, jend;

	j = s->objs[f->obj].found == OBJDUMP_OK ? objdump_find(d, f->lo) : 0;
	jend = s->objs[f->obj].found == OBJDUMP_OK ?
	    objdump_find(d, f->hi) : 0;
	if (jend < d->n && objdump_addr(d, jend) == f->hi)
		jend++;
	if (f->unread == ASM_READ && jend - j > ASM_MAX_ROWS - s->nlisted)
		f->unread = ASM_ROWS;
	if (f->unread != ASM_READ)
		jend = j;
	s->nlisted += jend - j;
	f->j0 = j;
	f->j1 = jend;
}

/* Return how many of a listing's rows are read at once. */
static size_t
asmsel_block(void)
{
	return hooks.asm_block > 0 ? hooks.asm_block : ASM_BLOCK;
}

/*
 * Return the address of entry j of f's listing d, reading the block of
 * asmsel_block() from j into blk unless the one from *b0 holds it.
 */
static uint64_t
asmsel_laddr(const struct objdump *d, const struct asmfunc *f,
    struct objdump_insn *blk, size_t *b0, size_t j)
{
	size_t	n = asmsel_block();

	if (*b0 == SIZE_MAX || j < *b0 || j - *b0 >= n) {
		*b0 = j;
		objdump_entries(d, j, f->j1 - j < n ? f->j1 : j + n, blk);
	}
	return blk[j - *b0].addr;
}

/*
 * Make the rows of function f into r: its instructions (by address)
 * beside what objdump listed of it, each with its calls and jumps, and
 * how many instructions the listing lacks; their texts are read as
 * they are printed (asmsel_text()).  The caller frees r once printed
 * (asmsel_rows_free()), so that no more than one function's rows are
 * kept.
 */
void
asmsel_rows(const struct asmsel *s, const struct asmfunc *f,
    struct asmrows *r)
{
	const struct objdump	*d = &s->objs[f->obj].dis;
	struct objdump_insn	*blk;
	struct asmrow		*row;
	uint32_t		 fn, file;
	uint64_t		 addr = 0, line = 0;
	size_t			 i = 0, j = f->j0, c = 0, k = 0, b0, nev;

	memset(r, 0, sizeof(*r));
	r->row = xcalloc(f->nids + (f->j1 - f->j0) + 1, sizeof(*r->row));
	nev = instrs_nevents(s->ins);
	r->cost = xreallocarray(NULL, f->nids + 1, nev * sizeof(*r->cost));
	/* The listing's addresses a block at a time, its texts later. */
	blk = xreallocarray(NULL, asmsel_block(), sizeof(*blk));
	b0 = SIZE_MAX;
	while (i < f->nids || j < f->j1) {
		row = &r->row[r->n++];
		row->file = NONE;
		if (i < f->nids)
			instrs_get(s->ins, f->ids[i], &fn, &addr, &file, &line);
		if (j < f->j1 && (i == f->nids ||
		    asmsel_laddr(d, f, blk, &b0, j) <= addr)) {
			row->addr = asmsel_laddr(d, f, blk, &b0, j);
			row->j = (uint32_t)j;
			/* objdump may list an address twice: once is kept. */
			while (j + 1 < f->j1 &&
			    asmsel_laddr(d, f, blk, &b0, j + 1) == row->addr)
				j++;
			j++;
			if (i == f->nids || addr != row->addr)
				continue;
		} else {
			row->addr = addr;
			row->j = ASM_UNLISTED;
			if (f->unread == ASM_READ)
				r->unlisted++;
		}
		row->cost = r->cost + i * nev;
		instrs_cost(s->ins, f->ids[i], r->cost + i * nev);
		row->file = file;
		row->line = line;
		i++;
	}
	free(blk);
	/* Each row's calls and jumps, both by address. */
	for (i = 0; i < r->n; i++) {
		row = &r->row[i];
		while (c < f->ncalls && f->calls[c].addr < row->addr)
			c++;
		row->call0 = (uint32_t)c;
		while (c < f->ncalls && f->calls[c].addr == row->addr)
			c++;
		row->ncalls = (uint32_t)(c - row->call0);
		while (k < f->njumps && f->jumps[k].addr < row->addr)
			k++;
		row->jump0 = (uint32_t)k;
		while (k < f->njumps && f->jumps[k].addr == row->addr)
			k++;
		row->njumps = (uint32_t)(k - row->jump0);
	}
}

/* Choose and read what machine-code annotation prints for sel. */
struct asmsel *
asmsel_build(const struct asmsel_from *sel)
{
	const struct instrs	*ins = profile_instrs(sel->p);
	struct asmsel		*s;
	struct stat		 st;
	size_t			 i;
	uint32_t		*fnidx, n;

	s = xcalloc(1, sizeof(*s));
	if (strcmp(sel->run->profile_name, "-") != 0 &&
	    stat(sel->run->profile_name, &st) == 0) {
		s->profile_mtime = st.st_mtime;
		s->have_mtime = 1;
	}
	if (ins == NULL)
		return s;
	s->have_instrs = 1;
	s->have_jumps = instrs_njumps(ins) > 0;
	fnidx = asmsel_funcs(s, sel, ins);
	/* Each function's instructions by address: the model's index. */
	for (i = 0; i < s->nfuncs; i++) {
		s->funcs[i].ids = instrs_byfn(ins, s->funcs[i].fn, &n);
		s->funcs[i].nids = n;
	}
	cmp_sel = sel;
	asmsel_branches(s, ins, fnidx);
	asmsel_objects(s, sel, ins);
	for (i = 0; i < s->nobjs; i++)
		asmsel_disassemble(s, sel, i);
	s->ins = ins;
	for (i = 0; i < s->nfuncs; i++)
		asmsel_listing(s, &s->funcs[i]);
	cmp_sel = NULL;
	free(fnidx);
	return s;
}

/*
 * Choose s's functions, those with a printed row, in the order of their
 * first printed row.  Return each function's index among them (NONE:
 * not chosen).
 */
static uint32_t *
asmsel_funcs(struct asmsel *s, const struct asmsel_from *sel,
    const struct instrs *ins)
{
	const struct profile	*p = sel->p;
	const size_t		*rowrank = sel->rowrank;
	struct asmrank		*ranks;
	size_t			*fnrank, i, nf = profile_nfuncs(p);
	uint32_t		*fnidx, fn, file, obj, ffile, name, r;
	uint64_t		 addr, line;

	fnrank = xreallocarray(NULL, nf + 1, sizeof(*fnrank));
	for (i = 0; i < nf; i++)
		fnrank[i] = SIZE_MAX;
	for (i = 0; i < instrs_count(ins); i++) {
		instrs_get(ins, (uint32_t)i, &fn, &addr, &file, &line);
		profile_func(p, fn, &obj, &ffile, &name);
		if ((r = fntotals_row_find(sel->t, file, name)) != NONE &&
		    rowrank[r] < fnrank[fn])
			fnrank[fn] = rowrank[r];
		if ((r = fntotals_row_find(sel->t, ffile, name)) != NONE &&
		    rowrank[r] < fnrank[fn])
			fnrank[fn] = rowrank[r];
	}
	ranks = xreallocarray(NULL, nf + 1, sizeof(*ranks));
	for (fn = 0; fn < nf; fn++)
		if (fnrank[fn] != SIZE_MAX) {
			ranks[s->nfuncs].rank = fnrank[fn];
			ranks[s->nfuncs++].fn = fn;
		}
	qsort(ranks, s->nfuncs, sizeof(*ranks), asmsel_rankcmp);
	fnidx = xreallocarray(NULL, nf + 1, sizeof(*fnidx));
	for (i = 0; i < nf; i++)
		fnidx[i] = NONE;
	s->funcs = xcalloc(s->nfuncs + 1, sizeof(*s->funcs));
	for (i = 0; i < s->nfuncs; i++) {
		s->funcs[i].fn = ranks[i].fn;
		fnidx[ranks[i].fn] = (uint32_t)i;
	}
	free(ranks);
	free(fnrank);
	return fnidx;
}

/* Give s's functions their calls and jumps. */
static void
asmsel_branches(struct asmsel *s, const struct instrs *ins,
    const uint32_t *fnidx)
{
	const struct icall	*ic;
	const struct ijump	*ij;
	struct asmfunc		*f;
	size_t			 i;

	for (i = 0; i < instrs_ncalls(ins); i++) {
		ic = instrs_call(ins, (uint32_t)i);
		if (fnidx[ic->fn] == NONE)
			continue;
		f = &s->funcs[fnidx[ic->fn]];
		f->calls = xreallocarray(f->calls, f->ncalls + 1,
		    sizeof(*f->calls));
		f->calls[f->ncalls].addr = ic->addr;
		f->calls[f->ncalls].callee = ic->callee;
		f->calls[f->ncalls].count = ic->count;
		f->calls[f->ncalls].cost = instrs_call_cost(ins, (uint32_t)i);
		f->ncalls++;
	}
	for (i = 0; i < instrs_njumps(ins); i++) {
		ij = instrs_jump(ins, (uint32_t)i);
		if (fnidx[ij->fn] == NONE)
			continue;
		f = &s->funcs[fnidx[ij->fn]];
		f->jumps = xreallocarray(f->jumps, f->njumps + 1,
		    sizeof(*f->jumps));
		f->jumps[f->njumps].addr = ij->addr;
		f->jumps[f->njumps].target = ij->target;
		f->jumps[f->njumps].cond = ij->cond;
		f->jumps[f->njumps].executed = ij->executed;
		f->jumps[f->njumps].taken = ij->taken;
		f->njumps++;
	}
}

/*
 * Find and check the objects of s's functions, once each; give each
 * function its object, its calls and jumps in order, its self cost and
 * its address range.
 */
static void
asmsel_objects(struct asmsel *s, const struct asmsel_from *sel,
    const struct instrs *ins)
{
	const struct profile	*p = sel->p;
	struct asmfunc		*f;
	size_t			 i, m, nstr = profile_nstrings(p);
	uint32_t		*objidx, fn, file, obj, ffile, name;
	uint64_t		 line, *c;

	c = xreallocarray(NULL, instrs_nevents(ins) + 1, sizeof(*c));
	objidx = xreallocarray(NULL, nstr + 1, sizeof(*objidx));
	for (i = 0; i < nstr; i++)
		objidx[i] = NONE;
	for (i = 0; i < s->nfuncs; i++) {
		f = &s->funcs[i];
		if (f->ncalls > 1)
			qsort(f->calls, f->ncalls, sizeof(*f->calls),
			    asmsel_callcmp);
		if (f->njumps > 1)
			qsort(f->jumps, f->njumps, sizeof(*f->jumps),
			    asmsel_jumpcmp);
		profile_func(p, f->fn, &obj, &ffile, &name);
		if (objidx[obj] == NONE) {
			s->objs = xreallocarray(s->objs, s->nobjs + 1,
			    sizeof(*s->objs));
			memset(&s->objs[s->nobjs], 0, sizeof(*s->objs));
			s->objs[s->nobjs].name = obj;
			asmsel_find(&s->objs[s->nobjs], profile_str(p, obj),
			    sel->o);
			objidx[obj] = (uint32_t)s->nobjs++;
		}
		f->obj = objidx[obj];
		f->self = xreallocarray(NULL, sel->nev, sizeof(*f->self));
		cost_clear(f->self, sel->nev);
		for (m = 0; m < f->nids; m++) {
			instrs_cost(ins, f->ids[m], c);
			cost_add(f->self, c, sel->nev);
		}
		/* Every function chosen has an instruction. */
		instrs_get(ins, f->ids[0], &fn, &f->lo, &file, &line);
		instrs_get(ins, f->ids[f->nids - 1], &fn, &f->hi, &file,
		    &line);
		if (f->hi - f->lo >= ASM_MAX_SPAN)
			f->unread = ASM_SPAN;
	}
	free(objidx);
	free(c);
}

/* Free the rows of a function and the texts read for them. */
void
asmsel_rows_free(struct asmrows *r)
{
	free(r->row);
	free(r->cost);
	objdump_texts_free(&r->texts);
	r->row = NULL;
	r->cost = NULL;
	r->n = 0;
	r->tj0 = r->tj1 = 0;
}

/*
 * Return the text of row i of r (function f's), or NULL if the listing
 * lacks it: read with the texts of the rows after it, asmsel_block() of
 * the listing at a time, so that a function of any size holds one block's.
 * The text stays until the next call moves past the block.
 */
const char *
asmsel_text(const struct asmsel *s, const struct asmfunc *f,
    struct asmrows *r, size_t i)
{
	const struct objdump	*d = &s->objs[f->obj].dis;
	size_t			 j = r->row[i].j, n;

	if (j == ASM_UNLISTED)
		return NULL;
	if (j < r->tj0 || j >= r->tj1) {
		n = asmsel_block();
		objdump_texts_free(&r->texts);
		r->tj0 = j;
		r->tj1 = f->j1 - j < n ? f->j1 : j + n;
		objdump_texts(d, r->tj0, r->tj1, &r->texts);
	}
	return objdump_text(d, &r->texts, j);
}

/* Free a machine-code selection. */
void
asmsel_free(struct asmsel *s)
{
	size_t	i;

	if (s == NULL)
		return;
	for (i = 0; i < s->nfuncs; i++) {
		free(s->funcs[i].calls);
		free(s->funcs[i].jumps);
		free(s->funcs[i].self);
	}
	for (i = 0; i < s->nobjs; i++) {
		free(s->objs[i].path);
		free(s->objs[i].why);
		objdump_free(&s->objs[i].dis);
	}
	free(s->funcs);
	free(s->objs);
	free(s);
}
