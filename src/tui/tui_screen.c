/*
 * tui_screen.c - the browser on the screen: the views seen and the one
 * shown, drawing it through the terminal rule (tvis.h), the cursor, the
 * prompt, searching, and the views made again when the options change.
 */
#include "base/compat.h"

#include <stdlib.h>
#include <string.h>

#include <curses.h>

#include "base/rematch.h"
#include "base/tvis.h"
#include "base/xmalloc.h"
#include "select/select.h"
#include "tui/tui_impl.h"

static int	tui_put(const struct tui *, int, const char *, int);
static struct tview *tui_view_again(struct tui *, const struct tview *);

/* Show view v after the current one, forgetting those ahead. */
void
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
void
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
void
tui_draw(struct tui *t)
{
	struct tview		*v = t->menu != NULL ? t->menu :
				    t->help != NULL ? t->help : t->hist[t->at];
	static const char *const folds[] = { "none", "recursion",
	    "contexts", "all" };
	static const char *const kinds[] = { "functions", "function",
	    "source", "machine code", "help", "events" };
	const char		*what;
	int			 rows = LINES, cols = COLS, y, body;
	size_t			 i;
	char			 line[512];

	erase();
	/* The bar, what the view shows, its lines, the status line. */
	body = rows - 3;
	if (body < 1)
		body = 1;
	if (v->center) {
		/* A jump: the line in the middle, what follows below it. */
		v->top = v->cur > (size_t)body / 2 ? v->cur - (size_t)body / 2 :
		    0;
		v->center = 0;
	}
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
	if (v->title != NULL) {
		attron(A_BOLD);
		tui_put(t, 1, v->title, cols);
		attroff(A_BOLD);
	}
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
		i = (size_t)tui_put(t, y + 2, text, cols);
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
	/* Help and quit first: a narrow terminal cuts the others. */
	snprintf(line, sizeof(line), " %s %zu/%zu  %s", what,
	    v->n > 0 ? v->cur + 1 : 0, v->n, t->status[0] != '\0' ?
	    t->status : "? help  q quit  Enter open  s source  a asm  "
	    "/ search  e event  i incl  f fold  t thr");
	attron(A_REVERSE);
	for (y = tui_put(t, rows - 1, line, cols); y < cols; y++)
		addch(' ');
	attroff(A_REVERSE);
	refresh();
}

/* Ask for a line of text on the status line; return 0 if one is given. */
int
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
void
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
			v->center = 1;
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
void
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
void
tui_fresh(struct tui *t)
{
	struct tview	*v = t->hist[t->at];

	if (!v->stale)
		return;
	t->hist[t->at] = tui_view_again(t, v);
	tui_view_free(v);
}
