/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pm-async-report: summarise pm_async_test lab cycles collected by the
 * QEMU harness (see Documentation/power/pm-async-lab.rst), or the cycles
 * of a machine's own kernel log.
 *
 * Data flow: parse.c turns "=== cycle" blocks, klog.c the cycles of a
 * kernel log (read by lib/pmlog.c) into struct cycle, graph.c
 * adds per-phase critical paths and lower bounds, summary.c groups cycles
 * into profiles and rows and computes statistics, and table.c, json.c and
 * svg.c print them; devstats.c gives the statistics per device and phase
 * and the comparison of two inputs.
 */
#ifndef PM_ASYNC_REPORT_H
#define PM_ASYNC_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "numarg.h"
#include "pmlog.h"
#include "quote.h"
#include "strmap.h"
#include "topo.h"
#include "xalloc.h"

/*
 * A transition has six measured phases ("slots", lib/pmlog.h's NPHASES):
 * three on the suspend side, three on the resume side, in the order they
 * run.  prepare and complete are not measured.
 */
#define SIDE_SUSPEND	0
#define SIDE_RESUME	1
#define slot_side(s)	((s) / 3)

/*
 * The callback names of a slot depend on the transition: a side uses one
 * family of dev_pm_ops callbacks (enum pm_family, lib/pmlog.h: a slot is
 * a PH_* phase), chosen by the first measured line of that side.
 */

#define DEFAULT_LIMIT	256	/* async workqueue concurrency in 6.12 */
#define AGGREGATE_MIN	200	/* SVG aggregates above this many devices */
#define REPORT_LINE_MAX	(1024 * 1024)	/* longest input line, bytes */

struct cb {
	int dev;
	int slot;
	int64_t start, end;	/* ns, ktime_get() */
	int cpu;
	int task;		/* ran in the PM task, not a worker */
	int pid;		/* of a machine's log, else -1 */
	int result;
	int line;
};

struct dev {
	char *name;
	int parent;		/* device index or -1 */
	int async;
	int no_pm;		/* pm=0: takes no part in PM, has no callbacks */
	int depth;		/* length of the parent chain */
	int *sup;		/* supplier device indices */
	int nsup;
	int cb[NPHASES];	/* index into cycle->cb or -1 */
};

struct kv {
	char *key;
	char *val;
};

struct cycle {
	const char *file;
	int line;		/* of the "=== cycle" header */
	struct kv *hdr;
	int nhdr;
	const char *kernel, *profile, *mode, *version, *transition;
	long number;
	int sync;		/* mode=sync: every device ran synchronously */
	int from_log;		/* a machine's kernel log (klog.c), not the lab */
	int skipped;		/* its callbacks without both timestamps */

	struct dev *dev;
	int ndev, capdev;
	struct strmap names;	/* device name -> index */
	struct cb *cb;
	int ncb, capcb;

	int fam[2];		/* family per side, -1 until known */
	double pm_ms[NPHASES];
	int have_pm[NPHASES];
	int pm_aborted[NPHASES];
	int violations;

	/* filled in by cycle_analyse() */
	int complete;
	double cp_ns[NPHASES];
	double total_ns[NPHASES];	/* callbacks counted against LIMIT */
	double bound_ns[NPHASES];
	int *chain[NPHASES];	/* critical path, device indices, in order */
	int nchain[NPHASES];
	double side_ms[2];
	double side_bound_ms[2];
	double ratio[2];	/* NAN when the bound is 0 */
};

struct input {
	struct cycle **cyc;
	int n, cap;
	int nlog;		/* cycles read from kernel logs */
};

/* util.c */
const char *cycle_phase_name(const struct cycle *c, int slot);
const char *hdr_get(const struct cycle *c, const char *key);
void hdr_fields(struct cycle *c);
int sel_valid(const char *sel);
int cycle_match(const struct cycle *c, const char *sel);
const char *kernel_label(const char *kernel);

/* parse.c */
#define PARSE_KERNEL_LOG	1	/* not lab cycles: a machine's kernel log */
int parse_file(struct input *in, const char *path, FILE *f,
	       char *err, size_t errlen);
int parse_pm_line(const char *line, int *fam, int *slot, double *ms,
		  int *aborted);
void input_free(struct input *in);
void cycle_free(struct cycle *c);

/* klog.c */
int klog_read(struct input *in, const char *path, FILE *f, const char *rel,
	      char *err, size_t errlen);

/* graph.c */
void cycle_analyse(struct cycle *c, int limit, FILE *warn);
void critical_path(struct cycle *c, int slot, int limit, FILE *warn);

/* summary.c */
struct stats {
	int n;
	double mean, sd, median, min, max;
};

struct row {
	char *mode, *kernel;
	int rank;
	struct cycle **cyc;	/* complete cycles only */
	int n, cap;
	int incomplete;
	int violations;
	char *versions;
	struct stats side[2], ratio[2], bound[2], phase[NPHASES];
	const char *phname[NPHASES];
};

struct profile {
	char *name;
	char *versions;
	struct row *row;
	int nrow, caprow;
	int ncycles, incomplete, violations;
	const struct row *bound_row;	/* row the bound line is taken from */
	const struct row *cp_row;
	const struct cycle *cp_cyc[2];	/* per side, for the CP chains */
	double over_stock[2];		/* patched/stock async, NAN if n/a */
	const struct cycle *first;
};

struct summary {
	struct profile *prof;
	int nprof, capprof;
	int limit;
	char *versions;
};

void stat_compute(struct stats *st, const double *v, int n);
void summarise(struct summary *s, struct cycle **cyc, int n, int limit);
void summary_free(struct summary *s);
char *row_label(const struct row *r, char *buf, size_t len);
const struct row *profile_row(const struct profile *p, const char *mode,
			      const char *kernel);

/* table.c */
void print_tables(FILE *out, const struct summary *s);
void fmt_ms(char *buf, size_t len, double v);

/* devstats.c: per device and phase over all complete cycles */
struct dstat {
	char *phase;		/* phase name ("suspend", "restore", ...) */
	char *name;		/* device name; NULL for a phase's total */
	char *parent;		/* parent name, "" if none */
	int shared;		/* another device of the phase has this name */
	double *v;		/* ms, one per cycle, sorted when done */
	int n, cap;
	double median, worst, best;
};

struct devstats {
	struct dstat *d;	/* device callbacks, slowest (worst) first */
	int n, cap;
	struct dstat *ph;	/* phase totals (the kernel's phase lines) */
	int nph, capph;
	int ncycles;		/* complete cycles counted */
	int incomplete;		/* not counted */
};

#define COMPARE_MOVED	3	/* exit status: a median moved */
#define DEFAULT_THRESHOLD_MS	10.0

void devstats_build(struct devstats *ds, struct cycle **cyc, int n);
void devstats_free(struct devstats *ds);
const char *dstat_label(const struct dstat *d, char *buf, size_t len);
void print_devstats(FILE *out, const struct devstats *ds, int top);
int dstat_moved(const struct dstat *a, const struct dstat *b, double thr);
const struct dstat *dstat_find(const struct devstats *ds,
			       const struct dstat *like);
int print_compare(FILE *out, const struct devstats *a, const char *alabel,
		  const struct devstats *b, const char *blabel, double thr);

/* json.c */
void print_json(FILE *out, const struct summary *s,
		const struct devstats *ds);
void print_compare_json(FILE *out, const struct devstats *a,
			const char *alabel, const struct devstats *b,
			const char *blabel, double thr);

/* svg.c */
void write_svg(FILE *out, const struct cycle *c, int aggregate);

#endif /* PM_ASYNC_REPORT_H */
