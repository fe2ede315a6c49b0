/* check_names.c - interning, id tables and name compression. */
#include "base/compat.h"

#include <sys/wait.h>

#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/cost.h"
#include "base/hash.h"
#include "base/hooks.h"
#include "base/keytab.h"
#include "base/msg.h"
#include "base/strtab.h"
#include "base/xmalloc.h"
#include "check_suites.h"
#include "check_util.h"
#include "model/profile.h"
#include "read/parse.h"

START_TEST(test_strtab)
{
	struct strtab	*st = strtab_create();
	uint32_t	 a, b, i;
	char		 buf[32];

	ck_assert_uint_eq(strtab_intern(st, "", 0), 0);
	a = strtab_intern(st, "main", 4);
	b = strtab_intern(st, "mainx", 4);
	ck_assert_uint_eq(a, b);
	ck_assert_str_eq(strtab_get(st, a), "main");
	ck_assert_uint_ne(strtab_intern(st, "ma\0n", 4), a);
	ck_assert_uint_eq(strtab_len(st, strtab_intern(st, "ma\0n", 4)), 4);
	/* Many strings: ids stay dense and lookups stay right over growth. */
	for (i = 0; i < 100000; i++) {
		snprintf(buf, sizeof(buf), "f%u", i);
		ck_assert_uint_eq(strtab_intern(st, buf, strlen(buf)), i + 3);
	}
	for (i = 0; i < 100000; i += 997) {
		snprintf(buf, sizeof(buf), "f%u", i);
		ck_assert_uint_eq(strtab_intern(st, buf, strlen(buf)), i + 3);
		ck_assert_str_eq(strtab_get(st, i + 3), buf);
	}
	ck_assert_uint_eq(strtab_count(st), 100003);
	strtab_free(st);
}
END_TEST

/*
 * Make in buf the name of function i of a C++ program: a template of
 * some hundreds of bytes to a few thousand, with a NUL byte in some;
 * return its length.
 */
static size_t
long_name(char *buf, size_t size, uint32_t i)
{
	size_t		 n;
	uint32_t	 k, a, b, nargs = 4 + i % 37;

	n = (size_t)snprintf(buf, size, "ns%u::detail::Impl%u<", i % 13, i);
	for (k = 0; k < nargs; k++) {
		a = (i + k) % 11;
		b = i * 7 + k;
		if ((i + k) % 3 == 0)
			n += (size_t)snprintf(buf + n, size - n, "std::vector<"
			    "ns%u::Node%u const*, std::allocator<ns%u::Node%u "
			    "const*> >, ", a, b, a, b);
		else if ((i + k) % 3 == 1)
			n += (size_t)snprintf(buf + n, size - n, "std::map<std"
			    "::__cxx11::basic_string<char, std::char_traits<"
			    "char>, std::allocator<char> >, ns%u::Value%u>, ",
			    a, b);
		else
			n += (size_t)snprintf(buf + n, size - n, "std::function"
			    "<ns%u::Entry%u (int, long)>, ", a, b);
	}
	n += (size_t)snprintf(buf + n, size - n, ">::run()");
	if (i % 5 == 0)
		buf[n / 2] = '\0';
	return n;
}

/*
 * Write names 0 to n - 1 (long_name()) to a new file, each after a line
 * of its number, name 0 again at the end; give the offset of each in
 * off (n + 1 of them), and return the file's name, to be unlinked.
 */
static char *
far_file(uint32_t n, uint64_t *off)
{
	static char	 buf[8192];
	char		*path, head[32];
	uint64_t	 at = 0;
	uint32_t	 i;
	size_t		 len;
	int		 fd, k;

	path = xstrdup("/tmp/check_names.XXXXXX");
	ck_assert_int_ne(fd = mkstemp(path), -1);
	for (i = 0; i <= n; i++) {
		k = snprintf(head, sizeof(head), "%u\n", i);
		ck_assert_int_eq(write(fd, head, (size_t)k), k);
		at += (uint64_t)k;
		len = long_name(buf, sizeof(buf), i < n ? i : 0);
		ck_assert_int_eq(write(fd, buf, len), (ssize_t)len);
		off[i] = at;
		at += len;
	}
	close(fd);
	return path;
}

