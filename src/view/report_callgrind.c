/*
 * report_callgrind.c - --format=callgrind: the profile as read (its
 * parts summed, or those --part and --thread keep), folded, grouped or
 * with derived events as asked, written back as one callgrind file that
 * reads as it: the first part's header, the recorded events with their
 * long names and the derived ones as "event:" formulas, summary: and
 * totals:, then each function's costs and calls, function by function
 * in the order they were read.  Names are compressed ("fn=(3) name"
 * once, "fn=(3)" after), positions too (+N, -N and * against the line
 * before).  With instruction positions kept, the positions are
 * "instr line": each instruction's costs, then its calls and jumps;
 * else "line": each source line's costs, then the calls made there.
 */
#include "base/compat.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/derive.h"
#include "base/cost.h"
#include "base/handoff.h"
#include "base/hooks.h"
#include "base/keytab.h"
#include "base/num.h"
#include "base/sort.h"
#include "base/xmalloc.h"
#include "model/instrs.h"
#include "model/profile.h"
#include "select/select.h"
#include "version.h"
#include "view/report.h"

/* The kinds of names, each compressed by ids of its own. */
enum cgw_kind {
	CGW_OB,			/* ob= and cob= */
	CGW_FL,			/* fl=, fi=, fe= and cfi= */
	CGW_FN,			/* fn= and cfn= */
	CGW_NKINDS
};

/*
 * What is written, an entry each: a source line's costs, a call from a
 * line; an instruction's costs, a call or a jump from it; the start of a
 * (function, file) pair's costs.
 */
enum cgw_what { CGW_PAIR, CGW_LINE, CGW_ARC, CGW_INSTR, CGW_ICALL,
	CGW_JUMP };

/*
 * An entry's kind is its what's low bits; an instruction's entry is a
 * run of instructions of one function with ids in a row, as many as the
 * other bits say (a few hundred thousand entries on cc1plus, not 5.6
 * million).
 */
#define CGW_KIND_BITS	3
#define CGW_KIND(x)	((x)->what & ((1u << CGW_KIND_BITS) - 1))
#define CGW_RUN(x)	((x)->what >> CGW_KIND_BITS)
#define CGW_RUN_MAX	((UINT32_MAX >> CGW_KIND_BITS))
#define CGW_MAKERS	2		/* threads making the text, */
#define CGW_BLOCK	16384		/*   a block of items each in turn */

/*
 * An entry, in its place: costs first, by the (function, file) pair they
 * are costs of (for instructions, their function's first pair), each
 * pair's lines, then its instructions, then its jumps; calls after, all
 * in the order they were read (cgw_entries()).
 */
struct cgw_ent {
	uint32_t	 id;		/* of the line, arc, first instruction */
	uint32_t	 what;		/* enum cgw_what, and the run's length;
					   its function looked up
					   (cgw_ent_fn()): 8 bytes an entry */
};

/*
 * The writer: one in the caller's thread writing the names (fn=, fi=,
 * cfn= and the like, each compressed as it is first written), two in
 * threads of their own making the text that follows them for each item
 * (an entry, or an instruction of a run): the position and cost lines,
 * the calls= and jump lines, a record each (cgw_make(), cgw_take()),
 * each maker a block of entries in turn (cgw_blocks()).  The numbers
 * were most of the writing: cc1plus's export, 138 MB, 5.6 million
 * instruction lines of 13 events; one maker took 0.45 s of it, the
 * caller's thread waiting on it three quarters of the time.
 */
