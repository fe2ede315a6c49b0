/*
 * profile.c - the profile model: interned names, id-indexed tables of
 * objects, files, functions, per-line self costs and call arcs, with
 * costs in flat arrays of n-event vectors.
 */
#include "compat.h"

#include <stdlib.h>
#include <string.h>

#include "cost.h"
#include "instrs.h"
#include "keytab.h"
#include "profile.h"
#include "strtab.h"
#include "packed.h"
#include "stacks.h"
#include "xmalloc.h"

/*
 * Each (function, file) pair has its own table of line numbers, a slice
 * of a shared arena, so looking up the lines of one function touches
 * only its few cache lines however big the profile.  A pair's lines span
 * a compact range, visited in nearly increasing order: the table is a
 * dense array indexed by line - base while the range stays within
 * LINE_DENSE times the lines held, and an open-addressing hash table
 * beyond (so that huge or scattered line numbers cannot size it), at
 * most three quarters full, as a pair's table of calls: denser tables
 * are fewer cache lines and fewer pages.
 */
#define LINE_DENSE	8
#define TAB_FULL(n, slots) (4 * (uint64_t)(n) > 3 * (uint64_t)(slots))

struct lslot {
	uint64_t	 line;
	uint32_t	 id;		/* line id + 1, 0 if empty */
};

struct linetab {
	uint64_t	 base;		/* dense: line of the first entry;
					   one line (no table): that line */
	size_t		 off;		/* first entry in its arena */
	uint32_t	 len;		/* dense: entries; hashed: slots - 1;
					   0: no table (n is 0 or 1) */
	uint32_t	 n;		/* lines held */
	uint32_t	 first;		/* id of its first line */
	int		 hashed;
	size_t		 aoff;		/* the pair's calls: a hash table of */
	uint32_t	 amask;		/*   (callee, line) in the arc arena, */
	uint32_t	 an;		/*   amask + 1 slots, an used */
};

#define MERGE_AHEAD	8	/* functions a merge loads ahead */

/*
 * Tables given up when they grow, to be taken again: one list of
 * offsets per size, each a power of two.
 */
#define FREE_CLASSES	33
struct freelist {
	size_t		*off;
	size_t		 n, cap;
};

/* A call arc in the table of its (caller, file) pair. */
struct aslot {
	uint64_t	 line;
	uint32_t	 callee;
	uint32_t	 id;		/* arc id + 1, 0 if empty */
};

struct profile {
	struct strtab	 *strs;
	uint32_t	 *events;	/* string ids of events: names */
	uint32_t	  events_list;	/* the names joined by spaces */
	unsigned	  nevents;
	unsigned	  nrecorded;	/* the first events, from events: */
	enum profile_rows rows;
	struct keytab	  evnames;	/* name string id -> event index */
	struct event_def *defs;
	size_t		  ndefs, defs_cap;
	struct keytab	  defnames;	/* event name -> def */
	struct part	 *parts;
	size_t		  nparts, parts_cap;
	struct keytab	  objects;	/* (name) */
	struct keytab	  files;	/* (name) */
	struct keytab	  funcs;	/* (object, file, name) */
	uint64_t	 *fn_seq;	/* function id -> last fn= number */
	uint32_t	 *fn_pair;	/* function id -> its own file's pair */
	uint32_t	 *fn_pair2;	/*   and the last other pair of it */
	uint32_t	 *fn_pair2_file; /*   with that pair's file */
	uint32_t	  fn_cap;
	uint64_t	  seq;		/* fn= lines so far */
	struct keytab	  pairs;	/* (function, file) visited */
	struct linetab	 *ptab;		/* pair -> its table of lines */
	uint32_t	  ptab_cap;
	struct lslot	 *slots;	/* hashed line tables, one arena */
	size_t		  nslots, slots_cap;
	uint32_t	 *dense;	/* dense line tables: id + 1, or 0 */
	size_t		  ndense, dense_cap;
	struct freelist	  free_slots[FREE_CLASSES]; /* tables given up, */
	struct freelist	  free_dense[FREE_CLASSES]; /*   by log2 of */
	struct freelist	  free_aslots[FREE_CLASSES]; /*  their size */
	uint32_t	 *line_pair;	/* line id -> pair */
	uint64_t	 *line_no;	/* line id -> line number */
	uint32_t	  nlines;
	struct packed	  line_cost;	/* line id -> its counts */
	uint32_t	  line_cap;	/* line_pair, line_no allocated */
	uint32_t	  last_line;	/* cache of the last line id, */
	uint64_t	  last_line_no;	/* its line number */
	uint32_t	  last_line_pair; /* and its pair */
	uint32_t	  cur_pair;	/* cache of the last pair */
	uint32_t	  cur_fn, cur_file;
	struct aslot	 *aslots;	/* per-pair arc tables, one arena */
	size_t		  naslots, aslots_cap;
	uint32_t	 *arc_pair;	/* arc id -> (caller, call-site file) */
	uint32_t	 *arc_callee;	/* arc id -> callee */
	uint64_t	 *arc_line;	/* arc id -> call-site line */
	uint32_t	  narcs;
	uint64_t	 *arc_count;
	uint64_t	 *arc_cost;	/* arc id * nevents */
	uint32_t	  arc_cap;	/* vectors allocated */
	uint32_t	  last_arc;
	uint64_t	  call_bound;	/* the sum of every count and cost
					   of a call added (at most COST_MAX):
					   no sum of calls is above it */
	struct instrs	 *ins;		/* machine code costs, if kept */
	struct stacks	 *stk;		/* exact stacks, if kept */
	unsigned	  cap_nevents;	/* after profile_clear(): the events
					   of line_cap and arc_cap */
};

