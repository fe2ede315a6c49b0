/*
 * report_diff.c - the text report of a difference NEW - OLD: the
 * header, the old, new and changed totals, and the functions' changes
 * in the order and down to the threshold that select.c chose.
 * Percentages are of OLD's totals.
 */
#include "base/compat.h"

#include <stdio.h>
#include <stdlib.h>

#include "analysis/diff.h"
#include "select/select.h"
#include "view/cells.h"
#include "view/header.h"
#include "view/report.h"

/* Print the text report of a difference.  Return 0. */
int
report_diff(FILE *out, const struct selection *sel)
{
	const struct report_opts *o = sel->o;
	const struct diff	*d = sel->d;
	struct cells		 c;
	unsigned		*w;
	size_t			 i;

	cells_init(&c, out, sel);
	fputs(FANCY, out);
	fprintf(out, "Differences: '%s' minus '%s'\n" FANCY,
	    sel->run->profile_name, sel->run->old_name);
	header_tail(&c, sel);
	fprintf(out, "Rewritten names:  %s\n\n", o->mod_file->set &&
	    o->mod_func->set ? "files, functions" : o->mod_file->set ?
	    "files" : o->mod_func->set ? "functions" : "none");
	w = cells_widths_new(&c);
	cells_widths_add(&c, w, d->old_total);
	cells_widths_add(&c, w, d->new_total);
	cells_swidths_add(&c, w, sel->tdelta, sel->tdef);
	fputs(FANCY, out);
	cells_events(&c, w);
	fputs("\n" FANCY, out);
	cells_cost(&c, d->old_total, w);
	fprintf(out, " OLD TOTALS: %s\n", sel->run->old_name);
	cells_cost(&c, d->new_total, w);
	fprintf(out, " NEW TOTALS: %s\n", sel->run->profile_name);
	cells_scost(&c, sel->tdelta, sel->tdef, w);
	fputs(" PROGRAM TOTALS (change)\n\n", out);
	free(w);

	/* The widths fit every change, printed or not. */
	w = cells_widths_new(&c);
	for (i = 0; i < sel->ndrows; i++)
		cells_swidths_add(&c, w, sel->drows[i].delta,
		    sel->drows[i].def);
	fputs(FANCY, out);
	cells_events(&c, w);
	fprintf(out, " %s\n" FANCY, select_rowname(sel));
	for (i = 0; i < sel->ndsel; i++) {
		cells_scost(&c, sel->drows[i].delta, sel->drows[i].def, w);
		fputc(' ', out);
		cells_name(&c, sel->drows[i].r->label);
		fputc('\n', out);
	}
	fputc('\n', out);
	free(w);
	return 0;
}
