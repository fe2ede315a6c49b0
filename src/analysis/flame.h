/*
 * flame.h - analysis: call stacks with counts for flame graphs, of one
 * event: exact where the profile holds them (xtree files), else
 * estimated from the call graph.  The counts add up exactly to the sum
 * of the event's self costs.
 */
#ifndef CGA_FLAME_H
#define CGA_FLAME_H

#include <stddef.h>
#include <stdint.h>

struct profile;

struct flame {
	int		 exact;		/* the profile's own stacks */
	size_t		 n;		/* stacks */
	size_t		*start;		/* stack -> its first frame; n + 1 */
	uint32_t	*frames;	/* functions, outermost first */
	uint64_t	*count;
	size_t		 cap, frames_cap;
};

struct flame	*flame_build(const struct profile *, unsigned);
void		 flame_free(struct flame *);

#endif /* CGA_FLAME_H */
