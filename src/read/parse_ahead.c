/*
 * parse_ahead.c - what reading a file in chunks needs (ahead.c, through
 * parse_ahead.h): a parser made with parser_spec() reads a chunk of a
 * file from its middle, with placeholders for what it cannot know;
 * parser_adopt() checks them against the parser that has read up to the
 * chunk and takes the chunk over.
 */
#include "base/compat.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "base/cost.h"
#include "base/keytab.h"
#include "base/msg.h"
#include "base/xmalloc.h"
#include "read/parse_ahead.h"
#include "read/parser.h"

_Static_assert(sizeof(((struct parser_size *)0)->ids) ==
    IDS__MAX * sizeof(uint32_t), "struct parser_size: one per name space");

/*
 * Whether the lines of the file each compressed file id names are kept
 * apart (parse_opts' lines), learnt by the parsers of one file as they
 * read the ids' definitions, in either thread: a chunk read ahead knows
 * by it the files named before it (parser_lines()).
 */
struct fileids {
	pthread_mutex_t	 lock;
	struct keytab	 ids;		/* (compressed id) */
	uint8_t		*kept;		/* by its slot: FILEIDS_* */
	size_t		 cap;
};

static int	parser_adopt_lines(struct parser *, const struct parser *,
		    const uint32_t *);
static int	parser_merge_may_overflow(const struct parser *,
		    const struct parser *);
static int	parser_sum_counts(uint64_t *, const uint64_t *, unsigned);
static uint32_t	parser_resolve(struct parser *, const struct phref *);
static uint32_t	*parser_adopt_names(struct parser *, const struct parser *);
static uint32_t	*parser_adopt_merge(struct parser *, const struct parser *,
		    uint32_t *);
static void	parser_adopt_state(struct parser *, const struct parser *,
		    const uint32_t *, const uint32_t *);

/* Make the shared memory of compressed file ids' lines, empty. */
struct fileids *
fileids_new(void)
{
	struct fileids	*fi = xcalloc(1, sizeof(*fi));

	pthread_mutex_init(&fi->lock, NULL);
	keytab_init(&fi->ids, 1);
	return fi;
}

/* Free the memory of compressed file ids' lines. */
void
fileids_free(struct fileids *fi)
{
	if (fi == NULL)
		return;
	pthread_mutex_destroy(&fi->lock);
	keytab_free(&fi->ids);
	free(fi->kept);
	free(fi);
}

/* Note that compressed file id names a file whose lines are kept or not. */
void
fileids_put(struct fileids *fi, uint64_t id, int kept)
{
	uint32_t	slot;

	pthread_mutex_lock(&fi->lock);
	slot = keytab_get(&fi->ids, &id, NULL);
	fi->kept = xgrow(fi->kept, &fi->cap, (size_t)slot + 1,
	    sizeof(*fi->kept));
	fi->kept[slot] = kept ? FILEIDS_KEPT : FILEIDS_SUMMED;
	pthread_mutex_unlock(&fi->lock);
}

/* Return FILEIDS_* of compressed file id, FILEIDS_UNKNOWN if not noted. */
int
fileids_get(struct fileids *fi, uint64_t id)
{
	uint32_t	slot;
	int		r = FILEIDS_UNKNOWN;

	pthread_mutex_lock(&fi->lock);
	if ((slot = keytab_find(&fi->ids, &id)) != KEYTAB_NONE)
		r = fi->kept[slot];
	pthread_mutex_unlock(&fi->lock);
	return r;
}

/* Make ps note and read the lines of compressed file ids in fi (or none). */
void
parser_share_fileids(struct parser *ps, struct fileids *fi)
{
	ps->fileids = fi;
}

/* Return the profile ps reads into. */
const struct profile *
parser_profile(const struct parser *ps)
{
	return ps->p;
}

