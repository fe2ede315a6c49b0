/*
 * profile_table.c - the profile's tables: functions, (function, file)
 * pairs, each pair's table of lines and of calls in shared arenas,
 * costs in flat arrays of n-event vectors; what the parser adds to, line
 * by line, and what a reader reserves ahead.
 */
#include "base/compat.h"

#include <err.h>
#include <stdlib.h>

#include "base/xmalloc.h"
#include "model/instrs.h"
#include "model/profile.h"
#include "model/profile_impl.h"

static uint8_t	*profile_file_byte(struct profile *, uint32_t);
static int	 profile_file_ask(struct profile *, uint32_t, uint32_t);
static void	 profile_fn_resize(struct profile *, uint32_t);
static void	 profile_set_bigline(struct profile *, uint32_t, uint64_t);
static inline uint32_t profile_new_line(struct profile *, uint32_t, uint64_t);
static void	 profile_ptab_resize(struct profile *, uint32_t);
static void	 profile_line_resize(struct profile *, uint32_t);
static void	 profile_arc_resize(struct profile *, uint32_t);
static void	 profile_arc_present(struct profile *, uint32_t);
static int	 profile_pair_add_self(struct profile *, uint32_t, uint64_t,
		    const uint64_t *, unsigned);
static void	*profile_take(void *, size_t *, size_t *, struct freelist *,
		    unsigned, size_t, uint32_t *);
static void	 profile_give(struct freelist *, unsigned, uint32_t);
static unsigned	 profile_log2(uint64_t);
static void	 profile_pair_prefetch(const struct profile *, uint32_t);
static void	 profile_pair_use(struct profile *, uint32_t, uint32_t,
		    uint32_t);
static void	 profile_bound_add(struct profile *, uint64_t,
		    const uint64_t *);
static void	 profile_linetab_grow(struct profile *, uint32_t, uint64_t);
static void	 profile_arctab_grow(struct profile *, struct linetab *);
static void	 profile_hash_put(struct profile *, const struct linetab *,
		    uint64_t, uint32_t);

/* Return the id of the function (object, file, name), adding it if new. */
uint32_t
profile_func_id(struct profile *p, uint32_t obj, uint32_t file, uint32_t name)
{
	uint64_t	key[3] = { obj, file, name };
	uint32_t	id;
	int		created;

	if (p->done)
		abort();	/* a profile done takes no more */
	id = keytab_get(&p->funcs, key, &created);
	if (created) {
		keytab_get(&p->objects, key, NULL);
		keytab_get(&p->files, key + 1, NULL);
		if (id >= p->fn_cap)
			profile_fn_resize(p, p->fn_cap ? p->fn_cap * 2 : 256);
		p->fn_seq[id] = 0;
		p->fn_pair[id] = KEYTAB_NONE;
	}
	return id;
}

/* Return the id of function (obj, file, name), or KEYTAB_NONE. */
uint32_t
profile_func_find(const struct profile *p, uint32_t obj, uint32_t file,
    uint32_t name)
{
	uint64_t	key[3] = { obj, file, name };

	return keytab_find(&p->funcs, key);
}

/* Note that an fn= line named function fn (the last one names its object). */
void
profile_func_mark(struct profile *p, uint32_t fn)
{
	p->fn_seq[fn] = ++p->seq;
}

/*
 * Note that function fn has code in file, even if no cost follows;
 * return the pair's id, for profile_retouch().
 */
uint32_t
profile_touch(struct profile *p, uint32_t fn, uint32_t file)
{
	return profile_pair_get(p, fn, file);
}

/*
 * profile_touch() again with what it returned for (fn, file), pair:
 * the costs that follow go to that pair, found without a lookup.
 */
void
profile_retouch(struct profile *p, uint32_t fn, uint32_t file,
    uint32_t pair)
{
	if (p->cur_pair != pair)
		profile_pair_use(p, fn, file, pair);
}

/* Return the FILE_LINES_* byte of file fid (in p->files), made if new. */
static uint8_t *
profile_file_byte(struct profile *p, uint32_t fid)
{
	p->file_lines = xgrow_fill(p->file_lines, &p->file_lines_cap,
	    (size_t)fid + 1, sizeof(*p->file_lines), FILE_LINES_ASK);
	return &p->file_lines[fid];
}

