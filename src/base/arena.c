/*
 * arena.c - bytes allocated in large blocks and freed all at once: the
 * interned strings of a profile, the labels of its rows.
 */
#include "base/compat.h"

#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/xmalloc.h"

#define ARENA_BLOCK	(256 * 1024)		/* the first block */
#define ARENA_MAX	(4 * 1024 * 1024)	/* blocks double up to this */

struct arenablock {
	struct arenablock	*next;
	size_t			 used, size;
	char			 data[];
};

/* A block takes a power of two of bytes, a whole number of huge pages. */
#define ARENA_SLACK	sizeof(struct arenablock)

/*
 * Return size bytes from the arena (not aligned: for strings).  Each new
 * block is twice the one before, up to ARENA_MAX: a few blocks for a
 * small profile, and blocks as big as tables for a big one's 100 MB of
 * C++ names (xmalloc_huge() asks for huge pages there).
 */
char *
arena_alloc(struct arena *a, size_t size)
{
	struct arenablock	*b = a->blocks;
	size_t			 n;
	char			*p;

	if (b == NULL || b->size - b->used < size) {
		if ((b = a->spare) != NULL && b->size >= size)
			a->spare = b->next;
		else {
			if (a->blocks == NULL)
				n = ARENA_BLOCK;
			else if ((n = 2 * (a->blocks->size + ARENA_SLACK)) >
			    ARENA_MAX)
				n = ARENA_MAX;
			n -= ARENA_SLACK;
			if (n < size)
				n = size;
			b = xmalloc_huge(sizeof(*b) + n);
			b->size = n;
		}
		b->used = 0;
		b->next = a->blocks;
		a->blocks = b;
	}
	p = b->data + b->used;
	xahead(b->data, b->used, b->used + size, b->size);
	b->used += size;
	return p;
}

/* Copy len bytes of s into the arena, NUL-terminated. */
char *
arena_strdup(struct arena *a, const char *s, size_t len)
{
	char	*p;

	p = arena_alloc(a, len + 1);
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

/* Empty the arena, keeping its blocks for what comes next. */
void
arena_clear(struct arena *a)
{
	struct arenablock	*b, *next;

	for (b = a->blocks; b != NULL; b = next) {
		next = b->next;
		b->next = a->spare;
		a->spare = b;
	}
	a->blocks = NULL;
}

/* Free the arena's blocks. */
void
arena_free(struct arena *a)
{
	struct arenablock	*b, *next;
	int			 i;

	for (i = 0; i < 2; i++)
		for (b = i == 0 ? a->blocks : a->spare; b != NULL; b = next) {
			next = b->next;
			free(b);
		}
	a->blocks = a->spare = NULL;
}
