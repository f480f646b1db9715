// SPDX-License-Identifier: GPL-2.0
/*
 * SVG timeline of one cycle.
 *
 * Small cycles get one row per device (topology order, indented by depth)
 * and one bar per callback.  Large ones would be unreadable and huge that
 * way, so rows become groups of depth levels, each showing per phase the
 * span of its callbacks and how many ran at once; critical path callbacks
 * are still drawn one by one.
 *
 * The time axis is linear except that long idle gaps (pm_test waits
 * seconds between the two sides) are cut out and marked, so that the
 * phases themselves keep the width.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

#define PLOT_W		1000	/* px for the time axis */
#define ROW_H		14
#define BAR_H		10
#define AGG_ROW_H	36
#define TOP		84	/* title, phase names, time axis */
#define GAP_PX		24	/* width of a cut-out gap */
#define MIN_PHASE_PX	80
#define MAX_AGG_ROWS	100
#define BIN_PX		2	/* histogram resolution */
#define NBIN		(PLOT_W / BIN_PX)
#define MAX_CP_MARKS	300	/* per phase, aggregated mode */
#define STR_(x)		#x
#define STR(x)		STR_(x)

#define COL_ASYNC	"#4f8fd6"
#define COL_SYNC	"#f08a3c"
#define COL_CP		"#d40000"

/*
 * One segment per phase.  A phase narrower than MIN_PHASE_PX is widened
 * to it (and says so), so that the short noirq phases stay visible next
 * to a long suspend; long idle gaps between phases shrink to GAP_PX.
 */
struct axis {
	int64_t origin;		/* time 0: earliest measured START */
	double x0[NPHASES];	/* segment start, relative to the plot */
	double w[NPHASES];	/* segment width */
	double scale[NPHASES];	/* px per ns in the segment */
	int cut[NPHASES];	/* the gap before this phase is cut out */
	double zoom[NPHASES];	/* > 1 if widened */
};

struct svg {
	FILE *f;
	const struct cycle *c;
	struct axis ax;
	double left;		/* x where the plot starts */
	double row_h;
	int rows;
	int64_t ph0[NPHASES], ph1[NPHASES];
	int have[NPHASES];
	unsigned char *oncp;	/* per callback: on a critical path */
};

/*
 * Text and attribute values: the five XML specials as entities, control
 * characters but tab dropped (XML 1.0 forbids most of them), and U+FFFD
 * for bytes that are not UTF-8 (the file says encoding="UTF-8").
 */
static void xml_escape(FILE *f, const char *s)
{
	int len;

	for (; *s; s += len) {
		long cp = utf8_next(s, &len);

		switch (cp) {
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '&':
			fputs("&amp;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&apos;", f);
			break;
		case -1:
			fputs(UTF8_REPLACEMENT, f);
			break;
		default:
			if (cp == '\t' || !is_control(cp))
				fwrite(s, 1, (size_t)len, f);
		}
	}
}

static void phase_spans(struct svg *g)
{
	const struct cycle *c = g->c;
	int i;

	for (i = 0; i < c->ncb; i++) {
		const struct cb *cb = &c->cb[i];
		int s = cb->slot;

		if (!g->have[s] || cb->start < g->ph0[s])
			g->ph0[s] = cb->start;
		if (!g->have[s] || cb->end > g->ph1[s])
			g->ph1[s] = cb->end;
		g->have[s] = 1;
	}
}

static double ph_dur(const struct svg *g, int s)
{
	return (double)(g->ph1[s] - g->ph0[s]);
}

/* Gap before phase @s: -1 if none (first phase), else ns >= 0. */
static double ph_gap(const struct svg *g, int s, int *prev)
{
	double gap;

	if (*prev < 0) {
		*prev = s;
		return -1;
	}
	gap = (double)(g->ph0[s] - g->ph1[*prev]);
	*prev = s;
	return gap > 0 ? gap : 0;
}

/*
 * px per ns such that everything fits in PLOT_W; phases below the
 * minimum width and cut gaps have fixed widths, the rest scales.
 */
