/*
 * parse.c - reads Callgrind and Cachegrind profiles into the profile
 * model.  A hand-written line loop over large blocks: lines are slices
 * of the buffer, numbers are parsed by hand, names are interned once
 * and then named by id, and nothing is allocated per cost line.
 *
 * Bad lines give a warning and are skipped; only a file without an
 * events: line, or with cost data before it, is an error.
 */
#include "compat.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "cost.h"
#include "instrs.h"
#include "stacks.h"
#include "keytab.h"
#include "msg.h"
#include "num.h"
#include "parse.h"
#include "profile.h"
#include "xmalloc.h"

#define PARSE_MAXPOS	3		/* instr, bb, line */
#define NONE		UINT32_MAX

/* The three name spaces of compressed names. */
enum idspace {
	IDS_OB,			/* ob= cob= */
	IDS_FL,			/* fl= fi= fe= cfi= cfl= jfi= */
	IDS_FN,			/* fn= cfn= jfn= */
	IDS__MAX
};

_Static_assert(sizeof(((struct parser_size *)0)->ids) ==
    IDS__MAX * sizeof(uint32_t), "struct parser_size: one per name space");

/* The keys of name lines (parser_namekey()). */
enum namekey {
	NK_NONE,		/* unknown */
	NK_FN, NK_FL, NK_FI,	/* fn= fl= fi= fe= */
	NK_FRFN,		/* frfn= */
	NK_CFN, NK_CFI, NK_COB,	/* cfn= cfi= cfl= cob= */
	NK_CALLS, NK_CFNI,	/* calls= cfni= */
	NK_OB,			/* ob= */
	NK_JUMP, NK_JCND,	/* jump= jcnd= */
	NK_JFI, NK_JFN,		/* jfi= jfn= */
	NK_SKIP			/* rec= bb= ln=: known, nothing kept */
};

/* A compressed id beyond the direct array, and its slot + 1 (0: empty). */
struct idslot {
	uint64_t	 id;
	uint32_t	 slot;
};

/*
 * Compressed ids are small dense numbers in practice: they index an
 * array directly while it stays within a few times the number of ids
 * defined (so a huge id cannot size it), and go to a hash table above.
 */
struct idmap {
	uint32_t	*direct;	/* id -> slot + 1, 0 if undefined */
	size_t		 ndirect;
	struct idslot	*hash;		/* other ids: open addressing, */
	uint32_t	 mask, nhash;	/*   size mask + 1, ids held */
	uint32_t	*names;		/* slot -> string id */
	uint64_t	*slot_id;	/* slot -> compressed id */
	size_t		 n, cap;	/* slots used, allocated */
	uint32_t	*fn_ob;		/* slot -> (ob, file) of the last */
	uint32_t	*fn_fl;		/*   function resolved with it, */
	uint32_t	*fn_id;		/*   and that function's id */
};

/* A placeholder (see parser_placeholder()): its string, kind and id. */
struct phref {
	uint64_t	 id;
	uint32_t	 str;
	char		 kind;
};

struct parser {
	struct profile	*p;
	const char	*fname;		/* input name, for messages */
	uint32_t	 fname_id;
	const char	*strip;		/* file name prefix to remove */
	size_t		 striplen;
	const char	*sel_part;	/* --part, or NULL */
	const char	*sel_thread;	/* --thread, or NULL */
	int		 skipping;	/* this part is not selected */
	uint64_t	*part_sum;	/* the current part's cost lines */
	uint64_t	 lineno;
	int		 fatal;		/* an error stopped the parse */
	size_t		 part;		/* index of the current part */
	int		 body_seen;	/* the part has body lines */

	/* events */
	int		 have_events;
	unsigned	 ncols;		/* counts per cost line */
	unsigned	 nevents;	/* the profile's events */
	int		 identity;	/* column i is event i, all events */
	int		 fast;		/* parser_fastok(), as of the last
					   line the fast path left */
	int		*colmap;	/* column -> event index, or -1 */
	uint32_t	 events_id;	/* the events: list as a string */
	uint64_t	*cost;		/* scratch, nevents long */
	char		*early_summary;	/* summary: seen before events: */

	/* positions */
	unsigned	 npos;
	int		 pos_line;	/* index of "line", or -1 */
	int		 pos_instr;	/* index of "instr", or -1 */
	uint64_t	 pos[PARSE_MAXPOS];
	int		 pos_set[PARSE_MAXPOS];
	int		 all_set;	/* every pos_set[] is 1 */

	/* current context */
	uint32_t	 ob, fl, fi;	/* string ids */
	uint32_t	 fn;		/* function id, or NONE */
	uint32_t	 fn_name;

	/*
	 * Whether the line the fast path last added to is still the one
	 * profile_add_last() adds to, line hit_line of the current
	 * function and file: any other line (function and file change
	 * only there) and anything else that changes the profile forget
	 * it.
	 */
	int		 hit;
	unsigned	 given;		/* ps->cost[given..] are COST_NONE */
	uint64_t	 hit_line;
	/*
	 * With one event: the sum of the counts the fast path has taken
	 * for hit but not yet added to it and to the part's sum
	 * (parser_flush() does, from parser_forget() and at the end of
	 * each parser_feed()), whether there is one, and how far it may
	 * go before either would pass COST_MAX.
	 */
	uint64_t	 pend, pend_room;
	int		 pend_set;
	int		 room_known;	/* pend_room is for the line hit */
	/*
	 * What followed the first position on the last cost line the fast
	 * path added, up to its newline, if it fits in 16 bytes and holds
	 * no relative position: a line that ends alike has the same other
	 * positions and the same counts (still in pos[] and cost[]), and
	 * most lines of a profile with --dump-instr=yes do.  Its bytes,
	 * zero after tail_len, and a mask of tail_len bytes; parser_forget()
	 * sets tail_len to 0.
	 */
	uint64_t	 tail[2], tail_mask[2];
	unsigned	 tail_len;

	/* pending call */
	uint32_t	 cob, cfi, cfn;	/* string ids, NONE if unset */
	uint32_t	 cfn_slot;	/* cfn's compressed slot, or NONE */
	int		 call_pending;
	uint64_t	 call_count;
	int		 jump_pending;

	/* an xtree file's stacks (parse_opts' stacks): kept, the block's */
	int		 want_stacks;
	int		 xstack;	/* keeping them: an xtree file */
	uint32_t	*stack;		/* the block's frames so far */
	size_t		 nstack, stack_cap;

	/* machine code (parse_opts' instrs): kept, and the pending jump */
	int		 keep;
	int		 jump_cond, jump_known;
	uint64_t	 jump_target, jump_exe, jump_taken;

	struct idmap	 idmap[IDS__MAX];

	/* line buffer */
	char		*buf;
	size_t		 len, size;
	uint64_t	 off;		/* file offset of the next byte fed */

	/* a chunk read ahead (see parser_spec()) */
	int		 spec;
	int		 stop;		/* stopped before a header line */
	uint64_t	 stop_off;	/* at this file offset */
	uint64_t	 spec_line0;	/* lineno where the chunk began */
	uint32_t	 ph_cfn;	/* the cfn= of before, a placeholder */
	struct phref	*ph;		/* the placeholders made, */
	size_t		 nph, ph_cap;
	uint64_t	*ph_bits;	/*   by string id */
	size_t		 ph_words;
};

static void	parser_line(struct parser *, const char *, size_t);
static void	parser_dispatch(struct parser *, const char *, size_t);
static int	parser_fastok(const struct parser *);
static int	parser_merge_may_overflow(const struct parser *,
		    const struct parser *);
static int	parser_sum_counts(uint64_t *, const uint64_t *, unsigned);
static int	parser_feed_lines(struct parser *, const char *, size_t);
static void	parser_flush(struct parser *);
static void	parser_forget(struct parser *);
static uint64_t	parser_room(const struct parser *);
static void	parser_toolong(struct parser *);
static void	parser_keep(struct parser *, const char *, size_t);
static void	parser_costline(struct parser *, const char *, const char *,
		    int);
static void	parser_costline_unplaced(struct parser *, const char *,
		    const char *);
static const char *parser_fastline(struct parser *, const char *,
		    const char *);
static __always_inline void parser_fastadd(struct parser *, uint64_t);
static const char *parser_fastcall(struct parser *, const char *,
		    const char *);
static const char *parser_fastref(struct parser *, const char *);
static void	parser_call_cost(struct parser *, uint64_t);
static int	parser_fastnum(const char **, uint64_t *);
static int	parser_fastpos(const char **, uint64_t *);
static enum idspace parser_keyspace(enum namekey);
static __always_inline void parser_setname(struct parser *, enum namekey,
		    uint32_t, uint32_t);
static void	parser_nameline(struct parser *, const char *, const char *,
		    const char *);
static void	parser_headerline(struct parser *, const char *, const char *,
		    const char *, const char *);
static uint32_t	parser_name(struct parser *, enum idspace, const char *,
		    const char *, uint32_t *);
static uint32_t	parser_func(struct parser *, uint32_t, uint32_t, uint32_t,
		    uint32_t);
static uint32_t	idmap_find(const struct idmap *, uint64_t);
static uint32_t	idmap_add(struct idmap *, uint64_t, int *);
static void	idmap_direct_grow(struct idmap *, uint64_t);
static void	idmap_resize(struct idmap *, size_t);
static uint32_t	idmap_hash(const struct idmap *, uint64_t);
static void	idmap_hash_put(struct idmap *, uint64_t, uint32_t);
static void	idmap_rehash(struct idmap *, uint32_t);
static void	parser_events(struct parser *, const char *, const char *);
static void	parser_event_def(struct parser *, const char *, const char *);
static enum namekey parser_namekey(const char *, const char *);
static void	parser_positions(struct parser *, const char *, const char *);
static void	parser_sumline(struct parser *, int, const char *,
		    const char *);
