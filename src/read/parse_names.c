/*
 * parse_names.c - names and their compression: compressed ids "(N)"
 * mapped to interned strings per name space (ob, fl, fn), functions
 * found by (object, file, name), the keys of name lines, file names
 * without the stripped prefix.
 */
#include "base/compat.h"

#include <string.h>

#include "base/msg.h"
#include "base/num.h"
#include "base/xmalloc.h"
#include "read/parse_ahead.h"
#include "read/parser.h"

static void	idmap_hash_put(struct idmap *, uint64_t, uint32_t);
static uint32_t	parser_intern(struct parser *, const char *, size_t);
static uint32_t	parser_file_name(struct parser *, const char *, size_t);
static uint32_t	parser_undefined(struct parser *, enum idspace, uint64_t,
		    uint32_t *);

/*
 * Return the string id of the len bytes s of a name: if they are the
 * file's own bytes (in the text being read) a long name is left there.
 */
static uint32_t
parser_intern(struct parser *ps, const char *s, size_t len)
{
	if (ps->names_file != NULL && s >= ps->text && s < ps->text_end &&
	    len <= (size_t)(ps->text_end - s))
		return profile_intern_at(ps->p, s, len, ps->names_file,
		    ps->text_off + (uint64_t)(s - ps->text));
	return profile_intern(ps->p, s, len);
}

/* Return the string id of a file name, without the strip prefix. */
static uint32_t
parser_file_name(struct parser *ps, const char *s, size_t len)
{
	if (ps->striplen > 0 && len > ps->striplen &&
	    memcmp(s, ps->strip, ps->striplen) == 0) {
		s += ps->striplen;
		len -= ps->striplen;
	}
	return parser_intern(ps, s, len);
}

/* Put id (not in it) with its slot into m's hash table. */
static void
idmap_hash_put(struct idmap *m, uint64_t id, uint32_t slot)
{
	uint32_t	j;

	for (j = idmap_hash(m, id); m->hash[j].slot != 0;
	    j = (j + 1) & m->mask)
		continue;
	m->hash[j].id = id;
	m->hash[j].slot = slot + 1;
	m->nhash++;
}

/*
 * Make m's hash table size slots (a power of two) and put back in it
 * the ids the direct array does not reach; the others go there.  A
 * table of the same size is used again (its pages are there).
 */
void
idmap_rehash(struct idmap *m, uint32_t size)
{
	struct idslot	*keep;
	uint32_t	 i, n = m->hash != NULL ? m->mask + 1 : 0, k = 0;

	keep = xreallocarray(NULL, m->nhash ? m->nhash : 1, sizeof(*keep));
	for (i = 0; i < n; i++) {
		if (m->hash[i].slot == 0)
			continue;
		if (m->hash[i].id < m->ndirect)
			m->direct[m->hash[i].id] = m->hash[i].slot;
		else
			keep[k++] = m->hash[i];
	}
	if (size != n) {
		free(m->hash);
		/* Not calloc(): see keytab_resize(). */
		m->hash = xreallocarray(NULL, size, sizeof(*m->hash));
		m->mask = size - 1;
	}
	xfill(m->hash, 0, (size_t)size * sizeof(*m->hash));
	m->nhash = 0;
	for (i = 0; i < k; i++)
		idmap_hash_put(m, keep[i].id, keep[i].slot - 1);
	free(keep);
}

/*
 * Make the direct array of m reach id, moving there the ids of the hash
 * table that it now reaches.
 */
void
idmap_direct_grow(struct idmap *m, uint64_t id)
{
	size_t	n = m->ndirect ? m->ndirect : 1024;

	while (n <= id)
		n *= 2;
	m->direct = xreallocarray(m->direct, n, sizeof(*m->direct));
	xfill(m->direct + m->ndirect, 0, (n - m->ndirect) *
	    sizeof(*m->direct));
	m->ndirect = n;
	if (m->nhash > 0)
		idmap_rehash(m, m->mask + 1);
}

/* Make room in m for cap slots. */
void
idmap_resize(struct idmap *m, size_t cap)
{
	m->cap = cap;
	m->names = xreallocarray(m->names, cap, sizeof(*m->names));
	m->slot_id = xreallocarray(m->slot_id, cap, sizeof(*m->slot_id));
	m->fn_ob = xreallocarray(m->fn_ob, cap, sizeof(*m->fn_ob));
	m->fn_fl = xreallocarray(m->fn_fl, cap, sizeof(*m->fn_fl));
	m->fn_id = xreallocarray(m->fn_id, cap, sizeof(*m->fn_id));
}