static double fit_scale(struct svg *g, double active)
{
	double scale = PLOT_W / active;
	int iter, s;

	for (iter = 0; iter < 8; iter++) {
		double fixed = 0, var = 0, gap;
		int prev = -1;

		for (s = 0; s < NPHASES; s++) {
			if (!g->have[s])
				continue;
			gap = ph_gap(g, s, &prev);
			if (gap > active / 4)
				fixed += GAP_PX;
			else if (gap > 0)
				var += gap;
			if (ph_dur(g, s) * scale < MIN_PHASE_PX)
				fixed += MIN_PHASE_PX;
			else
				var += ph_dur(g, s);
		}
		if (var <= 0 || fixed >= PLOT_W)
			return scale;
		scale = (PLOT_W - fixed) / var;
	}
	return scale;
}

static void build_axis(struct svg *g)
{
	struct axis *ax = &g->ax;
	double active = 0, scale, x = 0, gap;
	int s, prev = -1;

	for (s = 0; s < NPHASES; s++)
		if (g->have[s])
			active += ph_dur(g, s);
	if (active <= 0)
		active = 1;
	scale = fit_scale(g, active);
	for (s = 0; s < NPHASES; s++) {
		if (!g->have[s])
			continue;
		gap = ph_gap(g, s, &prev);
		if (gap < 0)
			ax->origin = g->ph0[s];
		ax->cut[s] = gap > active / 4;
		x += ax->cut[s] ? GAP_PX : gap > 0 ? gap * scale : 0;
		ax->x0[s] = x;
		ax->w[s] = fmax(ph_dur(g, s) * scale, MIN_PHASE_PX);
		ax->scale[s] = ph_dur(g, s) > 0 ? ax->w[s] / ph_dur(g, s) : 0;
		ax->zoom[s] = ax->scale[s] / scale;
		x += ax->w[s];
	}
}

/* x of time @t within phase @s (callbacks lie within their phase). */
static double tx(const struct svg *g, int s, int64_t t)
{
	const struct axis *ax = &g->ax;

	if (!g->have[s])
		return g->left;
	if (t < g->ph0[s])
		t = g->ph0[s];
	if (t > g->ph1[s])
		t = g->ph1[s];
	return g->left + ax->x0[s] + (double)(t - g->ph0[s]) * ax->scale[s];
}

