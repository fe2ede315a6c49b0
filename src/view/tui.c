/*
 * tui.c - the terminal browser (--tui): KCachegrind's way of exploring
 * a profile in a terminal, with ncurses.  Four views of one selection,
 * each a list of lines the cursor moves over: the function list (the
 * text report's rows), a function (its self and inclusive costs, its
 * callers and callees, Enter going there), its annotated source
 * (scrolled to its hottest line) and its machine code (--asm=yes).
 * Back and forward through the views seen, as in KCachegrind.  The
 * sort event, self or inclusive costs, folding and the threshold are
 * changed with a key; each combination's selection is made once and
 * kept, as each view's lines are made when first shown (and again when
 * shown after the options changed).  The lines are
 * the text report's own cells, written to memory.  The profile made
 * again at each folding (with every derived event the browser offers)
 * and its call graph are made by a second thread while the user reads
 * the first screen, so that switching costs a selection only.
 */
#include "compat.h"

#include <err.h>
#include <errno.h>
#include <locale.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <curses.h>

#include "asmsel.h"
#include "callgraph.h"
#include "cells.h"
#include "cost.h"
#include "derive.h"
#include "fntotals.h"
#include "fold.h"
#include "msg.h"
#include "num.h"
#include "profile.h"
#include "report.h"
#include "reshape.h"
#include "select.h"
#include "srcfile.h"
#include "srcsel.h"
#include "tui.h"
#include "tvis.h"
#include "xmalloc.h"

#define NONE		UINT32_MAX
#define TUI_CACHE	32		/* selections kept */
#define TUI_HISTORY	256		/* views to go back to */

enum tkind { TV_LIST, TV_FUNC, TV_SOURCE, TV_ASM, TV_HELP };

/* A line of a view. */
struct tline {
	char		*text;		/* in the view's store, or made */
	size_t		 off;		/* where, while the view is made */
	int		 pick;		/* the cursor stops here */
	uint32_t	 go;		/* Enter goes to this row's function */
	int		 hot;		/* 2 hot, 1 warm, 0 cold */
	int		 mark;		/* a line with counts (n, N go to them) */
	int		 lazy;		/* a list row: text made when needed */
};

/* A view: its lines, cursor and first line shown. */
struct tview {
	enum tkind	 kind;
	char		*label;		/* the function's, or NULL */
	struct tline	*lines;
	size_t		 n, cap;
	size_t		 cur, top;
	int		 stale;		/* made before the options changed */
	FILE		*out;		/* the lines, while they are made */
	char		*store;		/* every line's text, NUL-ended */
	size_t		 storelen, start;
	const struct selection *sel;	/* a list's, for its rows */
	struct cells	 cells;		/* their columns */
	unsigned	*w;
};

/* The options a selection is made with. */
struct tkey {
	int		 ev;		/* index into the event names */
	int		 inclusive;
	int		 fold;
	char		 threshold[16];
};

/* The profile made again at one folding, and its call graph. */
struct tlevel {
	struct profile		*p;	/* NULL if it could not be made */
	struct callgraph	*g;
	int			 state;	/* LV_NONE, LV_BUSY, LV_DONE */
};

enum { LV_NONE, LV_BUSY, LV_DONE };

struct tsel {
	struct tkey		 key;
	struct report_opts	 o;	/* the user's, with the browser's */
	struct report_run	 run;	/*   sort, show, threshold, ... */
	char			*sortname;
	char			**show;
	struct selection	*sel;
};

struct tui {
	const struct profile	 *p;
	const struct report_opts *base;
	const struct report_run	 *run;
	char			**events;	/* the events to sort by */
	size_t			  nevents;
	struct tkey		  key;
	struct tsel		  cache[TUI_CACHE];
	size_t			  ncache, next;
	struct selection	 *sel;		/* the current one */
	struct tview		 *hist[TUI_HISTORY];
	size_t			  nhist, at;	/* views seen, the one shown */
	struct tview		 *help;
	struct rematch		 *re;
	char			  status[256];
	int			  color;
	enum tvis_mode		  tvis;		/* how text is drawn */
	FILE			 *timing;	/* $CGA_TUI_LOG */
	struct callgraph	 *graph;	/* of p, shared by the selections */
	struct tlevel		  level[4];	/* by folding */
	pthread_mutex_t		  lock;		/* over level[].state, want, stop */
	pthread_cond_t		  cond;
	pthread_t		  worker;
	int			  have_worker;
	int			  want;		/* a level waited for, or -1 */
	int			  stop;
};

static volatile sig_atomic_t tui_signal;

static void	tui_onsignal(int);
static void	tui_level_make(const struct tui *, int, struct tlevel *);
static void	*tui_worker(void *);
static const struct tlevel *tui_level(struct tui *, int);
static struct selection *tui_select(struct tui *);
static struct tview *tui_view_new(enum tkind, const char *);
static void	tui_end(struct tview *, int, uint32_t, int);
static void	tui_text(struct tview *, const char *, int, uint32_t, int);
static struct tview *tui_done(struct tview *);
static int	tui_heat(const struct selection *, const uint64_t *);
static struct tview *tui_view_list(struct tui *);
static const char *tui_text_at(struct tview *, size_t);
static int	tui_put(const struct tui *, int, const char *, int);
static struct tview *tui_view_func(struct tui *, const char *);
static struct tview *tui_view_source(struct tui *, const char *);
static struct tview *tui_view_asm(struct tui *, const char *);
static struct tview *tui_view_help(void);
static void	tui_view_free(struct tview *);
static uint32_t	tui_row(const struct selection *, const char *);
static void	tui_push(struct tui *, struct tview *);
static void	tui_draw(struct tui *);
static void	tui_move(struct tview *, long);
static int	tui_prompt(const char *, char *, size_t);
static void	tui_search(struct tui *, int);
static struct tview *tui_view_again(struct tui *, const struct tview *);
static void	tui_rebuild(struct tui *);
static void	tui_fresh(struct tui *);

