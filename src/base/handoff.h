/*
 * handoff.h - records made in a second thread, taken in order by the
 * caller's.
 */
#ifndef CGA_HANDOFF_H
#define CGA_HANDOFF_H

#include <stddef.h>
#include <stdint.h>

struct handoff;

/* The maker, in the second thread: records by handoff_room(), _put(). */
typedef void	 handoff_make_fn(void *, struct handoff *);
/* The taker's work on n words of whole records; -1 to stop. */
typedef int	 handoff_fn(void *, const uint32_t *, size_t);

int		 handoff_run(handoff_make_fn *, void *, handoff_fn *, void *);
int		 handoff_turns(handoff_make_fn *, void **, size_t, handoff_fn *,
		    void *);
void		 handoff_deep(struct handoff *, size_t);
uint32_t	*handoff_room(struct handoff *, size_t);
void		 handoff_put(struct handoff *, size_t);
int		 handoff_block(struct handoff *);

#endif /* CGA_HANDOFF_H */
