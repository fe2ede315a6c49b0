/*
 * cells.h - callgrind_annotate's count columns: thousands separators,
 * percentages, "." for never recorded, widths fitted to a set of costs.
 */
#ifndef CGA_CELLS_H
#define CGA_CELLS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/tvis.h"

struct profile;
struct snum;
struct selection;

struct cells {
	FILE			*out;
	const struct profile	*p;
	unsigned		 nev;
	const int		*show;		/* event indices shown */
	size_t			 nshow;
	int			 show_percs;
	const uint64_t		*total;		/* percentage base */
	enum tvis_mode		 visible;	/* names made visible on a
						   terminal (tvis.c) */
};

void		 cells_init(struct cells *, FILE *, const struct selection *);
size_t		 cells_fmt_perc(char *, size_t, double);
unsigned	*cells_widths_new(const struct cells *);
void		 cells_widths_add(const struct cells *, unsigned *,
		    const uint64_t *);
void		 cells_events(const struct cells *, const unsigned *);
void		 cells_cost(const struct cells *, const uint64_t *,
		    const unsigned *);
void		 cells_name(const struct cells *, const char *);
void		 cells_namelen(const struct cells *, const char *, size_t);
void		 cells_label(const struct cells *, uint32_t, uint32_t);
void		 cells_swidths_add(const struct cells *, unsigned *,
		    const struct snum *, const unsigned char *);
void		 cells_scost(const struct cells *, const struct snum *,
		    const unsigned char *, const unsigned *);

#endif /* CGA_CELLS_H */
