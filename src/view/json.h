/*
 * json.h - a small streaming JSON writer: objects, arrays, strings
 * escaped for any bytes, 64-bit integers exactly.
 */
#ifndef CGA_JSON_H
#define CGA_JSON_H

#include <stdint.h>
#include <stdio.h>

#include "base/num.h"

#define JSON_DEPTH	32

struct json {
	FILE	*out;
	int	 depth;
	int	 count[JSON_DEPTH];	/* items written at each depth */
	int	 keyed;			/* a key was just written */
	int	 flat;			/* the depth of the array open on one
					   line, or 0 */
};

void	json_init(struct json *, FILE *);
void	json_open(struct json *, int);
void	json_open_flat(struct json *);
void	json_close(struct json *, int);
void	json_key(struct json *, const char *);
void	json_str(struct json *, const char *);
void	json_u64(struct json *, uint64_t);
void	json_numbers(struct json *, const char *, size_t);
void	json_snum(struct json *, struct snum);
void	json_bool(struct json *, int);
void	json_null(struct json *);
void	json_end(struct json *);

#endif /* CGA_JSON_H */