/*
 * Long strings left in the file they were read from: the same ids,
 * bytes and lengths as kept; found again from their bytes (or the same
 * string at another place of the file); short ones kept; copied into
 * another table still in the file, and those copied back found without
 * reading; a table emptied and used again; the tables reading after the
 * caller let go of the file; and a table naming 255 files, its next
 * string kept.
 */
START_TEST(test_strtab_far)
{
	struct strtab	*st = strtab_create(), *other = strtab_create();
	struct strsrc	*f, *many[256];
	static char	 buf[8192];
	char		*path, *scratch = NULL;
	uint64_t	 off[301];
	uint32_t	 i, id;
	size_t		 len, cap = 0;
	int		 fd;

	path = far_file(300, off);
	ck_assert_int_ne(fd = open(path, O_RDONLY), -1);
	ck_assert_ptr_nonnull(f = strtab_source(fd, path));
	close(fd);
	for (i = 0; i < 300; i++) {
		len = long_name(buf, sizeof(buf), i);
		ck_assert_uint_eq(strtab_intern_at(st, buf, len, f, off[i]),
		    i + 1);
	}
	ck_assert_uint_eq(strtab_nfar(st), 300);
	ck_assert_uint_eq(strtab_npacked(st), 0);
	/* A short string is kept, wherever it is. */
	id = strtab_intern_at(st, "12\n", 3, f, 0);
	ck_assert_uint_eq(id, 301);
	ck_assert_uint_eq(strtab_nfar(st), 300);
	strtab_source_drop(f);
	for (i = 0; i < 300; i++) {
		len = long_name(buf, sizeof(buf), i);
		ck_assert_uint_eq(strtab_len(st, i + 1), len);
		ck_assert_mem_eq(strtab_read(st, i + 1, &scratch, &cap), buf,
		    len);
		ck_assert_mem_eq(strtab_get(st, i + 1), buf, len);
		ck_assert_int_eq(strtab_get(st, i + 1)[len], '\0');
		ck_assert_uint_eq(strtab_find(st, buf, len), i + 1);
		ck_assert_uint_eq(strtab_intern(st, buf, len), i + 1);
	}
	/* Name 0 again, at the end of the file: the same string. */
	len = long_name(buf, sizeof(buf), 0);
	ck_assert_uint_eq(strtab_intern_at(st, buf, len, f, off[300]), 1);
	ck_assert_uint_eq(strtab_count(st), 302);
	/* Copied, and back: still in the file. */
	for (i = 1; i <= 300; i++)
		ck_assert_uint_eq(strtab_copy(other, st, i), i);
	ck_assert_uint_eq(strtab_nfar(other), 300);
	strtab_clear(st);
	ck_assert_uint_eq(strtab_nfar(st), 0);
	for (i = 0; i < 300; i++) {
		len = long_name(buf, sizeof(buf), i);
		ck_assert_mem_eq(strtab_get(other, i + 1), buf, len);
		ck_assert_uint_eq(strtab_copy(st, other, 300 - i), i + 1);
		ck_assert_uint_eq(strtab_copy(other, st, i + 1), 300 - i);
	}
	ck_assert_uint_eq(strtab_nfar(st), 300);
	ck_assert_uint_eq(strtab_count(other), 301);
	strtab_free(st);
	for (i = 0; i < 300; i += 7) {
		len = long_name(buf, sizeof(buf), i);
		ck_assert_mem_eq(strtab_get(other, i + 1), buf, len);
	}
	strtab_free(other);

	/* 256 files, a string in each: the last is kept. */
	st = strtab_create();
	ck_assert_int_ne(fd = open(path, O_RDONLY), -1);
	for (i = 0; i < 256; i++) {
		ck_assert_ptr_nonnull(many[i] = strtab_source(fd, path));
		len = long_name(buf, sizeof(buf), i);
		ck_assert_uint_eq(strtab_intern_at(st, buf, len, many[i],
		    off[i]), i + 1);
		strtab_source_drop(many[i]);
	}
	close(fd);
	ck_assert_uint_eq(strtab_nfar(st), 255);
	for (i = 0; i < 256; i++) {
		len = long_name(buf, sizeof(buf), i);
		ck_assert_mem_eq(strtab_get(st, i + 1), buf, len);
	}
	strtab_free(st);
	unlink(path);
	free(path);
	free(scratch);
}
END_TEST

