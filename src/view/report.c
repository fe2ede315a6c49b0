/*
 * report.c - the steps of a report: make the selection of a profile (or
 * of a difference), print it with the view of the format asked for
 * (format.c), and say which --fail-above limits were exceeded.
 */
#include "base/compat.h"

#include <stdio.h>

#include "analysis/gate.h"
#include "select/select.h"
#include "view/report.h"

/*
 * The text format: the totals alone (--totals), the difference
 * (--diff) or callgrind_annotate's report, then annotated sources and
 * machine code.
 */
int
report_plain(FILE *out, const struct selection *sel)
{
	int	rc;

	if (sel->o->totals_only)
		return report_totals(out, sel);
	if (sel->d != NULL)
		return report_diff(out, sel);
	rc = report_text(out, sel);
	if (rc == 0 && sel->src != NULL)
		rc = annotate_files(out, sel);
	if (sel->asm_ != NULL)
		(void)annotate_asm(out, sel);
	return rc;
}

/*
 * Print the report of profile p, or with old set of the difference p -
 * old, to out.  Return 0; -1 after an error message if an event named
 * in the options is not in the profile or cannot be derived; 1 if a source file the user
 * named could not be read; GATE_EXIT if a --fail-above limit was
 * exceeded; REPORT_NEED_INSTRS (report.h) with nothing written or said.
 */
int
report_print(FILE *out, const struct profile *p, const struct profile *old,
    const struct report_opts *o, const struct report_run *run)
{
	struct selection	*sel;
	size_t			 i;
	int			 rc;

	if ((sel = select_build(p, old, o, run)) == NULL)
		return -1;
	/* Once a second thread has run, stdio locks out on every call. */
	flockfile(out);
	rc = o->format->view(out, sel);
	funlockfile(out);
	if (rc == REPORT_NEED_INSTRS) {
		select_free(sel);
		return rc;		/* nothing said yet */
	}
	for (i = 0; i < sel->ngres; i++)
		if (sel->gres[i].failed)
			gate_report(&sel->gres[i]);
	if (sel->gates_failed && rc == 0)
		rc = GATE_EXIT;
	select_free(sel);
	return rc;
}
