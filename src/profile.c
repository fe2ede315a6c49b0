/*
 * profile.c - the profile model: interned names, id-indexed tables of
 * objects, files, functions, per-line self costs and call arcs, with
 * costs in flat arrays of n-event vectors.
 */
#include "compat.h"

#include <stdlib.h>
#include <string.h>

#include "cost.h"
#include "keytab.h"
#include "profile.h"
#include "strtab.h"
#include "xmalloc.h"

struct profile {
	struct strtab	 *strs;
	uint32_t	 *events;	/* string ids of events: names */
	unsigned	  nevents;
	struct event_def *defs;
	size_t		  ndefs;
	struct part	 *parts;
	size_t		  nparts;
	struct keytab	  objects;	/* (name) */
	struct keytab	  files;	/* (name) */
	struct keytab	  funcs;	/* (object, file, name) */
	uint64_t	 *fn_seq;	/* function id -> last fn= number */
	uint32_t	  fn_cap;
	uint64_t	  seq;		/* fn= lines so far */
	struct keytab	  pairs;	/* (function, file) visited */
	struct keytab	  lines;	/* (function, file, line) */
	struct linecache {
		uint64_t	 key[3];
		uint32_t	 id;
	}		  lcache[256];	/* recent (function, file, line) */
	uint64_t	 *line_cost;	/* line id * nevents */
	uint32_t	  line_cap;	/* vectors allocated */
	uint32_t	  last_line;	/* cache of the last line id */
	struct keytab	  arcs;		/* (caller, callee, file, line) */
	uint64_t	 *arc_count;
	uint64_t	 *arc_cost;	/* arc id * nevents */
	uint32_t	  arc_cap;	/* vectors allocated */
	uint32_t	  last_arc;
};

static uint64_t	*profile_cost_new(uint64_t **, uint32_t *, uint32_t, unsigned);

/* Create an empty profile. */
struct profile *
profile_create(void)
{
	struct profile	*p;
	size_t		 i;

	p = xcalloc(1, sizeof(*p));
	p->strs = strtab_create();
	keytab_init(&p->objects, 1);
	keytab_init(&p->files, 1);
	keytab_init(&p->funcs, 3);
	keytab_init(&p->pairs, 2);
	keytab_init(&p->lines, 3);
	keytab_init(&p->arcs, 4);
	p->last_line = p->last_arc = KEYTAB_NONE;
	for (i = 0; i < 256; i++)
		p->lcache[i].id = KEYTAB_NONE;
	return p;
}

