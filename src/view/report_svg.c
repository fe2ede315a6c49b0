/*
 * report_svg.c - --format=svg: an interactive flame graph in one
 * self-contained SVG file (no network, no external script).  Each frame
 * of flamesel.c is a box as wide as its count, its children above it;
 * a tooltip gives its name, count and percentage; clicking a frame
 * zooms to it (its ancestors stay, full width), "Reset zoom" undoes;
 * "Search" asks for a regular expression, highlights the frames whose
 * name it matches and says what share of the total they hold.  Frames
 * are coloured by their object: warm for the program's own code, blue
 * for shared libraries, grey for the loader, valgrind and unknown code.
 * With --diff the widths are NEW's and the colour the change of each
 * frame's total from OLD: red where it grew, blue where it shrank.
 */
#include "base/compat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/hash.h"
#include "base/num.h"
#include "base/utf8.h"
#include "model/profile.h"
#include "select/flamesel.h"
#include "select/select.h"
#include "view/report.h"

#define SVG_WIDTH	1200
#define SVG_FRAME	16		/* a frame's height */
#define SVG_TOP		60		/* title, subtitle, buttons */
#define SVG_HEAD	100		/* the title's characters, at most */
#define SVG_BOTTOM	30		/* the details line */
#define SVG_PAD		10
#define SVG_MIN		0.1		/* narrower frames are left out */

static void	svg_fill(FILE *, const struct flamesel *, uint32_t,
		    int, double);
static void	svg_script(FILE *);
static void	svg_label(FILE *, const char *, double);
static void	svg_heading(FILE *, const struct profile *, int, int);
static void	svg_heading_cut(FILE *, const struct profile *, int, int);

/*
 * Write the graph's heading, for its title and its first line: what it
 * is, the event, the profile's command.
 */
static void
svg_heading(FILE *out, const struct profile *p, int ev, int diff)
{
	const char	*cmd = profile_str(p, profile_part(p, 0)->cmd);

	utf8_xml(out, diff ? "Differential flame graph: " : "Flame graph: ");
	utf8_xml(out, profile_str(p, profile_event(p, (unsigned)ev)));
	if (*cmd != '\0') {
		fputs(" \xe2\x80\x94 ", out);
		utf8_xml(out, cmd);
	}
}

/*
 * Write the heading as svg_heading() does, cut with an ellipsis to the
 * SVG_HEAD characters that fit between the buttons.
 */
static void
svg_heading_cut(FILE *out, const struct profile *p, int ev, int diff)
{
	char		*buf = NULL;
	size_t		 len = 0, i, n;
	FILE		*f;

	if ((f = open_memstream(&buf, &len)) == NULL)
		return;
	svg_heading(f, p, ev, diff);
	if (fclose(f) != 0) {
		free(buf);
		return;
	}
	/* Characters counted as UTF-8 sequences, entities as one. */
	for (i = n = 0; i < len && n < SVG_HEAD; n++) {
		if (buf[i] == '&')
			while (i < len && buf[i] != ';')
				i++;
		i++;
		while (i < len && ((unsigned char)buf[i] & 0xc0) == 0x80)
			i++;
	}
	if (i < len) {
		/* Room for the ellipsis: one character less. */
		while (i > 0 && ((unsigned char)buf[--i] & 0xc0) == 0x80)
			continue;
		fwrite(buf, 1, i, out);
		fputs("\xe2\x80\xa6", out);
	} else
		fwrite(buf, 1, len, out);
	free(buf);
}

/*
 * Write name cut to what fits in w pixels (about 7 a character), as
 * the script does; nothing if fewer than three characters fit.
 */
static void
svg_label(FILE *out, const char *name, double w)
{
	char	buf[512];
	size_t	k, n = strlen(name), i;

	/* (A frame can be wider than the graph, w even NaN, in odd
	 * profiles: compared as doubles, made a size only below n.) */
	if (!(w >= 6 + 3 * 7))
		return;
	if ((w - 6) / 7 >= (double)n) {
		utf8_xml(out, name);
		return;
	}
	k = (size_t)((w - 6) / 7);
	if (k - 2 >= sizeof(buf))
		k = sizeof(buf) - 1 + 2;
	/* Cut at a character's start, not inside a UTF-8 sequence. */
	for (i = k - 2; i > 0 && ((unsigned char)name[i] & 0xc0) == 0x80; i--)
		continue;
	memcpy(buf, name, i);
	buf[i] = '\0';
	utf8_xml(out, buf);
	fputs("..", out);
}


