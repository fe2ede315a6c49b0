/*
 * report_totals.c - --totals: one "EVENT VALUE" line per shown event,
 * the program totals or, with --diff, their change ("." where the
 * event was never recorded).
 */
#include "base/compat.h"

#include <stdio.h>

#include "base/cost.h"
#include "model/profile.h"
#include "select/select.h"
#include "view/cells.h"
#include "view/report.h"

/* Print the totals, or their change, of a selection.  Return 0. */
int
report_totals(FILE *out, const struct selection *sel)
{
	struct cells	c;
	size_t		i;
	int		e;

	cells_init(&c, out, sel);
	for (i = 0; i < sel->nshow; i++) {
		e = sel->show[i];
		cells_name(&c, profile_str(sel->p, profile_event(sel->p,
		    (unsigned)e)));
		if (sel->d != NULL ? !sel->tdef[e] : sel->total[e] == COST_NONE)
			fputs(" .\n", out);
		else if (sel->d != NULL)
			fprintf(out, " %s%llu\n", sel->tdelta[e].neg ? "-" : "",
			    (unsigned long long)sel->tdelta[e].mag);
		else
			fprintf(out, " %llu\n",
			    (unsigned long long)sel->total[e]);
	}
	return 0;
}
