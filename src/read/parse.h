/*
 * parse.h - the Callgrind/Cachegrind profile parser: bytes in, profile
 * model out.  It reads no file (load.c feeds it) and knows nothing of
 * reports.
 */
#ifndef CGA_PARSE_H
#define CGA_PARSE_H

#include <stddef.h>
#include <stdint.h>

struct profile;
struct strsrc;

/*
 * What a profile may claim: events in an events: line (every cost
 * vector has a count for each), and bytes in a line (a name is held and
 * interned whole).  Beyond either, the file is refused.
 */
#define PARSE_MAX_EVENTS	256u
#define PARSE_MAX_LINE		(64u << 20)

struct parse_opts {
	const char	*strip_prefix;	/* removed from the front of file
					   names, e.g. "$PWD/"; may be NULL */
	const char	*part;		/* only parts with this part: number */
	const char	*thread;	/* only parts of this thread: number
					   (no thread: line counts as 1) */
	int		 stacks;	/* keep the exact stacks of xtree
					   files (stacks.h); one thread */
	int		(*lines)(void *, const char *);
					/* NULL: every line kept; else nonzero
					   for a file (by name) whose lines
					   are kept apart, a function's lines
					   of the others summed into line 0 */
	void		*lines_arg;
	int		 drop_calls;	/* with lines: nonzero if the calls
					   made from lines summed are not
					   kept either (no view reads them) */
	int		 instrs;	/* PARSE_INSTRS_ALL: keep each
					   instruction's costs, jumps and
					   calls (instrs.h); _SITES: the
					   calls and each function's range
					   of addresses alone */
};

#define PARSE_INSTRS_ALL	1
#define PARSE_INSTRS_SITES	2

struct parser;

int		 parse_buffer(struct profile *, const char *, const char *,
		    size_t, const struct parse_opts *);

struct parser	*parser_create(struct profile *, const char *,
		    const struct parse_opts *);
int		 parser_feed(struct parser *, const char *, size_t);
void		 parser_names_in(struct parser *, struct strsrc *);
struct strsrc	*parser_names_file(const struct parser *);
int		 parser_finish(struct parser *);
void		 parser_fail(struct parser *);

#endif /* CGA_PARSE_H */
