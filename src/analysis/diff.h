/*
 * diff.h - analysis: the difference NEW - OLD of two profiles, function
 * by function, after rewriting file and function names so that two
 * builds line up (--mod-filename, --mod-funcname).
 */
#ifndef CGA_DIFF_H
#define CGA_DIFF_H

#include <stddef.h>
#include <stdint.h>

#include "base/num.h"

struct profile;
struct rematch;

/* A rewrite s/REGEX/REPL/[g] of names. */
struct namemod {
	struct rematch	*re;
	char		*repl;
	int		 global;
	int		 set;
};

struct diffrow {
	char		*file;		/* rewritten */
	char		*name;		/* rewritten */
	char		*label;		/* "file:name" */
	uint64_t	*old, *new;	/* costs; COST_NONE never recorded */
};

struct diff {
	unsigned	 nevents;
	struct diffrow	*rows;
	size_t		 nrows, rows_cap;
	uint64_t	*old_total, *new_total;
};

int		 namemod_parse(struct namemod *, const char *, char *,
		    size_t);
char		*namemod_apply(const struct namemod *, const char *);
char		*namemod_label(const struct namemod *, const struct namemod *,
		    const char *, const char *, int, char **, char **);
void		 namemod_free(struct namemod *);

int		 diff_events(const struct profile *, const struct profile *,
		    int *);
int		 diff_value(uint64_t, uint64_t, struct snum *);
struct diff	*diff_build(const struct profile *, const struct profile *,
		    int, const struct namemod *, const struct namemod *);
void		 diff_free(struct diff *);

#endif /* CGA_DIFF_H */
