/*
 * format.h - the output formats, one row each: the name --format takes,
 * the view that prints it (report.h) and what it needs of the reading
 * and of the selection (FORMAT_* in reportopts.h).  Adding a format is
 * one view file and one row in format.c.
 */
#ifndef CGA_FORMAT_H
#define CGA_FORMAT_H

#include "select/reportopts.h"

extern const struct format	formats[];	/* ends with a NULL name */

const struct format	*format_find(const char *);

#endif /* CGA_FORMAT_H */