static void	 profile_drop_parts(struct profile *);
static void	 profile_fn_resize(struct profile *, uint32_t);
static void	 profile_ptab_resize(struct profile *, uint32_t);
static void	 profile_line_resize(struct profile *, uint32_t);
static void	 profile_arc_resize(struct profile *, uint32_t);
static uint32_t	 profile_pair_get(struct profile *, uint32_t, uint32_t);
static int	 profile_pair_add_self(struct profile *, uint32_t, uint64_t,
		    const uint64_t *, unsigned);
static uint32_t	 profile_pair_line(struct profile *, uint32_t, uint64_t,
		    int *);
static int	 profile_pair_add_call(struct profile *, uint32_t, uint64_t,
		    uint32_t, uint64_t, const uint64_t *);
static void	*profile_take(void *, size_t *, size_t *, struct freelist *,
		    unsigned, size_t, size_t *);
static void	 profile_give(struct freelist *, unsigned, size_t);
static unsigned	 profile_log2(uint64_t);
static void	 profile_pair_prefetch(const struct profile *, uint32_t);
static void	 profile_bound_add(struct profile *, uint64_t,
		    const uint64_t *);
static void	 profile_func_ahead(const struct profile *,
		    const struct profile *, const uint32_t *, uint32_t, int);
static void	 profile_pairkey_ahead(const struct profile *, uint32_t,
		    uint32_t, int);
static void	 profile_line_ahead(const struct profile *, uint32_t,
		    uint64_t, int);
static void	 profile_arc_ahead(const struct profile *, uint32_t,
		    uint32_t, uint64_t, int);
static void	 profile_linetab_grow(struct profile *, uint32_t, uint64_t);
static void	 profile_arctab_grow(struct profile *, struct linetab *);
static void	 profile_hash_put(struct profile *, const struct linetab *,
		    uint64_t, uint32_t);

/* Create an empty profile. */
struct profile *
profile_create(void)
{
	struct profile	*p;

	p = xcalloc(1, sizeof(*p));
	p->strs = strtab_create();
	keytab_init(&p->objects, 1);
	keytab_init(&p->files, 1);
	keytab_init_indexed(&p->funcs, 3, 2);	/* by name */
	keytab_init_indexed(&p->pairs, 2, 0);	/* by function */
	keytab_init(&p->defnames, 1);
	keytab_init(&p->evnames, 1);
	packed_init(&p->line_cost);
	p->cur_pair = KEYTAB_NONE;
	p->last_line = p->last_arc = KEYTAB_NONE;
	return p;
}

/* Free what the parts of p hold, and forget them (the array stays). */
static void
profile_drop_parts(struct profile *p)
{
	size_t	i;

	for (i = 0; i < p->nparts; i++) {
		free(p->parts[i].desc);
		free(p->parts[i].summary);
		free(p->parts[i].totals);
		free(p->parts[i].sum);
	}
	p->nparts = 0;
}

/*
 * Empty p, as profile_create() makes it, but keep the memory of its
 * tables: a profile made again and again (one per chunk of a file read
 * ahead) then touches no new pages.  The cost vectors' capacity holds
 * for as many events as before (see profile_set_events()).
 */
void
profile_clear(struct profile *p)
{
	unsigned	i;

	profile_drop_parts(p);
	free(p->events);
	p->events = NULL;
	p->cap_nevents = p->nevents;
	p->nevents = p->nrecorded = 0;
	p->rows = PROFILE_ROWS_FUNCTIONS;
	instrs_free(p->ins);
	p->ins = NULL;
	stacks_free(p->stk);
	p->stk = NULL;
	p->events_list = 0;
	free(p->defs);
	p->defs = NULL;
	p->ndefs = p->defs_cap = 0;
	keytab_clear(&p->objects);
	keytab_clear(&p->files);
	keytab_clear(&p->funcs);
	keytab_clear(&p->pairs);
	keytab_clear(&p->defnames);
	keytab_clear(&p->evnames);
	p->seq = 0;
	p->nslots = p->ndense = p->naslots = 0;
	for (i = 0; i < FREE_CLASSES; i++)
		p->free_slots[i].n = p->free_dense[i].n =
		    p->free_aslots[i].n = 0;
	p->nlines = p->narcs = 0;
	packed_clear(&p->line_cost, 0);
	p->cur_pair = KEYTAB_NONE;
	p->last_line = p->last_arc = KEYTAB_NONE;
	p->call_bound = 0;
	strtab_clear(p->strs);
}

