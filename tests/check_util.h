/* check_util.h - helpers for the unit tests: load a profile from text and
 * look things up in it by name. */
#ifndef CHECK_UTIL_H
#define CHECK_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include <check.h>

/*
 * Seconds a test case may take: ample for the slowest (cut, 67 s under
 * ASan+UBSan with the other core busy) on a machine several times
 * slower or busier.  No test depends on the machine's speed.
 */
#define CHECK_TIMEOUT	1200

struct profile;

TCase		*check_tcase(void);
uint64_t	 check_rnd(uint64_t *);
char		*check_file_bytes(const char *, size_t *);

struct profile	*load(const char *, int *);
int		 func_find(const struct profile *, const char *, const char *,
		    const char *);
uint64_t	 line_count(const struct profile *, uint32_t, unsigned);
uint64_t	 self_cost(const struct profile *, const char *, const char *,
		    uint64_t, unsigned);
uint64_t	 func_self(const struct profile *, const char *, unsigned);
uint64_t	 call_cost(const struct profile *, const char *, const char *,
		    unsigned, uint64_t *);
size_t		 each_profile(const char *, void (*)(const char *, void *),
		    void *);

#endif
