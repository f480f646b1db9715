// SPDX-License-Identifier: GPL-2.0
/*
 * pm_async_test: a synthetic device lab for system sleep.
 *
 * Interface: Documentation/power/pm-async-lab.rst.
 */

/**
 * DOC: Theory of operation
 *
 * The module creates devices on its own bus, ``pm_async_test``, from a text
 * description written to debugfs.  Their device type carries &dev_pm_ops
 * for all twenty system sleep callbacks (the driver carries the same for
 * devices whose driver lets the PM core skip callbacks); every callback
 * goes through pat_callback(), which checks the ordering guarantees of the
 * PM core, runs the device's device_pm_wait_for_dev() calls, takes the
 * configured time and records when, where and in which thread it ran.
 * Devices may have a driver, links of every kind (stateless, managed,
 * SYNC_STATE_ONLY), direct_complete and DPM_FLAG_* flags, as real drivers
 * do; the checks accept what the PM core legitimately skips for them.
 *
 * Ordering is checked with one state word per device (&pat_dev.state): how
 * far the device went down (active, suspended, suspended_late,
 * suspended_noirq) and whether it is prepared.  A callback publishes the new
 * state with smp_store_release() after it has taken its end time; a callback
 * of another device reads it with smp_load_acquire() before it takes its
 * start time.  So when a dependency is seen as done, its end time precedes
 * the dependent's start time, and no lock is taken on the measured path.
 *
 * Everything else (the topology, the per-device lists used by the checks,
 * the records of the last transition) is only changed under &pat_lock while
 * no system transition is in progress.  The PM notifier sets
 * &pat_in_transition under the same lock at PM_SUSPEND_PREPARE or
 * PM_HIBERNATION_PREPARE, after resetting the records, and clears it at
 * PM_POST_SUSPEND or PM_POST_HIBERNATION; control files fail with -EBUSY in
 * between.  Callbacks only run between those two events, so they never race
 * with a change of the topology.
 *
 * The one exception is churn (the ``churn`` file): a kernel thread that is
 * not freezable removes one device, and may add another, or moves a device,
 * adds a link or deletes one, while the transition runs.  It leaves the
 * lists alone: it marks the device and its links &pat_dev.gone,
 * &pat_dev.moved and &pat_link.gone, which the checks skip, before it
 * changes them in the driver core, and the PM notifier updates the lists
 * under &pat_lock when the transition is over.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/debug_locks.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/hashtable.h>
#include <linux/jhash.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/math.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pm.h>
#include <linux/random.h>
#include <linux/pm_runtime.h>
#include <linux/sched.h>
#include <linux/sched/debug.h>
#include <linux/sched/signal.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sizes.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/stringhash.h>
#include <linux/suspend.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>

/* pm_async_enabled, the pm_async sysfs attribute (kernel/power/main.c). */
#include "../power/power.h"

#define PAT_NAME_MAX		31
#define PAT_HASH_BITS		12
#define PAT_MAX_VIOLATIONS	64
/* The report's format (Documentation/power/pm-async-lab.rst, "report"). */
#define PAT_REPORT_VERSION	2
#define PAT_VIOLATION_LEN	128
/* Longest callback time accepted, in microseconds (10 s). */
#define PAT_MAX_US		10000000U
/* Below this, usleep_range() is precise enough; above it msleep() is fine. */
#define PAT_USLEEP_MAX		20000U
/* Largest write(2) accepted by the topology file. */
#define PAT_WRITE_MAX		SZ_16M
/* Most device_pm_wait_for_dev() calls (``wait=``) of one device. */
#define PAT_MAX_WAITS		4
/* Latest transition a wait may start from (``wait=...+FROM``). */
#define PAT_MAX_FROM		1000000U
/* A per-callback time (``freeze=`` and the like) that was not given. */
#define PAT_US_UNSET		U32_MAX
/* Chunk of a busy-waited callback time (``busy=1``), in microseconds. */
#define PAT_BUSY_CHUNK_US	1000U

/* The dev_pm_ops callbacks in report order (the order of the interface). */
enum pat_cb {
	PAT_CB_PREPARE,
	PAT_CB_SUSPEND,
	PAT_CB_SUSPEND_LATE,
	PAT_CB_SUSPEND_NOIRQ,
	PAT_CB_RESUME_NOIRQ,
	PAT_CB_RESUME_EARLY,
	PAT_CB_RESUME,
	PAT_CB_COMPLETE,
	PAT_CB_FREEZE,
	PAT_CB_FREEZE_LATE,
	PAT_CB_FREEZE_NOIRQ,
	PAT_CB_THAW_NOIRQ,
	PAT_CB_THAW_EARLY,
	PAT_CB_THAW,
	PAT_CB_POWEROFF,
	PAT_CB_POWEROFF_LATE,
	PAT_CB_POWEROFF_NOIRQ,
	PAT_CB_RESTORE_NOIRQ,
	PAT_CB_RESTORE_EARLY,
	PAT_CB_RESTORE,
	PAT_NR_CBS
};

enum pat_kind {
	PAT_KIND_PREPARE,
	PAT_KIND_SUSPEND,
	PAT_KIND_RESUME,
	PAT_KIND_COMPLETE,
};

/* Per-device callback times, in the order of the topology keys. */
enum pat_time {
	PAT_T_SUSPEND,
	PAT_T_RESUME,
	PAT_T_SUSPEND_LATE,
	PAT_T_RESUME_EARLY,
	PAT_T_SUSPEND_NOIRQ,
	PAT_T_RESUME_NOIRQ,
	PAT_NR_TIMES
};

/*
 * Per-callback times of the hibernation callbacks (``freeze=`` to
 * ``restore=``), indexed by callback index - PAT_CB_FREEZE.
 */
#define PAT_NR_EV_TIMES		(PAT_CB_RESTORE - PAT_CB_FREEZE + 1)

/*
 * Device state word: the level the device went down to (0 active, 1
 * suspended, 2 suspended_late, 3 suspended_noirq) and a prepared flag.
 */
#define PAT_ST_LEVEL		0x3U
#define PAT_ST_PREPARED		0x4U

/**
 * struct pat_cb_desc - What a dev_pm_ops callback means to the lab.
 * @name: Name of the callback in &struct dev_pm_ops and in the report.
 * @kind: Prepare, suspend side, resume side or complete (&enum pat_kind).
 * @level: 1 for suspend/resume, 2 for late/early, 3 for noirq, 0 otherwise.
 *	A suspend-side callback of level L takes a device from level L - 1 to
 *	L, a resume-side one from L to L - 1.
 */
struct pat_cb_desc {
	const char *name;
	u8 kind;
	u8 level;
};

#define PAT_CB_DESC(n, k, l)	{ .name = n, .kind = PAT_KIND_##k, .level = l }

static const struct pat_cb_desc pat_cbs[PAT_NR_CBS] = {
	[PAT_CB_PREPARE]	= PAT_CB_DESC("prepare", PREPARE, 0),
	[PAT_CB_SUSPEND]	= PAT_CB_DESC("suspend", SUSPEND, 1),
	[PAT_CB_SUSPEND_LATE]	= PAT_CB_DESC("suspend_late", SUSPEND, 2),
	[PAT_CB_SUSPEND_NOIRQ]	= PAT_CB_DESC("suspend_noirq", SUSPEND, 3),
	[PAT_CB_RESUME_NOIRQ]	= PAT_CB_DESC("resume_noirq", RESUME, 3),
	[PAT_CB_RESUME_EARLY]	= PAT_CB_DESC("resume_early", RESUME, 2),
	[PAT_CB_RESUME]		= PAT_CB_DESC("resume", RESUME, 1),
	[PAT_CB_COMPLETE]	= PAT_CB_DESC("complete", COMPLETE, 0),
	[PAT_CB_FREEZE]		= PAT_CB_DESC("freeze", SUSPEND, 1),
	[PAT_CB_FREEZE_LATE]	= PAT_CB_DESC("freeze_late", SUSPEND, 2),
	[PAT_CB_FREEZE_NOIRQ]	= PAT_CB_DESC("freeze_noirq", SUSPEND, 3),
	[PAT_CB_THAW_NOIRQ]	= PAT_CB_DESC("thaw_noirq", RESUME, 3),
	[PAT_CB_THAW_EARLY]	= PAT_CB_DESC("thaw_early", RESUME, 2),
	[PAT_CB_THAW]		= PAT_CB_DESC("thaw", RESUME, 1),
	[PAT_CB_POWEROFF]	= PAT_CB_DESC("poweroff", SUSPEND, 1),
	[PAT_CB_POWEROFF_LATE]	= PAT_CB_DESC("poweroff_late", SUSPEND, 2),
	[PAT_CB_POWEROFF_NOIRQ]	= PAT_CB_DESC("poweroff_noirq", SUSPEND, 3),
	[PAT_CB_RESTORE_NOIRQ]	= PAT_CB_DESC("restore_noirq", RESUME, 3),
	[PAT_CB_RESTORE_EARLY]	= PAT_CB_DESC("restore_early", RESUME, 2),
	[PAT_CB_RESTORE]	= PAT_CB_DESC("restore", RESUME, 1),
};

static const char * const pat_state_names[] = {
	"active", "suspended", "suspended_late", "suspended_noirq",
};

/* Topology keys; the time keys are in &enum pat_time order. */
enum pat_key {
	PAT_KEY_PARENT,
	PAT_KEY_ASYNC,
	PAT_KEY_TIME0,
	PAT_KEY_SUPPLIERS = PAT_KEY_TIME0 + PAT_NR_TIMES,
	PAT_KEY_FAIL,
	PAT_KEY_PM,
	PAT_KEY_DRIVER,
	PAT_KEY_MANAGED,
	PAT_KEY_SYNC_CONSUMERS,
	PAT_KEY_WAIT,
	PAT_KEY_DIRECT_COMPLETE,
	PAT_KEY_SMART_SUSPEND,
	PAT_KEY_MAY_SKIP_RESUME,
	PAT_KEY_JITTER,
	PAT_KEY_HIDDEN,
	PAT_KEY_EV_TIME0,
	PAT_KEY_BUSY = PAT_KEY_EV_TIME0 + PAT_NR_EV_TIMES,
	PAT_NR_KEYS
};

static const char * const pat_keys[PAT_NR_KEYS] = {
	[PAT_KEY_PARENT]			= "parent",
	[PAT_KEY_ASYNC]				= "async",
	[PAT_KEY_TIME0 + PAT_T_SUSPEND]		= "suspend",
	[PAT_KEY_TIME0 + PAT_T_RESUME]		= "resume",
	[PAT_KEY_TIME0 + PAT_T_SUSPEND_LATE]	= "suspend_late",
	[PAT_KEY_TIME0 + PAT_T_RESUME_EARLY]	= "resume_early",
	[PAT_KEY_TIME0 + PAT_T_SUSPEND_NOIRQ]	= "suspend_noirq",
	[PAT_KEY_TIME0 + PAT_T_RESUME_NOIRQ]	= "resume_noirq",
	[PAT_KEY_SUPPLIERS]			= "suppliers",
	[PAT_KEY_FAIL]				= "fail",
	[PAT_KEY_PM]				= "pm",
	[PAT_KEY_DRIVER]			= "driver",
	[PAT_KEY_MANAGED]			= "managed",
	[PAT_KEY_SYNC_CONSUMERS]		= "sync_consumers",
	[PAT_KEY_WAIT]				= "wait",
	[PAT_KEY_DIRECT_COMPLETE]		= "direct_complete",
	[PAT_KEY_SMART_SUSPEND]			= "smart_suspend",
	[PAT_KEY_MAY_SKIP_RESUME]		= "may_skip_resume",
	[PAT_KEY_JITTER]			= "jitter",
	[PAT_KEY_HIDDEN]			= "hidden",
	[PAT_KEY_EV_TIME0 + 0]			= "freeze",
	[PAT_KEY_EV_TIME0 + 1]			= "freeze_late",
	[PAT_KEY_EV_TIME0 + 2]			= "freeze_noirq",
	[PAT_KEY_EV_TIME0 + 3]			= "thaw_noirq",
	[PAT_KEY_EV_TIME0 + 4]			= "thaw_early",
	[PAT_KEY_EV_TIME0 + 5]			= "thaw",
	[PAT_KEY_EV_TIME0 + 6]			= "poweroff",
	[PAT_KEY_EV_TIME0 + 7]			= "poweroff_late",
	[PAT_KEY_EV_TIME0 + 8]			= "poweroff_noirq",
	[PAT_KEY_EV_TIME0 + 9]			= "restore_noirq",
	[PAT_KEY_EV_TIME0 + 10]			= "restore_early",
	[PAT_KEY_EV_TIME0 + 11]			= "restore",
	[PAT_KEY_BUSY]				= "busy",
};

/* The kinds of device link the topology creates. */
enum pat_link_kind {
	PAT_LINK_STATELESS,	/* suppliers= */
	PAT_LINK_MANAGED,	/* managed= */
	PAT_LINK_SYNC_STATE,	/* sync_consumers= */
};

/**
 * struct pat_wait - A device_pm_wait_for_dev() call of a callback (``wait=``).
 * @cb: Callback (&enum pat_cb) that calls it; a suspend or resume callback
 *	also stands for its hibernation forms, as for ``fail=``.
 * @target: Device waited for, NULL once churn removed it.
 * @from: The wait is only made from the @from-th system transition after
 *	the device was created on (``+FROM``, default 1: from the first).
 * @percent: Chance in percent, drawn anew for every callback, that the
 *	wait is made (``@PERCENT``, default 100).
 */
struct pat_wait {
	int cb;
	struct pat_dev *target;
	u32 from;
	u32 percent;
};

/**
 * struct pat_hidden - A hidden dependency of a callback (``hidden=``).
 * @target: The hidden supplier: NULL if none, or once churn removed it.
 * @cb: Callback (&enum pat_cb) it applies to; a suspend or resume callback
 *	also stands for its hibernation forms, as for ``wait=``.
 * @err: Negative errno the callback returns when @target is out of order,
 *	0 when the callback takes @slow_us longer instead.
 * @slow_us: Extra time of the callback when @target is out of order.
 * @percent: Chance in percent, drawn anew for every callback, that an out
 *	of order @target has the effect.
 *
 * No parent, link or wait tells the PM core about it: like a touchscreen
 * that must talk to a GPIO or I2C controller elsewhere in the tree in its
 * suspend callback, the device needs @target still active when its
 * suspend-side callback @cb ends, and @target back already when its
 * resume-side callback @cb ends.  The PM core's list keeps that order
 * (@target is created first), so with pm_async=0 the effect never shows.
 */
struct pat_hidden {
	struct pat_dev *target;
	int cb;
	int err;
	u32 slow_us;
	u32 percent;
};

/**
 * struct pat_rec - What one callback of one device did in the last transition.
 * @start: ktime_get() after the ordering checks, before the delay.
 * @end: ktime_get() when the callback was done.
 * @result: Return value of the callback.
 * @cpu: CPU the callback ended on.
 * @worker: The callback ran in a thread other than the PM task.
 * @ran: The callback ran in this transition.
 *
 * Written only by the callback itself; reset by the PM notifier and read by
 * the report with &pat_lock held, outside transitions.
 */
struct pat_rec {
	s64 start;
	s64 end;
	int result;
	u16 cpu;
	u8 worker;
	u8 ran;
};

