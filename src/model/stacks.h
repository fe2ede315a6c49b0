/*
 * stacks.h - exact call stacks, where a profile holds them: valgrind's
 * xtree files (--xtree-memory=full, --xtree-leak=yes) write each
 * execution context as one block, its frames outermost first, the
 * innermost holding the self cost.  Kept when asked (flame graphs).
 */
#ifndef CGA_STACKS_H
#define CGA_STACKS_H

#include <stddef.h>
#include <stdint.h>

struct stacks;

struct stacks	*stacks_new(unsigned);
void		 stacks_free(struct stacks *);
int		 stacks_add(struct stacks *, const uint32_t *, size_t,
		    const uint64_t *, unsigned);
size_t		 stacks_count(const struct stacks *);
const uint32_t	*stacks_frames(const struct stacks *, size_t, size_t *);
const uint64_t	*stacks_cost(const struct stacks *, size_t);

#endif /* CGA_STACKS_H */
