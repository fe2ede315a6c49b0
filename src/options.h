/*
 * options.h - the command line of cg-annotate, parsed into one struct,
 * which the steps of main.c read through const pointers only: what a
 * run learns goes into a struct report_run.
 */
#ifndef CGA_OPTIONS_H
#define CGA_OPTIONS_H

#include <stddef.h>

#include "analysis/derive.h"
#include "analysis/diff.h"
#include "read/parse.h"
#include "select/reportopts.h"

struct options {
	struct report_opts	 report;	/* what the report shows */
	struct parse_opts	 parse;		/* how profiles are read */
	int			 diff;		/* --diff OLD NEW */
	char			**args;		/* the operands */
	size_t			 nargs;
	struct namemod		 mod_file;	/* --mod-filename */
	struct namemod		 mod_func;	/* --mod-funcname */
	struct derive_opt	*events;	/* --event */
	size_t			 nevents;
	char			*pwd;		/* "$PWD/", stripped from the
						   front of file names */
};

/* What options_parse() found. */
enum options_result {
	OPTIONS_RUN,		/* go on: a report to print */
	OPTIONS_DONE		/* --help or --version printed: exit 0 */
};

enum options_result options_parse(struct options *, int, char *[]);
void		 options_free(struct options *);

#endif /* CGA_OPTIONS_H */
