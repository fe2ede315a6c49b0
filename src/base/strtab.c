/*
 * strtab.c - string interning: an open-addressing hash over ids, with
 * the bytes kept NUL-terminated in large arena blocks.  Long strings
 * (C++ template names of a kilobyte and more) are kept compressed with
 * zstd against a dictionary made of the first long strings the table
 * held, with statistics of the next ones, and decompressed the first
 * time they are asked for: most names of a large program are never
 * printed.  Long strings read from a file that stays open (a profile
 * read from disk) are not kept at all: the table keeps where they are
 * in it, and reads them back when they are asked for.
 */
#include "base/compat.h"

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zdict.h>
#include <zstd.h>

#include "base/arena.h"
#include "base/hash.h"
#include "base/hooks.h"
#include "base/strtab.h"
#include "base/xmalloc.h"

/* A slot: the high half of a string's hash, and its id + 1. */
#define STRTAB_SLOT(h, id) ((h) >> 32 << 32 | ((uint64_t)(id) + 1))

/*
 * Strings of STRTAB_LONG bytes or more are compressed once the table
 * has held STRTAB_START bytes of them, with a dictionary made of the
 * first STRTAB_DICT bytes.  The names of a large C++ program (93 MB,
 * 1.5 KB each, cga-synth -g -x) take 8.8 MB at level 1, 3 us a name to
 * compress and 0.8 to decompress; below 256 bytes a name saves less
 * than the time it takes.  A program with a few MB of such names (gcc's
 * cc1plus: 1.4 MB) is not worth the time nor the contexts' memory.
 */
#define STRTAB_LONG	256
#define STRTAB_DICT	(64 * 1024)
#define STRTAB_START	(4 * 1024 * 1024)
#define STRTAB_LEVEL	1
#define STRTAB_SAMPLES	(256 * 1024)	/* names after it, for its */
#define STRTAB_NSAMPLES	4096		/*   statistics, at most, */
#define STRTAB_MINSAMPLES 64		/*   at least */
#define STRTAB_HEADER	(16 * 1024)	/* its statistics' bytes, at most */
#define STRTAB_DICTID	0x7fffffff	/* no frame names it: any */
#define STRTAB_FILES	255		/* files a table's strings are left
					   in, at most */

/*
 * A file that long strings are left in, read back with pread(2): a
 * descriptor of its own, shared by the tables that name it.
 */
struct strsrc {
	int		 fd;
	char		*name;		/* for messages */
	atomic_uint	 refs;
};

/* A dictionary, shared by a table and the tables that follow it. */
struct strdict {
	ZSTD_CDict	*cd;
	ZSTD_DDict	*dd;
	atomic_uint	 refs;
};

struct strtab {
	const char	**strs;		/* id -> bytes, or compressed bytes */
	uint32_t	 *lens;		/* id -> length */
	uint32_t	 *zlens;	/* id -> compressed length, 0 if kept
					   as is; NULL while none is */
	uint64_t	 *hashes;	/* id -> hash */
	uint32_t	  n, cap;	/* ids used, allocated */
	uint32_t	  nblank;	/* ids of strtab_blank() */
	uint64_t	 *slots;	/* the hash's high half << 32 |
					   id + 1, or 0 for empty */
	uint32_t	  mask;		/* slot count - 1 */
	struct arena	  bytes;	/* the strings */
	struct strdict	*_Atomic dict;	/* NULL until made or followed */
	int		  follows;	/* takes another table's, makes none */
	uint32_t	  npacked;	/* strings compressed */
	char		 *gather;	/* long strings toward a dictionary: */
	size_t		  ngather;	/*   its content, then samples */
	size_t		 *sizes;	/*   of these lengths, for its */
	unsigned	  nsizes;	/*   statistics */
	uint64_t	  nlong;	/* bytes of long strings held */
	ZSTD_CCtx	 *zc;
	char		 *zbuf;		/* scratch: compressed, */
	size_t		  zbuf_cap;
	char		 *ubuf[2];	/*   and decompressed */
	size_t		  ubuf_cap[2];
	_Atomic(char *)	 *copies;	/* id -> decompressed or read copy,
					   or NULL; NULL while none can be */
	struct strsrc	**files;	/* files strings are left in */
	unsigned	  nfiles;
	uint8_t		 *far;		/* id -> index in files + 1, or 0 if
					   kept here; NULL while none is */
	uint64_t	 *faroff;	/* id -> its offset in that file */
	uint32_t	  nfar;		/* strings left in files */
	pthread_mutex_t	  lock;		/* held decompressing, */
	ZSTD_DCtx	 *zd;		/*   with this */
};

