/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pm-async-advise: rebuild the device PM graph from a pm_print_times dmesg
 * (and optionally an ftrace), simulate suspend and resume fully sync, with
 * the async policy of Linux 6.12, with mainline's (since 6.16) and with
 * pm-async, and advise which devices to make async under the policy of the
 * kernel the log came from ("stock").
 *
 * Common declarations.  See README.rst in this directory for the model.
 */
#ifndef PMADV_H
#define PMADV_H

#include <stddef.h>
#include <stdio.h>

#define PMADV_VERSION "1.0"

/*
 * The log parser (lib/pmlog.c), the string map and the statistics are the
 * library's, shared with pm-async-report.
 */
#include "cpath.h"
#include "jsonw.h"
#include "pmlog.h"
#include "quote.h"
#include "stats.h"
#include "strmap.h"
#include "xalloc.h"

/* ------------------------------------------------------------ util.c */
__printf(1, 2) char *xasprintf(const char *fmt, ...);

/* ------------------------------------------------------------ graph.c */
struct dev {
	char *name, *driver, *parent_name;
	char *path;		/* full path ("/devices/..."), NULL if not known */
	int parent;		/* index or -1 */
	int placeholder;	/* seen only as a parent: no callbacks */
	int async;		/* 1 async, 0 sync */
	int mixed;		/* ran both in the PM task and elsewhere */
	int pid_unknown;
	int next_same_name;	/* chain of devices sharing a name, -1 */
	int next_same_key;	/* chain of those with its parent name too */
	int last_same_name;	/* first of a chain: its last, and */
	int same_count;		/* how many are in it */
	int last_same_key;	/* first of a key chain: its last */
	double dur[NPHASES];	/* us, scaled */
	int has_cb[NPHASES];
	int order[NPHASES];	/* log order inside the phase */
	int pid[NPHASES];
	int err[NPHASES];
	int line[NPHASES];
	int dur_missing[NPHASES];
	int *children, nchildren, capchildren;
	int *sup, nsup, capsup;	/* suppliers (device links) */
	int *con, ncon, capcon;	/* consumers */
	unsigned char *supfl, *confl;	/* LINK_* flags of each, same index */
};

struct note {			/* diagnostics collected while building */
	int line;
	char *text;
};

struct graph {
	struct dev *d;
	int n, cap;
	struct strmap byname;	/* name -> first device with that name */
	struct strmap bykey;	/* dev_key() -> first with name and parent */
	int pm_pid;
	int pm_pid_count, pm_pid_total, pm_pid_phase;
	int links_given, nlinks;
	int has_phase[NPHASES];
	int *listpos;		/* rebuilt dpm_list position, see graph.c */
	int *topo[NPHASES];	/* walk order (all devices), see graph.c */
	int topo_ok;
	/*
	 * Dependencies per side (0 = suspend, 1 = resume), CSR: a device
	 * waits for dep[i] and, when done, releases wait[i].  Suspend side:
	 * deps are children and consumers; resume side: parent and suppliers.
	 */
	int *dep_off[2], *dep_idx[2], *wait_off[2], *wait_idx[2];
	double scale;
	struct note *notes;
	int nnotes, capnotes;
	int ambiguous_parents;
	int path_parents;	/* parents found by a device path */
	/* UNC_* bits: why a phase's prediction is uncertain, 0 if it is not */
	unsigned int uncertain[NPHASES];
};

/* why a phase's prediction is uncertain (graph.uncertain[], analysis) */
#define UNC_AMBIGUOUS	1	/* a name resolved to two or more devices */
#define UNC_NOCB_PARENT	2	/* that gap at a child of a parent with no callback */
#define UNC_IDLE_GAP	4	/* the PM task idle before a sync callback, unmodelled */

/* device link flags (/sys/class/devlink/NAME/{sync_state_only,status}) */
#define LINK_SYNC_STATE_ONLY	1	/* not waited on (6.12 stable, mainline) */
#define LINK_DORMANT		2	/* not waited on, starts nothing */

void graph_init(struct graph *g);
void graph_free(struct graph *g);
int graph_add_dev(struct graph *g, const char *name, const char *driver,
		  const char *parent_name);
int graph_find(const struct graph *g, const char *name);
int graph_from_log(struct graph *g, const struct pmlog *log, int cycle,
		   double scale);
