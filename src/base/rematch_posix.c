/*
 * rematch_posix.c - the C library's judgement of an expression: its own
 * file, since <regex.h> and TRE's header define the same names.
 */
#include "base/compat.h"

#include <regex.h>

#include "base/rematch.h"

/*
 * Check that pattern is an extended regular expression the C library
 * compiles; return 0, or -1 with its message in err (errsize bytes).
 */
int
rematch_posix_check(const char *pattern, int subs, char *err,
    size_t errsize)
{
	regex_t	re;
	int	rc;

	if ((rc = regcomp(&re, pattern, REG_EXTENDED | (subs ? 0 :
	    REG_NOSUB))) != 0) {
		regerror(rc, &re, err, errsize);
		return -1;
	}
	regfree(&re);
	return 0;
}