/*
 * Read string id of st in a child process after change() changed the
 * file at path; return what it printed on stderr, and fail unless it
 * exited with status 1.
 */
static char *
far_child(struct strtab *st, uint32_t id, const char *path,
    void (*change)(const char *))
{
	static char	 said[512];
	pid_t		 pid;
	size_t		 got = 0;
	ssize_t		 n;
	int		 pfd[2], status;

	change(path);
	ck_assert_int_eq(pipe(pfd), 0);
	fflush(stderr);
	ck_assert_int_ne(pid = fork(), -1);
	if (pid == 0) {
		dup2(pfd[1], STDERR_FILENO);
		(void)strtab_get(st, id);
		_exit(0);
	}
	close(pfd[1]);
	/* Read to the end: err(3) writes its parts one by one. */
	while (got < sizeof(said) - 1 && (n = read(pfd[0], said + got,
	    sizeof(said) - 1 - got)) > 0)
		got += (size_t)n;
	said[got] = '\0';
	close(pfd[0]);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 1);
	return said;
}

/* Change a byte of the first name of the file at path. */
static void
far_overwrite(const char *path)
{
	int	fd;

	ck_assert_int_ne(fd = open(path, O_WRONLY), -1);
	ck_assert_int_eq(pwrite(fd, "#", 1, 40), 1);
	close(fd);
}

/* Cut the file at path within its first name. */
static void
far_truncate(const char *path)
{
	ck_assert_int_eq(truncate(path, 100), 0);
}

/*
 * A file changed after its strings were read, overwritten or cut short:
 * reading one is an error that names the file, never wrong bytes.
 */
START_TEST(test_strtab_far_changed)
{
	static void	(*const changes[])(const char *) = {
		far_overwrite, far_truncate
	};
	static char	 buf[8192];
	struct strtab	*st;
	struct strsrc	*f;
	char		*path, *said;
	uint64_t	 off[3];
	size_t		 len, k;
	int		 fd;

	for (k = 0; k < 2; k++) {
		path = far_file(2, off);
		ck_assert_int_ne(fd = open(path, O_RDONLY), -1);
		ck_assert_ptr_nonnull(f = strtab_source(fd, path));
		close(fd);
		st = strtab_create();
		len = long_name(buf, sizeof(buf), 0);
		ck_assert_uint_eq(strtab_intern_at(st, buf, len, f, off[0]),
		    1);
		strtab_source_drop(f);
		said = far_child(st, 1, path, changes[k]);
		ck_assert_ptr_nonnull(strstr(said, path));
		ck_assert_ptr_nonnull(strstr(said, "changed after it was "
		    "read"));
		strtab_free(st);
		unlink(path);
		free(path);
	}
}
END_TEST

/* Two threads asking for every string of a table at once. */
struct getter {
	const struct strtab	*st;
	uint32_t		 n;
	const char		*got[1000];
};

static void *
get_all(void *arg)
{
	struct getter	*g = arg;
	uint32_t	 i;

	for (i = 1; i < g->n; i++)
		g->got[i] = strtab_get(g->st, i);
	return NULL;
}

/*
 * Long strings kept compressed, once enough of them make a dictionary:
 * the same ids, bytes and lengths as kept as they are; copies between
 * tables of one dictionary, of two, and between a compressed string
 * and the same kept as is (before the dictionary); a table emptied and
 * used again; a string that does not compress; decompressed copies
 * made by two threads at once, one kept.
 */
