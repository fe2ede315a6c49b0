/* check_util.c - helpers for the unit tests. */
#include "base/compat.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "base/cost.h"
#include "base/xmalloc.h"
#include "check_util.h"
#include "model/profile.h"
#include "read/parse.h"

/* Return the next number of the deterministic generator *s (xorshift64*). */
uint64_t
check_rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dULL;
}

/*
 * Return the bytes of the file path, *n of them (maybe none), followed by
 * a NUL; fail the test if it cannot be read whole.
 */
char *
check_file_bytes(const char *path, size_t *n)
{
	char	*buf;
	FILE	*f;
	long	 len;

	ck_assert_ptr_nonnull(f = fopen(path, "rb"));
	ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
	ck_assert_int_ge(len = ftell(f), 0);
	rewind(f);
	buf = xmalloc((size_t)len + 1);
	ck_assert_uint_eq(fread(buf, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	buf[len] = '\0';
	*n = (size_t)len;
	return buf;
}

/* Parse text as a profile named "t.out"; *rc gets parse_buffer's result. */
struct profile *
load(const char *text, int *rc)
{
	struct profile	*p = profile_create();
	int		 r;

	r = parse_buffer(p, "t.out", text, strlen(text), NULL);
	if (rc != NULL)
		*rc = r;
	return p;
}

/* Return the id of function (obj, file, name), or -1. */
int
func_find(const struct profile *p, const char *obj, const char *file,
    const char *name)
{
	uint32_t	i, o, f, n;

	for (i = 0; i < profile_nfuncs(p); i++) {
		profile_func(p, i, &o, &f, &n);
		if (strcmp(profile_str(p, o), obj) == 0 &&
		    strcmp(profile_str(p, f), file) == 0 &&
		    strcmp(profile_str(p, n), name) == 0)
			return (int)i;
	}
	return -1;
}

/* Return count ev of entry i of p. */
uint64_t
line_count(const struct profile *p, uint32_t i, unsigned ev)
{
	uint64_t	*c, v;

	c = xreallocarray(NULL, profile_nevents(p), sizeof(*c));
	profile_line_cost(p, i, c);
	v = c[ev];
	free(c);
	return v;
}

/* Return the self cost of event ev of function name at (file, line). */
uint64_t
self_cost(const struct profile *p, const char *name, const char *file,
    uint64_t line, unsigned ev)
{
	uint32_t	i, fn, f, o, ff, n;
	uint64_t	l, sum = COST_NONE;

	for (i = 0; i < profile_nlines(p); i++) {
		profile_line(p, i, &fn, &f, &l);
		profile_func(p, fn, &o, &ff, &n);
		if (l == line && strcmp(profile_str(p, n), name) == 0 &&
		    strcmp(profile_str(p, f), file) == 0)
			cost_add1(&sum, line_count(p, i, ev));
	}
	return sum;
}

/* Return the self cost of event ev of every function called name. */
uint64_t
func_self(const struct profile *p, const char *name, unsigned ev)
{
	uint32_t	i, fn, f, o, ff, n;
	uint64_t	l, sum = COST_NONE;

	for (i = 0; i < profile_nlines(p); i++) {
		profile_line(p, i, &fn, &f, &l);
		profile_func(p, fn, &o, &ff, &n);
		if (strcmp(profile_str(p, n), name) == 0)
			cost_add1(&sum, line_count(p, i, ev));
	}
	return sum;
}

/* Return the call cost of event ev from caller to callee; count in *n. */
uint64_t
call_cost(const struct profile *p, const char *caller, const char *callee,
    unsigned ev, uint64_t *count)
{
	uint32_t	i, a, b, f, o, ff, na, nb;
	uint64_t	l, sum = COST_NONE;

	*count = 0;
	for (i = 0; i < profile_narcs(p); i++) {
		profile_arc(p, i, &a, &b, &f, &l);
		profile_func(p, a, &o, &ff, &na);
		profile_func(p, b, &o, &ff, &nb);
		if (strcmp(profile_str(p, na), caller) == 0 &&
		    strcmp(profile_str(p, nb), callee) == 0) {
			cost_add(&sum, profile_arc_cost(p, i) + ev, 1);
			*count += profile_arc_count(p, i);
		}
	}
	return sum;
}

/*
 * Call fn with the path of every file of testdata/dir whose name ends in
 * ".out", and arg; return how many there were.
 */
size_t
each_profile(const char *dir, void (*fn)(const char *, void *), void *arg)
{
	char		 path[1024];
	struct dirent	*de;
	DIR		*d;
	size_t		 n, nfiles = 0;

	snprintf(path, sizeof(path), "%s/%s", CGA_TESTDATA, dir);
	ck_assert_ptr_nonnull(d = opendir(path));
	while ((de = readdir(d)) != NULL) {
		n = strlen(de->d_name);
		if (n < 4 || strcmp(de->d_name + n - 4, ".out") != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s/%s", CGA_TESTDATA, dir,
		    de->d_name);
		fn(path, arg);
		nfiles++;
	}
	closedir(d);
	return nfiles;
}

/* Make the test case of a suite, with the suites' timeout. */
TCase *
check_tcase(void)
{
	TCase	*tc = tcase_create("core");

	tcase_set_timeout(tc, CHECK_TIMEOUT);
	return tc;
}
