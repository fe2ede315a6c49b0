/*
 * keytab.c - open-addressing hash map from word tuples to dense ids;
 * the keys live in one array indexed by id, so a table costs little
 * more than its keys.  A table may also be indexed by one word of its
 * keys, a small dense number (a string or function id): the keys of a
 * word that few keys share (up to KEYTAB_CHAIN) are found through that
 * index and a chain of their ids, without hashing, and are read about
 * in the order ids are made (a function's pairs are made together);
 * only the keys of words shared by more go to the hash table.
 */
#include "base/compat.h"

#include <stdlib.h>
#include <string.h>

#include "base/hash.h"
#include "base/keytab.h"
#include "base/xmalloc.h"

#define KEYTAB_MANY	(UINT32_MAX - 1)	/* index: word shared by
						   more than */
#define KEYTAB_CHAIN	8			/*   this many keys */

static uint64_t	keytab_hash(const uint64_t *, unsigned);
static void	keytab_resize(struct keytab *, uint32_t);
static uint32_t	keytab_probe(const struct keytab *, const uint64_t *);
static uint32_t	keytab_append(struct keytab *, const uint64_t *);
static void	keytab_hash_put(struct keytab *, uint32_t);
static void	keytab_index_grow(struct keytab *, uint64_t);
static uint32_t	keytab_chain(const struct keytab *, uint32_t,
		    const uint64_t *, uint32_t *);
static void	keytab_keys_grow(struct keytab *, uint32_t);

/* Make kt an empty map of keys of width words. */
void
keytab_init(struct keytab *kt, unsigned width)
{
	memset(kt, 0, sizeof(*kt));
	kt->width = width;
	kt->word = -1;
	kt->mask = 255;
	kt->slots = xcalloc(kt->mask + 1, sizeof(*kt->slots));
}

/*
 * Make kt an empty map of keys of width words, indexed by their word
 * number word, whose values must be small and dense (the index has an
 * entry for every value up to the largest).
 */
void
keytab_init_indexed(struct keytab *kt, unsigned width, unsigned word)
{
	keytab_init(kt, width);
	kt->word = (int)word;
}

/* Free what kt holds. */
void
keytab_free(struct keytab *kt)
{
	free(kt->keys);
	free(kt->slots);
	free(kt->head);
	free(kt->next);
	memset(kt, 0, sizeof(*kt));
}

