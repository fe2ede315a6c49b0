/*
 * gate.h - limits for CI (--fail-above=EVENT:LIMIT[:FUNCTION-REGEX]):
 * on a single profile a count, on a difference a count or a percentage
 * of the old cost.
 */
#ifndef CGA_GATE_H
#define CGA_GATE_H

#include <stddef.h>
#include <stdint.h>

#include "base/num.h"

#define GATE_EXIT	3		/* the exit status when one fails */
#define GATE_VALUE_MAX	128		/* gate_value()'s text, with its NUL */

struct gate {
	char		*spec;		/* as given */
	char		*event;
	int		 percent;	/* LIMIT ended in % */
	double		 limit_pct;
	uint64_t	 limit;
	int		 has_re;
	struct rematch	*re;		/* on function names */
};

/* One thing a gate looked at: the totals, or one function. */
struct gate_result {
	const struct gate *gate;
	const char	*what;		/* NULL for the totals, else a label */
	int		 diff;		/* value is a change */
	struct snum	 value;		/* cost, or change: exact */
	uint64_t	 base;		/* old cost, in a difference */
	int		 failed;
};

int	gate_parse(struct gate *, const char *, char *, size_t);
void	gate_free(struct gate *);
int	gate_check(const struct gate *, const char *, const char *, int,
	    struct snum, uint64_t, struct gate_result *);
const char *gate_value(const struct gate_result *, char *, size_t);
void	gate_report(const struct gate_result *);

#endif /* CGA_GATE_H */