/*
 * Say how many lines the pairs of file (a string id; fid in p->files)
 * keep, asking p->lines_fn the first time.
 */
static int
profile_file_ask(struct profile *p, uint32_t fid, uint32_t file)
{
	uint8_t	*b = profile_file_byte(p, fid);

	if (*b == FILE_LINES_ASK)
		*b = p->lines_fn == NULL || p->lines_fn(p->lines_arg, p,
		    file) ? FILE_LINES_KEPT : FILE_LINES_ONE;
	return *b;
}

/*
 * From now on, ask fn(arg, p, file) whether the lines of a file met
 * for the first time are kept apart (NULL: all are); each file is
 * asked about once.  Every call is kept again (profile_keep_calls()).
 */
void
profile_set_lines(struct profile *p, profile_lines_fn fn, void *arg)
{
	p->lines_fn = fn;
	p->lines_arg = arg;
	p->drop_calls = 0;
}

/*
 * From now on keep (keep nonzero, as profile_set_lines() does) or not the
 * calls made from the pairs whose lines are summed: a report with no
 * inclusive cost, tree, graph or stack reads none of them, only those of
 * the sources it annotates, whose lines are kept.
 */
void
profile_keep_calls(struct profile *p, int keep)
{
	p->drop_calls = !keep;
}

/*
 * Keep one line for each pair of file (a string id) to come: before
 * any has it (a profile made again from one whose file it was).
 */
void
profile_one_line(struct profile *p, uint32_t file)
{
	uint64_t	key = file;

	*profile_file_byte(p, keytab_get(&p->files, &key, NULL)) =
	    FILE_LINES_ONE;
}

/* Return the pair (fn, file), adding it with an empty line table. */
uint32_t
profile_pair_get(struct profile *p, uint32_t fn, uint32_t file)
{
	uint64_t	 key[2] = { fn, file };
	struct pairmemo	*m;
	uint32_t	 id, fid;
	int		 created, own;

	if (p->cur_pair != KEYTAB_NONE && p->cur_fn == fn &&
	    p->cur_file == file)
		return p->cur_pair;
	if (p->done)
		abort();	/* a profile done takes no more */
	own = file == (uint32_t)keytab_key(&p->funcs, fn)[1];
	if (own && p->fn_pair[fn] != KEYTAB_NONE) {
		id = p->fn_pair[fn];
		goto done;
	}
	m = &p->memo[profile_memo_hash(fn, file)];
	if (!own && m->pair != 0 && m->fn == fn && m->file == file) {
		id = m->pair - 1;
		goto done;
	}
	id = keytab_get(&p->pairs, key, &created);
	/* Remember the pair of the function's own file, and those of
	 * others met lately (code inlined from headers). */
	if (own)
		p->fn_pair[fn] = id;
	else {
		m->fn = fn;
		m->file = file;
		m->pair = id + 1;
	}
	if (created) {
		fid = keytab_get(&p->files, key + 1, NULL);
		if (id >= p->ptab_cap)
			profile_ptab_resize(p, p->ptab_cap ? p->ptab_cap * 2 :
			    256);
		memset(&p->ptab[id], 0, sizeof(p->ptab[id]));
		p->ptab[id].one = profile_file_ask(p, fid, file) ==
		    FILE_LINES_ONE;
	}
done:
	profile_pair_use(p, fn, file, id);
	return id;
}

/* Make pair, that of (fn, file), the current one, its lines loading. */
static void
profile_pair_use(struct profile *p, uint32_t fn, uint32_t file,
    uint32_t pair)
{
	profile_pair_prefetch(p, pair);
	p->cur_pair = pair;
	p->cur_fn = fn;
	p->cur_file = file;
}

/*
 * Start fetching the line table and costs of a pair about to be used:
 * its lines were created together, so their costs are adjacent, and
 * asking for all of them at once hides the memory latency of a function
 * met again (in a later part of the profile).
 */
static void
profile_pair_prefetch(const struct profile *p, uint32_t pair)
{
	const struct linetab	*t = &p->ptab[pair];

	if (t->n == 0)
		return;
	if (t->hashed)
		__builtin_prefetch(&p->slots[t->off]);
	else if (t->len > 0) {
		__builtin_prefetch(&p->dense[t->off]);
		__builtin_prefetch(&p->dense[t->off] + 16);
	}
	packed_prefetch_run(&p->line_cost, t->first, t->n);
}

