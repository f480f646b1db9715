// SPDX-License-Identifier: GPL-2.0
/*
 * pm-async-advise: export the rebuilt graph in the pm_async_test lab
 * topology format (Documentation/power/pm-async-lab.rst) and read such a
 * topology back (for --topology and the round-trip test).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lineread.h"
#include "pmadv.h"
#include "topo.h"

/*
 * The lab creates a device without a parent directly in /sys/devices, where
 * the guest's own top-level devices live (platform, pci0000:00, pnp0,
 * LNXSYSTM:00...): a machine's root devices get this prefix in the profile.
 */
#define LAB_TOP_PREFIX "top-"

/*
 * out[i]: lab name of device i: [A-Za-z0-9_.:-], <= 31 chars, unique;
 * devices without a parent start with LAB_TOP_PREFIX.
 */
void sanitize_names(const struct graph *g, char **out)
{
	struct strmap used;
	int i;

	strmap_init(&used);
	for (i = 0; i < g->n; i++) {
		char base[LAB_NAME_MAX + 1], cand[LAB_NAME_MAX + 1];
		const char *s = g->d[i].name;
		int k = 0, dup;

		if (g->d[i].parent < 0) {
			strcpy(base, LAB_TOP_PREFIX);
			k = (int)strlen(LAB_TOP_PREFIX);
		}
		for (; *s && k < LAB_NAME_MAX; s++)
			base[k++] = lab_name_char((unsigned char)*s) ? *s : '_';
		base[k] = 0;
		if (!k)
			snprintf(base, sizeof(base), "dev");
		snprintf(cand, sizeof(cand), "%s", base);
		for (dup = 2; strmap_get(&used, cand, -1) >= 0; dup++) {
			char suf[16];
			int sl = snprintf(suf, sizeof(suf), "-%d", dup);
			int bl = (int)strlen(base);

			if (bl + sl > LAB_NAME_MAX)
				bl = LAB_NAME_MAX - sl;
			snprintf(cand, sizeof(cand), "%.*s%s", bl, base, suf);
		}
		strmap_set(&used, cand, i);
		out[i] = xstrdup(cand);
	}
	strmap_free(&used);
}

static long scaled(double us, double scale)
{
	double v = us * scale;

	return v > 0 ? lround(v) : 0;
}

int profile_write(const struct graph *g, FILE *f, double scale,
		  const char *source)
{
	char **nm = xcalloc((size_t)g->n + 1, sizeof(char *));
	int k, i;

	sanitize_names(g, nm);
	fprintf(f, "# pm_async_test topology written by pm-async-advise %s\n",
		PMADV_VERSION);
	fprintf(f, "# source: %s; %d devices; callback times in us scaled by %g\n",
		source ? source : "-", g->n, scale);
	fprintf(f,
		"# async= is the flag seen in the log; devices seen only as parents: async=1, 0 us\n");
	fprintf(f,
		"# devices without a parent are named %sNAME (the guest has its own platform, pci0000:00...)\n",
		LAB_TOP_PREFIX);
	/* resume walk order: parents and suppliers first */
	for (k = 0; k < g->n; k++) {
		const struct dev *d;

		i = g->topo[PH_RESUME][k];
		d = &g->d[i];
		fprintf(f, "%s", nm[i]);
		if (d->parent >= 0)
			fprintf(f, " parent=%s", nm[d->parent]);
		fprintf(f,
			" async=%d suspend=%ld resume=%ld suspend_late=%ld resume_early=%ld suspend_noirq=%ld resume_noirq=%ld",
			d->async ? 1 : 0,
			scaled(d->dur[PH_SUSPEND], scale),
			scaled(d->dur[PH_RESUME], scale),
			scaled(d->dur[PH_SUSPEND_LATE], scale),
			scaled(d->dur[PH_RESUME_EARLY], scale),
			scaled(d->dur[PH_SUSPEND_NOIRQ], scale),
			scaled(d->dur[PH_RESUME_NOIRQ], scale));
		if (d->nsup) {
			int j, first = 1;

			/* the lab waits on its links: only those the kernel waits on */
			for (j = 0; j < d->nsup; j++) {
				if (d->supfl[j])
					continue;
				fprintf(f, "%s%s", first ? " suppliers=" : ",",
					nm[d->sup[j]]);
				first = 0;
			}
		}
		fputc('\n', f);
	}
	for (i = 0; i < g->n; i++)
		free(nm[i]);
	free(nm);
	return ferror(f) ? -1 : 0;
}