/* Free a parser (not the profile) without finishing the reading. */
void
parser_discard(struct parser *ps)
{
	int	i;

	if (ps->lines != NULL)
		profile_set_lines(ps->p, NULL, NULL);
	for (i = 0; i < IDS__MAX; i++) {
		free(ps->idmap[i].direct);
		free(ps->idmap[i].hash);
		free(ps->idmap[i].names);
		free(ps->idmap[i].slot_id);
		free(ps->idmap[i].fn_ob);
		free(ps->idmap[i].fn_fl);
		free(ps->idmap[i].fn_id);
	}
	free(ps->ph);
	free(ps->ph_at);
	free(ps->colmap);
	free(ps->cost);
	free(ps->early_summary);
	free(ps->held);
	free(ps->buf);
	free(ps->stack);
	free(ps);
}

/* Tell how many compressed ids ps holds, for parser_reserve(). */
void
parser_size(const struct parser *ps, struct parser_size *z)
{
	int	sp;

	for (sp = 0; sp < IDS__MAX; sp++) {
		z->ids[sp] = (uint32_t)ps->idmap[sp].n;
		z->hashed[sp] = ps->idmap[sp].nhash;
		z->direct[sp] = ps->idmap[sp].ndirect;
	}
}

/*
 * Make room in ps, which holds no compressed id yet, for as many as z
 * says, so that reading that far grows no table: a parser of a chunk
 * read ahead starts empty, and each finds about as many as the last.
 */
void
parser_reserve(struct parser *ps, const struct parser_size *z)
{
	struct idmap	*m;
	uint32_t	 size;
	int		 sp;

	for (sp = 0; sp < IDS__MAX; sp++) {
		m = &ps->idmap[sp];
		if (m->n > 0)
			continue;
		if (z->ids[sp] > m->cap)
			idmap_resize(m, z->ids[sp]);
		if (z->direct[sp] > m->ndirect)
			idmap_direct_grow(m, z->direct[sp] - 1);
		for (size = 64; size < 2 * ((uint64_t)z->hashed[sp] + 1);
		    size *= 2)
			continue;
		if (z->hashed[sp] > 0 &&
		    (m->hash == NULL || size > m->mask + 1))
			idmap_rehash(m, size);
	}
}

/* Say that the next bytes fed start at offset off of the file. */
void
parser_seek(struct parser *ps, uint64_t off)
{
	ps->off = off;
}

/*
 * Return the offset of the file from which ps cannot go on: where a
 * chunk read ahead stopped before a header line, or the start of a last
 * line kept without its newline, or the end of what was fed.
 */
uint64_t
parser_resume(const struct parser *ps)
{
	return ps->stop ? ps->stop_off : ps->off - ps->len;
}

/*
 * Return the string id of a new placeholder of a kind, with an id for a
 * compressed name: a blank string of ps's profile (profile_blank()),
 * which no name can be.  Each is kept (kind and id, found by string id)
 * for parser_adopt().
 */
uint32_t
parser_placeholder(struct parser *ps, char kind, uint64_t id)
{
	uint32_t	str;

	str = profile_blank(ps->p);
	ps->ph_at = xgrow_fill(ps->ph_at, &ps->ph_at_cap, (size_t)str + 1,
	    sizeof(*ps->ph_at), 0);
	ps->ph_at[str] = (uint32_t)ps->nph + 1;
	ps->ph = xgrow(ps->ph, &ps->ph_cap, ps->nph + 1, sizeof(*ps->ph));
	ps->ph[ps->nph].str = str;
	ps->ph[ps->nph].kind = kind;
	ps->ph[ps->nph++].id = id;
	return str;
}

/*
 * Return nonzero if the lines of the file placeholder str stands for are
 * kept apart: for a compressed file id named before the chunk, as the
 * file's other parsers found (fileids), if one did, checked when the
 * chunk is adopted (parser_adopt_lines()); else kept apart (summed in the
 * merge if the main profile sums them).
 */
int
parser_placeholder_lines(const struct parser *ps, uint32_t str)
{
	const struct phref	*ph;

	if (ps->fileids == NULL || !parser_is_placeholder(ps, str))
		return 1;
	ph = &ps->ph[ps->ph_at[str] - 1];
	if (ph->kind != 'L')
		return 1;
	return fileids_get(ps->fileids, ph->id) != FILEIDS_SUMMED;
}

