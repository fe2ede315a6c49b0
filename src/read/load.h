/*
 * load.h - reading one profile file, or standard input, into the model.
 */
#ifndef CGA_LOAD_H
#define CGA_LOAD_H

struct parse_opts;
struct profile;

int	load_file(struct profile *, const char *, const struct parse_opts *);
int	load_fd(struct profile *, int, const char *,
	    const struct parse_opts *);

#endif /* CGA_LOAD_H */
