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
	{ "text", report_plain, FORMAT_ANNOTATE | FORMAT_ASM |
	    FORMAT_SAYS_READING | FORMAT_BROWSE },
	{ "json", report_json, FORMAT_CALLS | FORMAT_LINES | FORMAT_ASM |
	    FORMAT_WHOLE | FORMAT_QUIET },
	{ "markdown", report_markdown, 0 },
	{ "dot", report_dot, FORMAT_CALLS | FORMAT_GRAPH },
	{ "folded", report_folded, FORMAT_CALLS | FORMAT_STACKS },
	{ "svg", report_svg, FORMAT_CALLS | FORMAT_STACKS },
	{ "speedscope", report_speedscope, FORMAT_CALLS | FORMAT_STACKS |
	    FORMAT_STACKS_EVERY | FORMAT_QUIET | FORMAT_ONE },
	{ "pprof", report_pprof, FORMAT_CALLS | FORMAT_STACKS |
	    FORMAT_STACKS_EVERY | FORMAT_INSTRS |
	    FORMAT_QUIET | FORMAT_BINARY | FORMAT_ONE },
	{ "callgrind", report_callgrind, FORMAT_INSTRS | FORMAT_WHOLE |
	    FORMAT_QUIET | FORMAT_ONE },
	{ NULL, NULL, 0 }
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