/* Return nonzero if string id of ps's profile is a placeholder. */
int
parser_is_placeholder(const struct parser *ps, uint32_t id)
{
	return id < ps->ph_at_cap && ps->ph_at[id] != 0;
}

/*
 * Return the string id in ps's profile that placeholder ph stands for at
 * the point ps has reached, or NONE if it stands for nothing (a
 * compressed id not defined: reading in order would warn).
 */
static uint32_t
parser_resolve(struct parser *ps, const struct phref *ph)
{
	enum idspace	 sp;
	uint32_t	 slot;

	switch (ph->kind) {
	case 'o':
		return ps->ob;
	case 'l':
		return ps->fl;
	case 'i':
		return ps->fi;
	case 'c':
		/* calls= with no cfn= before it calls "???". */
		return ps->cfn != NONE ? ps->cfn :
		    profile_intern(ps->p, "???", 3);
	case 'O':
		sp = IDS_OB;
		break;
	case 'L':
		sp = IDS_FL;
		break;
	default:
		sp = IDS_FN;
		break;
	}
	if ((slot = idmap_find(&ps->idmap[sp], ph->id)) == NONE)
		return NONE;
	return ps->idmap[sp].names[slot];
}

/*
 * Return nonzero if ps keeps the stacks of an xtree file: they are read
 * in order, never ahead (a block's stack runs over its lines "fn=",
 * where chunks start).
 */
int
parser_stacks(const struct parser *ps)
{
	return ps->xstack;
}

/*
 * Make ps, which has read the file's header and nothing else, read a
 * chunk from its start, a line "fn=...", in the middle of a part's body:
 * what was in force there is a placeholder, positions are unset (a
 * relative one warns, so the chunk is read again), and a header line
 * stops it (see parser_resume()).  Return -1 if ps is not at the end of
 * a header.
 */
int
parser_spec(struct parser *ps)
{
	if (ps->fatal || ps->body_seen || ps->len > 0)
		return -1;
	ps->spec = 1;
	ps->known = 1;
	ps->body_seen = 1;
	parser_part(ps)->has_data = 1;
	ps->skipping = 0;
	ps->part_sum = NULL;
	ps->ob = parser_placeholder(ps, 'o', 0);
	ps->fl = parser_placeholder(ps, 'l', 0);
	ps->fi = parser_placeholder(ps, 'i', 0);
	ps->cfn = ps->ph_cfn = parser_placeholder(ps, 'c', 0);
	ps->cfn_slot = NONE;
	ps->fn = ps->fn_name = NONE;
	ps->cob = ps->cfi = NONE;
	ps->call_pending = ps->jump_pending = 0;
	memset(ps->pos, 0, sizeof(ps->pos));
	memset(ps->pos_set, 0, sizeof(ps->pos_set));
	ps->all_set = 0;
	ps->spec_line0 = ps->lineno;
	ps->fast = 0;
	return 0;
}

/*
 * Add every count of c (n of them; c may be NULL) to *acc; return
 * nonzero if the sum passed 2^64 - 1.
 */
static int
parser_sum_counts(uint64_t *acc, const uint64_t *c, unsigned n)
{
	unsigned	e;

	for (e = 0; c != NULL && e < n; e++)
		if (c[e] != COST_NONE && __builtin_add_overflow(*acc, c[e], acc))
			return 1;
	return 0;
}

/*
 * Return nonzero if adding cs's profile to ps's could overflow a sum:
 * a cost of a line is at most the sum of the cost lines of all parts
 * (a line gathers them across parts), one of a call at most its
 * profile's bound (profile_call_bound()).
 */
static int
parser_merge_may_overflow(const struct parser *ps, const struct parser *cs)
{
	uint64_t	a = 0, b;
	size_t		i;

	for (i = 0; i < profile_nparts(ps->p); i++)
		if (parser_sum_counts(&a, profile_part(ps->p, i)->sum,
		    ps->nevents))
			return 1;
	if (parser_sum_counts(&a, cs->part_sum, cs->nevents) ||
	    a > COST_MAX)
		return 1;
	a = profile_call_bound(ps->p);
	b = profile_call_bound(cs->p);
	return __builtin_add_overflow(a, b, &a) || a > COST_MAX;
}

