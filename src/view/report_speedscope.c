/*
 * report_speedscope.c - --format=speedscope: speedscope's JSON file
 * format (https://www.speedscope.app/file-format-schema.json), one
 * "sampled" profile per event shown, each stack the path to a frame of
 * the flame graph (flamesel.h) weighed by the count of the stacks that
 * end there; the frames, shared by every profile, named as the flame
 * graph names them, with the file of their first function.  A profile
 * whose stacks are estimated from the call graph says so in its name.
 */
#include "base/compat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/keytab.h"
#include "base/num.h"
#include "base/strtab.h"
#include "base/xmalloc.h"
#include "version.h"
#include "model/profile.h"
#include "select/flamesel.h"
#include "select/select.h"
#include "view/json.h"
#include "view/report.h"

/*
 * The shared index of each name and file of the profiles' frames, by
 * their ids in the frames' table of names (which every event's frames
 * share, flamesel_event()): made once for all the profiles, not once a
 * profile (names of C++ functions are thousands of bytes).
 */
struct ids {
	struct keytab	 byname;	/* keytab_pair(name, file) -> i */
	uint32_t	*id;		/* i -> the shared index */
	size_t		 cap;
};

static uint32_t	speedscope_frame(struct strtab *, struct ids *,
		    const struct flamesel *, const struct frame *);
static void	speedscope_profile(struct json *, const struct selection *,
		    const struct flamesel *, int, struct strtab *,
		    struct ids *);

/*
 * Return the index of frame fr of s among the shared frames, by its name
 * and file ("name" NUL "file" in st, in the order first met, from id 1),
 * made once for each name and file (ids).
 */
static uint32_t
speedscope_frame(struct strtab *st, struct ids *ids, const struct flamesel *s,
    const struct frame *fr)
{
	const char	*name, *file;
	uint64_t	 k;
	size_t		 nl, fl;
	char		*key;
	uint32_t	 at;
	int		 created;

	k = keytab_pair(fr->name, fr->file);
	at = keytab_get(&ids->byname, &k, &created);
	if (!created)
		return ids->id[at];
	name = flamesel_name(s, fr->name);
	file = flamesel_name(s, fr->file);
	nl = strlen(name);
	fl = strlen(file);
	key = xmalloc(nl + fl + 2);
	memcpy(key, name, nl + 1);
	memcpy(key + nl + 1, file, fl + 1);
	ids->id = xgrow(ids->id, &ids->cap, (size_t)at + 1, sizeof(*ids->id));
	ids->id[at] = strtab_intern(st, key, nl + fl + 1) - 1;
	free(key);
	return ids->id[at];	/* the table's id 0 is "" */
}

/*
 * Write the sampled profile of s, of event ev, its frames put in st
 * (their indexes in ids).
 */
static void
speedscope_profile(struct json *j, const struct selection *sel,
    const struct flamesel *s, int ev, struct strtab *st, struct ids *ids)
{
	const struct frame	*fr;
	uint32_t		 v;
	size_t			 depth, k, at, *tlen, tcap = 0;
	char			*name, *text = NULL;
	const char		*evname = profile_str(sel->p,
				    profile_event(sel->p, (unsigned)ev));

	json_open(j, '{');
	json_key(j, "type");
	json_str(j, "sampled");
	json_key(j, "name");
	if (s->exact)
		json_str(j, evname);
	else {
		name = xjoin(evname, strlen(evname), ' ',
		    "(stacks estimated from the call graph)", 38);
		json_str(j, name);
		free(name);
	}
	json_key(j, "unit");
	json_str(j, "none");
	json_key(j, "startValue");
	json_u64(j, 0);
	json_key(j, "endValue");
	json_u64(j, s->frames[0].total);
	/*
	 * A stack's text: its frames' shared indexes, each written once
	 * after its parent's (tlen[d]: the length of the first d); the
	 * indexes made as the frames come, depth first, which is the order
	 * the stacks meet them in (every frame has one ending under it).
	 */
	tlen = xcalloc(s->depth + 2, sizeof(*tlen));
	/* Twice depth first, children in order: samples, then weights. */
	for (k = 0; k < 2; k++) {
		json_key(j, k == 0 ? "samples" : "weights");
		if (k == 0)
			json_open(j, '[');
		else
			json_open_flat(j);
		for (v = s->frames[0].child; v != UINT32_MAX;
		    v = flamesel_next(s, v)) {
			fr = &s->frames[v];
			depth = fr->depth;
			if (k == 0) {
				at = tlen[depth - 1];
				text = xgrow(text, &tcap, at + 24, 1);
				if (depth > 1)
					text[at++] = ',';
				at += num_u64(speedscope_frame(st, ids, s, fr),
				    text + at);
				tlen[depth] = at;
				if (fr->self > 0)
					json_numbers(j, text, at);
			} else if (fr->self > 0)
				json_u64(j, fr->self);
		}
		json_close(j, ']');
	}
	free(tlen);
	free(text);
	json_close(j, '}');
}

/*
 * Print sel's stacks, every event shown, as one speedscope file: the
 * profiles first, which name the shared frames written after them.
 */
int
report_speedscope(FILE *out, const struct selection *sel)
{
	const struct part	*pt = profile_part(sel->p, 0);
	const char		*cmd = profile_str(sel->p, pt->cmd), *s;
	struct strtab		*st = strtab_create();
	struct flamesel		*fs = NULL;
	struct ids		 ids;
	struct json		 j;
	size_t			 i, nl;
	uint32_t		 k;

	json_init(&j, out);
	json_open(&j, '{');
	json_key(&j, "$schema");
	json_str(&j, "https://www.speedscope.app/file-format-schema.json");
	json_key(&j, "exporter");
	json_str(&j, "cg-annotate " CGA_VERSION);
	json_key(&j, "name");
	json_str(&j, *cmd != '\0' ? cmd : sel->run->profile_name);
	json_key(&j, "activeProfileIndex");
	json_u64(&j, 0);
	json_key(&j, "profiles");
	json_open(&j, '[');
	keytab_init(&ids.byname, 1);
	ids.id = NULL;
	ids.cap = 0;
	for (i = 0; i < sel->nshow; i++) {
		fs = select_flames_of(sel, i, fs);
		speedscope_profile(&j, sel, fs, sel->show[i], st, &ids);
	}
	keytab_free(&ids.byname);
	free(ids.id);
	flamesel_free(fs);
	json_close(&j, ']');
	json_key(&j, "shared");
	json_open(&j, '{');
	json_key(&j, "frames");
	json_open(&j, '[');
	for (k = 1; k < strtab_count(st); k++) {
		s = strtab_get(st, k);
		nl = strlen(s);
		json_open(&j, '{');
		json_key(&j, "name");
		json_str(&j, s);
		if (s[nl + 1] != '\0') {
			json_key(&j, "file");
			json_str(&j, s + nl + 1);
		}
		json_close(&j, '}');
	}
	json_close(&j, ']');
	json_close(&j, '}');
	json_close(&j, '}');
	json_end(&j);
	strtab_free(st);
	return 0;
}
