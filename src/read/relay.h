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

struct relay	*relay_start(struct input *, size_t);
ssize_t		 relay_next(struct relay *, const char **, uint64_t *);
void		 relay_stop(struct relay *);

#endif /* CGA_RELAY_H */