/* A string looked for: bytes, or a string of another table. */
struct strkey {
	const char		*s;	/* its bytes, or NULL: */
	const struct strtab	*src;	/*   string id of src */
	uint32_t		 id;
	size_t			 len;
	uint64_t		 h;
	struct strsrc		*file;	/* the bytes are in it, or NULL */
	uint64_t		 off;	/*   at this offset */
};

#define STRTAB_PACKED(st, id) ((st)->zlens != NULL && (st)->zlens[id] != 0)

/* A string left in its file (strtab_intern_at()). */
#define STRTAB_FAR(st, id) ((st)->far != NULL && (st)->far[id] != 0)

/* A string whose bytes are not kept as they are: compressed or left. */
#define STRTAB_AWAY(st, id) (STRTAB_PACKED(st, id) || STRTAB_FAR(st, id))

/* A blank (strtab_blank()): no bytes, and not the empty string, id 0. */
#define STRTAB_BLANK(st, id) ((st)->lens[id] == 0 && (id) != 0)

static void	strtab_grow(struct strtab *);
static void	strtab_more(struct strtab *);
static uint32_t	strtab_newid(struct strtab *, size_t, uint64_t);
static uint32_t	strtab_add(struct strtab *, const struct strkey *);
static void	strtab_hold(struct strtab *, uint32_t, const struct strkey *);
static uint32_t	strtab_probe(const struct strtab *, struct strtab *,
		    const struct strkey *, uint32_t *);
static int	strtab_same(const struct strtab *, struct strtab *, uint32_t,
		    const struct strkey *);
static const char *strtab_bytes(struct strtab *, const struct strtab *,
		    uint32_t, int);
static void	strtab_unpack(const struct strtab *, uint32_t, char *);
static void	strtab_fetch(const struct strtab *, uint32_t, char *);
static const char *strtab_held(const struct strtab *, uint32_t);
static void	strtab_restore(const struct strtab *, uint32_t, char *);
static int	strtab_far_put(struct strtab *, uint32_t, struct strsrc *,
		    uint64_t);
static void	strtab_pack(struct strtab *, uint32_t, const char *);
static void	strtab_keep(struct strtab *, uint32_t, const char *, size_t);
static void	strtab_gather(struct strtab *, const char *, size_t);
static void	strtab_drop(struct strdict *);
static char	*strtab_scratch(char **, size_t *, size_t);

/* Create an empty table holding only the empty string as id 0. */
struct strtab *
strtab_create(void)
{
	struct strtab	*st;

	st = xcalloc(1, sizeof(*st));
	st->mask = 1023;
	st->slots = xcalloc(st->mask + 1, sizeof(*st->slots));
	pthread_mutex_init(&st->lock, NULL);
	strtab_intern(st, "", 0);
	return st;
}

/* Free the decompressed copies of the table's strings. */
static void
strtab_free_copies(struct strtab *st)
{
	uint32_t	i;

	if (st->copies == NULL)
		return;
	for (i = 0; i < st->n; i++) {
		free(atomic_load_explicit(&st->copies[i],
		    memory_order_relaxed));
		atomic_store_explicit(&st->copies[i], NULL,
		    memory_order_relaxed);
	}
}