/**
 * struct pat_dev - A lab device.
 * @dev: The device on the pm_async_test bus.
 * @name: Device name, NUL-terminated.
 * @hnode: Entry in &pat_hash, keyed by @name.
 * @parent: Parent lab device or NULL (top level).
 * @children: Lab devices whose @parent is this one (&pat_dev.sibling).
 * @sibling: Entry in the parent's @children.
 * @suppliers: Links with this device as consumer (&pat_link.c_node).
 * @consumers: Links with this device as supplier (&pat_link.s_node).
 * @time_us: Callback times in microseconds, indexed by &enum pat_time.
 * @ev_us: Times of the hibernation callbacks (``freeze=`` to ``restore=``),
 *	indexed by callback index - PAT_CB_FREEZE, PAT_US_UNSET where the
 *	callback takes the time of its level from @time_us.
 * @fail: Armed one-shot failure: callback index + 1, 0 if none.  Written
 *	under &pat_lock outside transitions, read and cleared by the device's
 *	own callbacks.
 * @state: Device state word (PAT_ST_*).  Written by the device's callbacks
 *	with smp_store_release(), read by other devices' callbacks with
 *	smp_load_acquire().
 * @running: Callback index + 1 of the callback running now, 0 if none.
 * @sync: The device's async flag was clear when the transition started, so
 *	the PM core must run its callbacks in the PM task.  Set by the PM
 *	notifier before the transition's first callback.
 * @async: The device's async flag was set and pm_async was enabled when the
 *	transition started, so the PM core must run its suspend-side and
 *	resume-side callbacks outside the PM task.  Set by the PM notifier, as
 *	@sync.
 * @busy: The callback times are busy-waited instead of slept (``busy=1``).
 * @nr_transitions: System transitions begun since the device was created,
 *	this one included (at most PAT_MAX_FROM).  Counted by the PM notifier.
 * @bind: A driver is bound to the device (``driver=``).
 * @direct_complete: Runtime PM enabled and suspended, prepare returns 1
 *	(``direct_complete=1``): the PM core may skip every other callback.
 * @smart_suspend: The driver sets DPM_FLAG_SMART_SUSPEND and runtime PM is
 *	enabled (and suspended); the callbacks come from the driver, so the PM
 *	core may skip the late and noirq ones.
 * @may_skip_resume: The driver sets DPM_FLAG_MAY_SKIP_RESUME; the callbacks
 *	come from the driver, so the PM core may skip the noirq and early
 *	resume ones.
 * @pm_late: Marked with device_set_pm_not_required() after device_add()
 *	(``pm=late``): on the PM core's list all the same.
 * @jitter_us: Up to this many microseconds, drawn anew for every callback,
 *	are added to each callback time.
 * @seq: Creation number, from 1: the PM core's list is in creation order.
 * @nr_waits: Number of entries in @waits.
 * @waits: device_pm_wait_for_dev() calls of the device's callbacks.
 * @hidden: The device's hidden dependency (``hidden=``), if any.
 * @gone: Churn removed the device during this transition: the checks of
 *	other devices skip it.  Set with smp_store_release() by the churn
 *	thread before the device is deleted.
 * @moved: Churn moves the device to another parent during this transition
 *	(``move=``): the checks between it and its parents, old and new, are
 *	skipped.  Set with smp_store_release() by the churn thread before
 *	device_move().
 * @rec: Records of the last transition, indexed by &enum pat_cb.
 *
 * The lists and @parent only change under &pat_lock outside transitions.
 */
struct pat_dev {
	struct device dev;
	char name[PAT_NAME_MAX + 1];
	struct hlist_node hnode;
	struct pat_dev *parent;
	struct list_head children;
	struct list_head sibling;
	struct list_head suppliers;
	struct list_head consumers;
	u32 time_us[PAT_NR_TIMES];
	u32 ev_us[PAT_NR_EV_TIMES];
	int fail;
	u32 state;
	atomic_t running;
	bool sync;
	bool async;
	bool busy;
	u32 nr_transitions;
	bool gone;
	bool moved;
	bool bind;
	bool direct_complete;
	bool smart_suspend;
	bool may_skip_resume;
	bool pm_late;
	u32 jitter_us;
	u64 seq;
	unsigned int nr_waits;
	struct pat_wait waits[PAT_MAX_WAITS];
	struct pat_hidden hidden;
	struct pat_rec rec[PAT_NR_CBS];
};

#define to_pat_dev(d)	container_of(d, struct pat_dev, dev)

/**
 * struct pat_link - A device link of the topology.
 * @link: The driver core's link.  Managed links (and so SYNC_STATE_ONLY
 *	ones) cannot be deleted while both devices are registered: the driver
 *	core deletes them with the first of the two devices.
 * @supplier: Supplier device.
 * @consumer: Consumer device.
 * @node: Entry in &pat_links, in creation order.
 * @s_node: Entry in the supplier's &pat_dev.consumers.
 * @c_node: Entry in the consumer's &pat_dev.suppliers.
 * @gone: Churn deleted the link during this transition (as &pat_dev.gone).
 * @kind: What created it (&enum pat_link_kind).
 * @waited: The PM core waits for the link's ends in the current transition:
 *	neither SYNC_STATE_ONLY nor dormant (a managed link whose supplier has
 *	no driver).  Set by the PM notifier before the first callback.
 */
struct pat_link {
	struct device_link *link;
	struct pat_dev *supplier;
	struct pat_dev *consumer;
	struct list_head node;
	struct list_head s_node;
	struct list_head c_node;
	bool gone;
	u8 kind;
	bool waited;
};

/**
 * struct pat_violation - One recorded violation.
 * @valid: Set with smp_store_release() once @msg is written.
 * @msg: Description, NUL-terminated.
 */
struct pat_violation {
	int valid;
	char msg[PAT_VIOLATION_LEN];
};

/**
 * struct pat_entry - A parsed topology line, before its device exists.
 * @hnode: Entry in &pat_pending, keyed by @name.
 * @name: Device name (points into the write buffer).
 * @parent: Parent name or NULL.
 * @suppliers: @nr_suppliers NUL-separated supplier names, or NULL.
 * @nr_suppliers: Number of names in @suppliers.
 * @line: Line number in the write, from 1.
 * @time_us: Callback times, indexed by &enum pat_time.
 * @ev_us: Hibernation callback times, as &pat_dev.ev_us.
 * @fail: Armed failure, as &pat_dev.fail.
 * @async: Initial async flag.
 * @no_pm: The device takes no part in system sleep (``pm=0``).
 * @pm_late: As &pat_dev.pm_late.
 * @managed: @nr_managed NUL-separated names of managed suppliers, or NULL.
 * @nr_managed: Number of names in @managed.
 * @sync_consumers: @nr_sync_consumers NUL-separated names of the consumers
 *	of SYNC_STATE_ONLY links to this device, or NULL.
 * @nr_sync_consumers: Number of names in @sync_consumers.
 * @wait_names: Names of the devices waited for, by @waits index.
 * @waits: The ``wait=`` calls (targets resolved after creation).
 * @nr_waits: Number of entries in @waits.
 * @hidden_name: Name of the hidden supplier (``hidden=``), or NULL.
 * @hidden: The hidden dependency (target resolved after creation).
 * @bind: Bind a driver (``driver=``).
 * @direct_complete: As &pat_dev.direct_complete.
 * @smart_suspend: As &pat_dev.smart_suspend.
 * @may_skip_resume: As &pat_dev.may_skip_resume.
 * @jitter_us: As &pat_dev.jitter_us.
 * @busy: As &pat_dev.busy.
 */
struct pat_entry {
	struct hlist_node hnode;
	const char *name;
	const char *parent;
	const char *suppliers;
	unsigned int nr_suppliers;
	unsigned int line;
	u32 time_us[PAT_NR_TIMES];
	u32 ev_us[PAT_NR_EV_TIMES];
	int fail;
	bool async;
	bool no_pm;
	bool pm_late;
	const char *managed;
	unsigned int nr_managed;
	const char *sync_consumers;
	unsigned int nr_sync_consumers;
	const char *wait_names[PAT_MAX_WAITS];
	struct pat_wait waits[PAT_MAX_WAITS];
	unsigned int nr_waits;
	const char *hidden_name;
	struct pat_hidden hidden;
	bool bind;
	bool direct_complete;
	bool smart_suspend;
	bool may_skip_resume;
	u32 jitter_us;
	bool busy;
};

/* Serialises the control files and the PM notifier. */
static DEFINE_MUTEX(pat_lock);
/* A system transition is in progress.  Protected by pat_lock. */
static bool pat_in_transition;
/*
 * The last transition's event for the report: "suspend", "hibernate" or
 * "none" before the first.  Protected by pat_lock.
 */
static const char *pat_event = "none";
/* Lab devices by name.  Protected by pat_lock. */
static DEFINE_HASHTABLE(pat_hash, PAT_HASH_BITS);
/* Entries of the write being parsed, by name.  Protected by pat_lock. */
static DEFINE_HASHTABLE(pat_pending, PAT_HASH_BITS);
/* Lab devices in creation order, pat_cap slots.  Protected by pat_lock. */
static struct pat_dev **pat_devs;
static unsigned int pat_ndevs;
static unsigned int pat_cap;
/* All links in creation order.  Protected by pat_lock. */
static LIST_HEAD(pat_links);
static unsigned int pat_nr_links;
/* Devices ever created, for &pat_dev.seq.  Protected by pat_lock. */
static u64 pat_seq;

/*
 * The task that started the last transition.  Set by the PM notifier before
 * any callback of the transition runs; only compared, never dereferenced,
 * except by the watchdog while the transition is still in progress.
 */
static struct task_struct *pat_pm_task;

/*
 * Violations of the last transition.  A callback claims a slot with
 * atomic_inc_return() and publishes it through &pat_violation.valid; the
 * notifier resets them before the transition's first callback.
 */
static atomic_t pat_nr_violations;

/*
 * Number of devices running each callback now.  The PM core ends every
 * phase, on every device, before it starts the next one, so a callback that
 * starts while another callback runs anywhere breaks that barrier.
 */
static atomic_t pat_running[PAT_NR_CBS];
static struct pat_violation pat_violations[PAT_MAX_VIOLATIONS];

static struct dentry *pat_dir;

static __printf(1, 2) void pat_violation(const char *fmt, ...)
{
	struct pat_violation *v;
	unsigned int n;
	va_list args;

	n = atomic_inc_return(&pat_nr_violations) - 1;
	if (n >= PAT_MAX_VIOLATIONS)
		return;
	v = &pat_violations[n];
	va_start(args, fmt);
	vsnprintf(v->msg, sizeof(v->msg), fmt, args);
	va_end(args);
	pr_warn_ratelimited("violation: %s\n", v->msg);
	/* Pairs with smp_load_acquire() in pat_report_show(). */
	smp_store_release(&v->valid, 1);
}

static unsigned int pat_level(u32 state)
{
	return state & PAT_ST_LEVEL;
}

/*
 * Has @c finished suspend level @level?  Its state word says so when its
 * callback ran.  The PM core also finishes a device without running its
 * callback: a direct_complete device (``direct_complete=1``, all levels)
 * and a runtime-suspended device with DPM_FLAG_SMART_SUSPEND (the late and
 * noirq levels).  Those skips are accepted only for devices that the
 * topology allows to take them, and only once the PM core has marked the
 * device done (power.is_suspended and the like, written before the
 * completion that a correct PM core waits for).
 */
static bool pat_suspend_done(struct pat_dev *c, unsigned int level)
{
	struct dev_pm_info *pi = &c->dev.power;

	/* Pairs with smp_store_release() in pat_callback(). */
	if (pat_level(smp_load_acquire(&c->state)) >= level)
		return true;
	if (!c->direct_complete && !(c->smart_suspend && level >= 2))
		return false;
	/*
	 * The PM core's bit-fields: written by @c's own processing before
	 * the completion this device waited for, so only a PM core that did
	 * not wait races with these reads, and then a violation is due.
	 */
	return data_race((c->direct_complete && pi->direct_complete &&
			  pi->is_suspended) ||
			 (c->smart_suspend && level == 2 &&
			  pi->is_late_suspended) ||
			 (c->smart_suspend && level == 3 &&
			  pi->is_noirq_suspended));
}

/*
 * Does @pd take no part in PM (``pm=0``)?  A device marked after it was
 * added (``pm=late``) is on the PM core's list and ordered as any other.
 */
static bool pat_no_pm(struct pat_dev *pd)
{
	return device_pm_not_required(&pd->dev) && !pd->pm_late;
}

/*
 * Before device_del() of a ``pm=late`` device: device_pm_remove() returns
 * early for a device marked no-PM, which would leave one marked after
 * device_add() on the PM core's list once it is freed.  Clear the mark.
 */
static void pat_pm_unmark(struct pat_dev *pd)
{
	if (pd->pm_late)
		pd->dev.power.no_pm = false;
}

/*
 * The children of a device that takes no part in PM (pm=0), and theirs if
 * they take no part either, must have finished @level before @pd's
 * callback @name starts: nothing in the PM core runs for the device in
 * between, but it does not make the order between @pd and them optional
 * (@what names how @pd is related to the first of them).
 */
static void pat_check_below(struct pat_dev *pd, const char *name,
			    const char *what, struct pat_dev *c,
			    unsigned int level)
{
	struct pat_dev *g;
	u32 st;

	list_for_each_entry(g, &c->children, sibling) {
		/* Pairs with smp_store_release() in pat_churn_fn(). */
		if (smp_load_acquire(&g->gone))
			continue;
		/* Pairs with smp_store_release() in pat_churn_change(). */
		if (smp_load_acquire(&g->moved))
			continue;
		if (pat_no_pm(g)) {
			pat_check_below(pd, name, what, g, level);
			continue;
		}
		/* Pairs with smp_store_release() in pat_callback(). */
		st = smp_load_acquire(&g->state);
		if (!pat_suspend_done(g, level))
			pat_violation("%s %s: %s below the no-PM %s is %s",
				      pd->name, name, g->name, what,
				      pat_state_names[pat_level(st)]);
	}
}

/*
 * Suspend side: every child and consumer must have finished this level
 * (pat_suspend_done()), except consumers of links the PM core does not
 * wait for (SYNC_STATE_ONLY, dormant); a child or consumer that takes no
 * part in PM (pm=0) has no level, but the devices below it must have
 * finished (pat_check_below()).  The device itself must be prepared and
 * one level up.
 */
static void pat_check_suspend(struct pat_dev *pd, enum pat_cb cb, u32 state)
{
	const struct pat_cb_desc *desc = &pat_cbs[cb];
	unsigned int level = desc->level;
	struct pat_link *lk;
	struct pat_dev *c;
	u32 st;

	if (pat_level(state) != level - 1 || !(state & PAT_ST_PREPARED))
		pat_violation("%s %s: device is %s%s", pd->name, desc->name,
			      pat_state_names[pat_level(state)],
			      state & PAT_ST_PREPARED ? "" : ", not prepared");

	list_for_each_entry(c, &pd->children, sibling) {
		/* Pairs with smp_store_release() in pat_churn_fn(). */
		if (smp_load_acquire(&c->gone))
			continue;
		/* Pairs with smp_store_release() in pat_churn_change(). */
		if (smp_load_acquire(&c->moved))
			continue;
		if (pat_no_pm(c)) {
			pat_check_below(pd, desc->name, "child", c, level);
			continue;
		}
		/* Pairs with smp_store_release() in pat_callback(). */
		st = smp_load_acquire(&c->state);
		if (!pat_suspend_done(c, level))
			pat_violation("%s %s: child %s is %s", pd->name,
				      desc->name, c->name,
				      pat_state_names[pat_level(st)]);
	}
	list_for_each_entry(lk, &pd->consumers, s_node) {
		/* Pairs with smp_store_release() in pat_churn_fn(). */
		if (smp_load_acquire(&lk->gone) || !lk->waited)
			continue;
		c = lk->consumer;
		if (pat_no_pm(c)) {
			pat_check_below(pd, desc->name, "consumer", c, level);
			continue;
		}
		/* Pairs with smp_store_release() in pat_callback(). */
		st = smp_load_acquire(&c->state);
		if (!pat_suspend_done(c, level))
			pat_violation("%s %s: consumer %s is %s", pd->name,
				      desc->name, c->name,
				      pat_state_names[pat_level(st)]);
	}
}

