/*
 * derive.h - analysis: derived events, each a sum of recorded events
 * with integer factors (KCachegrind's "inherited" event types): from a
 * profile's event: lines, from --event=NAME=FORMULA, or built in
 * (KCachegrind's L1m, L2m, LLm, Bm and CEst).
 */
#ifndef CGA_DERIVE_H
#define CGA_DERIVE_H

#include <stddef.h>
#include <stdint.h>

struct profile;
struct derive;

/* A formula given on the command line: --event=NAME=FORMULA. */
struct derive_opt {
	char		*spec;		/* as given */
	char		*name;
	char		*formula;
};

/* What derive_eval() found. */
#define DERIVE_OVERFLOW	1		/* a value above 2^64 - 2, kept there */
#define DERIVE_NEGATIVE	2		/* a value below 0, kept at 0 */

int		 derive_opt_parse(struct derive_opt *, const char *, char *,
		    size_t);
void		 derive_opt_free(struct derive_opt *);
int		 derive_formula_check(const char *, char *, size_t);
struct derive	*derive_new(const struct profile *,
		    const struct derive_opt *, size_t);
int		 derive_add(struct derive *, const char *);
unsigned	 derive_count(const struct derive *);
const char	*derive_name(const struct derive *, unsigned);
const char	*derive_formula(const struct derive *, unsigned);
const char	*derive_longname(const struct derive *, unsigned);
int		 derive_eval(const struct derive *, const uint64_t *,
		    uint64_t *, unsigned *);
void		 derive_free(struct derive *);

#endif /* CGA_DERIVE_H */