/* Free the table and all its strings. */
void
strtab_free(struct strtab *st)
{
	if (st == NULL)
		return;
	strtab_free_copies(st);
	arena_free(&st->bytes);
	free(st->strs);
	free(st->lens);
	free(st->zlens);
	free(st->hashes);
	free(st->slots);
	free(st->copies);
	free(st->far);
	free(st->faroff);
	while (st->nfiles > 0)
		strtab_source_drop(st->files[--st->nfiles]);
	free(st->files);
	free(st->gather);
	free(st->sizes);
	free(st->zbuf);
	free(st->ubuf[0]);
	free(st->ubuf[1]);
	ZSTD_freeCCtx(st->zc);
	ZSTD_freeDCtx(st->zd);
	strtab_drop(atomic_load(&st->dict));
	pthread_mutex_destroy(&st->lock);
	free(st);
}

/*
 * Empty the table but for the empty string, keeping its memory, its
 * dictionary and the files it has named.
 */
void
strtab_clear(struct strtab *st)
{
	strtab_free_copies(st);
	arena_clear(&st->bytes);
	if (st->zlens != NULL)
		memset(st->zlens, 0, (size_t)st->n * sizeof(*st->zlens));
	if (st->far != NULL)
		memset(st->far, 0, (size_t)st->n * sizeof(*st->far));
	st->n = 0;
	st->nblank = 0;
	st->npacked = 0;
	st->nfar = 0;
	st->nlong = 0;
	memset(st->slots, 0, ((size_t)st->mask + 1) * sizeof(*st->slots));
	strtab_intern(st, "", 0);
}

/*
 * Make st, an empty table or one without compressed strings, compress
 * with leader's dictionary (if leader has one yet) and never make its
 * own: the strings of st then go into leader as they are kept.
 */
void
strtab_follow(struct strtab *st, const struct strtab *leader)
{
	struct strdict	*d, *old;

	st->follows = 1;
	d = atomic_load_explicit(&leader->dict, memory_order_acquire);
	old = atomic_load_explicit(&st->dict, memory_order_relaxed);
	if (d == old || st->npacked > 0)
		return;
	if (d != NULL)
		atomic_fetch_add(&d->refs, 1);
	atomic_store_explicit(&st->dict, d, memory_order_relaxed);
	strtab_drop(old);
}

/* Let go of a reference to d, freeing it with the last. */
static void
strtab_drop(struct strdict *d)
{
	if (d == NULL || atomic_fetch_sub(&d->refs, 1) != 1)
		return;
	ZSTD_freeCDict(d->cd);
	ZSTD_freeDDict(d->dd);
	free(d);
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
		if (STRTAB_BLANK(st, i))
			continue;
		j = st->hashes[i] & mask;
		while (st->slots[j] != 0)
			j = (j + 1) & mask;
		st->slots[j] = STRTAB_SLOT(st->hashes[i], i);
	}
}

/*
 * Look for the string of k: return its id, or UINT32_MAX with *slot set
 * to the empty slot where it would go.  A slot holds half of its
 * string's hash: the strings of other slots on the way are not loaded
 * (each was a cache miss).  Compressed strings are compared in the
 * scratch space of scratch (st itself, when adding), or through their
 * lasting copies if scratch is NULL (strtab_find(), from any thread).
 */
static uint32_t
strtab_probe(const struct strtab *st, struct strtab *scratch,
    const struct strkey *k, uint32_t *slot)
{
	uint64_t	v;
	uint32_t	j, id;

	for (j = k->h & st->mask; (v = st->slots[j]) != 0;
	    j = (j + 1) & st->mask) {
		if (v >> 32 != k->h >> 32)
			continue;
		id = (uint32_t)v - 1;
		if (st->lens[id] == k->len && strtab_same(st, scratch, id, k))
			return id;
	}
	*slot = j;
	return UINT32_MAX;
}