struct cgw {
	FILE		*out;
	const struct profile *p;
	const struct instrs *ins;	/* or NULL */
	unsigned	 nrec;		/* recorded events */
	const struct cgw_ent *e;	/* the entries, in order, */
	size_t		 n;		/*   n of them, */
	const size_t	*block;		/*   each block's first (and n), */
	size_t		 nblocks;	/*   nblocks of them, */
	size_t		 block0;	/*   the maker's first block, */
	size_t		 stride;	/*   the number of makers */
	unsigned char	*byinstr;	/* functions written by instruction, */
	uint32_t	*first;		/*   each function's first pair */
	/* The names' writer: */
	uint32_t	*ids[CGW_NKINDS]; /* string -> its id (0: none yet) */
	uint32_t	 next[CGW_NKINDS];
	uint32_t	 ob, fl, fi;	/* the current names (string ids + 1,
					   0: none yet) */
	size_t		 k;		/* the item whose record comes next: */
	uint32_t	 r;		/*   entry k, item r of it, */
	uint32_t	 prev;		/*   the function of the one before */
	/* The text's maker: */
	int		 have_pos;	/* a position written since fn= */
	uint64_t	 last_addr, last_line;
	uint64_t	*cost;		/* a line's costs */
	char		*lb;		/* the item's text made, */
	size_t		 lbn;		/*   its length */
};

static void	cgw_name(struct cgw *, enum cgw_kind, const char *, uint32_t);
static void	cgw_num(struct cgw *, char, uint64_t, int);
static void	cgw_pos(struct cgw *, int, uint64_t, uint64_t);
static void	cgw_costs(struct cgw *, const uint64_t *);
static void	cgw_end(struct cgw *);
static void	cgw_header(struct cgw *, const struct selection *);
static void	cgw_totals(struct cgw *, int, const char *);
static int	cgw_given(const struct selection *, const char *);
static void	cgw_file(struct cgw *, uint32_t);
static void	cgw_callee(struct cgw *, uint32_t);
static void	cgw_calls(struct cgw *, uint64_t);
static size_t	cgw_place(const struct cgw *, struct cgw_ent *, uint32_t *);
static struct cgw_ent *cgw_entries(const struct cgw *, size_t *);
static size_t	*cgw_blocks(const struct cgw *, size_t *);
static uint32_t	cgw_ent_fn(const struct cgw *, const struct cgw_ent *);
static void	cgw_function(struct cgw *, uint32_t);
static void	cgw_trailer(struct cgw *);
static uint32_t	cgw_items(const struct cgw_ent *);
static void	cgw_names(struct cgw *, const struct cgw_ent *, uint32_t);
static void	cgw_text(struct cgw *, const struct cgw_ent *, uint32_t);
static void	cgw_make(void *, struct handoff *);
static int	cgw_take(void *, const uint32_t *, size_t);

/*
 * Write "key=(id) name" for string s of the profile, the name only the
 * first time its id is written.
 */
static void
cgw_name(struct cgw *w, enum cgw_kind k, const char *key, uint32_t s)
{
	char	 b[48];		/* a key of 3 letters, an id */
	size_t	 n = strlen(key), len = profile_strlen(w->p, s);
	int	 fresh = w->ids[k][s] == 0;

	memcpy(b, key, n);
	b[n++] = '=';
	if (len > 0) {
		if (fresh)
			w->ids[k][s] = ++w->next[k];
		b[n++] = '(';
		n += num_u64(w->ids[k][s], b + n);
		b[n++] = ')';
	} else
		fresh = 0;	/* no name: none to keep */
	if (!fresh) {
		b[n++] = '\n';
		fwrite(b, 1, n, w->out);
		return;
	}
	b[n++] = ' ';
	fwrite(b, 1, n, w->out);
	fwrite(profile_str(w->p, s), 1, len, w->out);
	putc('\n', w->out);
}

/* Add the number v to the line made, after prefix c (if not NUL). */
static void
cgw_num(struct cgw *w, char c, uint64_t v, int hex)
{
	if (c != '\0')
		w->lb[w->lbn++] = c;
	w->lbn += hex ? num_hex(v, w->lb + w->lbn) :
	    num_u64(v, w->lb + w->lbn);
}

/*
 * Add a line starting with a position: the address if instr is set, and
 * the line, each as a difference from the one before (absolute after
 * fn=).
 */