/* A signal that ends the browser: noted, acted on by the loop. */
static void
tui_onsignal(int sig)
{
	tui_signal = sig;
}

/*
 * Make profile p again at folding fold with the options' grouping and
 * every derived event the browser offers that can be computed, and its
 * call graph.  Without derived events if they cannot all be made (a
 * negative value): a selection then derives its own, saying why not.
 */
static void
tui_level_make(const struct tui *t, int fold, struct tlevel *l)
{
	struct derive	*d;
	struct reshape	 how;
	size_t		 i;

	d = derive_new(t->p, t->base->events, t->base->nevents);
	for (i = profile_nrecorded(t->p); i < t->nevents; i++)
		(void)derive_add(d, t->events[i]);
	how.derive = derive_count(d) > 0 ? d : NULL;
	how.fold = fold;
	how.rows = t->base->group;
	l->p = reshape_build(t->p, &how, t->run->profile_name);
	if (l->p == NULL && how.derive != NULL) {
		how.derive = NULL;
		l->p = reshape_build(t->p, &how, t->run->profile_name);
	}
	derive_free(d);
	l->g = l->p != NULL ? callgraph_build(l->p) : NULL;
}

/*
 * The second thread: make the levels not made yet, the one the browser
 * waits for first, else the foldings after the first screen's in the
 * order f goes through them.  Its messages are counted, not printed.
 */
static void *
tui_worker(void *arg)
{
	struct tui	*t = arg;
	sigset_t	 set;
	unsigned	 said = 0;
	int		 f, k;

	sigfillset(&set);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	msg_divert(&said);
	pthread_mutex_lock(&t->lock);
	for (;;) {
		f = -1;
		if (t->want >= 0 && t->level[t->want].state == LV_NONE)
			f = t->want;
		for (k = 1; f == -1 && k <= 4; k++)
			if (t->level[(t->base->fold + k) & 3].state == LV_NONE)
				f = (t->base->fold + k) & 3;
		if (f == -1 || t->stop)
			break;
		t->level[f].state = LV_BUSY;
		pthread_mutex_unlock(&t->lock);
		tui_level_make(t, f, &t->level[f]);
		pthread_mutex_lock(&t->lock);
		t->level[f].state = LV_DONE;
		pthread_cond_broadcast(&t->cond);
	}
	pthread_mutex_unlock(&t->lock);
	return NULL;
}

/* Return the level of folding fold, waiting for it or making it. */
static const struct tlevel *
tui_level(struct tui *t, int fold)
{
	struct tlevel	*l = &t->level[fold];

	if (!t->have_worker) {
		if (l->state == LV_NONE) {
			tui_level_make(t, fold, l);
			l->state = LV_DONE;
		}
		return l;
	}
	pthread_mutex_lock(&t->lock);
	if (l->state != LV_DONE) {
		t->want = fold;
		pthread_cond_broadcast(&t->cond);
		while (l->state != LV_DONE)
			pthread_cond_wait(&t->cond, &t->lock);
		t->want = -1;
	}
	pthread_mutex_unlock(&t->lock);
	return l;
}

/* Return the selection of the current options, made once. */
static struct selection *
tui_select(struct tui *t)
{
	const struct tlevel *l;
	const struct profile *p = t->p;
	struct tsel	*c;
	size_t		 i;

	for (i = 0; i < t->ncache; i++)
		if (memcmp(&t->cache[i].key, &t->key, sizeof(t->key)) == 0)
			return t->cache[i].sel;
	if (t->ncache < TUI_CACHE)
		c = &t->cache[t->ncache++];
	else {
		c = &t->cache[t->next];
		t->next = (t->next + 1) % TUI_CACHE;
		select_free(c->sel);
		free(c->sortname);
		free(c->show);
	}
	memset(c, 0, sizeof(*c));
	c->key = t->key;
	c->o = *t->base;
	c->sortname = xstrdup(t->events[t->key.ev]);
	c->o.sort = &c->sortname;
	c->o.nsort = 1;
	c->o.sort_thr = NULL;
	c->o.threshold = c->key.threshold;
	c->o.inclusive = t->key.inclusive;
	c->o.fold = t->key.fold;
	c->o.tree = REPORT_TREE_CALLER | REPORT_TREE_CALLING;
	c->o.auto_annotate = 0;
	c->o.totals_only = 0;
	/* The sort event is shown first, then those --show named. */
	c->show = xreallocarray(NULL, t->base->nshow + 1, sizeof(*c->show));
	c->show[0] = c->sortname;
	c->o.nshow = 1;
	for (i = 0; i < t->base->nshow; i++)
		if (strcmp(t->base->show[i], c->sortname) != 0)
			c->show[c->o.nshow++] = t->base->show[i];
	c->o.show = c->show;
	/* One call graph of the profile serves every selection of it. */
	c->run = *t->run;
	c->run.nuser_files = 0;
	c->run.graph = t->graph;
	c->run.graph_of = t->graph != NULL ? t->p : NULL;
	/* Folded, grouped or derived: the profile made again, kept. */
	for (i = 0; i < c->o.nshow; i++)
		if (profile_event_index(t->p, c->show[i]) < 0)
			break;
	if (c->o.fold != 0 || c->o.group != PROFILE_ROWS_FUNCTIONS ||
	    i < c->o.nshow) {
		l = tui_level(t, c->o.fold);
		if (l->p != NULL) {
			p = l->p;
			c->o.fold = 0;
			c->o.group = PROFILE_ROWS_FUNCTIONS;
			c->run.graph = l->g;
			c->run.graph_of = l->p;
		}
	}
	c->sel = select_build(p, NULL, &c->o, &c->run);
	if (c->sel != NULL && t->graph == NULL && c->sel->p == t->p)
		t->graph = select_take_graph(c->sel);
	return c->sel;
}

/*
 * Return a new view of kind (of the function label, or NULL), its lines
 * written to one memory stream as they are made.
 */