/* Free a profile and everything it holds. */
void
profile_free(struct profile *p)
{
	unsigned	i;

	if (p == NULL)
		return;
	instrs_free(p->ins);
	stacks_free(p->stk);
	profile_drop_parts(p);
	free(p->parts);
	free(p->events);
	free(p->defs);
	keytab_free(&p->objects);
	keytab_free(&p->files);
	keytab_free(&p->funcs);
	keytab_free(&p->pairs);
	keytab_free(&p->defnames);
	keytab_free(&p->evnames);
	free(p->ptab);
	free(p->slots);
	free(p->dense);
	for (i = 0; i < FREE_CLASSES; i++) {
		free(p->free_slots[i].off);
		free(p->free_dense[i].off);
		free(p->free_aslots[i].off);
	}
	free(p->line_pair);
	free(p->line_no);
	free(p->aslots);
	free(p->arc_pair);
	free(p->arc_callee);
	free(p->arc_line);
	free(p->fn_seq);
	free(p->fn_pair);
	free(p->fn_pair2);
	free(p->fn_pair2_file);
	packed_free(&p->line_cost);
	free(p->arc_count);
	free(p->arc_cost);
	strtab_free(p->strs);
	free(p);
}

/* Return the string id of len bytes at s. */
uint32_t
profile_intern(struct profile *p, const char *s, size_t len)
{
	return strtab_intern(p->strs, s, len);
}

/* Return the id in p of string id of src, adding it if new. */
uint32_t
profile_intern_from(struct profile *p, const struct profile *src,
    uint32_t id)
{
	return strtab_copy(p->strs, src->strs, id);
}

/* Start loading what profile_intern_from() will read first for id. */
void
profile_intern_prefetch(const struct profile *p, const struct profile *src,
    uint32_t id)
{
	strtab_copy_prefetch(p->strs, src->strs, id);
}

/* Return the string id of the n strings ids joined by single spaces. */
uint32_t
profile_intern_list(struct profile *p, const uint32_t *ids, size_t n)
{
	char		*list;
	size_t		 i, len = 0, l;
	uint32_t	 id;

	for (i = 0; i < n; i++)
		len += profile_strlen(p, ids[i]) + 1;
	list = xmalloc(len + 1);
	len = 0;
	for (i = 0; i < n; i++) {
		if (i > 0)
			list[len++] = ' ';
		l = profile_strlen(p, ids[i]);
		memcpy(list + len, profile_str(p, ids[i]), l);
		len += l;
	}
	id = profile_intern(p, list, len);
	free(list);
	return id;
}

/*
 * Fix the profile's events; only the first call counts.  Return 0 if
 * the events are now those given, -1 if they were fixed differently.
 */
int
profile_set_events(struct profile *p, const uint32_t *names, unsigned n)
{
	uint64_t	key;
	unsigned	i;

	if (p->nevents == 0 && p->events == NULL) {
		/* Cost vectors kept by profile_clear() fit fewer now. */
		if (n > p->cap_nevents)
			p->line_cap = p->arc_cap = 0;
		p->events = xreallocarray(NULL, n, sizeof(*names));
		memcpy(p->events, names, n * sizeof(*names));
		p->nevents = p->nrecorded = n;
		packed_clear(&p->line_cost, n);
		p->events_list = profile_intern_list(p, names, n);
		for (i = 0; i < n; i++) {
			key = names[i];
			(void)keytab_get(&p->evnames, &key, NULL);
		}
		return 0;
	}
	if (n == p->nevents && memcmp(names, p->events, n * sizeof(*names)) == 0)
		return 0;
	return -1;
}

/* Record an event: line (the last for a name wins). */
void
profile_add_event_def(struct profile *p, const struct event_def *def)
{
	uint64_t	key = def->name;
	uint32_t	i;
	int		created;

	i = keytab_get(&p->defnames, &key, &created);
	if (created) {
		p->defs = xgrow(p->defs, &p->defs_cap, (size_t)i + 1,
		    sizeof(*p->defs));
		p->ndefs++;
	}
	p->defs[i] = *def;
}

/*
 * Add n events computed from the recorded ones (derived events), after
 * them: before any cost is added, and not in the events: list.
 */
void
profile_add_derived(struct profile *p, const uint32_t *names, unsigned n)
{
	uint64_t	key;
	unsigned	i;

	p->events = xreallocarray(p->events, p->nevents + n,
	    sizeof(*p->events));
	for (i = 0; i < n; i++) {
		p->events[p->nevents + i] = names[i];
		key = names[i];
		(void)keytab_get(&p->evnames, &key, NULL);
	}
	p->nevents += n;
	p->line_cap = p->arc_cap = 0;
	packed_clear(&p->line_cost, p->nevents);
}