/* Empty kt, keeping its memory. */
void
keytab_clear(struct keytab *kt)
{
	kt->n = kt->nhashed = 0;
	memset(kt->slots, 0, ((size_t)kt->mask + 1) * sizeof(*kt->slots));
	if (kt->head != NULL)
		memset(kt->head, 0xff, kt->nhead * sizeof(*kt->head));
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

/* Make the slot array mask + 1 slots long and move every id there. */
static void
keytab_resize(struct keytab *kt, uint32_t mask)
{
	uint32_t	*old = kt->slots, i, j, omask = kt->mask;

	/*
	 * Zeroed by writing, not calloc(): a page of fresh memory read
	 * first maps the shared zero page, and the write that follows
	 * replaces it, which stops the other thread to flush its TLB.
	 */
	kt->slots = xreallocarray(NULL, (size_t)mask + 1, sizeof(*kt->slots));
	xfill(kt->slots, 0, ((size_t)mask + 1) * sizeof(*kt->slots));
	kt->mask = mask;
	for (i = 0; i <= omask; i++) {
		if (old[i] == 0)
			continue;
		j = keytab_hash(keytab_key(kt, old[i] - 1), kt->width) & mask;
		while (kt->slots[j] != 0)
			j = (j + 1) & mask;
		kt->slots[j] = old[i];
	}
	free(old);
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

/* Look key up in the hash table: return its id, or KEYTAB_NONE. */
static uint32_t
keytab_probe(const struct keytab *kt, const uint64_t *key)
{
	uint32_t	j, id;

	j = keytab_hash(key, kt->width) & kt->mask;
	for (; kt->slots[j] != 0; j = (j + 1) & kt->mask) {
		id = kt->slots[j] - 1;
		if (keytab_eq(keytab_key(kt, id), key, kt->width))
			return id;
	}
	return KEYTAB_NONE;
}

/*
 * Start loading what keytab_find() reads for key: at stage 0 the index
 * entry or hash slot, at stage 1 (that loaded) the key it leads to.  A
 * loop looking up many keys asks for both some keys ahead, so that their
 * cache misses overlap.
 */
void
keytab_prefetch(const struct keytab *kt, const uint64_t *key, int stage)
{
	uint64_t	v;
	uint32_t	h, j;

	if (kt->word >= 0) {
		if ((v = key[kt->word]) >= kt->nhead)
			return;
		if (stage == 0) {
			__builtin_prefetch(&kt->head[v]);
			return;
		}
		if ((h = kt->head[v]) < kt->n) {
			/* The newest of a chain, and the link to the next. */
			__builtin_prefetch(keytab_key(kt, h));
			__builtin_prefetch(&kt->next[h]);
			return;
		}
		if (h != KEYTAB_MANY)
			return;
		stage = 0;	/* the slot, no further */
	}
	j = keytab_hash(key, kt->width) & kt->mask;
	if (stage == 0)
		__builtin_prefetch(&kt->slots[j]);
	else if (kt->slots[j] != 0)
		__builtin_prefetch(keytab_key(kt, kt->slots[j] - 1));
}

/* Return the id of key, or KEYTAB_NONE if it is not in the map. */
uint32_t
keytab_find(const struct keytab *kt, const uint64_t *key)
{
	uint64_t	v;
	uint32_t	h;

	if (kt->word >= 0) {
		if ((v = key[kt->word]) >= kt->nhead)
			return KEYTAB_NONE;
		if ((h = kt->head[v]) != KEYTAB_MANY)
			return keytab_chain(kt, h, key, NULL);
	}
	return keytab_probe(kt, key);
}

/*
 * Look for key in the chain from h (a word's keys, newest first):
 * return its id, or KEYTAB_NONE with *len (if not NULL) set to the
 * chain's length.
 */
static uint32_t
keytab_chain(const struct keytab *kt, uint32_t h, const uint64_t *key,
    uint32_t *len)
{
	uint32_t	n = 0;

	for (; h != KEYTAB_NONE; h = kt->next[h], n++)
		if (keytab_eq(keytab_key(kt, h), key, kt->width))
			return h;
	if (len != NULL)
		*len = n;
	return KEYTAB_NONE;
}

/* Make room for cap keys (and their links, in an indexed table). */
static void
keytab_keys_grow(struct keytab *kt, uint32_t cap)
{
	kt->cap = cap;
	kt->keys = xreallocarray(kt->keys, (size_t)cap * kt->width,
	    sizeof(*kt->keys));
	if (kt->word >= 0)
		kt->next = xreallocarray(kt->next, cap, sizeof(*kt->next));
}

/* Give key the next id and return it. */
static uint32_t
keytab_append(struct keytab *kt, const uint64_t *key)
{
	uint32_t	id;

	if (kt->n >= KEYTAB_MANY - 1)
		abort();
	if (kt->n == kt->cap)
		keytab_keys_grow(kt, kt->cap ? kt->cap * 2 : 256);
	id = kt->n++;
	memcpy(kt->keys + (uint64_t)id * kt->width, key,
	    kt->width * sizeof(*key));
	return id;
}

/* Put id, not there yet, into the hash table. */
static void
keytab_hash_put(struct keytab *kt, uint32_t id)
{
	uint32_t	j;

	if ((uint64_t)(kt->nhashed + 1) * 2 > kt->mask)
		keytab_resize(kt, kt->mask * 2 + 1);
	j = keytab_hash(keytab_key(kt, id), kt->width) & kt->mask;
	while (kt->slots[j] != 0)
		j = (j + 1) & kt->mask;
	kt->slots[j] = id + 1;
	kt->nhashed++;
}

/* Make the index reach value v. */
static void
keytab_index_grow(struct keytab *kt, uint64_t v)
{
	if (v >= SIZE_MAX / sizeof(*kt->head) / 2)
		abort();
	kt->head = xgrow_fill(kt->head, &kt->nhead, (size_t)v + 1,
	    sizeof(*kt->head), 0xff);
}

/* Return the id of key, adding it if new; *created says which. */
uint32_t
keytab_get(struct keytab *kt, const uint64_t *key, int *created)
{
	uint64_t	 v = 0;
	uint32_t	 id, h, n = 0;
	int		 chained;

	if (kt->word >= 0 && (v = key[kt->word]) >= kt->nhead)
		keytab_index_grow(kt, v);
	chained = kt->word >= 0 && kt->head[v] != KEYTAB_MANY;
	id = chained ? keytab_chain(kt, kt->head[v], key, &n) :
	    keytab_find(kt, key);
	if (created != NULL)
		*created = id == KEYTAB_NONE;
	if (id != KEYTAB_NONE)
		return id;
	id = keytab_append(kt, key);
	if (!chained)
		keytab_hash_put(kt, id);
	else if (n < KEYTAB_CHAIN) {
		kt->next[id] = kt->head[v];
		kt->head[v] = id;
	} else {
		/* One key more than a chain holds: the word's all hashed. */
		for (h = kt->head[v]; h != KEYTAB_NONE; h = kt->next[h])
			keytab_hash_put(kt, h);
		keytab_hash_put(kt, id);
		kt->head[v] = KEYTAB_MANY;
	}
	return id;
}

/*
 * Make room for n keys in all, so that adding up to them grows nothing
 * (but the index of an indexed table, and its hash table of the keys of
 * words shared by more than a chain, which may be few).
 */
void
keytab_reserve(struct keytab *kt, uint32_t n)
{
	uint32_t	mask = kt->mask;

	while (kt->word < 0 && (uint64_t)n * 2 > mask &&
	    mask < UINT32_MAX / 2)
		mask = mask * 2 + 1;
	if (mask != kt->mask)
		keytab_resize(kt, mask);
	if (n > kt->cap)
		keytab_keys_grow(kt, n);
}