static struct tview *
tui_view_new(enum tkind kind, const char *label)
{
	struct tview	*v = xcalloc(1, sizeof(*v));

	v->kind = kind;
	v->label = label != NULL ? xstrdup(label) : NULL;
	if ((v->out = open_memstream(&v->store, &v->storelen)) == NULL)
		err(1, "open_memstream");
	return v;
}

/* End the line written to v's stream since the last one. */
static void
tui_end(struct tview *v, int pick, uint32_t go, int hot)
{
	struct tline	*l;

	fputc('\0', v->out);
	v->lines = xgrow(v->lines, &v->cap, v->n + 1, sizeof(*v->lines));
	l = &v->lines[v->n++];
	l->text = NULL;
	l->off = v->start;
	l->pick = pick;
	l->go = go;
	l->hot = hot;
	l->mark = 0;
	l->lazy = 0;
	v->start = (size_t)ftello(v->out);
}

/* Append the line text to view v. */
static void
tui_text(struct tview *v, const char *text, int pick, uint32_t go, int hot)
{
	fputs(text, v->out);
	tui_end(v, pick, go, hot);
}

/* Close v's stream and point its lines at their text; return v. */
static struct tview *
tui_done(struct tview *v)
{
	size_t	i;

	if (v == NULL || v->out == NULL)
		return v;
	if (fclose(v->out) != 0)
		err(1, "open_memstream");
	v->out = NULL;
	for (i = 0; i < v->n; i++)
		if (!v->lines[i].lazy)
			v->lines[i].text = v->store + v->lines[i].off;
	return v;
}

/* Return how hot cost c is: 2 at 10% of the total and up, 1 at 1%. */
static int
tui_heat(const struct selection *sel, const uint64_t *c)
{
	uint64_t	v, tot;
	int		e = sel->sort[0];

	if (c == NULL || (v = c[e]) == COST_NONE || v == 0)
		return 0;
	tot = sel->base[e];
	if (tot == COST_NONE || tot == 0)
		return 0;
	if ((double)v * 10 >= (double)tot)
		return 2;
	return (double)v * 100 >= (double)tot;
}

/*
 * End a call line, its counts and name written: the call's count, and
 * the row it leads to.
 */
static void
tui_call_end(struct tview *v, const struct selection *sel,
    const uint64_t *cost, uint64_t count, uint32_t row)
{
	char	cnt[32];

	num_commify(count, cnt);
	fprintf(v->out, " (%sx)", cnt);
	tui_end(v, 1, row, tui_heat(sel, cost));
}

/*
 * Mark the line just ended as one with counts, cost, and keep in *hot
 * the line with the most of the first sort event so far (*best).
 */
static void
tui_mark(struct tview *v, const struct selection *sel, const uint64_t *cost,
    size_t *hot, uint64_t *best)
{
	uint64_t	c = cost[sel->sort[0]];

	v->lines[v->n - 1].mark = 1;
	if (c != COST_NONE && (*hot == SIZE_MAX || c > *best)) {
		*best = c;
		*hot = v->n - 1;
	}
}

/* The function list: the text report's rows. */
static struct tview *
tui_view_list(struct tui *t)
{
	struct selection	*sel = t->sel;
	struct tview		*v = tui_view_new(TV_LIST, NULL);
	size_t			 i;

	v->sel = sel;
	cells_init(&v->cells, v->out, sel);
	v->w = cells_widths_new(&v->cells);
	for (i = 0; i < sel->nents; i++)
		cells_widths_add(&v->cells, v->w, sel->ents[i].cost);
	cells_events(&v->cells, v->w);
	fprintf(v->out, " %s", select_rowname(sel));
	tui_end(v, 0, NONE, 0);
	/* A row's text is made when it is first shown or searched. */
	for (i = 0; i < sel->nents; i++) {
		tui_end(v, 1, sel->ents[i].row, tui_heat(sel,
		    sel->ents[i].cost));
		v->lines[v->n - 1].lazy = 1;
	}
	if (sel->nents == 0)
		tui_text(v, "  (no function above the threshold)", 0, NONE, 0);
	v->cur = 1;
	return v;
}

/* Return the text of line i of view v, making a list row's now. */
static const char *
tui_text_at(struct tview *v, size_t i)
{
	const struct selection	*sel = v->sel;
	const struct selentry	*en;
	const struct fnrow	*row;
	struct tline		*l = &v->lines[i];
	char			*buf = NULL;
	size_t			 len = 0;
	FILE			*f;

	if (l->text != NULL)
		return l->text;
	en = &sel->ents[i - 1];
	if ((f = open_memstream(&buf, &len)) == NULL)
		err(1, "open_memstream");
	v->cells.out = f;
	cells_cost(&v->cells, en->cost, v->w);
	fputs("  ", f);
	cells_name(&v->cells, select_label(sel, en));
	if (en->row != CG_NONE) {
		row = &sel->t->rows[en->row];
		if (row->named && row->obj != 0) {
			fputs(" [", f);
			cells_name(&v->cells, profile_str(sel->p, row->obj));
			fputc(']', f);
		}
	}
	if (fclose(f) != 0)
		err(1, "open_memstream");
	v->cells.out = NULL;
	return l->text = buf;
}

/* Return the row labelled label in sel, or NONE. */
static uint32_t
tui_row(const struct selection *sel, const char *label)
{
	uint32_t	r;

	for (r = 0; r < sel->t->nrows; r++)
		if (strcmp(fntotals_label(sel->t, r), label) == 0)
			return r;
	return NONE;
}