START_TEST(test_strtab_packed)
{
	struct strtab	*lead = strtab_create(), *fol = strtab_create();
	struct strtab	*own = strtab_create();
	struct getter	 g[2];
	pthread_t	 thr[2];
	static char	 buf[8192];
	char		 rnd[600];
	uint32_t	 i, id, rid;
	size_t		 len;

	/* From 64 KB held, as a big profile's from 4 MB. */
	hooks.pack_after = 64 * 1024;
	for (i = 0; i < 400; i++) {
		len = long_name(buf, sizeof(buf), i);
		ck_assert_uint_ge(len, 256);
		ck_assert_uint_eq(strtab_intern(lead, buf, len), i + 1);
	}
	/* The first 64 KB made the dictionary; the rest are compressed. */
	ck_assert_uint_gt(strtab_npacked(lead), 300);
	ck_assert_uint_lt(strtab_npacked(lead), 400);
	for (i = 0; i < 400; i++) {
		len = long_name(buf, sizeof(buf), i);
		ck_assert_uint_eq(strtab_intern(lead, buf, len), i + 1);
		ck_assert_uint_eq(strtab_find(lead, buf, len), i + 1);
		ck_assert_uint_eq(strtab_len(lead, i + 1), len);
		ck_assert_mem_eq(strtab_get(lead, i + 1), buf, len);
		ck_assert_int_eq(strtab_get(lead, i + 1)[len], '\0');
	}
	/* Bytes that do not compress are kept as they are. */
	for (i = 0; i < sizeof(rnd); i++)
		rnd[i] = (char)(hash_word(i) >> 17);
	rid = strtab_intern(lead, rnd, sizeof(rnd));
	ck_assert_uint_eq(rid, 401);
	ck_assert_mem_eq(strtab_get(lead, rid), rnd, sizeof(rnd));

	/*
	 * A follower, twice (emptied in between): names 300-699, half
	 * known to the leader, copied in compressed as they are.
	 */
	for (int round = 0; round < 2; round++) {
		strtab_follow(fol, lead);
		for (i = 300; i < 700; i++) {
			len = long_name(buf, sizeof(buf), i);
			ck_assert_uint_eq(strtab_intern(fol, buf, len),
			    i - 299);
		}
		ck_assert_uint_eq(strtab_npacked(fol), 400);
		for (i = 300; i < 700; i++) {
			len = long_name(buf, sizeof(buf), i);
			id = strtab_copy(lead, fol, i - 299);
			ck_assert_uint_eq(id, i < 400 ? i + 1 : i + 2);
			ck_assert_mem_eq(strtab_get(lead, id), buf, len);
			ck_assert_mem_eq(strtab_get(fol, i - 299), buf, len);
		}
		strtab_clear(fol);
		ck_assert_uint_eq(strtab_count(fol), 1);
		ck_assert_uint_eq(strtab_npacked(fol), 0);
	}
	/*
	 * A table with its own dictionary (names 1000 on, then 0-99): its
	 * strings are decompressed and compressed again; names 0-99 were
	 * the leader's first, kept as they are.
	 */
	for (i = 1000; i < 1400; i++) {
		len = long_name(buf, sizeof(buf), i);
		(void)strtab_intern(own, buf, len);
	}
	for (i = 0; i < 100; i++) {
		len = long_name(buf, sizeof(buf), i);
		ck_assert_uint_eq(strtab_intern(own, buf, len), i + 401);
	}
	ck_assert_uint_gt(strtab_npacked(own), 300);
	for (i = 0; i < 500; i++) {
		len = long_name(buf, sizeof(buf), i < 400 ? 1000 + i : i - 400);
		id = strtab_copy(lead, own, i + 1);
		ck_assert_uint_eq(id, i < 400 ? 702 + i : i - 399);
		ck_assert_mem_eq(strtab_get(lead, id), buf, len);
	}
	ck_assert_uint_eq(strtab_count(lead), 1102);
	/* Copies made by two threads at once: the same bytes. */
	for (i = 0; i < 2; i++) {
		g[i].st = own;
		g[i].n = 501;
		ck_assert_int_eq(pthread_create(&thr[i], NULL, get_all, &g[i]),
		    0);
	}
	for (i = 0; i < 2; i++)
		pthread_join(thr[i], NULL);
	for (i = 1; i < 501; i++)
		ck_assert_ptr_eq(g[0].got[i], g[1].got[i]);
	strtab_free(lead);
	strtab_free(fol);
	strtab_free(own);
	hooks.pack_after = 0;
}
END_TEST