int graph_resolve(struct graph *g);	/* parents, children, sync/async */
int graph_add_link(struct graph *g, int consumer, int supplier);
int graph_add_link_flags(struct graph *g, int consumer, int supplier,
			 int flags);
int graph_read_links(struct graph *g, const char *path, char *err,
		     size_t errlen);
int graph_link_by_name(struct graph *g, const char *cons, const char *sup,
		       int flags, const char *where, int quiet);

/* ------------------------------------------------------------ sysfs.c */
/*
 * Device links of the running machine: ROOT/class/devlink/NAME/{supplier,
 * consumer} (symlinks to the devices), sync_state_only and status.
 * Returns the number of links read (>= 0) or -1 (err set) if the class
 * directory cannot be read; *skipped counts links naming devices the log
 * does not have.
 */
int graph_read_devlinks(struct graph *g, const char *root, int *skipped,
			char *err, size_t errlen);
/*
 * The kernel release a log came from: what its parse (@pl) found, a "Linux
 * version X" line or the pm-graph header "# suspend-... HOST MODE X", or
 * the "kernel X" line of pm-async-measure's run.txt in the directory of
 * @log (the path, "-" for stdin).  1 if found.
 */
int log_kernel_release(const struct pmlog *pl, const char *log, char *rel,
		       size_t n, char *from, size_t fn);
/*
 * DIR-of-log/NAME if it is a readable file, else NULL (static buffer);
 * links.txt is taken only from a pm-async-measure directory (run.txt)
 */
const char *beside_log(const char *log, const char *name);
void graph_note(struct graph *g, int line, const char *fmt, ...)
	__printf(3, 4);
/* the device of a full path ("/devices/.../NAME", or a sysfs link target), -1 */
int graph_find_path(const struct graph *g, const char *path, int *nmatch);
const char *dev_label(const struct graph *g, int i, char *buf, size_t n);
int graph_finalize(struct graph *g);	/* dependency lists + walk orders */
double graph_overhead_from_log(const struct graph *g, const struct pmlog *log,
			       int cycle, int *samples);
char *sysfs_path(const struct graph *g, int i, int *complete);

/* critical path over measured durations (parent + link edges), in us */
void cpath_phase(const struct graph *g, int ph, int limit, struct cpath *cp);

/* ------------------------------------------------------------ profile.c */
int profile_write(const struct graph *g, FILE *f, double scale,
		  const char *source);
int graph_from_topology(struct graph *g, FILE *f, const char *name,
			char *err, size_t errlen);
void sanitize_names(const struct graph *g, char **out);

/* ------------------------------------------------------------ sim.c */
/*
 * POL_612: Linux 6.12 (and before: 3.15 queued the same way).
 * POL_MAINLINE: since 6.16 (leaves/roots upfront, a finished device starts
 * its parent/suppliers or children/consumers).
 */
enum policy { POL_SYNC, POL_612, POL_MAINLINE, POL_PMASYNC, NPOLICIES };
extern const char *const policy_key[NPOLICIES];
extern const char *const policy_name[NPOLICIES];

/* the policy of a kernel release ("6.12.117-1", "3.15.0-latest") */
enum policy policy_of_release(const char *release, const char **why);

struct sim_params {
	int limit;		/* async concurrency slots, 256 in 6.12 */
	double overhead_us;	/* added to every callback */
	enum policy stock;	/* what "stock" means: POL_612 or POL_MAINLINE */
};

struct sim_out {
	double makespan_us;	/* NAN if the phase never ends (see stuck) */
	double *start, *end;	/* optional, size g->n, NAN if not run */
	double *ready;		/* optional: its dependencies done */
	double *reach;		/* optional: the PM task reached it */
	/*
	 * optional: the device whose end started it (the event handled at
	 * its start: a dependency, the PM task's previous device, a slot's
	 * previous worker), -1 if started at time 0; and qtrig, the device
	 * whose end queued it for a slot if none was free (-1 if it got one
	 * at once).  Following trig[] from the device that ends last gives
	 * the simulated schedule's critical path: back-to-back callbacks from
	 * 0 to the makespan; qtrig[] adds what set its order in the queue.
	 */
	int *trig, *qtrig;
	/*
	 * If the phase never ends: a device that waits for ever (in a slot:
	 * stuck_in_slot, or the PM task waits for it), one of its
	 * dependencies not done (-1 if none), and how many slots were free;
	 * else stuck = -1.
	 */
	int stuck, stuck_on, stuck_in_slot, stuck_slots;
};

