/*
 * parse_cost.c - the careful path for cost lines, and the lines that
 * announce a call or a jump (calls=, jump=, jcnd=): every form the
 * format allows, with a message for each malformed one.
 */
#include "base/compat.h"

#include <string.h>

#include "base/cost.h"
#include "base/msg.h"
#include "base/num.h"
#include "model/instrs.h"
#include "model/stacks.h"
#include "read/parser.h"

static void	parser_jump_target(struct parser *, int, const uint64_t *,
		    const char *, const char *);
static int	parser_subpositions(struct parser *, const char **,
		    const char *, unsigned);

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
 * The cost line after calls=, its counts in ps->cost: the inclusive cost
 * of the call from line of the current function.
 */
void
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
		if ((ps->keep || ps->sites) && ps->pos_instr >= 0)
			instrs_add_call(profile_instrs_mut(ps->p), ps->fn,
			    ps->pos[ps->pos_instr], ps->fi, line, callee,
			    ps->call_count, ps->cost);
	}
	ps->cob = ps->cfi = NONE;
}

/*
 * A cost line without its positions (pprof's for an unknown line): its
 * counts at position 0 in every column, "unidentified lines".
 */
void
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
void
parser_costline(struct parser *ps, const char *s, const char *end,
    int placed)
{
	const char	*p;
	enum num_result	 r;
	uint64_t	 v, line;
	unsigned	 col, nev;
	uint32_t	 name;
	int		 ev;

	if (parser_not_profile(ps))
		return;
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
	if ((ps->keep || ps->sites) && ps->pos_instr >= 0)
		instrs_add(profile_instrs_mut(ps->p), ps->fn,
		    ps->pos[ps->pos_instr], ps->fi, line, ps->cost, nev);
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

/* calls=COUNT TARGET: the next cost line is the call's inclusive cost. */
void
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
void
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