/*
 * A dictionary made once the table has held more long strings than its
 * content: those after it are samples, its statistics made from them
 * (ZDICT_finalizeDictionary()); every string kept compressed reads back
 * as it was given, in this table and in one that follows it.
 */
START_TEST(test_strtab_stats)
{
	struct strtab	*lead = strtab_create(), *fol = strtab_create();
	static char	 buf[8192];
	uint32_t	 i, packed;
	size_t		 len, nstats = 0;

	hooks.pack_after = 1024 * 1024;
	hooks.nstats = &nstats;
	for (i = 0; i < 1500; i++) {
		len = long_name(buf, sizeof(buf), i);
		ck_assert_uint_eq(strtab_intern(lead, buf, len), i + 1);
	}
	ck_assert_uint_eq(nstats, 1);
	ck_assert_uint_gt(strtab_npacked(lead), 300);
	strtab_follow(fol, lead);
	for (i = 0; i < 1500; i++) {
		len = long_name(buf, sizeof(buf), 1500 + i);
		ck_assert_uint_eq(strtab_intern(fol, buf, len), i + 1);
	}
	ck_assert_uint_eq(strtab_npacked(fol), 1500);
	for (i = 0; i < 3000; i++) {
		len = long_name(buf, sizeof(buf), i);
		if (i < 1500) {
			ck_assert_uint_eq(strtab_find(lead, buf, len), i + 1);
			ck_assert_mem_eq(strtab_get(lead, i + 1), buf, len);
			ck_assert_uint_eq(strtab_len(lead, i + 1), len);
		} else {
			ck_assert_uint_eq(strtab_find(fol, buf, len), i - 1499);
			ck_assert_mem_eq(strtab_get(fol, i - 1499), buf, len);
		}
	}
	/* Copied into the leader compressed as they are. */
	packed = strtab_npacked(lead);
	for (i = 1; i <= 1500; i++)
		ck_assert_uint_eq(strtab_copy(lead, fol, i), 1500 + i);
	ck_assert_uint_eq(strtab_npacked(lead), packed + 1500);
	len = long_name(buf, sizeof(buf), 2999);
	ck_assert_mem_eq(strtab_get(lead, 3000), buf, len);
	strtab_free(lead);
	strtab_free(fol);
	hooks.pack_after = 0;
	hooks.nstats = NULL;
}
END_TEST

/*
 * Copying strings between tables, as a chunk read ahead is adopted:
 * new ones get the next ids, known ones theirs, bytes and lengths kept;
 * loading ahead reads only what is there (ASan).
 */
START_TEST(test_strtab_copy)
{
	struct strtab	*src = strtab_create(), *dst = strtab_create();
	char		 buf[32];
	uint32_t	 i, id;

	for (i = 0; i < 5000; i++) {
		snprintf(buf, sizeof(buf), "name%u", i);
		ck_assert_uint_eq(strtab_intern(src, buf, strlen(buf)), i + 1);
		if (i % 2 == 0)
			(void)strtab_intern(dst, buf, strlen(buf));
	}
	ck_assert_uint_eq(strtab_count(dst), 2501);
	for (i = 1; i <= 5000; i++) {
		if (i + 8 <= 5000)
			strtab_copy_prefetch(dst, src, i + 8);
		id = strtab_copy(dst, src, i);
		ck_assert_str_eq(strtab_get(dst, id), strtab_get(src, i));
		ck_assert_uint_eq(strtab_len(dst, id), strtab_len(src, i));
		/* Even names were there first; odd ones come in order. */
		ck_assert_uint_eq(id, (i - 1) % 2 == 0 ? (i - 1) / 2 + 1 :
		    2501 + (i - 1) / 2);
	}
	ck_assert_uint_eq(strtab_count(dst), 5001);
	ck_assert_uint_eq(strtab_copy(dst, src, 0), 0);
	strtab_free(src);
	strtab_free(dst);
}
END_TEST