static void
cgw_pos(struct cgw *w, int instr, uint64_t addr, uint64_t line)
{
	uint64_t	 v[2] = { addr, line }, *last[2];
	int		 k;

	last[0] = &w->last_addr;
	last[1] = &w->last_line;
	for (k = instr ? 0 : 1; k < 2; k++) {
		if (k == 1 && instr)
			w->lb[w->lbn++] = ' ';
		if (!w->have_pos)
			cgw_num(w, '\0', v[k], k == 0);
		else if (v[k] == *last[k])
			w->lb[w->lbn++] = '*';
		else if (v[k] > *last[k])
			cgw_num(w, '+', v[k] - *last[k], 0);
		else
			cgw_num(w, '-', *last[k] - v[k], 0);
		*last[k] = v[k];
	}
	w->have_pos = 1;
}

/*
 * End the line started with a position: the recorded events' counts of
 * c (none if c is NULL): no count where none was given, "." where a
 * later one is (as callgrind_annotate reads it too).
 */
static void
cgw_costs(struct cgw *w, const uint64_t *c)
{
	unsigned	 i, n = c != NULL ? w->nrec : 0;

	while (n > 0 && c[n - 1] == COST_NONE)
		n--;
	for (i = 0; i < n; i++)
		if (c[i] == COST_NONE) {
			w->lb[w->lbn++] = ' ';
			w->lb[w->lbn++] = '.';
		} else
			cgw_num(w, ' ', c[i], 0);
	cgw_end(w);
}

/* End the line made. */
static void
cgw_end(struct cgw *w)
{
	w->lb[w->lbn++] = '\n';
}

/*
 * Write the header: the first part's values, the events, their
 * definitions (once a name, the last given), the summary.
 */
static void
cgw_header(struct cgw *w, const struct selection *sel)
{
	const struct profile	*p = w->p;
	const struct part	*pt = profile_part(p, 0);
	const struct event_def	*d, *e;
	const char		*s;
	size_t			 i, k;
	unsigned		 ev;

	for (i = 0, k = 0; i < profile_nparts(p); i++)
		k += !profile_part(p, i)->skipped;
	fprintf(w->out, "# callgrind format\n# written by cg-annotate %s "
	    "from ", CGA_VERSION);
	/* A name on the command line may hold a newline: not here. */
	for (s = sel->run->profile_name; *s != '\0'; s++)
		fputc((unsigned char)*s < 0x20 ? '?' : *s, w->out);
	if (k > 1)
		fprintf(w->out, ": %zu parts summed", k);
	fputs("\nversion: 1\n", w->out);
	if (pt->creator != 0)
		fprintf(w->out, "creator: %s\n", profile_str(p, pt->creator));
	if (pt->pid != 0)
		fprintf(w->out, "pid: %s\n", profile_str(p, pt->pid));
	if (pt->cmd != 0)
		fprintf(w->out, "cmd: %s\n", profile_str(p, pt->cmd));
	if (pt->part != 0)
		fprintf(w->out, "part: %s\n", profile_str(p, pt->part));
	if (pt->thread != 0)
		fprintf(w->out, "thread: %s\n", profile_str(p, pt->thread));
	for (i = 0; i < pt->ndesc; i++)
		fprintf(w->out, "desc: %s\n", profile_str(p, pt->desc[i]));
	fprintf(w->out, "\npositions: %s\nevents:", w->ins != NULL ?
	    "instr line" : "line");
	for (ev = 0; ev < w->nrec; ev++)
		fprintf(w->out, " %s", profile_str(p, profile_event(p, ev)));
	fputc('\n', w->out);
	/* Each name's last definition, in the order of the first. */
	for (i = 0; i < profile_nevent_defs(p); i++) {
		d = profile_event_def(p, i);
		for (k = 0; k < i; k++)
			if (profile_event_def(p, k)->name == d->name)
				break;
		if (k < i)
			continue;
		for (k = i + 1; k < profile_nevent_defs(p); k++)
			if ((e = profile_event_def(p, k))->name == d->name)
				d = e;
		if ((d->formula == 0 && d->longname == 0) ||
		    cgw_given(sel, profile_str(p, d->name)))
			continue;
		fprintf(w->out, "event: %s", profile_str(p, d->name));
		if (d->formula != 0)
			fprintf(w->out, " = %s", profile_str(p, d->formula));
		if (d->longname != 0)
			fprintf(w->out, " : %s", profile_str(p, d->longname));
		fputc('\n', w->out);
	}
	/* --event's formulas, used or not, as the command line gave them. */
	for (i = 0; i < sel->o->nevents; i++)
		fprintf(w->out, "event: %s = %s\n", sel->o->events[i].name,
		    sel->o->events[i].formula);
	cgw_totals(w, 0, "summary:");
	fputc('\n', w->out);
}

