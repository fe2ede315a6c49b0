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
 *
 * This file takes the terminal and runs the keys (a table, as tmux binds
 * them); tui_select.c makes and keeps the selections and the worker,
 * tui_views.c the views' lines, tui_screen.c draws them and moves
 * through them.  Their shared state is in tui_impl.h.
 */
#include "base/compat.h"

#include <sys/ioctl.h>

#include <locale.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <curses.h>

#include "analysis/callgraph.h"
#include "analysis/derive.h"
#include "analysis/fntotals.h"
#include "base/msg.h"
#include "base/rematch.h"
#include "base/tvis.h"
#include "base/xmalloc.h"
#include "model/profile.h"
#include "select/select.h"
#include "tui/tui.h"
#include "tui/tui_impl.h"

static volatile sig_atomic_t tui_signal;

#define TUI_KEYS	12		/* keys of one row, at most */

/* What keys do: a row of tui_keys[]. */
struct tkeydef {
	int		(*run)(struct tui *, struct tview *, int);
					/* nonzero: quit */
	int		 keys[TUI_KEYS];	/* 0 ends the list */
};

static void	tui_onsignal(int);
static int	tui_key_move(struct tui *, struct tview *, int);
static int	tui_key_open(struct tui *, struct tview *, int);
static int	tui_key_code(struct tui *, struct tview *, int);
static int	tui_key_history(struct tui *, struct tview *, int);
static int	tui_key_next(struct tui *, struct tview *, int);
static int	tui_key_search(struct tui *, struct tview *, int);
static int	tui_key_option(struct tui *, struct tview *, int);
static int	tui_key_threshold(struct tui *, struct tview *, int);
static int	tui_key_help(struct tui *, struct tview *, int);
static const struct tkeydef *tui_key_find(int);
static void	tui_log(const struct tui *, const struct timespec *,
		    const char *);
static void	tui_init(struct tui *, const struct profile *,
		    const struct report_opts *, const struct report_run *);
static SCREEN	*tui_open(struct tui *);
static void	tui_loop(struct tui *);
static void	tui_free(struct tui *);

/* A signal that ends the browser: noted, acted on by the loop. */
static void
tui_onsignal(int sig)
{
	tui_signal = sig;
}

/* Move the cursor of v by the key's step: a line, a page, the ends. */
static int
tui_key_move(struct tui *t __unused, struct tview *v, int ch)
{
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
	default:
		tui_move(v, (long)v->n);
		break;
	}
	return 0;
}

/* Enter: open the function of the line under the cursor. */
static int
tui_key_open(struct tui *t, struct tview *v, int ch __unused)
{
	if (v->n == 0 || v->lines[v->cur].go == NONE)
		snprintf(t->status, sizeof(t->status), "nothing to open here");
	else
		tui_push(t, tui_view_func(t, fntotals_label(t->sel->t,
		    v->lines[v->cur].go)));
	return 0;
}

/*
 * s, a: the source or the machine code of the function shown or under
 * the cursor.
 */
static int
tui_key_code(struct tui *t, struct tview *v, int ch)
{
	const char	*label = v->label;

	if (v->kind == TV_LIST) {
		if (v->n == 0 || v->lines[v->cur].go == NONE) {
			snprintf(t->status, sizeof(t->status),
			    "no function here");
			return 0;
		}
		label = fntotals_label(t->sel->t, v->lines[v->cur].go);
	}
	tui_push(t, ch == 's' ? tui_view_source(t, label) :
	    tui_view_asm(t, label));
	return 0;
}

/* Back and forward through the views seen; q goes back, or quits. */
static int
tui_key_history(struct tui *t, struct tview *v __unused, int ch)
{
	switch (ch) {
	case KEY_RIGHT:
	case 'l':
		if (t->at + 1 < t->nhist)
			t->at++;
		return 0;
	case 'q':
		if (t->at == 0)
			return 1;
		t->at--;
		return 0;
	default:
		if (t->at > 0)
			t->at--;
		return 0;
	}
}

/*
 * n, N: the next or previous line with counts in a source or machine
 * code view, else the next or previous match of the search.
 */