/*
 * Blanks: new ids with no bytes, read as the empty string, never found
 * nor given again, among interned strings whose lookups they leave as
 * they were, over the table's growth and after it is emptied.
 */
START_TEST(test_strtab_blank)
{
	struct strtab	*st = strtab_create();
	uint32_t	 i, id, b[3000];
	char		 buf[32];
	int		 round;

	for (round = 0; round < 2; round++) {
		for (i = 0; i < 3000; i++) {
			snprintf(buf, sizeof(buf), "name%u", i);
			ck_assert_uint_eq(strtab_intern(st, buf, strlen(buf)),
			    1 + 2 * i);
			b[i] = strtab_blank(st);
			ck_assert_uint_eq(b[i], 2 + 2 * i);
			ck_assert_str_eq(strtab_get(st, b[i]), "");
			ck_assert_uint_eq(strtab_len(st, b[i]), 0);
		}
		ck_assert_uint_eq(strtab_count(st), 6001);
		/* The empty string is still id 0, found and given. */
		ck_assert_uint_eq(strtab_find(st, "", 0), 0);
		ck_assert_uint_eq(strtab_intern(st, "", 0), 0);
		for (i = 0; i < 3000; i++) {
			snprintf(buf, sizeof(buf), "name%u", i);
			id = strtab_find(st, buf, strlen(buf));
			ck_assert_uint_eq(id, 1 + 2 * i);
			ck_assert_str_eq(strtab_get(st, b[i]), "");
		}
		ck_assert_uint_eq(strtab_count(st), 6001);
		strtab_clear(st);
		ck_assert_uint_eq(strtab_count(st), 1);
	}
	strtab_free(st);
}
END_TEST

START_TEST(test_keytab)
{
	struct keytab	kt;
	uint64_t	k[3];
	uint32_t	i;
	int		created;

	keytab_init(&kt, 3);
	for (i = 0; i < 50000; i++) {
		k[0] = i;
		k[1] = i * 7;
		k[2] = UINT64_MAX - i;
		ck_assert_uint_eq(keytab_get(&kt, k, &created), i);
		ck_assert_int_eq(created, 1);
	}
	k[0] = 123;
	k[1] = 861;
	k[2] = UINT64_MAX - 123;
	keytab_prefetch(&kt, k, 0);
	keytab_prefetch(&kt, k, 1);
	ck_assert_uint_eq(keytab_get(&kt, k, &created), 123);
	ck_assert_int_eq(created, 0);
	ck_assert_uint_eq(keytab_find(&kt, k), 123);
	ck_assert_uint_eq(keytab_key(&kt, 123)[1], 861);
	k[1] = 862;
	ck_assert_uint_eq(keytab_find(&kt, k), KEYTAB_NONE);
	keytab_free(&kt);
}
END_TEST

/*
 * The indexed word of key i of test_keytab_indexed: shared by three
 * keys (a chain), by eight (a full chain), by nine (one too many: all
 * hashed), by 2000, or its own.
 */
static uint64_t
indexed_word(uint32_t i)
{
	if (i < 3000)
		return i / 3;
	if (i < 3800)
		return 1100 + (i - 3000) / 8;
	if (i < 4700)
		return 1200 + (i - 3800) / 9;
	if (i < 6700)
		return 1000;
	return i;
}

/*
 * An indexed table: keys whose indexed word is their own, keys that
 * share it (a few, as many as a chain holds, one more, many), found,
 * refused, cleared and filled again; only the words of more than a
 * chain are hashed.
 */