/* Return nonzero if --event defines the event named name. */
static int
cgw_given(const struct selection *sel, const char *name)
{
	size_t	i;

	for (i = 0; i < sel->o->nevents; i++)
		if (strcmp(sel->o->events[i].name, name) == 0)
			return 1;
	return 0;
}

/*
 * Write the summary: (totals set: the totals:) line of the parts read,
 * summed, if one of them had one: the profile's totals as it gave them.
 */
static void
cgw_totals(struct cgw *w, int totals, const char *key)
{
	const struct part	*pt;
	uint64_t		*sum;
	unsigned		 ev;
	size_t			 i;
	int			 any = 0;

	sum = xcalloc(w->nrec + 1, sizeof(*sum));
	for (i = 0; i < profile_nparts(w->p); i++) {
		pt = profile_part(w->p, i);
		if (pt->skipped || (totals ? pt->totals : pt->summary) == NULL)
			continue;
		any = 1;
		cost_add(sum, totals ? pt->totals : pt->summary, w->nrec);
	}
	if (any) {
		fputs(key, w->out);
		for (ev = 0; ev < w->nrec; ev++)
			fprintf(w->out, " %" PRIu64, sum[ev] == COST_NONE ? 0 :
			    sum[ev]);
		fputc('\n', w->out);
	}
	free(sum);
}

/* Make file s the file of the cost lines that follow (fi=). */
static void
cgw_file(struct cgw *w, uint32_t s)
{
	if (w->fi == s + 1)
		return;
	cgw_name(w, CGW_FL, "fi", s);
	w->fi = s + 1;
}

/* Write the lines naming callee fn. */
static void
cgw_callee(struct cgw *w, uint32_t fn)
{
	uint32_t	 obj, file, name;

	profile_func(w->p, fn, &obj, &file, &name);
	/* A bare cob=: a callee of no object under a caller of one. */
	if (obj + 1 != w->ob)
		cgw_name(w, CGW_OB, "cob", obj);
	cgw_name(w, CGW_FL, "cfi", file);
	cgw_name(w, CGW_FN, "cfn", name);
}

/* Add the calls= line, count times. */
static void
cgw_calls(struct cgw *w, uint64_t count)
{
	memcpy(w->lb + w->lbn, "calls=", 6);
	w->lbn += 6;
	cgw_num(w, '\0', count, 0);
	/* The target's position: a line, and an address if written. */
	memcpy(w->lb + w->lbn, " 0 0", 4);
	w->lbn += w->ins != NULL ? 4 : 2;
	cgw_end(w);
}

/*
 * Count (e NULL) or place the entries of w, each pair's in at[pair] and
 * the calls in at[npairs], in the order they are written in; return how
 * many there are.  Within a pair its entry comes first, then its lines,
 * its instructions and its jumps, each kind in the order read; the calls
 * follow, arcs then instructions' calls.
 */