static int
tui_key_next(struct tui *t, struct tview *v, int ch)
{
	long	d = ch == 'n' ? 1 : -1;
	size_t	c = v->cur;

	if (v->kind != TV_SOURCE && v->kind != TV_ASM) {
		tui_search(t, (int)d);
		return 0;
	}
	while ((d > 0 && c + 1 < v->n) || (d < 0 && c > 0)) {
		c = (size_t)((long)c + d);
		if (v->lines[c].mark) {
			v->cur = c;
			break;
		}
	}
	return 0;
}

/* /: ask for an expression and go to its first match. */
static int
tui_key_search(struct tui *t, struct tview *v __unused, int ch __unused)
{
	char	buf[256], err[256];

	if (tui_prompt("/", buf, sizeof(buf)) == -1)
		return 0;
	rematch_free(t->re);
	t->re = rematch_new(buf, 0, err, sizeof(err));
	if (t->re == NULL)
		snprintf(t->status, sizeof(t->status),
		    "not a regular expression");
	else
		tui_search(t, 1);
	return 0;
}

/*
 * e, i, f: the menu of the events to sort by, self or inclusive costs,
 * the next folding; the views are made again.
 */
static int
tui_key_option(struct tui *t, struct tview *v __unused, int ch)
{
	if (ch == 'e') {
		/* A menu: tui_key_menu() takes the keys until it closes. */
		t->menu = tui_done(tui_view_menu(t));
		return 0;
	} else if (ch == 'i')
		t->key.inclusive = !t->key.inclusive;
	else
		t->key.fold = (t->key.fold + 1) & 3;
	tui_rebuild(t);
	return 0;
}

/* t: ask for a threshold, a percentage; the views are made again. */
static int
tui_key_threshold(struct tui *t, struct tview *v __unused, int ch __unused)
{
	char	 buf[256], *end;
	double	 d;

	if (tui_prompt("threshold (percent): ", buf, sizeof(buf)) == -1)
		return 0;
	d = strtod(buf, &end);
	if (end == buf || *end != '\0' || d < 0 || d > 100) {
		snprintf(t->status, sizeof(t->status),
		    "a percentage from 0 to 100");
		return 0;
	}
	strlcpy(t->key.threshold, buf, sizeof(t->key.threshold));
	tui_rebuild(t);
	return 0;
}

/*
 * A key while the events' menu is open: move, Enter sorts by the event
 * under the cursor (if it can be computed), Esc, q or e close it.
 */
static void
tui_key_menu(struct tui *t, int ch)
{
	const struct tkeydef	*k = tui_key_find(ch);
	struct tview		*m = t->menu;
	int			 old = t->key.ev;

	/* The keys that move in any view move in the menu. */
	if (k != NULL && k->run == tui_key_move) {
		(void)tui_key_move(t, m, ch);
		return;
	}
	switch (ch) {
	case '\n':
	case '\r':
	case KEY_ENTER:
		t->key.ev = (int)m->lines[m->cur].go;
		if (tui_select(t) == NULL) {
			snprintf(t->status, sizeof(t->status), "%s cannot be "
			    "computed for this profile", t->events[t->key.ev]);
			t->key.ev = old;
			return;
		}
		break;
	case 27:
	case 'q':
	case 'e':
		break;
	default:
		return;
	}
	tui_view_free(t->menu);
	t->menu = NULL;
	if (t->key.ev != old)
		tui_rebuild(t);
}

/* ?: the keys, over the view until the next key. */
static int
tui_key_help(struct tui *t, struct tview *v __unused, int ch __unused)
{
	t->help = tui_done(tui_view_help());
	return 0;
}

/* The keys, each row a function and the keys that call it. */
static const struct tkeydef tui_keys[] = {
	{ tui_key_move, { KEY_UP, 'k', KEY_DOWN, 'j', KEY_PPAGE, KEY_NPAGE,
	    ' ', KEY_HOME, 'g', KEY_END, 'G' } },
	{ tui_key_open, { '\n', '\r', KEY_ENTER } },
	{ tui_key_code, { 's', 'a' } },
	{ tui_key_history, { KEY_LEFT, KEY_BACKSPACE, 127, 8, 'h', KEY_RIGHT,
	    'l', 'q' } },
	{ tui_key_next, { 'n', 'N' } },
	{ tui_key_search, { '/' } },
	{ tui_key_option, { 'e', 'i', 'f' } },
	{ tui_key_threshold, { 't' } },
	{ tui_key_help, { '?' } },
};