double sim_phase(const struct graph *g, int ph, enum policy pol,
		 const unsigned char *async, const struct sim_params *p,
		 struct sim_out *out);

/* ------------------------------------------------------------ advice.c */
struct advice_item {
	int dev;
	int on_path;		/* on a critical path, else saves 0 */
	int simulated;		/* its saving was simulated, else 0 */
	double saving_us;
	double ph_saving_us[NPHASES];
	double side_saving_us[2];	/* suspend side, resume side */
};

struct advice {
	double base_us[NPHASES];	/* stock prediction (p->stock), current flags */
	struct advice_item *items;	/* ranked, every sync device */
	int nitems;
	int on_path;			/* items on a critical path */
	int simulated;			/* of those simulated */
	int cand_max;			/* devices simulated per step */
	int *best, nbest;		/* greedy set */
	double best_saving_us;
	double *best_cum_us;		/* cumulative saving after each pick */
	int max;
	double min_gain_us;
};

int advice_cand_max(const struct graph *g, int cand_max);
void advice_compute(const struct graph *g, const struct sim_params *p,
		    int max, double min_gain_us, int cand_max,
		    struct advice *a);
void advice_free(struct advice *a);

/* ------------------------------------------------------------ json.c */
#define JSON_NUM_FORMAT	"%.3f"	/* of every time in --json */

/* ------------------------------------------------------------ report.c */
struct analysis {
	const char *input;	/* dmesg path or NULL */
	const char *ftrace;	/* or NULL */
	const char *topology;	/* or NULL */
	const struct pmlog *cblog;	/* callbacks source */
	const struct pmlog *obslog;	/* observed times source */
	int cycle;		/* 0-based */
	struct graph *g;
	struct units units;
	struct sim_params sp;
	int overhead_samples;
	const char *overhead_why;
	double observed[NPHASES];	/* ms, NAN */
	int observed_aborted[NPHASES];
	double pred[NPHASES][NPOLICIES];	/* us */
	struct cpath cp[NPHASES];
	struct advice adv;
	int cand_max;		/* --candidates, 0 = default */
	int top;
	double min_gain_us;
	const char *profile_path;
	double profile_scale;
	const char *kernel;	/* release found for the log, or NULL */
	const char *kernel_from;	/* where it was found */
	const char *policy_why;	/* why sp.stock */
	const char *links_from;	/* where the device links came from, or NULL */
	/*
	 * A prediction that cannot be made (pred NAN: the phase never ends
	 * in the model): a device that waits for ever, one dependency it
	 * waits for (-1), the free slots; stuck -1 if the phase ends.
	 */
	int stuck[NPHASES][NPOLICIES], stuck_on[NPHASES][NPOLICIES];
	int stuck_slots[NPHASES][NPOLICIES], stuck_in_slot[NPHASES][NPOLICIES];
	/* the phases as the log names them (hibernation: freeze, ...) */
	char phase_name[NPHASES][24];
	char side_name[2][16];	/* suspend side, resume side */
	/*
	 * Per phase: UNC_* bits (graph.uncertain[] and the idle gaps found by
	 * analysis_run()), and the gaps: the sync device the PM task was idle
	 * before (-1 none), the idle time the model does not explain (us).
	 */
	unsigned int uncertain[NPHASES];
	int gap_dev[NPHASES], ngaps[NPHASES];
	double gap_us[NPHASES];
	int hibernation;	/* the cycle's phases are hibernation ones */
};

void analysis_run(struct analysis *a, int max);
void stuck_text(const struct analysis *a, int ph, int pol, char *buf,
		size_t n);
void phase_names(const struct pmlog *log, int cycle,
		 char names[NPHASES][24], char sides[2][16]);
int hibernation_verb(const char *verb);
/* why a phase's prediction is uncertain (a->uncertain[ph]), "" if it is not */
void uncertain_text(const struct analysis *a, int ph, char *buf, size_t n);
void report_text(FILE *f, const struct analysis *a);
void report_json(FILE *f, const struct analysis *a);
void analysis_free(struct analysis *a);

/* ------------------------------------------------------------ summarize.c */
int summarize_main(int argc, char **argv);

#endif