static void	parser_calls(struct parser *, const char *, const char *);
static void	parser_jump(struct parser *, int, const char *, const char *);
static void	parser_jump_target(struct parser *, int, const uint64_t *,
		    const char *, const char *);
static int	parser_subpositions(struct parser *, const char **,
		    const char *, unsigned);
static void	parser_body_seen(struct parser *);
static void	parser_drop_pending(struct parser *);
static void	parser_part_sum(struct parser *);
static void	parser_end_part(struct parser *);
static struct part *parser_part(struct parser *);
static uint32_t	parser_file_name(struct parser *, const char *, size_t);
static uint32_t	parser_placeholder(struct parser *, char, uint64_t);
static uint32_t	parser_undefined(struct parser *, enum idspace, uint64_t,
		    uint32_t *);
static int	parser_is_placeholder(const struct parser *, uint32_t);
static uint32_t	parser_resolve(struct parser *, const struct phref *);

/* Return the current part. */
static struct part *
parser_part(struct parser *ps)
{
	return profile_part_mut(ps->p, ps->part);
}

/* Make a parser that adds the profile read from fname to p. */
struct parser *
parser_create(struct profile *p, const char *fname,
    const struct parse_opts *o)
{
	struct parser	*ps;

	ps = xcalloc(1, sizeof(*ps));
	ps->p = p;
	ps->fname = fname;
	ps->fname_id = profile_intern(p, fname, strlen(fname));
	if (o != NULL && o->strip_prefix != NULL) {
		ps->strip = o->strip_prefix;
		ps->striplen = strlen(o->strip_prefix);
	}
	if (o != NULL) {
		ps->sel_part = o->part;
		ps->sel_thread = o->thread;
	}
	profile_new_part(p, ps->fname_id);
	ps->part = profile_nparts(p) - 1;
	ps->npos = 1;
	ps->pos_line = 0;
	ps->pos_instr = -1;
	ps->keep = o != NULL && o->instrs;
	ps->want_stacks = o != NULL && o->stacks;
	ps->ob = ps->fl = ps->fi = 0;
	ps->fn = ps->fn_name = NONE;
	ps->cob = ps->cfi = ps->cfn = NONE;
	return ps;
}