/* Return the base-2 logarithm of n, a power of two. */
static unsigned
profile_log2(uint64_t n)
{
	return (unsigned)__builtin_ctzll(n);
}

/*
 * Take a zeroed table of 2^cls elements of size bytes from the arena arr
 * (used *n, allocated *cap): one given up before if the lists fl have
 * one of that size, so that tables outgrown are used again, else one
 * more at the end, growing the arena geometrically; *off gets the index
 * of its first element.  Return the arena, which may have moved.
 */
static void *
profile_take(void *arr, size_t *n, size_t *cap, struct freelist *fl,
    unsigned cls, size_t size, uint32_t *off)
{
	size_t	count = (size_t)1 << cls;

	if (fl[cls].n > 0)
		*off = fl[cls].off[--fl[cls].n];
	else {
		if (count > (size_t)UINT32_MAX + 1 - *n)
			errx(1, "the line tables would hold more than 2^32 "
			    "entries");
		*off = (uint32_t)*n;
		arr = xgrow(arr, cap, *n + count, size);
		xahead(arr, *n * size, (*n + count) * size, *cap * size);
		*n += count;
	}
	xfill((char *)arr + *off * size, 0, count * size);
	return arr;
}

/* Give up the table of 2^cls elements at off, for profile_take(). */
static void
profile_give(struct freelist *fl, unsigned cls, uint32_t off)
{
	fl[cls].off = xgrow(fl[cls].off, &fl[cls].cap, fl[cls].n + 1,
	    sizeof(*fl[cls].off));
	fl[cls].off[fl[cls].n++] = off;
}

/* Put (line, id + 1) into the hashed table t, which has room. */
static void
profile_hash_put(struct profile *p, const struct linetab *t, uint64_t line,
    uint32_t idp1)
{
	uint32_t	j;

	j = profile_line_hash(line, t->len);
	while (p->slots[t->off + j] != 0)
		j = (j + 1) & t->len;
	p->slots[t->off + j] = idp1;
}

/*
 * Make room in pair's table for line: widen the dense range if it stays
 * compact, else move every entry to a hash table (or a bigger one).
 */
static void
profile_linetab_grow(struct profile *p, uint32_t pair, uint64_t line)
{
	struct linetab	 t = p->ptab[pair], nt;
	uint64_t	 lo, hi, len;
	uint32_t	 i;
	unsigned	 cls;
	int		 one = !t.hashed && t.len == 0 && t.n == 1;

	/* The new table keeps what is not the line table: the calls. */
	nt = t;
	nt.base = 0;
	nt.off = 0;
	nt.len = 0;
	nt.hashed = 0;
	/* Dense tables only below 2^63: base + len can never wrap. */
	if (!t.hashed && line <= UINT64_MAX / 2 && t.base <= UINT64_MAX / 2) {
		lo = t.n == 0 || line < t.base ? line : t.base;
		if (one)
			hi = (line > t.base ? line : t.base) + 1;
		else
			hi = t.n == 0 || line >= t.base + t.len ? line + 1 :
			    t.base + t.len;
		len = hi - lo;
		if (hi > lo && len <= LINE_DENSE * (uint64_t)t.n + 8 &&
		    len <= (uint64_t)1 << 30) {
			/* Room to grow upwards, the usual direction. */
			for (len += len / 2, cls = 4; (1ULL << cls) < len;
			    cls++)
				continue;
			nt.base = lo;
			nt.len = (uint32_t)1 << cls;
			p->dense = profile_take(p->dense, &p->ndense,
			    &p->dense_cap, p->free_dense, cls,
			    sizeof(*p->dense), &nt.off);
			if (one)
				p->dense[nt.off + (t.base - lo)] = t.first + 1;
			for (i = 0; i < t.len; i++)
				p->dense[nt.off + (t.base - lo) + i] =
				    p->dense[t.off + i];
			if (t.len > 0)
				profile_give(p->free_dense,
				    profile_log2(t.len), t.off);
			p->ptab[pair] = nt;
			return;
		}
	}
	/* A hash table with room for the lines and the one to come. */
	nt.hashed = 1;
	for (cls = 3; LINE_FULL(t.n + 1, 1ULL << cls); cls++)
		continue;
	nt.len = ((uint32_t)1 << cls) - 1;
	p->slots = profile_take(p->slots, &p->nslots, &p->slots_cap,
	    p->free_slots, cls, sizeof(*p->slots), &nt.off);
	if (t.hashed) {
		for (i = 0; i <= t.len; i++)
			if (p->slots[t.off + i] != 0)
				profile_hash_put(p, &nt,
				    profile_lineno(p, p->slots[t.off + i] - 1),
				    p->slots[t.off + i]);
		profile_give(p->free_slots, profile_log2((uint64_t)t.len + 1),
		    t.off);
	} else if (one)
		profile_hash_put(p, &nt, t.base, t.first + 1);
	else {
		for (i = 0; i < t.len; i++)
			if (p->dense[t.off + i] != 0)
				profile_hash_put(p, &nt, t.base + i,
				    p->dense[t.off + i]);
		if (t.len > 0)
			profile_give(p->free_dense, profile_log2(t.len),
			    t.off);
	}
	p->ptab[pair] = nt;
}

