/*
 * select_impl.h - what the files of the selection (select.c, selcalls.c,
 * seldiff.c) share beside select.h.
 */
#ifndef CGA_SELECT_IMPL_H
#define CGA_SELECT_IMPL_H

#include <stdint.h>

#include "base/num.h"

struct gate_result;
struct profile;
struct selection;

int		select_reached(const struct selection *, const uint64_t *,
		    const uint64_t *);
void		select_gate_add(struct selection *,
		    const struct gate_result *);
struct snum	select_count(uint64_t);
void		select_diff(struct selection *, const struct profile *);

#endif /* CGA_SELECT_IMPL_H */