/* Return the slot of compressed id in m, adding it; *created says so. */
uint32_t
idmap_add(struct idmap *m, uint64_t id, int *created)
{
	uint32_t	 slot;

	if ((slot = idmap_find(m, id)) != NONE) {
		*created = 0;
		return slot;
	}
	*created = 1;
	if (m->n == m->cap)
		idmap_resize(m, m->cap ? m->cap * 2 : 256);
	slot = (uint32_t)m->n++;
	m->slot_id[slot] = id;
	m->fn_id[slot] = NONE;
	if (id < m->ndirect || id < 4 * (uint64_t)m->n + 1024) {
		if (id >= m->ndirect)
			idmap_direct_grow(m, id);
		m->direct[id] = slot + 1;
	} else {
		if (m->hash == NULL || 2 * ((uint64_t)m->nhash + 1) >
		    (uint64_t)m->mask + 1)
			idmap_rehash(m, m->hash != NULL ? 2 * (m->mask + 1) :
			    64);
		idmap_hash_put(m, id, slot);
	}
	return slot;
}

/*
 * A reference to compressed id that nothing defined (yappi writes
 * them): the id stands for a name of its own, "?\?\?(ID)", defined here
 * so that it is said once and its costs stay apart from other ids'.
 */
static uint32_t
parser_undefined(struct parser *ps, enum idspace sp, uint64_t id,
    uint32_t *slotp)
{
	struct idmap	*m = &ps->idmap[sp];
	char		 buf[32];
	uint32_t	 name, slot;
	int		 created, n;

	msg(MSG_UNDEFINED_ID, ps->fname, ps->lineno, "(%llu)",
	    (unsigned long long)id);
	n = snprintf(buf, sizeof(buf), "?\?\?(%llu)",
	    (unsigned long long)id);
	name = sp == IDS_FL ? parser_file_name(ps, buf, (size_t)n) :
	    profile_intern(ps->p, buf, (size_t)n);
	slot = idmap_add(m, id, &created);
	m->names[slot] = name;
	m->fn_id[slot] = NONE;
	*slotp = slot;
	return name;
}

/*
 * Resolve a position name "(id) name", "(id)" or "name" in space sp
 * and return its string id; *slotp gets the compressed id's slot, or
 * NONE for a literal name.
 */
uint32_t
parser_name(struct parser *ps, enum idspace sp, const char *s,
    const char *end, uint32_t *slotp)
{
	struct idmap	*m = &ps->idmap[sp];
	const char	*p = s + 1;
	uint64_t	 id;
	uint32_t	 name, slot;
	int		 created;

	*slotp = NONE;
	if (s == end || *s != '(' || p == end ||
	    (unsigned)(*p - '0') > 9)
		goto literal;
	for (id = 0; p < end && (unsigned)(*p - '0') <= 9; p++) {
		if (__builtin_mul_overflow(id, 10, &id) ||
		    __builtin_add_overflow(id, (uint64_t)(*p - '0'), &id)) {
			msg(MSG_BAD_NAME_ID, ps->fname, ps->lineno, NULL);
			goto literal;
		}
	}
	if (p == end || *p != ')') {
		msg(MSG_BAD_NAME_ID, ps->fname, ps->lineno, NULL);
		goto literal;
	}
	p = num_skip_space(p + 1, end);
	if (p == end) {
		/* A reference. */
		if ((slot = idmap_find(m, id)) == NONE && ps->spec) {
			/* Defined before the chunk, we hope. */
			slot = idmap_add(m, id, &created);
			m->names[slot] = parser_placeholder(ps, "OLF"[sp], id);
		}
		if (slot == NONE)
			return parser_undefined(ps, sp, id, slotp);
		*slotp = slot;
		return m->names[slot];
	}
	name = sp == IDS_FL ? parser_file_name(ps, p, end - p) :
	    parser_intern(ps, p, end - p);
	slot = idmap_add(m, id, &created);
	if (!created && m->names[slot] != name) {
		/* A placeholder's definition is checked when adopted. */
		if (!ps->spec || !parser_is_placeholder(ps, m->names[slot]))
			msg(MSG_REDEFINED_ID, ps->fname, ps->lineno, "(%llu)",
			    (unsigned long long)id);
		m->fn_id[slot] = NONE;
	}
	m->names[slot] = name;
	*slotp = slot;
	/* What a chunk read ahead needs to know of a file named before it. */
	if (sp == IDS_FL && ps->fileids != NULL && ps->lines != NULL)
		fileids_put(ps->fileids, id, ps->lines(ps->lines_arg,
		    profile_str(ps->p, name)));
	return name;
literal:
	return sp == IDS_FL ? parser_file_name(ps, s, end - s) :
	    parser_intern(ps, s, end - s);
}