/* Size the per-function arrays for cap functions. */
static void
profile_fn_resize(struct profile *p, uint32_t cap)
{
	p->fn_cap = cap;
	p->fn_seq = xreallocarray(p->fn_seq, cap, sizeof(*p->fn_seq));
	p->fn_pair = xreallocarray(p->fn_pair, cap, sizeof(*p->fn_pair));
}

/* Size the table of pairs' line tables for cap pairs. */
static void
profile_ptab_resize(struct profile *p, uint32_t cap)
{
	p->ptab_cap = cap;
	p->ptab = xreallocarray(p->ptab, cap, sizeof(*p->ptab));
}

/* Size the per-line arrays for cap lines. */
static void
profile_line_resize(struct profile *p, uint32_t cap)
{
	p->line_cap = cap;
	p->line_pair = xreallocarray(p->line_pair, cap,
	    sizeof(*p->line_pair));
	p->line_no = xreallocarray(p->line_no, cap, sizeof(*p->line_no));
}

/* Keep the number line (2^32 - 1 or above) of line id aside. */
static void
profile_set_bigline(struct profile *p, uint32_t id, uint64_t line)
{
	uint64_t	key = id;
	uint32_t	k;

	p->line_no[id] = LINE_BIG;
	k = keytab_get(&p->bigline, &key, NULL);
	p->bigno = xgrow(p->bigno, &p->bigcap, (size_t)k + 1,
	    sizeof(*p->bigno));
	p->bigno[k] = line;
}

/* Size the per-arc arrays for cap arcs. */
static void
profile_arc_resize(struct profile *p, uint32_t cap)
{
	p->arc_cap = cap;
	p->arc_cost = xreallocarray(p->arc_cost, cap,
	    p->nevents * sizeof(*p->arc_cost));
	p->arc_count = xreallocarray(p->arc_count, cap,
	    sizeof(*p->arc_count));
	p->arc_pair = xreallocarray(p->arc_pair, cap, sizeof(*p->arc_pair));
	p->arc_callee = xreallocarray(p->arc_callee, cap,
	    sizeof(*p->arc_callee));
	p->arc_line = xreallocarray(p->arc_line, cap, sizeof(*p->arc_line));
}

/*
 * Add cost to function fn at (file, line): counts cost[0..k-1], those
 * after "never recorded"; return nonzero on overflow.
 */
int
profile_add_self(struct profile *p, uint32_t fn, uint32_t file,
    uint64_t line, const uint64_t *cost, unsigned k)
{
	uint32_t	id = p->last_line;

	if (id != KEYTAB_NONE && (p->last_line_no == line || p->last_one) &&
	    p->last_line_pair == p->cur_pair && p->cur_fn == fn &&
	    p->cur_file == file)
		return packed_add(&p->line_cost, id, cost, k);
	return profile_pair_add_self(p, profile_pair_get(p, fn, file), line,
	    cost, k);
}

/* Add cost (k counts given) to line of pair; nonzero on overflow. */
static int
profile_pair_add_self(struct profile *p, uint32_t pair, uint64_t line,
    const uint64_t *cost, unsigned k)
{
	int		created;
	uint32_t	id = profile_pair_line(p, pair, line, &created);

	if (created) {
		(void)packed_new(&p->line_cost, cost);	/* its id is id */
		return 0;
	}
	return packed_add(&p->line_cost, id, cost, k);
}