/* Say what the profile's functions are (profile_rows()). */
void
profile_set_rows(struct profile *p, enum profile_rows rows)
{
	p->rows = rows;
}

/* Start a new part read from the file named by string id file. */
struct part *
profile_new_part(struct profile *p, uint32_t file)
{
	struct part	*pt;

	p->parts = xgrow(p->parts, &p->parts_cap, p->nparts + 1,
	    sizeof(*p->parts));
	pt = &p->parts[p->nparts++];
	memset(pt, 0, sizeof(*pt));
	pt->file = file;
	return pt;
}

/* Return part i for changing (for the parser). */
struct part *
profile_part_mut(struct profile *p, size_t i)
{
	return &p->parts[i];
}

/* Append a desc: value to a part. */
void
profile_part_add_desc(struct profile *p, struct part *pt, uint32_t desc)
{
	(void)p;
	if ((pt->ndesc & (pt->ndesc - 1)) == 0)
		pt->desc = xreallocarray(pt->desc, pt->ndesc ? 2 * pt->ndesc :
		    1, sizeof(*pt->desc));
	pt->desc[pt->ndesc++] = desc;
}

/* Set a part's summary or totals vector (*slot) to counts. */
void
profile_part_set_costs(struct profile *p, uint64_t **slot,
    const uint64_t *counts)
{
	if (*slot == NULL)
		*slot = xreallocarray(NULL, p->nevents, sizeof(**slot));
	memcpy(*slot, counts, p->nevents * sizeof(**slot));
}

/* Return the id of the function (object, file, name), adding it if new. */
uint32_t
profile_func_id(struct profile *p, uint32_t obj, uint32_t file, uint32_t name)
{
	uint64_t	key[3] = { obj, file, name };
	uint32_t	id;
	int		created;

	id = keytab_get(&p->funcs, key, &created);
	if (created) {
		keytab_get(&p->objects, key, NULL);
		keytab_get(&p->files, key + 1, NULL);
		if (id >= p->fn_cap)
			profile_fn_resize(p, p->fn_cap ? p->fn_cap * 2 : 256);
		p->fn_seq[id] = 0;
		p->fn_pair[id] = p->fn_pair2[id] = KEYTAB_NONE;
	}
	return id;
}

/* Note that an fn= line named function fn (the last one names its object). */
void
profile_func_mark(struct profile *p, uint32_t fn)
{
	p->fn_seq[fn] = ++p->seq;
}

/* Note that function fn has code in file, even if no cost follows. */
void
profile_touch(struct profile *p, uint32_t fn, uint32_t file)
{
	(void)profile_pair_get(p, fn, file);
}

/* Return the pair (fn, file), adding it with an empty line table. */
static uint32_t
profile_pair_get(struct profile *p, uint32_t fn, uint32_t file)
{
	uint64_t	 key[2] = { fn, file };
	uint32_t	 id;
	int		 created, own;

	if (p->cur_pair != KEYTAB_NONE && p->cur_fn == fn &&
	    p->cur_file == file)
		return p->cur_pair;
	own = file == (uint32_t)keytab_key(&p->funcs, fn)[1];
	if (own && p->fn_pair[fn] != KEYTAB_NONE) {
		id = p->fn_pair[fn];
		goto done;
	}
	if (!own && p->fn_pair2[fn] != KEYTAB_NONE &&
	    p->fn_pair2_file[fn] == file) {
		id = p->fn_pair2[fn];
		goto done;
	}
	id = keytab_get(&p->pairs, key, &created);
	/* Remember the pair of the function's own file, and the last of
	 * another (code inlined from a header). */
	if (own)
		p->fn_pair[fn] = id;
	else {
		p->fn_pair2[fn] = id;
		p->fn_pair2_file[fn] = file;
	}
	if (created) {
		keytab_get(&p->files, key + 1, NULL);
		if (id >= p->ptab_cap)
			profile_ptab_resize(p, p->ptab_cap ? p->ptab_cap * 2 :
			    256);
		memset(&p->ptab[id], 0, sizeof(p->ptab[id]));
	}
done:
	profile_pair_prefetch(p, id);
	p->cur_pair = id;
	p->cur_fn = fn;
	p->cur_file = file;
	return id;
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
    unsigned cls, size_t size, size_t *off)
{
	size_t	count = (size_t)1 << cls;

	if (fl[cls].n > 0)
		*off = fl[cls].off[--fl[cls].n];
	else {
		*off = *n;
		arr = xgrow(arr, cap, *n + count, size);
		*n += count;
	}
	memset((char *)arr + *off * size, 0, count * size);
	return arr;
}

/* Give up the table of 2^cls elements at off, for profile_take(). */
static void
profile_give(struct freelist *fl, unsigned cls, size_t off)
{
	fl[cls].off = xgrow(fl[cls].off, &fl[cls].cap, fl[cls].n + 1,
	    sizeof(*fl[cls].off));
	fl[cls].off[fl[cls].n++] = off;
}