/*
 * Return the id of function (obj, file, name), where slot is the
 * compressed fn id it was named by (or NONE): the last resolution of
 * each compressed name is remembered, which spares a lookup per line.
 * It holds for the name the slot has now only: a cfn= read before the
 * id was defined again still names what it named then.
 */
uint32_t
parser_func(struct parser *ps, uint32_t obj, uint32_t file, uint32_t name,
    uint32_t slot)
{
	struct idmap	*m = &ps->idmap[IDS_FN];
	uint32_t	 fn;

	if (slot != NONE && m->names[slot] != name)
		slot = NONE;
	if (slot != NONE && m->fn_id[slot] != NONE && m->fn_ob[slot] == obj &&
	    m->fn_fl[slot] == file)
		return m->fn_id[slot];
	fn = profile_func_id(ps->p, obj, file, name);
	if (slot != NONE) {
		m->fn_ob[slot] = obj;
		m->fn_fl[slot] = file;
		m->fn_id[slot] = fn;
	}
	return fn;
}

/*
 * Note that the current function has code in file, named by compressed
 * fl id slot (or NONE): the pair each slot was last resolved to, with
 * its function, is remembered, as parser_func() does, so that the fi=
 * and fe= lines between a function's own code and code inlined into it
 * (one line in four of a large C++ program's profile) take no lookup.
 */
void
parser_touch(struct parser *ps, uint32_t file, uint32_t slot)
{
	struct idmap	*m = &ps->idmap[IDS_FL];

	if (slot == NONE || m->names[slot] != file) {
		(void)profile_touch(ps->p, ps->fn, file);
		return;
	}
	/* A slot named again forgets its pair (fn_id NONE). */
	if (m->fn_id[slot] != NONE && m->fn_ob[slot] == ps->fn) {
		profile_retouch(ps->p, ps->fn, file, m->fn_id[slot]);
		return;
	}
	m->fn_ob[slot] = ps->fn;
	m->fn_id[slot] = profile_touch(ps->p, ps->fn, file);
}

/* Classify the key s to eq of a name line; NK_NONE if it is unknown. */
enum namekey
parser_namekey(const char *s, const char *eq)
{
	switch (*s) {
	case 'f':
		if (KEYIS(s, eq, "fn"))
			return NK_FN;
		if (KEYIS(s, eq, "fl"))
			return NK_FL;
		if (KEYIS(s, eq, "fi") || KEYIS(s, eq, "fe"))
			return NK_FI;
		if (KEYIS(s, eq, "frfn"))
			return NK_FRFN;
		break;
	case 'c':
		if (KEYIS(s, eq, "cfn"))
			return NK_CFN;
		if (KEYIS(s, eq, "cfi") || KEYIS(s, eq, "cfl"))
			return NK_CFI;
		if (KEYIS(s, eq, "cob"))
			return NK_COB;
		if (KEYIS(s, eq, "calls"))
			return NK_CALLS;
		if (KEYIS(s, eq, "cfni"))
			return NK_CFNI;
		break;
	case 'o':
		if (KEYIS(s, eq, "ob"))
			return NK_OB;
		break;
	case 'j':
		if (KEYIS(s, eq, "jump"))
			return NK_JUMP;
		if (KEYIS(s, eq, "jcnd"))
			return NK_JCND;
		if (KEYIS(s, eq, "jfi"))
			return NK_JFI;
		if (KEYIS(s, eq, "jfn"))
			return NK_JFN;
		break;
	case 'r':
		if (KEYIS(s, eq, "rec"))
			return NK_SKIP;
		break;
	case 'b':
	case 'l':
		if (KEYIS(s, eq, "bb") || KEYIS(s, eq, "ln"))
			return NK_SKIP;
		break;
	default:
		break;
	}
	return NK_NONE;
}