/*
 * Return the id of line of pair and make it the last line added to; if
 * it is new, set *created, and the caller gives its counts at once
 * (packed_new(): the vector's id is the line's).
 */
uint32_t
profile_pair_line(struct profile *p, uint32_t pair, uint64_t line,
    int *created)
{
	struct linetab	*t = &p->ptab[pair];
	uint32_t	*sl = NULL, id, j, *dn = NULL;

	*created = 0;
	if (t->one)
		line = 0;
	if (t->n == 0)
		goto add;	/* the first line is kept in t itself */
	if (!t->hashed && t->len == 0 && t->base == line) {
		/* Most functions have one line (no debug information). */
		id = t->first;
		goto found;
	}
	if (!t->hashed) {
		/* With no table (len 0), no line is in the dense range. */
		if (line - t->base < t->len) {
			dn = &p->dense[t->off + (line - t->base)];
			if (*dn != 0) {
				id = *dn - 1;
				goto found;
			}
		} else {
			profile_linetab_grow(p, pair, line);
			t = &p->ptab[pair];
			if (!t->hashed)
				dn = &p->dense[t->off + (line - t->base)];
		}
	}
	if (t->hashed) {
		for (j = profile_line_hash(line, t->len); ;
		    j = (j + 1) & t->len) {
			sl = &p->slots[t->off + j];
			if (*sl == 0)
				break;
			if (line < LINE_BIG ?
			    p->line_no[*sl - 1] == (uint32_t)line :
			    p->line_no[*sl - 1] == LINE_BIG &&
			    profile_bigline(p, *sl - 1) == line) {
				id = *sl - 1;
				goto found;
			}
		}
	}
add:
	/* A new line of this function. */
	id = profile_new_line(p, pair, line);
	*created = 1;
	if (t->n++ == 0) {
		t->first = id;
		t->base = line;
	} else if (t->hashed) {
		*sl = id + 1;
		if (LINE_FULL(t->n, (uint64_t)t->len + 1))
			profile_linetab_grow(p, pair, line);
	} else
		*dn = id + 1;
found:
	p->last_line = id;
	p->last_line_no = line;
	p->last_line_pair = pair;
	p->last_one = t->one;
	return id;
}

/*
 * Give line of pair the next line id, and return it, leaving the pair's
 * table to the caller (profile_pair_line(), or profile_pair_copy() later
 * for a merge); the caller gives its counts at once (packed_new(): the
 * vector's id is the line's).
 */
uint32_t
profile_line_append(struct profile *p, uint32_t pair, uint64_t line)
{
	return profile_new_line(p, pair, line);
}

/* profile_line_append(), inlined where lines are added one by one. */
static inline uint32_t
profile_new_line(struct profile *p, uint32_t pair, uint64_t line)
{
	uint32_t	id;

	if (p->nlines == UINT32_MAX - 1)
		errx(1, "more than %u distinct source lines", UINT32_MAX - 2);
	id = p->nlines++;
	if (id >= p->line_cap)
		profile_line_resize(p, p->line_cap ? p->line_cap * 2 : 256);
	p->line_pair[id] = pair;
	if (line < LINE_BIG)
		p->line_no[id] = (uint32_t)line;
	else
		profile_set_bigline(p, id, line);
	return id;
}

/*
 * Give pair of p, which holds no line yet, the line table t of another
 * profile as it is, its line ids through linemap (their lines appended
 * by profile_line_append()): a merge copies a table in one go instead
 * of adding its lines one by one.  The pair's calls stay as they were.
 */
void
profile_pair_copy(struct profile *p, uint32_t pair, const struct profile *src,
    const struct linetab *t, const uint32_t *linemap)
{
	struct linetab	*nt = &p->ptab[pair];
	const uint32_t	*from;
	uint32_t	*to;
	size_t		 i, n;

	nt->base = t->base;
	nt->len = t->len;
	nt->n = t->n;
	nt->first = linemap[t->first];
	nt->hashed = t->hashed;
	nt->off = 0;
	/* nt->one is dst's, as t->one (profile_merge_fresh()). */
	if (t->hashed) {
		n = (size_t)t->len + 1;
		p->slots = profile_take(p->slots, &p->nslots, &p->slots_cap,
		    p->free_slots, profile_log2(n), sizeof(*p->slots),
		    &nt->off);
		from = &src->slots[t->off];
		to = &p->slots[nt->off];
	} else if (t->len > 0) {
		n = t->len;
		p->dense = profile_take(p->dense, &p->ndense, &p->dense_cap,
		    p->free_dense, profile_log2(n), sizeof(*p->dense),
		    &nt->off);
		from = &src->dense[t->off];
		to = &p->dense[nt->off];
	} else
		return;		/* one line, kept in the table itself */
	for (i = 0; i < n; i++)
		to[i] = from[i] != 0 ? linemap[from[i] - 1] + 1 : 0;
}

