/*
 * relay.h - reading an input in a second thread, block by block, while
 * the caller parses the blocks before.
 */
#ifndef CGA_RELAY_H
#define CGA_RELAY_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct input;
struct relay;

#define RELAY_CUT_BLOCKS 8	/* a cut relay's blocks not released,
				   at most */

/* A block of a cut relay (relay_cut()). */
struct relay_chunk {
	const char	*buf;		/* its bytes, */
	ssize_t		 n;		/*   how many: 0 at the end, -1 error */
	uint64_t	 start;		/* the offset of the first */
	uint64_t	 tell;		/* the input's position after it */
	int		 seam;		/* it starts where one was cut */
};

struct relay	*relay_start(struct input *, size_t);
ssize_t		 relay_next(struct relay *, const char **, uint64_t *);
void		 relay_stop(struct relay *);
struct relay	*relay_cut(struct input *, size_t,
		    size_t (*)(const char *, size_t));
uint64_t	 relay_wait(struct relay *, uint64_t);
uint64_t	 relay_filled(struct relay *);
int		 relay_pump(struct relay *);
ssize_t		 relay_block(struct relay *, uint64_t, struct relay_chunk *);
void		 relay_release(struct relay *, uint64_t);
void		 relay_quit(struct relay *);

#endif /* CGA_RELAY_H */
