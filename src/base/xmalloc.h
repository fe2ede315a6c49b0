/*
 * xmalloc.h - allocators that never return NULL.
 */
#ifndef CGA_XMALLOC_H
#define CGA_XMALLOC_H

#include <stddef.h>

void	*xmalloc(size_t);
void	*xmalloc_huge(size_t);
void	 xmalloc_room(size_t);
void	 xmalloc_room_more(size_t, size_t);
void	*xcalloc(size_t, size_t);
void	*xreallocarray(void *, size_t, size_t);
char	*xstrdup(const char *);
char	*xstrndup(const char *, size_t);
char	*xjoin(const char *, size_t, char, const char *, size_t);
void	*xgrow_slow(void *, size_t *, size_t, size_t);
void	 xfill(void *, int, size_t);
void	 xahead(void *, size_t, size_t, size_t);
void	 xahead_at(void *, size_t, size_t, size_t);

/*
 * Make the array p of *cap elements of size bytes hold at least need
 * (xgrow_slow(): geometrically); inline, for the loops that add one
 * element at a time and mostly have room.
 */
static inline void *
xgrow(void *p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap && p != NULL)
		return p;
	return xgrow_slow(p, cap, need, size);
}

/*
 * xgrow(), the elements it adds (up to the new *cap) filled with the
 * byte c (xfill()): tables indexed by id whose entries start alike.
 */
static inline void *
xgrow_fill(void *p, size_t *cap, size_t need, size_t size, int c)
{
	size_t	was = *cap;

	if (need <= *cap && p != NULL)
		return p;
	p = xgrow_slow(p, cap, need, size);
	xfill((char *)p + was * size, c, (*cap - was) * size);
	return p;
}

#endif /* CGA_XMALLOC_H */
