/*
 * reshape.h - analysis: a profile made again from another with derived
 * events added to every cost, names folded (fold.h), or functions
 * grouped by object or by source file; everything computed from the
 * model afterwards (rows, call graph, cycles, inclusive costs, source
 * annotation, differences) then follows.
 */
#ifndef CGA_RESHAPE_H
#define CGA_RESHAPE_H

#include "model/profile.h"

struct derive;

struct reshape {
	const struct derive *derive;	/* events to add; NULL: none */
	int		 fold;		/* FOLD_* bits */
	enum profile_rows rows;		/* functions, or the groups */
	int		 instrs;	/* machine code: all of it, or none
					   (reshape_instrs_of() adds a
					   function's) */
};

struct profile	*reshape_build(const struct profile *,
		    const struct reshape *, const char *);
void		 reshape_instrs_of(const struct profile *, struct profile *,
		    const struct reshape *, uint32_t, const char *);

#endif /* CGA_RESHAPE_H */
