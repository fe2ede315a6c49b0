/*
 * header.h - the header block that the text reports share: the profile's
 * descriptions, target, parts, events and thresholds.
 */
#ifndef CGA_HEADER_H
#define CGA_HEADER_H

#define FANCY	"--------------------------------------------------------------------------------\n"

struct cells;
struct part;
struct selection;

void	header_print(const struct cells *, const struct selection *);
void	header_tail(const struct cells *, const struct selection *);
void	header_part_name(const struct cells *, const struct part *);

#endif /* CGA_HEADER_H */