/*
 * Write the fill of frame i of s: by its object's kind, varied by its name's
 * hash so neighbours differ; with diff set, by its change (maxd is the
 * largest change of any frame).
 */
static void
svg_fill(FILE *out, const struct flamesel *s, uint32_t i, int diff,
    double maxd)
{
	const struct frame *f = &s->frames[i];
	const char	*name = flamesel_name(s, f->name);
	unsigned	 v = (unsigned)(hash_bytes(name, strlen(name)) % 64);
	double		 d, t;

	if (diff) {
		d = (double)f->total - (double)flamesel_old_total(s, i);
		t = maxd > 0 ? (d < 0 ? -d : d) / maxd : 0;
		if (d > 0)
			fprintf(out, "rgb(255,%u,%u)", (unsigned)(230 - 190 * t),
			    (unsigned)(230 - 190 * t));
		else if (d < 0)
			fprintf(out, "rgb(%u,%u,255)", (unsigned)(230 - 190 * t),
			    (unsigned)(230 - 190 * t));
		else
			fputs("rgb(235,235,235)", out);
		return;
	}
	switch (f->kind) {
	case FRAME_PROGRAM:
		fprintf(out, "rgb(%u,%u,%u)", 220 + v % 36, 90 + v * 2,
		    40 + v % 20);
		break;
	case FRAME_LIBRARY:
		fprintf(out, "rgb(%u,%u,%u)", 70 + v, 140 + v, 220 + v % 36);
		break;
	default:
		fprintf(out, "rgb(%u,%u,%u)", 160 + v, 160 + v, 160 + v);
		break;
	}
}

