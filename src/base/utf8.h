/*
 * utf8.h - telling valid UTF-8 from other bytes.
 */
#ifndef CGA_UTF8_H
#define CGA_UTF8_H

#include <stddef.h>

size_t	utf8_len(const unsigned char *);

#endif /* CGA_UTF8_H */