/*
 * Say whether string id of st, of k's length, is k's string.  Two
 * strings compressed with one dictionary are equal if their compressed
 * bytes are (zstd makes the same bytes of the same input); else what
 * is compressed is decompressed (see strtab_bytes()).
 */
static int
strtab_same(const struct strtab *st, struct strtab *scratch, uint32_t id,
    const struct strkey *k)
{
	const char	*a, *b;

	/* Two strings at one place of one file. */
	if (k->s == NULL && STRTAB_FAR(st, id) && STRTAB_FAR(k->src, k->id) &&
	    st->files[st->far[id] - 1] == k->src->files[k->src->far[k->id] -
	    1] && st->faroff[id] == k->src->faroff[k->id])
		return 1;
	if (k->s == NULL && STRTAB_PACKED(st, id) &&
	    STRTAB_PACKED(k->src, k->id) && atomic_load_explicit(&st->dict,
	    memory_order_relaxed) == atomic_load_explicit(&k->src->dict,
	    memory_order_relaxed))
		return st->zlens[id] == k->src->zlens[k->id] &&
		    memcmp(st->strs[id], k->src->strs[k->id],
		    st->zlens[id]) == 0;
	a = strtab_bytes(scratch, st, id, 0);
	b = k->s != NULL ? k->s : strtab_bytes(scratch, k->src, k->id, 1);
	return memcmp(a, b, k->len) == 0;
}

/*
 * Return the bytes of string id of src: where they are kept (or a copy
 * src keeps), or decompressed into st's scratch buffer which (0 or 1)
 * (strtab_read()), or into src's lasting copy if st is NULL
 * (strtab_get()).  A string left in its file and compared is read into
 * a lasting copy: it is named again, and will be compared again.
 */
static const char *
strtab_bytes(struct strtab *st, const struct strtab *src, uint32_t id,
    int which)
{
	if (st == NULL || STRTAB_FAR(src, id))
		return strtab_get(src, id);
	return strtab_read(src, id, &st->ubuf[which], &st->ubuf_cap[which]);
}

/* Return a buffer *buf of at least size bytes, growing it if need be. */
static char *
strtab_scratch(char **buf, size_t *cap, size_t size)
{
	if (*cap < size) {
		free(*buf);
		*cap = size < 4096 ? 4096 : size;
		*buf = xmalloc(*cap);
	}
	return *buf;
}

/*
 * Decompress string id of st into dst (its length in bytes).  The
 * table's one decompression context is taken under its lock: copies are
 * made from any thread.
 */
static void
strtab_unpack(const struct strtab *st, uint32_t id, char *dst)
{
	struct strtab	*mst = (struct strtab *)(uintptr_t)st;
	size_t		 r;

	pthread_mutex_lock(&mst->lock);
	if (mst->zd == NULL && (mst->zd = ZSTD_createDCtx()) == NULL)
		errx(1, "ZSTD_createDCtx: out of memory");
	r = ZSTD_decompress_usingDDict(mst->zd, dst, st->lens[id],
	    st->strs[id], st->zlens[id], atomic_load(&mst->dict)->dd);
	pthread_mutex_unlock(&mst->lock);
	if (ZSTD_isError(r) || r != st->lens[id])
		errx(1, "a name kept compressed: %s", ZSTD_isError(r) ?
		    ZSTD_getErrorName(r) : "wrong length");
}

/*
 * Read string id of st, left in its file, into dst (its length in
 * bytes); a file that no longer holds it (changed since it was read) is
 * an error.
 */
