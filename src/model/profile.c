/*
 * profile.c - the profile model: interned names, events, parts, and the
 * read-only accessors of objects, files, functions, per-line self costs
 * and call arcs.  Its tables are kept by profile_table.c, merged by
 * profile_merge.c; struct profile is in profile_impl.h, theirs alone.
 */
#include "base/compat.h"

#include <stdlib.h>
#include <string.h>

#include "base/strtab.h"
#include "base/xmalloc.h"
#include "model/instrs.h"
#include "model/profile.h"
#include "model/profile_impl.h"
#include "model/stacks.h"

static void	 profile_drop_parts(struct profile *);

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
	keytab_init(&p->bigline, 1);
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
	p->done = 0;
	p->events_list = 0;
	free(p->defs);
	p->defs = NULL;
	p->ndefs = p->defs_cap = 0;
	keytab_clear(&p->objects);
	keytab_clear(&p->files);
	if (p->file_lines_cap > 0)
		memset(p->file_lines, FILE_LINES_ASK, p->file_lines_cap);
	profile_set_lines(p, NULL, NULL);
	keytab_clear(&p->funcs);
	keytab_clear(&p->pairs);
	memset(p->memo, 0, sizeof(p->memo));
	keytab_clear(&p->defnames);
	keytab_clear(&p->evnames);
	keytab_clear(&p->bigline);
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

/*
 * Say that p is complete: free the tables that only adding to it needs
 * (each pair's table of lines and of calls, each function's own pair),
 * some 60 MB of a 300 MB profile of a C++ program, before the
 * report builds its own, and sum its machine code's instructions given
 * more than once.  Adding to p afterwards aborts (machine code may be
 * added, and trimmed again: instrs_trim()).  Return nonzero if a sum of
 * machine code overflowed.
 */
int
profile_done(struct profile *p)
{
	unsigned	i;
	int		over = 0;

	if (p->done)
		return 0;
	free(p->ptab);
	free(p->slots);
	free(p->dense);
	free(p->aslots);
	for (i = 0; i < FREE_CLASSES; i++) {
		free(p->free_slots[i].off);
		free(p->free_dense[i].off);
		free(p->free_aslots[i].off);
		memset(&p->free_slots[i], 0, sizeof(p->free_slots[i]));
		memset(&p->free_dense[i], 0, sizeof(p->free_dense[i]));
		memset(&p->free_aslots[i], 0, sizeof(p->free_aslots[i]));
	}
	free(p->fn_pair);
	free(p->merge_lines);
	p->merge_lines = NULL;
	p->merge_cap = 0;
	p->ptab = NULL;
	p->slots = NULL;
	p->dense = NULL;
	p->aslots = NULL;
	p->fn_pair = NULL;
	p->ptab_cap = 0;
	p->nslots = p->slots_cap = p->ndense = p->dense_cap = 0;
	p->naslots = p->aslots_cap = 0;
	p->last_line = p->cur_pair = KEYTAB_NONE;
	if (p->ins != NULL)
		over = instrs_trim(p->ins);
	p->done = 1;
	return over;
}

/* Free a profile and everything it holds. */
void
profile_free(struct profile *p)
{
	if (p == NULL)
		return;
	instrs_free(p->ins);
	p->ins = NULL;
	stacks_free(p->stk);
	profile_drop_parts(p);
	free(p->parts);
	free(p->events);
	free(p->defs);
	keytab_free(&p->objects);
	keytab_free(&p->files);
	free(p->file_lines);
	keytab_free(&p->funcs);
	keytab_free(&p->pairs);
	keytab_free(&p->defnames);
	keytab_free(&p->evnames);
	/* The tables only adding needs, unless they are gone already. */
	(void)profile_done(p);
	free(p->line_pair);
	free(p->line_no);
	keytab_free(&p->bigline);
	free(p->bigno);
	free(p->arc_pair);
	free(p->arc_callee);
	free(p->arc_line);
	free(p->fn_seq);
	packed_free(&p->line_cost);
	free(p->arc_count);
	free(p->arc_cost);
	strtab_free(p->strs);
	free(p);
}

/*
 * Keep p's long names compressed as leader's are (p empty, or holding
 * none compressed), so that profile_intern_from() copies them into
 * leader as they are.
 */
void
profile_follow(struct profile *p, const struct profile *leader)
{
	strtab_follow(p->strs, leader->strs);
}

