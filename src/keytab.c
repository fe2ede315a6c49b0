/*
 * keytab.c - open-addressing hash map from word tuples to dense ids;
 * the keys live in one array indexed by id, so a table costs little
 * more than its keys.
 */
#include "compat.h"

#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "keytab.h"
#include "xmalloc.h"

static uint64_t	keytab_hash(const uint64_t *, unsigned);
static void	keytab_resize(struct keytab *, uint32_t);

/* Make kt an empty map of keys of width words. */
void
keytab_init(struct keytab *kt, unsigned width)
{
	memset(kt, 0, sizeof(*kt));
	kt->width = width;
	kt->mask = 255;
	kt->slots = xcalloc(kt->mask + 1, sizeof(*kt->slots));
}

/* Free what kt holds. */
void
keytab_free(struct keytab *kt)
{
	free(kt->keys);
	free(kt->slots);
	memset(kt, 0, sizeof(*kt));
}

/* Empty kt, keeping its memory. */
void
keytab_clear(struct keytab *kt)
{
	kt->n = 0;
	memset(kt->slots, 0, ((size_t)kt->mask + 1) * sizeof(*kt->slots));
}

/* Hash a key of width words. */
static uint64_t
keytab_hash(const uint64_t *key, unsigned width)
{
	uint64_t	h = 0x2545f4914f6cdd1dULL;
	unsigned	i;

	for (i = 0; i < width; i++)
		h = hash_word(h ^ key[i]) + i;
	return h;
}

/* Make the slot array mask + 1 slots long and reinsert every id. */
static void
keytab_resize(struct keytab *kt, uint32_t mask)
{
	uint32_t	i, j;

	free(kt->slots);
	/*
	 * Zeroed by writing, not calloc(): a page of fresh memory read
	 * first maps the shared zero page, and the write that follows
	 * replaces it, which stops the other thread to flush its TLB.
	 */
	kt->slots = xreallocarray(NULL, (size_t)mask + 1, sizeof(*kt->slots));
	memset(kt->slots, 0, ((size_t)mask + 1) * sizeof(*kt->slots));
	kt->mask = mask;
	for (i = 0; i < kt->n; i++) {
		j = keytab_hash(keytab_key(kt, i), kt->width) & mask;
		while (kt->slots[j] != 0)
			j = (j + 1) & mask;
		kt->slots[j] = i + 1;
	}
}

/* Return nonzero if the keys of width words at a and b are equal. */
static inline int
keytab_eq(const uint64_t *a, const uint64_t *b, unsigned width)
{
	unsigned	i;

	for (i = 0; i < width; i++)
		if (a[i] != b[i])
			return 0;
	return 1;
}

/* Return the id of key, or KEYTAB_NONE if it is not in the map. */
uint32_t
keytab_find(const struct keytab *kt, const uint64_t *key)
{
	uint32_t	 j, id;

	j = keytab_hash(key, kt->width) & kt->mask;
	for (; kt->slots[j] != 0; j = (j + 1) & kt->mask) {
		id = kt->slots[j] - 1;
		if (keytab_eq(keytab_key(kt, id), key, kt->width))
			return id;
	}
	return KEYTAB_NONE;
}

/* Return the id of key, adding it if new; *created says which. */
uint32_t
keytab_get(struct keytab *kt, const uint64_t *key, int *created)
{
	size_t		 bytes = kt->width * sizeof(*key);
	uint32_t	 j, id;

	j = keytab_hash(key, kt->width) & kt->mask;
	for (; kt->slots[j] != 0; j = (j + 1) & kt->mask) {
		id = kt->slots[j] - 1;
		if (keytab_eq(keytab_key(kt, id), key, kt->width)) {
			if (created != NULL)
				*created = 0;
			return id;
		}
	}
	if (kt->n == UINT32_MAX - 1)
		abort();
	if (kt->n == kt->cap) {
		kt->cap = kt->cap ? kt->cap * 2 : 256;
		kt->keys = xreallocarray(kt->keys, (size_t)kt->cap * kt->width,
		    sizeof(*kt->keys));
	}
	id = kt->n++;
	memcpy(kt->keys + (uint64_t)id * kt->width, key, bytes);
	kt->slots[j] = id + 1;
	if ((uint64_t)kt->n * 2 > kt->mask)
		keytab_resize(kt, kt->mask * 2 + 1);
	if (created != NULL)
		*created = 1;
	return id;
}

/* Make room for n keys in all, so that adding up to them grows nothing. */
void
keytab_reserve(struct keytab *kt, uint32_t n)
{
	uint32_t	mask = kt->mask;

	while ((uint64_t)n * 2 > mask && mask < UINT32_MAX / 2)
		mask = mask * 2 + 1;
	if (mask != kt->mask)
		keytab_resize(kt, mask);
	if (n > kt->cap) {
		kt->cap = n;
		kt->keys = xreallocarray(kt->keys, (size_t)kt->cap * kt->width,
		    sizeof(*kt->keys));
	}
}