static double nice_step(double raw)
{
	double p = pow(10, floor(log10(raw))), m = raw / p;

	return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

static void draw_gap(struct svg *g, int s, int prev, double bottom)
{
	double x = g->left + g->ax.x0[s] - GAP_PX;
	char ms[32];

	fmt_ms(ms, sizeof(ms), (double)(g->ph0[s] - g->ph1[prev]) / 1e6);
	fprintf(g->f,
		"<rect x=\"%.1f\" y=\"%d\" width=\"%d\" height=\"%.1f\" fill=\"#e4e4e4\"><title>%s ms without callbacks, not to scale</title></rect>\n",
		x + 4, TOP - 14, GAP_PX - 8, bottom - TOP + 14, ms);
	fprintf(g->f,
		"<text x=\"%.1f\" y=\"%d\" font-size=\"10\" text-anchor=\"middle\">//</text>\n",
		x + GAP_PX / 2.0, TOP - 4);
}

/* ms ticks per phase segment, labelled with the time since time 0. */
static void draw_ticks(struct svg *g, int s, double *last)
{
	const struct axis *ax = &g->ax;
	double a = (double)(g->ph0[s] - ax->origin);
	double b = (double)(g->ph1[s] - ax->origin);
	double step, k;

	if (b <= a)
		return;
	step = nice_step((b - a) / fmax(1, ax->w[s] / 90));
	for (k = ceil(a / step); k * step <= b; k++) {
		double x = tx(g, s, ax->origin + (int64_t)(k * step));

		fprintf(g->f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>\n",
			x, TOP - 6, x, TOP);
		if (x - *last < 45)
			continue;
		fprintf(g->f,
			"<text x=\"%.1f\" y=\"%d\" stroke=\"none\" text-anchor=\"middle\">%.6g ms</text>\n",
			x, TOP - 8, k * step / 1e6);
		*last = x;
	}
}

static void draw_axis(struct svg *g, double bottom)
{
	double last = -1e9;
	int s, prev = -1;

	fprintf(g->f, "<g stroke=\"#999999\" font-size=\"9\">\n");
	fprintf(g->f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>\n",
		g->left, TOP, g->left + PLOT_W, TOP);
	for (s = 0; s < NPHASES; s++) {
		if (!g->have[s])
			continue;
		if (prev >= 0 && g->ax.cut[s])
			draw_gap(g, s, prev, bottom);
		draw_ticks(g, s, &last);
		prev = s;
	}
	fprintf(g->f, "</g>\n");
}

/* A dashed line where each phase starts, names staggered on two lines. */
static void draw_phase_lines(struct svg *g, double bottom)
{
	int s;

	for (s = 0; s < NPHASES; s++) {
		double x;

		if (!g->have[s])
			continue;
		x = tx(g, s, g->ph0[s]);
		fprintf(g->f,
			"<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#555555\" stroke-dasharray=\"4,3\"/>\n",
			x, TOP - 44 + 12 * (s % 2), x, bottom);
		fprintf(g->f, "<text x=\"%.1f\" y=\"%d\" font-size=\"10\" fill=\"#333333\">%s",
			x + 2, TOP - 36 + 12 * (s % 2),
			cycle_phase_name(g->c, s));
		if (g->ax.zoom[s] > 1.05)
			fprintf(g->f, " (x%.0f)", g->ax.zoom[s]);
		fputs("</text>\n", g->f);
	}
}

static void draw_title(struct svg *g)
{
	const struct cycle *c = g->c;
	char a[32], b[32], d[32], e[32];

	fprintf(g->f,
		"<text x=\"10\" y=\"18\" font-size=\"14\" font-weight=\"bold\">pm-async timeline: ");
	xml_escape(g->f, kernel_label(c->kernel));
	fputs(" / ", g->f);
	xml_escape(g->f, c->profile);
	fputs(" / ", g->f);
	xml_escape(g->f, c->mode);
	fprintf(g->f, " / cycle %ld</text>\n", c->number);
	fmt_ms(a, sizeof(a), c->side_ms[0]);
	fmt_ms(b, sizeof(b), c->side_bound_ms[0]);
	fmt_ms(d, sizeof(d), c->side_ms[1]);
	fmt_ms(e, sizeof(e), c->side_bound_ms[1]);
	fprintf(g->f, "<text x=\"10\" y=\"34\" font-size=\"11\">version ");
	xml_escape(g->f, c->version ? c->version : "unknown");
	if (c->transition) {
		fputs(", transition ", g->f);
		xml_escape(g->f, c->transition);
	}
	fprintf(g->f, "; suspend %s ms (bound %s), resume %s ms (bound %s)%s</text>\n",
		a, b, d, e, c->complete ? "" : "; INCOMPLETE cycle");
}

/* Hatch patterns for callbacks that ran in the PM task. */
static void draw_pattern(FILE *f, const char *id, const char *light,
			 const char *dark)
{
	fprintf(f,
		"<pattern id=\"%s\" width=\"4\" height=\"4\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\"><rect width=\"4\" height=\"4\" fill=\"%s\"/><rect width=\"2\" height=\"4\" fill=\"%s\"/></pattern>\n",
		id, light, dark);
}

static void draw_defs(FILE *f)
{
	fprintf(f, "<defs>\n");
	draw_pattern(f, "task-async", "#b9d3f0", COL_ASYNC);
	draw_pattern(f, "task-sync", "#f9d2b3", COL_SYNC);
	fprintf(f, "</defs>\n");
}

static void legend_item(FILE *f, double x, double y, const char *attrs,
			const char *text)
{
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"18\" height=\"%d\" %s/>\n",
		x, y, BAR_H, attrs);
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\">%s</text>\n",
		x + 22, y + 9, text);
}