/* Return the string id of len bytes at s. */
uint32_t
profile_intern(struct profile *p, const char *s, size_t len)
{
	return strtab_intern(p->strs, s, len);
}

/*
 * profile_intern() of bytes also at offset off of file (NULL: none),
 * where a long name is left (strtab_intern_at()).
 */
uint32_t
profile_intern_at(struct profile *p, const char *s, size_t len,
    struct strsrc *file, uint64_t off)
{
	return strtab_intern_at(p->strs, s, len, file, off);
}

/* Return a new string id of p that names nothing (strtab_blank()). */
uint32_t
profile_blank(struct profile *p)
{
	return strtab_blank(p->strs);
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

/* Return the bytes of string id. */
const char *
profile_str(const struct profile *p, uint32_t id)
{
	return strtab_get(p->strs, id);
}

/*
 * Return p's table of names, for a view's own table of names to copy
 * from: one that follows it (strtab_follow()) takes a long name as it
 * is kept, compressed, without making its text.
 */
const struct strtab *
profile_strtab(const struct profile *p)
{
	return p->strs;
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
	if (p->ins == NULL) {
		p->ins = instrs_new(p->nevents);
		if (p->ins_sites)
			instrs_set_sites(p->ins);
	}
	return p->ins;
}

/*
 * Keep of p's machine code only the calls' sites (instrs_set_sites()),
 * from its first line on.
 */
void
profile_instrs_sites(struct profile *p)
{
	p->ins_sites = 1;
	if (p->ins != NULL)
		instrs_set_sites(p->ins);
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

/* Return FILE_LINES_* of file (a string id): ASK if not decided yet. */
static int
profile_file_state(const struct profile *p, uint32_t file)
{
	uint64_t	key = file;
	uint32_t	fid = keytab_find(&p->files, &key);

	return fid == KEYTAB_NONE || fid >= p->file_lines_cap ?
	    FILE_LINES_ASK : p->file_lines[fid];
}

/*
 * Return nonzero if the lines of file (a string id) are kept apart, as
 * in the profile read, or would be if it came now; zero if each function
 * has, or would have, one line of it, 0, their sum (profile_set_lines()).
 */
int
profile_file_lines(const struct profile *p, uint32_t file)
{
	int	s = profile_file_state(p, file);

	if (s == FILE_LINES_ASK)
		return p->lines_fn == NULL || p->lines_fn(p->lines_arg, p, file);
	return s == FILE_LINES_KEPT;
}

/* Return nonzero if the pairs of file made so far sum its lines. */
int
profile_file_summed(const struct profile *p, uint32_t file)
{
	return profile_file_state(p, file) == FILE_LINES_ONE;
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
	*line = profile_lineno(p, i);
}

/* Return the number of line id, kept aside (LINE_BIG in line_no). */
uint64_t
profile_bigline(const struct profile *p, uint32_t id)
{
	uint64_t	key = id;

	return p->bigno[keytab_find(&p->bigline, &key)];
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

/* Return the count of event ev of entry i (COST_NONE: never recorded). */
uint64_t
profile_line_cost1(const struct profile *p, uint32_t i, unsigned ev)
{
	return packed_get1(&p->line_cost, i, ev);
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

/*
 * Add the counts of events evs (nev of them) of every entry to the row
 * of its (function, file) pair: out + nev * pair_row[pair], nrows rows;
 * return nonzero on overflow.  Every event in order is summed for all
 * entries at once (profile_lines_sum()); else entry by entry, each
 * entry's counts read once, in no more room than out.
 */
int
profile_lines_sum_evs(const struct profile *p, const uint32_t *pair_row,
    uint32_t nrows, const unsigned *evs, unsigned nev, uint64_t *out)
{
	uint64_t	*cost, *row;
	uint32_t	 i;
	unsigned	 k;
	int		 over = 0;

	for (k = 0; k < nev && evs[k] == k; k++)
		continue;
	if (k == nev && nev == p->nevents)
		return profile_lines_sum(p, pair_row, nrows, out);
	cost = xreallocarray(NULL, p->nevents + 1, sizeof(*cost));
	for (i = 0; i < p->nlines; i++) {
		(void)packed_get(&p->line_cost, i, cost);
		row = out + (size_t)nev * pair_row[p->line_pair[i]];
		for (k = 0; k < nev; k++)
			over |= cost_add1(&row[k], cost[evs[k]]);
	}
	free(cost);
	return over;
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
