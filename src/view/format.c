/*
 * format.c - the table of output formats: each row names a format, the
 * view that prints it and what it needs (reportopts.h).  options.c reads
 * the names (and --help its list), the parser options and the selection
 * the needs, report.c the view.
 */
#include "base/compat.h"

#include <stddef.h>
#include <string.h>

#include "view/format.h"
#include "view/report.h"

/* The formats, the default first, in the order --help lists them. */
const struct format formats[] = {
	{ "text", report_plain, FORMAT_ROWS | FORMAT_ANNOTATE | FORMAT_ASM |
	    FORMAT_SAYS_READING | FORMAT_BROWSE, 0 },
	{ "json", report_json, FORMAT_ROWS | FORMAT_CALLS | FORMAT_LINES |
	    FORMAT_LINENO |
	    FORMAT_ASM | FORMAT_WHOLE | FORMAT_QUIET, 0 },
	{ "markdown", report_markdown, FORMAT_ROWS, 0 },
	{ "dot", report_dot, FORMAT_ROWS | FORMAT_CALLS | FORMAT_GRAPH, 0 },
	{ "folded", report_folded, FORMAT_STACKS, 0 },
	{ "svg", report_svg, FORMAT_STACKS, 0 },
	{ "speedscope", report_speedscope, FORMAT_STACKS |
	    FORMAT_STACKS_EVERY | FORMAT_QUIET | FORMAT_ONE, 0 },
	/* Stacks Go's pprof reads in seconds: see report_pprof.c. */
	{ "pprof", report_pprof, FORMAT_STACKS |
	    FORMAT_STACKS_EVERY | FORMAT_INSTRS | FORMAT_SITES |
	    FORMAT_QUIET | FORMAT_BINARY | FORMAT_ONE | FORMAT_LINENO,
	    REPORT_PPROF_FRAMES / 2 },
	{ "callgrind", report_callgrind, FORMAT_INSTRS | FORMAT_WHOLE |
	    FORMAT_QUIET | FORMAT_ONE | FORMAT_LINENO, 0 },
	{ NULL, NULL, 0, 0 }
};

/* Return the format named name, or NULL. */
const struct format *
format_find(const char *name)
{
	const struct format	*f;

	for (f = formats; f->name != NULL; f++)
		if (strcmp(f->name, name) == 0)
			return f;
	return NULL;
}