/* A function: its costs, its callers and callees (Enter goes there). */
static struct tview *
tui_view_func(struct tui *t, const char *label)
{
	struct selection	*sel = t->sel;
	struct tview		*v = tui_view_new(TV_FUNC, label);
	struct selentry		 en;
	struct selcall		*calls[2];
	uint64_t		*costs[2];
	const struct fnrow	*row;
	struct cells		 c;
	unsigned		*w;
	size_t			 n[2], i, k;
	uint32_t		 r;
	FILE			*f = v->out;

	if ((r = tui_row(sel, label)) == NONE) {
		tui_text(v, "  (not in this view of the profile)", 0,
		    NONE, 0);
		return v;
	}
	row = &sel->t->rows[r];
	en.row = r;
	en.cycle = CG_NONE;
	en.cost = row->cost;
	n[0] = select_calls(sel, &en, 1, &calls[0], &costs[0]);
	n[1] = select_calls(sel, &en, 0, &calls[1], &costs[1]);
	cells_init(&c, f, sel);
	w = cells_widths_new(&c);
	cells_widths_add(&c, w, row->cost);
	cells_widths_add(&c, w, sel->g->incl + (size_t)r * sel->nev);
	for (k = 0; k < 2; k++)
		for (i = 0; i < n[k]; i++)
			cells_widths_add(&c, w, calls[k][i].cost);
	fputs("Function: ", f);
	cells_name(&c, label);
	if (row->named && row->obj != 0) {
		fputs(" [", f);
		cells_name(&c, profile_str(sel->p, row->obj));
		fputc(']', f);
	}
	tui_end(v, 0, NONE, 0);
	tui_text(v, "", 0, NONE, 0);
	cells_events(&c, w);
	tui_end(v, 0, NONE, 0);
	for (k = 0; k < 2; k++) {
		cells_cost(&c, k == 0 ? row->cost : sel->g->incl +
		    (size_t)r * sel->nev, w);
		fputs(k == 0 ? "  self" : "  inclusive", f);
		tui_end(v, 0, NONE, 0);
	}
	for (k = 0; k < 2; k++) {
		tui_text(v, "", 0, NONE, 0);
		tui_text(v, k == 0 ? "Callers:" : "Callees:", 0,
		    NONE, 0);
		if (n[k] == 0)
			tui_text(v, "  (none)", 0, NONE, 0);
		for (i = 0; i < n[k]; i++) {
			cells_cost(&c, calls[k][i].cost, w);
			fputs(k == 0 ? "  < " : "  > ", f);
			cells_name(&c, fntotals_label(sel->t, calls[k][i].row));
			tui_call_end(v, sel, calls[k][i].cost,
			    calls[k][i].count, calls[k][i].row);
		}
		free(calls[k]);
		free(costs[k]);
	}
	free(w);
	for (v->cur = 0; v->cur < v->n && !v->lines[v->cur].pick; v->cur++)
		continue;
	if (v->cur == v->n)
		v->cur = 0;
	return v;
}

/* The annotated source of a function's file, at its hottest line. */
static struct tview *
tui_view_source(struct tui *t, const char *label)
{
	struct selection	*sel = t->sel;
	struct tview		*v = tui_view_new(TV_SOURCE, label);
	struct srcsel		*s;
	const struct annfile	*af;
	struct srcreader	*rd;
	struct cells		 c;
	unsigned		*w;
	uint32_t		 r, file;
	uint64_t		 ln = 0, best = 0;
	size_t			 i = 0, ci = 0, k, hot = SIZE_MAX;
	FILE			*f = v->out;

	if ((r = tui_row(sel, label)) == NONE) {
		tui_text(v, "  (not in this view of the profile)", 0,
		    NONE, 0);
		return v;
	}
	file = sel->t->rows[r].file;
	s = select_source_of(sel, file);
	af = s->nfiles > 0 ? &s->files[0] : NULL;
	if (af == NULL || af->found != SRCFILE_OK) {
		fprintf(f, "  %s: not found (-I DIR looks under DIR)",
		    profile_str(sel->p, file));
		tui_end(v, 0, NONE, 0);
		srcsel_free(s);
		return v;
	}
	cells_init(&c, f, sel);
	w = cells_widths_new(&c);
	for (k = 0; k < af->nlines; k++)
		cells_widths_add(&c, w, af->lines[k].cost);
	for (k = 0; k < af->ncalls; k++)
		cells_widths_add(&c, w, af->calls[k].cost);
	fputs("Source: ", f);
	cells_name(&c, af->display);
	tui_end(v, 0, NONE, 0);
	cells_events(&c, w);
	tui_end(v, 0, NONE, 0);
	rd = srcfile_reader(&af->src);
	while (srcfile_more(rd)) {
		ln++;
		while (i < af->nlines && af->lines[i].line < ln)
			i++;
		cells_cost(&c, i < af->nlines && af->lines[i].line == ln ?
		    af->lines[i].cost : NULL, w);
		fprintf(f, " %5llu ", (unsigned long long)ln);
		srcfile_line(rd, f);
		/* srcfile_line() ends the line: write over the newline. */
		fflush(f);
		if (v->storelen > v->start && v->store[v->storelen - 1] == '\n')
			fseeko(f, -1, SEEK_CUR);
		tui_end(v, 1, NONE,
		    i < af->nlines && af->lines[i].line == ln ?
		    tui_heat(sel, af->lines[i].cost) : 0);
		if (i < af->nlines && af->lines[i].line == ln)
			tui_mark(v, sel, af->lines[i].cost, &hot, &best);
		while (ci < af->ncalls && af->calls[ci].line < ln)
			ci++;
		for (; ci < af->ncalls && af->calls[ci].line == ln; ci++) {
			cells_cost(&c, af->calls[ci].cost, w);
			fputs(" => ", f);
			cells_name(&c, fntotals_label(sel->t,
			    af->calls[ci].callee));
			tui_call_end(v, sel, af->calls[ci].cost,
			    af->calls[ci].count, af->calls[ci].callee);
		}
	}
	srcfile_reader_close(rd);
	free(w);
	srcsel_free(s);
	v->cur = hot != SIZE_MAX ? hot : 2 < v->n ? 2 : 0;
	return v;
}

