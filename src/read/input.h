/*
 * input.h - reading a profile's bytes in large blocks from a file or
 * standard input, gzip and zstd data decompressed on the fly.
 */
#ifndef CGA_INPUT_H
#define CGA_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct input;

struct input	*input_open(const char *);
struct input	*input_fdopen(int, const char *);
ssize_t		 input_read(struct input *, char *, size_t);
int		 input_compressed(const struct input *);
int		 input_plain_fd(const struct input *);
int		 input_from_start(const struct input *);
uint64_t	 input_tell(const struct input *);
int		 input_fd(const struct input *);
void		 input_defer(struct input *, int);
void		 input_report(struct input *);
void		 input_close(struct input *);

#endif /* CGA_INPUT_H */
