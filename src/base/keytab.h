/*
 * keytab.h - a map from fixed-width tuples of 64-bit words to dense
 * 32-bit ids 0, 1, 2, ... in order of first insertion.
 */
#ifndef CGA_KEYTAB_H
#define CGA_KEYTAB_H

#include <stdint.h>

#define KEYTAB_NONE	UINT32_MAX

struct keytab {
	unsigned	 width;		/* words per key */
	uint64_t	*keys;		/* id * width -> key words */
	uint32_t	 n, cap;	/* ids used, allocated */
	uint32_t	*slots;		/* id + 1, or 0 for empty */
	uint32_t	 mask;		/* slot count - 1 */
	uint32_t	 nhashed;	/* ids in slots */
	int		 word;		/* the word indexed, or -1 */
	uint32_t	*head;		/* its value -> the newest id with it,
					   NONE, or MANY: look in slots */
	size_t		 nhead;
	uint32_t	*next;		/* id -> the id before it with its
					   word, or NONE (the chain of head) */
};

void		 keytab_init(struct keytab *, unsigned);
void		 keytab_init_indexed(struct keytab *, unsigned, unsigned);
void		 keytab_free(struct keytab *);
void		 keytab_clear(struct keytab *);
uint32_t	 keytab_get(struct keytab *, const uint64_t *, int *);
uint32_t	 keytab_find(const struct keytab *, const uint64_t *);
void		 keytab_prefetch(const struct keytab *, const uint64_t *, int);
void		 keytab_reserve(struct keytab *, uint32_t);

/*
 * Return the one-word key of a pair of 32-bit ids, hi in the upper half
 * (a table of width 1 keyed by pairs).
 */
static inline uint64_t
keytab_pair(uint32_t hi, uint32_t lo)
{
	return (uint64_t)hi << 32 | lo;
}

/* Return the key words of id. */
static inline const uint64_t *
keytab_key(const struct keytab *kt, uint32_t id)
{
	return kt->keys + (uint64_t)id * kt->width;
}

#endif /* CGA_KEYTAB_H */
