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
#include "base/xmalloc.h"
#include "version.h"
#include "model/profile.h"
#include "select/flamesel.h"
#include "select/select.h"
#include "view/json.h"
#include "view/report.h"

/*
 * The shared frames: each name and file of the profiles' frames, by
 * their ids in the frames' table of names (which every event's frames
 * share, flamesel_event(): a name is one id), indexed in the order first
 * met, once for all the profiles; their text is read from that table
 * when they are written (names of C++ functions are thousands of bytes:
 * copied into a table of their own, each was compressed there and read
 * back, 0.1 s of the 100 MB large-C++ synthetic's export).
 */
struct ids {
	struct keytab	 byname;	/* keytab_pair(name, file) -> index */
	uint64_t	*w;		/* a profile's weights, in order: */
	size_t		 wcap;		/*   room kept for the next */
};

static void	speedscope_profile(struct json *, const struct selection *,
		    const struct flamesel *, int, struct ids *);
static void	speedscope_frames(struct json *, const struct flamesel *,
		    const struct ids *);

/* Write the shared frames of ids, their names and files those of s. */
static void
speedscope_frames(struct json *j, const struct flamesel *s,
    const struct ids *ids)
{
	const uint64_t	*k;
	const char	*file;
	uint32_t	 i;

	json_key(j, "frames");
	json_open(j, '[');
	for (i = 0; i < ids->byname.n; i++) {
		k = keytab_key(&ids->byname, i);
		json_open(j, '{');
		json_key(j, "name");
		json_str(j, flamesel_name(s, (uint32_t)(*k >> 32)));
		file = flamesel_name(s, (uint32_t)*k);
		if (*file != '\0') {
			json_key(j, "file");
			json_str(j, file);
		}
		json_close(j, '}');
	}
	json_close(j, ']');
}

/*
 * Write the sampled profile of s, of event ev, its frames indexed in
 * ids.
 */
static void
speedscope_profile(struct json *j, const struct selection *sel,
    const struct flamesel *s, int ev, struct ids *ids)
{
	const struct frame	*fr;
	uint32_t		 v;
	size_t			 depth, k, at, *tlen, tcap = 0, nw;
	char			*name, *text = NULL;
	uint64_t		 key;
	int			 created;
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
	/*
	 * Depth first, children in order: the samples, their weights kept
	 * in order to be written after them (a second walk of the frames,
	 * not in the order they lie in, waited on memory for each: a
	 * tenth of the export of cc1 with cache simulation).
	 */
	json_key(j, "samples");
	json_open(j, '[');
	nw = 0;
	for (v = s->frames[0].child; v != UINT32_MAX;
	    v = flamesel_next(s, v)) {
		fr = &s->frames[v];
		depth = fr->depth;
		at = tlen[depth - 1];
		text = xgrow(text, &tcap, at + 24, 1);
		if (depth > 1)
			text[at++] = ',';
		key = keytab_pair(fr->name, fr->file);
		at += num_u64(keytab_get(&ids->byname, &key, &created),
		    text + at);
		tlen[depth] = at;
		if (fr->self > 0) {
			json_numbers(j, text, at);
			ids->w = xgrow(ids->w, &ids->wcap, nw + 1,
			    sizeof(*ids->w));
			ids->w[nw++] = fr->self;
		}
	}
	json_close(j, ']');
	json_key(j, "weights");
	json_open_flat(j);
	for (k = 0; k < nw; k++)
		json_u64(j, ids->w[k]);
	json_close(j, ']');
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
	const char		*cmd = profile_str(sel->p, pt->cmd);
	struct flamesel		*fs = NULL;
	struct ids		 ids;
	struct json		 j;
	size_t			 i;

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
	ids.w = NULL;
	ids.wcap = 0;
	for (i = 0; i < sel->nshow; i++) {
		fs = select_flames_of(sel, i, fs);
		speedscope_profile(&j, sel, fs, sel->show[i], &ids);
	}
	json_close(&j, ']');
	json_key(&j, "shared");
	json_open(&j, '{');
	speedscope_frames(&j, fs, &ids);	/* none if no profile (fs NULL) */
	json_close(&j, '}');
	json_close(&j, '}');
	json_end(&j);
	keytab_free(&ids.byname);
	free(ids.w);
	flamesel_free(fs);
	return 0;
}