/* The machine code of a function (--asm=yes). */
static struct tview *
tui_view_asm(struct tui *t, const char *label)
{
	struct selection	*sel = t->sel;
	struct tview		*v = tui_view_new(TV_ASM, label);
	struct asmsel		*s;
	const struct asmfunc	*af;
	const struct asmrow	*ar;
	struct cells		 c;
	unsigned		*w;
	size_t			*rank, i, k, m, hot = SIZE_MAX;
	uint32_t		 r, obj, file, name, mf = NONE;
	uint64_t		 ml = 0, best = 0;
	char			 cnt[32], cnt2[32];
	FILE			*f = v->out;

	if (profile_instrs(sel->p) == NULL) {
		tui_text(v, (t->base->asm_annotate ?
		    "  No machine code: make the profile with valgrind "
		    "--tool=callgrind --dump-instr=yes" :
		    "  Machine code needs --asm=yes (and a profile made with "
		    "--dump-instr=yes)"), 0, NONE, 0);
		return v;
	}
	if ((r = tui_row(sel, label)) == NONE) {
		tui_text(v, "  (not in this view of the profile)", 0,
		    NONE, 0);
		return v;
	}
	rank = xreallocarray(NULL, sel->t->nrows + 1, sizeof(*rank));
	for (i = 0; i < sel->t->nrows; i++)
		rank[i] = i == r ? 0 : SIZE_MAX;
	s = select_asm_of(sel, rank);
	free(rank);
	cells_init(&c, f, sel);
	w = cells_widths_new(&c);
	for (k = 0; k < s->nfuncs; k++)
		for (i = 0; i < s->funcs[k].nrows; i++)
			if (s->funcs[k].rows[i].cost != NULL)
				cells_widths_add(&c, w, s->funcs[k].rows[i].cost);
	if (s->nfuncs == 0)
		tui_text(v, "  (no instruction of it in the profile)",
		    0, NONE, 0);
	for (k = 0; k < s->nfuncs; k++) {
		af = &s->funcs[k];
		profile_func(sel->p, af->fn, &obj, &file, &name);
		fputs("Machine code: ", f);
		cells_label(&c, file, name);
		fputs(" [", f);
		cells_name(&c, profile_str(sel->p, obj));
		fprintf(f, "]%s", s->objs[af->obj].found == OBJDUMP_OK ? "" :
		    " (object not read)");
		tui_end(v, 0, NONE, 0);
		cells_events(&c, w);
		tui_end(v, 0, NONE, 0);
		for (i = 0; i < af->nrows; i++) {
			ar = &af->rows[i];
			if (ar->file != NONE && (ar->file != mf ||
			    ar->line != ml)) {
				fputs("-- ", f);
				cells_name(&c, profile_str(sel->p, ar->file));
				fprintf(f, ":%llu --", (unsigned long long)ar->line);
				tui_end(v, 0, NONE,
				    0);
				mf = ar->file;
				ml = ar->line;
			}
			cells_cost(&c, ar->cost, w);
			fprintf(f, "  0x%llx  ", (unsigned long long)ar->addr);
			cells_name(&c, ar->text != NULL ? ar->text :
			    "(not in objdump's listing)");
			for (m = 0; m < ar->njumps; m++) {
				const struct asmjump *j = &af->jumps[ar->jump0 +
				    m];

				num_commify(j->taken, cnt);
				num_commify(j->executed, cnt2);
				if (j->cond)
					fprintf(f, "%s jcnd %s/%s -> 0x%llx",
					    m == 0 ? "  #" : ",", cnt, cnt2,
					    (unsigned long long)j->target);
				else
					fprintf(f, "%s jump %s -> 0x%llx",
					    m == 0 ? "  #" : ",", cnt,
					    (unsigned long long)j->target);
			}
			tui_end(v, 1, NONE,
			    tui_heat(sel, ar->cost));
			if (ar->cost != NULL)
				tui_mark(v, sel, ar->cost, &hot, &best);
			for (m = 0; m < ar->ncalls; m++) {
				const struct asmcall *ac = &af->calls[ar->call0 +
				    m];
				uint32_t	 o2, f2, n2;

				profile_func(sel->p, ac->callee, &o2, &f2, &n2);
				cells_cost(&c, ac->cost, w);
				fputs(" => ", f);
				cells_label(&c, f2, n2);
				tui_call_end(v, sel, ac->cost, ac->count,
				    fntotals_row_find(sel->t, f2, n2));
			}
		}
		tui_text(v, "", 0, NONE, 0);
	}
	free(w);
	asmsel_free(s);
	v->cur = hot != SIZE_MAX ? hot : 0;
	return v;
}

/* The help screen: every key. */
static struct tview *
tui_view_help(void)
{
	static const char *const text[] = {
		"Keys",
		"",
		"  Up, Down, k, j     move the cursor a line",
		"  PgUp, PgDn, Space  move it a page",
		"  Home, End, g, G    to the first or the last line",
		"  Enter              the function under the cursor: its costs,",
		"                     callers and callees; on a caller, callee or",
		"                     call row, that function",
		"  Left, Backspace, h back to the view before",
		"  Right, l           forward again",
		"  s                  the function's annotated source, at its",
		"                     hottest line",
		"  a                  its machine code (--asm=yes)",
		"  n, N               the next, previous line with cost (source,",
		"                     machine code) or search match (elsewhere)",
		"  /                  search by regular expression",
		"  e                  the next event to sort by (derived too)",
		"  i                  self or inclusive costs",
		"  f                  folding: none, recursion, contexts, all",
		"  t                  the threshold (percent, 100: every row)",
		"  ?                  this help",
		"  q                  back, or quit from the function list",
		"",
		"Heat: red rows hold 10% of the total or more, yellow 1%.",
		"NO_COLOR set in the environment turns colours off.",
	};
	struct tview	*v = tui_view_new(TV_HELP, NULL);
	size_t		 i;

	for (i = 0; i < sizeof(text) / sizeof(text[0]); i++)
		tui_text(v, text[i], 0, NONE, 0);
	return v;
}

