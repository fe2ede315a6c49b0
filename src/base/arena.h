/*
 * arena.h - bytes allocated in large blocks and freed all at once.
 */
#ifndef CGA_ARENA_H
#define CGA_ARENA_H

#include <stddef.h>

struct arenablock;

struct arena {
	struct arenablock	*blocks;	/* newest first */
	struct arenablock	*spare;		/* emptied by arena_clear() */
};

char	*arena_strdup(struct arena *, const char *, size_t);
char	*arena_alloc(struct arena *, size_t);
void	 arena_clear(struct arena *);
void	 arena_free(struct arena *);

#endif /* CGA_ARENA_H */