/*
 * Resume side: the device must be suspended at exactly @level, and neither
 * the parent nor a supplier may still be at @level or deeper (which means it
 * went down to this level and has not come back yet).  A parent that takes
 * no part in PM (pm=0) has no level: its nearest ancestor that takes part
 * is checked instead.  A supplier of a link the PM core does not wait for
 * is not checked.  A device whose driver lets the PM core skip callbacks
 * (smart_suspend, may_skip_resume) may be at another level.
 */
static void pat_check_resume(struct pat_dev *pd, enum pat_cb cb, u32 state)
{
	const struct pat_cb_desc *desc = &pat_cbs[cb];
	unsigned int level = desc->level;
	struct pat_link *lk;
	struct pat_dev *s;
	bool moved;
	u32 st;

	if (pat_level(state) != level &&
	    !((pd->smart_suspend || pd->may_skip_resume) && pat_level(state)))
		pat_violation("%s %s: device is %s", pd->name, desc->name,
			      pat_state_names[pat_level(state)]);

	/*
	 * A device below a no-PM device that has been moved has its new
	 * ancestor, which this check does not know yet, like a moved device.
	 * Pairs with smp_store_release() in pat_churn_change().
	 */
	moved = smp_load_acquire(&pd->moved);
	s = pd->parent;
	while (s && pat_no_pm(s)) {
		/* Pairs with smp_store_release() in pat_churn_change(). */
		moved |= smp_load_acquire(&s->moved);
		s = s->parent;
	}
	if (s && !moved) {
		/* Pairs with smp_store_release() in pat_callback(). */
		st = smp_load_acquire(&s->state);
		if (pat_level(st) >= level)
			pat_violation("%s %s: %s %s is %s", pd->name,
				      desc->name,
				      s == pd->parent ? "parent" : "ancestor",
				      s->name, pat_state_names[pat_level(st)]);
	}
	list_for_each_entry(lk, &pd->suppliers, c_node) {
		/* Pairs with smp_store_release() in pat_churn_fn(). */
		if (smp_load_acquire(&lk->gone) || !lk->waited)
			continue;
		s = lk->supplier;
		/* Pairs with smp_store_release() in pat_callback(). */
		st = smp_load_acquire(&s->state);
		if (pat_level(st) >= level)
			pat_violation("%s %s: supplier %s is %s", pd->name,
				      desc->name, s->name,
				      pat_state_names[pat_level(st)]);
	}
}

/*
 * The PM core finishes a phase on every device before it starts the next
 * one, so no other callback may be running anywhere when @cb starts.  Of two
 * overlapping callbacks, the one that starts second sees the first.
 */
static void pat_check_barrier(struct pat_dev *pd, enum pat_cb cb)
{
	int i, n;

	atomic_inc(&pat_running[cb]);
	/* Order the increment before the reads of the other counters. */
	smp_mb__after_atomic();
	for (i = 0; i < PAT_NR_CBS; i++) {
		n = i == cb ? 0 : atomic_read(&pat_running[i]);
		if (n)
			pat_violation("%s %s: starts while %d device(s) run %s",
				      pd->name, pat_cbs[cb].name, n,
				      pat_cbs[i].name);
	}
}

/* Mark the churn thread and the waits for fault injection (``nomem``). */
static bool pat_nomem;

/* Is the current task marked for fault injection (see pat_wait_for_dev())? */
static bool pat_failing(void)
{
#ifdef CONFIG_FAULT_INJECTION
	return READ_ONCE(pat_nomem) && current->make_it_fail;
#else
	return false;
#endif
}

/*
 * Prepare and complete always run in the PM task, and so does every
 * callback of a device whose async flag is clear.  The suspend-side and
 * resume-side callbacks of a device that was async (with pm_async enabled)
 * when the transition started never do, unless the PM task is marked for
 * fault injection (``nomem``): in a wait of the lab's, the PM core may not be able to
 * queue the device waited for and run it there, as mainline runs a device
 * it cannot schedule in the PM task.
 */
static void pat_check_task(struct pat_dev *pd, enum pat_cb cb)
{
	const struct pat_cb_desc *desc = &pat_cbs[cb];

	if ((pd->sync || !desc->level) && current != READ_ONCE(pat_pm_task))
		pat_violation("%s %s: sync callback runs outside the PM task (in %s)",
			      pd->name, desc->name, current->comm);
	if (pd->async && desc->level && current == READ_ONCE(pat_pm_task) &&
	    !pat_failing())
		pat_violation("%s %s: async callback runs in the PM task",
			      pd->name, desc->name);
}

/* Does an armed failure (callback index @armed) apply to callback @cb? */
static bool pat_fail_matches(int armed, enum pat_cb cb)
{
	if (armed == cb)
		return true;
	/* suspend, suspend_late and suspend_noirq cover hibernation too. */
	return (armed == PAT_CB_SUSPEND || armed == PAT_CB_SUSPEND_LATE ||
		armed == PAT_CB_SUSPEND_NOIRQ) &&
	       pat_cbs[cb].kind == PAT_KIND_SUSPEND &&
	       pat_cbs[cb].level == pat_cbs[armed].level;
}

/* Index of @desc's time: &enum pat_time pairs suspend and resume by level. */
static enum pat_time pat_time_index(const struct pat_cb_desc *desc)
{
	return 2 * (desc->level - 1) + (desc->kind == PAT_KIND_RESUME);
}

/* Does a ``wait=`` entry for callback @armed apply to callback @cb? */
static bool pat_wait_matches(int armed, enum pat_cb cb)
{
	if (armed == cb)
		return true;
	/* The suspend and resume names cover hibernation too. */
	return armed >= PAT_CB_SUSPEND && armed <= PAT_CB_RESUME &&
	       pat_cbs[cb].kind == pat_cbs[armed].kind &&
	       pat_cbs[cb].level == pat_cbs[armed].level;
}

/*
 * The seed of the lab's draws (the ``draws`` file); 0: get_random_u32().
 * Written only outside transitions.
 */
static u32 pat_draws_seed;

/* What a draw is for, with the index of the wait in the low bits. */
#define PAT_DRAW_WAIT		0x000U
#define PAT_DRAW_HIDDEN		0x100U
#define PAT_DRAW_JITTER		0x200U

/**
 * pat_draw - A number below @n for one draw of a callback.
 * @pd: The device.
 * @cb: Its callback.
 * @what: PAT_DRAW_* for what the number is for.
 * @n: The bound, at least 1.
 *
 * With a seed in &pat_draws_seed, the number depends only on the seed, the
 * device's name, how many transitions the device has seen, @cb and @what,
 * so that two kernels running the same topology and the same transitions
 * (a test comparing two kernels) draw the same callback times and chances,
 * whatever order their PM cores run the callbacks in.  Without one it is
 * get_random_u32_below(@n).
 *
 * Return: the number, from 0 to @n - 1.
 */
static u32 pat_draw(const struct pat_dev *pd, enum pat_cb cb, u32 what, u32 n)
{
	u32 seed = READ_ONCE(pat_draws_seed);
	u32 name;

	if (!seed)
		return get_random_u32_below(n);
	name = full_name_hash(NULL, pd->name, strlen(pd->name));
	return reciprocal_scale(jhash_3words(pd->nr_transitions, cb, what,
					     seed ^ name), n);
}

/*
 * device_pm_wait_for_dev(), marked for fault injection with ``nomem``: with
 * a task filter (failslab's task-filter), what the PM core allocates to
 * start @t fails, as when GFP_ATOMIC memory runs out, and nothing else does.
 */
static int pat_wait_for_dev(struct pat_dev *pd, struct pat_dev *t)
{
	int ret;
#ifdef CONFIG_FAULT_INJECTION
	int fail = current->make_it_fail;

	if (READ_ONCE(pat_nomem))
		current->make_it_fail = 1;
#endif
	ret = device_pm_wait_for_dev(&pd->dev, &t->dev);
#ifdef CONFIG_FAULT_INJECTION
	current->make_it_fail = fail;
#endif
	return ret;
}

/*
 * Run the device_pm_wait_for_dev() calls of @pd's callback @cb.  When the
 * call returns 0 for an async @pd (which always waits, whatever pm_async
 * says), the device waited for must have finished this phase, as a parent
 * or supplier must on the resume side and a child or consumer on the
 * suspend side, if the wait goes with the PM core's list: on the suspend
 * side for a device created after @pd, on the resume side for one created
 * before.  A wait against the list gives no order (the PM core may not
 * have re-armed the completion of that device yet) and with pm_async=0
 * never returns.  Prepare and complete have no such order.  A wait with
 * ``+FROM`` is not made before the FROM-th transition of @pd, one with
 * ``@PERCENT`` only with that chance.
 */
static void pat_do_waits(struct pat_dev *pd, enum pat_cb cb)
{
	const struct pat_cb_desc *desc = &pat_cbs[cb];
	const struct pat_wait *w;
	struct pat_dev *t;
	unsigned int i;
	bool in_order;
	int ret;
	u32 st;

	for (i = 0; i < pd->nr_waits; i++) {
		w = &pd->waits[i];
		t = w->target;
		if (!t || !pat_wait_matches(w->cb, cb))
			continue;
		/* Not before the FROM-th transition, and only by chance. */
		if (pd->nr_transitions < w->from)
			continue;
		if (w->percent < 100 &&
		    pat_draw(pd, cb, PAT_DRAW_WAIT | i, 100) >= w->percent)
			continue;
		ret = pat_wait_for_dev(pd, t);
		/* Does the wait go with the PM core's list? */
		in_order = desc->kind == PAT_KIND_SUSPEND ? t->seq > pd->seq :
			   t->seq < pd->seq;
		if (ret || pd->sync || !desc->level || !in_order ||
		    pat_no_pm(t))
			continue;
		/* Pairs with smp_store_release() in pat_churn_fn(). */
		if (smp_load_acquire(&t->gone))
			continue;
		/* Pairs with smp_store_release() in pat_callback(). */
		st = smp_load_acquire(&t->state);
		if (desc->kind == PAT_KIND_SUSPEND && !pat_suspend_done(t, desc->level))
			pat_violation("%s %s: waited for %s, which is %s", pd->name,
				      desc->name, t->name,
				      pat_state_names[pat_level(st)]);
		if (desc->kind == PAT_KIND_RESUME && pat_level(st) >= desc->level &&
		    !t->may_skip_resume)
			pat_violation("%s %s: waited for %s, which is %s", pd->name,
				      desc->name, t->name,
				      pat_state_names[pat_level(st)]);
	}
}

static void pat_delay(u32 us)
{
	if (!us)
		return;
	if (us < PAT_USLEEP_MAX)
		usleep_range(us, us + us / 8 + 1);
	else
		msleep(us / 1000);
}

/*
 * Busy-wait @us microseconds without sleeping or rescheduling, as mdelay(),
 * an ACPI Stall() or a driver's polling loop does: udelay() and mdelay()
 * in chunks, with cpu_relax() between them.
 */
static void pat_busy_wait(u32 us)
{
	while (us >= PAT_BUSY_CHUNK_US) {
		mdelay(PAT_BUSY_CHUNK_US / 1000);
		us -= PAT_BUSY_CHUNK_US;
		cpu_relax();
	}
	if (us)
		udelay(us);
}

/* Take @us microseconds of @pd's callback: sleep, or busy-wait (busy=1). */
static void pat_dev_delay(const struct pat_dev *pd, u32 us)
{
	if (pd->busy)
		pat_busy_wait(us);
	else
		pat_delay(us);
}

/*
 * The configured time of @pd's callback @cb: its own (``freeze=`` and the
 * like) if given, otherwise the time of its level (``suspend=`` for
 * freeze and poweroff, and so on).
 */
static u32 pat_cb_time(const struct pat_dev *pd, enum pat_cb cb)
{
	if (cb >= PAT_CB_FREEZE &&
	    pd->ev_us[cb - PAT_CB_FREEZE] != PAT_US_UNSET)
		return pd->ev_us[cb - PAT_CB_FREEZE];
	return pd->time_us[pat_time_index(&pat_cbs[cb])];
}

/*
 * The hidden dependency of @pd's callback @cb (``hidden=``), at the end of
 * the callback: on the suspend side the hidden supplier must not have
 * finished this level yet, on the resume side it must have come back from
 * it; either way its level must be below the callback's.  If not, and the
 * draw says so, the callback fails (as a driver whose command to the other
 * device fails, and which logs it) or takes longer.  Return the error or 0.
 */
static int pat_hidden_check(struct pat_dev *pd, enum pat_cb cb)
{
	const struct pat_cb_desc *desc = &pat_cbs[cb];
	const struct pat_hidden *h = &pd->hidden;
	struct pat_dev *t = h->target;
	u32 st;

	if (!t || !desc->level || !pat_wait_matches(h->cb, cb))
		return 0;
	/* Pairs with smp_store_release() in pat_churn_fn(). */
	if (smp_load_acquire(&t->gone))
		return 0;
	/* Pairs with smp_store_release() in pat_callback(). */
	st = smp_load_acquire(&t->state);
	if (pat_level(st) < desc->level)
		return 0;
	if (h->percent < 100 &&
	    pat_draw(pd, cb, PAT_DRAW_HIDDEN, 100) >= h->percent)
		return 0;
	if (!h->err) {
		pat_dev_delay(pd, h->slow_us);
		return 0;
	}
	dev_err(&pd->dev, "%s: command failed: %d\n", desc->name, h->err);
	return h->err;
}

static void pat_churn_fire(struct pat_dev *pd, enum pat_cb cb);

