/*
 * xmalloc.h - allocators that never return NULL.
 */
#ifndef CGA_XMALLOC_H
#define CGA_XMALLOC_H

#include <stddef.h>

void	*xmalloc(size_t);
void	*xmalloc_huge(size_t);
void	 xmalloc_room(size_t);
void	*xcalloc(size_t, size_t);
void	*xreallocarray(void *, size_t, size_t);
char	*xstrdup(const char *);
char	*xstrndup(const char *, size_t);
char	*xjoin(const char *, size_t, char, const char *, size_t);
void	*xgrow(void *, size_t *, size_t, size_t);
void	 xfill(void *, int, size_t);
void	 xahead(void *, size_t, size_t, size_t);
void	 xahead_at(void *, size_t, size_t, size_t);

#endif /* CGA_XMALLOC_H */