/* Free a view. */
static void
tui_view_free(struct tview *v)
{
	size_t	i;

	if (v == NULL)
		return;
	if (v->out != NULL)
		fclose(v->out);
	for (i = 0; i < v->n; i++)
		if (v->lines[i].lazy)
			free(v->lines[i].text);
	free(v->w);
	free(v->store);
	free(v->lines);
	free(v->label);
	free(v);
}

/* Show view v after the current one, forgetting those ahead. */
static void
tui_push(struct tui *t, struct tview *v)
{
	size_t	i;

	for (i = t->at + 1; i < t->nhist; i++)
		tui_view_free(t->hist[i]);
	t->nhist = t->nhist > 0 ? t->at + 1 : 0;
	if (t->nhist == TUI_HISTORY) {
		/* The oldest function view goes; the list stays first. */
		tui_view_free(t->hist[1]);
		memmove(t->hist + 1, t->hist + 2,
		    (TUI_HISTORY - 2) * sizeof(*t->hist));
		t->nhist--;
	}
	t->hist[t->nhist++] = tui_done(v);
	t->at = t->nhist - 1;
}

/* Move view v's cursor by d lines, to a line it stops at. */
static void
tui_move(struct tview *v, long d)
{
	long	c = (long)v->cur, step = d < 0 ? -1 : 1, n = (long)v->n;
	long	target = c + d;

	if (n == 0)
		return;
	if (target < 0)
		target = 0;
	if (target >= n)
		target = n - 1;
	c = target;
	while (c >= 0 && c < n && !v->lines[c].pick)
		c += step;
	if (c < 0 || c >= n)
		for (c = target; c >= 0 && c < n && !v->lines[c].pick; )
			c -= step;
	if (c >= 0 && c < n)
		v->cur = (size_t)c;
}

/*
 * Draw text on row y from its first column, at most cols bytes, made
 * visible (tvis.c): names, source lines and objdump's text are drawn as
 * the report prints them on a terminal.  Return the bytes drawn.
 */
static int
tui_put(const struct tui *t, int y, const char *text, int cols)
{
	char	 small[1024], *buf = small;
	size_t	 len = strlen(text), n;

	if (tvis_size(len) > sizeof(small))
		buf = xmalloc(tvis_size(len));
	n = tvis_encode(buf, text, len, t->tvis, TVIS_LINE);
	mvaddnstr(y, 0, buf, cols);
	if (buf != small)
		free(buf);
	return n < (size_t)cols ? (int)n : cols;
}

/* Draw the current view, its title and its status line. */
static void
tui_draw(struct tui *t)
{
	struct tview		*v = t->help != NULL ? t->help : t->hist[t->at];
	static const char *const folds[] = { "none", "recursion",
	    "contexts", "all" };
	static const char *const kinds[] = { "functions", "function",
	    "source", "machine code", "help" };
	const char		*what;
	int			 rows = LINES, cols = COLS, y, body;
	size_t			 i;
	char			 line[512];

	erase();
	body = rows - 2;
	if (body < 1)
		body = 1;
	if (v->cur < v->top)
		v->top = v->cur;
	if (v->cur >= v->top + (size_t)body)
		v->top = v->cur - (size_t)body + 1;
	if (v->top + (size_t)body > v->n)
		v->top = v->n > (size_t)body ? v->n - (size_t)body : 0;
	snprintf(line, sizeof(line), " cg-annotate  %s  %s %s  fold %s  "
	    "threshold %s%%", t->run->profile_name, t->events[t->key.ev],
	    t->key.inclusive ? "inclusive" : "self", folds[t->key.fold & 3],
	    t->key.threshold);
	attron(A_REVERSE);
	for (y = tui_put(t, 0, line, cols); y < cols; y++)
		addch(' ');
	attroff(A_REVERSE);
	for (y = 0; y < body && v->top + (size_t)y < v->n; y++) {
		const struct tline	*l = &v->lines[v->top + (size_t)y];
		const char		*text = tui_text_at(v, v->top + (size_t)y);
		int			 attr = 0;

		if (t->color && l->hot > 0)
			attr |= COLOR_PAIR(l->hot);
		if (v->top + (size_t)y == v->cur && l->pick &&
		    v->kind != TV_HELP)
			attr |= A_REVERSE;
		attron(attr);
		i = (size_t)tui_put(t, y + 1, text, cols);
		if (attr & A_REVERSE)
			for (; (int)i < cols; i++)
				addch(' ');
		attroff(attr);
	}
	what = kinds[v->kind];
	if (v->kind == TV_LIST && profile_rows(t->sel->p) ==
	    PROFILE_ROWS_OBJECTS)
		what = "objects";
	else if (v->kind == TV_LIST && profile_rows(t->sel->p) ==
	    PROFILE_ROWS_FILES)
		what = "files";
	snprintf(line, sizeof(line), " %s %zu/%zu  %s", what,
	    v->n > 0 ? v->cur + 1 : 0, v->n, t->status[0] != '\0' ?
	    t->status : "Enter open  s source  a asm  / search  e event  "
	    "i incl  f fold  t thr  ? help  q quit");
	attron(A_REVERSE);
	for (y = tui_put(t, rows - 1, line, cols); y < cols; y++)
		addch(' ');
	attroff(A_REVERSE);
	refresh();
}

/* Ask for a line of text on the status line; return 0 if one is given. */
static int
tui_prompt(const char *what, char *buf, size_t size)
{
	int	rc;

	move(LINES - 1, 0);
	clrtoeol();
	addstr(what);
	echo();
	curs_set(1);
	timeout(-1);
	rc = getnstr(buf, (int)size - 1);
	noecho();
	curs_set(0);
	timeout(100);
	return rc == ERR || buf[0] == '\0' ? -1 : 0;
}

/* Go to the next (dir 1) or previous (-1) line the search matches. */
static void
tui_search(struct tui *t, int dir)
{
	struct tview	*v = t->hist[t->at];
	size_t		 i, n = v->n;

	if (t->re == NULL || n == 0)
		return;
	for (i = 1; i <= n; i++) {
		size_t	k = dir > 0 ? (v->cur + i) % n : (v->cur + n - i) % n;

		if (v->lines[k].pick && rematch_test(t->re, tui_text_at(v,
		    k))) {
			v->cur = k;
			t->status[0] = '\0';
			return;
		}
	}
	snprintf(t->status, sizeof(t->status), "no match");
}

