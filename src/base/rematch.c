/*
 * rematch.c - regular expressions by TRE: POSIX extended syntax, matched
 * in time linear in the text for every expression without a back
 * reference.  An expression is first compiled by the C library's
 * regcomp() (rematch_posix.c), whose messages and syntax the options
 * have always had; TRE then compiles the same expression to match it.
 */
#include "base/compat.h"

#include <stdlib.h>
#include <string.h>

#include <tre/tre.h>

#include "base/rematch.h"
#include "base/xmalloc.h"

struct rematch {
	regex_t	re;
};

/*
 * Compile the extended regular expression pattern, for its
 * subexpressions too if subs is set; return it, or NULL with the reason
 * in err (errsize bytes).
 */
struct rematch *
rematch_new(const char *pattern, int subs, char *err, size_t errsize)
{
	struct rematch	*m;
	int		 rc;

	if (rematch_posix_check(pattern, subs, err, errsize) == -1)
		return NULL;
	m = xcalloc(1, sizeof(*m));
	if ((rc = tre_regcomp(&m->re, pattern, REG_EXTENDED |
	    (subs ? 0 : REG_NOSUB))) != 0) {
		tre_regerror(rc, &m->re, err, errsize);
		free(m);
		return NULL;
	}
	return m;
}

/* Return nonzero if m matches somewhere in the string s. */
int
rematch_test(const struct rematch *m, const char *s)
{
	return tre_regexec(&m->re, s, 0, NULL, 0) == 0;
}

/*
 * Find the first match of m in s (made with subs), its subexpressions
 * in sp[0..REMATCH_NSUB - 1]; with notbol, s does not start a line.
 * Return 0 on a match, -1 if none.
 */
int
rematch_find(const struct rematch *m, const char *s, struct rematch_span *sp,
    int notbol)
{
	regmatch_t	g[REMATCH_NSUB];
	size_t		i;

	if (tre_regexec(&m->re, s, REMATCH_NSUB, g, notbol ? REG_NOTBOL :
	    0) != 0)
		return -1;
	for (i = 0; i < REMATCH_NSUB; i++) {
		sp[i].so = g[i].rm_so;
		sp[i].eo = g[i].rm_eo;
	}
	return 0;
}

/* Free an expression. */
void
rematch_free(struct rematch *m)
{
	if (m == NULL)
		return;
	tre_regfree(&m->re);
	free(m);
}