/* The script: zoom, reset, search, details; written here, no library. */
static void
svg_script(FILE *out)
{
	fputs("<script type=\"text/ecmascript\"><![CDATA[\n"
	    "\"use strict\";\n"
	    "var svg = document.documentElement;\n"
	    "var W = +svg.getAttribute(\"data-width\"), PAD = 10;\n"
	    "var ALL = +svg.getAttribute(\"data-total\");\n"
	    "var frames = Array.prototype.slice.call("
	    "document.querySelectorAll(\"g.f\"));\n"
	    "var details = document.getElementById(\"details\");\n"
	    "var matched = document.getElementById(\"matched\");\n"
	    "var unzoom = document.getElementById(\"unzoom\");\n"
	    "function fx(g) { return +g.getAttribute(\"data-x\"); }\n"
	    "function fw(g) { return +g.getAttribute(\"data-w\"); }\n"
	    "function fd(g) { return +g.getAttribute(\"data-d\"); }\n"
	    "function name(g) { return g.getAttribute(\"data-n\"); }\n"
	    "/* Fit a frame's label to its width, about 7 px a character. */\n"
	    "function fit(g, w) {\n"
	    "  var t = g.querySelector(\"text\"), n = name(g);\n"
	    "  var k = Math.floor((w - 6) / 7);\n"
	    "  t.textContent = k < 3 ? \"\" : n.length <= k ? n :"
	    " n.substring(0, k - 2) + \"..\";\n"
	    "}\n"
	    "/* Show frames as if [x0, x0 + w0) were the whole width. */\n"
	    "function show(x0, w0, d0) {\n"
	    "  var scale = (W - 2 * PAD) / w0;\n"
	    "  frames.forEach(function (g) {\n"
	    "    var x = fx(g), w = fw(g), r = g.querySelector(\"rect\");\n"
	    "    var inside = x >= x0 && x + w <= x0 + w0 && fd(g) >= d0;\n"
	    "    var below = fd(g) < d0 && x <= x0 && x + w >= x0 + w0;\n"
	    "    if (!inside && !below) { g.style.display = \"none\"; return; }\n"
	    "    g.style.display = \"\";\n"
	    "    var nx = below ? PAD : PAD + (x - x0) * scale;\n"
	    "    var nw = below ? W - 2 * PAD : w * scale;\n"
	    "    r.setAttribute(\"x\", nx); r.setAttribute(\"width\", nw);\n"
	    "    g.querySelector(\"text\").setAttribute(\"x\", nx + 3);\n"
	    "    fit(g, nw);\n"
	    "  });\n"
	    "  unzoom.style.opacity = w0 < ALL ? \"1\" : \"0.3\";\n"
	    "}\n"
	    "frames.forEach(function (g) {\n"
	    "  g.addEventListener(\"click\", function () {"
	    " show(fx(g), fw(g), fd(g)); });\n"
	    "  g.addEventListener(\"mouseover\", function () {\n"
	    "    details.textContent = g.querySelector(\"title\")"
	    ".textContent; });\n"
	    "  g.addEventListener(\"mouseout\", function () {"
	    " details.textContent = \" \"; });\n"
	    "});\n"
	    "unzoom.addEventListener(\"click\", function () {"
	    " show(0, ALL, 0); });\n"
	    "/* Highlight the frames a pattern matches; their share, once. */\n"
	    "function search(p) {\n"
	    "  var re, spans = [], sum = 0;\n"
	    "  try { re = new RegExp(p); } catch (e) { return; }\n"
	    "  frames.forEach(function (g) {\n"
	    "    var r = g.querySelector(\"rect\");\n"
	    "    if (!r.hasAttribute(\"data-fill\"))"
	    " r.setAttribute(\"data-fill\", r.getAttribute(\"fill\"));\n"
	    "    if (p !== \"\" && re.test(name(g))) {\n"
	    "      r.setAttribute(\"fill\", \"rgb(230,0,230)\");\n"
	    "      spans.push([fx(g), fx(g) + fw(g)]);\n"
	    "    } else r.setAttribute(\"fill\", r.getAttribute(\"data-fill\"));\n"
	    "  });\n"
	    "  spans.sort(function (a, b) { return a[0] - b[0] || b[1] - a[1];"
	    " });\n"
	    "  var end = -1;\n"
	    "  spans.forEach(function (s) {\n"
	    "    if (s[0] >= end) { sum += s[1] - s[0]; end = s[1]; }\n"
	    "    else if (s[1] > end) { sum += s[1] - end; end = s[1]; }\n"
	    "  });\n"
	    "  matched.textContent = p === \"\" ? \" \" : \"Matched: \" +"
	    " (100 * sum / ALL).toFixed(2) + \"%\";\n"
	    "}\n"
	    "document.getElementById(\"search\").addEventListener(\"click\","
	    " function () {\n"
	    "  var p = window.prompt(\"Highlight the frames matching "
	    "(regular expression):\", \"\");\n"
	    "  if (p !== null) search(p);\n"
	    "});\n"
	    "show(0, ALL, 0);\n"
	    "]]></script>\n", out);
}