static size_t
cgw_place(const struct cgw *w, struct cgw_ent *e, uint32_t *at)
{
	uint32_t	 i, j, fn, callee, file, nl = profile_nlines(w->p);
	uint32_t	 na = profile_narcs(w->p), ni = 0, nc = 0, nj = 0;
	uint32_t	 np_ = profile_npairs(w->p), k;
	uint64_t	 line;
	size_t		 n = 0;

#define CGW_PUT(bucket, i_, w_) do {					\
	k = (bucket);							\
	if (e != NULL)							\
		e[at[k]] = (struct cgw_ent){ (i_), (w_) };		\
	at[k]++;							\
	n++;								\
} while (0)
	if (w->ins != NULL) {
		ni = instrs_count(w->ins);
		nc = instrs_ncalls(w->ins);
		nj = instrs_njumps(w->ins);
	}
	for (i = 0; i < np_; i++) {
		profile_pair(w->p, i, &fn, &file);
		CGW_PUT(w->byinstr[fn] ? w->first[fn] : i, i, CGW_PAIR);
	}
	for (i = 0; i < nl; i++) {
		profile_line(w->p, i, &fn, &file, &line);
		if (!w->byinstr[fn])
			CGW_PUT(profile_line_pair(w->p, i), i, CGW_LINE);
	}
	for (i = 0; i < ni; i = j) {
		fn = instrs_fn(w->ins, i);
		for (j = i + 1; j < ni && j - i < CGW_RUN_MAX &&
		    instrs_fn(w->ins, j) == fn; j++)
			continue;
		CGW_PUT(w->first[fn], i, CGW_INSTR | (j - i) <<
		    CGW_KIND_BITS);
	}
	for (i = 0; i < nj; i++) {
		fn = instrs_jump(w->ins, i)->fn;
		CGW_PUT(w->first[fn], i, CGW_JUMP);
	}
	for (i = 0; i < na; i++) {
		profile_arc(w->p, i, &fn, &callee, &file, &line);
		if (!w->byinstr[fn])
			CGW_PUT(np_, i, CGW_ARC);
	}
	for (i = 0; i < nc; i++)
		CGW_PUT(np_, i, CGW_ICALL);
#undef CGW_PUT
	return n;
}

/*
 * Return what is written, in order, *n entries: by instruction for the
 * functions that have instructions, by source line for the others.  So
 * it reads back in the order it was read: its pairs, each pair's lines,
 * its calls (a function's calls are listed in that order, and a line's
 * first caller is the one whose calls it shows).  A counting sort by
 * pair: the entries once, no copy of them (qsort() made one: a quarter
 * of the export's peak); a function's instructions read in a row are
 * one entry (cc1plus: 45 MB less).
 */
static struct cgw_ent *
cgw_entries(const struct cgw *w, size_t *np)
{
	struct cgw_ent	*e;
	uint32_t	*at, np_ = profile_npairs(w->p), i;
	size_t		 n;

	at = xcalloc((size_t)np_ + 2, sizeof(*at));
	n = cgw_place(w, NULL, at + 1);
	for (i = 0; i <= np_; i++)
		at[i + 1] += at[i];
	e = xreallocarray(NULL, n + 1, sizeof(*e));
	(void)cgw_place(w, e, at);
	free(at);
	*np = n;
	return e;
}

/*
 * Cut w's entries into blocks of CGW_BLOCK items or a few more for the
 * makers to take in turn, each starting where the function changes (its
 * first position then written whole, needing nothing of the block
 * before): return the first entry of each, then w->n; *nb blocks.
 */
static size_t *
cgw_blocks(const struct cgw *w, size_t *nb)
{
	size_t	*b = NULL, cap = 0, n = 0, k, items = 0, most;

	most = hooks.cgw_block > 0 ? hooks.cgw_block : CGW_BLOCK;
	b = xgrow(b, &cap, 2, sizeof(*b));
	b[n++] = 0;
	for (k = 0; k < w->n; k++) {
		if (items >= most && cgw_ent_fn(w, &w->e[k]) !=
		    cgw_ent_fn(w, &w->e[k - 1])) {
			b = xgrow(b, &cap, n + 2, sizeof(*b));
			b[n++] = k;
			items = 0;
		}
		items += cgw_items(&w->e[k]);
	}
	b[n] = w->n;
	*nb = n;
	return b;
}