/* Free a parser (not the profile) without finishing the reading. */
void
parser_discard(struct parser *ps)
{
	int	i;

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
	free(ps->ph_bits);
	free(ps->colmap);
	free(ps->cost);
	free(ps->early_summary);
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

/*
 * Feed len bytes of input; complete lines are parsed at once, a
 * partial last line is kept for the next call.  Return -1 once a fatal
 * error has stopped the parse.
 */
int
parser_feed(struct parser *ps, const char *data, size_t len)
{
	int	rc;

	rc = parser_feed_lines(ps, data, len);
	parser_forget(ps);
	return rc;
}

/* Add to the line hit and to the part's sum what the fast path held. */
static void
parser_flush(struct parser *ps)
{
	if (ps->pend_set) {
		/* pend_room keeps these from overflowing. */
		(void)profile_add_last(ps->p, &ps->pend, 1);
		(void)cost_add1(ps->part_sum, ps->pend);
		ps->pend = 0;
		ps->pend_set = 0;
	}
}

/* Forget the line the fast path last added to (after parser_flush()). */
static void
parser_forget(struct parser *ps)
{
	parser_flush(ps);
	ps->hit = 0;
	ps->tail_len = 0;
}

/*
 * Return how much may be added to the one count of the line hit and of
 * the part's sum before either passes COST_MAX.
 */
static uint64_t
parser_room(const struct parser *ps)
{
	uint64_t	h = profile_last_count(ps->p), t = *ps->part_sum;

	if (h == COST_NONE)
		h = 0;
	if (t == COST_NONE)
		t = 0;
	return COST_MAX - (h > t ? h : t);
}

/* Read the lines of data, as parser_feed(). */
static int
parser_feed_lines(struct parser *ps, const char *data, size_t len)
{
	const char	*s = data, *end = data + len, *nl, *last;
	uint64_t	 base = ps->off;
	size_t		 n, kept;

	if (ps->fatal)
		return -1;
	if (ps->stop)
		return 0;
	ps->off += len;
	if (ps->len > 0) {
		/* Complete the pending partial line with this data's first. */
		nl = memchr(s, '\n', len);
		n = nl != NULL ? (size_t)(nl - s) : len;
		kept = ps->len;
		parser_keep(ps, s, n);
		if (nl == NULL)
			return 0;
		ps->lineno++;
		parser_line(ps, ps->buf, ps->len);
		ps->len = 0;
		if (ps->stop) {
			ps->stop_off = base - kept;
			return 0;
		}
		s = nl + 1;
	}
	/* Parse straight from data up to its last newline. */
	for (last = end; last > s && last[-1] != '\n'; last--)
		continue;
	while (!ps->fatal && s < last) {
		ps->lineno++;
		if (((unsigned)(*s - '0') <= 9 || *s == '+' || *s == '-' ||
		    *s == '*') && (nl = parser_fastline(ps, s, end)) != NULL) {
			s = nl + 1;
			continue;
		}
		if ((*s == 'j' || *s == 'c') &&
		    (nl = parser_fastcall(ps, s, last)) != NULL) {
			s = nl + 1;
			continue;
		}
		if ((*s == 'c' || *s == 'f' || *s == 'o') &&
		    (nl = parser_fastref(ps, s)) != NULL) {
			s = nl + 1;
			continue;
		}
		/* A blank line; in an xtree file it ends a block there. */
		if (*s == '\n' && !ps->xstack) {
			s++;
			continue;
		}
		nl = memchr(s, '\n', last - s);
		parser_line(ps, s, nl - s);
		if (ps->stop) {
			ps->stop_off = base + (uint64_t)(s - data);
			return 0;
		}
		s = nl + 1;
	}
	if (!ps->fatal && s < end)
		parser_keep(ps, s, end - s);
	return ps->fatal ? -1 : 0;
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
 * The input could not be read to its end (the reader said why): what was
 * read is not checked further, and parser_finish() fails.
 */
void
parser_fail(struct parser *ps)
{
	ps->fatal = 1;
}

/* Return nonzero if ps stopped: an error, or a chunk's header line. */
int
parser_stopped(const struct parser *ps)
{
	return ps->fatal || ps->stop;
}

/*
 * Stop at a line longer than PARSE_MAX_LINE: a name of gigabytes would
 * be held, and interned, whole.
 */
static void
parser_toolong(struct parser *ps)
{
	if (!ps->fatal)
		msg(MSG_LONG_LINE, ps->fname, ps->lineno + (ps->len > 0),
		    "more than %u bytes, the limit", PARSE_MAX_LINE);
	ps->fatal = 1;
	ps->len = 0;
}

/* Append n bytes to the pending partial line, ending it with a newline. */
static void
parser_keep(struct parser *ps, const char *s, size_t n)
{
	if (ps->len + n > PARSE_MAX_LINE) {
		parser_toolong(ps);
		return;
	}
	if (ps->len + n + 1 > ps->size) {
		ps->size = ps->len + n + 1 > 2 * ps->size ? ps->len + n + 1 :
		    2 * ps->size;
		ps->buf = xreallocarray(ps->buf, ps->size, 1);
	}
	memcpy(ps->buf + ps->len, s, n);
	ps->len += n;
	/* Every line handed on is followed by a non-digit byte. */
	ps->buf[ps->len] = '\n';
}

/*
 * Parse what is left (a last line without newline), check the file was
 * a profile, and free the parser.  Return 0, or -1 on a fatal error.
 */
int
parser_finish(struct parser *ps)
{
	int	rc;

	if (!ps->fatal && ps->len > 0) {
		ps->lineno++;
		parser_line(ps, ps->buf, ps->len);
	}
	if (!ps->fatal) {
		if (ps->call_pending || ps->jump_pending)
			msg(MSG_CALLS_NO_COST, ps->fname, ps->lineno,
			    "at end of file");
		if (ps->body_seen)
			parser_end_part(ps);
		if (!ps->have_events) {
			msg(MSG_NO_EVENTS, ps->fname, 0, NULL);
			ps->fatal = 1;
		}
	}
	rc = ps->fatal ? -1 : 0;
	parser_discard(ps);
	return rc;
}

/* Parse a whole profile held in memory. */
int
parse_buffer(struct profile *p, const char *name, const char *buf, size_t len,
    const struct parse_opts *o)
{
	struct parser	*ps;

	ps = parser_create(p, name, o);
	parser_feed(ps, buf, len);
	return parser_finish(ps);
}

/*
 * Chunks read ahead (ahead.c): a parser made with parser_spec() reads a
 * chunk of a file from its middle, with placeholders for what it cannot
 * know; parser_adopt() checks them against the parser that has read up
 * to the chunk and takes the chunk over.
 */

/*
 * Return the string id of a placeholder: "\n" and a kind, with an id
 * for a compressed name.  No name in a profile holds a newline.  Each
 * is kept (kind and id, and a bit by string id) for parser_adopt().
 */
static uint32_t
parser_placeholder(struct parser *ps, char kind, uint64_t id)
{
	char		buf[24], digits[20];
	size_t		n = 0, k = 0;
	uint64_t	id0 = id;
	uint32_t	str;

	buf[n++] = '\n';
	buf[n++] = kind;
	if (kind < 'a') {
		do {
			digits[k++] = (char)('0' + id % 10);
			id /= 10;
		} while (id > 0);
		while (k > 0)
			buf[n++] = digits[--k];
	}
	str = profile_intern(ps->p, buf, n);
	if (!parser_is_placeholder(ps, str)) {
		if (str / 64 >= ps->ph_words) {
			k = ps->ph_words;
			ps->ph_bits = xgrow(ps->ph_bits, &ps->ph_words,
			    str / 64 + 1, sizeof(*ps->ph_bits));
			memset(ps->ph_bits + k, 0, (ps->ph_words - k) *
			    sizeof(*ps->ph_bits));
		}
		ps->ph_bits[str / 64] |= (uint64_t)1 << (str % 64);
		ps->ph = xgrow(ps->ph, &ps->ph_cap, ps->nph + 1,
		    sizeof(*ps->ph));
		ps->ph[ps->nph].str = str;
		ps->ph[ps->nph].kind = kind;
		ps->ph[ps->nph++].id = id0;
	}
	return str;
}

/* Return nonzero if string id of ps's profile is a placeholder. */
static int
parser_is_placeholder(const struct parser *ps, uint32_t id)
{
	return id / 64 < ps->ph_words &&
	    (ps->ph_bits[id / 64] >> (id % 64) & 1) != 0;
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
	const struct profile	*cp = cs->p;
	const struct idmap	*m;
	struct idmap		*pm;
	uint32_t		*strmap, *fnmap, n, i, slot, s1, name;
	size_t			 len, k;
	int			 sp, created;

	if (nmsg > 0 || cs->fatal || !cs->spec || !ps->have_events ||
	    !cs->have_events || !ps->body_seen || ps->skipping ||
	    ps->call_pending || ps->jump_pending || ps->cob != NONE ||
	    ps->cfi != NONE || ps->len != 0)
		return -1;
	if (ps->nevents != cs->nevents || ps->ncols != cs->ncols ||
	    ps->identity != cs->identity || ps->npos != cs->npos ||
	    ps->pos_line != cs->pos_line || memcmp(ps->colmap, cs->colmap,
	    ps->ncols * sizeof(*ps->colmap)) != 0 ||
	    strcmp(profile_str(ps->p, ps->events_id),
	    profile_str(cp, cs->events_id)) != 0)
		return -1;

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

	/* A sum that overflows is warned about on its line: not here. */
	if (parser_merge_may_overflow(ps, cs))
		goto fail;

	/* It holds: merge. */
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
	free(fnmap);
	free(strmap);
	return 0;
fail:
	free(strmap);
	return -1;
}

/*
 * Return nonzero if the fast path may take cost lines in the state ps
 * is in.  What it tests changes only on the lines the fast path leaves
 * to parser_line() and in parser_spec() and parser_adopt(), which keep
 * ps->fast up to date.
 */
static int
parser_fastok(const struct parser *ps)
{
	return ps->identity && ps->all_set && ps->fn != NONE &&
	    !ps->skipping && ps->part_sum != NULL && ps->npos > 0 &&
	    !ps->keep && !ps->xstack;
}

/* Take one line (without its newline) by its kind. */
static void
parser_line(struct parser *ps, const char *s, size_t len)
{
	if (len > PARSE_MAX_LINE) {
		parser_toolong(ps);
		return;
	}
	parser_dispatch(ps, s, len);
	ps->fast = parser_fastok(ps);
}

/* Dispatch one line (without its newline). */
static void
parser_dispatch(struct parser *ps, const char *s, size_t len)
{
	const char	*end, *eq, *t;
	char		 ex[MSG_EXCERPT];

	parser_forget(ps);
	if (len > 0 && s[len - 1] == '\r')
		len--;
	end = s + len;
	if (s == end) {
		ps->nstack = 0;		/* a blank line ends an xtree block */
		return;
	}
	/* Cost lines are the bulk of every file: test for them first. */
	if ((unsigned)(*s - '0') <= 9 || *s == '+' || *s == '-' ||
	    *s == '*') {
		parser_costline(ps, s, end, 1);
		return;
	}
	if (*s == '#')
		return;
	if (num_is_space(*s)) {
		if ((t = num_skip_space(s, end)) == end)
			return;
		/*
		 * pprof's writer (google-pprof, jeprof) prints a line it
		 * does not know as nothing: " 81920" is a count there.
		 */
		if ((unsigned)(*t - '0') <= 9) {
			parser_costline_unplaced(ps, t, end);
			return;
		}
	}
	/* Xdebug's profiler_append=1 puts this between runs. */
	if (*s == '=' && (size_t)(end - s) >= 23 &&
	    memcmp(s, "==== NEW PROFILING FILE", 23) == 0)
		return;
	if (memchr(s, '\0', (size_t)(end - s)) != NULL) {
		msg(MSG_NUL_BYTE, ps->fname, ps->lineno, NULL);
		parser_drop_pending(ps);
		return;
	}
	for (eq = s; eq < end && *eq != '=' && *eq != ':' &&
	    !num_is_space(*eq); eq++)
		continue;
	if (eq < end && *eq == '=') {
		parser_nameline(ps, s, eq, end);
		return;
	}
	if (eq < end && *eq == ':') {
		if (ps->spec) {
			/* Header lines are left to the main thread. */
			ps->stop = 1;
			ps->lineno--;
			return;
		}
		parser_headerline(ps, s, eq, num_skip_space(eq + 1, end), end);
		return;
	}
	parser_drop_pending(ps);
	msg(MSG_UNKNOWN_LINE, ps->fname, ps->lineno, "%s",
	    msg_excerpt(ex, sizeof(ex), s, end - s));
}

/* Give the current part a vector for the sum of its cost lines. */
static void
parser_part_sum(struct parser *ps)
{
	struct part	*pt = parser_part(ps);

	if (pt->sum == NULL) {
		pt->sum = xreallocarray(NULL, ps->nevents, sizeof(*pt->sum));
		cost_clear(pt->sum, ps->nevents);
	}
	ps->part_sum = pt->sum;
}

/*
 * At the end of a part, check its summary: and totals: against the sum
 * of its cost lines: one warning naming both if a summary: is below the
 * sum (the format lets it be above: costs of no function) or totals:
 * differs from it.
 */
static void
parser_end_part(struct parser *ps)
{
	const struct part	*pt = parser_part(ps);
	const uint64_t		*c;
	unsigned		 i, k;

	if (pt->skipped)
		return;
	for (k = 0; k < 2; k++) {
		c = k == 0 ? pt->summary : pt->totals;
		if (c == NULL || cost_is_zero(c, ps->nevents))
			continue;
		for (i = 0; i < ps->nevents; i++) {
			uint64_t	s = pt->sum != NULL ? pt->sum[i] :
			    COST_NONE;

			if (s == COST_NONE)
				s = 0;
			if (c[i] == COST_NONE || c[i] == s ||
			    (k == 0 && c[i] > s))
				continue;
			msg(MSG_SUMMARY_DIFFERS, ps->fname, 0,
			    "%s: %s %llu, cost lines %llu", profile_str(ps->p,
			    profile_event(ps->p, i)), k == 0 ? "summary:" :
			    "totals:", (unsigned long long)c[i],
			    (unsigned long long)s);
			break;
		}
	}
}

/* A calls= or jump line not followed by its cost line: warn, forget it. */
static void
parser_drop_pending(struct parser *ps)
{
	if (ps->call_pending || ps->jump_pending)
		msg(MSG_CALLS_NO_COST, ps->fname, ps->lineno, NULL);
	ps->call_pending = ps->jump_pending = 0;
	ps->cob = ps->cfi = NONE;
}

/* A body line was read: later header lines start a new part. */
static void
parser_body_seen(struct parser *ps)
{
	struct part	*pt;
	const char	*t;

	if (!ps->body_seen) {
		ps->body_seen = 1;
		pt = parser_part(ps);
		pt->has_data = 1;
		t = profile_str(ps->p, pt->thread);
		ps->skipping = (ps->sel_part != NULL && strcmp(ps->sel_part,
		    profile_str(ps->p, pt->part)) != 0) ||
		    (ps->sel_thread != NULL && strcmp(ps->sel_thread,
		    *t != '\0' ? t : "1") != 0);
		pt->skipped = ps->skipping;
		ps->part_sum = NULL;
	}
}

/* Compare a key (s to eq) with a literal. */
#define KEYIS(s, eq, lit) \
	((size_t)((eq) - (s)) == sizeof(lit) - 1 && \
	    memcmp((s), (lit), sizeof(lit) - 1) == 0)

/*
 * Parse n subpositions at *sp into ps->pos and advance *sp; warn and
 * return -1 if they are malformed.  The relative forms count from the
 * same subposition of the last cost line.
 */
static int
parser_subpositions(struct parser *ps, const char **sp, const char *end,
    unsigned n)
{
	const char		*s = *sp;
	enum subpos_kind	 kind;
	enum num_result		 r;
	uint64_t		 v, *pos = ps->pos;
	uint64_t		 old0 = pos[0], old1 = pos[1], old2 = pos[2];
	unsigned		 i;

	/* Update in place; a malformed line puts the old values back. */
	for (i = 0; i < n; i++) {
		s = num_skip_space(s, end);
		if (*s == '*' && (s + 1 == end || num_is_space(s[1]))) {
			/* The most common case: unchanged. */
			s++;
			if (!ps->pos_set[i])
				msg(MSG_RELATIVE_FIRST, ps->fname, ps->lineno,
				    NULL);
			continue;
		}
		if ((r = num_parse_subpos(&s, end, &kind, &v)) != NUM_OK) {
			msg(r == NUM_OVERFLOW ? MSG_NUMBER_TOO_LARGE :
			    MSG_BAD_COSTLINE, ps->fname, ps->lineno,
			    "position %u", i + 1);
			goto bad;
		}
		if (kind != SUBPOS_ABS && !ps->pos_set[i])
			msg(MSG_RELATIVE_FIRST, ps->fname, ps->lineno, NULL);
		switch (kind) {
		case SUBPOS_ABS:
			pos[i] = v;
			break;
		case SUBPOS_SAME:
			break;
		case SUBPOS_PLUS:
			if (__builtin_add_overflow(pos[i], v, &pos[i])) {
				msg(MSG_NUMBER_TOO_LARGE, ps->fname,
				    ps->lineno, "position %u", i + 1);
				goto bad;
			}
			break;
		case SUBPOS_MINUS:
			if (v > pos[i]) {
				msg(MSG_NEGATIVE_LINE, ps->fname, ps->lineno,
				    NULL);
				pos[i] = 0;
			} else
				pos[i] -= v;
			break;
		}
	}
	if (!ps->all_set) {
		for (i = 0; i < n; i++)
			ps->pos_set[i] = 1;
		ps->all_set = 1;
	}
	*sp = s;
	return 0;
bad:
	pos[0] = old0;
	pos[1] = old1;
	pos[2] = old2;
	return -1;
}

/*
 * Parse a decimal number of up to 19 digits or a hexadecimal one of up
 * to 16 at *pp into *v (neither can overflow) and advance *pp; return
 * -1 for anything else, leaving it to the careful path.
 */
static inline int
parser_fastnum(const char **pp, uint64_t *v)
{
	const char	*p = *pp, *start;
	uint64_t	 n = 0;
	unsigned	 d;

	if ((d = (unsigned)(*p - '0')) > 9)
		return -1;
	if ((unsigned)(p[1] - '0') > 9 && p[1] != 'x') {
		/* One digit, the usual. */
		*pp = p + 1;
		*v = d;
		return 0;
	}
	start = p;
	do {
		n = n * 10 + d;
		p++;
	} while ((d = (unsigned)(*p - '0')) <= 9);
	if (*p == 'x' && p == start + 1 && n == 0) {
		/* "0x": hexadecimal. */
		n = 0;
		for (start = ++p; ; p++) {
			if ((d = (unsigned)(*p - '0')) <= 9)
				;
			else if ((d = (unsigned)((*p | 0x20) - 'a')) <= 5)
				d += 10;
			else
				break;
			n = n << 4 | d;
		}
		if (p == start || p - start > 16)
			return -1;
	} else if (p - start > 19)
		return -1;
	*pp = p;
	*v = n;
	return 0;
}

/*
 * Read a subposition at *pp (N, 0xN, +N, -N or *) into *pos, relative
 * to what it holds; return -1 for anything else (or a position out of
 * range), left to the careful path.
 */
static inline int
parser_fastpos(const char **pp, uint64_t *pos)
{
	uint64_t	v;

	switch (**pp) {
	case '*':
		(*pp)++;
		return 0;
	case '+':
		(*pp)++;
		if (parser_fastnum(pp, &v) == -1 ||
		    __builtin_add_overflow(*pos, v, pos))
			return -1;
		return 0;
	case '-':
		(*pp)++;
		if (parser_fastnum(pp, &v) == -1 || v > *pos)
			return -1;
		*pos -= v;
		return 0;
	default:
		return parser_fastnum(pp, pos);
	}
}

/*
 * The fast path for the bulk of every file: a cost line (a self cost, a
 * call's cost or a jump's target) in a function of a part being read:
 * positions N, 0xN, +N, -N or *, one space apart (not before the first
 * line that set them), then counts, plain numbers after spaces, and
 * maybe spaces at the end.  Return the newline that ends the line at s
 * (there is one before end), or NULL with nothing changed for
 * parser_line() to take the line, its checks and its messages.
 */
static const char *
parser_fastline(struct parser *ps, const char *s, const char *end)
{
	static const unsigned char ones[32] = {
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff
	};
	const char	*p = s, *t;
	uint64_t	 old[PARSE_MAXPOS] = { 0 }, v, line, *pos = ps->pos;
	uint64_t	*cost = ps->cost, w[2];
	unsigned	 i, n, npos = ps->npos;
	int		 rel = 0;

	assert(ps->fast == parser_fastok(ps));
	if (!ps->fast)
		return NULL;
	/*
	 * Positions change in place; a line left to parser_line() undoes.
	 * Each is saved on its own: the last line stored them one by one,
	 * and a wider load of them would wait for those stores to finish.
	 */
	old[0] = pos[0];
	if (parser_fastpos(&p, &pos[0]) == -1)
		goto undo0;
	t = p;
	if ((n = ps->tail_len) != 0 && end - t >= 16) {
		/* The rest as on the last line: nothing else to read. */
		assert(!ps->call_pending && !ps->jump_pending);
		memcpy(w, t, sizeof(w));
		if (((w[0] ^ ps->tail[0]) & ps->tail_mask[0]) == 0 &&
		    ((w[1] ^ ps->tail[1]) & ps->tail_mask[1]) == 0) {
			parser_fastadd(ps, ps->pos_line >= 0 ?
			    pos[ps->pos_line] : 0);
			ps->tail_len = n;
			return t + n - 1;
		}
	}
	for (i = 1; i < npos; i++)
		old[i] = pos[i];
	for (i = 1; i < npos; i++) {
		if (*p++ != ' ')
			goto undo;
		rel |= *p == '+' || *p == '-';
		if (parser_fastpos(&p, &pos[i]) == -1)
			goto undo;
	}
	if (ps->jump_pending) {
		/* A jump's line holds positions only (callgrind ends it
		 * with a space). */
		while (*p == ' ')
			p++;
		if (*p != '\n')
			goto undo;
		ps->jump_pending = 0;
		return p;
	}
	for (i = 0; *p == ' '; i++) {
		while (*p == ' ')
			p++;
		if (*p == '\n')
			break;		/* spaces at the end */
		if (i == ps->ncols || parser_fastnum(&p, &v) == -1 ||
		    v == COST_NONE)
			goto undo;
		cost[i] = v;
	}
	if (*p != '\n')
		goto undo;
	ps->given = i;
	for (; i < ps->nevents; i++)
		cost[i] = COST_NONE;
	line = ps->pos_line >= 0 ? pos[ps->pos_line] : 0;
	if (ps->call_pending) {
		parser_forget(ps);
		parser_call_cost(ps, line);
		return p;
	}
	parser_fastadd(ps, line);
	if (!rel && (n = (unsigned)(p - t) + 1) <= 16 && end - t >= 16) {
		memcpy(ps->tail_mask, ones + 16 - n, sizeof(ps->tail_mask));
		memcpy(w, t, sizeof(w));
		ps->tail[0] = w[0] & ps->tail_mask[0];
		ps->tail[1] = w[1] & ps->tail_mask[1];
		ps->tail_len = n;
	} else
		ps->tail_len = 0;
	return p;
undo:
	for (i = 1; i < npos; i++)
		pos[i] = old[i];
undo0:
	pos[0] = old[0];
	return NULL;
}

/*
 * Add the counts in ps->cost to line of the current function and file
 * and to the part's sum, for the fast path.
 */
static __always_inline void
parser_fastadd(struct parser *ps, uint64_t line)
{
	uint64_t	*cost = ps->cost, v;
	int		 over;

	if (ps->hit && ps->hit_line == line) {
		if (ps->nevents == 1) {
			/* Hold the count back while the sums have room. */
			if ((v = cost[0]) == COST_NONE)
				return;
			if (!ps->room_known) {
				/* Looked up at the line's first repeat. */
				ps->pend_room = parser_room(ps);
				ps->room_known = 1;
			}
			if (v <= ps->pend_room - ps->pend) {
				ps->pend += v;
				ps->pend_set = 1;
				return;
			}
			parser_flush(ps);
		}
		over = profile_add_last(ps->p, cost, ps->given);
	} else {
		parser_forget(ps);
		over = profile_add_self(ps->p, ps->fn, ps->fi, line, cost,
		    ps->given);
		ps->hit = ps->nevents > 0;
		ps->hit_line = line;
	}
	if (over)
		msg(MSG_COST_OVERFLOW, ps->fname, ps->lineno, NULL);
	cost_add(ps->part_sum, cost, ps->given);
	ps->room_known = 0;
}

/*
 * The fast path for the lines before a call's or a jump's cost line:
 * "calls=COUNT TARGET", "jump=COUNT TARGET", "jcnd=EXE/JUMPS TARGET"
 * in plain form, no call or jump pending.  Return the newline ending
 * the line at s (before end), or NULL with nothing changed for
 * parser_line() to take it.
 */
static const char *
parser_fastcall(struct parser *ps, const char *s, const char *end)
{
	const char	*p;
	uint64_t	 count, v;
	int		 call;

	if (ps->call_pending || ps->jump_pending || !ps->body_seen ||
	    !ps->have_events || ps->keep || ps->xstack)
		return NULL;
	if (end - s > 6 && memcmp(s, "calls=", 6) == 0)
		call = 1;
	else if (end - s > 5 && (memcmp(s, "jump=", 5) == 0 ||
	    memcmp(s, "jcnd=", 5) == 0))
		call = 0;
	else
		return NULL;
	p = s + 5 + call;
	if (parser_fastnum(&p, &count) == -1)
		return NULL;
	if (s[1] == 'c' && (*p++ != '/' || parser_fastnum(&p, &v) == -1))
		return NULL;
	if (*p != ' ' && *p != '\n')
		return NULL;
	/* The target: subpositions checked for a call, not for a jump. */
	while (*p == ' ') {
		p++;
		if (!call || *p == ' ' || *p == '\n')
			continue;	/* callgrind ends the line with a space */
		if (*p == '*') {
			p++;
			continue;
		}
		if (*p == '+' || *p == '-')
			p++;
		if (parser_fastnum(&p, &v) == -1)
			return NULL;
	}
	if (!call)
		while (*p != '\n' && *p != '\0' && *p != '\r')
			p++;
	if (*p != '\n')
		return NULL;
	parser_forget(ps);
	if (call) {
		ps->call_pending = 1;
		ps->call_count = count;
	} else
		ps->jump_pending = 1;
	return p;
}

/*
 * The fast path for a name line that refers to a compressed id defined
 * before ("fn=(ID)", "cfn=(ID)", "fl=(ID)", "fi=(ID)", "fe=(ID)",
 * "cfi=(ID)", "cfl=(ID)", "ob=(ID)", "cob=(ID)"), no call or jump
 * pending: what parser_nameline() does, by parser_setname().  Return the
 * newline ending the line at s, or NULL with nothing changed for
 * parser_line() to take it.
 */
static const char *
parser_fastref(struct parser *ps, const char *s)
{
	const struct idmap	*m;
	const char		*p = s;
	enum namekey		 key;
	uint64_t		 id = 0;
	uint32_t		 slot;

	if (ps->call_pending || ps->jump_pending || !ps->body_seen ||
	    ps->xstack)
		return NULL;
	if (*p == 'c')
		p++;
	if (p[0] == 'f' && p[1] == 'n')
		key = p == s ? NK_FN : NK_CFN;
	else if (p[0] == 'f' && (p[1] == 'l' || p[1] == 'i' ||
	    p[1] == 'e'))
		key = p != s ? (p[1] == 'e' ? NK_NONE : NK_CFI) :
		    p[1] == 'l' ? NK_FL : NK_FI;
	else if (p[0] == 'o' && p[1] == 'b')
		key = p == s ? NK_OB : NK_COB;
	else
		return NULL;
	if (key == NK_NONE || p[2] != '=' || p[3] != '(')
		return NULL;
	m = &ps->idmap[parser_keyspace(key)];
	for (p += 4; (unsigned)(*p - '0') <= 9 && id < UINT64_MAX / 100; p++)
		id = id * 10 + (uint64_t)(*p - '0');
	if ((unsigned)(p[-1] - '0') > 9 || *p++ != ')')
		return NULL;
	while (*p == ' ')
		p++;
	if (*p != '\n' || (slot = idmap_find(m, id)) == NONE)
		return NULL;
	parser_forget(ps);
	parser_setname(ps, key, m->names[slot], slot);
	ps->fast = parser_fastok(ps);
	return p;
}

/*
 * The cost line after calls=, its counts in ps->cost: the inclusive cost
 * of the call from line of the current function.
 */
static void
parser_call_cost(struct parser *ps, uint64_t line)
{
	uint32_t	callee, obj, file, name;

	ps->call_pending = 0;
	if (ps->fn == NONE) {
		msg(MSG_NO_FUNCTION, ps->fname, ps->lineno, NULL);
		name = profile_intern(ps->p, "???", 3);
		ps->fn = profile_func_id(ps->p, ps->ob, ps->fl, name);
		ps->fn_name = name;
	}
	obj = ps->cob != NONE ? ps->cob : ps->ob;
	file = ps->cfi != NONE ? ps->cfi : ps->fi;
	if (!ps->skipping) {
		if (ps->cfn != NONE)
			callee = parser_func(ps, obj, file, ps->cfn,
			    ps->cfn_slot);
		else
			callee = profile_func_id(ps->p, obj, file,
			    profile_intern(ps->p, "???", 3));
		if (profile_add_call(ps->p, ps->fn, ps->fi, line, callee,
		    ps->call_count, ps->cost))
			msg(MSG_COST_OVERFLOW, ps->fname, ps->lineno, NULL);
		if (ps->keep && ps->pos_instr >= 0 &&
		    instrs_add_call(profile_instrs_mut(ps->p), ps->fn,
		    ps->pos[ps->pos_instr], callee, ps->call_count, ps->cost))
			msg(MSG_COST_OVERFLOW, ps->fname, ps->lineno, NULL);
	}
	ps->cob = ps->cfi = NONE;
}

/*
 * A cost line without its positions (pprof's for an unknown line): its
 * counts at position 0 in every column, "unidentified lines".
 */
static void
parser_costline_unplaced(struct parser *ps, const char *s, const char *end)
{
	unsigned	i;

	for (i = 0; i < ps->npos; i++) {
		ps->pos[i] = 0;
		ps->pos_set[i] = 1;
	}
	parser_costline(ps, s, end, 0);
}

/*
 * A cost line: positions (unless not placed: they are set already), then
 * counts; self cost, call cost or a jump.
 */
static void
parser_costline(struct parser *ps, const char *s, const char *end,
    int placed)
{
	const char	*p;
	enum num_result	 r;
	uint64_t	 v, line;
	unsigned	 col, nev;
	uint32_t	 name;
	int		 ev;

	if (!ps->have_events) {
		msg(MSG_DATA_BEFORE_EVENTS, ps->fname, ps->lineno, NULL);
		ps->fatal = 1;
		return;
	}
	parser_body_seen(ps);
	nev = ps->nevents;
	/* Positions first; a jump line holds nothing else. */
	p = s;
	if (placed && parser_subpositions(ps, &p, end, ps->npos) == -1) {
		parser_drop_pending(ps);
		return;
	}
	line = ps->pos_line >= 0 ? ps->pos[ps->pos_line] : 0;
	p = num_skip_space(p, end);
	if (ps->jump_pending) {
		ps->jump_pending = 0;
		if (p != end)
			msg(MSG_JUMP_COSTS, ps->fname, ps->lineno, NULL);
		if (ps->keep && ps->jump_known && ps->pos_instr >= 0 &&
		    ps->fn != NONE && !ps->skipping)
			instrs_add_jump(profile_instrs_mut(ps->p), ps->fn,
			    ps->jump_cond, ps->pos[ps->pos_instr],
			    ps->jump_target, ps->jump_exe, ps->jump_taken);
		return;
	}
	if (!ps->identity)
		cost_clear(ps->cost, nev);
	for (col = 0; p < end; col++) {
		if (col == ps->ncols) {
			msg(MSG_TOO_MANY_COUNTS, ps->fname, ps->lineno,
			    "%u events", ps->ncols);
			break;
		}
		if (*p == '.' && (p + 1 == end || num_is_space(p[1]))) {
			if ((ev = ps->colmap[col]) >= 0)
				ps->cost[ev] = COST_NONE;
			p = num_skip_space(p + 1, end);
			continue;
		}
		if (*p == '-' && p + 1 < end && (unsigned)(p[1] - '0') <= 9) {
			p++;
			if (num_parse_u64(&p, end, &v) == NUM_NONE)
				goto bad;
			msg(MSG_NEGATIVE_COUNT, ps->fname, ps->lineno, NULL);
			v = 0;
		} else if ((r = num_parse_u64(&p, end, &v)) != NUM_OK) {
			if (r == NUM_NONE)
				goto bad;
			msg(MSG_NUMBER_TOO_LARGE, ps->fname, ps->lineno,
			    "count %u", col + 1);
			parser_drop_pending(ps);
			return;
		} else if (v == COST_NONE) {
			msg(MSG_NUMBER_TOO_LARGE, ps->fname, ps->lineno,
			    "count %u", col + 1);
			parser_drop_pending(ps);
			return;
		}
		if ((ev = ps->colmap[col]) >= 0)
			ps->cost[ev] = v;
		p = num_skip_space(p, end);
	}
	if (ps->identity)
		for (; col < nev; col++)
			ps->cost[col] = COST_NONE;

	if (ps->call_pending) {
		parser_call_cost(ps, line);
		return;
	}
	if (ps->fn == NONE) {
		msg(MSG_NO_FUNCTION, ps->fname, ps->lineno, NULL);
		name = profile_intern(ps->p, "???", 3);
		ps->fn = profile_func_id(ps->p, ps->ob, ps->fl, name);
		ps->fn_name = name;
	}
	if (ps->skipping)
		return;
	ps->given = nev;
	if (profile_add_self(ps->p, ps->fn, ps->fi, line, ps->cost, nev))
		msg(MSG_COST_OVERFLOW, ps->fname, ps->lineno, NULL);
	if (ps->keep && ps->pos_instr >= 0 &&
	    instrs_add(profile_instrs_mut(ps->p), ps->fn,
	    ps->pos[ps->pos_instr], ps->fi, line, ps->cost, nev))
		msg(MSG_COST_OVERFLOW, ps->fname, ps->lineno, NULL);
	/* An xtree block's cost, at its innermost frame. */
	if (ps->xstack && ps->nstack > 0 && !cost_is_zero(ps->cost, nev))
		(void)stacks_add(profile_stacks_mut(ps->p), ps->stack,
		    ps->nstack, ps->cost, nev);
	if (ps->part_sum == NULL)
		parser_part_sum(ps);
	cost_add(ps->part_sum, ps->cost, nev);
	return;
bad:
	msg(MSG_BAD_COSTLINE, ps->fname, ps->lineno, "count %u", col + 1);
	parser_drop_pending(ps);
}

/* Return the string id of a file name, without the strip prefix. */
static uint32_t
parser_file_name(struct parser *ps, const char *s, size_t len)
{
	if (ps->striplen > 0 && len > ps->striplen &&
	    memcmp(s, ps->strip, ps->striplen) == 0) {
		s += ps->striplen;
		len -= ps->striplen;
	}
	return profile_intern(ps->p, s, len);
}

/* Return where compressed id starts probing in m's hash table. */
static inline uint32_t
idmap_hash(const struct idmap *m, uint64_t id)
{
	return (uint32_t)((id * 0x9e3779b97f4a7c15ULL) >> 32) & m->mask;
}

/*
 * Return the slot of compressed id in m, or NONE.  Every id the direct
 * array reaches is there; only the others are in the hash table.
 */
static uint32_t
idmap_find(const struct idmap *m, uint64_t id)
{
	uint32_t	j;

	if (id < m->ndirect)
		return m->direct[id] != 0 ? m->direct[id] - 1 : NONE;
	if (m->nhash == 0)
		return NONE;
	for (j = idmap_hash(m, id); m->hash[j].slot != 0;
	    j = (j + 1) & m->mask)
		if (m->hash[j].id == id)
			return m->hash[j].slot - 1;
	return NONE;
}

/* Put id (not in it) with its slot into m's hash table. */
static void
idmap_hash_put(struct idmap *m, uint64_t id, uint32_t slot)
{
	uint32_t	j;

	for (j = idmap_hash(m, id); m->hash[j].slot != 0;
	    j = (j + 1) & m->mask)
		continue;
	m->hash[j].id = id;
	m->hash[j].slot = slot + 1;
	m->nhash++;
}

/*
 * Make m's hash table size slots (a power of two) and put back in it
 * the ids the direct array does not reach; the others go there.  A
 * table of the same size is used again (its pages are there).
 */
static void
idmap_rehash(struct idmap *m, uint32_t size)
{
	struct idslot	*keep;
	uint32_t	 i, n = m->hash != NULL ? m->mask + 1 : 0, k = 0;

	keep = xreallocarray(NULL, m->nhash ? m->nhash : 1, sizeof(*keep));
	for (i = 0; i < n; i++) {
		if (m->hash[i].slot == 0)
			continue;
		if (m->hash[i].id < m->ndirect)
			m->direct[m->hash[i].id] = m->hash[i].slot;
		else
			keep[k++] = m->hash[i];
	}
	if (size != n) {
		free(m->hash);
		/* Not calloc(): see keytab_resize(). */
		m->hash = xreallocarray(NULL, size, sizeof(*m->hash));
		m->mask = size - 1;
	}
	memset(m->hash, 0, (size_t)size * sizeof(*m->hash));
	m->nhash = 0;
	for (i = 0; i < k; i++)
		idmap_hash_put(m, keep[i].id, keep[i].slot - 1);
	free(keep);
}

/*
 * Make the direct array of m reach id, moving there the ids of the hash
 * table that it now reaches.
 */
static void
idmap_direct_grow(struct idmap *m, uint64_t id)
{
	size_t	n = m->ndirect ? m->ndirect : 1024;

	while (n <= id)
		n *= 2;
	m->direct = xreallocarray(m->direct, n, sizeof(*m->direct));
	memset(m->direct + m->ndirect, 0, (n - m->ndirect) *
	    sizeof(*m->direct));
	m->ndirect = n;
	if (m->nhash > 0)
		idmap_rehash(m, m->mask + 1);
}

/* Make room in m for cap slots. */
static void
idmap_resize(struct idmap *m, size_t cap)
{
	m->cap = cap;
	m->names = xreallocarray(m->names, cap, sizeof(*m->names));
	m->slot_id = xreallocarray(m->slot_id, cap, sizeof(*m->slot_id));
	m->fn_ob = xreallocarray(m->fn_ob, cap, sizeof(*m->fn_ob));
	m->fn_fl = xreallocarray(m->fn_fl, cap, sizeof(*m->fn_fl));
	m->fn_id = xreallocarray(m->fn_id, cap, sizeof(*m->fn_id));
}

/* Return the slot of compressed id in m, adding it; *created says so. */
static uint32_t
idmap_add(struct idmap *m, uint64_t id, int *created)
{
	uint32_t	 slot;

	if ((slot = idmap_find(m, id)) != NONE) {
		*created = 0;
		return slot;
	}
	*created = 1;
	if (m->n == m->cap)
		idmap_resize(m, m->cap ? m->cap * 2 : 256);
	slot = (uint32_t)m->n++;
	m->slot_id[slot] = id;
	m->fn_id[slot] = NONE;
	if (id < m->ndirect || id < 4 * (uint64_t)m->n + 1024) {
		if (id >= m->ndirect)
			idmap_direct_grow(m, id);
		m->direct[id] = slot + 1;
	} else {
		if (m->hash == NULL || 2 * ((uint64_t)m->nhash + 1) >
		    (uint64_t)m->mask + 1)
			idmap_rehash(m, m->hash != NULL ? 2 * (m->mask + 1) :
			    64);
		idmap_hash_put(m, id, slot);
	}
	return slot;
}

/*
 * A reference to compressed id that nothing defined (yappi writes
 * them): the id stands for a name of its own, "?\?\?(ID)", defined here
 * so that it is said once and its costs stay apart from other ids'.
 */
static uint32_t
parser_undefined(struct parser *ps, enum idspace sp, uint64_t id,
    uint32_t *slotp)
{
	struct idmap	*m = &ps->idmap[sp];
	char		 buf[32];
	uint32_t	 name, slot;
	int		 created, n;

	msg(MSG_UNDEFINED_ID, ps->fname, ps->lineno, "(%llu)",
	    (unsigned long long)id);
	n = snprintf(buf, sizeof(buf), "?\?\?(%llu)",
	    (unsigned long long)id);
	name = sp == IDS_FL ? parser_file_name(ps, buf, (size_t)n) :
	    profile_intern(ps->p, buf, (size_t)n);
	slot = idmap_add(m, id, &created);
	m->names[slot] = name;
	m->fn_id[slot] = NONE;
	*slotp = slot;
	return name;
}

/*
 * Resolve a position name "(id) name", "(id)" or "name" in space sp
 * and return its string id; *slotp gets the compressed id's slot, or
 * NONE for a literal name.
 */
static uint32_t
parser_name(struct parser *ps, enum idspace sp, const char *s,
    const char *end, uint32_t *slotp)
{
	struct idmap	*m = &ps->idmap[sp];
	const char	*p = s + 1;
	uint64_t	 id;
	uint32_t	 name, slot;
	int		 created;

	*slotp = NONE;
	if (s == end || *s != '(' || p == end ||
	    (unsigned)(*p - '0') > 9)
		goto literal;
	for (id = 0; p < end && (unsigned)(*p - '0') <= 9; p++) {
		if (__builtin_mul_overflow(id, 10, &id) ||
		    __builtin_add_overflow(id, (uint64_t)(*p - '0'), &id)) {
			msg(MSG_BAD_NAME_ID, ps->fname, ps->lineno, NULL);
			goto literal;
		}
	}
	if (p == end || *p != ')') {
		msg(MSG_BAD_NAME_ID, ps->fname, ps->lineno, NULL);
		goto literal;
	}
	p = num_skip_space(p + 1, end);
	if (p == end) {
		/* A reference. */
		if ((slot = idmap_find(m, id)) == NONE && ps->spec) {
			/* Defined before the chunk, we hope. */
			slot = idmap_add(m, id, &created);
			m->names[slot] = parser_placeholder(ps, "OLF"[sp], id);
		}
		if (slot == NONE)
			return parser_undefined(ps, sp, id, slotp);
		*slotp = slot;
		return m->names[slot];
	}
	name = sp == IDS_FL ? parser_file_name(ps, p, end - p) :
	    profile_intern(ps->p, p, end - p);
	slot = idmap_add(m, id, &created);
	if (!created && m->names[slot] != name) {
		/* A placeholder's definition is checked when adopted. */
		if (!ps->spec || !parser_is_placeholder(ps, m->names[slot]))
			msg(MSG_REDEFINED_ID, ps->fname, ps->lineno, "(%llu)",
			    (unsigned long long)id);
		m->fn_id[slot] = NONE;
	}
	m->names[slot] = name;
	*slotp = slot;
	return name;
literal:
	return sp == IDS_FL ? parser_file_name(ps, s, end - s) :
	    profile_intern(ps->p, s, end - s);
}

/*
 * Return the id of function (obj, file, name), where slot is the
 * compressed fn id it was named by (or NONE): the last resolution of
 * each compressed name is remembered, which spares a lookup per line.
 * It holds for the name the slot has now only: a cfn= read before the
 * id was defined again still names what it named then.
 */
static uint32_t
parser_func(struct parser *ps, uint32_t obj, uint32_t file, uint32_t name,
    uint32_t slot)
{
	struct idmap	*m = &ps->idmap[IDS_FN];
	uint32_t	 fn;

	if (slot != NONE && m->names[slot] != name)
		slot = NONE;
	if (slot != NONE && m->fn_id[slot] != NONE && m->fn_ob[slot] == obj &&
	    m->fn_fl[slot] == file)
		return m->fn_id[slot];
	fn = profile_func_id(ps->p, obj, file, name);
	if (slot != NONE) {
		m->fn_ob[slot] = obj;
		m->fn_fl[slot] = file;
		m->fn_id[slot] = fn;
	}
	return fn;
}

/* Classify the key s to eq of a name line; NK_NONE if it is unknown. */
static enum namekey
parser_namekey(const char *s, const char *eq)
{
	switch (*s) {
	case 'f':
		if (KEYIS(s, eq, "fn"))
			return NK_FN;
		if (KEYIS(s, eq, "fl"))
			return NK_FL;
		if (KEYIS(s, eq, "fi") || KEYIS(s, eq, "fe"))
			return NK_FI;
		if (KEYIS(s, eq, "frfn"))
			return NK_FRFN;
		break;
	case 'c':
		if (KEYIS(s, eq, "cfn"))
			return NK_CFN;
		if (KEYIS(s, eq, "cfi") || KEYIS(s, eq, "cfl"))
			return NK_CFI;
		if (KEYIS(s, eq, "cob"))
			return NK_COB;
		if (KEYIS(s, eq, "calls"))
			return NK_CALLS;
		if (KEYIS(s, eq, "cfni"))
			return NK_CFNI;
		break;
	case 'o':
		if (KEYIS(s, eq, "ob"))
			return NK_OB;
		break;
	case 'j':
		if (KEYIS(s, eq, "jump"))
			return NK_JUMP;
		if (KEYIS(s, eq, "jcnd"))
			return NK_JCND;
		if (KEYIS(s, eq, "jfi"))
			return NK_JFI;
		if (KEYIS(s, eq, "jfn"))
			return NK_JFN;
		break;
	case 'r':
		if (KEYIS(s, eq, "rec"))
			return NK_SKIP;
		break;
	case 'b':
	case 'l':
		if (KEYIS(s, eq, "bb") || KEYIS(s, eq, "ln"))
			return NK_SKIP;
		break;
	default:
		break;
	}
	return NK_NONE;
}

/* A "key=value" line: position names, calls and jumps. */
static void
parser_nameline(struct parser *ps, const char *s, const char *eq,
    const char *end)
{
	const char	*v = eq + 1;
	char		 ex[MSG_EXCERPT];
	enum namekey	 key;
	uint32_t	 slot, name;

	if (ps->call_pending || ps->jump_pending)
		parser_drop_pending(ps);
	/*
	 * An unknown key is reported and starts no part: a stray line
	 * (Xdebug's "==== NEW PROFILING FILE") before the first costs.
	 */
	if ((key = parser_namekey(s, eq)) == NK_NONE) {
		msg(MSG_UNKNOWN_LINE, ps->fname, ps->lineno, "%s",
		    msg_excerpt(ex, sizeof(ex), s, eq - s + 1));
		return;
	}
	parser_body_seen(ps);
	switch (key) {
	case NK_FN:
	case NK_FL:
	case NK_FI:
	case NK_CFN:
	case NK_CFI:
	case NK_COB:
	case NK_OB:
		name = parser_name(ps, parser_keyspace(key), v, end, &slot);
		parser_setname(ps, key, name, slot);
		break;
	case NK_FRFN:
		/*
		 * --mangle-names=no: the caller of the functions that
		 * follow (their context).  Its compressed id may be used
		 * later; the costs go to the plain names, summed over
		 * contexts.
		 */
		(void)parser_name(ps, IDS_FN, v, end, &slot);
		break;
	case NK_CALLS:
		parser_calls(ps, v, end);
		break;
	case NK_CFNI:
		/* CodSpeed's fork: the inlined function here. */
		(void)parser_name(ps, IDS_FN, v, end, &slot);
		break;
	case NK_JUMP:
	case NK_JCND:
		parser_jump(ps, key == NK_JCND, v, end);
		break;
	case NK_JFI:
		(void)parser_name(ps, IDS_FL, v, end, &slot);
		break;
	case NK_JFN:
		(void)parser_name(ps, IDS_FN, v, end, &slot);
		break;
	case NK_SKIP:
	case NK_NONE:
		/*
		 * --mangle-names=no: rec=, the recursion level that
		 * follows; --dump-bbs=yes: bb=, a basic block's address
		 * and counts, and ln=, the line of costs that carry it
		 * themselves.
		 */
		break;
	}
}

/* Return the space of the compressed ids of a key parser_setname() takes. */
static enum idspace
parser_keyspace(enum namekey key)
{
	return key == NK_FN || key == NK_CFN ? IDS_FN :
	    key == NK_OB || key == NK_COB ? IDS_OB : IDS_FL;
}

/*
 * Put name, of compressed slot (or NONE), where a name line of key
 * (fn= fl= fi= fe= cfn= cfi= cfl= ob= cob=) puts it; inlined, as the
 * fast path takes most of these lines.
 */
static __always_inline void
parser_setname(struct parser *ps, enum namekey key, uint32_t name,
    uint32_t slot)
{
	switch (key) {
	case NK_FN:
		ps->fn_name = name;
		ps->fi = ps->fl;
		ps->fn = parser_func(ps, ps->ob, ps->fl, name, slot);
		profile_touch(ps->p, ps->fn, ps->fl);
		profile_func_mark(ps->p, ps->fn);
		if (ps->xstack) {
			ps->stack = xgrow(ps->stack, &ps->stack_cap,
			    ps->nstack + 1, sizeof(*ps->stack));
			ps->stack[ps->nstack++] = ps->fn;
		}
		break;
	case NK_FL:
		ps->fl = ps->fi = name;
		break;
	case NK_FI:
		ps->fi = name;
		if (ps->fn != NONE)
			profile_touch(ps->p, ps->fn, ps->fi);
		break;
	case NK_CFN:
		ps->cfn = name;
		ps->cfn_slot = slot;
		break;
	case NK_CFI:
		ps->cfi = name;
		break;
	case NK_COB:
		ps->cob = name;
		break;
	case NK_OB:
		ps->ob = name;
		break;
	default:
		abort();	/* not a key that names */
	}
}

/* calls=COUNT TARGET: the next cost line is the call's inclusive cost. */
static void
parser_calls(struct parser *ps, const char *s, const char *end)
{
	enum num_result	r;
	uint64_t	count;

	if (!ps->have_events) {
		msg(MSG_DATA_BEFORE_EVENTS, ps->fname, ps->lineno, NULL);
		ps->fatal = 1;
		return;
	}
	s = num_skip_space(s, end);
	if ((r = num_parse_u64(&s, end, &count)) != NUM_OK) {
		msg(r == NUM_OVERFLOW ? MSG_NUMBER_TOO_LARGE : MSG_BAD_CALLS,
		    ps->fname, ps->lineno, NULL);
		ps->cob = ps->cfi = NONE;
		return;
	}
	/* The target position is checked but not kept. */
	s = num_skip_space(s, end);
	while (s < end) {
		enum subpos_kind	kind;
		uint64_t		v;

		if (num_parse_subpos(&s, end, &kind, &v) == NUM_NONE) {
			msg(MSG_BAD_CALLS, ps->fname, ps->lineno, NULL);
			ps->cob = ps->cfi = NONE;
			return;
		}
		s = num_skip_space(s, end);
	}
	ps->call_pending = 1;
	ps->call_count = count;
}

/* jump=COUNT TARGET or jcnd=EXE JUMPS TARGET: a position line follows. */
static void
parser_jump(struct parser *ps, int cond, const char *s, const char *end)
{
	uint64_t	n[2] = { 0, 0 };
	int		i;

	if (!ps->have_events) {
		msg(MSG_DATA_BEFORE_EVENTS, ps->fname, ps->lineno, NULL);
		ps->fatal = 1;
		return;
	}
	ps->jump_known = 0;
	if (cond) {
		/* The usual "TAKEN/EXE" of callgrind, short decimals. */
		const char	*d = num_skip_space(s, end), *q = d;

		while (q < end && (unsigned)(*q - '0') <= 9)
			q++;
		if (q > d && q < end && *q == '/' &&
		    num_parse_u64(&d, q, &n[0]) == NUM_OK &&
		    (q++, num_parse_u64(&q, end, &n[1]) == NUM_OK)) {
			parser_jump_target(ps, cond, n, q, end);
			return;
		}
	}
	for (i = 0; i < 1 + cond; i++) {
		s = num_skip_space(s, end);
		if (num_parse_u64(&s, end, &n[i]) != NUM_OK) {
			/* jcnd= is written "jcnd=TAKEN/EXE" by callgrind. */
			if (i == 0 && cond && s < end) {
				const char	*q = s;

				while (q < end && *q != '/')
					q++;
				if (q < end && num_parse_u64(&s, q, &n[0]) ==
				    NUM_OK && (s = q + 1, num_parse_u64(&s,
				    end, &n[1]) == NUM_OK))
					break;
			}
			msg(MSG_BAD_JUMP, ps->fname, ps->lineno, NULL);
			return;
		}
	}
	if (!cond)
		n[1] = n[0];
	parser_jump_target(ps, cond, n, s, end);
}

/*
 * The rest of a jump= or jcnd= line (n: taken, executed): the jump is
 * pending for the position line after it, and when machine code is
 * kept, its target, read from s without moving the positions.
 */
static void
parser_jump_target(struct parser *ps, int cond, const uint64_t *n,
    const char *s, const char *end)
{
	uint64_t	saved[PARSE_MAXPOS];
	int		set[PARSE_MAXPOS], all = ps->all_set;

	ps->jump_pending = 1;
	if (!ps->keep || ps->pos_instr < 0)
		return;
	memcpy(saved, ps->pos, sizeof(saved));
	memcpy(set, ps->pos_set, sizeof(set));
	if (parser_subpositions(ps, &s, end, ps->npos) == 0) {
		ps->jump_known = 1;
		ps->jump_cond = cond;
		ps->jump_taken = n[0];
		ps->jump_exe = n[1];
		ps->jump_target = ps->pos[ps->pos_instr];
	}
	memcpy(ps->pos, saved, sizeof(saved));
	memcpy(ps->pos_set, set, sizeof(set));
	ps->all_set = all;
}

/* A "key: value" line: header values, events, summary and totals. */
static void
parser_headerline(struct parser *ps, const char *s, const char *colon,
    const char *v, const char *end)
{
	struct part	*pt;
	uint64_t	 major;
	const char	*q;
	char		 ex[MSG_EXCERPT];

	if (ps->call_pending || ps->jump_pending)
		parser_drop_pending(ps);
	/* Keys that describe a part start a new one after cost data. */
	if (KEYIS(s, colon, "part") || KEYIS(s, colon, "pid") ||
	    KEYIS(s, colon, "thread") || KEYIS(s, colon, "cmd") ||
	    KEYIS(s, colon, "desc") || KEYIS(s, colon, "positions") ||
	    KEYIS(s, colon, "events")) {
		if (ps->body_seen) {
			parser_end_part(ps);
			profile_new_part(ps->p, ps->fname_id);
			ps->part = profile_nparts(ps->p) - 1;
			ps->body_seen = 0;
			memset(ps->pos, 0, sizeof(ps->pos));
			memset(ps->pos_set, 0, sizeof(ps->pos_set));
			ps->all_set = 0;
		}
	}
	pt = parser_part(ps);
	/* String values are kept verbatim, trailing blanks included. */
	if (KEYIS(s, colon, "events")) {
		parser_events(ps, v, end);
		pt = parser_part(ps);
		pt->events = ps->events_id;
	}
	else if (KEYIS(s, colon, "summary"))
		parser_sumline(ps, 0, v, end);
	else if (KEYIS(s, colon, "totals"))
		parser_sumline(ps, 1, v, end);
	else if (KEYIS(s, colon, "desc")) {
		profile_part_add_desc(ps->p, pt, profile_intern(ps->p, v,
		    end - v));
		if (end - v > 8 && memcmp(v, "Trigger:", 8) == 0)
			pt->trigger = profile_intern(ps->p, v + 8 + (v[8] == ' '),
			    end - v - 8 - (v[8] == ' '));
	}
	else if (KEYIS(s, colon, "cmd"))
		pt->cmd = profile_intern(ps->p, v, end - v);
	else if (KEYIS(s, colon, "pid"))
		pt->pid = profile_intern(ps->p, v, end - v);
	else if (KEYIS(s, colon, "thread"))
		pt->thread = profile_intern(ps->p, v, end - v);
	else if (KEYIS(s, colon, "part"))
		pt->part = profile_intern(ps->p, v, end - v);
	else if (KEYIS(s, colon, "creator")) {
		pt->creator = profile_intern(ps->p, v, end - v);
		/* valgrind's xtree files: a block per execution context. */
		ps->xstack = ps->want_stacks && end - v >= 6 &&
		    memcmp(v, "xtree-", 6) == 0;
		ps->fast = parser_fastok(ps);
	}
	else if (KEYIS(s, colon, "positions"))
		parser_positions(ps, v, end);
	else if (KEYIS(s, colon, "event"))
		parser_event_def(ps, v, end);
	else if (KEYIS(s, colon, "version")) {
		q = v;
		while (q < end && *q != '.' && !num_is_space(*q))
			q++;
		if (num_parse_u64(&v, q, &major) != NUM_OK) {
			msg(MSG_BAD_HEADER_VALUE, ps->fname, ps->lineno,
			    "version: %s", msg_excerpt(ex, sizeof(ex), v,
			    end - v));
		} else if (major >= 2) {
			msg(MSG_BAD_VERSION, ps->fname, ps->lineno,
			    "%llu; cg-annotate reads version 1",
			    (unsigned long long)major);
			ps->fatal = 1;
		}
	} else
		msg(MSG_UNKNOWN_LINE, ps->fname, ps->lineno, "%s",
		    msg_excerpt(ex, sizeof(ex), s, colon - s + 1));
}

/* events: NAME...; the first one fixes the profile's events. */
static void
parser_events(struct parser *ps, const char *s, const char *end)
{
	struct keytab	 seen;
	char		 ex[MSG_EXCERPT];
	uint32_t	*names = NULL;
	uint64_t	 key;
	size_t		 ncap = 0;
	unsigned	 n = 0, i;
	int		 created;
	const char	*w;
	int		 idx, differ = 0;

	keytab_init(&seen, 1);
	while ((s = num_skip_space(s, end)) < end) {
		for (w = s; s < end && !num_is_space(*s); s++)
			continue;
		if (n == PARSE_MAX_EVENTS) {
			/* Every cost vector has a count for each. */
			msg(MSG_TOO_MANY_EVENTS, ps->fname, ps->lineno,
			    "more than %u, the limit", PARSE_MAX_EVENTS);
			keytab_free(&seen);
			free(names);
			ps->fatal = 1;
			return;
		}
		names = xgrow(names, &ncap, (size_t)n + 1, sizeof(*names));
		names[n] = profile_intern(ps->p, w, s - w);
		key = names[n];
		(void)keytab_get(&seen, &key, &created);
		if (!created) {
			/* Dropping it would shift the counts after it. */
			msg(MSG_EVENTS_REPEATED, ps->fname, ps->lineno, "%s",
			    msg_excerpt(ex, sizeof(ex), w, s - w));
			keytab_free(&seen);
			free(names);
			ps->fatal = 1;
			return;
		}
		n++;
	}
	keytab_free(&seen);
	if (n == 0) {
		msg(MSG_EMPTY_EVENTS, ps->fname, ps->lineno, NULL);
		ps->fatal = 1;
		free(names);
		return;
	}
	if (profile_set_events(ps->p, names, n) == 0) {
		ps->colmap = xreallocarray(ps->colmap, n, sizeof(*ps->colmap));
		for (i = 0; i < n; i++)
			ps->colmap[i] = (int)i;
	} else {
		/* Map a later part's columns to the first part's events. */
		ps->colmap = xreallocarray(ps->colmap, n, sizeof(*ps->colmap));
		for (i = 0; i < n; i++) {
			idx = profile_event_index(ps->p,
			    profile_str(ps->p, names[i]));
			ps->colmap[i] = idx;
			if (idx < 0)
				differ = 1;
		}
		/* Another file's events are checked by its reader. */
		if ((differ || n != profile_nevents(ps->p)) &&
		    ps->have_events)
			msg(MSG_EVENTS_DIFFER, ps->fname, ps->lineno,
			    "counts of events not in the first are ignored");
	}
	/* The list as one string, for comparing inputs. */
	ps->events_id = profile_intern_list(ps->p, names, n);
	ps->ncols = n;
	if (!ps->have_events) {
		ps->have_events = 1;
		ps->nevents = profile_nevents(ps->p);
		ps->cost = xreallocarray(NULL, ps->nevents,
		    sizeof(*ps->cost));
	}
	ps->identity = n == ps->nevents;
	for (i = 0; i < n; i++)
		if (ps->colmap[i] != (int)i)
			ps->identity = 0;
	free(names);
	if (ps->early_summary != NULL) {
		parser_sumline(ps, 0, ps->early_summary,
		    ps->early_summary + strlen(ps->early_summary));
		free(ps->early_summary);
		ps->early_summary = NULL;
	}
}

/* event: NAME [= FORMULA] [: LONG NAME] */
static void
parser_event_def(struct parser *ps, const char *s, const char *end)
{
	struct event_def def;
	const char	*w, *f = NULL, *fend = NULL, *l = NULL;
	uint32_t	 name, formula = 0, longname = 0;

	for (w = s; s < end && !num_is_space(*s) && *s != '=' && *s != ':';
	    s++)
		continue;
	if (s == w) {
		msg(MSG_BAD_EVENT_DEF, ps->fname, ps->lineno, NULL);
		return;
	}
	name = profile_intern(ps->p, w, s - w);
	s = num_skip_space(s, end);
	if (s < end && *s == '=') {
		f = num_skip_space(s + 1, end);
		for (s = f; s < end && *s != ':'; s++)
			continue;
		for (fend = s; fend > f && num_is_space(fend[-1]); fend--)
			continue;
		if (fend == f) {
			msg(MSG_BAD_EVENT_DEF, ps->fname, ps->lineno, NULL);
			return;
		}
		formula = profile_intern(ps->p, f, fend - f);
	}
	if (s < end && *s == ':') {
		l = num_skip_space(s + 1, end);
		longname = profile_intern(ps->p, l, end - l);
		s = end;
	}
	if (s != end) {
		msg(MSG_BAD_EVENT_DEF, ps->fname, ps->lineno, NULL);
		return;
	}
	def.name = name;
	def.longname = longname;
	def.formula = formula;
	def.file = ps->fname_id;
	def.line = ps->lineno;
	profile_add_event_def(ps->p, &def);
}

/*
 * positions: [instr] [bb] [line].  With no word at all, cost lines hold
 * no position, only counts (the grammar allows it; CodSpeed writes it):
 * their self costs are those of line 0, "unidentified lines".
 */
static void
parser_positions(struct parser *ps, const char *s, const char *end)
{
	const char	*w;
	char		 ex[MSG_EXCERPT];
	unsigned	 n = 0, words = 0;
	int		 line = -1, instr = -1;

	while ((s = num_skip_space(s, end)) < end) {
		for (w = s; s < end && !num_is_space(*s); s++)
			continue;
		words++;
		/* instr, bb, line: at most one each, in this order. */
		if (KEYIS(w, s, "line") && line < 0 && n < PARSE_MAXPOS) {
			line = (int)n;
			n++;
		} else if ((KEYIS(w, s, "instr") || KEYIS(w, s, "addr") ||
		    KEYIS(w, s, "bb")) && line < 0 && n < PARSE_MAXPOS - 1) {
			if (!KEYIS(w, s, "bb") && instr < 0)
				instr = (int)n;
			n++;
		} else
			msg(MSG_BAD_POSITIONS, ps->fname, ps->lineno, "%s",
			    msg_excerpt(ex, sizeof(ex), w, s - w));
	}
	if (n == 0 && words > 0) {
		msg(MSG_BAD_POSITIONS, ps->fname, ps->lineno,
		    "no position, \"line\" used");
		n = 1;
		line = 0;
	}
	ps->npos = n;
	ps->pos_line = line;
	ps->pos_instr = instr;
	ps->all_set = 0;
	memset(ps->pos_set, 0, sizeof(ps->pos_set));
}

/* summary: or totals: COUNTS, kept per part. */
static void
parser_sumline(struct parser *ps, int totals, const char *s, const char *end)
{
	struct part	*pt = parser_part(ps);
	uint64_t	*c = ps->cost, v;
	unsigned	 col;
	int		 ev;

	if (!ps->have_events) {
		if (!totals) {
			free(ps->early_summary);
			ps->early_summary = xstrndup(s, end - s);
		}
		return;
	}
	cost_clear(c, profile_nevents(ps->p));
	for (col = 0; (s = num_skip_space(s, end)) < end; col++) {
		if (col == ps->ncols) {
			msg(MSG_TOO_MANY_COUNTS, ps->fname, ps->lineno,
			    "%u events", ps->ncols);
			break;
		}
		if (*s == '.' && (s + 1 == end || num_is_space(s[1]))) {
			s++;
			continue;
		}
		if (num_parse_u64(&s, end, &v) != NUM_OK || v == COST_NONE) {
			msg(MSG_BAD_SUMMARY, ps->fname, ps->lineno, NULL);
			return;
		}
		if ((ev = ps->colmap[col]) >= 0)
			c[ev] = v;
	}
	profile_part_set_costs(ps->p, totals ? &pt->totals : &pt->summary, c);
}