/*
 * Add cost (k counts given) to the line profile_add_self() last added
 * to, which nothing else has changed since; return nonzero on overflow.
 */
int
profile_add_last(struct profile *p, const uint64_t *cost, unsigned k)
{
	return packed_add(&p->line_cost, p->last_line, cost, k);
}

/*
 * Return nonzero if the line profile_add_self() last added to is the one
 * line of its pair (its file's lines summed): any line of the pair adds
 * to it.
 */
int
profile_last_one(const struct profile *p)
{
	return p->last_one;
}

/* Return the first count of the line profile_add_self() last added to. */
uint64_t
profile_last_count(const struct profile *p)
{
	return packed_first(&p->line_cost, p->last_line);
}

/* Double (or create) the arc table of a pair in the arc arena. */
static void
profile_arctab_grow(struct profile *p, struct linetab *t)
{
	uint32_t	 mask = t->amask ? t->amask * 2 + 1 : 3, i, j;
	uint32_t	 off, old = t->aoff;

	p->aslots = profile_take(p->aslots, &p->naslots, &p->aslots_cap,
	    p->free_aslots, profile_log2((uint64_t)mask + 1),
	    sizeof(*p->aslots), &off);
	for (i = 0; t->amask != 0 && i <= t->amask; i++) {
		struct aslot	s = p->aslots[old + i];

		if (s.id == 0)
			continue;
		j = profile_arc_hash(s.callee, s.line, mask);
		while (p->aslots[off + j].id != 0)
			j = (j + 1) & mask;
		p->aslots[off + j] = s;
	}
	if (t->amask != 0)
		profile_give(p->free_aslots,
		    profile_log2((uint64_t)t->amask + 1), old);
	t->aoff = off;
	t->amask = mask;
}

/* Add a call's count and costs to p's bound on the sums of calls. */
static void
profile_bound_add(struct profile *p, uint64_t count, const uint64_t *cost)
{
	unsigned	i;

	/* A count may be 2^64 - 1, which a cost could not. */
	if (__builtin_add_overflow(p->call_bound, count, &p->call_bound) ||
	    p->call_bound > COST_MAX)
		p->call_bound = COST_MAX;
	for (i = 0; i < p->nevents; i++)
		(void)cost_add1(&p->call_bound, cost[i]);
}

/*
 * Return a bound on every sum of p's calls (counts and costs): no merge
 * into p of a profile whose bound and p's add up to at most COST_MAX
 * can overflow a sum of calls.
 */
uint64_t
profile_call_bound(const struct profile *p)
{
	return p->call_bound;
}

/*
 * Add a call from caller at (file, line) to callee, made count times
 * with inclusive cost; return nonzero if a sum overflowed.
 */
int
profile_add_call(struct profile *p, uint32_t caller, uint32_t file,
    uint64_t line, uint32_t callee, uint64_t count, const uint64_t *cost)
{
	return profile_pair_add_call(p, profile_pair_get(p, caller, file),
	    line, callee, count, cost);
}

/*
 * Arc id is the next: make the pages of the per-arc arrays it enters
 * present at once (see xahead()), not one trap a page (cc1 with cache
 * simulation: a fifth of the faults of a read were the arcs' costs).
 */
static void
profile_arc_present(struct profile *p, uint32_t id)
{
	xahead_at(p->arc_cost, id, p->nevents * sizeof(*p->arc_cost),
	    p->arc_cap);
	xahead_at(p->arc_count, id, sizeof(*p->arc_count), p->arc_cap);
	xahead_at(p->arc_line, id, sizeof(*p->arc_line), p->arc_cap);
	xahead_at(p->arc_pair, id, sizeof(*p->arc_pair), p->arc_cap);
	xahead_at(p->arc_callee, id, sizeof(*p->arc_callee), p->arc_cap);
}

