/*
 * parse_ahead.h - what reading a file in chunks, some ahead, needs of
 * the parser (ahead.c drives these; parse_ahead.c has them): a parser
 * that starts in the middle of a file, stops before header lines, and
 * is taken over by the parser that has read up to it.
 */
#ifndef CGA_PARSE_AHEAD_H
#define CGA_PARSE_AHEAD_H

#include <stdint.h>

struct fileids;
struct parser;
struct profile;

/* How many compressed ids a parser holds (see parser_reserve()). */
struct parser_size {
	uint32_t	 ids[3];	/* per name space: ob, fl, fn */
	uint32_t	 hashed[3];	/*   of them in the hash table */
	uint64_t	 direct[3];	/*   the direct array's length */
};

void		 parser_seek(struct parser *, uint64_t);
int		 parser_stopped(const struct parser *);
uint64_t	 parser_resume(const struct parser *);
int		 parser_spec(struct parser *);
int		 parser_adopt(struct parser *, const struct parser *,
		    unsigned);
void		 parser_discard(struct parser *);
const struct profile *parser_profile(const struct parser *);
int		 parser_stacks(const struct parser *);
void		 parser_size(const struct parser *, struct parser_size *);
void		 parser_reserve(struct parser *, const struct parser_size *);
struct fileids	*fileids_new(void);
void		 fileids_free(struct fileids *);
void		 fileids_put(struct fileids *, uint64_t, int);
int		 fileids_get(struct fileids *, uint64_t);
void		 parser_share_fileids(struct parser *, struct fileids *);
int		 parser_sums(const struct parser *);

#endif /* CGA_PARSE_AHEAD_H */
