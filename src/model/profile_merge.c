/*
 * profile_merge.c - one profile added into another (a chunk read ahead
 * into the profile read so far): names, functions, lines and calls
 * mapped and summed, the destination's tables loaded ahead of use.
 */
#include "base/compat.h"

#include <stdlib.h>

#include "base/keytab.h"
#include "base/xmalloc.h"
#include "model/instrs.h"
#include "model/profile.h"
#include "model/profile_impl.h"

static void	 profile_func_ahead(const struct profile *,
		    const struct profile *, const uint32_t *, uint32_t, int);
static void	 profile_pairkey_ahead(const struct profile *, uint32_t,
		    uint32_t, int);
static void	 profile_line_ahead(const struct profile *, uint32_t,
		    uint64_t, int);
static uint8_t	*profile_merge_fresh(const struct profile *,
		    const struct profile *, const uint32_t *);
static uint32_t	 profile_merge_shared(uint8_t *, const uint32_t *, uint32_t,
		    uint32_t);
static void	 profile_arc_ahead(const struct profile *, uint32_t,
		    uint32_t, uint64_t, int);

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
		const uint32_t *sl = &p->slots[t->off +
		    profile_line_hash(line, t->len)];

		/* The line's slot, most likely: its first probe. */
		if (stage == 1)
			__builtin_prefetch(sl);
		else
			id = *sl;
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
 * Return, for each pair of src, whether its pair in dst (pairmap) holds
 * no line yet and is no other pair's of src, so that its lines in src
 * are all new and in src's order; or NULL if none is, or if src has a
 * line number kept aside (the lines are then added one by one).  Two
 * pairs of src are one in dst where a name src did not know (a
 * placeholder) is one it knew: their lines are added one by one, into
 * one table; so are those of a pair whose lines dst sums and src does
 * not (a placeholder's, which src kept apart).
 */
static uint8_t *
profile_merge_fresh(const struct profile *dst, const struct profile *src,
    const uint32_t *pairmap)
{
	uint8_t		*fresh;
	uint32_t	 i, n = 0;

	if (src->bigline.n > 0 || src->pairs.n == 0)
		return NULL;
	fresh = xreallocarray(NULL, src->pairs.n, sizeof(*fresh));
	for (i = 0; i < src->pairs.n; i++)
		n += fresh[i] = dst->ptab[pairmap[i]].n == 0 &&
		    src->ptab[i].n > 0;
	if (n > 1)
		n -= profile_merge_shared(fresh, pairmap, src->pairs.n, n);
	/* Lines kept apart in src (a placeholder's) summed in dst. */
	for (i = 0; i < src->pairs.n; i++)
		if (fresh[i] && dst->ptab[pairmap[i]].one !=
		    src->ptab[i].one) {
			fresh[i] = 0;
			n--;
		}
	if (n == 0) {
		free(fresh);
		return NULL;
	}
	return fresh;
}

/*
 * Clear fresh[i] (n of the npairs set) where pairmap[i] is the same as
 * that of another set; return how many were cleared.
 */
static uint32_t
profile_merge_shared(uint8_t *fresh, const uint32_t *pairmap,
    uint32_t npairs, uint32_t n)
{
	struct keytab	 dpairs;
	uint64_t	 key;
	uint32_t	*first, i, id, cleared = 0;
	int		 created;

	/* The pairs in dst of the set ones, each its first set pair. */
	keytab_init(&dpairs, 1);
	first = xreallocarray(NULL, n, sizeof(*first));
	for (i = 0; i < npairs; i++) {
		if (!fresh[i])
			continue;
		key = pairmap[i];
		id = keytab_get(&dpairs, &key, &created);
		if (created) {
			first[id] = i;
			continue;
		}
		if (fresh[first[id]]) {
			fresh[first[id]] = 0;
			cleared++;
		}
		fresh[i] = 0;
		cleared++;
	}
	free(first);
	keytab_free(&dpairs);
	return cleared;
}

/*
 * Add what src holds to dst as if src's input had been read after
 * dst's: functions (and their fn= order), the files their code is in,
 * self costs, call arcs and machine code if kept, each in src's order,
 * so that new entries get the ids a single reading would have given
 * them.  strmap maps every
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
	uint32_t	 i, j, id, *pairmap, *linemap;
	uint8_t		*fresh;
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
	 * A pair with no line in dst yet (most: a chunk's functions are
	 * new) gets its lines appended and its table copied afterwards.
	 */
	fresh = profile_merge_fresh(dst, src, pairmap);
	/*
	 * The map is a chunk's lines, a few hundred kilobytes: kept from
	 * merge to merge, as malloc would map and unmap it each time (and
	 * the pages be cleared again).
	 */
	linemap = NULL;
	if (fresh != NULL)
		linemap = dst->merge_lines = xgrow(dst->merge_lines,
		    &dst->merge_cap, src->nlines, sizeof(*linemap));
	/*
	 * Each other line and call is one lookup in tables all over dst:
	 * start loading them three steps ahead, each step using what the
	 * one before loaded.
	 */
	for (i = 0; i < src->nlines; i++) {
		if (fresh != NULL && fresh[src->line_pair[i]]) {
			linemap[i] = profile_line_append(dst,
			    pairmap[src->line_pair[i]], src->line_no[i]);
			packed_new_from(&dst->line_cost, &src->line_cost, i);
			continue;
		}
		for (j = 1; j <= 3; j++)
			if (i + j * MERGE_AHEAD < src->nlines)
				profile_line_ahead(dst, pairmap[src->line_pair[
				    i + j * MERGE_AHEAD]], profile_lineno(src,
				    i + j * MERGE_AHEAD), 3 - j);
		id = profile_pair_line(dst, pairmap[src->line_pair[i]],
		    profile_lineno(src, i), &created);
		if (created)
			packed_new_from(&dst->line_cost, &src->line_cost, i);
		else
			over |= packed_add_from(&dst->line_cost, id,
			    &src->line_cost, i);
	}
	if (fresh != NULL) {
		for (i = 0; i < src->pairs.n; i++)
			if (fresh[i])
				profile_pair_copy(dst, pairmap[i], src,
				    &src->ptab[i], linemap);
		dst->last_line = KEYTAB_NONE;
		free(fresh);
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
	if (src->ins != NULL)
		instrs_merge(profile_instrs_mut(dst), src->ins, strmap, fnmap);
	return over;
}