/* Return the function whose entry x is. */
static uint32_t
cgw_ent_fn(const struct cgw *w, const struct cgw_ent *x)
{
	uint32_t	 fn, file, callee;
	uint64_t	 line;

	switch (CGW_KIND(x)) {
	case CGW_PAIR:
		profile_pair(w->p, x->id, &fn, &file);
		return fn;
	case CGW_LINE:
		profile_line(w->p, x->id, &fn, &file, &line);
		return fn;
	case CGW_ARC:
		profile_arc(w->p, x->id, &fn, &callee, &file, &line);
		return fn;
	case CGW_INSTR:
		return instrs_fn(w->ins, x->id);
	case CGW_ICALL:
		return instrs_call(w->ins, x->id)->fn;
	default:
		return instrs_jump(w->ins, x->id)->fn;
	}
}

/* Start function fn: its object, file and name, a position afresh. */
static void
cgw_function(struct cgw *w, uint32_t fn)
{
	uint32_t	 obj, file, name;

	profile_func(w->p, fn, &obj, &file, &name);
	if (obj + 1 != w->ob) {
		if (obj != 0)
			cgw_name(w, CGW_OB, "ob", obj);
		else
			fputs("ob=\n", w->out);
		w->ob = obj + 1;
	}
	/* fl= again after fi=: callgrind_annotate keeps fi= past fn=. */
	if (file + 1 != w->fl || file + 1 != w->fi) {
		cgw_name(w, CGW_FL, "fl", file);
		w->fl = file + 1;
	}
	cgw_name(w, CGW_FN, "fn", name);
	w->fi = w->fl;		/* fn= makes fl= the file again */
}

/* Return the number of items of entry x: a run's instructions, else 1. */
static uint32_t
cgw_items(const struct cgw_ent *x)
{
	return CGW_KIND(x) == CGW_INSTR ? CGW_RUN(x) : 1;
}

/*
 * Write the names that come before the text of entry x's item (id: its
 * instruction, in a run): the file of a line or instruction, a callee.
 */
static void
cgw_names(struct cgw *w, const struct cgw_ent *x, uint32_t id)
{
	const struct icall *c;
	uint32_t	 fn, file, callee;
	uint64_t	 addr, line;

	switch (CGW_KIND(x)) {
	case CGW_LINE:
		profile_line(w->p, x->id, &fn, &file, &line);
		cgw_file(w, file);
		break;
	case CGW_ARC:
		profile_arc(w->p, x->id, &fn, &callee, &file, &line);
		cgw_file(w, file);
		cgw_callee(w, callee);
		break;
	case CGW_INSTR:
		instrs_get(w->ins, id, &fn, &addr, &file, &line);
		cgw_file(w, file);
		break;
	case CGW_ICALL:
		c = instrs_call(w->ins, x->id);
		if ((id = instrs_find(w->ins, c->fn, c->addr)) != UINT32_MAX) {
			instrs_get(w->ins, id, &fn, &addr, &file, &line);
			cgw_file(w, file);
		}
		cgw_callee(w, c->callee);
		break;
	default:
		break;		/* a pair's start, a jump: no names */
	}
}

/*
 * Make the text of entry x's item (id: its instruction, in a run): a
 * line's or an instruction's costs, a call or a jump.
 */
