/*
 * ahead.h - reading a large profile file in two threads (ahead.c).
 */
#ifndef CGA_AHEAD_H
#define CGA_AHEAD_H

struct parser;
struct parse_opts;

int	ahead_read(struct parser *, int, const char *,
	    const struct parse_opts *);

#endif /* CGA_AHEAD_H */
