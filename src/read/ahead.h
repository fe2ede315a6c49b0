/*
 * ahead.h - reading a large profile in two threads (ahead.c).
 */
#ifndef CGA_AHEAD_H
#define CGA_AHEAD_H

#include <stdint.h>

struct input;
struct parser;
struct parse_opts;

int	ahead_read(struct parser *, int, const char *,
	    const struct parse_opts *);
int	ahead_stream(struct parser *, struct input *, const char *,
	    uint64_t, const struct parse_opts *);

#endif /* CGA_AHEAD_H */
