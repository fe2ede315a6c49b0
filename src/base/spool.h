/*
 * spool.h - a stream kept in memory in large blocks until it is copied
 * to another (spool.c).
 */
#ifndef CGA_SPOOL_H
#define CGA_SPOOL_H

#include <stdio.h>

struct spool;

struct spool	*spool_open(void);
FILE		*spool_stream(const struct spool *);
int		 spool_copy(struct spool *, FILE *);
void		 spool_free(struct spool *);

#endif /* CGA_SPOOL_H */