static int pat_callback(struct device *dev, enum pat_cb cb)
{
	const struct pat_cb_desc *desc = &pat_cbs[cb];
	struct pat_dev *pd = to_pat_dev(dev);
	struct pat_rec *rec = &pd->rec[cb];
	u32 state, new_state;
	int other, armed, ret2, ret = 0;
	ktime_t start;

	other = atomic_xchg(&pd->running, cb + 1);
	if (other)
		pat_violation("%s %s: %s is still running", pd->name,
			      desc->name, pat_cbs[other - 1].name);
	if (rec->ran)
		pat_violation("%s %s: ran twice", pd->name, desc->name);
	pat_check_barrier(pd, cb);
	pat_check_task(pd, cb);

	/* Only this device's callbacks write its state word. */
	state = READ_ONCE(pd->state);
	new_state = state;
	switch (desc->kind) {
	case PAT_KIND_PREPARE:
		new_state |= PAT_ST_PREPARED;
		/* "Runtime-suspended, nothing to do": direct_complete. */
		if (pd->direct_complete)
			ret = 1;
		break;
	case PAT_KIND_SUSPEND:
		pat_check_suspend(pd, cb, state);
		new_state = (state & ~PAT_ST_LEVEL) | desc->level;
		break;
	case PAT_KIND_RESUME:
		pat_check_resume(pd, cb, state);
		/* A device that skipped suspend levels never goes deeper. */
		new_state = (state & ~PAT_ST_LEVEL) |
			    min_t(u32, pat_level(state), desc->level - 1);
		break;
	case PAT_KIND_COMPLETE:
		if (!(state & PAT_ST_PREPARED))
			pat_violation("%s complete: device is not prepared",
				      pd->name);
		new_state &= ~PAT_ST_PREPARED;
		break;
	}

	start = ktime_get();
	pat_churn_fire(pd, cb);
	pat_do_waits(pd, cb);
	if (desc->level)
		pat_dev_delay(pd, pat_cb_time(pd, cb) +
			      (pd->jitter_us ?
			       pat_draw(pd, cb, PAT_DRAW_JITTER,
					pd->jitter_us + 1) : 0));

	ret2 = pat_hidden_check(pd, cb);
	if (ret2) {
		ret = ret2;
		/* A device that failed to suspend stays where it was. */
		if (desc->kind == PAT_KIND_SUSPEND)
			new_state = state;
	}

	if (desc->kind == PAT_KIND_SUSPEND) {
		armed = READ_ONCE(pd->fail);
		if (armed && pat_fail_matches(armed - 1, cb)) {
			WRITE_ONCE(pd->fail, 0);
			ret = -EIO;
			new_state = state;
		}
	}

	rec->start = ktime_to_ns(start);
	rec->end = ktime_get_ns();
	rec->cpu = raw_smp_processor_id();
	rec->worker = current != READ_ONCE(pat_pm_task);
	rec->result = ret;
	rec->ran = 1;

	/*
	 * Publish the new state only after the end time is taken, so a
	 * dependent device that sees it starts after this callback ended.
	 * Pairs with smp_load_acquire() in pat_check_suspend() and
	 * pat_check_resume().
	 */
	smp_store_release(&pd->state, new_state);
	atomic_set_release(&pd->running, 0);
	atomic_dec(&pat_running[cb]);
	return ret;
}

#define PAT_DEFINE_CB(fn, cb)					\
static int pat_##fn(struct device *dev)				\
{								\
	return pat_callback(dev, cb);				\
}

PAT_DEFINE_CB(prepare, PAT_CB_PREPARE)
PAT_DEFINE_CB(suspend, PAT_CB_SUSPEND)
PAT_DEFINE_CB(suspend_late, PAT_CB_SUSPEND_LATE)
PAT_DEFINE_CB(suspend_noirq, PAT_CB_SUSPEND_NOIRQ)
PAT_DEFINE_CB(resume_noirq, PAT_CB_RESUME_NOIRQ)
PAT_DEFINE_CB(resume_early, PAT_CB_RESUME_EARLY)
PAT_DEFINE_CB(resume, PAT_CB_RESUME)
PAT_DEFINE_CB(freeze, PAT_CB_FREEZE)
PAT_DEFINE_CB(freeze_late, PAT_CB_FREEZE_LATE)
PAT_DEFINE_CB(freeze_noirq, PAT_CB_FREEZE_NOIRQ)
PAT_DEFINE_CB(thaw_noirq, PAT_CB_THAW_NOIRQ)
PAT_DEFINE_CB(thaw_early, PAT_CB_THAW_EARLY)
PAT_DEFINE_CB(thaw, PAT_CB_THAW)
PAT_DEFINE_CB(poweroff, PAT_CB_POWEROFF)
PAT_DEFINE_CB(poweroff_late, PAT_CB_POWEROFF_LATE)
PAT_DEFINE_CB(poweroff_noirq, PAT_CB_POWEROFF_NOIRQ)
PAT_DEFINE_CB(restore_noirq, PAT_CB_RESTORE_NOIRQ)
PAT_DEFINE_CB(restore_early, PAT_CB_RESTORE_EARLY)
PAT_DEFINE_CB(restore, PAT_CB_RESTORE)

static void pat_complete(struct device *dev)
{
	pat_callback(dev, PAT_CB_COMPLETE);
}

static const struct dev_pm_ops pat_pm_ops = {
	.prepare	= pat_prepare,
	.complete	= pat_complete,
	.suspend	= pat_suspend,
	.resume		= pat_resume,
	.freeze		= pat_freeze,
	.thaw		= pat_thaw,
	.poweroff	= pat_poweroff,
	.restore	= pat_restore,
	.suspend_late	= pat_suspend_late,
	.resume_early	= pat_resume_early,
	.freeze_late	= pat_freeze_late,
	.thaw_early	= pat_thaw_early,
	.poweroff_late	= pat_poweroff_late,
	.restore_early	= pat_restore_early,
	.suspend_noirq	= pat_suspend_noirq,
	.resume_noirq	= pat_resume_noirq,
	.freeze_noirq	= pat_freeze_noirq,
	.thaw_noirq	= pat_thaw_noirq,
	.poweroff_noirq	= pat_poweroff_noirq,
	.restore_noirq	= pat_restore_noirq,
};

/* The driver binds to the devices created with driver=1. */
static int pat_match(struct device *dev, const struct device_driver *drv)
{
	return to_pat_dev(dev)->bind;
}

/*
 * The driver sets the DPM_FLAG_* flags the topology asks for, as a real
 * driver does in its probe (the driver core clears them on unbind).
 */
static int pat_probe(struct device *dev)
{
	struct pat_dev *pd = to_pat_dev(dev);
	u32 flags = 0;

	if (pd->smart_suspend)
		flags |= DPM_FLAG_SMART_SUSPEND;
	if (pd->may_skip_resume)
		flags |= DPM_FLAG_MAY_SKIP_RESUME;
	dev_pm_set_driver_flags(dev, flags);
	return 0;
}

static const struct bus_type pat_bus = {
	.name	= "pm_async_test",
	.match	= pat_match,
};

/*
 * The device type provides the PM callbacks, so the devices need no driver.
 * Devices whose driver sets DPM_FLAG_SMART_SUSPEND or
 * DPM_FLAG_MAY_SKIP_RESUME have no type and get the same callbacks from the
 * driver: the PM core only skips driver callbacks, never those of a middle
 * layer.
 */
static const struct device_type pat_type = {
	.name	= "pm_async_test",
	.pm	= &pat_pm_ops,
};

/*
 * The default of driver=.  Binding a driver is optional because it about
 * doubles the time it takes to create and remove devices (measured under
 * QEMU TCG).
 */
static bool bind_driver;
module_param(bind_driver, bool, 0444);
MODULE_PARM_DESC(bind_driver,
		 "Bind a driver to lab devices without driver= (slower creation and removal)");

static struct device_driver pat_driver = {
	.name		= "pm_async_test",
	.bus		= &pat_bus,
	.owner		= THIS_MODULE,
	.probe		= pat_probe,
	.pm		= &pat_pm_ops,
	.probe_type	= PROBE_FORCE_SYNCHRONOUS,
};

static void pat_release(struct device *dev)
{
	kfree(to_pat_dev(dev));
}

static u32 pat_name_hash(const char *name)
{
	return full_name_hash(NULL, name, strlen(name));
}

static struct pat_dev *pat_find(const char *name)
{
	struct pat_dev *pd;

	hash_for_each_possible(pat_hash, pd, hnode, pat_name_hash(name))
		if (!strcmp(pd->name, name))
			return pd;
	return NULL;
}

static struct pat_entry *pat_find_pending(const char *name)
{
	struct pat_entry *e;

	hash_for_each_possible(pat_pending, e, hnode, pat_name_hash(name))
		if (!strcmp(e->name, name))
			return e;
	return NULL;
}

/* Is @name a device, or a device defined earlier in this write? */
static bool pat_known(const char *name)
{
	return pat_find(name) || pat_find_pending(name);
}

/* Is @name a device (or an earlier device of this write) with pm=0? */
static bool pat_known_no_pm(const char *name)
{
	struct pat_entry *e = pat_find_pending(name);
	struct pat_dev *pd;

	if (e)
		return e->no_pm;
	pd = pat_find(name);
	return pd && pat_no_pm(pd);
}

/* Is @name a device (or an earlier device of this write) with a driver? */
static bool pat_known_bound(const char *name)
{
	struct pat_entry *e = pat_find_pending(name);
	struct pat_dev *pd;

	if (e)
		return e->bind;
	pd = pat_find(name);
	return pd && pd->bind;
}

/* Make room for @n devices in pat_devs[]. */
static int pat_reserve(unsigned int n)
{
	struct pat_dev **devs;
	unsigned int cap;

	if (n <= pat_cap)
		return 0;
	cap = max3(n, 2 * pat_cap, 64U);
	devs = kvcalloc(cap, sizeof(*devs), GFP_KERNEL);
	if (!devs)
		return -ENOMEM;
	if (pat_ndevs)
		memcpy(devs, pat_devs, pat_ndevs * sizeof(*devs));
	kvfree(pat_devs);
	pat_devs = devs;
	pat_cap = cap;
	return 0;
}

static int pat_link_add(struct pat_dev *consumer, struct pat_dev *supplier,
			enum pat_link_kind kind)
{
	static const u32 flags[] = {
		[PAT_LINK_STATELESS]	= DL_FLAG_STATELESS,
		[PAT_LINK_MANAGED]	= DL_FLAG_AUTOREMOVE_CONSUMER |
					  DL_FLAG_PM_RUNTIME,
		[PAT_LINK_SYNC_STATE]	= DL_FLAG_SYNC_STATE_ONLY,
	};
	struct pat_link *lk;
	u32 f = flags[kind];

	/*
	 * A driver adds a DL_FLAG_AUTOREMOVE_CONSUMER link from the consumer's
	 * probe; a link to a consumer with no driver is one made before it
	 * probes, as fw_devlink makes them (no autoremove flag).  The driver
	 * core warns when a supplier unbinds from under an autoremove link of
	 * a consumer that never bound.  The lab's drivers probe synchronously
	 * when their device is added, so dev->driver is settled here.
	 */
	if (kind == PAT_LINK_MANAGED && !READ_ONCE(consumer->dev.driver))
		f &= ~DL_FLAG_AUTOREMOVE_CONSUMER;

	lk = kzalloc_obj(*lk);
	if (!lk)
		return -ENOMEM;
	lk->link = device_link_add(&consumer->dev, &supplier->dev, f);
	if (!lk->link) {
		kfree(lk);
		pr_err("cannot link consumer %s to supplier %s\n",
		       consumer->name, supplier->name);
		return -EINVAL;
	}
	lk->kind = kind;
	lk->supplier = supplier;
	lk->consumer = consumer;
	list_add_tail(&lk->node, &pat_links);
	list_add_tail(&lk->s_node, &supplier->consumers);
	list_add_tail(&lk->c_node, &consumer->suppliers);
	pat_nr_links++;
	return 0;
}

/*
 * Remove the links created after the first @nlinks and the devices created
 * after the first @ndevs, newest first: children go before their parents
 * because parents are created first.
 */
static void pat_remove_from(unsigned int ndevs, unsigned int nlinks)
{
	struct pat_link *lk;
	struct pat_dev *pd;

	lockdep_assert_held(&pat_lock);

	while (pat_nr_links > nlinks) {
		lk = list_last_entry(&pat_links, struct pat_link, node);
		list_del(&lk->node);
		list_del(&lk->s_node);
		list_del(&lk->c_node);
		/* Managed links go with the first of their devices. */
		if (lk->kind == PAT_LINK_STATELESS)
			device_link_del(lk->link);
		kfree(lk);
		pat_nr_links--;
	}
	/*
	 * A device link holds references to both of its devices and drops
	 * them from a workqueue.  Wait for that, so that device_unregister()
	 * below drops the last reference and pat_release() has run when it
	 * returns; module unload depends on it.
	 */
	device_link_wait_removal();

	while (pat_ndevs > ndevs) {
		pd = pat_devs[--pat_ndevs];
		pat_devs[pat_ndevs] = NULL;
		hash_del(&pd->hnode);
		if (pd->parent)
			list_del(&pd->sibling);
		pat_pm_unmark(pd);
		device_unregister(&pd->dev);
	}
	/* The managed links deleted with their devices, as above. */
	device_link_wait_removal();
}

/*
 * A new device, initialized and named but not added: put_device() frees it.
 * Return it or an ERR_PTR().
 */
static struct pat_dev *pat_alloc(const struct pat_entry *e,
				 struct pat_dev *parent)
{
	struct pat_dev *pd;
	int ret;

	pd = kzalloc_obj(*pd);
	if (!pd)
		return ERR_PTR(-ENOMEM);
	strscpy(pd->name, e->name);
	pd->parent = parent;
	INIT_LIST_HEAD(&pd->children);
	INIT_LIST_HEAD(&pd->suppliers);
	INIT_LIST_HEAD(&pd->consumers);
	memcpy(pd->time_us, e->time_us, sizeof(pd->time_us));
	memcpy(pd->ev_us, e->ev_us, sizeof(pd->ev_us));
	pd->busy = e->busy;
	pd->fail = e->fail;
	pd->bind = e->bind;
	pd->direct_complete = e->direct_complete;
	pd->smart_suspend = e->smart_suspend;
	pd->may_skip_resume = e->may_skip_resume;
	pd->pm_late = e->pm_late;
	pd->jitter_us = e->jitter_us;
	atomic_set(&pd->running, 0);

	device_initialize(&pd->dev);
	pd->dev.bus = &pat_bus;
	if (!pd->smart_suspend && !pd->may_skip_resume)
		pd->dev.type = &pat_type;
	pd->dev.parent = parent ? &parent->dev : NULL;
	pd->dev.release = pat_release;
	if (e->async)
		device_enable_async_suspend(&pd->dev);
	else
		device_disable_async_suspend(&pd->dev);
	/* Like a wakeup source's wakeupN device: never on the PM core's list. */
	if (e->no_pm)
		device_set_pm_not_required(&pd->dev);
	ret = dev_set_name(&pd->dev, "%s", pd->name);
	if (ret) {
		/* pat_release() frees pd. */
		put_device(&pd->dev);
		return ERR_PTR(ret);
	}
	return pd;
}

/* Enter an added device in the lab's tables; pat_devs[] has room for it. */
static void pat_track(struct pat_dev *pd)
{
	pd->seq = ++pat_seq;
	pat_devs[pat_ndevs++] = pd;
	hash_add(pat_hash, &pd->hnode, pat_name_hash(pd->name));
	if (pd->parent)
		list_add_tail(&pd->sibling, &pd->parent->children);
}

static int pat_create(const struct pat_entry *e)
{
	struct pat_dev *pd, *parent = NULL;
	const char *s;
	unsigned int i;
	int ret;

	if (e->parent)
		parent = pat_find(e->parent);

	pd = pat_alloc(e, parent);
	if (IS_ERR(pd))
		return PTR_ERR(pd);
	ret = device_add(&pd->dev);
	if (ret) {
		/* pat_release() frees pd. */
		put_device(&pd->dev);
		return ret;
	}
	pat_track(pd);
	/* As some drivers do in their probe: the device stays on the list. */
	if (pd->pm_late)
		device_set_pm_not_required(&pd->dev);
	/*
	 * Runtime PM status is "suspended" from device_initialize() on; the
	 * PM core only uses direct_complete and smart suspend with runtime
	 * PM enabled.
	 */
	if (pd->direct_complete || pd->smart_suspend)
		pm_runtime_enable(&pd->dev);

	for (i = 0, s = e->suppliers; i < e->nr_suppliers;
	     i++, s += strlen(s) + 1) {
		ret = pat_link_add(pd, pat_find(s), PAT_LINK_STATELESS);
		if (ret)
			return ret;
	}
	for (i = 0, s = e->managed; i < e->nr_managed;
	     i++, s += strlen(s) + 1) {
		ret = pat_link_add(pd, pat_find(s), PAT_LINK_MANAGED);
		if (ret)
			return ret;
	}
	for (i = 0, s = e->sync_consumers; i < e->nr_sync_consumers;
	     i++, s += strlen(s) + 1) {
		ret = pat_link_add(pat_find(s), pd, PAT_LINK_SYNC_STATE);
		if (ret)
			return ret;
	}
	return 0;
}

