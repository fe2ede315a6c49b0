/*
 * tui_select.c - the browser's selections: one per combination of sort
 * event, self or inclusive costs, folding and threshold, made from the
 * user's options and the browser's own, kept in a small cache; and the
 * worker thread that makes the profile again at each folding while the
 * user reads.
 */
#include "base/compat.h"

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/callgraph.h"
#include "analysis/derive.h"
#include "analysis/fntotals.h"
#include "analysis/reshape.h"
#include "base/cost.h"
#include "base/msg.h"
#include "base/num.h"
#include "base/xmalloc.h"
#include "model/profile.h"
#include "select/select.h"
#include "tui/tui_impl.h"

static void	tui_level_make(const struct tui *, int, struct tlevel *);
static void	tui_columns(const struct tui *, struct tsel *);
static const struct tlevel *tui_level(struct tui *, int);

/*
 * Choose the events a selection shows: those --show named after the
 * sort event; else as many of the recorded events as fit in the
 * terminal's width beside 32 columns of names, in the text report's
 * order (the profile's), the sort event always among them (first if it
 * is a derived one); t->events begins with the recorded ones.
 */
static void
tui_columns(const struct tui *t, struct tsel *c)
{
	const struct profile	*p = t->p;
	unsigned		 n = profile_nrecorded(p), e;
	uint64_t		*tot;
	char			 num[32];
	long			 room = t->key.width - 32, w;
	size_t			 i;
	unsigned char		*take;

	c->show = xreallocarray(NULL, t->base->nshow + n + 1,
	    sizeof(*c->show));
	c->show[0] = c->sortname;
	c->o.nshow = 1;
	c->o.show = c->show;
	if (t->base->nshow > 0) {
		for (i = 0; i < t->base->nshow; i++)
			if (strcmp(t->base->show[i], c->sortname) != 0)
				c->show[c->o.nshow++] = t->base->show[i];
		return;
	}
	tot = xreallocarray(NULL, profile_nevents(p) + 1, sizeof(*tot));
	profile_self_total(p, tot);
	take = xcalloc(n + 1, 1);
	/* A column: the total's digits, " (100.0%)" and a space. */
	for (e = 0; e < n; e++) {
		w = (long)num_commify(tot[e] == COST_NONE ? 0 : tot[e], num) +
		    11;
		if (strcmp(profile_str(p, profile_event(p, e)),
		    c->sortname) == 0) {
			take[e] = 1;
			room -= w;
		}
	}
	for (e = 0; e < n; e++) {
		w = (long)num_commify(tot[e] == COST_NONE ? 0 : tot[e], num) +
		    11;
		if (!take[e] && w <= room) {
			take[e] = 1;
			room -= w;
		}
	}
	for (e = 0, c->o.nshow = 0; e < n; e++)
		if (take[e])
			c->show[c->o.nshow++] = t->events[e];
	/* A derived sort event, not recorded: first. */
	for (e = 0; e < n && strcmp(profile_str(p, profile_event(p, e)),
	    c->sortname) != 0; e++)
		continue;
	if (e == n) {
		memmove(c->show + 1, c->show, c->o.nshow * sizeof(*c->show));
		c->show[0] = c->sortname;
		c->o.nshow++;
	}
	free(take);
	free(tot);
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
	size_t	i;

	l->d = derive_new(t->p, t->base->events, t->base->nevents);
	for (i = profile_nrecorded(t->p); i < t->nevents; i++)
		(void)derive_add(l->d, t->events[i]);
	l->how.derive = derive_count(l->d) > 0 ? l->d : NULL;
	l->how.fold = fold;
	l->how.rows = t->base->group;
	l->how.instrs = 0;	/* a function's when its view opens */
	l->p = reshape_build(t->p, &l->how, t->run->profile_name);
	if (l->p == NULL && l->how.derive != NULL) {
		l->how.derive = NULL;
		l->p = reshape_build(t->p, &l->how, t->run->profile_name);
	}
	l->g = l->p != NULL ? callgraph_build(l->p) : NULL;
	if (l->g != NULL && l->how.rows != PROFILE_ROWS_FUNCTIONS)
		callgraph_group_incl(l->g, t->p, l->how.rows);
}

/*
 * Give the profile p of a level (folded, grouped or derived) the machine
 * code of its functions named name, from the browser's profile, made as
 * the level was, once: the levels are made without it (a copy of all of
 * it for each folding: 45 MB each for cc1's 11.6 MB profile).
 */
void
tui_level_asm(struct tui *t, const struct profile *p, uint32_t name)
{
	struct tlevel	*l = NULL;
	size_t		 i;

	for (i = 0; i < 4 && l == NULL; i++)
		if (t->level[i].state == LV_DONE && t->level[i].p == p)
			l = &t->level[i];
	if (l == NULL || profile_instrs(t->p) == NULL)
		return;
	for (i = 0; i < l->nasm; i++)
		if (l->asm_names[i] == name)
			return;
	reshape_instrs_of(t->p, l->p, &l->how, name, t->run->profile_name);
	l->asm_names = xreallocarray(l->asm_names, l->nasm + 1,
	    sizeof(*l->asm_names));
	l->asm_names[l->nasm++] = name;
}

/*
 * The second thread: make the levels not made yet, the one the browser
 * waits for first, else the foldings after the first screen's in the
 * order f goes through them.  Its messages are counted, not printed.
 */
void *
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
struct selection *
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
	/*
	 * No selection keeps machine code: the browser makes a function's
	 * when its view is opened (select_asm_of()).
	 */
	c->o.asm_annotate = 0;
	tui_columns(t, c);
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