static void
cgw_text(struct cgw *w, const struct cgw_ent *x, uint32_t id)
{
	const struct icall *c;
	const struct ijump *j;
	uint32_t	 fn, file, callee;
	uint64_t	 addr, line = 0, tline = 0;

	switch (CGW_KIND(x)) {
	case CGW_PAIR:
		break;		/* its function started: enough */
	case CGW_LINE:
		profile_line(w->p, x->id, &fn, &file, &line);
		cgw_pos(w, w->ins != NULL, 0, line);
		profile_line_cost(w->p, x->id, w->cost);
		cgw_costs(w, w->cost);
		break;
	case CGW_ARC:
		profile_arc(w->p, x->id, &fn, &callee, &file, &line);
		cgw_calls(w, profile_arc_count(w->p, x->id));
		cgw_pos(w, w->ins != NULL, 0, line);
		cgw_costs(w, profile_arc_cost(w->p, x->id));
		break;
	case CGW_INSTR:
		instrs_get(w->ins, id, &fn, &addr, &file, &line);
		cgw_pos(w, 1, addr, line);
		instrs_cost(w->ins, id, w->cost);
		cgw_costs(w, w->cost);
		break;
	case CGW_ICALL:
		c = instrs_call(w->ins, x->id);
		if ((id = instrs_find(w->ins, c->fn, c->addr)) != UINT32_MAX)
			instrs_get(w->ins, id, &fn, &addr, &file, &line);
		cgw_calls(w, c->count);
		cgw_pos(w, 1, c->addr, line);
		cgw_costs(w, instrs_call_cost(w->ins, x->id));
		break;
	case CGW_JUMP:
		j = instrs_jump(w->ins, x->id);
		if ((id = instrs_find(w->ins, j->fn, j->addr)) != UINT32_MAX)
			instrs_get(w->ins, id, &fn, &addr, &file, &line);
		if ((id = instrs_find(w->ins, j->fn, j->target)) != UINT32_MAX)
			instrs_get(w->ins, id, &fn, &addr, &file, &tline);
		memcpy(w->lb + w->lbn, j->cond ? "jcnd=" : "jump=", 5);
		w->lbn += 5;
		cgw_num(w, '\0', j->taken, 0);
		if (j->cond)
			cgw_num(w, '/', j->executed, 0);
		cgw_num(w, ' ', j->target, 1);
		cgw_num(w, ' ', tline, 0);
		cgw_end(w);
		cgw_pos(w, 1, j->addr, line);
		cgw_costs(w, NULL);
		break;
	}
}

/*
 * A maker's thread: the text of each item of w's blocks (w->block0 and
 * every w->stride-th after it), in order, as a record of its length and
 * its bytes; a position afresh where the function changes, as fn= makes
 * it (a block starts where it does).
 */
static void
cgw_make(void *arg, struct handoff *h)
{
	struct cgw	*w = arg;
	const struct cgw_ent *x;
	uint32_t	 fn, prev = 0, r, *rec;
	size_t		 b, k, nw;

	for (b = w->block0; b < w->nblocks; b += w->stride) {
		for (k = w->block[b]; k < w->block[b + 1]; k++) {
			x = &w->e[k];
			fn = cgw_ent_fn(w, x);
			if (k == w->block[b] || fn != prev)
				w->have_pos = 0;
			prev = fn;
			for (r = 0; r < cgw_items(x); r++) {
				w->lbn = 0;
				cgw_text(w, x, x->id + r);
				nw = 1 + (w->lbn + 3) / 4;
				if ((rec = handoff_room(h, nw)) == NULL)
					return;
				rec[0] = (uint32_t)w->lbn;
				memcpy(rec + 1, w->lb, w->lbn);
				handoff_put(h, nw);
			}
		}
		if (handoff_block(h) == -1)
			return;
	}
}

/*
 * The caller's thread: for each of the n words' records, the names that
 * come before its item (fn= and the rest where the function changes),
 * then its text.
 */
static int
cgw_take(void *arg, const uint32_t *rec, size_t n)
{
	struct cgw	*w = arg;
	const struct cgw_ent *x;
	uint32_t	 fn;
	size_t		 i;

	for (i = 0; i < n; i += 1 + ((size_t)rec[i] + 3) / 4) {
		x = &w->e[w->k];
		if (w->r == 0) {
			fn = cgw_ent_fn(w, x);
			if (w->k == 0 || fn != w->prev)
				cgw_function(w, fn);
			w->prev = fn;
		}
		cgw_names(w, x, x->id + w->r);
		fwrite(rec + i + 1, 1, rec[i], w->out);
		if (++w->r == cgw_items(x)) {
			w->k++;
			w->r = 0;
		}
	}
	return 0;
}