static int cp_truncated(const struct cycle *c, int aggregate)
{
	int s;

	for (s = 0; aggregate && s < NPHASES; s++)
		if (c->nchain[s] > MAX_CP_MARKS)
			return 1;
	return 0;
}

static void draw_legend(struct svg *g, double y, int aggregate)
{
	FILE *f = g->f;
	double x = 10;

	legend_item(f, x, y, "fill=\"" COL_ASYNC "\"", "async device, worker");
	legend_item(f, x += 150, y, "fill=\"" COL_SYNC "\"", "sync device");
	legend_item(f, x += 110, y, "fill=\"url(#task-async)\"",
		    "ran in the PM task (hatched)");
	legend_item(f, x += 190, y, aggregate ? "fill=\"" COL_CP "\"" :
		    "fill=\"none\" stroke=\"" COL_CP "\" stroke-width=\"2\"",
		    "critical path");
	if (aggregate) {
		legend_item(f, x += 110, y, "fill=\"#dde6f0\"",
			    "phase span of the group");
		legend_item(f, x += 160, y, "fill=\"#5a6f8a\"",
			    "callbacks running at once (log scale)");
	}
	fprintf(f,
		"<text x=\"10\" y=\"%.1f\" font-size=\"10\" fill=\"#555555\">time 0 = first measured callback; (xN): phase widened N times; "
		"mode=sync cycles count every device as sync%s</text>\n",
		y + 26, cp_truncated(g->c, aggregate) ?
		"; critical path marks limited to " STR(MAX_CP_MARKS) " per phase" : "");
}

static int dev_async(const struct svg *g, int d)
{
	return !g->c->sync && g->c->dev[d].async;
}

static void cb_title(struct svg *g, const struct cb *cb)
{
	const struct cycle *c = g->c;

	fputs("<title>", g->f);
	xml_escape(g->f, c->dev[cb->dev].name);
	fprintf(g->f, " %s %.3f-%.3f ms (%.3f ms) %s %d %s result %d</title>",
		cycle_phase_name(c, cb->slot),
		(double)(cb->start - g->ax.origin) / 1e6,
		(double)(cb->end - g->ax.origin) / 1e6,
		(double)(cb->end - cb->start) / 1e6,
		cb->cpu < 0 ? "pid" : "cpu", cb->cpu < 0 ? cb->pid : cb->cpu,
		cb->task ? "task" : "worker", cb->result);
}

static void draw_cb(struct svg *g, int i, double y)
{
	const struct cb *cb = &g->c->cb[i];
	int async = dev_async(g, cb->dev);
	double x0 = tx(g, cb->slot, cb->start);
	double x1 = tx(g, cb->slot, cb->end);
	const char *fill;

	if (cb->task)
		fill = async ? "url(#task-async)" : "url(#task-sync)";
	else
		fill = async ? COL_ASYNC : COL_SYNC;
	fprintf(g->f,
		"<rect class=\"cb\" x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%d\" fill=\"%s\"%s>",
		x0, y, fmax(x1 - x0, 0.5), BAR_H, fill,
		g->oncp[i] ? " stroke=\"" COL_CP "\" stroke-width=\"1.5\"" : "");
	cb_title(g, cb);
	fputs("</rect>\n", g->f);
}

static void draw_devices(struct svg *g)
{
	const struct cycle *c = g->c;
	int d, s;

	for (d = 0; d < c->ndev; d++) {
		double y = TOP + d * ROW_H;

		if (d % 2)
			fprintf(g->f,
				"<rect x=\"0\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" fill=\"#f4f4f4\"/>\n",
				y, g->left + PLOT_W, ROW_H);
		fprintf(g->f, "<text x=\"%d\" y=\"%.1f\" font-size=\"10\"%s>",
			6 + 10 * c->dev[d].depth, y + 10,
			dev_async(g, d) ? "" : " font-style=\"italic\"");
		xml_escape(g->f, c->dev[d].name);
		fputs("</text>\n", g->f);
		for (s = 0; s < NPHASES; s++)
			if (c->dev[d].cb[s] >= 0)
				draw_cb(g, c->dev[d].cb[s], y + 2);
	}
}

