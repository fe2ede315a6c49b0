/*
 * tui_impl.h - the browser's state, shared by its files (tui.c,
 * tui_select.c, tui_views.c, tui_screen.c) and no others.
 */
#ifndef CGA_TUI_IMPL_H
#define CGA_TUI_IMPL_H

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/reshape.h"
#include "base/tvis.h"
#include "select/reportopts.h"
#include "view/cells.h"

struct callgraph;
struct profile;
struct rematch;
struct selection;

#define NONE		UINT32_MAX
#define TUI_CACHE	32		/* selections kept */
#define TUI_HISTORY	256		/* views to go back to */

enum tkind { TV_LIST, TV_FUNC, TV_SOURCE, TV_ASM, TV_HELP, TV_MENU };

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
	char		*title;		/* what it shows, above it */
	int		 center;	/* the cursor jumped: show it in the
					   middle of the screen */
	struct tline	*lines;
	size_t		 n, cap;
	size_t		 cur, top;
	int		 stale;		/* made before the options changed */
	FILE		*out;		/* the lines, while they are made */
	char		*store;		/* every line's text, NUL-ended */
	size_t		 storelen, start;
	const struct selection *sel;	/* a list's, for its rows */
	int		 width;		/*   and the terminal's width */
	struct cells	 cells;		/* their columns */
	unsigned	*w;
};

/* The options a selection is made with. */
struct tkey {
	int		 ev;		/* index into the event names */
	int		 inclusive;
	int		 fold;
	char		 threshold[16];
	int		 width;		/* the terminal's: the event columns
					   that fit */
};

/* The profile made again at one folding, and its call graph. */
struct tlevel {
	struct profile		*p;	/* NULL if it could not be made */
	struct callgraph	*g;
	int			 state;	/* LV_NONE, LV_BUSY, LV_DONE */
	struct reshape		 how;	/* how p was made, kept for */
	struct derive		*d;	/*   its functions' machine code */
	uint32_t		*asm_names; /* functions (names) whose */
	size_t			 nasm;	/*   machine code p has */
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
	struct tview		 *menu;		/* e: the events to sort by */
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

/* tui_screen.c */
void		 tui_push(struct tui *, struct tview *);
void		 tui_draw(struct tui *);
void		 tui_move(struct tview *, long);
int		 tui_prompt(const char *, char *, size_t);
void		 tui_search(struct tui *, int);
void		 tui_rebuild(struct tui *);
void		 tui_fresh(struct tui *);

/* tui_select.c */
void		*tui_worker(void *);
struct selection *tui_select(struct tui *);

/* tui_views.c */
struct tview	*tui_done(struct tview *);
struct tview	*tui_view_list(struct tui *);
const char	*tui_text_at(struct tview *, size_t);
struct tview	*tui_view_func(struct tui *, const char *);
struct tview	*tui_view_source(struct tui *, const char *);
struct tview	*tui_view_asm(struct tui *, const char *);
void		 tui_level_asm(struct tui *, const struct profile *,
		    uint32_t);
struct tview	*tui_view_help(void);
struct tview	*tui_view_menu(const struct tui *);
void		 tui_view_free(struct tview *);

#endif /* CGA_TUI_IMPL_H */