/* Return view old made again from the current selection. */
static struct tview *
tui_view_again(struct tui *t, const struct tview *old)
{
	switch (old->kind) {
	case TV_FUNC:
		return tui_done(tui_view_func(t, old->label));
	case TV_SOURCE:
		return tui_done(tui_view_source(t, old->label));
	case TV_ASM:
		return tui_done(tui_view_asm(t, old->label));
	default:
		return tui_done(tui_view_list(t));
	}
}

/*
 * The options changed: make (or find) the selection and the view shown
 * anew; the others in the history are made again when next shown
 * (tui_fresh()).
 */
static void
tui_rebuild(struct tui *t)
{
	struct selection *sel;
	size_t		  i;

	if ((sel = tui_select(t)) == NULL) {
		snprintf(t->status, sizeof(t->status), "%s cannot be "
		    "computed for this profile", t->events[t->key.ev]);
		return;
	}
	t->sel = sel;
	for (i = 0; i < t->nhist; i++)
		t->hist[i]->stale = 1;
	tui_fresh(t);
}

/* Make the view shown again if the options changed since it was made. */
static void
tui_fresh(struct tui *t)
{
	struct tview	*v = t->hist[t->at];

	if (!v->stale)
		return;
	t->hist[t->at] = tui_view_again(t, v);
	tui_view_free(v);
}

/*
 * Browse profile p, read as run says, in the terminal with options o
 * (their events, sort, threshold, folding, inclusive).  Return 0 when
 * the user quits, 2 if the terminal cannot be driven.
 */