/* Next blank-separated token of *@s, or NULL at the end. */
static char *pat_next_token(char **s)
{
	char *tok;

	do {
		tok = strsep(s, " \t\r\n");
	} while (tok && !*tok);
	return tok;
}

static bool pat_valid_name(const char *name)
{
	size_t len = strlen(name);
	size_t i;

	if (!len || len > PAT_NAME_MAX)
		return false;
	/* "." and ".." cannot be sysfs directories. */
	if (!strcmp(name, ".") || !strcmp(name, ".."))
		return false;
	for (i = 0; i < len; i++)
		if (!isalnum(name[i]) && !strchr("_.:-", name[i]))
			return false;
	return true;
}

/* Parse a failure phase; "none" gives 0, an error -EINVAL. */
static int pat_parse_fail(const char *s)
{
	static const enum pat_cb phases[] = {
		PAT_CB_SUSPEND, PAT_CB_SUSPEND_LATE, PAT_CB_SUSPEND_NOIRQ,
		PAT_CB_FREEZE, PAT_CB_FREEZE_LATE, PAT_CB_FREEZE_NOIRQ,
		PAT_CB_POWEROFF, PAT_CB_POWEROFF_LATE, PAT_CB_POWEROFF_NOIRQ,
	};
	unsigned int i;

	if (!strcmp(s, "none"))
		return 0;
	for (i = 0; i < ARRAY_SIZE(phases); i++)
		if (!strcmp(s, pat_cbs[phases[i]].name))
			return phases[i] + 1;
	return -EINVAL;
}

/* Is @name among the @nr NUL-separated names of @list? */
static bool pat_in_list(const char *list, unsigned int nr, const char *name)
{
	unsigned int i;

	for (i = 0; i < nr; i++, list += strlen(list) + 1)
		if (!strcmp(list, name))
			return true;
	return false;
}

/*
 * Split the comma-separated device list @val of key @key in place into
 * *@list and *@nr and check every name: an earlier device, not @e itself,
 * not twice.  The ends of a link: a supplier (suppliers=, managed=) must
 * take part in PM, a consumer of a SYNC_STATE_ONLY link (sync_consumers=)
 * must have no driver.  Return 0 or -EINVAL after logging why.
 */
static int pat_parse_names(struct pat_entry *e, char *val, int key,
			   const char **list, unsigned int *nr)
{
	char *s;

	*list = val;
	*nr = 0;
	while ((s = strsep(&val, ","))) {
		if (!*s) {
			pr_err("line %u: empty name in %s=\n", e->line,
			       pat_keys[key]);
			return -EINVAL;
		}
		if (!strcmp(s, e->name)) {
			pr_err("line %u: link cycle: %s is its own %s\n",
			       e->line, s, key == PAT_KEY_SYNC_CONSUMERS ?
			       "consumer" : "supplier");
			return -EINVAL;
		}
		if (!pat_known(s)) {
			pr_err("line %u: unknown device '%.40s' in %s=\n",
			       e->line, s, pat_keys[key]);
			return -EINVAL;
		}
		if (key != PAT_KEY_SYNC_CONSUMERS && pat_known_no_pm(s)) {
			/* device_link_add() needs a supplier on the PM list. */
			pr_err("line %u: supplier %s takes no part in PM (pm=0)\n",
			       e->line, s);
			return -EINVAL;
		}
		if (key == PAT_KEY_SYNC_CONSUMERS && pat_known_bound(s)) {
			pr_err("line %u: consumer %s has a driver: a SYNC_STATE_ONLY link needs an unbound consumer\n",
			       e->line, s);
			return -EINVAL;
		}
		if (pat_in_list(*list, *nr, s)) {
			pr_err("line %u: %s listed twice in %s=\n", e->line, s,
			       pat_keys[key]);
			return -EINVAL;
		}
		(*nr)++;
	}
	return 0;
}

/* The callback index of @name, or -EINVAL. */
static int pat_parse_cb(const char *name)
{
	int i;

	for (i = 0; i < PAT_NR_CBS; i++)
		if (!strcmp(name, pat_cbs[i].name))
			return i;
	return -EINVAL;
}

/*
 * Split the "@PERCENT[%]" ending of @s (a value of key @key) off, in place,
 * into @percent: 100 if there is none.  Return 0 or -EINVAL after logging
 * why.
 */
static int pat_parse_percent(const struct pat_entry *e, char *s,
			     const char *key, u32 *percent)
{
	char *pct;
	size_t len;

	*percent = 100;
	pct = strrchr(s, '@');
	if (!pct)
		return 0;
	*pct++ = '\0';
	len = strlen(pct);
	if (len && pct[len - 1] == '%')
		pct[len - 1] = '\0';
	if (kstrtouint(pct, 10, percent) || *percent > 100) {
		pr_err("line %u: bad chance @%.40s in %s= (0 to 100)\n",
		       e->line, pct, key);
		return -EINVAL;
	}
	return 0;
}

/*
 * Parse the "[+FROM][@PERCENT[%]]" ending of a wait= entry, in place, into
 * @w.  Return 0 or -EINVAL after logging why.
 */
static int pat_parse_wait_opts(const struct pat_entry *e, char *name,
			       struct pat_wait *w)
{
	char *from;

