/*
 * srcsel.h - the selection for source annotation: which files are
 * annotated, read and in which order, each line's summed self cost, and
 * the calls made from each line, sorted.
 */
#ifndef CGA_SRCSEL_H
#define CGA_SRCSEL_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "base/srcfile.h"

struct callgraph;
struct fntotals;
struct profile;
struct report_opts;

/* What the source selection starts from: the report's choice. */
struct srcsel_from {
	const struct profile	 *p;
	const struct report_opts *o;
	const struct report_run	 *run;
	int			  every;	/* the files of the printed
						   functions, all (--auto) */
	const uint32_t		 *files;	/* of the printed functions */
	size_t			  nfiles;
	const int		 *sort;		/* the sort events */
	size_t			  nsort;
	unsigned		  nev;
	struct fntotals		**t;		/* the rows, */
	struct callgraph	**g;		/*   and their call graph, made
						   here if a line calls */
};

/* One line of a file with its summed self cost. */
struct annline {
	uint32_t	 file;		/* the file's index */
	uint64_t	 line;
	uint64_t	*cost;
};

/* The calls made from a line to one callee, summed. */
struct anncall {
	uint32_t	 file;		/* the file's index */
	uint64_t	 line;
	uint32_t	 caller, callee;	/* rows */
	uint64_t	 count;
	uint64_t	*cost;
};

/* A file to annotate (or, in JSON, whose lines to list). */
struct annfile {
	const char	*name;		/* as in the profile or as named */
	uint32_t	 id;		/* string id, or UINT32_MAX if unknown */
	int		 user;		/* named on the command line */
	int		 known;		/* the profile has code in it */
	struct srcfile	 src;
	enum srcfile_result found;
	char		*display;	/* name, or "dir + name" */
	struct annline	*lines;		/* its lines with cost, by line */
	size_t		 nlines;
	struct anncall	*calls;		/* the calls from its lines: by
					   line, each line's sorted */
	size_t		 ncalls;
};

struct srcsel {
	struct annfile	*files;		/* in the order of the listings */
	size_t		 nfiles;
	const char	**unfound;	/* automatic files not found, sorted */
	size_t		 nunfound;
	int		 user_missing;	/* a file the user named was not */
	struct annline	*lines;
	size_t		 nlines;
	uint64_t	*lcost;
	struct anncall	*calls;
	size_t		 ncalls;
	uint64_t	*ccost;
	time_t		 profile_mtime;
	int		 have_mtime;
};

struct srcsel	*srcsel_annotate(const struct srcsel_from *);
struct srcsel	*srcsel_lines(const struct srcsel_from *);
void		 srcsel_free(struct srcsel *);

#endif /* CGA_SRCSEL_H */
