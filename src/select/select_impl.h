/*
 * select_impl.h - what the files of the selection (select.c, selcalls.c,
 * seldiff.c) share beside select.h, which comes first (these inline
 * functions use struct selection, as libmdoc.h uses mdoc.h's types).
 */
#ifndef CGA_SELECT_IMPL_H
#define CGA_SELECT_IMPL_H

#include <stdint.h>

#include "analysis/gate.h"
#include "base/cost.h"
#include "base/num.h"
#include "base/xmalloc.h"

struct profile;

void		select_diff(struct selection *, const struct profile *);

/* Return the percentage of the total that cumulative cost sum is. */
static inline double
select_prop(uint64_t sum, uint64_t total)
{
	double	prop;

	prop = sum <= UINT64_MAX / 100 ? (double)(sum * 100) :
	    (double)sum * 100.0;
	if (total != COST_NONE && total > 0)
		prop /= (double)total;
	return prop;
}

/*
 * Return nonzero if the sums sum[k] of the sort events have reached
 * their thresholds' shares of total, every one (the first short of it
 * ends the test).
 */
static inline int
select_reached(const struct selection *sel, const uint64_t *sum,
    const uint64_t *total)
{
	size_t	k;

	for (k = 0; k < sel->nsort; k++)
		if (select_prop(sum[k], total[sel->sort[k]]) < sel->thr[k])
			return 0;
	return 1;
}

/* Keep the result of a gate that applied. */
static inline void
select_gate_add(struct selection *sel, const struct gate_result *res)
{
	sel->gres = xgrow(sel->gres, &sel->gres_cap, sel->ngres + 1,
	    sizeof(*sel->gres));
	sel->gres[sel->ngres++] = *res;
	sel->gates_failed |= res->failed;
}

/* A count as the value a limit is checked on ("never recorded": 0). */
static inline struct snum
select_count(uint64_t v)
{
	struct snum	s = { v == COST_NONE ? 0 : v, 0 };

	return s;
}

#endif /* CGA_SELECT_IMPL_H */