	w->from = 1;
	if (pat_parse_percent(e, name, "wait", &w->percent))
		return -EINVAL;
	from = strrchr(name, '+');
	if (from) {
		*from++ = '\0';
		if (kstrtouint(from, 10, &w->from) || !w->from ||
		    w->from > PAT_MAX_FROM) {
			pr_err("line %u: bad transition +%.40s in wait= (1 to %u)\n",
			       e->line, from, PAT_MAX_FROM);
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * Parse "PHASE:NAME[+FROM][@PERCENT][,...]" of wait= into @e.  The names
 * are checked once the whole write is parsed: they may name later devices.
 */
static int pat_parse_waits(struct pat_entry *e, char *val)
{
	struct pat_wait w;
	char *s, *name;
	unsigned int i;
	int cb;

	while ((s = strsep(&val, ","))) {
		name = strchr(s, ':');
		if (!name) {
			pr_err("line %u: wait=%.40s is not PHASE:NAME\n",
			       e->line, s);
			return -EINVAL;
		}
		*name++ = '\0';
		if (pat_parse_wait_opts(e, name, &w))
			return -EINVAL;
		cb = pat_parse_cb(s);
		if (cb < 0) {
			pr_err("line %u: unknown phase '%.40s' in wait=\n",
			       e->line, s);
			return -EINVAL;
		}
		if (!pat_valid_name(name)) {
			pr_err("line %u: invalid name '%.40s' in wait=\n",
			       e->line, name);
			return -EINVAL;
		}
		if (!strcmp(name, e->name)) {
			pr_err("line %u: %s waits for itself\n", e->line, name);
			return -EINVAL;
		}
		for (i = 0; i < e->nr_waits; i++) {
			if (e->waits[i].cb == cb &&
			    !strcmp(e->wait_names[i], name)) {
				pr_err("line %u: wait=%s:%s given twice\n",
				       e->line, s, name);
				return -EINVAL;
			}
		}
		if (e->nr_waits == PAT_MAX_WAITS) {
			pr_err("line %u: more than %d waits\n", e->line,
			       PAT_MAX_WAITS);
			return -EINVAL;
		}
		w.cb = cb;
		w.target = NULL;
		e->waits[e->nr_waits] = w;
		e->wait_names[e->nr_waits++] = name;
	}
	return 0;
}

/*
 * Parse "PHASE:NAME[:ERRNO|:slow=US][@PERCENT[%]]" of hidden= into @e.
 * NAME must be an earlier device, so that the PM core's list keeps the
 * order it needs.  Return 0 or -EINVAL after logging why.
 */
static int pat_parse_hidden(struct pat_entry *e, char *val)
{
	struct pat_hidden *h = &e->hidden;
	char *name, *effect;
	int cb, err;

	h->err = -EAGAIN;
	if (pat_parse_percent(e, val, "hidden", &h->percent))
		return -EINVAL;
	name = strchr(val, ':');
	if (!name) {
		pr_err("line %u: hidden=%.40s is not PHASE:NAME\n", e->line, val);
		return -EINVAL;
	}
	*name++ = '\0';
	cb = pat_parse_cb(val);
	if (cb < 0 || !pat_cbs[cb].level) {
		pr_err("line %u: hidden=%.40s: not a suspend or resume phase\n",
		       e->line, val);
		return -EINVAL;
	}
	h->cb = cb;
	effect = strchr(name, ':');
	if (effect) {
		*effect++ = '\0';
		if (!strncmp(effect, "slow=", 5)) {
			if (kstrtouint(effect + 5, 10, &h->slow_us) ||
			    !h->slow_us || h->slow_us > PAT_MAX_US) {
				pr_err("line %u: bad time in hidden=...:%.40s (1 to %u us)\n",
				       e->line, effect, PAT_MAX_US);
				return -EINVAL;
			}
			h->err = 0;
		} else {
			if (kstrtoint(effect, 10, &err) || !err ||
			    abs(err) > MAX_ERRNO) {
				pr_err("line %u: bad errno in hidden=...:%.40s\n",
				       e->line, effect);
				return -EINVAL;
			}
			h->err = -abs(err);
		}
	}
	if (!pat_valid_name(name) || !strcmp(name, e->name) ||
	    !pat_known(name) || pat_known_no_pm(name)) {
		pr_err("line %u: hidden=: '%.40s' is not an earlier device that takes part in PM\n",
		       e->line, name);
		return -EINVAL;
	}
	e->hidden_name = name;
	return 0;
}

/* Parse a 0 or 1 of key @key into *@flag.  Return 0 or -EINVAL. */
static int pat_parse_bool(const struct pat_entry *e, int key, const char *val,
			  bool *flag)
{
	unsigned int v;

	if (kstrtouint(val, 10, &v) || v > 1) {
		pr_err("line %u: bad number %s=%.40s (0 or 1)\n", e->line,
		       pat_keys[key], val);
		return -EINVAL;
	}
	*flag = v;
	return 0;
}

/* Set @e to the defaults of a topology line (and of a churn device). */
static void pat_entry_init(struct pat_entry *e)
{
	unsigned int i;

	memset(e, 0, sizeof(*e));
	e->async = true;
	e->bind = bind_driver;
	for (i = 0; i < PAT_NR_EV_TIMES; i++)
		e->ev_us[i] = PAT_US_UNSET;
}

/*
 * Parse one line into @e and check it against the devices and the earlier
 * lines of the write.  Return 1 for a device line, 0 for a blank or
 * comment line, -EINVAL after logging the reason.
 */
static int pat_parse_line(char *line, unsigned int lineno, struct pat_entry *e)
{
	DECLARE_BITMAP(seen, PAT_NR_KEYS);
	char *tok, *val;
	unsigned int v;
	int key, fail;

	bitmap_zero(seen, PAT_NR_KEYS);
	val = strchr(line, '#');
	if (val)
		*val = '\0';
	tok = pat_next_token(&line);
	if (!tok)
		return 0;

	pat_entry_init(e);
	e->line = lineno;
	if (!pat_valid_name(tok)) {
		pr_err("line %u: invalid name '%.40s': 1 to %d characters of [A-Za-z0-9_.:-]\n",
		       lineno, tok, PAT_NAME_MAX);
		return -EINVAL;
	}
	e->name = tok;
	if (pat_known(tok)) {
		pr_err("line %u: duplicate name '%s'\n", lineno, tok);
		return -EINVAL;
	}

	while ((tok = pat_next_token(&line))) {
		val = strchr(tok, '=');
		if (!val) {
			pr_err("line %u: '%.40s' is not KEY=VALUE\n",
			       lineno, tok);
			return -EINVAL;
		}
		*val++ = '\0';
		key = match_string(pat_keys, ARRAY_SIZE(pat_keys), tok);
		if (key < 0) {
			pr_err("line %u: unknown key '%.40s'\n", lineno, tok);
			return -EINVAL;
		}
		if (__test_and_set_bit(key, seen)) {
			pr_err("line %u: key '%s' given twice\n", lineno, tok);
			return -EINVAL;
		}

		switch (key) {
		case PAT_KEY_PARENT:
			if (!strcmp(val, e->name)) {
				pr_err("line %u: link cycle: %s is its own parent\n",
				       lineno, val);
				return -EINVAL;
			}
			if (!pat_known(val)) {
				pr_err("line %u: unknown parent '%.40s'\n",
				       lineno, val);
				return -EINVAL;
			}
			e->parent = val;
			break;
		case PAT_KEY_ASYNC:
			if (kstrtouint(val, 10, &v) || v > 1) {
				pr_err("line %u: bad number async=%.40s (0 or 1)\n",
				       lineno, val);
				return -EINVAL;
			}
			e->async = v;
			break;
		case PAT_KEY_PM:
			if (!strcmp(val, "late")) {
				e->pm_late = true;
				break;
			}
			if (kstrtouint(val, 10, &v) || v > 1) {
				pr_err("line %u: bad pm=%.40s (0, 1 or late)\n",
				       lineno, val);
				return -EINVAL;
			}
			e->no_pm = !v;
			break;
		case PAT_KEY_SUPPLIERS:
			if (pat_parse_names(e, val, key, &e->suppliers,
					    &e->nr_suppliers))
				return -EINVAL;
			break;
		case PAT_KEY_MANAGED:
			if (pat_parse_names(e, val, key, &e->managed,
					    &e->nr_managed))
				return -EINVAL;
			break;
		case PAT_KEY_SYNC_CONSUMERS:
			if (pat_parse_names(e, val, key, &e->sync_consumers,
					    &e->nr_sync_consumers))
				return -EINVAL;
			break;
		case PAT_KEY_WAIT:
			if (pat_parse_waits(e, val))
				return -EINVAL;
			break;
		case PAT_KEY_HIDDEN:
			if (pat_parse_hidden(e, val))
				return -EINVAL;
			break;
		case PAT_KEY_DRIVER:
			if (pat_parse_bool(e, key, val, &e->bind))
				return -EINVAL;
			break;
		case PAT_KEY_DIRECT_COMPLETE:
			if (pat_parse_bool(e, key, val, &e->direct_complete))
				return -EINVAL;
			break;
		case PAT_KEY_SMART_SUSPEND:
			if (pat_parse_bool(e, key, val, &e->smart_suspend))
				return -EINVAL;
			break;
		case PAT_KEY_MAY_SKIP_RESUME:
			if (pat_parse_bool(e, key, val, &e->may_skip_resume))
				return -EINVAL;
			break;
		case PAT_KEY_JITTER:
			if (kstrtouint(val, 10, &v) || v > PAT_MAX_US) {
				pr_err("line %u: bad number jitter=%.40s (0 to %u us)\n",
				       lineno, val, PAT_MAX_US);
				return -EINVAL;
			}
			e->jitter_us = v;
			break;
		case PAT_KEY_BUSY:
			if (pat_parse_bool(e, key, val, &e->busy))
				return -EINVAL;
			break;
		case PAT_KEY_EV_TIME0 ... PAT_KEY_EV_TIME0 + PAT_NR_EV_TIMES - 1:
			if (kstrtouint(val, 10, &v) || v > PAT_MAX_US) {
				pr_err("line %u: bad number %s=%.40s (0 to %u us)\n",
				       lineno, tok, val, PAT_MAX_US);
				return -EINVAL;
			}
			e->ev_us[key - PAT_KEY_EV_TIME0] = v;
			break;
		case PAT_KEY_FAIL:
			fail = pat_parse_fail(val);
			if (fail < 0) {
				pr_err("line %u: unknown phase fail=%.40s\n",
				       lineno, val);
				return -EINVAL;
			}
			e->fail = fail;
			break;
		default:
			if (kstrtouint(val, 10, &v) || v > PAT_MAX_US) {
				pr_err("line %u: bad number %s=%.40s (0 to %u us)\n",
				       lineno, tok, val, PAT_MAX_US);
				return -EINVAL;
			}
			e->time_us[key - PAT_KEY_TIME0] = v;
			break;
		}
	}
	if (e->no_pm) {
		/*
		 * Devices that take no part in PM never have the async flag
		 * (nothing sets it and they have no power/async), and the PM
		 * core relies on that: it would run their callbacks when an
		 * async child starts them.
		 */
		if (test_bit(PAT_KEY_ASYNC, seen) && e->async) {
			pr_err("line %u: async=1 with pm=0\n", lineno);
			return -EINVAL;
		}
		e->async = false;
		if (e->nr_sync_consumers) {
			/* device_link_add() needs a supplier on the PM list. */
			pr_err("line %u: sync_consumers= with pm=0: a supplier must take part in PM\n",
			       lineno);
			return -EINVAL;
		}
		if (e->direct_complete || e->smart_suspend ||
		    e->may_skip_resume) {
			pr_err("line %u: direct_complete, smart_suspend or may_skip_resume with pm=0\n",
			       lineno);
			return -EINVAL;
		}
	}
	for (v = 0, tok = (char *)e->managed; v < e->nr_managed;
	     v++, tok += strlen(tok) + 1) {
		if (pat_in_list(e->suppliers, e->nr_suppliers, tok)) {
			pr_err("line %u: %s is in both suppliers= and managed=\n",
			       lineno, tok);
			return -EINVAL;
		}
	}
	if ((e->smart_suspend || e->may_skip_resume) && !e->bind) {
		/* The flags are the driver's, set in its probe. */
		pr_err("line %u: smart_suspend or may_skip_resume without a driver (driver=1)\n",
		       lineno);
		return -EINVAL;
	}
	return 1;
}

/*
 * Create the devices of one topology write, all or nothing.  The whole
 * buffer is parsed and checked first; if creating a device or a link fails
 * midway, everything this write created is removed again.
 */
static int pat_load(char *buf)
{
	unsigned int nlines = 1, n = 0, lineno = 0, i, j;
	unsigned int old_ndevs, old_nlinks;
	struct pat_entry *entries;
	struct pat_dev *pd;
	char *line, *p;
	int ret = 0;

	lockdep_assert_held(&pat_lock);

	for (p = buf; *p; p++)
		if (*p == '\n')
			nlines++;
	entries = kvcalloc(nlines, sizeof(*entries), GFP_KERNEL);
	if (!entries)
		return -ENOMEM;

	while ((line = strsep(&buf, "\n"))) {
		ret = pat_parse_line(line, ++lineno, &entries[n]);
		if (ret < 0)
			goto reset_pending;
		if (!ret)
			continue;
		hash_add(pat_pending, &entries[n].hnode,
			 pat_name_hash(entries[n].name));
		n++;
	}

	/* wait= may name any device of the lab or of this write. */
	for (i = 0; i < n; i++) {
		for (j = 0; j < entries[i].nr_waits; j++) {
			if (pat_known(entries[i].wait_names[j]))
				continue;
			pr_err("line %u: unknown device '%s' in wait=\n",
			       entries[i].line, entries[i].wait_names[j]);
			ret = -EINVAL;
			goto reset_pending;
		}
	}

	ret = pat_reserve(pat_ndevs + n);
	if (ret)
		goto reset_pending;

	old_ndevs = pat_ndevs;
	old_nlinks = pat_nr_links;
	for (i = 0; i < n; i++) {
		ret = pat_create(&entries[i]);
		if (ret) {
			pr_err("line %u: cannot create %s: %d\n",
			       entries[i].line, entries[i].name, ret);
			pat_remove_from(old_ndevs, old_nlinks);
			goto reset_pending;
		}
	}
	for (i = 0; i < n; i++) {
		pd = pat_find(entries[i].name);
		pd->nr_waits = entries[i].nr_waits;
		for (j = 0; j < pd->nr_waits; j++) {
			pd->waits[j] = entries[i].waits[j];
			pd->waits[j].target = pat_find(entries[i].wait_names[j]);
		}
		if (entries[i].hidden_name) {
			pd->hidden = entries[i].hidden;
			pd->hidden.target = pat_find(entries[i].hidden_name);
		}
	}

reset_pending:
	hash_init(pat_pending);
	kvfree(entries);
	return ret;
}

/* Is the write the single word "clear"? */
static bool pat_is_clear(const char *buf)
{
	buf = skip_spaces(buf);
	if (strncmp(buf, "clear", 5))
		return false;
	return !*skip_spaces(buf + 5);
}

static ssize_t pat_topology_write(struct file *file, const char __user *ubuf,
				  size_t count, loff_t *ppos)
{
	char *buf;
	int ret;

	if (count > PAT_WRITE_MAX)
		return -EFBIG;
	buf = kvmalloc(count + 1, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	if (copy_from_user(buf, ubuf, count)) {
		ret = -EFAULT;
		goto free_buf;
	}
	buf[count] = '\0';
	if (strlen(buf) != count) {
		pr_err("topology: NUL byte in input\n");
		ret = -EINVAL;
		goto free_buf;
	}

	mutex_lock(&pat_lock);
	if (pat_in_transition)
		ret = -EBUSY;
	else if (pat_is_clear(buf))
		pat_remove_from(0, 0);
	else
		ret = pat_load(buf);
	mutex_unlock(&pat_lock);

free_buf:
	kvfree(buf);
	return ret ? ret : count;
}

/*
 * seq_file helpers shared by the read-only files: start takes pat_lock and
 * refuses to run during a transition, stop drops it (seq_read() calls stop
 * even when start failed).
 */
static void *pat_seq_lock(void)
{
	mutex_lock(&pat_lock);
	return pat_in_transition ? ERR_PTR(-EBUSY) : NULL;
}

static void pat_seq_stop(struct seq_file *m, void *v)
{
	mutex_unlock(&pat_lock);
}

/* topology and state: one line per device, position = creation index. */
static void *pat_dev_seq_start(struct seq_file *m, loff_t *pos)
{
	void *err = pat_seq_lock();

	if (err)
		return err;
	return *pos < pat_ndevs ? pat_devs[*pos] : NULL;
}

static void *pat_dev_seq_next(struct seq_file *m, void *v, loff_t *pos)
{
	++*pos;
	return *pos < pat_ndevs ? pat_devs[*pos] : NULL;
}

/* One name of a list key: " KEY=NAME" for the first, ",NAME" after. */
static void pat_show_name(struct seq_file *m, const char *key,
			  const char *name, char *sep)
{
	if (*sep == '=')
		seq_printf(m, " %s", key);
	seq_printf(m, "%c%s", *sep, name);
	*sep = ',';
}

/*
 * The links of @pd of kind @kind as a topology key: the suppliers of
 * stateless and managed links, the consumers of SYNC_STATE_ONLY ones (which
 * are listed on the supplier's line), in creation order.
 */
static void pat_show_links(struct seq_file *m, struct pat_dev *pd,
			   enum pat_link_kind kind)
{
	static const char * const keys[] = {
		[PAT_LINK_STATELESS]	= "suppliers",
		[PAT_LINK_MANAGED]	= "managed",
		[PAT_LINK_SYNC_STATE]	= "sync_consumers",
	};
	struct pat_link *lk;
	char sep = '=';

	if (kind == PAT_LINK_SYNC_STATE) {
		list_for_each_entry(lk, &pd->consumers, s_node)
			if (lk->kind == kind)
				pat_show_name(m, keys[kind], lk->consumer->name,
					      &sep);
		return;
	}
	list_for_each_entry(lk, &pd->suppliers, c_node)
		if (lk->kind == kind)
			pat_show_name(m, keys[kind], lk->supplier->name, &sep);
}

static int pat_topology_show(struct seq_file *m, void *v)
{
	struct pat_dev *pd = v;
	char sep = '=';
	int i, fail;

	seq_puts(m, pd->name);
	if (pd->parent)
		seq_printf(m, " parent=%s", pd->parent->name);
	seq_printf(m, " async=%d", pd->dev.power.async_suspend);
	for (i = 0; i < PAT_NR_TIMES; i++)
		seq_printf(m, " %s=%u", pat_keys[PAT_KEY_TIME0 + i],
			   pd->time_us[i]);
	pat_show_links(m, pd, PAT_LINK_STATELESS);
	fail = READ_ONCE(pd->fail);
	if (fail)
		seq_printf(m, " fail=%s", pat_cbs[fail - 1].name);
	if (pat_no_pm(pd))
		seq_puts(m, " pm=0");
	if (pd->pm_late)
		seq_puts(m, " pm=late");
	if (pd->bind != bind_driver)
		seq_printf(m, " driver=%d", pd->bind);
	pat_show_links(m, pd, PAT_LINK_MANAGED);
	pat_show_links(m, pd, PAT_LINK_SYNC_STATE);
	for (i = 0; i < pd->nr_waits; i++) {
		if (!pd->waits[i].target)
			continue;
		seq_printf(m, "%s%s:%s", sep == '=' ? " wait=" : ",",
			   pat_cbs[pd->waits[i].cb].name,
			   pd->waits[i].target->name);
		if (pd->waits[i].from > 1)
			seq_printf(m, "+%u", pd->waits[i].from);
		if (pd->waits[i].percent < 100)
			seq_printf(m, "@%u", pd->waits[i].percent);
		sep = ',';
	}
	if (pd->direct_complete)
		seq_puts(m, " direct_complete=1");
	if (pd->smart_suspend)
		seq_puts(m, " smart_suspend=1");
	if (pd->may_skip_resume)
		seq_puts(m, " may_skip_resume=1");
	if (pd->jitter_us)
		seq_printf(m, " jitter=%u", pd->jitter_us);
	if (pd->hidden.target) {
		seq_printf(m, " hidden=%s:%s", pat_cbs[pd->hidden.cb].name,
			   pd->hidden.target->name);
		if (!pd->hidden.err)
			seq_printf(m, ":slow=%u", pd->hidden.slow_us);
		else if (pd->hidden.err != -EAGAIN)
			seq_printf(m, ":%d", pd->hidden.err);
		if (pd->hidden.percent < 100)
			seq_printf(m, "@%u", pd->hidden.percent);
	}
	for (i = 0; i < PAT_NR_EV_TIMES; i++)
		if (pd->ev_us[i] != PAT_US_UNSET)
			seq_printf(m, " %s=%u", pat_keys[PAT_KEY_EV_TIME0 + i],
				   pd->ev_us[i]);
	if (pd->busy)
		seq_puts(m, " busy=1");
	seq_putc(m, '\n');
	return 0;
}

static const struct seq_operations pat_topology_sops = {
	.start	= pat_dev_seq_start,
	.next	= pat_dev_seq_next,
	.stop	= pat_seq_stop,
	.show	= pat_topology_show,
};

static int pat_topology_open(struct inode *inode, struct file *file)
{
	return seq_open(file, &pat_topology_sops);
}

static const struct file_operations pat_topology_fops = {
	.owner		= THIS_MODULE,
	.open		= pat_topology_open,
	.read		= seq_read,
	.write		= pat_topology_write,
	.llseek		= seq_lseek,
	.release	= seq_release,
};

static int pat_state_show(struct seq_file *m, void *v)
{
	struct pat_dev *pd = v;
	/* Pairs with smp_store_release() in pat_callback(). */
	u32 state = smp_load_acquire(&pd->state);

	seq_printf(m, "%s state=%s rpm=%s depth=%u\n", pd->name,
		   pat_state_names[pat_level(state)],
		   pm_runtime_enabled(&pd->dev) ? "enabled" : "disabled",
		   pd->dev.power.disable_depth);
	return 0;
}

static const struct seq_operations pat_state_sops = {
	.start	= pat_dev_seq_start,
	.next	= pat_dev_seq_next,
	.stop	= pat_seq_stop,
	.show	= pat_state_show,
};

DEFINE_SEQ_ATTRIBUTE(pat_state);

/*
 * report: position 0 is the header, positions [1, PAT_NR_CBS * ndevs] are
 * records (callback-major, devices in creation order; those that did not
 * run are skipped), the next one is the "violations=N" line, then one per
 * kept violation.  The iterator is the position itself.
 */
static unsigned int pat_report_nrec(void)
{
	return PAT_NR_CBS * pat_ndevs;
}

static void *pat_report_seek(loff_t *pos)
{
	unsigned int nrec = pat_report_nrec();
	unsigned int nviol;

	if (!*pos)
		return pos;
	while (*pos <= nrec) {
		unsigned int p = *pos - 1;

		if (pat_devs[p % pat_ndevs]->rec[p / pat_ndevs].ran)
			return pos;
		++*pos;
	}
	nviol = min_t(unsigned int, atomic_read(&pat_nr_violations),
		      PAT_MAX_VIOLATIONS);
	return *pos <= nrec + 1 + nviol ? pos : NULL;
}

static void *pat_report_start(struct seq_file *m, loff_t *pos)
{
	void *err = pat_seq_lock();

	if (err)
		return err;
	return pat_report_seek(pos);
}

static void *pat_report_next(struct seq_file *m, void *v, loff_t *pos)
{
	++*pos;
	return pat_report_seek(pos);
}

static int pat_report_show(struct seq_file *m, void *v)
{
	unsigned int nrec = pat_report_nrec();
	unsigned int p = *(loff_t *)v;
	struct pat_violation *viol;
	const struct pat_rec *rec;
	struct pat_dev *pd;

	if (!p) {
		seq_printf(m, "pm_async_test report version=%d event=%s\n",
			   PAT_REPORT_VERSION, pat_event);
	} else if (p <= nrec) {
		pd = pat_devs[(p - 1) % pat_ndevs];
		rec = &pd->rec[(p - 1) / pat_ndevs];
		seq_printf(m, "name=%s phase=%s start=%lld end=%lld cpu=%u ctx=%s result=%d\n",
			   pd->name, pat_cbs[(p - 1) / pat_ndevs].name,
			   rec->start, rec->end, rec->cpu,
			   rec->worker ? "worker" : "task", rec->result);
	} else if (p == nrec + 1) {
		seq_printf(m, "violations=%d\n",
			   atomic_read(&pat_nr_violations));
	} else {
		viol = &pat_violations[p - nrec - 2];
		/* Pairs with smp_store_release() in pat_violation(). */
		if (smp_load_acquire(&viol->valid))
			seq_printf(m, "violation=%s\n", viol->msg);
	}
	return 0;
}

static const struct seq_operations pat_report_sops = {
	.start	= pat_report_start,
	.next	= pat_report_next,
	.stop	= pat_seq_stop,
	.show	= pat_report_show,
};

DEFINE_SEQ_ATTRIBUTE(pat_report);

static ssize_t pat_fail_write(struct file *file, const char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	char buf[80], *s = buf, *name, *phase;
	struct pat_dev *pd;
	int fail, ret = 0;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';

	name = pat_next_token(&s);
	phase = pat_next_token(&s);
	if (!phase || pat_next_token(&s)) {
		pr_err("fail: expected 'NAME PHASE'\n");
		return -EINVAL;
	}
	fail = pat_parse_fail(phase);
	if (fail < 0) {
		pr_err("fail: unknown phase '%s'\n", phase);
		return -EINVAL;
	}

	mutex_lock(&pat_lock);
	pd = pat_find(name);
	if (pat_in_transition) {
		ret = -EBUSY;
	} else if (!pd) {
		pr_err("fail: unknown device '%s'\n", name);
		ret = -EINVAL;
	} else {
		WRITE_ONCE(pd->fail, fail);
	}
	mutex_unlock(&pat_lock);
	return ret ? ret : count;
}

static const struct file_operations pat_fail_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= pat_fail_write,
	.llseek	= noop_llseek,
};

/**
 * struct pat_churn - A device removed, and maybe one added, during the next
 *	system transition (the ``churn`` file).
 * @armed: The parameters below are set for the next transition.
 * @delay_us: Time from the start of the transition, or from the start of
 *	@at's @at_cb callback, to the removal.
 * @at: Device whose callback starts @delay_us (``DELAY_US@NAME:PHASE``),
 *	empty for the start of the transition.
 * @at_cb: That callback's index (its suspend and resume names cover
 *	hibernation too, as for ``wait=``).
 * @name: Device to remove.
 * @newname: Device to add after the removal, empty for none.
 * @parent: Parent of @newname, empty for a top-level device.
 * @task: The churn thread of the current transition, or NULL.
 * @victim: The device to remove, resolved when the transition starts.
 * @newpd: The device to add (allocated, not yet added), or NULL.
 * @ran: A churn thread ran in the last transition; the fields below are set.
 * @error: Why the last churn could not start (-ENOENT, -EBUSY, -EEXIST,
 *	-ENOMEM), 0 if it ran.
 * @del_start: ktime_get() before the device's links were deleted.
 * @del_end: ktime_get() after device_del() returned.
 * @add_end: ktime_get() after device_add() of @newpd returned.
 * @add_result: What device_add() returned for @newpd, or device_move(),
 *	device_link_add() (0 or -EINVAL) or device_pm_wait_for_dev() for the
 *	other operations.
 * @op: What the thread does to @name (&enum pat_churn_op).
 * @other: The new parent (``move=``), the supplier (``link=``,
 *	``unlink=``) or the device waited for (``wait=``).
 * @otherpd: The device named by @other, resolved when the transition
 *	starts.
 * @lk: The link to add (allocated, not yet added) or to delete.
 * @order: The order of ``move=P:ORDER``, an index into pat_move_orders[]
 *	(0: DPM_ORDER_NONE, plain ``move=P``).
 * @atpd: The device named by @at, resolved when the transition starts,
 *	NULL once it is over.  Read by the callbacks.
 * @fired: @atpd's @at_cb callback has started.
 *
 * Protected by &pat_lock, except that the churn thread owns @victim,
 * @newpd, @lk, @error and the times from its start until kthread_stop()
 * returns.
 */
struct pat_churn {
	bool armed;
	u32 delay_us;
	char at[PAT_NAME_MAX + 1];
	int at_cb;
	struct pat_dev *atpd;
	atomic_t fired;
	char name[PAT_NAME_MAX + 1];
	char newname[PAT_NAME_MAX + 1];
	char parent[PAT_NAME_MAX + 1];
	u8 op;
	char other[PAT_NAME_MAX + 1];
	u8 order;
	struct pat_dev *otherpd;
	struct pat_link *lk;
	struct task_struct *task;
	struct pat_dev *victim;
	struct pat_dev *newpd;
	bool ran;
	int error;
	s64 del_start;
	s64 del_end;
	s64 add_end;
	int add_result;
};

/*
 * What churn does: remove (and add), move, add a link, delete a link, wait
 * for a device.
 */
enum pat_churn_op {
	PAT_CHURN_DEL,
	PAT_CHURN_MOVE,
	PAT_CHURN_LINK,
	PAT_CHURN_UNLINK,
	PAT_CHURN_WAIT,
};

static const char * const pat_churn_ops[] = {
	[PAT_CHURN_DEL]		= "",
	[PAT_CHURN_MOVE]	= "move",
	[PAT_CHURN_LINK]	= "link",
	[PAT_CHURN_UNLINK]	= "unlink",
	[PAT_CHURN_WAIT]	= "wait",
};

/* The device_move() orders of move=P[:ORDER], by &pat_churn.order. */
static const char * const pat_move_order_names[] = {
	"", "after", "before", "last",
};

static const enum dpm_order pat_move_orders[] = {
	DPM_ORDER_NONE, DPM_ORDER_DEV_AFTER_PARENT, DPM_ORDER_PARENT_BEFORE_DEV,
	DPM_ORDER_DEV_LAST,
};

static struct pat_churn pat_churn;
static DECLARE_WAIT_QUEUE_HEAD(pat_churn_wq);

/* A callback starts: let a churn that waits for it go (``@NAME:PHASE``). */
static void pat_churn_fire(struct pat_dev *pd, enum pat_cb cb)
{
	struct pat_churn *c = &pat_churn;

	if (READ_ONCE(c->atpd) == pd && pat_wait_matches(c->at_cb, cb) &&
	    !atomic_xchg(&c->fired, 1))
		wake_up(&pat_churn_wq);
}

/*
 * Move, link, unlink or wait for the churn thread.  The checks skip the
 * moved device's parent relations and the deleted link; the link added is
 * not in the lab's lists before settling, so no check looks at it.  A wait
 * changes nothing: it is device_pm_wait_for_dev() called by a thread that
 * is not the PM core's, as a driver's own thread may call it.
 */
static void pat_churn_change(struct pat_churn *c, struct pat_dev *pd)
{
	switch (c->op) {
	case PAT_CHURN_MOVE:
		/* Pairs with smp_load_acquire() in the checks. */
		smp_store_release(&pd->moved, true);
		/* The mark is visible before the PM core can see the move. */
		smp_mb();
		c->add_result = device_move(&pd->dev, &c->otherpd->dev,
					    pat_move_orders[c->order]);
		break;
	case PAT_CHURN_LINK:
		c->lk->link = device_link_add(&pd->dev, &c->otherpd->dev,
					      DL_FLAG_STATELESS);
		c->add_result = c->lk->link ? 0 : -EINVAL;
		break;
	case PAT_CHURN_UNLINK:
		/* Pairs with smp_load_acquire() in the checks. */
		smp_store_release(&c->lk->gone, true);
		/* The mark is visible before the PM core can see the removal. */
		smp_mb();
		device_link_del(c->lk->link);
		break;
	case PAT_CHURN_WAIT:
		c->add_result = pat_wait_for_dev(pd, c->otherpd);
		break;
	}
}

/*
 * The churn thread: it is a kernel thread and not freezable, so it keeps
 * running while the devices suspend.  The checks skip what it marks gone;
 * the lists are left to pat_churn_settle() after the transition.
 */
static int pat_churn_fn(void *data)
{
	struct pat_churn *c = data;
	struct pat_dev *pd = c->victim;
	struct pat_link *lk;

#ifdef CONFIG_FAULT_INJECTION
	/* As in pat_wait_for_dev(): the starts of what the change leaves. */
	current->make_it_fail = READ_ONCE(pat_nomem);
#endif
	if (c->atpd) {
		wait_event_interruptible(pat_churn_wq,
					 atomic_read(&c->fired) ||
					 kthread_should_stop());
		/* The callback never ran: leave everything in place. */
		if (!atomic_read(&c->fired)) {
			c->error = -ETIME;
			goto wait;
		}
	}
	pat_delay(c->delay_us);
	c->del_start = ktime_get_ns();
	if (c->op != PAT_CHURN_DEL) {
		pat_churn_change(c, pd);
		c->del_end = ktime_get_ns();
		goto wait;
	}
	list_for_each_entry(lk, &pd->suppliers, c_node) {
		/* Pairs with smp_load_acquire() in pat_check_resume(). */
		smp_store_release(&lk->gone, true);
	}
	list_for_each_entry(lk, &pd->consumers, s_node) {
		/* Pairs with smp_load_acquire() in pat_check_suspend(). */
		smp_store_release(&lk->gone, true);
	}
	/* Pairs with smp_load_acquire() in pat_check_suspend(). */
	smp_store_release(&pd->gone, true);
	/* The marks are visible before the PM core can see any removal. */
	smp_mb();
	/* device_del() deletes the managed links. */
	list_for_each_entry(lk, &pd->suppliers, c_node)
		if (lk->kind == PAT_LINK_STATELESS)
			device_link_del(lk->link);
	list_for_each_entry(lk, &pd->consumers, s_node)
		if (lk->kind == PAT_LINK_STATELESS)
			device_link_del(lk->link);
	/* The reference of device_initialize() is dropped when settling. */
	pat_pm_unmark(pd);
	device_del(&pd->dev);
	c->del_end = ktime_get_ns();

	if (c->newpd) {
		c->add_result = device_add(&c->newpd->dev);
		c->add_end = ktime_get_ns();
	}

wait:
	/* Wait for kthread_stop() at the end of the transition. */
	set_current_state(TASK_INTERRUPTIBLE);
	while (!kthread_should_stop()) {
		schedule();
		set_current_state(TASK_INTERRUPTIBLE);
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

/* Does @pd have children among the lab devices? */
static bool pat_has_children(struct pat_dev *pd)
{
	return !list_empty(&pd->children);
}

/* The lab's link from @consumer to @supplier, of any kind, or NULL. */
static struct pat_link *pat_find_link(struct pat_dev *consumer,
				      struct pat_dev *supplier)
{
	struct pat_link *lk;

	list_for_each_entry(lk, &consumer->suppliers, c_node)
		if (lk->supplier == supplier)
			return lk;
	return NULL;
}

/*
 * Check move=, link=, unlink= and wait= against the current devices: the
 * other device exists and was created before @victim (so parents and
 * suppliers stay older than their children and consumers), a supplier or a
 * device to wait for takes part in PM, a new link is new and a link to
 * delete is a stateless one.
 */
static int pat_churn_resolve_op(struct pat_dev *victim, struct pat_dev **other)
{
	struct pat_churn *c = &pat_churn;
	struct pat_link *lk;

	*other = pat_find(c->other);
	if (!*other)
		return -ENOENT;
	if ((*other)->seq >= victim->seq)
		return -EINVAL;
	lk = pat_find_link(victim, *other);
	switch (c->op) {
	case PAT_CHURN_LINK:
		if (device_pm_not_required(&(*other)->dev))
			return -EINVAL;
		return lk ? -EEXIST : 0;
	case PAT_CHURN_WAIT:
		return device_pm_not_required(&(*other)->dev) ? -EINVAL : 0;
	case PAT_CHURN_UNLINK:
		return lk && lk->kind == PAT_LINK_STATELESS ? 0 : -ENOENT;
	}
	return 0;
}

/*
 * Check the armed churn against the current devices.  Return 0 and set
 * *@victim and *@parent (the new device's parent, or the other device of
 * move=, link=, unlink= and wait=), or a negative error code.
 */
static int pat_churn_resolve(struct pat_dev **victim, struct pat_dev **parent)
{
	struct pat_churn *c = &pat_churn;

	lockdep_assert_held(&pat_lock);

	if (c->at[0] && !pat_find(c->at))
		return -ENOENT;
	*victim = pat_find(c->name);
	if (!*victim)
		return -ENOENT;
	if (c->op != PAT_CHURN_DEL)
		return pat_churn_resolve_op(*victim, parent);
	if (pat_has_children(*victim))
		return -EBUSY;
	*parent = NULL;
	if (!c->newname[0])
		return 0;
	if (strcmp(c->newname, c->name) && pat_find(c->newname))
		return -EEXIST;
	if (c->parent[0]) {
		*parent = pat_find(c->parent);
		if (!*parent)
			return -ENOENT;
		if (*parent == *victim)
			return -EINVAL;
	}
	return 0;
}

/* Drop what a churn that did not run had ready for the thread. */
static void pat_churn_drop(struct pat_churn *c)
{
	if (c->newpd)
		put_device(&c->newpd->dev);
	c->newpd = NULL;
	c->victim = NULL;
	if (c->op == PAT_CHURN_LINK)
		kfree(c->lk);
	c->lk = NULL;
	WRITE_ONCE(c->atpd, NULL);
}

/* A transition starts: start the churn thread if churn is armed. */
static void pat_churn_start(void)
{
	struct pat_churn *c = &pat_churn;
	struct pat_dev *victim, *parent;
	struct task_struct *t;
	struct pat_entry e;
	int ret;

	lockdep_assert_held(&pat_lock);

	if (!c->armed)
		return;
	pat_entry_init(&e);
	c->armed = false;
	c->ran = true;
	c->del_start = 0;
	c->del_end = 0;
	c->add_end = 0;
	c->add_result = 0;
	c->newpd = NULL;
	c->lk = NULL;

	ret = pat_churn_resolve(&victim, &parent);
	c->otherpd = parent;
	if (!ret && c->op == PAT_CHURN_UNLINK)
		c->lk = pat_find_link(victim, parent);
	if (!ret && c->op == PAT_CHURN_LINK) {
		c->lk = kzalloc_obj(*c->lk);
		if (c->lk) {
			c->lk->kind = PAT_LINK_STATELESS;
			c->lk->supplier = parent;
			c->lk->consumer = victim;
			c->lk->waited = true;
		} else {
			ret = -ENOMEM;
		}
	}
	/* Room for the new device, so settling cannot fail. */
	if (!ret && c->newname[0])
		ret = pat_reserve(pat_ndevs + 1);
	if (!ret && c->newname[0]) {
		e.name = c->newname;
		c->newpd = pat_alloc(&e, parent);
		if (IS_ERR(c->newpd)) {
			ret = PTR_ERR(c->newpd);
			c->newpd = NULL;
		}
	}
	if (!ret) {
		c->victim = victim;
		atomic_set(&c->fired, 0);
		WRITE_ONCE(c->atpd, c->at[0] ? pat_find(c->at) : NULL);
		t = kthread_run(pat_churn_fn, c, "pat_churn");
		if (IS_ERR(t)) {
			ret = PTR_ERR(t);
		} else {
			get_task_struct(t);
			c->task = t;
		}
	}
	if (ret) {
		pat_churn_drop(c);
		pr_warn("churn: cannot change %s: %d\n", c->name, ret);
	}
	c->error = ret;
}

/*
 * Settle move=, link= and unlink= (see pat_churn_settle()); wait= leaves
 * nothing to settle.
 */
static void pat_churn_settle_op(struct pat_churn *c, struct pat_dev *pd)
{
	struct pat_link *lk = c->lk;

	switch (c->op) {
	case PAT_CHURN_MOVE:
		WRITE_ONCE(pd->moved, false);
		if (c->add_result)
			break;
		if (pd->parent)
			list_del(&pd->sibling);
		pd->parent = c->otherpd;
		list_add_tail(&pd->sibling, &pd->parent->children);
		break;
	case PAT_CHURN_LINK:
		if (c->add_result) {
			kfree(lk);
			break;
		}
		list_add_tail(&lk->node, &pat_links);
		list_add_tail(&lk->s_node, &lk->supplier->consumers);
		list_add_tail(&lk->c_node, &lk->consumer->suppliers);
		pat_nr_links++;
		break;
	case PAT_CHURN_UNLINK:
		list_del(&lk->node);
		list_del(&lk->s_node);
		list_del(&lk->c_node);
		kfree(lk);
		pat_nr_links--;
		break;
	}
	c->lk = NULL;
	c->victim = NULL;
}

/*
 * The transition is over: stop the churn thread and bring the lab's tables
 * and lists up to date with what it removed and added.
 */
static void pat_churn_settle(void)
{
	struct pat_churn *c = &pat_churn;
	struct pat_dev *pd = c->victim;
	struct pat_link *lk, *tmp;
	unsigned int i, j;

	lockdep_assert_held(&pat_lock);

	if (!c->task)
		return;
	kthread_stop(c->task);
	put_task_struct(c->task);
	c->task = NULL;
	/* The thread did nothing: its callback never ran. */
	if (c->error) {
		pat_churn_drop(c);
		return;
	}
	WRITE_ONCE(c->atpd, NULL);
	if (c->op != PAT_CHURN_DEL) {
		pat_churn_settle_op(c, pd);
		return;
	}

	list_for_each_entry_safe(lk, tmp, &pat_links, node) {
		if (lk->supplier != pd && lk->consumer != pd)
			continue;
		list_del(&lk->node);
		list_del(&lk->s_node);
		list_del(&lk->c_node);
		kfree(lk);
		pat_nr_links--;
	}
	for (i = 0; i < pat_ndevs && pat_devs[i] != pd; i++)
		;
	if (i < pat_ndevs) {
		memmove(&pat_devs[i], &pat_devs[i + 1],
			(pat_ndevs - i - 1) * sizeof(*pat_devs));
		pat_devs[--pat_ndevs] = NULL;
	}
	hash_del(&pd->hnode);
	if (pd->parent)
		list_del(&pd->sibling);
	/* Nothing waits for the removed device any more. */
	for (i = 0; i < pat_ndevs; i++)
		for (j = 0; j < pat_devs[i]->nr_waits; j++)
			if (pat_devs[i]->waits[j].target == pd)
				pat_devs[i]->waits[j].target = NULL;
	for (i = 0; i < pat_ndevs; i++)
		if (pat_devs[i]->hidden.target == pd)
			pat_devs[i]->hidden.target = NULL;
	/* As in pat_remove_from(): the links' references go first. */
	device_link_wait_removal();
	put_device(&pd->dev);
	c->victim = NULL;

	if (c->newpd) {
		if (c->add_result)
			put_device(&c->newpd->dev);
		else
			pat_track(c->newpd);
		c->newpd = NULL;
	}
}

/* "DELAY_US" or "DELAY_US@NAME:PHASE", as written. */
static void pat_churn_show_when(struct seq_file *m, struct pat_churn *c)
{
	seq_printf(m, "%u", c->delay_us);
	if (c->at[0])
		seq_printf(m, "@%s:%s", c->at, pat_cbs[c->at_cb].name);
}

static int pat_churn_show(struct seq_file *m, void *v)
{
	struct pat_churn *c = &pat_churn;

	mutex_lock(&pat_lock);
	if (pat_in_transition) {
		mutex_unlock(&pat_lock);
		return -EBUSY;
	}
	if (c->armed) {
		seq_puts(m, "armed ");
		pat_churn_show_when(m, c);
		seq_printf(m, " %s", c->name);
		if (c->op != PAT_CHURN_DEL)
			seq_printf(m, " %s=%s", pat_churn_ops[c->op], c->other);
		if (c->order)
			seq_printf(m, ":%s", pat_move_order_names[c->order]);
		if (c->newname[0])
			seq_printf(m, " %s", c->newname);
		if (c->parent[0])
			seq_printf(m, " parent=%s", c->parent);
		seq_putc(m, '\n');
	} else if (c->ran && c->error) {
		seq_puts(m, "skipped ");
		pat_churn_show_when(m, c);
		seq_printf(m, " %s %d\n", c->name, c->error);
	} else if (c->ran && c->op != PAT_CHURN_DEL) {
		seq_puts(m, "done ");
		pat_churn_show_when(m, c);
		seq_printf(m, " %s %s=%s", c->name, pat_churn_ops[c->op],
			   c->other);
		if (c->order)
			seq_printf(m, ":%s", pat_move_order_names[c->order]);
		seq_printf(m, " %lld %lld %d\n", c->del_start, c->del_end,
			   c->add_result);
	} else if (c->ran) {
		seq_puts(m, "done ");
		pat_churn_show_when(m, c);
		seq_printf(m, " %s %lld %lld", c->name, c->del_start,
			   c->del_end);
		if (c->newname[0])
			seq_printf(m, " %s %lld %d", c->newname, c->add_end,
				   c->add_result);
		seq_putc(m, '\n');
	}
	mutex_unlock(&pat_lock);
	return 0;
}

static int pat_churn_open(struct inode *inode, struct file *file)
{
	return single_open(file, pat_churn_show, NULL);
}

/*
 * Parse "DELAY_US NAME [NEWNAME [parent=P]]", "DELAY_US NAME OP=OTHER" (OP
 * move, link or unlink; move=P may end in :after, :before or :last) or
 * "none" into pat_churn.  DELAY_US may be followed by "@AT:PHASE".
 */
static int pat_churn_parse(char *s)
{
	struct pat_churn *c = &pat_churn;
	char *tok[4], *p, *other, *sfx, *at;
	unsigned int n = 0;
	int op, order = 0, at_cb = 0;
	u32 delay;

	while (n < ARRAY_SIZE(tok) && (tok[n] = pat_next_token(&s)))
		n++;
	if (pat_next_token(&s))
		return -EINVAL;
	if (n == 1 && !strcmp(tok[0], "none")) {
		c->armed = false;
		return 0;
	}
	/* A device's name may hold ':', a callback's does not. */
	at = strchr(tok[0], '@');
	if (at) {
		*at++ = '\0';
		sfx = strrchr(at, ':');
		if (!sfx)
			return -EINVAL;
		*sfx++ = '\0';
		at_cb = pat_parse_cb(sfx);
		if (at_cb < 0 || !pat_valid_name(at))
			return -EINVAL;
	}
	if (n < 2 || kstrtou32(tok[0], 10, &delay) || delay > PAT_MAX_US ||
	    !pat_valid_name(tok[1]))
		return -EINVAL;
	op = PAT_CHURN_DEL;
	other = "";
	if (n == 3 && strchr(tok[2], '=')) {
		other = strchr(tok[2], '=');
		*other++ = '\0';
		op = match_string(pat_churn_ops, ARRAY_SIZE(pat_churn_ops),
				  tok[2]);
		/* A trailing :after, :before or :last is the order. */
		sfx = op == PAT_CHURN_MOVE ? strrchr(other, ':') : NULL;
		if (sfx)
			order = match_string(pat_move_order_names,
					     ARRAY_SIZE(pat_move_order_names),
					     sfx + 1);
		if (order > 0)
			*sfx = '\0';
		else
			order = 0;
		if (op <= PAT_CHURN_DEL || !pat_valid_name(other))
			return -EINVAL;
		n = 2;
	}
	if (n >= 3 && !pat_valid_name(tok[2]))
		return -EINVAL;
	p = NULL;
	if (n == 4) {
		if (strncmp(tok[3], "parent=", 7) ||
		    !pat_valid_name(tok[3] + 7))
			return -EINVAL;
		p = tok[3] + 7;
	}
	c->delay_us = delay;
	strscpy(c->at, at ? at : "");
	c->at_cb = at_cb;
	strscpy(c->name, tok[1]);
	strscpy(c->newname, n >= 3 ? tok[2] : "");
	c->op = op;
	c->order = order;
	strscpy(c->other, other);
	strscpy(c->parent, p ? p : "");
	c->armed = true;
	return 0;
}

static ssize_t pat_churn_write(struct file *file, const char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	struct pat_dev *victim, *parent;
	char buf[128];
	int ret;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';

	mutex_lock(&pat_lock);
	if (pat_in_transition) {
		ret = -EBUSY;
		goto unlock;
	}
	ret = pat_churn_parse(buf);
	if (ret) {
		pr_err("churn: expected 'DELAY_US NAME [NEWNAME [parent=P]]', 'DELAY_US NAME move=NAME[:after|:before|:last]', 'DELAY_US NAME link|unlink=NAME' (DELAY_US may be DELAY_US@NAME:PHASE) or 'none'\n");
		goto unlock;
	}
	/* Refuse now what would be skipped at the transition. */
	if (pat_churn.armed) {
		ret = pat_churn_resolve(&victim, &parent);
		if (ret) {
			pr_err("churn: cannot change %s (or add %s, or %s %s): %d\n",
			       pat_churn.name, pat_churn.newname,
			       pat_churn_ops[pat_churn.op], pat_churn.other, ret);
			pat_churn.armed = false;
			ret = -EINVAL;
		}
	}
unlock:
	mutex_unlock(&pat_lock);
	return ret ? ret : count;
}

static const struct file_operations pat_churn_fops = {
	.owner		= THIS_MODULE,
	.open		= pat_churn_open,
	.read		= seq_read,
	.write		= pat_churn_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

/*
 * The watchdog: the longest a system transition may take, in seconds (0:
 * no watchdog).  User space is frozen while the devices suspend and the
 * hung task detector is off during transitions, so a transition that hangs
 * there could not be seen from anywhere else.
 */
static u32 pat_watchdog_s;

static void pat_watchdog_fn(struct work_struct *work)
{
	struct task_struct *g, *t;
	unsigned int state;

	pr_emerg("watchdog: system transition not over after %u s, the PM task and the blocked tasks:\n",
		 pat_watchdog_s);
	rcu_read_lock();
	/*
	 * The PM task is still in the transition (no PM_POST_* yet), so it
	 * exists; it may be running rather than blocked (a livelock).
	 */
	sched_show_task(READ_ONCE(pat_pm_task));
	for_each_process_thread(g, t) {
		state = READ_ONCE(t->__state);
		if (t != READ_ONCE(pat_pm_task) &&
		    (state & TASK_UNINTERRUPTIBLE) && !(state & TASK_NOLOAD))
			sched_show_task(t);
	}
	rcu_read_unlock();
	debug_show_all_locks();
	/*
	 * With user space frozen, nothing here can end the transition: say so
	 * (printed whether or not CONFIG_BUG is set) and warn, and leave the
	 * machine to whoever watches its console (a test harness stops it;
	 * with panic_on_warn the kernel panics).
	 */
	pr_emerg("watchdog: hung system transition\n");
	WARN_ON(1);
}

static DECLARE_DELAYED_WORK(pat_watchdog, pat_watchdog_fn);

/*
 * A transition of @event starts: forget the previous one, note the PM task
 * and lock the control files.  No callback of the new transition has run yet.
 */
static void pat_transition_begin(const char *event)
{
	struct pat_link *lk;
	unsigned int i;

	mutex_lock(&pat_lock);
	for (i = 0; i < pat_ndevs; i++) {
		memset(pat_devs[i]->rec, 0, sizeof(pat_devs[i]->rec));
		/*
		 * The tests change power/async only between transitions;
		 * user space is frozen before the first device callback.
		 */
		pat_devs[i]->sync = !pat_devs[i]->dev.power.async_suspend;
		/*
		 * is_async() of the PM core, which also says no while
		 * pm_trace is enabled; that case is ignored, the lab does
		 * not run with CONFIG_PM_TRACE.
		 */
		pat_devs[i]->async = pat_devs[i]->dev.power.async_suspend &&
				     READ_ONCE(pm_async_enabled);
		if (pat_devs[i]->nr_transitions < PAT_MAX_FROM)
			pat_devs[i]->nr_transitions++;
	}
	/*
	 * Probing is blocked during the transition, so a managed link stays
	 * dormant or not until churn deletes it.
	 */
	list_for_each_entry(lk, &pat_links, node)
		lk->waited = lk->kind != PAT_LINK_SYNC_STATE &&
			     READ_ONCE(lk->link->status) != DL_STATE_DORMANT;
	for (i = 0; i < PAT_MAX_VIOLATIONS; i++)
		pat_violations[i].valid = 0;
	atomic_set(&pat_nr_violations, 0);
	WRITE_ONCE(pat_pm_task, current);
	pat_event = event;
	pat_in_transition = true;
	pat_churn_start();
	mutex_unlock(&pat_lock);
	if (READ_ONCE(pat_watchdog_s))
		queue_delayed_work(system_dfl_wq, &pat_watchdog,
				   msecs_to_jiffies(READ_ONCE(pat_watchdog_s) *
						    MSEC_PER_SEC));
}

static void pat_transition_end(void)
{
	cancel_delayed_work_sync(&pat_watchdog);
	mutex_lock(&pat_lock);
	pat_churn_settle();
	pat_in_transition = false;
	mutex_unlock(&pat_lock);
}

static int pat_pm_notify(struct notifier_block *nb, unsigned long action,
			 void *data)
{
	switch (action) {
	case PM_SUSPEND_PREPARE:
		pat_transition_begin("suspend");
		break;
	case PM_HIBERNATION_PREPARE:
		pat_transition_begin("hibernate");
		break;
	case PM_POST_SUSPEND:
	case PM_POST_HIBERNATION:
		pat_transition_end();
		break;
	}
	return NOTIFY_DONE;
}

static struct notifier_block pat_pm_nb = {
	.notifier_call = pat_pm_notify,
};

static int __init pat_init(void)
{
	int ret;

	ret = bus_register(&pat_bus);
	if (ret)
		return ret;
	ret = driver_register(&pat_driver);
	if (ret)
		goto err_unregister_bus;
	ret = register_pm_notifier(&pat_pm_nb);
	if (ret)
		goto err_unregister_driver;

	pat_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("topology", 0644, pat_dir, NULL,
			    &pat_topology_fops);
	debugfs_create_file("fail", 0200, pat_dir, NULL, &pat_fail_fops);
	debugfs_create_file("report", 0444, pat_dir, NULL, &pat_report_fops);
	debugfs_create_file("state", 0444, pat_dir, NULL, &pat_state_fops);
	debugfs_create_file("churn", 0644, pat_dir, NULL, &pat_churn_fops);
	debugfs_create_u32("watchdog", 0644, pat_dir, &pat_watchdog_s);
	debugfs_create_u32("draws", 0644, pat_dir, &pat_draws_seed);
	debugfs_create_bool("nomem", 0644, pat_dir, &pat_nomem);
	return 0;

err_unregister_driver:
	driver_unregister(&pat_driver);
err_unregister_bus:
	bus_unregister(&pat_bus);
	return ret;
}
module_init(pat_init);

static void __exit pat_exit(void)
{
	debugfs_remove_recursive(pat_dir);
	unregister_pm_notifier(&pat_pm_nb);
	cancel_delayed_work_sync(&pat_watchdog);
	mutex_lock(&pat_lock);
	pat_remove_from(0, 0);
	mutex_unlock(&pat_lock);
	kvfree(pat_devs);
	driver_unregister(&pat_driver);
	bus_unregister(&pat_bus);
}
module_exit(pat_exit);

MODULE_DESCRIPTION("Synthetic device lab for async system suspend/resume");
MODULE_LICENSE("GPL");
MODULE_INFO(test, "Y");
