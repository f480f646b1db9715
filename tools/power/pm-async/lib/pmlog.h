/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A machine's kernel log of suspend/resume cycles (pm_print_times and
 * pm_debug_messages lines in dmesg, "dmesg -x", "journalctl -o json"
 * or a PM ftrace), parsed into callback records, phase boundaries,
 * failures and problems.  One parser, used by pm-async-advise (the
 * device graph and its predictions) and pm-async-report (timelines and
 * statistics of the user's own machine); see lib/pmlog.c.
 */
#ifndef PM_ASYNC_PMLOG_H
#define PM_ASYNC_PMLOG_H

#include <stdio.h>

#include "xalloc.h"

/* The six device phases, in the order they run in one cycle. */
enum {
	PH_SUSPEND,
	PH_SUSPEND_LATE,
	PH_SUSPEND_NOIRQ,
	PH_RESUME_NOIRQ,
	PH_RESUME_EARLY,
	PH_RESUME,
	NPHASES
};

/* Pseudo phases (never simulated). */
#define PH_NONE     (-1)	/* not assigned yet */
#define PH_PREPARE  (-2)	/* dpm_prepare ("start ... of devices") */
#define PH_END      (-3)	/* "end suspend of devices": a sum, not a phase */
#define PH_COMPLETE (-4)	/* dpm_complete */

static inline int phase_is_suspend(int ph)
{
	return ph >= PH_SUSPEND && ph <= PH_SUSPEND_NOIRQ;
}

/*
 * The callback families of dev_pm_ops a transition's side runs:
 * suspend/resume, freeze/thaw or poweroff/restore.
 */
enum pm_family { FAM_SUSPEND, FAM_FREEZE, FAM_POWEROFF, NFAM };

extern const char *const phase_key[NPHASES];	/* "suspend" ... "resume" */
const char *phase_name(int fam, int ph);	/* "freeze_late"; fam < 0: suspend */
int phase_lookup(const char *name, int *fam, int *ph);
int phase_from_key(const char *key);	/* phase_key[] index, -1 */
int pm_verb_lookup(const char *verb, int *fam, int *resume);

enum { FMT_OLD = 1, FMT_NEW = 2, FMT_FTRACE = 4, FMT_JOURNAL = 8 };

struct cbrec {			/* one callback: calling + returned */
	char *dev;		/* dev_name() */
	char *driver;		/* dev_driver_string(), "" if not printed */
	char *parent;		/* parent name, NULL for "none" / unknown */
	char *cb;		/* callback symbol or ftrace info, may be NULL */
	int pid;		/* task that ran it, -1 unknown */
	int err;
	double dur_us;		/* as printed (dmesg) or end-start (ftrace); NAN */
	double ts_call, ts_ret;	/* seconds, NAN if unknown */
	int line_call, line_ret;	/* 1-based, 0 if missing */
	int phase, cycle;
};

struct boundary {		/* "PM: [late ]suspend of devices complete after X msecs" */
	int line, phase, cycle, aborted;
	double ms;
	char verb[16];
};

struct failure {		/* device failure lines */
	int line, phase, cycle, err;
	char *dev;		/* may be NULL */
	char *msg;
};

struct problem {		/* reported, never guessed */
	int line;
	const char *kind;
	char *dev;
};

struct devpath {		/* "input: NAME as /devices/..." lines */
	char *path;		/* the full path, from "/devices/" */
	int line;
};

struct pmlog {
	char *name;
	int format;		/* FMT_* bits */
	int nlines, used, skipped;
	int too_long;		/* lines over LINE_MAX_BYTES, not read */
	struct cbrec *cb;
	int ncb, capcb;
	struct boundary *bd;
	int nbd, capbd;
	struct failure *fail;
	int nfail, capfail;
	struct problem *prob;
	int nprob, capprob;
	int ncycles;
	int nprepare;		/* prepare/complete callbacks (ftrace), ignored */
	struct devpath *paths;	/* device paths the log prints */
	int npaths, cappaths;
	char release[64];	/* the kernel release the log names, or "" */
	int release_line;	/* where: its line, 0 if none */
	int release_pmgraph;	/* 1: a pm-graph header, 0: "Linux version" */
};

#define PARSE_OK      0
#define PARSE_NOPM    2		/* no usable PM lines (exit code 2) */
#define PARSE_IOERR   3

int pmlog_parse_dmesg(FILE *f, const char *name, struct pmlog *log,
		      char *err, size_t errlen);
int pmlog_parse_ftrace(FILE *f, const char *name, struct pmlog *log,
		       char *err, size_t errlen);
int pmlog_parse_file(const char *path, int want_ftrace, struct pmlog *log,
		     char *err, size_t errlen);
int pmlog_looks_like_ftrace(const char *path);
void pmlog_free(struct pmlog *log);
int parse_phase_words(const char *info, const char *verb);
int phase_of_boundary(const char *info, const char *verb, char *canon_verb,
		      size_t n);
#define PM_WORD_MAX 32
int pm_boundary_words(const char *m, char info[PM_WORD_MAX],
		      char verb[PM_WORD_MAX], double *ms, int *aborted);
/* observed ms of a phase in a cycle, NAN if absent; *aborted set if so */
double pmlog_observed(const struct pmlog *log, int cycle, int phase,
		      int *aborted);
int pmlog_cycle_failed(const struct pmlog *log, int cycle);
int pmlog_pm_task(const struct pmlog *log, int cycle, int *phase,
		  int *count, int *total);

/*
 * MAJOR and MINOR of a kernel release ("7.3.4-1-amd64"): 1 if @release
 * starts with them, else 0 (NULL included)
 */
int release_word(const char *p, char *rel, size_t n);
int release_version(const char *release, long *major, long *minor);

/*
 * duration unit detection (kernels before 5.14 printed ns >> 10 as
 * "usecs"); @release: the log's kernel release, NULL if unknown
 */
struct units {
	double scale;		/* multiply printed durations by this */
	double ratio;		/* median (ts_ret - ts_call) / printed, NAN */
	int samples;
	const char *why;
};

void detect_units(const struct pmlog *log, int cycle, const char *force,
		  const char *release, struct units *u);

#endif /* PM_ASYNC_PMLOG_H */