START_TEST(test_keytab_indexed)
{
	struct keytab	kt;
	uint64_t	k[2];
	uint32_t	i, round, used;
	int		created;

	keytab_init_indexed(&kt, 2, 1);
	for (round = 0; round < 2; round++) {
		for (i = 0; i < 8000; i++) {
			k[0] = i;
			k[1] = indexed_word(i);
			ck_assert_uint_eq(keytab_get(&kt, k, &created), i);
			ck_assert_int_eq(created, 1);
		}
		for (i = 0; i < 8000; i++) {
			k[0] = i;
			k[1] = indexed_word(i);
			/* Loading ahead reads only what is there (ASan). */
			keytab_prefetch(&kt, k, 0);
			keytab_prefetch(&kt, k, 1);
			ck_assert_uint_eq(keytab_get(&kt, k, &created), i);
			ck_assert_int_eq(created, 0);
			ck_assert_uint_eq(keytab_find(&kt, k), i);
			k[0] = i + 1000000;
			keytab_prefetch(&kt, k, 1);
			ck_assert_uint_eq(keytab_find(&kt, k), KEYTAB_NONE);
		}
		k[0] = 5;
		k[1] = 9000;		/* beyond the index */
		keytab_prefetch(&kt, k, 0);
		keytab_prefetch(&kt, k, 1);
		ck_assert_uint_eq(keytab_find(&kt, k), KEYTAB_NONE);
		ck_assert_uint_eq(keytab_key(&kt, 4000)[1], 1222);
		ck_assert_uint_eq(keytab_key(&kt, 5000)[1], 1000);
		ck_assert_uint_eq(kt.n, 8000);
		/* Only the words of nine keys and of 2000 are hashed, once. */
		for (i = used = 0; i <= kt.mask; i++)
			used += kt.slots[i] != 0;
		ck_assert_uint_eq(used, 900 + 2000);
		ck_assert_uint_eq(kt.nhashed, 900 + 2000);
		keytab_clear(&kt);
		ck_assert_uint_eq(kt.n, 0);
		k[0] = 1;
		k[1] = 0;
		ck_assert_uint_eq(keytab_find(&kt, k), KEYTAB_NONE);
	}
	keytab_free(&kt);
}
END_TEST

START_TEST(test_compression)
{
	struct profile	*p;
	int		 rc;

	p = load("events: Ir\n"
	    "ob=(1) obj\n"
	    "fl=(1) a.c\n"
	    "fn=(1) main\n"
	    "1 10\n"
	    /* id 1 in the fn space is main, in the fl space a.c. */
	    "fn=(2) (below main)\n"
	    "2 20\n"
	    "fn=(1)\n"
	    "3 30\n"
	    "fl=(2)b.c\n"
	    "fn=(3)   spaced\n"
	    "4 40\n"
	    "fn=(1)\n"
	    "5 50\n", &rc);
	ck_assert_int_eq(rc, 0);
	ck_assert_int_ge(func_find(p, "obj", "a.c", "main"), 0);
	ck_assert_int_ge(func_find(p, "obj", "a.c", "(below main)"), 0);
	ck_assert_int_ge(func_find(p, "obj", "b.c", "spaced"), 0);
	ck_assert_int_ge(func_find(p, "obj", "b.c", "main"), 0);
	ck_assert_uint_eq(self_cost(p, "main", "a.c", 3, 0), 30);
	ck_assert_uint_eq(self_cost(p, "main", "b.c", 5, 0), 50);
	ck_assert_uint_eq(self_cost(p, "(below main)", "a.c", 2, 0), 20);
	profile_free(p);
}
END_TEST

/*
 * Compressed ids defined far beyond those before them, which the direct
 * array reaches only later (ids moved to it as it grows), and one too
 * far for it ever: all found again by number.
 */
START_TEST(test_compression_sparse)
{
	struct profile	*p;
	char		*text;
	size_t		 len = 0, cap = 1 << 20;
	int		 i, rc;

	text = xmalloc(cap);
	len += snprintf(text + len, cap - len, "events: Ir\nfl=a.c\n"
	    "fn=(50000) far\n1 1\nfn=(123456789012) farther\n1 2\n");
	for (i = 1; i <= 40000; i++)
		len += snprintf(text + len, cap - len, "fn=(%d) f%d\n1 1\n",
		    i, i);
	len += snprintf(text + len, cap - len, "fn=(50000)\n1 10\n"
	    "fn=(123456789012)\n1 20\nfn=(7)\n1 30\n");
	ck_assert_uint_lt(len, cap);
	p = load(text, &rc);
	ck_assert_int_eq(rc, 0);
	ck_assert_uint_eq(func_self(p, "far", 0), 11);
	ck_assert_uint_eq(func_self(p, "farther", 0), 22);
	ck_assert_uint_eq(func_self(p, "f7", 0), 31);
	ck_assert_uint_eq(func_self(p, "f40000", 0), 1);
	profile_free(p);
	free(text);
}
END_TEST

