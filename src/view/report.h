/*
 * report.h - the views of a profile: each output format is one file
 * with one entry point of the same shape, printing a selection
 * (select.h) to a stream; report_print() makes the selection and picks
 * the view that the options ask for.
 */
#ifndef CGA_REPORT_H
#define CGA_REPORT_H

#include <stdint.h>
#include <stdio.h>

struct profile;
struct report_opts;
struct report_run;
struct selection;

/* What a view returns: 0, or REPORT_ERR_FILE if a named file failed. */
#define REPORT_ERR_FILE	1
/*
 * What pprof's export returns, having written nothing, when the profile
 * keeps only the calls' sites of its machine code (PARSE_INSTRS_SITES)
 * and the export would split functions by instruction: read it again
 * with every instruction and print again.
 */
#define REPORT_NEED_INSTRS	4	/* not GATE_EXIT */

/*
 * Location ids pprof's samples hold at most (report_pprof.c); its stacks
 * are estimated within half as many frames (format.c).
 */
#define REPORT_PPROF_FRAMES	((uint64_t)1 << 21)

typedef int	report_view(FILE *, const struct selection *);

report_view	report_plain;		/* report.c: the text format */
report_view	report_text;		/* report_text.c */
report_view	report_diff;		/* report_diff.c */
report_view	report_totals;		/* report_totals.c */
report_view	report_json;		/* report_json.c */
report_view	report_markdown;	/* report_markdown.c */
report_view	report_dot;		/* report_dot.c */
report_view	report_folded;		/* report_folded.c */
report_view	report_svg;		/* report_svg.c */
report_view	report_speedscope;	/* report_speedscope.c */
report_view	report_pprof;		/* report_pprof.c */
report_view	report_callgrind;	/* report_callgrind.c */
report_view	annotate_files;		/* annotate.c */
report_view	annotate_asm;		/* annotate_asm.c */

int	report_print(FILE *, const struct profile *, const struct profile *,
	    const struct report_opts *, const struct report_run *);

#endif /* CGA_REPORT_H */
