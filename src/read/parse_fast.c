/*
 * parse_fast.c - the line loop and its fast path: the bulk of every
 * file (cost lines, calls=/jump= lines, name lines by compressed id)
 * read in a few instructions a byte, and the one "last line" the fast
 * path adds to; any line it does not take goes to parser_line(), the
 * careful path, with nothing changed.
 */
#include "base/compat.h"

#include <assert.h>
#include <string.h>

#include "base/cost.h"
#include "base/msg.h"
#include "model/instrs.h"
#include "read/parser.h"

static void	parser_flush(struct parser *);
static uint64_t	parser_room(const struct parser *);
static const char *parser_fastline(struct parser *, const char *,
		    const char *);
static __always_inline void parser_fastadd(struct parser *, uint64_t);
static const char *parser_fastcall(struct parser *, const char *,
		    const char *);
static const char *parser_fastref(struct parser *, const char *);
static int	parser_fastnum(const char **, uint64_t *);
static int	parser_fastpos(const char **, uint64_t *);

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
void
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
int
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
		parser_kept_line(ps);
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
	ps->text = data;
	ps->text_end = end;
	ps->text_off = base;
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
			ps->text = ps->text_end = NULL;
			return 0;
		}
		s = nl + 1;
	}
	ps->text = ps->text_end = NULL;
	if (!ps->fatal && s < end) {
		ps->buf_off = base + (uint64_t)(s - data);
		parser_keep(ps, s, end - s);
	}
	return ps->fatal ? -1 : 0;
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
		if (ps->keep && ps->jump_known && ps->pos_instr >= 0)
			instrs_add_jump(profile_instrs_mut(ps->p), ps->fn,
			    ps->jump_cond, pos[ps->pos_instr],
			    ps->jump_target, ps->jump_exe, ps->jump_taken);
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
	line = ps->pos_line >= 0 ? pos[ps->pos_line] : 0;
	if (ps->call_pending) {
		/* A call's cost is read whole; a self cost, its i counts. */
		for (; i < ps->nevents; i++)
			cost[i] = COST_NONE;
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
 * Add the counts in ps->cost (ps->given of them, the rest not recorded)
 * to line of the current function and file and to the part's sum, for
 * the fast path.
 */
static __always_inline void
parser_fastadd(struct parser *ps, uint64_t line)
{
	uint64_t	*cost = ps->cost, v;
	unsigned	 i;
	int		 over;

	/* The calls' sites kept: each function's range of addresses. */
	if (ps->sites && ps->pos_instr >= 0)
		instrs_add_range(profile_instrs_mut(ps->p), ps->fn,
		    ps->pos[ps->pos_instr], ps->pos[ps->pos_instr]);
	if (ps->hit && (ps->hit_line == line || ps->hit_one) && !ps->keep) {
		if (ps->nevents == 1) {
			/* Hold the count back while the sums have room. */
			if (ps->given == 0 || (v = cost[0]) == COST_NONE)
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
		/* A line new to the pair takes every count: the rest unset. */
		for (i = ps->given; i < ps->nevents; i++)
			cost[i] = COST_NONE;
		parser_forget(ps);
		over = profile_add_self(ps->p, ps->fn, ps->fi, line, cost,
		    ps->given);
		ps->hit = ps->nevents > 0;
		ps->hit_line = line;
		ps->hit_one = profile_last_one(ps->p);
	}
	if (over)
		msg(MSG_COST_OVERFLOW, ps->fname, ps->lineno, NULL);
	/* Machine code kept: every line's counts, one at a time. */
	if (ps->keep && ps->pos_instr >= 0)
		instrs_add(profile_instrs_mut(ps->p), ps->fn,
		    ps->pos[ps->pos_instr], ps->fi, line, cost, ps->given);
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
	    !ps->have_events || ps->xstack)
		return NULL;
	if (end - s > 6 && memcmp(s, "calls=", 6) == 0)
		call = 1;
	else if (end - s > 5 && !ps->keep && (memcmp(s, "jump=", 5) == 0 ||
	    memcmp(s, "jcnd=", 5) == 0))
		call = 0;	/* kept, a jump's target is read by parser_jump() */
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