/* Return the hash slot where line starts probing in a table of mask. */
static inline uint32_t
profile_line_hash(uint64_t line, uint32_t mask)
{
	return (uint32_t)((line * 0x9e3779b97f4a7c15ULL) >> 32) & mask;
}

/* Put (line, id + 1) into the hashed table t, which has room. */
static void
profile_hash_put(struct profile *p, const struct linetab *t, uint64_t line,
    uint32_t idp1)
{
	uint32_t	j;

	j = profile_line_hash(line, t->len);
	while (p->slots[t->off + j].id != 0)
		j = (j + 1) & t->len;
	p->slots[t->off + j].line = line;
	p->slots[t->off + j].id = idp1;
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
		if (hi > lo && len <= LINE_DENSE * (uint64_t)t.n + 64 &&
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
	for (cls = 3; TAB_FULL(t.n + 1, 1ULL << cls); cls++)
		continue;
	nt.len = ((uint32_t)1 << cls) - 1;
	p->slots = profile_take(p->slots, &p->nslots, &p->slots_cap,
	    p->free_slots, cls, sizeof(*p->slots), &nt.off);
	if (t.hashed) {
		for (i = 0; i <= t.len; i++)
			if (p->slots[t.off + i].id != 0)
				profile_hash_put(p, &nt,
				    p->slots[t.off + i].line,
				    p->slots[t.off + i].id);
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
	p->fn_pair2 = xreallocarray(p->fn_pair2, cap, sizeof(*p->fn_pair2));
	p->fn_pair2_file = xreallocarray(p->fn_pair2_file, cap,
	    sizeof(*p->fn_pair2_file));
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

	if (id != KEYTAB_NONE && p->last_line_no == line &&
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
static uint32_t
profile_pair_line(struct profile *p, uint32_t pair, uint64_t line,
    int *created)
{
	struct linetab	*t = &p->ptab[pair];
	struct lslot	*sl = NULL;
	uint32_t	 id, j, *dn = NULL;

	*created = 0;
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
			if (sl->id == 0)
				break;
			if (sl->line == line) {
				id = sl->id - 1;
				goto found;
			}
		}
	}
add:
	/* A new line of this function. */
	if (p->nlines == UINT32_MAX - 1)
		abort();
	id = p->nlines++;
	if (id >= p->line_cap)
		profile_line_resize(p, p->line_cap ? p->line_cap * 2 : 256);
	*created = 1;
	p->line_pair[id] = pair;
	p->line_no[id] = line;
	if (t->n++ == 0) {
		t->first = id;
		t->base = line;
	} else if (t->hashed) {
		sl->line = line;
		sl->id = id + 1;
		if (TAB_FULL(t->n, (uint64_t)t->len + 1))
			profile_linetab_grow(p, pair, line);
	} else
		*dn = id + 1;
found:
	p->last_line = id;
	p->last_line_no = line;
	p->last_line_pair = pair;
	return id;
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

/* Return the first count of the line profile_add_self() last added to. */
uint64_t
profile_last_count(const struct profile *p)
{
	return packed_first(&p->line_cost, p->last_line);
}

/* Return the arc-table slot where (callee, line) starts probing. */
static inline uint32_t
profile_arc_hash(uint32_t callee, uint64_t line, uint32_t mask)
{
	return (uint32_t)(((line ^ (uint64_t)callee << 32) *
	    0x9e3779b97f4a7c15ULL) >> 32) & mask;
}

/* Double (or create) the arc table of a pair in the arc arena. */
static void
profile_arctab_grow(struct profile *p, struct linetab *t)
{
	uint32_t	 mask = t->amask ? t->amask * 2 + 1 : 3, i, j;
	size_t		 off, old = t->aoff;

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
 * Add a call from line of pair to callee, made count times with
 * inclusive cost; return nonzero if a sum overflowed.
 */
static int
profile_pair_add_call(struct profile *p, uint32_t pair, uint64_t line,
    uint32_t callee, uint64_t count, const uint64_t *cost)
{
	struct linetab	*t;
	struct aslot	*sl;
	uint32_t	 id = p->last_arc, j;
	int		 over = 0;

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
		abort();
	id = p->narcs++;
	if (id >= p->arc_cap)
		profile_arc_resize(p, p->arc_cap ? p->arc_cap * 2 : 256);
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

/* Return the bytes of string id. */
const char *
profile_str(const struct profile *p, uint32_t id)
{
	return strtab_get(p->strs, id);
}

/* Start loading what profile_str() and profile_strlen() of id read. */
void
profile_str_prefetch(const struct profile *p, uint32_t id)
{
	strtab_prefetch(p->strs, id);
}

/* Return the length of string id (known, no need to count). */
size_t
profile_strlen(const struct profile *p, uint32_t id)
{
	return strtab_len(p->strs, id);
}

/* Return the id of string s if the profile holds it, else UINT32_MAX. */
uint32_t
profile_str_find(const struct profile *p, const char *s)
{
	return strtab_find(p->strs, s, strlen(s));
}

/* Return how many string ids there are (ids are below this). */
uint32_t
profile_nstrings(const struct profile *p)
{
	return strtab_count(p->strs);
}

/* Return the number of events. */
unsigned
profile_nevents(const struct profile *p)
{
	return p->nevents;
}

/*
 * Return p's machine code costs for adding to, made on first use for
 * its events (which are known by then).
 */
struct instrs *
profile_instrs_mut(struct profile *p)
{
	if (p->ins == NULL)
		p->ins = instrs_new(p->nevents);
	return p->ins;
}

/* Return p's exact stacks for adding to, made on first use. */
struct stacks *
profile_stacks_mut(struct profile *p)
{
	if (p->stk == NULL)
		p->stk = stacks_new(p->nevents);
	return p->stk;
}

/* Return p's exact stacks, NULL if it holds none. */
const struct stacks *
profile_stacks(const struct profile *p)
{
	return p->stk;
}

/* Return p's machine code costs, NULL if none were kept. */
const struct instrs *
profile_instrs(const struct profile *p)
{
	return p->ins;
}

/* Return the number of events recorded (the first; derived ones follow). */
unsigned
profile_nrecorded(const struct profile *p)
{
	return p->nrecorded;
}

/* Return what the functions of p are: functions, objects or files. */
enum profile_rows
profile_rows(const struct profile *p)
{
	return p->rows;
}

/* Return the string id of event i. */
uint32_t
profile_event(const struct profile *p, unsigned i)
{
	return p->events[i];
}

/* Return the index of the event named name, or -1. */
int
profile_event_index(const struct profile *p, const char *name)
{
	uint64_t	key;
	uint32_t	id;

	if ((id = strtab_find(p->strs, name, strlen(name))) == UINT32_MAX)
		return -1;
	key = id;
	id = keytab_find(&p->evnames, &key);
	return id == KEYTAB_NONE ? -1 : (int)id;
}

/* Return the number of event: definitions. */
size_t
profile_nevent_defs(const struct profile *p)
{
	return p->ndefs;
}

/* Return the string id of the profile's events joined by spaces. */
uint32_t
profile_events_list(const struct profile *p)
{
	return p->events_list;
}

/* Return event: definition i. */
const struct event_def *
profile_event_def(const struct profile *p, size_t i)
{
	return &p->defs[i];
}

/* Return the number of parts. */
size_t
profile_nparts(const struct profile *p)
{
	return p->nparts;
}

/* Return part i. */
const struct part *
profile_part(const struct profile *p, size_t i)
{
	return &p->parts[i];
}

/* Return the number of distinct objects. */
uint32_t
profile_nobjects(const struct profile *p)
{
	return p->objects.n;
}

/* Return the string id of object i. */
uint32_t
profile_object(const struct profile *p, uint32_t i)
{
	return (uint32_t)keytab_key(&p->objects, i)[0];
}

/* Return the number of distinct files. */
uint32_t
profile_nfiles(const struct profile *p)
{
	return p->files.n;
}

/* Return the string id of file i. */
uint32_t
profile_file(const struct profile *p, uint32_t i)
{
	return (uint32_t)keytab_key(&p->files, i)[0];
}

/* Return the number of functions. */
uint32_t
profile_nfuncs(const struct profile *p)
{
	return p->funcs.n;
}

/* Give the object, file and name string ids of function fn. */
void
profile_func(const struct profile *p, uint32_t fn, uint32_t *obj,
    uint32_t *file, uint32_t *name)
{
	const uint64_t	*k = keytab_key(&p->funcs, fn);

	*obj = (uint32_t)k[0];
	*file = (uint32_t)k[1];
	*name = (uint32_t)k[2];
}

/* Return the number of the last fn= line naming fn, 0 if none. */
uint64_t
profile_func_seq(const struct profile *p, uint32_t fn)
{
	return p->fn_seq[fn];
}

/* Return the number of (function, file) pairs seen. */
uint32_t
profile_npairs(const struct profile *p)
{
	return p->pairs.n;
}

/* Give the function and file string id of pair i. */
void
profile_pair(const struct profile *p, uint32_t i, uint32_t *fn,
    uint32_t *file)
{
	const uint64_t	*k = keytab_key(&p->pairs, i);

	*fn = (uint32_t)k[0];
	*file = (uint32_t)k[1];
}

/* Return the id of pair (fn, file), or UINT32_MAX if never seen. */
uint32_t
profile_pair_find(const struct profile *p, uint32_t fn, uint32_t file)
{
	uint64_t	key[2] = { fn, file };

	return keytab_find(&p->pairs, key);
}

/* Return the number of (function, file, line) self-cost entries. */
uint32_t
profile_nlines(const struct profile *p)
{
	return p->nlines;
}

/* Give the function, file string id and line number of entry i. */
void
profile_line(const struct profile *p, uint32_t i, uint32_t *fn,
    uint32_t *file, uint64_t *line)
{
	const uint64_t	*k = keytab_key(&p->pairs, p->line_pair[i]);

	*fn = (uint32_t)k[0];
	*file = (uint32_t)k[1];
	*line = p->line_no[i];
}

/* Return the (function, file) pair of entry i. */
uint32_t
profile_line_pair(const struct profile *p, uint32_t i)
{
	return p->line_pair[i];
}

/* Give the counts of entry i in out (profile_nevents() of them). */
void
profile_line_cost(const struct profile *p, uint32_t i, uint64_t *out)
{
	(void)packed_get(&p->line_cost, i, out);
}

/* Add the counts of entry i to sum; return nonzero on overflow. */
int
profile_line_sum(const struct profile *p, uint32_t i, uint64_t *sum)
{
	return packed_sum(&p->line_cost, i, sum);
}

/*
 * Add the counts of every entry to the row of its (function, file)
 * pair: out + nevents * pair_row[pair], nrows rows; return nonzero on
 * overflow.
 */
int
profile_lines_sum(const struct profile *p, const uint32_t *pair_row,
    uint32_t nrows, uint64_t *out)
{
	return packed_sum_groups(&p->line_cost, p->line_pair, pair_row, nrows,
	    out);
}

/* Return the number of call arcs (per call site). */
uint32_t
profile_narcs(const struct profile *p)
{
	return p->narcs;
}

/* Give the caller, callee, call-site file string id and line of arc i. */
void
profile_arc(const struct profile *p, uint32_t i, uint32_t *caller,
    uint32_t *callee, uint32_t *file, uint64_t *line)
{
	const uint64_t	*k = keytab_key(&p->pairs, p->arc_pair[i]);

	*caller = (uint32_t)k[0];
	*callee = p->arc_callee[i];
	*file = (uint32_t)k[1];
	*line = p->arc_line[i];
}

/* Return the (caller, call-site file) pair of arc i. */
uint32_t
profile_arc_pair(const struct profile *p, uint32_t i)
{
	return p->arc_pair[i];
}

/* Return how many times the calls of arc i were made. */
uint64_t
profile_arc_count(const struct profile *p, uint32_t i)
{
	return p->arc_count[i];
}

/* Return the inclusive cost vector of arc i. */
const uint64_t *
profile_arc_cost(const struct profile *p, uint32_t i)
{
	return p->arc_cost + (uint64_t)i * p->nevents;
}

/* Sum every self cost into total (nevents counts, "." where none). */
void
profile_self_total(const struct profile *p, uint64_t *total)
{
	uint32_t	i;

	cost_clear(total, p->nevents);
	for (i = 0; i < p->nlines; i++)
		(void)profile_line_sum(p, i, total);
}

/*
 * Start loading, at the stage given (see keytab_prefetch()), what
 * profile_func_id() reads in dst for function i of src.
 */
static void
profile_func_ahead(const struct profile *dst, const struct profile *src,
    const uint32_t *strmap, uint32_t i, int stage)
{
	const uint64_t	*k = keytab_key(&src->funcs, i);
	uint64_t	 key[3] = { strmap[k[0]], strmap[k[1]], strmap[k[2]] };

	keytab_prefetch(&dst->funcs, key, stage);
}

/*
 * Start loading what looking up the pair (fn, file) in p will read: the
 * function's key and own pair (stage 0), then that pair's table or the
 * pairs' index (stage 1).
 */
static void
profile_pairkey_ahead(const struct profile *p, uint32_t fn, uint32_t file,
    int stage)
{
	uint64_t	key[2] = { fn, file };

	if (stage == 0) {
		__builtin_prefetch(keytab_key(&p->funcs, fn));
		__builtin_prefetch(&p->fn_pair[fn]);
		keytab_prefetch(&p->pairs, key, 0);
	} else if (p->fn_pair[fn] != KEYTAB_NONE)
		__builtin_prefetch(&p->ptab[p->fn_pair[fn]]);
	else
		keytab_prefetch(&p->pairs, key, 1);
}

/*
 * Start loading what adding to line of pair in p will read: the pair's
 * table (stage 0), the line's entry in it (1), the line's costs (2).
 */
static void
profile_line_ahead(const struct profile *p, uint32_t pair, uint64_t line,
    int stage)
{
	const struct linetab	*t = &p->ptab[pair];
	uint32_t		 id = 0;

	if (stage == 0) {
		__builtin_prefetch(t);
		return;
	}
	if (t->n == 0)
		return;
	if (t->hashed) {
		const struct lslot *sl = &p->slots[t->off +
		    profile_line_hash(line, t->len)];

		if (stage == 1)
			__builtin_prefetch(sl);
		else if (sl->line == line)
			id = sl->id;
	} else if (t->len == 0)
		id = t->base == line ? t->first + 1 : 0;
	else if (line - t->base < t->len) {
		if (stage == 1)
			__builtin_prefetch(&p->dense[t->off + (line - t->base)]);
		else
			id = p->dense[t->off + (line - t->base)];
	}
	if (stage == 2 && id != 0)
		packed_prefetch(&p->line_cost, id - 1);
}

/*
 * Start loading what adding a call from line of pair to callee in p
 * will read: the pair's table (stage 0), the call's slot (1), its count
 * and costs (2).
 */
static void
profile_arc_ahead(const struct profile *p, uint32_t pair, uint32_t callee,
    uint64_t line, int stage)
{
	const struct linetab	*t = &p->ptab[pair];
	const struct aslot	*sl;

	if (stage == 0) {
		__builtin_prefetch(t);
		return;
	}
	if (t->amask == 0)
		return;
	sl = &p->aslots[t->aoff + profile_arc_hash(callee, line, t->amask)];
	if (stage == 1)
		__builtin_prefetch(sl);
	else if (sl->id != 0 && sl->callee == callee && sl->line == line) {
		__builtin_prefetch(&p->arc_count[sl->id - 1]);
		__builtin_prefetch(p->arc_cost + (uint64_t)(sl->id - 1) *
		    p->nevents);
	}
}

/*
 * Add what src holds to dst as if src's input had been read after
 * dst's: functions (and their fn= order), the files their code is in,
 * self costs and call arcs, each in src's order, so that new entries get
 * the ids a single reading would have given them.  strmap maps every
 * string id of src to one of dst; fnmap (profile_nfuncs(src) long)
 * receives the dst id of each src function.  Return nonzero if a cost
 * sum overflowed (kept at the maximum).
 */
int
profile_merge(struct profile *dst, const struct profile *src,
    const uint32_t *strmap, uint32_t *fnmap)
{
	const uint64_t	*k;
	uint64_t	 seq;
	uint32_t	 i, j, id, *pairmap;
	int		 over = 0, created;

	for (i = 0; i < src->funcs.n; i++) {
		/* Overlap the cache misses of the lookups. */
		if (i + 2 * MERGE_AHEAD < src->funcs.n)
			profile_func_ahead(dst, src, strmap,
			    i + 2 * MERGE_AHEAD, 0);
		if (i + MERGE_AHEAD < src->funcs.n)
			profile_func_ahead(dst, src, strmap, i + MERGE_AHEAD, 1);
		k = keytab_key(&src->funcs, i);
		fnmap[i] = profile_func_id(dst, strmap[k[0]], strmap[k[1]],
		    strmap[k[2]]);
	}
	for (i = 0; i < src->funcs.n; i++) {
		if (i + MERGE_AHEAD < src->funcs.n)
			__builtin_prefetch(&dst->fn_seq[fnmap[i + MERGE_AHEAD]]);
		seq = src->fn_seq[i] > 0 ? dst->seq + src->fn_seq[i] : 0;
		if (seq > dst->fn_seq[fnmap[i]])
			dst->fn_seq[fnmap[i]] = seq;
	}
	dst->seq += src->seq;
	pairmap = xreallocarray(NULL, src->pairs.n > 0 ? src->pairs.n : 1,
	    sizeof(*pairmap));
	for (i = 0; i < src->pairs.n; i++) {
		for (j = 1; j <= 2; j++)
			if (i + j * MERGE_AHEAD < src->pairs.n) {
				k = keytab_key(&src->pairs,
				    i + j * MERGE_AHEAD);
				profile_pairkey_ahead(dst, fnmap[k[0]],
				    strmap[k[1]], 2 - j);
			}
		k = keytab_key(&src->pairs, i);
		pairmap[i] = profile_pair_get(dst, fnmap[k[0]], strmap[k[1]]);
	}
	/*
	 * Each line and call after that is one lookup in tables all over
	 * dst: start loading them three steps ahead, each step using what
	 * the one before loaded.
	 */
	for (i = 0; i < src->nlines; i++) {
		for (j = 1; j <= 3; j++)
			if (i + j * MERGE_AHEAD < src->nlines)
				profile_line_ahead(dst, pairmap[src->line_pair[
				    i + j * MERGE_AHEAD]], src->line_no[
				    i + j * MERGE_AHEAD], 3 - j);
		id = profile_pair_line(dst, pairmap[src->line_pair[i]],
		    src->line_no[i], &created);
		if (created)
			packed_new_from(&dst->line_cost, &src->line_cost, i);
		else
			over |= packed_add_from(&dst->line_cost, id,
			    &src->line_cost, i);
	}
	for (i = 0; i < src->narcs; i++) {
		for (j = 1; j <= 3; j++)
			if (i + j * MERGE_AHEAD < src->narcs)
				profile_arc_ahead(dst, pairmap[src->arc_pair[
				    i + j * MERGE_AHEAD]], fnmap[src->arc_callee[
				    i + j * MERGE_AHEAD]], src->arc_line[
				    i + j * MERGE_AHEAD], 3 - j);
		over |= profile_pair_add_call(dst, pairmap[src->arc_pair[i]],
		    src->arc_line[i], fnmap[src->arc_callee[i]],
		    src->arc_count[i], profile_arc_cost(src, i));
	}
	free(pairmap);
	return over;
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
}