/*
 * Take over what cs read ahead (see parser_spec()) from where ps now
 * is, nmsg being the messages it would have printed: if what it read
 * under holds here, add its profile to ps's, its compressed names to
 * ps's, and go on from the state it ended in; return 0.  Otherwise
 * return -1 with nothing changed: the bytes cs read must be read by ps.
 */
int
parser_adopt(struct parser *ps, const struct parser *cs, unsigned nmsg)
{
	uint32_t	*strmap, *fnmap;

	if (nmsg > 0 || cs->fatal || !cs->spec || ps->xstack || cs->xstack ||
	    !ps->have_events || !cs->have_events || !ps->body_seen ||
	    ps->skipping || ps->call_pending || ps->jump_pending ||
	    ps->cob != NONE || ps->cfi != NONE || ps->len != 0)
		return -1;
	if (ps->nevents != cs->nevents || ps->ncols != cs->ncols ||
	    ps->identity != cs->identity || ps->npos != cs->npos ||
	    ps->pos_line != cs->pos_line || memcmp(ps->colmap, cs->colmap,
	    ps->ncols * sizeof(*ps->colmap)) != 0 ||
	    strcmp(profile_str(ps->p, ps->events_id),
	    profile_str(cs->p, cs->events_id)) != 0)
		return -1;
	if ((strmap = parser_adopt_names(ps, cs)) == NULL)
		return -1;
	if (parser_adopt_lines(ps, cs, strmap) == -1) {
		free(strmap);
		return -1;
	}
	/* A sum that overflows is warned about on its line: not here. */
	if (parser_merge_may_overflow(ps, cs)) {
		free(strmap);
		return -1;
	}

	/* It holds: merge. */
	fnmap = parser_adopt_merge(ps, cs, strmap);
	parser_adopt_state(ps, cs, strmap, fnmap);
	free(fnmap);
	free(strmap);
	return 0;
}

/*
 * Return -1 if cs summed the lines of a file that ps keeps apart (named
 * before cs, as it assumed, but not as ps knows it; or after an event:
 * line with a minus that cs did not read), else 0.  A file cs kept
 * apart is summed in the merge if ps sums it.
 */
static int
parser_adopt_lines(struct parser *ps, const struct parser *cs,
    const uint32_t *strmap)
{
	const struct profile	*cp = cs->p;
	const char		*name;
	uint32_t		 i, f, d;

	for (i = 0; i < profile_nfiles(cp); i++) {
		f = profile_file(cp, i);
		if (!profile_file_summed(cp, f))
			continue;
		name = profile_str(cp, f);
		d = strmap[f] != NONE ? strmap[f] :
		    profile_str_find(ps->p, name);
		if (d != NONE ? profile_file_lines(ps->p, d) :
		    ps->lines == NULL || ps->lines(ps->lines_arg, name))
			return -1;
	}
	return 0;
}

/*
 * Return the string ids here of the strings of cs's profile, those of
 * its placeholders resolved and the others NONE; or NULL if a
 * placeholder stands for nothing here or a compressed id cs defines
 * differs from here.
 */
static uint32_t *
parser_adopt_names(struct parser *ps, const struct parser *cs)
{
	const struct profile	*cp = cs->p;
	const struct idmap	*m;
	const struct idmap	*pm;
	uint32_t		*strmap, n, i, slot, s1, name;
	size_t			 len, k;
	int			 sp;

	/* Every placeholder must stand for something here. */
	n = profile_nstrings(cp);
	strmap = xreallocarray(NULL, n, sizeof(*strmap));
	for (i = 0; i < n; i++)
		strmap[i] = NONE;
	for (k = 0; k < cs->nph; k++)
		if ((strmap[cs->ph[k].str] = parser_resolve(ps,
		    &cs->ph[k])) == NONE)
			goto fail;
	/* A compressed id the chunk defines must not differ from here. */
	for (sp = 0; sp < IDS__MAX; sp++) {
		m = &cs->idmap[sp];
		pm = &ps->idmap[sp];
		for (slot = 0; slot < m->n; slot++) {
			name = m->names[slot];
			if (parser_is_placeholder(cs, name) ||
			    (s1 = idmap_find(pm, m->slot_id[slot])) == NONE)
				continue;
			len = profile_strlen(cp, name);
			if (profile_strlen(ps->p, pm->names[s1]) != len ||
			    memcmp(profile_str(ps->p, pm->names[s1]),
			    profile_str(cp, name), len) != 0)
				goto fail;
		}
	}
	return strmap;
fail:
	free(strmap);
	return NULL;
}

