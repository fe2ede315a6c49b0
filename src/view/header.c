/*
 * header.c - the header block of the text reports, in
 * callgrind_annotate's layout: the profile, its descriptions, the
 * target and its parts, the events recorded, shown and sorted by, the
 * thresholds, and the source file settings.
 */
#include "base/compat.h"

#include <stdio.h>
#include <string.h>

#include "model/profile.h"
#include "select/select.h"
#include "view/cells.h"
#include "view/header.h"

static void	header_parts(const struct cells *, const struct selection *);
static int	header_own_desc(const struct profile *, const struct part *,
		    uint32_t);
static void	header_files(const struct cells *, const struct selection *);
static void	header_target(const struct cells *, const char *,
		    const struct profile *);

/* Print the whole header block of a report on one profile. */
void
header_print(const struct cells *c, const struct selection *sel)
{
	const struct part	*pt = profile_part(sel->p, 0);
	const char		*s;

	fputs(FANCY, c->out);
	fprintf(c->out, "Profile data file '%s'", sel->run->profile_name);
	if (*(s = profile_str(sel->p, pt->creator)) != '\0') {
		fputs(" (creator: ", c->out);
		cells_name(c, s);
		fputc(')', c->out);
	}
	fputs("\n" FANCY, c->out);
	header_tail(c, sel);
	header_files(c, sel);
}

/* The header lines about source files and annotation, and a blank. */
static void
header_files(const struct cells *c, const struct selection *sel)
{
	const struct report_opts *o = sel->o;
	const struct report_run	 *run = sel->run;
	size_t			  i;

	fprintf(c->out, "Include dirs:     %s\n", o->ninclude > 0 ?
	    o->include[0] : "");
	for (i = 1; i < o->ninclude; i++)
		fprintf(c->out, "                  %s\n", o->include[i]);
	fprintf(c->out, "User annotated:   %s\n", run->nuser_files > 0 ?
	    run->user_files[0] : "");
	for (i = 1; i < run->nuser_files; i++)
		fprintf(c->out, "                  %s\n", run->user_files[i]);
	fprintf(c->out, "Auto-annotation:  %s\n\n",
	    o->auto_annotate ? "on" : "off");
}

/* Print what, then the command profiled in p and its pid. */
static void
header_target(const struct cells *c, const char *what,
    const struct profile *p)
{
	const struct part	*pt = profile_part(p, 0);
	const char		*s;

	s = profile_str(p, pt->cmd);
	fputs(what, c->out);
	cells_name(c, *s != '\0' ? s : "(unknown)");
	if (*(s = profile_str(p, pt->pid)) != '\0') {
		fputs(" (PID ", c->out);
		cells_name(c, s);
		if (*(s = profile_str(p, pt->part)) != '\0') {
			fputs(", part ", c->out);
			cells_name(c, s);
		}
		if (*(s = profile_str(p, pt->thread)) != '\0') {
			fputs(", thread ", c->out);
			cells_name(c, s);
		}
		fputc(')', c->out);
	}
	fputc('\n', c->out);
}

/*
 * Print the header from the descriptions on: target (and OLD's with
 * --diff), parts, events and thresholds.
 */
void
header_tail(const struct cells *c, const struct selection *sel)
{
	const struct profile	*p = sel->p;
	const struct part	*pt = profile_part(p, 0);
	const char		*s;
	size_t			 i;

	for (i = 0; i < pt->ndesc; i++) {
		s = profile_str(p, pt->desc[i]);
		if (strncmp(s, "Option:", 7) != 0) {
			cells_name(c, s);
			fputc('\n', c->out);
		}
	}
	header_target(c, "Profiled target:  ", p);
	if (sel->old != NULL)
		header_target(c, "Old target:       ", sel->old);
	header_parts(c, sel);
	fputs("Events recorded: ", c->out);
	for (i = 0; i < profile_nrecorded(p); i++) {
		fputc(' ', c->out);
		cells_name(c, profile_str(p, profile_event(p, (unsigned)i)));
	}
	fputs("\nEvents shown:    ", c->out);
	for (i = 0; i < sel->nshow; i++) {
		fputc(' ', c->out);
		cells_name(c, sel->o->show != NULL ? sel->o->show[i] :
		    profile_str(p, profile_event(p, sel->show[i])));
	}
	fputs("\nEvent sort order:", c->out);
	for (i = 0; i < sel->nsort; i++) {
		fputc(' ', c->out);
		cells_name(c, sel->o->sort != NULL ? sel->o->sort[i] :
		    profile_str(p, profile_event(p, sel->sort[i])));
	}
	fputs("\nThresholds:      ", c->out);
	for (i = 0; i < sel->nsort; i++)
		fprintf(c->out, " %s", select_threshold(sel, i));
	fputc('\n', c->out);
}

/* Print a part's name: "FILE: part P, thread T (trigger)". */
void
header_part_name(const struct cells *c, const struct part *pt)
{
	const char	*s;
	int		 comma = 0;

	cells_name(c, profile_str(c->p, pt->file));
	if (*(s = profile_str(c->p, pt->part)) != '\0') {
		fputs(": part ", c->out);
		cells_name(c, s);
		comma = 1;
	}
	if (*(s = profile_str(c->p, pt->thread)) != '\0') {
		fputs(comma ? ", thread " : ": thread ", c->out);
		cells_name(c, s);
	}
	if (*(s = profile_str(c->p, pt->trigger)) != '\0') {
		fputs(" (", c->out);
		cells_name(c, s);
		fputc(')', c->out);
	}
}

/*
 * Return nonzero if desc (a string id) of part pt says something the
 * first part does not: not its time range or trigger (said already),
 * nor a line the first part has too.
 */
static int
header_own_desc(const struct profile *p, const struct part *pt, uint32_t desc)
{
	const struct part	*first = profile_part(p, 0);
	const char		*s = profile_str(p, desc);
	size_t			 i;

	if (strncmp(s, "Timerange:", 10) == 0 ||
	    strncmp(s, "Trigger:", 8) == 0 || strncmp(s, "Option:", 7) == 0)
		return 0;
	for (i = 0; pt != first && i < first->ndesc; i++)
		if (first->desc[i] == desc)
			return 0;
	return 1;
}

/*
 * Under the target line, when the profile has several parts (dumps,
 * threads, files), list them: one line each, and how they were found;
 * under a part, the desc: lines it has that the first part lacks (a
 * benchmark's name, say).
 */
static void
header_parts(const struct cells *c, const struct selection *sel)
{
	const struct part	*pt;
	size_t			 i, k, n = profile_nparts(sel->p), skipped = 0;

	if (n < 2 && sel->run->prefix == NULL)
		return;
	for (i = 0; i < n; i++)
		skipped += profile_part(sel->p, i)->skipped;
	fprintf(c->out, "Parts:            %zu, summed", n - skipped);
	if (skipped > 0)
		fprintf(c->out, " (%zu more left out)", skipped);
	if (sel->run->prefix != NULL) {
		fputs("; files found by the prefix ", c->out);
		cells_name(c, sel->run->prefix);
	}
	fputc('\n', c->out);
	for (i = 0; i < n; i++) {
		pt = profile_part(sel->p, i);
		fputs("                  ", c->out);
		header_part_name(c, pt);
		if (pt->skipped)
			fputs(", left out", c->out);
		fputc('\n', c->out);
		for (k = 0; i > 0 && k < pt->ndesc; k++)
			if (header_own_desc(sel->p, pt, pt->desc[k])) {
				fputs("                    ", c->out);
				cells_name(c, profile_str(sel->p, pt->desc[k]));
				fputc('\n', c->out);
			}
	}
}