/* Aggregated mode: rows are runs of depth levels. */
struct group {
	int ndev;
	int dmin, dmax;
	int have[NPHASES];
	int64_t t0[NPHASES], t1[NPHASES];
	int hist[NBIN + 1];
	int max;
};

static int bin_of(const struct svg *g, double x)
{
	int b = (int)((x - g->left) / BIN_PX);

	return b < 0 ? 0 : b >= NBIN ? NBIN - 1 : b;
}

static void group_add_cb(struct svg *g, struct group *gr, const struct cb *cb)
{
	int s = cb->slot;

	if (!gr->have[s] || cb->start < gr->t0[s])
		gr->t0[s] = cb->start;
	if (!gr->have[s] || cb->end > gr->t1[s])
		gr->t1[s] = cb->end;
	gr->have[s] = 1;
	/* Difference array; summed up in fill_groups(). */
	gr->hist[bin_of(g, tx(g, s, cb->start))]++;
	gr->hist[bin_of(g, tx(g, s, cb->end)) + 1]--;
}

static struct group *fill_groups(struct svg *g, int per)
{
	const struct cycle *c = g->c;
	struct group *gr = xcalloc(g->rows, sizeof(*gr));
	int i, b;

	for (i = 0; i < g->rows; i++) {
		gr[i].dmin = i * per;
		gr[i].dmax = i * per + per - 1;
	}
	for (i = 0; i < c->ndev; i++)
		gr[c->dev[i].depth / per].ndev++;
	for (i = 0; i < c->ncb; i++)
		group_add_cb(g, &gr[c->dev[c->cb[i].dev].depth / per],
			     &c->cb[i]);
	for (i = 0; i < g->rows; i++) {
		for (b = 1; b < NBIN; b++)
			gr[i].hist[b] += gr[i].hist[b - 1];
		for (b = 0; b < NBIN; b++)
			if (gr[i].hist[b] > gr[i].max)
				gr[i].max = gr[i].hist[b];
	}
	return gr;
}

/*
 * Step outline of the concurrency histogram, only emitting changes.  Log
 * scale: a lone sync callback next to a burst of a thousand workers must
 * still show.
 */
static void draw_hist(struct svg *g, const struct group *gr, double y)
{
	double base = y + AGG_ROW_H - 3, h = AGG_ROW_H - 8;
	int b, prev = 0;

	if (!gr->max)
		return;
	fprintf(g->f, "<path fill=\"#5a6f8a\" fill-opacity=\"0.8\" d=\"M%.1f %.1f",
		g->left, base);
	for (b = 0; b < NBIN; b++) {
		if (gr->hist[b] == prev)
			continue;
		fprintf(g->f, "H%.1fV%.1f", g->left + b * BIN_PX,
			base - h * log1p(gr->hist[b]) / log1p(gr->max));
		prev = gr->hist[b];
	}
	fprintf(g->f, "H%.1fV%.1fZ\"/>\n", g->left + PLOT_W, base);
}

static void draw_group(struct svg *g, const struct group *gr, double y,
		       int odd)
{
	int s;

	if (odd)
		fprintf(g->f,
			"<rect x=\"0\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" fill=\"#f4f4f4\"/>\n",
			y, g->left + PLOT_W, AGG_ROW_H);
	if (gr->dmin == gr->dmax)
		fprintf(g->f, "<text x=\"6\" y=\"%.1f\" font-size=\"10\">depth %d</text>\n",
			y + 14, gr->dmin);
	else
		fprintf(g->f, "<text x=\"6\" y=\"%.1f\" font-size=\"10\">depth %d-%d</text>\n",
			y + 14, gr->dmin, gr->dmax);
	fprintf(g->f,
		"<text x=\"6\" y=\"%.1f\" font-size=\"9\" fill=\"#555555\">%d device%s, max %d at once</text>\n",
		y + 27, gr->ndev, gr->ndev == 1 ? "" : "s", gr->max);
	for (s = 0; s < NPHASES; s++) {
		double x0, x1;

		if (!gr->have[s])
			continue;
		x0 = tx(g, s, gr->t0[s]);
		x1 = tx(g, s, gr->t1[s]);
		fprintf(g->f,
			"<rect class=\"band\" x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%d\" fill=\"#dde6f0\"/>\n",
			x0, y + 2, fmax(x1 - x0, 0.5), AGG_ROW_H - 4);
	}
	draw_hist(g, gr, y);
}

