/*
 * strtab.h - interned byte strings: each distinct string is stored once
 * and named by a dense 32-bit id; id 0 is the empty string.  Long
 * strings are kept compressed, or left in the file they were read from;
 * strtab_get() may be called from several threads at once (not with the
 * mutators).
 */
#ifndef CGA_STRTAB_H
#define CGA_STRTAB_H

#include <stddef.h>
#include <stdint.h>

struct strtab;
struct strsrc;

struct strtab	*strtab_create(void);
void		 strtab_free(struct strtab *);
void		 strtab_clear(struct strtab *);
void		 strtab_follow(struct strtab *, const struct strtab *);
uint32_t	 strtab_intern(struct strtab *, const char *, size_t);
uint32_t	 strtab_intern_at(struct strtab *, const char *, size_t,
		    struct strsrc *, uint64_t);
struct strsrc	*strtab_source(int, const char *);
void		 strtab_source_drop(struct strsrc *);
uint32_t	 strtab_blank(struct strtab *);
uint32_t	 strtab_copy(struct strtab *, const struct strtab *, uint32_t);
void		 strtab_prefetch(const struct strtab *, uint32_t);
void		 strtab_copy_prefetch(const struct strtab *,
		    const struct strtab *, uint32_t);
uint32_t	 strtab_find(const struct strtab *, const char *, size_t);
const char	*strtab_get(const struct strtab *, uint32_t);
const char	*strtab_read(const struct strtab *, uint32_t, char **,
		    size_t *);
size_t		 strtab_len(const struct strtab *, uint32_t);
uint32_t	 strtab_count(const struct strtab *);
uint32_t	 strtab_npacked(const struct strtab *);
uint32_t	 strtab_nfar(const struct strtab *);

#endif /* CGA_STRTAB_H */