/* Free a profile and everything it holds. */
void
profile_free(struct profile *p)
{
	size_t	i;

	if (p == NULL)
		return;
	for (i = 0; i < p->nparts; i++) {
		free(p->parts[i].desc);
		free(p->parts[i].summary);
		free(p->parts[i].totals);
	}
	free(p->parts);
	free(p->events);
	free(p->defs);
	keytab_free(&p->objects);
	keytab_free(&p->files);
	keytab_free(&p->funcs);
	keytab_free(&p->pairs);
	keytab_free(&p->lines);
	keytab_free(&p->arcs);
	free(p->fn_seq);
	free(p->line_cost);
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

/*
 * Fix the profile's events; only the first call counts.  Return 0 if
 * the events are now those given, -1 if they were fixed differently.
 */
int
profile_set_events(struct profile *p, const uint32_t *names, unsigned n)
{
	if (p->nevents == 0 && p->events == NULL) {
		p->events = xreallocarray(NULL, n, sizeof(*names));
		memcpy(p->events, names, n * sizeof(*names));
		p->nevents = n;
		return 0;
	}
	if (n == p->nevents && memcmp(names, p->events, n * sizeof(*names)) == 0)
		return 0;
	return -1;
}

/* Record an event: line (short name, long name, formula). */
void
profile_add_event_def(struct profile *p, uint32_t name, uint32_t longname,
    uint32_t formula)
{
	struct event_def	*d;
	size_t			 i;

	for (i = 0; i < p->ndefs; i++)
		if (p->defs[i].name == name)
			break;
	if (i == p->ndefs) {
		p->defs = xreallocarray(p->defs, p->ndefs + 1,
		    sizeof(*p->defs));
		p->ndefs++;
	}
	d = &p->defs[i];
	d->name = name;
	d->longname = longname;
	d->formula = formula;
}

/* Start a new part read from the file named by string id file. */
struct part *
profile_new_part(struct profile *p, uint32_t file)
{
	struct part	*pt;

	p->parts = xreallocarray(p->parts, p->nparts + 1, sizeof(*p->parts));
	pt = &p->parts[p->nparts++];
	memset(pt, 0, sizeof(*pt));
	pt->file = file;
	return pt;
}

/* Append a desc: value to a part. */
void
profile_part_add_desc(struct profile *p, struct part *pt, uint32_t desc)
{
	(void)p;
	pt->desc = xreallocarray(pt->desc, pt->ndesc + 1, sizeof(*pt->desc));
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
		if (id >= p->fn_cap) {
			p->fn_cap = p->fn_cap ? p->fn_cap * 2 : 256;
			p->fn_seq = xreallocarray(p->fn_seq, p->fn_cap,
			    sizeof(*p->fn_seq));
		}
		p->fn_seq[id] = 0;
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
	uint64_t	key[2] = { fn, file };

	keytab_get(&p->files, key + 1, NULL);
	keytab_get(&p->pairs, key, NULL);
}

/* Make room for vector id in *arr (capacity *cap) and clear it. */
static uint64_t *
profile_cost_new(uint64_t **arr, uint32_t *cap, uint32_t id, unsigned n)
{
	uint64_t	*c;

	if (id >= *cap) {
		*cap = *cap ? *cap * 2 : 256;
		if (*cap <= id)
			*cap = id + 1;
		*arr = xreallocarray(*arr, (size_t)*cap, n * sizeof(**arr));
	}
	c = *arr + (uint64_t)id * n;
	cost_clear(c, n);
	return c;
}

/* Add cost to function fn at (file, line); return nonzero on overflow. */
int
profile_add_self(struct profile *p, uint32_t fn, uint32_t file,
    uint64_t line, const uint64_t *cost)
{
	uint64_t	 key[3] = { fn, file, line };
	struct linecache *lc;
	const uint64_t	*k;
	uint32_t	 id = p->last_line;
	int		 created;

	if (id != KEYTAB_NONE) {
		k = keytab_key(&p->lines, id);
		if (k[0] == fn && k[1] == file && k[2] == line)
			return cost_add(p->line_cost + (uint64_t)id *
			    p->nevents, cost, p->nevents);
	}
	lc = &p->lcache[(line * 0x9e3779b1u + fn * 0x85ebca6bu + file) >> 8 &
	    255];
	if (lc->id != KEYTAB_NONE && lc->key[0] == fn && lc->key[1] == file &&
	    lc->key[2] == line)
		id = lc->id;
	else {
		id = keytab_get(&p->lines, key, &created);
		if (created) {
			profile_cost_new(&p->line_cost, &p->line_cap, id,
			    p->nevents);
			profile_touch(p, fn, file);
		}
		memcpy(lc->key, key, sizeof(key));
		lc->id = id;
	}
	p->last_line = id;
	return cost_add(p->line_cost + (uint64_t)id * p->nevents, cost,
	    p->nevents);
}

/*
 * Add a call from caller at (file, line) to callee, made count times
 * with inclusive cost; return nonzero if a sum overflowed.
 */
int
profile_add_call(struct profile *p, uint32_t caller, uint32_t file,
    uint64_t line, uint32_t callee, uint64_t count, const uint64_t *cost)
{
	uint64_t	 key[4] = { caller, callee, file, line };
	const uint64_t	*k;
	uint32_t	 id = p->last_arc;
	int		 created, over = 0;

	if (id == KEYTAB_NONE || (k = keytab_key(&p->arcs, id),
	    k[0] != caller || k[1] != callee || k[2] != file || k[3] != line)) {
		id = keytab_get(&p->arcs, key, &created);
		if (created) {
			uint32_t	cap = p->arc_cap;

			profile_cost_new(&p->arc_cost, &p->arc_cap, id,
			    p->nevents);
			if (p->arc_cap != cap)
				p->arc_count = xreallocarray(p->arc_count,
				    p->arc_cap, sizeof(*p->arc_count));
			p->arc_count[id] = 0;
		}
		p->last_arc = id;
	}
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
	unsigned	i;

	for (i = 0; i < p->nevents; i++)
		if (strcmp(strtab_get(p->strs, p->events[i]), name) == 0)
			return (int)i;
	return -1;
}

/* Return the number of event: definitions. */
size_t
profile_nevent_defs(const struct profile *p)
{
	return p->ndefs;
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
	return p->lines.n;
}

/* Give the function, file string id and line number of entry i. */
void
profile_line(const struct profile *p, uint32_t i, uint32_t *fn,
    uint32_t *file, uint64_t *line)
{
	const uint64_t	*k = keytab_key(&p->lines, i);

	*fn = (uint32_t)k[0];
	*file = (uint32_t)k[1];
	*line = k[2];
}

/* Return the self cost vector of entry i. */
const uint64_t *
profile_line_cost(const struct profile *p, uint32_t i)
{
	return p->line_cost + (uint64_t)i * p->nevents;
}

/* Return the number of call arcs (per call site). */
uint32_t
profile_narcs(const struct profile *p)
{
	return p->arcs.n;
}

/* Give the caller, callee, call-site file string id and line of arc i. */
void
profile_arc(const struct profile *p, uint32_t i, uint32_t *caller,
    uint32_t *callee, uint32_t *file, uint64_t *line)
{
	const uint64_t	*k = keytab_key(&p->arcs, i);

	*caller = (uint32_t)k[0];
	*callee = (uint32_t)k[1];
	*file = (uint32_t)k[2];
	*line = k[3];
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
	for (i = 0; i < p->lines.n; i++)
		cost_add(total, profile_line_cost(p, i), p->nevents);
}
