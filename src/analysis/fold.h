/*
 * fold.h - analysis: the names callgrind gives recursion levels and
 * caller contexts (--separate-recs, --separate-callers: "f'2'g'h"),
 * folded back into the function's own name.
 */
#ifndef CGA_FOLD_H
#define CGA_FOLD_H

#include <stddef.h>

#define FOLD_RECURSION	1	/* "f'2" -> "f" */
#define FOLD_CONTEXTS	2	/* "f'g'h" -> "f" */

size_t	fold_name(const char *, size_t, int, char *);

#endif /* CGA_FOLD_H */
