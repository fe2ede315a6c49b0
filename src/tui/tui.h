/*
 * tui.h - the full-screen browser (--tui), over the same selections and
 * views as the report; built as a library of its own (cga_tui), the one
 * that links curses.
 */
#ifndef CGA_TUI_H
#define CGA_TUI_H

struct profile;
struct report_opts;
struct report_run;

int	tui_run(const struct profile *, const struct report_opts *,
	    const struct report_run *);

#endif /* CGA_TUI_H */