/* Return what key ch does, or NULL (a resize or an unbound key). */
static const struct tkeydef *
tui_key_find(int ch)
{
	size_t	i, k;

	for (i = 0; i < sizeof(tui_keys) / sizeof(tui_keys[0]); i++)
		for (k = 0; k < TUI_KEYS && tui_keys[i].keys[k] != 0; k++)
			if (tui_keys[i].keys[k] == ch)
				return &tui_keys[i];
	return NULL;
}

/* Write to the timing log the milliseconds since since, after what. */
static void
tui_log(const struct tui *t, const struct timespec *since, const char *what)
{
	struct timespec	now;

	if (t->timing == NULL)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	fprintf(t->timing, "%s %.3f ms\n", what,
	    (double)(now.tv_sec - since->tv_sec) * 1e3 +
	    (double)(now.tv_nsec - since->tv_nsec) / 1e6);
	fflush(t->timing);
}

/*
 * Set t up to browse p with options o, read as run says: the events to
 * sort by (recorded, named, and the derived ones), the first key.
 */
static void
tui_init(struct tui *t, const struct profile *p, const struct report_opts *o,
    const struct report_run *run)
{
	static const char *const derived[] = { "CEst", "L1m", "LLm", "Bm",
	    "L2m" };
	const char	*log, *name;
	struct winsize	 ws;
	size_t		 i, k;
	unsigned	 e;

	memset(t, 0, sizeof(*t));
	t->p = p;
	t->base = o;
	t->run = run;
	for (e = 0; e < profile_nrecorded(p); e++) {
		t->events = xreallocarray(t->events, t->nevents + 1,
		    sizeof(*t->events));
		t->events[t->nevents++] = xstrdup(profile_str(p,
		    profile_event(p, e)));
	}
	for (k = 0; k < o->nevents + 5 + o->nsort + o->nshow; k++) {
		name = k < o->nevents ? o->events[k].name :
		    k < o->nevents + 5 ? derived[k - o->nevents] :
		    k < o->nevents + 5 + o->nsort ? o->sort[k - o->nevents - 5] :
		    o->show[k - o->nevents - 5 - o->nsort];
		for (i = 0; i < t->nevents; i++)
			if (strcmp(t->events[i], name) == 0)
				break;
		if (i < t->nevents)
			continue;
		t->events = xreallocarray(t->events, t->nevents + 1,
		    sizeof(*t->events));
		t->events[t->nevents++] = xstrdup(name);
	}
	t->key.ev = 0;
	if (o->nsort > 0)
		for (i = 0; i < t->nevents; i++)
			if (strcmp(t->events[i], o->sort[0]) == 0)
				t->key.ev = (int)i;
	t->key.inclusive = o->inclusive;
	t->key.fold = o->fold;
	strlcpy(t->key.threshold, o->threshold, sizeof(t->key.threshold));
	/* Before curses starts: the first selection's columns fit. */
	t->key.width = ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 &&
	    ws.ws_col > 0 ? ws.ws_col : 80;
	if ((log = getenv("CGA_TUI_LOG")) != NULL && *log != '\0')
		t->timing = fopen(log, "w");
}

/*
 * Take the terminal: curses in cbreak mode, keys decoded, the signals
 * that end us noted, colours unless $NO_COLOR.  Return the screen, or
 * NULL after a message.
 */
