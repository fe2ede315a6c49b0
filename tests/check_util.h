/* check_util.h - helpers for the unit tests: load a profile from text and
 * look things up in it by name. */
#ifndef CHECK_UTIL_H
#define CHECK_UTIL_H

#include <stddef.h>
#include <stdint.h>

struct profile;

struct profile	*load(const char *, int *);
int		 func_find(const struct profile *, const char *, const char *,
		    const char *);
uint64_t	 self_cost(const struct profile *, const char *, const char *,
		    uint64_t, unsigned);
uint64_t	 func_self(const struct profile *, const char *, unsigned);
uint64_t	 call_cost(const struct profile *, const char *, const char *,
		    unsigned, uint64_t *);
size_t		 each_profile(const char *, void (*)(const char *, void *),
		    void *);

#endif
