/*
 * parser.h - the parser's state, shared by the files of the parser only
 * (parse.c, parse_fast.c, parse_cost.c, parse_names.c, parse_header.c,
 * parse_ahead.c); what others may call is in parse.h and parse_ahead.h.
 */
#ifndef CGA_PARSER_H
#define CGA_PARSER_H

#include <stdint.h>
#include <stdlib.h>

#include "base/msg.h"
#include "base/xmalloc.h"
#include "model/profile.h"

#define PARSE_MAXPOS	3		/* instr, bb, line */
#define NONE		UINT32_MAX

/* The three name spaces of compressed names. */
enum idspace {
	IDS_OB,			/* ob= cob= */
	IDS_FL,			/* fl= fi= fe= cfi= cfl= jfi= */
	IDS_FN,			/* fn= cfn= jfn= */
	IDS__MAX
};

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
	uint32_t	*fn_ob;		/* slot -> the last resolution: fn */
	uint32_t	*fn_fl;		/*   ids, (ob, file) and function; fl */
	uint32_t	*fn_id;		/*   ids, function (in fn_ob), pair */
};

/* What struct fileids says of a compressed file id. */
#define FILEIDS_UNKNOWN	0
#define FILEIDS_KEPT	1
#define FILEIDS_SUMMED	2

/* A placeholder (see parser_placeholder()): its string, kind and id. */
struct phref {
	uint64_t	 id;
	uint32_t	 str;
	char		 kind;
};

/* A message about a line before the first profile line, held back. */
struct heldmsg {
	enum msgid	 id;		/* MSG_UNKNOWN_LINE or MSG_NUL_BYTE */
	uint64_t	 line;
	char		 ex[MSG_EXCERPT];
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
	int		 known;		/* a profile line was read: until
					   then, what is said of unknown lines
					   is held, and a cost line means the
					   file is not a profile */
	struct heldmsg	*held;
	size_t		 nheld;
	size_t		 nheld_id[2];	/* per id (unknown, NUL) */

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
	int		 hit_one;	/*   or any line: its file's lines
					   are summed into one */
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
	int		(*lines)(void *, const char *);	/* parse_opts' */
	void		*lines_arg;
	struct fileids	*fileids;	/* the file's compressed file ids'
					   lines kept, shared (or NULL) */
	int		 xstack;	/* keeping them: an xtree file */
	uint32_t	*stack;		/* the block's frames so far */
	size_t		 nstack, stack_cap;

	/* machine code (parse_opts' instrs): kept, and the pending jump */
	int		 keep;
	int		 sites;		/* or only the calls' sites */
	int		 jump_cond, jump_known;
	uint64_t	 jump_target, jump_exe, jump_taken;

	struct idmap	 idmap[IDS__MAX];

	/* line buffer */
	char		*buf;
	size_t		 len, size;
	uint64_t	 off;		/* file offset of the next byte fed */
	uint64_t	 buf_off;	/*   and of buf's first */

	/*
	 * The file fed (NULL if not a file read at any offset), where long
	 * names are left (strtab_intern_at()), and the bytes being read:
	 * text to text_end, at offset text_off of it.
	 */
	struct strsrc	*names_file;
	const char	*text, *text_end;
	uint64_t	 text_off;

	/* a chunk read ahead (see parser_spec()) */
	int		 spec;
	int		 stop;		/* stopped before a header line */
	uint64_t	 stop_off;	/* at this file offset */
	uint64_t	 spec_line0;	/* lineno where the chunk began */
	uint32_t	 ph_cfn;	/* the cfn= of before, a placeholder */
	struct phref	*ph;		/* the placeholders made, */
	size_t		 nph, ph_cap;
	uint32_t	*ph_at;		/*   by string id: index + 1, */
	size_t		 ph_at_cap;	/*   0 for a string not one */
};

/* Compare a key (s to eq) with a literal. */
#define KEYIS(s, eq, lit) \
	((size_t)((eq) - (s)) == sizeof(lit) - 1 && \
	    memcmp((s), (lit), sizeof(lit) - 1) == 0)

/* parse.c */
void		 parser_line(struct parser *, const char *, size_t);
void		 parser_keep(struct parser *, const char *, size_t);
void		 parser_kept_line(struct parser *);
void		 parser_nameline(struct parser *, const char *, const char *,
		    const char *);
void		 parser_body_seen(struct parser *);
void		 parser_drop_pending(struct parser *);
void		 parser_unknown(struct parser *, enum msgid, const char *,
		    size_t);
void		 parser_known(struct parser *);
int		 parser_not_profile(struct parser *);
struct part	*parser_part(struct parser *);
int		 parser_minus(const struct profile *);

/* parse_ahead.c */
uint32_t	 parser_placeholder(struct parser *, char, uint64_t);
int		 parser_is_placeholder(const struct parser *, uint32_t);
int		 parser_placeholder_lines(const struct parser *, uint32_t);

/* parse_cost.c */
void		 parser_costline(struct parser *, const char *, const char *,
		    int);
void		 parser_costline_unplaced(struct parser *, const char *,
		    const char *);
void		 parser_call_cost(struct parser *, uint64_t);
void		 parser_calls(struct parser *, const char *, const char *);
void		 parser_jump(struct parser *, int, const char *, const char *);

/* parse_fast.c */
int		 parser_feed_lines(struct parser *, const char *, size_t);
void		 parser_forget(struct parser *);

/* parse_header.c */
void		 parser_headerline(struct parser *, const char *, const char *,
		    const char *, const char *);
void		 parser_part_sum(struct parser *);
void		 parser_end_part(struct parser *);

/* parse_names.c */
uint32_t	 parser_name(struct parser *, enum idspace, const char *,
		    const char *, uint32_t *);
void		 parser_touch(struct parser *, uint32_t, uint32_t);
uint32_t	 parser_func(struct parser *, uint32_t, uint32_t, uint32_t,
		    uint32_t);
uint32_t	 idmap_add(struct idmap *, uint64_t, int *);
void		 idmap_direct_grow(struct idmap *, uint64_t);
void		 idmap_resize(struct idmap *, size_t);
void		 idmap_rehash(struct idmap *, uint32_t);
enum namekey	 parser_namekey(const char *, const char *);

/*
 * Return nonzero if the fast path may take cost lines in the state ps
 * is in.  What it tests changes only on the lines the fast path leaves
 * to parser_line() and in parser_spec() and parser_adopt(), which keep
 * ps->fast up to date.
 */
static inline int
parser_fastok(const struct parser *ps)
{
	return ps->identity && ps->all_set && ps->fn != NONE &&
	    !ps->skipping && ps->part_sum != NULL && ps->npos > 0 &&
	    !ps->xstack;
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
static inline uint32_t
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

/* Return the space of the compressed ids of a key parser_setname() takes. */
static inline enum idspace
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
			parser_touch(ps, name, slot);
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

#endif /* CGA_PARSER_H */