/*
 * Read a lab topology.  Every device has every callback (the lab's devices
 * do), the list order is the file order: resume phases walk it forward,
 * suspend phases backwards.
 */
int graph_from_topology(struct graph *g, FILE *f, const char *name,
			char *err, size_t errlen)
{
	struct line_reader lr;
	int lineno = 0, i, ph, rc = 0, lrc;
	char **supl = NULL;
	int *supline = NULL, nsupl = 0, capsupl = 0, capline = 0;

	lr_init(&lr, f, LINE_MAX_BYTES);
	while ((lrc = lr_next(&lr)) > 0) {
		struct topo_dev t;
		char terr[128];
		int di, r;

		lineno++;
		if (lrc == LR_TOO_LONG) {
			snprintf(err, errlen, "%s:%d: longer than %d bytes",
				 name, lineno, LINE_MAX_BYTES);
			rc = -1;
			break;
		}
		r = topo_parse(lr.line, &t, terr, sizeof(terr));
		if (!r)
			continue;
		if (r < 0) {
			snprintf(err, errlen, "%s:%d: %s", name, lineno, terr);
			rc = -1;
			break;
		}
		/* fail=: failure injection, not modelled; pm=0|late: neither */
		if (t.pm != TOPO_PM_ON) {
			snprintf(err, errlen,
				 "%s:%d: pm=%s: only devices that take part in PM (pm=1) are modelled",
				 name, lineno,
				 t.pm == TOPO_PM_OFF ? "0" : "late");
			rc = -1;
			break;
		}
		if (graph_find(g, t.name) >= 0) {
			snprintf(err, errlen, "%s:%d: duplicate name '%s'", name,
				 lineno, t.name);
			rc = -1;
			break;
		}
		if (t.parent && graph_find(g, t.parent) < 0) {
			snprintf(err, errlen, "%s:%d: unknown parent '%s'", name,
				 lineno, t.parent);
			rc = -1;
			break;
		}
		di = graph_add_dev(g, t.name, "", t.parent);
		g->d[di].parent = t.parent ? graph_find(g, t.parent) : -1;
		g->d[di].async = t.async;
		for (ph = 0; ph < NPHASES; ph++) {
			g->d[di].dur[ph] = (double)t.us[ph];
			g->d[di].has_cb[ph] = 1;
			g->has_phase[ph] = 1;
		}
		if (t.suppliers) {
			GROW(supl, nsupl, capsupl);
			if (capline < capsupl) {
				supline = xrealloc(supline, sizeof(int) * (size_t)capsupl);
				capline = capsupl;
			}
			supl[nsupl] = xasprintf("%d %s", di, t.suppliers);
			supline[nsupl++] = lineno;
		}
	}
	if (!rc && lrc == LR_ERROR) {
		snprintf(err, errlen, "%s: read error after line %d", name,
			 lineno);
		rc = -1;
	}
	lr_free(&lr);
	if (!rc && !g->n) {
		snprintf(err, errlen, "%s: no devices", name);
		rc = -1;
	}
	if (!rc) {
		for (i = 0; i < g->n; i++) {
			for (ph = 0; ph < NPHASES; ph++)
				g->d[i].order[ph] = phase_is_suspend(ph) ?
					g->n - 1 - i : i;
		}
		graph_resolve(g);
		/* suppliers must already exist, like the lab requires */
		for (i = 0; i < nsupl && !rc; i++) {
			int di, r;
			char *s, *save = NULL, *tok;

			di = (int)strtol(supl[i], &s, 10);
			s = trim(s);
			for (tok = strtok_r(s, ",", &save); tok;
			     tok = strtok_r(NULL, ",", &save)) {
				int si = graph_find(g, tok);

				if (si < 0 || si >= di) {
					snprintf(err, errlen, "%s:%d: unknown supplier '%s'",
						 name, supline[i], tok);
					rc = -1;
					break;
				}
				r = graph_add_link(g, di, si);
				if (r < 0) {
					snprintf(err, errlen, "%s:%d: link cycle with '%s'",
						 name, supline[i], tok);
					rc = -1;
					break;
				}
			}
		}
		g->links_given = 1;
	}
	for (i = 0; i < nsupl; i++)
		free(supl[i]);
	free(supl);
	free(supline);
	if (!rc)
		graph_finalize(g);
	return rc;
}