/* Print the flame graph of sel as one SVG document.  Return 0. */
int
report_svg(FILE *out, const struct selection *sel)
{
	const struct flamesel	*s = sel->flame;
	const struct profile	*p = sel->p;
	const struct frame	*f;
	uint64_t		 all = s->frames[0].total, old;
	double			 scale, w, x, y, maxd = 0, d;
	unsigned		 height;
	size_t			 i;
	int			 diff = sel->d != NULL, ev;
	char			 num[32];

	ev = sel->nsort > 0 ? sel->sort[0] : 0;
	height = SVG_TOP + (s->depth + 1) * SVG_FRAME + SVG_BOTTOM;
	scale = all > 0 ? (SVG_WIDTH - 2.0 * SVG_PAD) / (double)all : 0;
	for (i = 0; diff && i < s->nframes; i++) {
		d = (double)s->frames[i].total -
		    (double)flamesel_old_total(s, (uint32_t)i);
		if ((d < 0 ? -d : d) > maxd)
			maxd = d < 0 ? -d : d;
	}
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
	    "width=\"%d\" height=\"%u\" viewBox=\"0 0 %d %u\" "
	    "data-width=\"%d\" data-total=\"%llu\" "
	    "font-family=\"Verdana, Helvetica, sans-serif\" font-size=\"12\">\n",
	    SVG_WIDTH, height, SVG_WIDTH, height, SVG_WIDTH,
	    (unsigned long long)(all > 0 ? all : 1));
	fputs("<title>", out);
	svg_heading(out, p, ev, diff);
	if (!s->exact)
		fputs(" (stacks estimated from the call graph)", out);
	fputs("</title>\n", out);
	fprintf(out, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%u\" "
	    "fill=\"rgb(250,250,245)\"/>\n", SVG_WIDTH, height);
	/* Between the buttons: cut, whole in its tooltip. */
	fprintf(out, "<text x=\"%d\" y=\"22\" text-anchor=\"middle\" "
	    "font-size=\"17\"><title>", SVG_WIDTH / 2);
	svg_heading(out, p, ev, diff);
	fputs("</title>", out);
	svg_heading_cut(out, p, ev, diff);
	fputs("</text>\n", out);
	fprintf(out, "<text x=\"%d\" y=\"40\" text-anchor=\"middle\" "
	    "fill=\"rgb(90,90,90)\">", SVG_WIDTH / 2);
	if (diff)
		fputs("widths: NEW; red: grew since OLD, blue: shrank; ", out);
	fputs(s->exact ? "stacks as recorded" : "stacks estimated from the "
	    "call graph (each function's cost spread over its callers)", out);
	if (!diff)
		fputs("; warm: the program, blue: libraries, grey: system",
		    out);
	fputs("</text>\n", out);
	fprintf(out, "<text id=\"unzoom\" x=\"%d\" y=\"22\" "
	    "style=\"cursor:pointer\" opacity=\"0.3\">Reset zoom</text>\n"
	    "<text id=\"search\" x=\"%d\" y=\"22\" text-anchor=\"end\" "
	    "style=\"cursor:pointer\">Search</text>\n"
	    "<text id=\"matched\" x=\"%d\" y=\"%u\" text-anchor=\"end\"> "
	    "</text>\n<text id=\"details\" x=\"%d\" y=\"%u\"> </text>\n",
	    SVG_PAD, SVG_WIDTH - SVG_PAD, SVG_WIDTH - SVG_PAD, height - 10,
	    SVG_PAD, height - 10);
	for (i = 0; i < s->nframes; i++) {
		f = &s->frames[i];
		w = (double)f->total * scale;
		if (w < SVG_MIN && i != 0)
			continue;
		x = SVG_PAD + (double)f->x * scale;
		y = height - SVG_BOTTOM - (f->depth + 1) * SVG_FRAME;
		fprintf(out, "<g class=\"f\" style=\"cursor:pointer\" "
		    "data-x=\"%llu\" data-w=\"%llu\" data-d=\"%u\" data-n=\"",
		    (unsigned long long)f->x, (unsigned long long)f->total,
		    f->depth);
		utf8_xml(out, flamesel_name(s, f->name));
		fputs("\"><title>", out);
		utf8_xml(out, flamesel_name(s, f->name));
		num_commify(f->total, num);
		fprintf(out, ": %s (%.2f%% of all", num, all > 0 ? 100.0 *
		    (double)f->total / (double)all : 0.0);
		if (diff) {
			old = flamesel_old_total(s, (uint32_t)i);
			num_commify(old, num);
			fprintf(out, "; OLD %s, ", num);
			num_commify(f->total > old ? f->total - old :
			    old - f->total, num);
			fprintf(out, "%s%s", f->total < old ? "-" : "+", num);
		}
		fprintf(out, ")</title><rect x=\"%.2f\" y=\"%.1f\" "
		    "width=\"%.2f\" height=\"%d\" rx=\"2\" fill=\"", x, y, w,
		    SVG_FRAME - 1);
		svg_fill(out, s, (uint32_t)i, diff, maxd);
		fprintf(out, "\"/><text x=\"%.2f\" y=\"%.1f\">", x + 3,
		    y + SVG_FRAME - 4.5);
		svg_label(out, flamesel_name(s, f->name), w);
		fputs("</text></g>\n", out);
	}
	svg_script(out);
	fputs("</svg>\n", out);
	return 0;
}