/* Write fn= for each function an fn= line named, in their order. */
static void
cgw_trailer(struct cgw *w)
{
	uint32_t	 nf = profile_nfuncs(w->p), fn, *order, *seqs = NULL;
	uint64_t	*seq;
	uint32_t	 n = 0, i;

	seq = xreallocarray(NULL, (size_t)nf + 1, sizeof(*seq));
	order = xreallocarray(NULL, (size_t)nf + 1, sizeof(*order));
	for (fn = 0; fn < nf; fn++)
		if ((seq[n] = profile_func_seq(w->p, fn)) > 0)
			order[n++] = fn;
	seqs = xreallocarray(NULL, (size_t)n + 1, sizeof(*seqs));
	sort_index_u64(seq, n, seqs);
	if (n > 0)
		fputc('\n', w->out);
	for (i = 0; i < n; i++)
		cgw_function(w, order[seqs[i]]);
	free(seq);
	free(order);
	free(seqs);
}

/* Write sel's profile as one callgrind file. */
int
report_callgrind(FILE *out, const struct selection *sel)
{
	struct cgw	 w, m[CGW_MAKERS];
	struct cgw_ent	*e;
	void		*args[CGW_MAKERS];
	size_t		*block;
	uint32_t	 i, fn, file, nstr, nid;
	size_t		 k;

	memset(&w, 0, sizeof(w));
	w.out = out;
	w.p = sel->p;
	w.ins = profile_instrs(w.p);
	if (w.ins != NULL && instrs_count(w.ins) == 0)
		w.ins = NULL;
	w.nrec = profile_nrecorded(w.p);
	nstr = profile_nstrings(w.p);
	for (k = 0; k < CGW_NKINDS; k++)
		w.ids[k] = xcalloc((size_t)nstr + 1, sizeof(*w.ids[k]));
	w.ob = 1;		/* no object until an ob= line */
	w.byinstr = xcalloc((size_t)profile_nfuncs(w.p) + 1, 1);
	w.first = xreallocarray(NULL, (size_t)profile_nfuncs(w.p) + 1,
	    sizeof(*w.first));
	for (i = 0; i < profile_nfuncs(w.p); i++)
		w.first[i] = UINT32_MAX;
	for (i = profile_npairs(w.p); i-- > 0; ) {
		profile_pair(w.p, i, &fn, &file);
		w.first[fn] = i;
	}
	for (i = 0; w.ins != NULL && i < profile_nfuncs(w.p); i++) {
		(void)instrs_byfn(w.ins, i, &nid);
		w.byinstr[i] = nid > 0;
	}

	cgw_header(&w, sel);
	e = cgw_entries(&w, &w.n);
	w.e = e;
	block = cgw_blocks(&w, &w.nblocks);
	w.block = block;
	w.stride = w.nblocks > 1 ? CGW_MAKERS : 1;
	for (k = 0; k < w.stride; k++) {
		m[k] = w;
		m[k].block0 = k;
		m[k].cost = xreallocarray(NULL, profile_nevents(w.p) + 1,
		    sizeof(*m[k].cost));
		/*
		 * A jump line (four numbers of 20 digits at most, signs)
		 * and a position (two, signs) and a count an event.
		 */
		m[k].lb = xmalloc(192 + 22 * ((size_t)w.nrec + 1));
		args[k] = &m[k];
	}
	(void)handoff_turns(cgw_make, args, w.stride, cgw_take, &w);
	/*
	 * The functions named by fn= lines again, in the order of their
	 * last: where a file:function is in several objects, the last
	 * names the row's.
	 */
	cgw_trailer(&w);
	fputc('\n', out);
	cgw_totals(&w, 1, "totals:");

	free(e);
	free(block);
	for (k = 0; k < CGW_NKINDS; k++)
		free(w.ids[k]);
	for (k = 0; k < w.stride; k++) {
		free(m[k].cost);
		free(m[k].lb);
	}
	free(w.byinstr);
	free(w.first);
	return 0;
}