int
tui_run(const struct profile *p, const struct report_opts *o,
    const struct report_run *run)
{
	static const char *const derived[] = { "CEst", "L1m", "LLm", "Bm",
	    "L2m" };
	struct tui	 t;
	struct tview	*v;
	SCREEN		*scr;
	const char	*log;
	char		 buf[256], err[256];
	struct timespec	 start, t0, t1;
	size_t		 i, k;
	unsigned	 e;
	int		 ch, quit = 0, sig;

	clock_gettime(CLOCK_MONOTONIC, &start);
	memset(&t, 0, sizeof(t));
	t.p = p;
	t.base = o;
	t.run = run;
	/* The events to sort by: recorded, named, and the derived ones. */
	for (e = 0; e < profile_nrecorded(p); e++) {
		t.events = xreallocarray(t.events, t.nevents + 1,
		    sizeof(*t.events));
		t.events[t.nevents++] = xstrdup(profile_str(p,
		    profile_event(p, e)));
	}
	for (k = 0; k < o->nevents + 5 + o->nsort + o->nshow; k++) {
		const char	*name = k < o->nevents ? o->events[k].name :
		    k < o->nevents + 5 ? derived[k - o->nevents] :
		    k < o->nevents + 5 + o->nsort ? o->sort[k - o->nevents - 5] :
		    o->show[k - o->nevents - 5 - o->nsort];

		for (i = 0; i < t.nevents; i++)
			if (strcmp(t.events[i], name) == 0)
				break;
		if (i < t.nevents)
			continue;
		t.events = xreallocarray(t.events, t.nevents + 1,
		    sizeof(*t.events));
		t.events[t.nevents++] = xstrdup(name);
	}
	t.key.ev = 0;
	if (o->nsort > 0)
		for (i = 0; i < t.nevents; i++)
			if (strcmp(t.events[i], o->sort[0]) == 0)
				t.key.ev = (int)i;
	t.key.inclusive = o->inclusive;
	t.key.fold = o->fold;
	strlcpy(t.key.threshold, o->threshold, sizeof(t.key.threshold));
	if ((log = getenv("CGA_TUI_LOG")) != NULL && *log != '\0')
		t.timing = fopen(log, "w");

	/* Messages would write over the screen. */
	msg_set_quiet(1);
	if ((t.sel = tui_select(&t)) == NULL) {
		msg_set_quiet(0);
		return 2;
	}
	setlocale(LC_ALL, "");
	t.tvis = tvis_mode_of(STDOUT_FILENO) == TVIS_UTF8 ? TVIS_UTF8 :
	    TVIS_ASCII;
	if ((scr = newterm(NULL, stdout, stdin)) == NULL) {
		fprintf(stderr, "%s: --tui: cannot drive the terminal "
		    "'%s'\n", getprogname(), getenv("TERM") != NULL ?
		    getenv("TERM") : "");
		return 2;
	}
	signal(SIGINT, tui_onsignal);
	signal(SIGTERM, tui_onsignal);
	signal(SIGHUP, tui_onsignal);
	cbreak();
	noecho();
	keypad(stdscr, TRUE);
	curs_set(0);
	timeout(100);
	set_escdelay(25);
	{
		const char	*nc = getenv("NO_COLOR");

		t.color = has_colors() && (nc == NULL || *nc == '\0');
	}
	if (t.color) {
		start_color();
		use_default_colors();
		init_pair(1, COLOR_YELLOW, -1);
		init_pair(2, COLOR_RED, -1);
	}
	tui_push(&t, tui_view_list(&t));
	tui_draw(&t);
	if (t.timing != NULL) {
		clock_gettime(CLOCK_MONOTONIC, &t1);
		fprintf(t.timing, "ready %.3f ms\n",
		    (double)(t1.tv_sec - start.tv_sec) * 1e3 +
		    (double)(t1.tv_nsec - start.tv_nsec) / 1e6);
		fflush(t.timing);
	}
	/* The other foldings are made while the user reads. */
	t.want = -1;
	pthread_mutex_init(&t.lock, NULL);
	pthread_cond_init(&t.cond, NULL);
	t.have_worker = pthread_create(&t.worker, NULL, tui_worker, &t) == 0;
	while (!quit) {
		ch = getch();
		if ((sig = tui_signal) != 0)
			break;
		if (ch == ERR)
			continue;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		v = t.hist[t.at];
		t.status[0] = '\0';
		if (t.help != NULL && ch != KEY_RESIZE) {
			tui_view_free(t.help);
			t.help = NULL;
			if (ch == 'q' || ch == '?' || ch == 27)
				goto drawn;
		}
		switch (ch) {
		case KEY_UP:
		case 'k':
			tui_move(v, -1);
			break;
		case KEY_DOWN:
		case 'j':
			tui_move(v, 1);
			break;
		case KEY_PPAGE:
			tui_move(v, -(LINES - 3));
			break;
		case KEY_NPAGE:
		case ' ':
			tui_move(v, LINES - 3);
			break;
		case KEY_HOME:
		case 'g':
			tui_move(v, -(long)v->n);
			break;
		case KEY_END:
		case 'G':
			tui_move(v, (long)v->n);
			break;
		case '\n':
		case '\r':
		case KEY_ENTER:
			if (v->n == 0 || v->lines[v->cur].go == NONE) {
				snprintf(t.status, sizeof(t.status),
				    "nothing to open here");
				break;
			}
			tui_push(&t, tui_view_func(&t, fntotals_label(
			    t.sel->t, v->lines[v->cur].go)));
			break;
		case 's':
		case 'a':
			{
				const char	*label = v->label;

				if (v->kind == TV_LIST) {
					if (v->n == 0 ||
					    v->lines[v->cur].go == NONE) {
						snprintf(t.status,
						    sizeof(t.status), "no "
						    "function here");
						break;
					}
					label = fntotals_label(t.sel->t,
					    v->lines[v->cur].go);
				}
				tui_push(&t, ch == 's' ? tui_view_source(&t,
				    label) : tui_view_asm(&t, label));
			}
			break;
		case KEY_LEFT:
		case KEY_BACKSPACE:
		case 127:
		case 8:
		case 'h':
			if (t.at > 0)
				t.at--;
			break;
		case KEY_RIGHT:
		case 'l':
			if (t.at + 1 < t.nhist)
				t.at++;
			break;
		case 'q':
			if (t.at == 0)
				quit = 1;
			else
				t.at--;
			break;
		case 'n':
		case 'N':
			if (v->kind == TV_SOURCE || v->kind == TV_ASM) {
				long	d = ch == 'n' ? 1 : -1;
				size_t	c = v->cur;

				while ((d > 0 && c + 1 < v->n) ||
				    (d < 0 && c > 0)) {
					c = (size_t)((long)c + d);
					if (v->lines[c].mark) {
						v->cur = c;
						break;
					}
				}
			} else
				tui_search(&t, ch == 'n' ? 1 : -1);
			break;
		case '/':
			if (tui_prompt("/", buf, sizeof(buf)) == -1)
				break;
			rematch_free(t.re);
			t.re = rematch_new(buf, 0, err, sizeof(err));
			if (t.re == NULL)
				snprintf(t.status, sizeof(t.status),
				    "not a regular expression");
			else
				tui_search(&t, 1);
			break;
		case 'e':
			for (i = 1; i <= t.nevents; i++) {
				int	prev = t.key.ev;

				t.key.ev = (int)(((size_t)prev + 1) % t.nevents);
				if (tui_select(&t) != NULL)
					break;
			}
			tui_rebuild(&t);
			break;
		case 'i':
			t.key.inclusive = !t.key.inclusive;
			tui_rebuild(&t);
			break;
		case 'f':
			t.key.fold = (t.key.fold + 1) & 3;
			tui_rebuild(&t);
			break;
		case 't':
			if (tui_prompt("threshold (percent): ", buf,
			    sizeof(buf)) == -1)
				break;
			{
				char	*end;
				double	 d = strtod(buf, &end);

				if (end == buf || *end != '\0' || d < 0 ||
				    d > 100) {
					snprintf(t.status, sizeof(t.status),
					    "a percentage from 0 to 100");
					break;
				}
				strlcpy(t.key.threshold, buf,
				    sizeof(t.key.threshold));
			}
			tui_rebuild(&t);
			break;
		case '?':
			t.help = tui_done(tui_view_help());
			break;
		case KEY_RESIZE:
		default:
			break;
		}
drawn:
		tui_fresh(&t);
		tui_draw(&t);
		if (t.timing != NULL) {
			clock_gettime(CLOCK_MONOTONIC, &t1);
			fprintf(t.timing, "key %d %.3f ms\n", ch,
			    (double)(t1.tv_sec - t0.tv_sec) * 1e3 +
			    (double)(t1.tv_nsec - t0.tv_nsec) / 1e6);
			fflush(t.timing);
		}
	}
	endwin();
	delscreen(scr);
	if (t.have_worker) {
		pthread_mutex_lock(&t.lock);
		t.stop = 1;
		pthread_mutex_unlock(&t.lock);
		pthread_join(t.worker, NULL);
	}
	pthread_mutex_destroy(&t.lock);
	pthread_cond_destroy(&t.cond);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	for (i = 0; i < t.nhist; i++)
		tui_view_free(t.hist[i]);
	tui_view_free(t.help);
	for (i = 0; i < t.ncache; i++) {
		select_free(t.cache[i].sel);
		free(t.cache[i].sortname);
		free(t.cache[i].show);
	}
	callgraph_free(t.graph);
	for (k = 0; k < 4; k++) {
		callgraph_free(t.level[k].g);
		profile_free(t.level[k].p);
	}
	for (i = 0; i < t.nevents; i++)
		free(t.events[i]);
	free(t.events);
	rematch_free(t.re);
	if (t.timing != NULL)
		fclose(t.timing);
	msg_set_quiet(0);
	if (tui_signal != 0) {
		/* The terminal is back: now go as the signal would. */
		sig = tui_signal;
		signal(sig, SIG_DFL);
		raise(sig);
	}
	return 0;
}