static SCREEN *
tui_open(struct tui *t)
{
	const char	*nc = getenv("NO_COLOR");
	SCREEN		*scr;

	setlocale(LC_ALL, "");
	t->tvis = tvis_mode_of(STDOUT_FILENO) == TVIS_UTF8 ? TVIS_UTF8 :
	    TVIS_ASCII;
	if ((scr = newterm(NULL, stdout, stdin)) == NULL) {
		fprintf(stderr, "%s: --tui: cannot drive the terminal "
		    "'%s'\n", getprogname(), getenv("TERM") != NULL ?
		    getenv("TERM") : "");
		return NULL;
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
	t->color = has_colors() && (nc == NULL || *nc == '\0');
	if (t->color) {
		start_color();
		use_default_colors();
		init_pair(1, COLOR_YELLOW, -1);
		init_pair(2, COLOR_RED, -1);
	}
	return scr;
}

/* Read keys and do what they say until q on the first view or a signal. */
static void
tui_loop(struct tui *t)
{
	const struct tkeydef	*k;
	struct timespec		 t0;
	char			 what[32];
	int			 ch, quit = 0, closed;

	while (!quit) {
		ch = getch();
		if (tui_signal != 0)
			break;
		if (ch == ERR)
			continue;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		t->status[0] = '\0';
		closed = 0;
		if (t->help != NULL && ch != KEY_RESIZE) {
			tui_view_free(t->help);
	tui_view_free(t->menu);
			t->help = NULL;
			/* These keys only close the help. */
			closed = ch == 'q' || ch == '?' || ch == 27;
		}
		if (t->menu != NULL && ch != KEY_RESIZE)
			tui_key_menu(t, ch);
		else if (!closed && (k = tui_key_find(ch)) != NULL)
			quit = k->run(t, t->hist[t->at], ch);
		if (COLS != t->key.width && COLS > 0) {
			/* Resized: as many event columns as fit now. */
			t->key.width = COLS;
			tui_rebuild(t);
		}
		tui_fresh(t);
		tui_draw(t);
		snprintf(what, sizeof(what), "key %d", ch);
		tui_log(t, &t0, what);
	}
}

/* Stop the worker and free what t holds. */
static void
tui_free(struct tui *t)
{
	size_t	i;
	int	k;

	if (t->have_worker) {
		pthread_mutex_lock(&t->lock);
		t->stop = 1;
		pthread_mutex_unlock(&t->lock);
		pthread_join(t->worker, NULL);
	}
	pthread_mutex_destroy(&t->lock);
	pthread_cond_destroy(&t->cond);
	for (i = 0; i < t->nhist; i++)
		tui_view_free(t->hist[i]);
	tui_view_free(t->help);
	for (i = 0; i < t->ncache; i++) {
		select_free(t->cache[i].sel);
		free(t->cache[i].sortname);
		free(t->cache[i].show);
	}
	callgraph_free(t->graph);
	for (k = 0; k < 4; k++) {
		callgraph_free(t->level[k].g);
		profile_free(t->level[k].p);
		derive_free(t->level[k].d);
		free(t->level[k].asm_names);
	}
	for (i = 0; i < t->nevents; i++)
		free(t->events[i]);
	free(t->events);
	rematch_free(t->re);
	if (t->timing != NULL)
		fclose(t->timing);
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
	struct tui	 t;
	SCREEN		*scr;
	struct timespec	 start;
	int		 sig;

	clock_gettime(CLOCK_MONOTONIC, &start);
	tui_init(&t, p, o, run);
	/* Messages would write over the screen. */
	msg_set_quiet(1);
	if ((t.sel = tui_select(&t)) == NULL) {
		msg_set_quiet(0);
		return 2;
	}
	if ((scr = tui_open(&t)) == NULL)
		return 2;
	tui_push(&t, tui_view_list(&t));
	tui_draw(&t);
	tui_log(&t, &start, "ready");
	/* The other foldings are made while the user reads. */
	t.want = -1;
	pthread_mutex_init(&t.lock, NULL);
	pthread_cond_init(&t.cond, NULL);
	t.have_worker = pthread_create(&t.worker, NULL, tui_worker, &t) == 0;
	tui_loop(&t);
	endwin();
	delscreen(scr);
	tui_free(&t);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	msg_set_quiet(0);
	if (tui_signal != 0) {
		/* The terminal is back: now go as the signal would. */
		sig = tui_signal;
		signal(sig, SIG_DFL);
		raise(sig);
	}
	return 0;
}
