/*
 * report.c - the steps of a report: make the selection of a profile (or
 * of a difference), print it with the view the options ask for, and say
 * which --fail-above limits were exceeded.
 */
#include "compat.h"

#include <stdio.h>

#include "gate.h"
#include "report.h"
#include "select.h"

static report_view	*report_view_of(const struct selection *);

/* Return the view that prints sel as its options ask. */
static report_view *
report_view_of(const struct selection *sel)
{
	const struct report_opts *o = sel->o;

	if (o->format == REPORT_JSON)
		return report_json;
	if (o->format == REPORT_MARKDOWN)
		return report_markdown;
	if (o->format == REPORT_DOT)
		return report_dot;
	if (o->format == REPORT_FOLDED)
		return report_folded;
	if (o->format == REPORT_SVG)
		return report_svg;
	if (o->totals_only)
		return report_totals;
	return sel->d != NULL ? report_diff : report_text;
}

/*
 * Print the report of profile p, or with old set of the difference p -
 * old, to out.  Return 0; -1 after an error message if an event named
 * in the options is not in the profile or cannot be derived; 1 if a source file the user
 * named could not be read; GATE_EXIT if a --fail-above limit was
 * exceeded.
 */
int
report_print(FILE *out, const struct profile *p, const struct profile *old,
    const struct report_opts *o)
{
	struct selection	*sel;
	size_t			 i;
	int			 rc;

	if ((sel = select_build(p, old, o)) == NULL)
		return -1;
	/* Once a second thread has run, stdio locks out on every call. */
	flockfile(out);
	rc = report_view_of(sel)(out, sel);
	if (rc == 0 && sel->src != NULL && o->format == REPORT_TEXT)
		rc = annotate_files(out, sel);
	if (sel->asm_ != NULL && o->format == REPORT_TEXT && !o->totals_only &&
	    sel->d == NULL)
		(void)annotate_asm(out, sel);
	funlockfile(out);
	for (i = 0; i < sel->ngres; i++)
		if (sel->gres[i].failed)
			gate_report(&sel->gres[i]);
	if (sel->gates_failed && rc == 0)
		rc = GATE_EXIT;
	select_free(sel);
	return rc;
}
