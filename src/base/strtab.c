/*
 * strtab.c - string interning: an open-addressing hash over ids, with
 * the bytes kept NUL-terminated in large arena blocks.
 */
#include "base/compat.h"

#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/hash.h"
#include "base/strtab.h"
#include "base/xmalloc.h"

/* A slot: the high half of a string's hash, and its id + 1. */
#define STRTAB_SLOT(h, id) ((h) >> 32 << 32 | ((uint64_t)(id) + 1))

struct strtab {
	const char	**strs;		/* id -> bytes */
	uint32_t	 *lens;		/* id -> length */
	uint64_t	 *hashes;	/* id -> hash */
	uint32_t	  n, cap;	/* ids used, allocated */
	uint64_t	 *slots;	/* the hash's high half << 32 |
					   id + 1, or 0 for empty */
	uint32_t	  mask;		/* slot count - 1 */
	struct arena	  bytes;	/* the strings */
};

static void	strtab_grow(struct strtab *);
static uint32_t	strtab_add(struct strtab *, const char *, size_t,
		    uint64_t);
static uint32_t	strtab_probe(const struct strtab *, const char *, size_t,
		    uint64_t, uint32_t *);

/* Create an empty table holding only the empty string as id 0. */
struct strtab *
strtab_create(void)
{
	struct strtab	*st;

	st = xcalloc(1, sizeof(*st));
	st->mask = 1023;
	st->slots = xcalloc(st->mask + 1, sizeof(*st->slots));
	strtab_intern(st, "", 0);
	return st;
}

/* Free the table and all its strings. */
void
strtab_free(struct strtab *st)
{
	if (st == NULL)
		return;
	arena_free(&st->bytes);
	free(st->strs);
	free(st->lens);
	free(st->hashes);
	free(st->slots);
	free(st);
}

/* Empty the table but for the empty string, keeping its memory. */
void
strtab_clear(struct strtab *st)
{
	arena_clear(&st->bytes);
	st->n = 0;
	memset(st->slots, 0, ((size_t)st->mask + 1) * sizeof(*st->slots));
	strtab_intern(st, "", 0);
}

/* Double the slot array and rehash every id into it. */
static void
strtab_grow(struct strtab *st)
{
	uint32_t	i, j, mask = st->mask * 2 + 1;

	free(st->slots);
	/* Zeroed by writing: see keytab_resize(). */
	st->slots = xreallocarray(NULL, (size_t)mask + 1, sizeof(*st->slots));
	xfill(st->slots, 0, ((size_t)mask + 1) * sizeof(*st->slots));
	st->mask = mask;
	for (i = 0; i < st->n; i++) {
		j = st->hashes[i] & mask;
		while (st->slots[j] != 0)
			j = (j + 1) & mask;
		st->slots[j] = STRTAB_SLOT(st->hashes[i], i);
	}
}

/*
 * Look for s (len bytes, hash h): return its id, or UINT32_MAX with
 * *slot set to the empty slot where it would go.  A slot holds half of
 * its string's hash: the strings of other slots on the way are not
 * loaded (each was a cache miss).
 */
static uint32_t
strtab_probe(const struct strtab *st, const char *s, size_t len, uint64_t h,
    uint32_t *slot)
{
	uint64_t	v;
	uint32_t	j, id;

	for (j = h & st->mask; (v = st->slots[j]) != 0;
	    j = (j + 1) & st->mask) {
		if (v >> 32 != h >> 32)
			continue;
		id = (uint32_t)v - 1;
		if (st->lens[id] == len && memcmp(st->strs[id], s, len) == 0)
			return id;
	}
	*slot = j;
	return UINT32_MAX;
}

/* Return the id of the string s of len bytes, adding it if new. */
uint32_t
strtab_intern(struct strtab *st, const char *s, size_t len)
{
	return strtab_add(st, s, len, hash_bytes(s, len));
}

/* Return the id in st of string id of src, adding it if new. */
uint32_t
strtab_copy(struct strtab *st, const struct strtab *src, uint32_t id)
{
	return strtab_add(st, src->strs[id], src->lens[id], src->hashes[id]);
}

/* Start loading where string id's bytes and length are kept. */
void
strtab_prefetch(const struct strtab *st, uint32_t id)
{
	__builtin_prefetch(&st->strs[id]);
	__builtin_prefetch(&st->lens[id]);
}

/*
 * Start loading the slot where strtab_copy() of string id of src will
 * look first: a loop copying many strings asks some strings ahead.
 */
void
strtab_copy_prefetch(const struct strtab *st, const struct strtab *src,
    uint32_t id)
{
	__builtin_prefetch(&st->slots[src->hashes[id] & st->mask]);
}

/* Return the id of s (len bytes, hash h), adding it if new. */
static uint32_t
strtab_add(struct strtab *st, const char *s, size_t len, uint64_t h)
{
	uint32_t	j, id;

	if ((id = strtab_probe(st, s, len, h, &j)) != UINT32_MAX)
		return id;
	if (len > UINT32_MAX - 1 || st->n == UINT32_MAX - 1)
		abort();
	if (st->n == st->cap) {
		st->cap = st->cap ? st->cap * 2 : 1024;
		st->strs = xreallocarray(st->strs, st->cap, sizeof(*st->strs));
		st->lens = xreallocarray(st->lens, st->cap, sizeof(*st->lens));
		st->hashes = xreallocarray(st->hashes, st->cap,
		    sizeof(*st->hashes));
	}
	id = st->n++;
	st->strs[id] = arena_strdup(&st->bytes, s, len);
	st->lens[id] = (uint32_t)len;
	st->hashes[id] = h;
	st->slots[j] = STRTAB_SLOT(h, id);
	if ((uint64_t)st->n * 2 > st->mask)
		strtab_grow(st);
	return id;
}

/* Return the id of a string already in the table, or UINT32_MAX. */
uint32_t
strtab_find(const struct strtab *st, const char *s, size_t len)
{
	uint32_t	slot;

	return strtab_probe(st, s, len, hash_bytes(s, len), &slot);
}

/* Return the NUL-terminated bytes of id. */
const char *
strtab_get(const struct strtab *st, uint32_t id)
{
	return st->strs[id];
}

/* Return the length of id in bytes. */
size_t
strtab_len(const struct strtab *st, uint32_t id)
{
	return st->lens[id];
}

/* Return how many distinct strings the table holds. */
uint32_t
strtab_count(const struct strtab *st)
{
	return st->n;
}
