/*
 * instrs.c - machine code costs: instructions by (function, address),
 * jumps by (function, kind, address, target), calls by (function,
 * address, callee), each an id-indexed table with its sums.
 */
#include "base/compat.h"

#include <stdlib.h>
#include <string.h>

#include "base/cost.h"
#include "base/keytab.h"
#include "base/xmalloc.h"
#include "model/instrs.h"

struct instrs {
	unsigned	 nevents;
	struct keytab	 ikeys;		/* (fn, addr) -> instruction */
	uint32_t	*file;		/* instruction -> source file, */
	uint64_t	*line;		/*   line (the first given) */
	uint64_t	*cost;		/* instruction * nevents */
	size_t		 icap;
	struct keytab	 jkeys;		/* (fn, cond, addr, target) */
	struct ijump	*jumps;
	size_t		 jcap;
	struct keytab	 ckeys;		/* (fn, addr, callee) */
	struct icall	*calls;
	uint64_t	*ccost;		/* call * nevents */
	size_t		 ccap;
};

/* Make an empty table of machine code costs of nevents events. */
struct instrs *
instrs_new(unsigned nevents)
{
	struct instrs	*t;

	t = xcalloc(1, sizeof(*t));
	t->nevents = nevents;
	keytab_init(&t->ikeys, 2);
	keytab_init(&t->jkeys, 4);
	keytab_init(&t->ckeys, 3);
	return t;
}

/* Free a table of machine code costs. */
void
instrs_free(struct instrs *t)
{
	if (t == NULL)
		return;
	keytab_free(&t->ikeys);
	keytab_free(&t->jkeys);
	keytab_free(&t->ckeys);
	free(t->file);
	free(t->line);
	free(t->cost);
	free(t->jumps);
	free(t->calls);
	free(t->ccost);
	free(t);
}

/*
 * Add cost (k counts given, the rest "never recorded") to the
 * instruction at addr of function fn, in source file (string id) at
 * line; return nonzero if a sum overflowed.
 */
int
instrs_add(struct instrs *t, uint32_t fn, uint64_t addr, uint32_t file,
    uint64_t line, const uint64_t *cost, unsigned k)
{
	uint64_t	key[2] = { fn, addr };
	uint32_t	id;
	int		created;

	id = keytab_get(&t->ikeys, key, &created);
	if (created) {
		if (id >= t->icap) {
			t->icap = t->icap ? 2 * t->icap : 1024;
			t->file = xreallocarray(t->file, t->icap,
			    sizeof(*t->file));
			t->line = xreallocarray(t->line, t->icap,
			    sizeof(*t->line));
			t->cost = xreallocarray(t->cost, t->icap,
			    t->nevents * sizeof(*t->cost));
		}
		t->file[id] = file;
		t->line[id] = line;
		cost_clear(t->cost + (size_t)id * t->nevents, t->nevents);
	}
	return cost_add(t->cost + (size_t)id * t->nevents, cost,
	    k < t->nevents ? k : t->nevents);
}

/*
 * Add a jump of function fn from addr to target: jump= (cond 0, taken
 * times) or jcnd= (executed times, taken of them).  Sums stop at the
 * maximum.
 */
void
instrs_add_jump(struct instrs *t, uint32_t fn, int cond, uint64_t addr,
    uint64_t target, uint64_t executed, uint64_t taken)
{
	uint64_t	 key[4] = { fn, (uint64_t)cond, addr, target };
	struct ijump	*j;
	uint32_t	 id;
	int		 created;

	id = keytab_get(&t->jkeys, key, &created);
	if (created) {
		t->jumps = xgrow(t->jumps, &t->jcap, (size_t)id + 1,
		    sizeof(*t->jumps));
		j = &t->jumps[id];
		memset(j, 0, sizeof(*j));
		j->fn = fn;
		j->cond = cond;
		j->addr = addr;
		j->target = target;
	}
	j = &t->jumps[id];
	if (__builtin_add_overflow(j->executed, executed, &j->executed))
		j->executed = UINT64_MAX;
	if (__builtin_add_overflow(j->taken, taken, &j->taken))
		j->taken = UINT64_MAX;
}

/*
 * Add count calls from addr of function fn to callee, with inclusive
 * cost; return nonzero if a sum overflowed.
 */
int
instrs_add_call(struct instrs *t, uint32_t fn, uint64_t addr,
    uint32_t callee, uint64_t count, const uint64_t *cost)
{
	uint64_t	 key[3] = { fn, addr, callee };
	struct icall	*c;
	uint32_t	 id;
	int		 created, over = 0;

	id = keytab_get(&t->ckeys, key, &created);
	if (created) {
		if (id >= t->ccap) {
			t->ccap = t->ccap ? 2 * t->ccap : 256;
			t->calls = xreallocarray(t->calls, t->ccap,
			    sizeof(*t->calls));
			t->ccost = xreallocarray(t->ccost, t->ccap,
			    t->nevents * sizeof(*t->ccost));
		}
		c = &t->calls[id];
		c->fn = fn;
		c->addr = addr;
		c->callee = callee;
		c->count = 0;
		cost_clear(t->ccost + (size_t)id * t->nevents, t->nevents);
	}
	c = &t->calls[id];
	if (__builtin_add_overflow(c->count, count, &c->count)) {
		c->count = UINT64_MAX;
		over = 1;
	}
	return over | cost_add(t->ccost + (size_t)id * t->nevents, cost,
	    t->nevents);
}

/* Return the number of events of each cost. */
unsigned
instrs_nevents(const struct instrs *t)
{
	return t->nevents;
}

/* Return the number of instructions with a cost. */
uint32_t
instrs_count(const struct instrs *t)
{
	return t->ikeys.n;
}

/* Give instruction i's function, address, source file and line. */
void
instrs_get(const struct instrs *t, uint32_t i, uint32_t *fn, uint64_t *addr,
    uint32_t *file, uint64_t *line)
{
	const uint64_t	*k = keytab_key(&t->ikeys, i);

	*fn = (uint32_t)k[0];
	*addr = k[1];
	*file = t->file[i];
	*line = t->line[i];
}

/* Return instruction i's self cost. */
const uint64_t *
instrs_cost(const struct instrs *t, uint32_t i)
{
	return t->cost + (size_t)i * t->nevents;
}

/* Return the number of jumps. */
uint32_t
instrs_njumps(const struct instrs *t)
{
	return t->jkeys.n;
}

/* Return jump i. */
const struct ijump *
instrs_jump(const struct instrs *t, uint32_t i)
{
	return &t->jumps[i];
}

/* Return the number of (instruction, callee) calls. */
uint32_t
instrs_ncalls(const struct instrs *t)
{
	return t->ckeys.n;
}

/* Return call i. */
const struct icall *
instrs_call(const struct instrs *t, uint32_t i)
{
	return &t->calls[i];
}

/* Return the inclusive cost of call i. */
const uint64_t *
instrs_call_cost(const struct instrs *t, uint32_t i)
{
	return t->ccost + (size_t)i * t->nevents;
}