/*
 * Add a call from line of pair to callee, made count times with
 * inclusive cost (nothing if the pair's lines are summed and such calls
 * are not kept); return nonzero if a sum overflowed.
 */
int
profile_pair_add_call(struct profile *p, uint32_t pair, uint64_t line,
    uint32_t callee, uint64_t count, const uint64_t *cost)
{
	struct linetab	*t;
	struct aslot	*sl;
	uint32_t	 id = p->last_arc, j;
	int		 over = 0;

	if (p->ptab[pair].one) {
		/* Not kept, not summed: no sum of them can overflow. */
		if (p->drop_calls)
			return 0;
		line = 0;
	}
	if (id != KEYTAB_NONE && p->arc_pair[id] == pair &&
	    p->arc_callee[id] == callee && p->arc_line[id] == line)
		goto found;
	t = &p->ptab[pair];
	if (t->amask == 0)
		profile_arctab_grow(p, t);
	for (j = profile_arc_hash(callee, line, t->amask); ;
	    j = (j + 1) & t->amask) {
		sl = &p->aslots[t->aoff + j];
		if (sl->id == 0)
			break;
		if (sl->callee == callee && sl->line == line) {
			id = sl->id - 1;
			goto found;
		}
	}
	if (p->narcs == UINT32_MAX - 1)
		errx(1, "more than %u distinct calls", UINT32_MAX - 2);
	id = p->narcs++;
	if (id >= p->arc_cap)
		profile_arc_resize(p, p->arc_cap ? p->arc_cap * 2 : 256);
	profile_arc_present(p, id);
	cost_clear(p->arc_cost + (uint64_t)id * p->nevents, p->nevents);
	p->arc_count[id] = 0;
	p->arc_pair[id] = pair;
	p->arc_callee[id] = callee;
	p->arc_line[id] = line;
	sl->line = line;
	sl->callee = callee;
	sl->id = id + 1;
	if (TAB_FULL(++t->an, (uint64_t)t->amask + 1))
		profile_arctab_grow(p, t);
found:
	p->last_arc = id;
	profile_bound_add(p, count, cost);
	if (__builtin_add_overflow(p->arc_count[id], count, &p->arc_count[id])) {
		p->arc_count[id] = UINT64_MAX;
		over = 1;
	}
	return cost_add(p->arc_cost + (uint64_t)id * p->nevents, cost,
	    p->nevents) | over;
}

/* Tell how much p holds, for profile_reserve(). */
void
profile_size(const struct profile *p, struct profile_size *z)
{
	z->nfuncs = p->funcs.n;
	z->npairs = p->pairs.n;
	z->nlines = p->nlines;
	z->narcs = p->narcs;
	z->ndense = p->ndense;
	z->nslots = p->nslots;
	z->naslots = p->naslots;
	z->ninstrs = p->ins != NULL ? instrs_count(p->ins) : 0;
}

/*
 * Make room in p, whose events are known, for as much as z says, so
 * that filling it that far grows no table (a profile read in chunks is
 * made again and again, each about as big as the last).
 */
void
profile_reserve(struct profile *p, const struct profile_size *z)
{
	keytab_reserve(&p->funcs, z->nfuncs);
	if (z->nfuncs > p->fn_cap)
		profile_fn_resize(p, z->nfuncs);
	keytab_reserve(&p->pairs, z->npairs);
	if (z->npairs > p->ptab_cap)
		profile_ptab_resize(p, z->npairs);
	if (p->nevents > 0 && z->nlines > p->line_cap)
		profile_line_resize(p, z->nlines);
	if (p->nevents > 0)
		packed_reserve(&p->line_cost, z->nlines);
	if (p->nevents > 0 && z->narcs > p->arc_cap)
		profile_arc_resize(p, z->narcs);
	p->dense = xgrow(p->dense, &p->dense_cap, z->ndense, sizeof(*p->dense));
	p->slots = xgrow(p->slots, &p->slots_cap, z->nslots, sizeof(*p->slots));
	p->aslots = xgrow(p->aslots, &p->aslots_cap, z->naslots,
	    sizeof(*p->aslots));
	if (p->nevents > 0 && z->ninstrs > 0)
		instrs_reserve(profile_instrs_mut(p), z->ninstrs);
}