static void
strtab_fetch(const struct strtab *st, uint32_t id, char *dst)
{
	const struct strsrc	*f = st->files[st->far[id] - 1];
	size_t			 len = st->lens[id], got = 0;
	ssize_t			 n;

	while (got < len) {
		n = pread(f->fd, dst + got, len - got,
		    (off_t)(st->faroff[id] + got));
		if (n > 0)
			got += (size_t)n;
		else if (n == -1 && errno == EINTR)
			continue;
		else if (n == -1)
			errx(1, "%s: error: read error: %s", f->name,
			    strerror(errno));
		else
			break;
	}
	if (got < len || hash_bytes(dst, len) != st->hashes[id])
		errx(1, "%s: error: read error: the file changed after it "
		    "was read (a name in it is no longer there)", f->name);
}

/* Return the id of the string s of len bytes, adding it if new. */
uint32_t
strtab_intern(struct strtab *st, const char *s, size_t len)
{
	return strtab_intern_at(st, s, len, NULL, 0);
}

/*
 * strtab_intern() of the len bytes s, which are also at offset off of
 * file (or file is NULL): a long string new to the table is left there,
 * and read back when asked for.
 */
uint32_t
strtab_intern_at(struct strtab *st, const char *s, size_t len,
    struct strsrc *file, uint64_t off)
{
	struct strkey	k = { s, NULL, 0, len, hash_bytes(s, len), file, off };

	return strtab_add(st, &k);
}

/*
 * Return a file that strings may be left in: the regular file open on
 * fd, named name in messages, read from offset 0, or NULL if it cannot
 * be (no descriptor left).  The caller drops it (strtab_source_drop())
 * when it names no more strings; each table holds it as long as it
 * needs it.
 */
struct strsrc *
strtab_source(int fd, const char *name)
{
	struct strsrc	*f;
	int		 dfd;

	if ((dfd = fcntl(fd, F_DUPFD_CLOEXEC, 3)) == -1)
		return NULL;
	f = xcalloc(1, sizeof(*f));
	f->fd = dfd;
	f->name = xstrdup(name);
	atomic_init(&f->refs, 1);
	return f;
}

/* Let go of a reference to file f, closing it with the last. */
void
strtab_source_drop(struct strsrc *f)
{
	if (f == NULL || atomic_fetch_sub(&f->refs, 1) != 1)
		return;
	close(f->fd);
	free(f->name);
	free(f);
}

/*
 * Return a new id that names no bytes and is never found nor given
 * again: a blank, read as the empty string, which a caller keeps its own
 * meaning for (a chunk's placeholders, parser_placeholder()).  It costs
 * no hashing and no slot.
 */
uint32_t
strtab_blank(struct strtab *st)
{
	uint32_t	id;

	id = strtab_newid(st, 0, 0);
	st->nblank++;
	st->strs[id] = "";
	return id;
}