START_TEST(test_compression_errors)
{
	struct profile	*p;
	int		 rc;

	msg_reset();
	p = load("events: Ir\n"
	    "fl=(1) a.c\n"
	    "fn=(7)\n"			/* undefined: "?\?\?(7)" */
	    "1 10\n"
	    "fn=(8)\n"			/* another: "?\?\?(8)" */
	    "1 1\n"
	    "fn=(7)\n"			/* the same one, said once */
	    "1 2\n"
	    "fn=(2) two\n"
	    "fn=(2) deux\n"		/* redefined: the new name wins */
	    "2 20\n"
	    "fn=(2)\n"
	    "3 30\n"
	    "fn=(3 broken\n"		/* no ")": taken literally */
	    "4 40\n", &rc);
	ck_assert_int_eq(rc, 0);
	ck_assert_uint_eq(msg_count(MSG_UNDEFINED_ID), 2);
	ck_assert_uint_eq(msg_count(MSG_REDEFINED_ID), 1);
	ck_assert_uint_eq(msg_count(MSG_BAD_NAME_ID), 1);
	ck_assert_uint_eq(func_self(p, "?\?\?(7)", 0), 12);
	ck_assert_uint_eq(func_self(p, "?\?\?(8)", 0), 1);
	ck_assert_uint_eq(func_self(p, "???", 0), COST_NONE);
	ck_assert_uint_eq(func_self(p, "deux", 0), 50);
	ck_assert_uint_eq(func_self(p, "two", 0), COST_NONE);
	ck_assert_uint_eq(func_self(p, "(3 broken", 0), 40);
	profile_free(p);
}
END_TEST

START_TEST(test_strip_prefix)
{
	struct profile		*p = profile_create();
	struct parse_opts	 o = { .strip_prefix = "/home/u/src/" };
	const char		*text = "events: Ir\n"
	    "fl=/home/u/src/a.c\n"
	    "fn=f\n"
	    "1 1\n"
	    "cfi=(4) /home/u/src/b.c\n"
	    "cfn=g\n"
	    "calls=1 1\n"
	    "1 5\n"
	    "fi=/home/u/src/sub/c.h\n"
	    "2 2\n"
	    "fl=/home/u/srcx.c\n"
	    "fn=h\n"
	    "3 3\n";

	ck_assert_int_eq(parse_buffer(p, "t", text, strlen(text), &o), 0);
	/* Every kind of file name loses the prefix, and only the prefix. */
	ck_assert_int_ge(func_find(p, "", "a.c", "f"), 0);
	ck_assert_int_ge(func_find(p, "", "b.c", "g"), 0);
	ck_assert_uint_eq(self_cost(p, "f", "sub/c.h", 2, 0), 2);
	ck_assert_int_ge(func_find(p, "", "/home/u/srcx.c", "h"), 0);
	profile_free(p);
}
END_TEST

Suite *
make_names_suite(void)
{
	Suite	*s = suite_create("names");
	TCase	*tc = check_tcase();

	tcase_add_test(tc, test_strtab);
	tcase_add_test(tc, test_keytab);
	tcase_add_test(tc, test_strtab_copy);
	tcase_add_test(tc, test_strtab_blank);
	tcase_add_test(tc, test_strtab_packed);
	tcase_add_test(tc, test_strtab_far);
	tcase_add_test(tc, test_strtab_far_changed);
	tcase_add_test(tc, test_strtab_stats);
	tcase_add_test(tc, test_keytab_indexed);
	tcase_add_test(tc, test_compression);
	tcase_add_test(tc, test_compression_sparse);
	tcase_add_test(tc, test_compression_errors);
	tcase_add_test(tc, test_strip_prefix);
	suite_add_tcase(s, tc);
	return s;
}