/*
 * Merge cs's profile, part sum and compressed ids into ps, completing
 * strmap with the strings interned here.  Return the function ids here
 * of cs's functions.
 */
static uint32_t *
parser_adopt_merge(struct parser *ps, const struct parser *cs,
    uint32_t *strmap)
{
	const struct profile	*cp = cs->p;
	const struct idmap	*m;
	struct idmap		*pm;
	uint32_t		*fnmap, n = profile_nstrings(cp), i, slot, s1;
	int			 sp, created;

	parser_forget(ps);
	for (i = 0; i < n; i++) {
		/* Overlap the misses of the lookups. */
		if (i + 8 < n && strmap[i + 8] == NONE)
			profile_intern_prefetch(ps->p, cp, i + 8);
		if (strmap[i] == NONE)
			strmap[i] = profile_intern_from(ps->p, cp, i);
	}
	fnmap = xreallocarray(NULL, profile_nfuncs(cp), sizeof(*fnmap));
	/* An overflow cannot be placed on its line here. */
	if (profile_merge(ps->p, cp, strmap, fnmap))
		msg(MSG_COST_OVERFLOW, ps->fname, 0, NULL);
	if (cs->part_sum != NULL) {
		if (ps->part_sum == NULL)
			parser_part_sum(ps);
		cost_add(ps->part_sum, cs->part_sum, ps->nevents);
	}
	for (sp = 0; sp < IDS__MAX; sp++) {
		m = &cs->idmap[sp];
		pm = &ps->idmap[sp];
		for (slot = 0; slot < m->n; slot++) {
			if (parser_is_placeholder(cs, m->names[slot]))
				continue;
			s1 = idmap_add(pm, m->slot_id[slot], &created);
			pm->names[s1] = strmap[m->names[slot]];
			pm->fn_id[s1] = NONE;
		}
	}
	return fnmap;
}

/*
 * Take over where cs stopped: its names in use, pending call or jump,
 * positions and line number, through strmap and fnmap.
 */
static void
parser_adopt_state(struct parser *ps, const struct parser *cs,
    const uint32_t *strmap, const uint32_t *fnmap)
{
	size_t	k;

	ps->ob = strmap[cs->ob];
	ps->fl = strmap[cs->fl];
	ps->fi = strmap[cs->fi];
	ps->fn = cs->fn != NONE ? fnmap[cs->fn] : NONE;
	ps->fn_name = cs->fn_name != NONE ? strmap[cs->fn_name] : NONE;
	if (cs->cfn != cs->ph_cfn) {
		ps->cfn = cs->cfn != NONE ? strmap[cs->cfn] : NONE;
		ps->cfn_slot = NONE;
	}
	ps->cob = cs->cob != NONE ? strmap[cs->cob] : NONE;
	ps->cfi = cs->cfi != NONE ? strmap[cs->cfi] : NONE;
	ps->call_pending = cs->call_pending;
	ps->call_count = cs->call_count;
	ps->jump_pending = cs->jump_pending;
	ps->jump_known = cs->jump_known;
	ps->jump_cond = cs->jump_cond;
	ps->jump_taken = cs->jump_taken;
	ps->jump_exe = cs->jump_exe;
	ps->jump_target = cs->jump_target;
	/* Positions the chunk never set are still those of before it. */
	ps->all_set = 1;
	for (k = 0; k < PARSE_MAXPOS; k++) {
		if (cs->pos_set[k]) {
			ps->pos[k] = cs->pos[k];
			ps->pos_set[k] = 1;
		}
		if (k < ps->npos && !ps->pos_set[k])
			ps->all_set = 0;
	}
	ps->lineno += cs->lineno - cs->spec_line0;
	ps->fast = parser_fastok(ps);
}