/*
 * Critical path callbacks stay individual: a thin red bar at the top of
 * their group row, so the density below stays visible.
 */
static void draw_cp_marks(struct svg *g, int per)
{
	const struct cycle *c = g->c;
	int s, i;

	for (s = 0; s < NPHASES; s++) {
		for (i = 0; i < c->nchain[s] && i < MAX_CP_MARKS; i++) {
			const struct dev *d = &c->dev[c->chain[s][i]];
			const struct cb *cb = &c->cb[d->cb[s]];
			double x0 = tx(g, s, cb->start);
			double x1 = tx(g, s, cb->end);

			fprintf(g->f,
				"<rect class=\"cp\" x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"4\" fill=\"%s\">",
				x0, TOP + d->depth / per * AGG_ROW_H + 1.0,
				fmax(x1 - x0, 1), COL_CP);
			cb_title(g, cb);
			fputs("</rect>\n", g->f);
		}
	}
}

static void draw_aggregate(struct svg *g, int per)
{
	struct group *gr = fill_groups(g, per);
	int i;

	for (i = 0; i < g->rows; i++)
		draw_group(g, &gr[i], TOP + i * AGG_ROW_H, i % 2);
	draw_cp_marks(g, per);
	free(gr);
}

static void mark_cp(struct svg *g)
{
	const struct cycle *c = g->c;
	int s, i;

	g->oncp = xcalloc(c->ncb + 1, 1);
	for (s = 0; s < NPHASES; s++)
		for (i = 0; i < c->nchain[s]; i++)
			g->oncp[c->dev[c->chain[s][i]].cb[s]] = 1;
}

static double label_width(const struct cycle *c, int aggregate)
{
	double w = aggregate ? 175 : 150;
	int d;

	for (d = 0; !aggregate && d < c->ndev; d++) {
		double x = 16 + 10 * c->dev[d].depth +
			   6.2 * strlen(c->dev[d].name);
		if (x > w)
			w = x;
	}
	return w;
}

/*
 * Draw @c.  @aggregate: 1 forces the grouped view, 0 forces one row per
 * device, -1 picks by size.
 */
void write_svg(FILE *out, const struct cycle *c, int aggregate)
{
	struct svg g = { .f = out, .c = c };
	int maxdepth = 0, per = 1, d;
	double width, bottom;

	if (aggregate < 0)
		aggregate = c->ndev > AGGREGATE_MIN;
	for (d = 0; d < c->ndev; d++)
		if (c->dev[d].depth > maxdepth)
			maxdepth = c->dev[d].depth;
	if (aggregate) {
		per = (maxdepth + MAX_AGG_ROWS) / MAX_AGG_ROWS;
		g.rows = maxdepth / per + 1;
		g.row_h = AGG_ROW_H;
	} else {
		g.rows = c->ndev;
		g.row_h = ROW_H;
	}
	g.left = label_width(c, aggregate);
	width = g.left + PLOT_W + 20;
	bottom = TOP + g.rows * g.row_h;
	phase_spans(&g);
	build_axis(&g);
	mark_cp(&g);

	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" font-family=\"sans-serif\">\n",
		width, bottom + 50);
	draw_defs(out);
	fprintf(out, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
	draw_title(&g);
	if (aggregate)
		draw_aggregate(&g, per);
	else
		draw_devices(&g);
	draw_axis(&g, bottom);
	draw_phase_lines(&g, bottom);
	draw_legend(&g, bottom + 12, aggregate);
	fprintf(out, "</svg>\n");
	free(g.oncp);
}
