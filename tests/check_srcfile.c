/*
 * check_srcfile.c - a source file is read only if it is the file found:
 * a name swapped between finding and reading (another file, a symlink to
 * a device) reads as empty, and never blocks.
 */
#include "base/compat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/srcfile.h"
#include "check_suites.h"
#include "check_util.h"

/* Read a found file whole into out (size bytes); return its length. */
static size_t
slurp(const struct srcfile *sf, char *out, size_t size)
{
	struct srcreader	*r = srcfile_reader(sf);
	FILE			*f = fmemopen(out, size, "w");
	size_t			 n;

	ck_assert_ptr_nonnull(f);
	while (srcfile_more(r))
		srcfile_line(r, f);
	srcfile_reader_close(r);
	n = (size_t)ftell(f);
	fclose(f);
	return n;
}

START_TEST(test_swapped)
{
	char		 dir[] = "/tmp/cga-srcfile-XXXXXX", a[64], b[64];
	char		 buf[256];
	struct srcfile	 sf;
	FILE		*f;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(a, sizeof(a), "%s/a.c", dir);
	snprintf(b, sizeof(b), "%s/b.c", dir);
	f = fopen(a, "w");
	fputs("int a;\n", f);
	fclose(f);
	f = fopen(b, "w");
	fputs("int b;\n", f);
	fclose(f);

	/* Found, then read: the same file. */
	ck_assert_int_eq(srcfile_find(a, NULL, 0, &sf), SRCFILE_OK);
	ck_assert_uint_eq(slurp(&sf, buf, sizeof(buf)), 7);
	ck_assert(memcmp(buf, "int a;\n", 7) == 0);
	/* Another file put in its place: nothing of it is read. */
	ck_assert_int_eq(rename(b, a), 0);
	ck_assert_uint_eq(slurp(&sf, buf, sizeof(buf)), 0);
	/* A symlink to a device in its place: nothing, and no wait. */
	ck_assert_int_eq(unlink(a), 0);
	ck_assert_int_eq(symlink("/dev/zero", a), 0);
	ck_assert_uint_eq(slurp(&sf, buf, sizeof(buf)), 0);
	srcfile_free(&sf);
	/* Found as it is now: not a regular file. */
	ck_assert_int_eq(srcfile_find(a, NULL, 0, &sf), SRCFILE_NOT_REGULAR);
	srcfile_free(&sf);
	unlink(a);
	rmdir(dir);
}
END_TEST

/*
 * Names looked for once each, SRCFIND_LOOKS (65,536) of them at most: a
 * name asked after those may be found (its lines are kept), unlooked;
 * one asked before keeps its answer.
 */
START_TEST(test_find_bound)
{
	char		 dir[] = "/tmp/cga-srcfind-XXXXXX", name[96], a[64];
	struct srcfind	*sf = srcfind_new(NULL, 0);
	FILE		*f;
	unsigned	 i;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(a, sizeof(a), "%s/a.c", dir);
	ck_assert_ptr_nonnull(f = fopen(a, "w"));
	fclose(f);
	ck_assert_int_ne(srcfind_may_find(sf, a), 0);
	snprintf(name, sizeof(name), "%s/missing.c", dir);
	ck_assert_int_eq(srcfind_may_find(sf, name), 0);
	for (i = 2; i < 65536; i++) {
		snprintf(name, sizeof(name), "%s/no%u.c", dir, i);
		ck_assert_int_eq(srcfind_may_find(sf, name), 0);
	}
	/* Past the bound: not looked for. */
	snprintf(name, sizeof(name), "%s/no%u.c", dir, i);
	ck_assert_int_ne(srcfind_may_find(sf, name), 0);
	ck_assert_int_ne(srcfind_may_find(sf, name), 0);
	/* Asked before: as it was. */
	snprintf(name, sizeof(name), "%s/missing.c", dir);
	ck_assert_int_eq(srcfind_may_find(sf, name), 0);
	ck_assert_int_ne(srcfind_may_find(sf, a), 0);
	srcfind_free(sf);
	unlink(a);
	rmdir(dir);
}
END_TEST

Suite *
make_srcfile_suite(void)
{
	Suite	*s = suite_create("srcfile");
	TCase	*tc = check_tcase();

	tcase_add_test(tc, test_swapped);
	tcase_add_test(tc, test_find_bound);
	suite_add_tcase(s, tc);
	return s;
}