/* Return the id in st of string id of src, adding it if new. */
uint32_t
strtab_copy(struct strtab *st, const struct strtab *src, uint32_t id)
{
	struct strkey	k = { NULL, src, id, src->lens[id], src->hashes[id],
			    NULL, 0 };

	if (STRTAB_FAR(src, id)) {
		k.file = src->files[src->far[id] - 1];
		k.off = src->faroff[id];
	} else if (!STRTAB_PACKED(src, id))
		k.s = src->strs[id];
	return strtab_add(st, &k);
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

/* Grow the arrays by id to hold one more string. */
static void
strtab_more(struct strtab *st)
{
	uint32_t	old = st->cap;

	st->cap = st->cap ? st->cap * 2 : 1024;
	st->strs = xreallocarray(st->strs, st->cap, sizeof(*st->strs));
	st->lens = xreallocarray(st->lens, st->cap, sizeof(*st->lens));
	st->hashes = xreallocarray(st->hashes, st->cap, sizeof(*st->hashes));
	if (st->zlens != NULL) {
		st->zlens = xreallocarray(st->zlens, st->cap,
		    sizeof(*st->zlens));
		memset(st->zlens + old, 0, (size_t)(st->cap - old) *
		    sizeof(*st->zlens));
	}
	if (st->far != NULL) {
		st->far = xreallocarray(st->far, st->cap, sizeof(*st->far));
		memset(st->far + old, 0, (size_t)(st->cap - old) *
		    sizeof(*st->far));
		st->faroff = xreallocarray(st->faroff, st->cap,
		    sizeof(*st->faroff));
	}
	if (st->copies != NULL) {
		st->copies = xreallocarray(st->copies, st->cap,
		    sizeof(*st->copies));
		memset(st->copies + old, 0, (size_t)(st->cap - old) *
		    sizeof(*st->copies));
	}
}

/* Give the next id a string of len bytes and hash h; return it. */
static uint32_t
strtab_newid(struct strtab *st, size_t len, uint64_t h)
{
	uint32_t	id;

	if (len > UINT32_MAX - 1 || st->n == UINT32_MAX - 1)
		abort();
	if (st->n == st->cap)
		strtab_more(st);
	id = st->n++;
	st->lens[id] = (uint32_t)len;
	st->hashes[id] = h;
	return id;
}

/*
 * Return the id of k's string, adding it if new: left in its file if it
 * is long and k says where (k's own may be left in one), else held here
 * (strtab_hold()).
 */
static uint32_t
strtab_add(struct strtab *st, const struct strkey *k)
{
	uint32_t	j = 0, id;

	if ((id = strtab_probe(st, st, k, &j)) != UINT32_MAX)
		return id;
	id = strtab_newid(st, k->len, k->h);
	st->slots[j] = STRTAB_SLOT(k->h, id);
	if (k->file == NULL || k->len < STRTAB_LONG ||
	    !strtab_far_put(st, id, k->file, k->off))
		strtab_hold(st, id, k);
	if ((uint64_t)(st->n - st->nblank) * 2 > st->mask)
		strtab_grow(st);
	return id;
}

/*
 * Keep the bytes of k's string as string id: compressed as k's is if
 * both tables have one dictionary, else compressed here if long and the
 * table has a dictionary, else as is (gathered toward a dictionary if
 * long).
 */
static void
strtab_hold(struct strtab *st, uint32_t id, const struct strkey *k)
{
	struct strdict	*d = atomic_load_explicit(&st->dict,
			    memory_order_relaxed);
	const char	*s;

	if (k->s == NULL && d != NULL && !STRTAB_FAR(k->src, k->id) &&
	    d == atomic_load_explicit(&k->src->dict, memory_order_relaxed)) {
		strtab_keep(st, id, k->src->strs[k->id], k->src->zlens[k->id]);
		return;
	}
	s = k->s != NULL ? k->s : strtab_bytes(st, k->src, k->id, 1);
	if (k->len >= STRTAB_LONG && d != NULL)
		strtab_pack(st, id, s);
	else {
		st->strs[id] = arena_strdup(&st->bytes, s, k->len);
		if (k->len >= STRTAB_LONG && !st->follows)
			strtab_gather(st, s, k->len);
	}
}

/*
 * Leave string id at offset off of file: return 1, or 0 if the table
 * names too many files already.
 */
static int
strtab_far_put(struct strtab *st, uint32_t id, struct strsrc *file,
    uint64_t off)
{
	unsigned	i;

	for (i = st->nfiles; i > 0; i--)
		if (st->files[i - 1] == file)
			break;
	if (i == 0) {
		if (st->nfiles == STRTAB_FILES)
			return 0;
		st->files = xreallocarray(st->files, st->nfiles + 1,
		    sizeof(*st->files));
		atomic_fetch_add(&file->refs, 1);
		st->files[st->nfiles++] = file;
		i = st->nfiles;
	}
	if (st->far == NULL) {
		st->far = xcalloc(st->cap, sizeof(*st->far));
		st->faroff = xreallocarray(NULL, st->cap, sizeof(*st->faroff));
	}
	if (st->copies == NULL)
		st->copies = xcalloc(st->cap, sizeof(*st->copies));
	st->far[id] = (uint8_t)i;
	st->faroff[id] = off;
	st->strs[id] = "";
	st->nfar++;
	return 1;
}

/*
 * Keep string id, its bytes at s, compressed; one that would not be
 * smaller is kept as is.
 */
static void
strtab_pack(struct strtab *st, uint32_t id, const char *s)
{
	size_t	r, len = st->lens[id], bound;

	if (st->zc == NULL) {
		if ((st->zc = ZSTD_createCCtx()) == NULL)
			errx(1, "ZSTD_createCCtx: out of memory");
		/* The length is kept here: no header but what must be. */
		(void)ZSTD_CCtx_setParameter(st->zc,
		    ZSTD_c_contentSizeFlag, 0);
		(void)ZSTD_CCtx_setParameter(st->zc, ZSTD_c_checksumFlag, 0);
		(void)ZSTD_CCtx_setParameter(st->zc, ZSTD_c_dictIDFlag, 0);
	}
	bound = ZSTD_compressBound(len);
	(void)strtab_scratch(&st->zbuf, &st->zbuf_cap, bound);
	if (ZSTD_isError(r = ZSTD_CCtx_refCDict(st->zc,
	    atomic_load_explicit(&st->dict, memory_order_relaxed)->cd)) ||
	    ZSTD_isError(r = ZSTD_compress2(st->zc, st->zbuf, bound, s, len)))
		errx(1, "a name to keep compressed: %s", ZSTD_getErrorName(r));
	if (r >= len)
		st->strs[id] = arena_strdup(&st->bytes, s, len);
	else
		strtab_keep(st, id, st->zbuf, r);
}

/* Keep string id as the zlen compressed bytes at z. */
static void
strtab_keep(struct strtab *st, uint32_t id, const char *z, size_t zlen)
{
	if (st->zlens == NULL)
		st->zlens = xcalloc(st->cap, sizeof(*st->zlens));
	if (st->copies == NULL)
		st->copies = xcalloc(st->cap, sizeof(*st->copies));
	st->npacked++;
	st->zlens[id] = (uint32_t)zlen;
	st->strs[id] = memcpy(arena_alloc(&st->bytes, zlen), z, zlen);
}

/*
 * Add the len bytes at s, a long string kept as is, to those gathered
 * toward the table's dictionary: the first STRTAB_DICT bytes are its
 * content, the next strings (STRTAB_SAMPLES bytes of them) samples of
 * what it will compress; make it when the table has held enough.
 */
static void
strtab_gather(struct strtab *st, const char *s, size_t len)
{
	struct strdict	*d;
	size_t		 n = len, at, cap = STRTAB_DICT + STRTAB_SAMPLES;
	char		*dict;

	if (st->gather == NULL)
		st->gather = xmalloc(cap);
	if (st->ngather < STRTAB_DICT) {
		if (n > STRTAB_DICT - st->ngather)
			n = STRTAB_DICT - st->ngather;
	} else if (n > cap - st->ngather || st->nsizes == STRTAB_NSAMPLES)
		n = 0;
	else {
		if (st->sizes == NULL)
			st->sizes = xreallocarray(NULL, STRTAB_NSAMPLES,
			    sizeof(*st->sizes));
		st->sizes[st->nsizes++] = n;
	}
	memcpy(st->gather + st->ngather, s, n);
	st->ngather += n;
	if ((st->nlong += len) < (hooks.pack_after > 0 ? hooks.pack_after :
	    STRTAB_START))
		return;
	d = xcalloc(1, sizeof(*d));
	at = st->ngather < STRTAB_DICT ? st->ngather : STRTAB_DICT;
	dict = st->gather;
	n = at;
	if (st->nsizes >= STRTAB_MINSAMPLES) {
		/*
		 * With statistics of the names to come, each name's
		 * compression uses the dictionary's tables rather than
		 * making its own (half the time it took, or more).
		 */
		ZDICT_params_t	zp;

		memset(&zp, 0, sizeof(zp));
		zp.compressionLevel = STRTAB_LEVEL;
		zp.dictID = STRTAB_DICTID;
		dict = xmalloc(at + STRTAB_HEADER);
		n = ZDICT_finalizeDictionary(dict, at + STRTAB_HEADER,
		    st->gather, at, st->gather + at, st->sizes, st->nsizes, zp);
		if (ZDICT_isError(n)) {
			free(dict);
			dict = st->gather;
			n = at;
		} else if (hooks.nstats != NULL)
			(*hooks.nstats)++;
	}
	if ((d->cd = ZSTD_createCDict(dict, n, STRTAB_LEVEL)) == NULL ||
	    (d->dd = ZSTD_createDDict(dict, n)) == NULL)
		errx(1, "ZSTD_createCDict: out of memory");
	atomic_init(&d->refs, 1);
	atomic_store_explicit(&st->dict, d, memory_order_release);
	if (dict != st->gather)
		free(dict);
	free(st->gather);
	free(st->sizes);
	st->gather = NULL;
	st->sizes = NULL;
	st->ngather = 0;
	st->nsizes = 0;
}

/* Return the id of a string already in the table, or UINT32_MAX. */
uint32_t
strtab_find(const struct strtab *st, const char *s, size_t len)
{
	struct strkey	k = { s, NULL, 0, len, hash_bytes(s, len), NULL, 0 };
	uint32_t	slot;

	return strtab_probe(st, NULL, &k, &slot);
}

/*
 * Return the NUL-terminated bytes of id; a compressed string is
 * decompressed the first time (one left in its file read), and the copy
 * kept as long as the table.
 */
const char *
strtab_get(const struct strtab *st, uint32_t id)
{
	const char	*h;
	char		*c, *was = NULL;

	if ((h = strtab_held(st, id)) != NULL)
		return h;
	c = xmalloc((size_t)st->lens[id] + 1);
	strtab_restore(st, id, c);
	if (!atomic_compare_exchange_strong_explicit(&st->copies[id], &was,
	    c, memory_order_acq_rel, memory_order_acquire)) {
		free(c);
		c = was;
	}
	return c;
}

/*
 * Return the bytes of string id, NUL-terminated: the table's own, or a
 * compressed string's decompressed (one left in its file read) into
 * *buf (of *cap bytes, grown as need be), where they last until the
 * next call with it.  For a look at many names once, where strtab_get()
 * would keep a copy of each.
 */
const char *
strtab_read(const struct strtab *st, uint32_t id, char **buf, size_t *cap)
{
	const char	*h;
	char		*c;

	if ((h = strtab_held(st, id)) != NULL)
		return h;
	c = strtab_scratch(buf, cap, (size_t)st->lens[id] + 1);
	strtab_restore(st, id, c);
	return c;
}

/*
 * Return the bytes of id where the table holds them whole: as kept, or
 * a lasting copy of a string kept away; else NULL.
 */
static const char *
strtab_held(const struct strtab *st, uint32_t id)
{
	if (!STRTAB_AWAY(st, id))
		return st->strs[id];
	return atomic_load_explicit(&st->copies[id], memory_order_acquire);
}

/*
 * Put the bytes of string id, kept away, into dst (its length and a
 * NUL): decompressed, or read back from its file.
 */
static void
strtab_restore(const struct strtab *st, uint32_t id, char *dst)
{
	if (STRTAB_FAR(st, id))
		strtab_fetch(st, id, dst);
	else
		strtab_unpack(st, id, dst);
	dst[st->lens[id]] = '\0';
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

/* Return how many of the table's strings are kept compressed. */
uint32_t
strtab_npacked(const struct strtab *st)
{
	return st->npacked;
}

/* Return how many of the table's strings are left in their files. */
uint32_t
strtab_nfar(const struct strtab *st)
{
	return st->nfar;
}
