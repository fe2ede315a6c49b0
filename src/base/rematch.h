/*
 * rematch.h - POSIX extended regular expressions matched in time linear
 * in the text (TRE's tagged automaton, not a backtracking or
 * quadratic search), with glibc's messages for the ones that are not
 * well-formed.  --function, --root, --leaf, --fail-above, --mod-* and
 * the browser's search match names a profile can make of any length.
 */
#ifndef CGA_REMATCH_H
#define CGA_REMATCH_H

#include <stddef.h>

#define REMATCH_NSUB	10	/* subexpressions reported, the whole first */

struct rematch;

/* Where a subexpression matched: byte offsets, -1 if it did not. */
struct rematch_span {
	long	so, eo;
};

struct rematch	*rematch_new(const char *, int, char *, size_t);
int		 rematch_test(const struct rematch *, const char *);
int		 rematch_find(const struct rematch *, const char *,
		    struct rematch_span *, int);
void		 rematch_free(struct rematch *);
int		 rematch_posix_check(const char *, int, char *, size_t);

#endif /* CGA_REMATCH_H */
