// SPDX-License-Identifier: GPL-2.0
/*
 * Dependency-driven scheduling of device suspend and resume callbacks.
 *
 * Copyright (c) 2026 The pm-async developers
 */

/**
 * DOC: Dependency-driven device suspend and resume
 *
 * Goal: run every async device's callback of a system sleep phase the moment
 * the devices it depends on are done with that phase, without a worker ever
 * sleeping on another device, while keeping every ordering guarantee of the
 * PM core.
 *
 * In a suspend phase (suspend, suspend_late, suspend_noirq and their
 * hibernation forms) a device depends on its children and on its consumers
 * over device links that are not dormant.  In a resume phase it depends on
 * its parent and its suppliers.  Only devices taking part in the phase count.
 *
 * A phase is a "walk" (&struct dpm_walk).  The PM task adds the devices in
 * the order it would have handled them one by one (dpm_walk_add()), which
 * is a topological order of the dependencies: the dpm lists put parents
 * before children and suppliers before consumers.  dpm_walk_link() then
 * records the dependencies once, under dpm_list_mtx and the device links
 * read lock:
 *
 * - the parent of a device, if it takes part in the walk, in
 *   &dpm_node.parent, and the children as a list threaded through
 *   &dpm_node.child and &dpm_node.sibling;
 * - each counted device link is stamped with the generation number of the
 *   walk (&device_link.dpm_gen), so links created later are ignored;
 * - each device's &dpm_node.pending counts its dependencies, plus one
 *   "token" for async devices that the PM task releases when it starts the
 *   walk.
 *
 * When a device is done, the thread that ran it decrements the count of
 * each device depending on it.  The thread that brings a count to zero owns
 * the start of that device: an async device is handed to the async
 * framework, or run in place when its callback was short the last time
 * (cheaper than a dispatch) or when it is the one device a worker made ready
 * (a continuation).  A sync device is only ever run by the PM task, which is
 * woken up for it.  Each start is claimed with test_and_set_bit(), so no
 * device runs twice.
 *
 * The PM task first releases the tokens of all async devices, so those with
 * nothing to wait for start at once (leaves in suspend, roots in resume),
 * then runs the sync devices in walk order, each once its dependencies are
 * done.  While it waits for one, async devices keep starting as their own
 * dependencies finish: a sync device never holds back unrelated async ones.
 * When a walk has many async devices, a helper in the async framework
 * releases the second half of the tokens meanwhile, so that two threads
 * start devices (and run the short ones in place).  With pm_async off
 * every device is sync and the walk is the sequential order of Linux 6.12.
 *
 * Errors: in a suspend phase the first error (or a pending wakeup) stops
 * new starts.  Devices already started finish; devices not started are left
 * alone, so the caller moves exactly the started devices to the next list
 * and the existing rollback resumes exactly those.
 *
 * Nothing can hang: if a dependency disappears during the phase (a device
 * link or a device deleted), a count may never reach zero.  The PM task
 * notices when no device is in flight while devices are still waiting, and
 * then starts the first waiting device in walk order itself, which is safe
 * because everything before it in walk order has finished.
 *
 * Memory: all state is in &dev_pm_info.dpm and &struct dpm_walk, nothing is
 * allocated during a transition except the async framework's work items;
 * when those cannot be allocated the device runs in place.
 */

#define pr_fmt(fmt) "PM: " fmt

#include <linux/async.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/export.h>
#include <linux/ktime.h>
#include <linux/pm.h>
#include <linux/pm-trace.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/suspend.h>
#include <linux/wait.h>
#include <kunit/visibility.h>

#include "../base.h"
#include "power.h"

/* Bits in &dpm_node.flags, always changed with atomic bitops. */
enum {
	DPM_NODE_ASYNC,		/* async in this walk (fixed at dpm_walk_add()) */
	DPM_NODE_STARTED,	/* claimed: the callback runs or has run */
	DPM_NODE_DONE,		/* finished and dependents notified */
	DPM_NODE_REMOVED,	/* device_pm_remove() was called for it */
};

/*
 * Callbacks that took less than this the last time run in place instead of
 * being handed to the async framework; 0 disables that.  Continuations can
 * be switched off too, both only to measure what they bring.
 */
static unsigned int dpm_inline_us = 50;
static bool dpm_continue = true;

/*
 * With at least twice this many async devices in a walk (and more than one
 * CPU), a helper in the async framework starts the second half of them while
 * the PM task starts the first half; 0 disables that.  Starting a device
 * costs a work item and a wake-up, or the whole callback when it is short,
 * so on wide trees one thread starting them all is what takes the time.
 */
static unsigned int dpm_split_min = 256;

/* What the last walk of each phase did, for debugfs; dpm_last_mtx. */
#define DPM_CHAIN_MAX	16

struct dpm_phase_report {
	struct dpm_walk_stats stats;
	u32 chain_len;
	u32 shown;
	char chain[DPM_CHAIN_MAX][32];
};

static DEFINE_MUTEX(dpm_last_mtx);
static struct dpm_phase_report dpm_last[DPM_NR_PHASES];

static const char * const dpm_phase_names[DPM_NR_PHASES] = {
	[DPM_SUSPEND] = "suspend",
	[DPM_SUSPEND_LATE] = "suspend_late",
	[DPM_SUSPEND_NOIRQ] = "suspend_noirq",
	[DPM_RESUME_NOIRQ] = "resume_noirq",
	[DPM_RESUME_EARLY] = "resume_early",
	[DPM_RESUME] = "resume",
};

/* pm_trace needs the devices to run one at a time, in list order. */
static bool dpm_is_async(struct device *dev)
{
	return dev->power.async_suspend && pm_async_enabled &&
	       !pm_trace_is_enabled();
}

static inline bool dpm_phase_is_resume(enum dpm_phase phase)
{
	return phase >= DPM_RESUME_NOIRQ;
}

static inline struct dpm_node *node(struct device *dev)
{
	return &dev->power.dpm;
}

static inline bool dpm_node_test(struct device *dev, int bit)
{
	return test_bit(bit, &node(dev)->flags);
}

/*
 * Wake the PM task if it waits in dpm_walk_run(); it is the only waiter.
 * Callers change the condition it waits for with a value-returning atomic
 * or under the error cmpxchg() first; wq_has_sleeper() has the barrier
 * that pairs with the one in prepare_to_wait().  Most devices finish while
 * nobody waits, and this keeps the wait queue lock out of their path.
 */
static void dpm_wake_task(struct dpm_walk *walk)
{
	if (wq_has_sleeper(&walk->wq))
		wake_up(&walk->wq);
}

/*
 * A device (or the start helper) of @walk is done: leave the count of those
 * in flight, and wake the PM task if that was the last one.  Dependents
 * must have been notified before, see dpm_idle().
 */
static void dpm_leave(struct dpm_walk *walk)
{
	if (atomic_dec_and_test(&walk->inflight))
		dpm_wake_task(walk);
}

/**
 * dpm_walk_init - Prepare a walk over the devices of one phase.
 * @walk: Walk to initialize.
 * @phase: Phase of the system transition.
 * @state: PM transition of the system being carried out.
 * @run: Per-device worker; @async is true when it runs outside the PM task.
 *
 * Context: Process context, the PM task.
 */
void dpm_walk_init(struct dpm_walk *walk, enum dpm_phase phase,
		   pm_message_t state, dpm_run_fn run)
{
	static u32 dpm_gen;

	memset(walk, 0, sizeof(*walk));
	walk->phase = phase;
	walk->resume = dpm_phase_is_resume(phase);
	walk->state = state;
	walk->run = run;
	walk->task = current;
	/* Zero means "in no walk": skip it when the counter wraps. */
	walk->gen = ++dpm_gen ?: ++dpm_gen;
	INIT_LIST_HEAD(&walk->devices);
	init_waitqueue_head(&walk->wq);
	atomic_set(&walk->inflight, 0);
	walk->report = true;
	walk->inline_ns = (u64)READ_ONCE(dpm_inline_us) * NSEC_PER_USEC;
	walk->split_min = READ_ONCE(dpm_split_min);
	walk->stats.event = state.event;
}
EXPORT_SYMBOL_IF_KUNIT(dpm_walk_init);

/**
 * dpm_walk_add - Add a device to a walk.
 * @walk: Walk to add the device to.
 * @dev: Device, in the order in which the PM task handles devices.
 *
 * Takes a reference on @dev that dpm_walk_finish() drops, so every device
 * of the walk stays valid while other devices look at it.  The async flag is
 * sampled here: changing power/async during the walk takes effect next time.
 *
 * Context: Process context, with dpm_list_mtx held (or the devices otherwise
 * private to the caller).
 */
void dpm_walk_add(struct dpm_walk *walk, struct device *dev)
{
	struct dpm_node *n = node(get_device(dev));

	n->walk = walk;
	n->gen = walk->gen;
	n->flags = 0;
	n->parent = NULL;
	n->child = NULL;
	n->sibling = NULL;
	n->next = NULL;
	n->cp_prev = NULL;
	n->dur_ns = 0;
	n->cp_ns = 0;
	if (dpm_is_async(dev)) {
		__set_bit(DPM_NODE_ASYNC, &n->flags);
		walk->nr_async++;
	}
	atomic_set(&n->pending, dpm_node_test(dev, DPM_NODE_ASYNC));
	reinit_completion(&dev->power.completion);
	list_add_tail(&n->entry, &walk->devices);
	walk->stats.devices++;
}
EXPORT_SYMBOL_IF_KUNIT(dpm_walk_add);

static inline bool dpm_in_walk(struct dpm_walk *walk, struct device *dev)
{
	return dev && node(dev)->gen == walk->gen;
}

/* Count one dependency of @dev. */
static void dpm_count(struct device *dev)
{
	atomic_inc(&node(dev)->pending);
}

/**
 * dpm_walk_link - Record the dependencies between the devices of a walk.
 * @walk: Walk whose devices have all been added.
 *
 * Context: Process context, with dpm_list_mtx held (or the devices otherwise
 * private to the caller), before dpm_walk_run().
 */
void dpm_walk_link(struct dpm_walk *walk)
{
	struct device_link *link;
	struct dpm_node *n;
	int idx;

	idx = device_links_read_lock();

	list_for_each_entry(n, &walk->devices, entry) {
		struct device *dev = container_of(n, struct device, power.dpm);
		struct device *parent = dev->parent;

		if (dpm_in_walk(walk, parent)) {
			n->parent = parent;
			n->sibling = node(parent)->child;
			node(parent)->child = dev;
			dpm_count(walk->resume ? dev : parent);
		}

		list_for_each_entry_rcu(link, &dev->links.suppliers, c_node,
					device_links_read_lock_held()) {
			if (READ_ONCE(link->status) == DL_STATE_DORMANT ||
			    !dpm_in_walk(walk, link->supplier)) {
				WRITE_ONCE(link->dpm_gen, 0);
				continue;
			}
			WRITE_ONCE(link->dpm_gen, walk->gen);
			dpm_count(walk->resume ? dev : link->supplier);
		}
	}

	device_links_read_unlock(idx);
}
EXPORT_SYMBOL_IF_KUNIT(dpm_walk_link);

/**
 * dpm_node_removed - Note that a device left the PM core's lists.
 * @dev: Device being removed.
 *
 * The device stays in the walk it takes part in (with its reference), so
 * nothing the walk holds goes away; it is skipped if it has not run yet.
 */
void dpm_node_removed(struct device *dev)
{
	set_bit(DPM_NODE_REMOVED, &node(dev)->flags);
}

/* Run on the local stack of the calling thread. */
static void dpm_push(struct device **stack, struct device *dev)
{
	node(dev)->next = *stack;
	*stack = dev;
}

static struct device *dpm_pop(struct device **stack)
{
	struct device *dev = *stack;

	if (dev)
		*stack = node(dev)->next;
	return dev;
}

static bool dpm_fast(struct dpm_walk *walk, struct device *dev)
{
	return walk->inline_ns &&
	       (READ_ONCE(node(dev)->fast) & BIT(walk->phase));
}

static void dpm_async_work(void *data, async_cookie_t cookie);

/* Claim @dev; false if somebody else has already claimed it. */
static bool dpm_claim(struct dpm_walk *walk, struct device *dev)
{
	int inflight, peak;

	if (test_and_set_bit(DPM_NODE_STARTED, &node(dev)->flags))
		return false;

	inflight = atomic_inc_return(&walk->inflight);
	peak = atomic_read(&walk->peak);
	while (inflight > peak && !atomic_try_cmpxchg(&walk->peak, &peak, inflight))
		;
	return true;
}

/* Hand @dev to the async framework; false if that is not possible now. */
static bool dpm_queue(struct dpm_walk *walk, struct device *dev)
{
	get_device(dev);
	if (async_schedule_dev_nocall(dpm_async_work, dev)) {
		atomic_inc(&walk->queued);
		return true;
	}
	put_device(dev);
	return false;
}

typedef void (*dpm_dep_fn)(struct dpm_walk *walk, struct device *from,
			   struct device *to, void *data);

/* What a thread that finished a device runs next. */
struct dpm_next {
	struct device *stack;	/* run in place, last in first out */
	struct device *cont;	/* one slow device a worker continues with */
	bool worker;		/* not the PM task: may continue */
};

/*
 * @from is done and @dev depends on it.  If that was the last dependency,
 * start @dev: a sync device is left to the PM task, an async one goes on
 * the stack of this thread (short callback), becomes its continuation or
 * goes to the async framework.
 */
static void dpm_dep_done(struct dpm_walk *walk, struct device *from,
			 struct device *dev, void *data)
{
	struct dpm_next *next = data;

	if (!atomic_dec_and_test(&node(dev)->pending))
		return;

	if (!dpm_node_test(dev, DPM_NODE_ASYNC)) {
		dpm_wake_task(walk);
		return;
	}
	if (READ_ONCE(walk->error) || !dpm_claim(walk, dev))
		return;

	if (dpm_fast(walk, dev)) {
		atomic_inc(&walk->inlined);
		dpm_push(&next->stack, dev);
	} else if (next->worker && !next->cont && READ_ONCE(dpm_continue)) {
		atomic_inc(&walk->continued);
		next->cont = dev;
	} else if (!dpm_queue(walk, dev)) {
		dpm_push(&next->stack, dev);
	}
}

/*
 * Call @fn for each device of the walk that depends on @dev: the parent and
 * the suppliers in a suspend phase, the children and the consumers in a
 * resume phase, as recorded by dpm_walk_link().
 */
static void dpm_visit_dependents(struct dpm_walk *walk, struct device *dev,
				 dpm_dep_fn fn, void *data)
{
	struct list_head *links;
	struct device_link *link;
	struct device *child;
	int idx;

	if (walk->resume) {
		for (child = node(dev)->child; child; child = node(child)->sibling)
			fn(walk, dev, child, data);
	} else if (node(dev)->parent) {
		fn(walk, dev, node(dev)->parent, data);
	}

	/*
	 * A link deleted since dpm_walk_link() is not seen here, so its
	 * dependent is never notified; dpm_unstall() takes care of that.
	 * A link added since then does not count, so a list that looks
	 * empty without the lock needs no walk (most devices have no links).
	 */
	links = walk->resume ? &dev->links.consumers : &dev->links.suppliers;
	if (list_empty(links))
		return;

	idx = device_links_read_lock();
	if (walk->resume) {
		list_for_each_entry_rcu(link, &dev->links.consumers, s_node,
					device_links_read_lock_held())
			if (READ_ONCE(link->dpm_gen) == walk->gen)
				fn(walk, dev, link->consumer, data);
	} else {
		list_for_each_entry_rcu(link, &dev->links.suppliers, c_node,
					device_links_read_lock_held())
			if (READ_ONCE(link->dpm_gen) == walk->gen)
				fn(walk, dev, link->supplier, data);
	}
	device_links_read_unlock(idx);
}

/* Run the callback of one claimed device and record how long it took. */
static void dpm_run_one(struct dpm_walk *walk, struct device *dev)
{
	struct dpm_node *n = node(dev);
	bool task = current == walk->task;
	u64 start, dur;
	int error = 0;
	u8 fast;

	start = ktime_get_ns();
	if (!dpm_node_test(dev, DPM_NODE_REMOVED))
		error = walk->run(dev, walk->state, !task);
	dur = ktime_get_ns() - start;
	/* For device_pm_wait_for_dev(); the workers of main.c do it too. */
	complete_all(&dev->power.completion);

	n->dur_ns = dur;
	fast = READ_ONCE(n->fast);
	if (dur < walk->inline_ns)
		fast |= BIT(walk->phase);
	else
		fast &= ~BIT(walk->phase);
	WRITE_ONCE(n->fast, fast);

	/* Only a suspend phase stops on errors; resume carries on. */
	if (error && !walk->resume && !cmpxchg(&walk->error, 0, error))
		dpm_wake_task(walk);
}

/*
 * Run @dev and everything it makes ready that this thread should run too.
 * @worker is true in an async worker, which may continue with one slow
 * device instead of queueing it.
 */
static void dpm_run_chain(struct dpm_walk *walk, struct device *dev, bool worker)
{
	struct dpm_next next = { .worker = worker };

	while (dev) {
		dpm_run_one(walk, dev);
		dpm_visit_dependents(walk, dev, dpm_dep_done, &next);
		set_bit(DPM_NODE_DONE, &node(dev)->flags);
		dpm_leave(walk);

		dev = dpm_pop(&next.stack);
		if (!dev) {
			dev = next.cont;
			next.cont = NULL;
		}
	}
}

/*
 * The async framework entry point.  dpm_walk_run() calls
 * async_synchronize_full() before it returns, so @walk, which may live on
 * the PM task's stack, is valid until this function has returned.
 */
static void dpm_async_work(void *data, async_cookie_t cookie)
{
	struct device *dev = data;

	dpm_run_chain(node(dev)->walk, dev, true);
	put_device(dev);
}

/*
 * Start an async device whose dependencies are done, from the thread that
 * released its token (the PM task, or a helper when @worker is true).
 */
static void dpm_start(struct dpm_walk *walk, struct device *dev, bool worker)
{
	if (!dpm_claim(walk, dev))
		return;

	if (dpm_fast(walk, dev)) {
		atomic_inc(&walk->inlined);
		dpm_run_chain(walk, dev, worker);
	} else if (!dpm_queue(walk, dev)) {
		dpm_run_chain(walk, dev, worker);
	}
}

/*
 * Release the tokens of the async devices from @n up to @end (NULL: to the
 * end of the walk): those with nothing to wait for start.
 */
static void dpm_release(struct dpm_walk *walk, struct dpm_node *n,
			struct dpm_node *end, bool worker)
{
	list_for_each_entry_from(n, &walk->devices, entry) {
		struct device *dev = container_of(n, struct device, power.dpm);

		if (n == end || READ_ONCE(walk->error))
			break;
		if (dpm_node_test(dev, DPM_NODE_ASYNC) &&
		    atomic_dec_and_test(&n->pending))
			dpm_start(walk, dev, worker);
	}
}

/*
 * The helper: release the tokens from @data, a device of the walk, to the
 * end.  It counts as one device in flight until it is done, so the PM task
 * cannot take the devices it has not released yet for stalled ones, and
 * dpm_walk_run() waits for it before the walk goes away.
 */
static void dpm_release_work(void *data, async_cookie_t cookie)
{
	struct dpm_walk *walk = node(data)->walk;

	dpm_release(walk, node(data), NULL, true);
	dpm_leave(walk);
}

/*
 * Hand the second half of the async devices to a helper if the walk has
 * enough of them.  Return: the first device of that half, or NULL.
 */
static struct dpm_node *dpm_split(struct dpm_walk *walk)
{
	u32 half = walk->nr_async / 2, seen = 0;
	struct dpm_node *n;

	if (!walk->split_min || walk->nr_async < 2 * walk->split_min ||
	    num_online_cpus() < 2)
		return NULL;

	list_for_each_entry(n, &walk->devices, entry)
		if (test_bit(DPM_NODE_ASYNC, &n->flags) && seen++ == half)
			break;

	atomic_inc(&walk->inflight);
	if (!async_schedule_dev_nocall(dpm_release_work,
				       container_of(n, struct device, power.dpm))) {
		atomic_dec(&walk->inflight);
		return NULL;
	}
	walk->stats.helpers++;
	return n;
}

/*
 * Nothing is in flight but @walk still has devices waiting: one of their
 * dependencies went away during the walk.  Run the first waiting device in
 * walk order; everything before it is done, so the order is still right.
 */
static bool dpm_unstall(struct dpm_walk *walk)
{
	struct dpm_node *n;

	list_for_each_entry(n, &walk->devices, entry) {
		struct device *dev = container_of(n, struct device, power.dpm);

		if (dpm_node_test(dev, DPM_NODE_STARTED))
			continue;
		if (!dpm_claim(walk, dev))
			continue;
		walk->stats.stalls++;
		dev_dbg(dev, "dependency vanished during %s, running it now\n",
			dpm_phase_names[walk->phase]);
		dpm_run_chain(walk, dev, false);
		return true;
	}
	return false;
}

/*
 * Nothing in flight: every device that finished has notified its dependents
 * (it does that before it leaves the count), so the acquire makes their
 * decrements of &dpm_node.pending visible.
 */
static bool dpm_idle(struct dpm_walk *walk)
{
	return !atomic_read_acquire(&walk->inflight);
}

/*
 * Wait until @dev may run, restarting the walk if it is stuck.  A restart
 * may run @dev itself (its count then never reaches zero): stop waiting as
 * soon as it has been started, and never spin when nothing is left.
 */
static void dpm_wait_ready(struct dpm_walk *walk, struct device *dev)
{
	while (atomic_read(&node(dev)->pending) > 0 && !READ_ONCE(walk->error) &&
	       !dpm_node_test(dev, DPM_NODE_STARTED)) {
		wait_event(walk->wq,
			   atomic_read(&node(dev)->pending) <= 0 ||
			   dpm_idle(walk) || READ_ONCE(walk->error));
		if (dpm_idle(walk) && atomic_read(&node(dev)->pending) > 0 &&
		    !READ_ONCE(walk->error) && !dpm_unstall(walk))
			break;
	}
}

/**
 * dpm_walk_run - Run the callbacks of all devices of a walk.
 * @walk: Walk prepared with dpm_walk_add() and dpm_walk_link().
 *
 * Return: 0, or in a suspend phase the first error a device returned (the
 * other devices that had not started by then are not started).
 *
 * Context: Process context, the PM task, without dpm_list_mtx.
 */
int dpm_walk_run(struct dpm_walk *walk)
{
	struct dpm_node *n, *split;
	ktime_t start = ktime_get();

	/* Release the tokens: async devices with nothing to wait for start. */
	split = dpm_split(walk);
	n = list_first_entry(&walk->devices, struct dpm_node, entry);
	dpm_release(walk, n, split, false);

	/* Sync devices, in walk order, each once its dependencies are done. */
	list_for_each_entry(n, &walk->devices, entry) {
		struct device *dev = container_of(n, struct device, power.dpm);

		if (READ_ONCE(walk->error))
			break;
		if (dpm_node_test(dev, DPM_NODE_ASYNC))
			continue;
		dpm_wait_ready(walk, dev);
		if (READ_ONCE(walk->error))
			break;
		if (dpm_claim(walk, dev)) {
			walk->stats.task++;
			dpm_run_chain(walk, dev, false);
		}
	}

	/* Let everything in flight finish, restarting what lost a dependency. */
	for (;;) {
		wait_event(walk->wq, dpm_idle(walk));
		if (READ_ONCE(walk->error) || !dpm_unstall(walk))
			break;
	}
	async_synchronize_full();

	walk->stats.wall_ns = ktime_to_ns(ktime_sub(ktime_get(), start));
	return READ_ONCE(walk->error);
}
EXPORT_SYMBOL_IF_KUNIT(dpm_walk_run);

/**
 * dpm_walk_started - Tell whether a device of a walk has been started.
 * @dev: Device of the walk.
 *
 * Return: %true if the device's callback was run (it must move on to the
 * next list), %false if the walk stopped on an error before it.
 */
bool dpm_walk_started(struct device *dev)
{
	return dpm_node_test(dev, DPM_NODE_STARTED);
}
EXPORT_SYMBOL_IF_KUNIT(dpm_walk_started);

/**
 * dpm_walk_removed - Tell whether a device left the PM lists during a walk.
 * @dev: Device of the walk.
 *
 * Return: %true if device_pm_remove() was called for @dev.
 */
bool dpm_walk_removed(struct device *dev)
{
	return dpm_node_test(dev, DPM_NODE_REMOVED);
}
EXPORT_SYMBOL_IF_KUNIT(dpm_walk_removed);

/* Critical path: @to starts after @from, so its path is at least as long. */
static void dpm_cp_relax(struct dpm_walk *walk, struct device *from,
			 struct device *to, void *unused)
{
	if (node(to)->cp_ns < node(from)->cp_ns) {
		node(to)->cp_ns = node(from)->cp_ns;
		node(to)->cp_prev = from;
	}
}

/*
 * The critical path is the longest chain of measured callback durations over
 * the dependencies and the order of the sync devices in the PM task.
 * The walk order is a topological order of both, so one pass finds it.  On
 * entry &dpm_node.cp_ns is 0 for all devices.
 */
static void dpm_walk_critical_path(struct dpm_walk *walk)
{
	struct device *last_task = NULL, *end = NULL, *dev;
	struct dpm_node *n;

	list_for_each_entry(n, &walk->devices, entry) {
		dev = container_of(n, struct device, power.dpm);
		if (!dpm_node_test(dev, DPM_NODE_DONE))
			continue;
		/*
		 * Sync devices run one after another in the PM task; async
		 * ones it ran in place do not constrain the order.
		 */
		if (!dpm_node_test(dev, DPM_NODE_ASYNC)) {
			if (last_task)
				dpm_cp_relax(walk, last_task, dev, NULL);
			last_task = dev;
		}
		/* Until now cp_ns was the longest path into the device. */
		n->cp_ns += n->dur_ns;
		if (!end || n->cp_ns > node(end)->cp_ns)
			end = dev;
		dpm_visit_dependents(walk, dev, dpm_cp_relax, NULL);
	}
	walk->stats.cp_ns = end ? node(end)->cp_ns : 0;
	walk->stats.cp_end = end;
}

/* Keep the statistics of the last walk of each phase and log them. */
static void dpm_walk_report(struct dpm_walk *walk)
{
	struct dpm_walk_stats *st = &walk->stats;
	struct dpm_phase_report *r = &dpm_last[walk->phase];
	struct device *dev;
	u32 len = 0, i;

	for (dev = st->cp_end; dev; dev = node(dev)->cp_prev)
		len++;

	mutex_lock(&dpm_last_mtx);
	r->stats = *st;
	r->stats.cp_end = NULL;
	r->chain_len = len;
	/* The last DPM_CHAIN_MAX devices of the chain, first to last. */
	i = min_t(u32, len, DPM_CHAIN_MAX);
	r->shown = i;
	for (dev = st->cp_end; dev && i; dev = node(dev)->cp_prev)
		strscpy(r->chain[--i], dev_name(dev), sizeof(r->chain[0]));
	mutex_unlock(&dpm_last_mtx);

	pm_pr_dbg("async %s: %llu.%03llu ms, critical path %llu.%03llu ms over %u devices ending at %s, %u queued, %u inline, %u continued, %u helpers, %u in task, peak %u%s\n",
		  dpm_phase_names[walk->phase],
		  st->wall_ns / NSEC_PER_MSEC,
		  (st->wall_ns % NSEC_PER_MSEC) / NSEC_PER_USEC,
		  st->cp_ns / NSEC_PER_MSEC,
		  (st->cp_ns % NSEC_PER_MSEC) / NSEC_PER_USEC,
		  len, st->cp_end ? dev_name(st->cp_end) : "-",
		  st->queued, st->inlined, st->continued, st->helpers,
		  st->task, st->peak,
		  st->stalls ? ", restarted after a lost dependency" : "");
}

/**
 * dpm_walk_finish - Account for a walk and release its devices.
 * @walk: Walk after dpm_walk_run() and after the caller moved the started
 *	devices to their next list.
 *
 * Completes the devices that were not started, so that nobody waiting in
 * device_pm_wait_for_dev() hangs, computes the critical path, keeps the
 * statistics for debugfs and drops the references dpm_walk_add() took.
 *
 * Context: Process context, the PM task, without dpm_list_mtx.
 */
void dpm_walk_finish(struct dpm_walk *walk)
{
	struct dpm_walk_stats *st = &walk->stats;
	struct dpm_node *n, *tmp;

	st->queued = atomic_read(&walk->queued);
	st->inlined = atomic_read(&walk->inlined);
	st->continued = atomic_read(&walk->continued);
	st->peak = atomic_read(&walk->peak);
	dpm_walk_critical_path(walk);

	list_for_each_entry(n, &walk->devices, entry) {
		struct device *dev = container_of(n, struct device, power.dpm);

		if (!dpm_node_test(dev, DPM_NODE_STARTED)) {
			st->not_started++;
			complete_all(&dev->power.completion);
		}
	}

	if (walk->report)
		dpm_walk_report(walk);

	list_for_each_entry_safe(n, tmp, &walk->devices, entry) {
		list_del_init(&n->entry);
		n->walk = NULL;
		n->gen = 0;
		put_device(container_of(n, struct device, power.dpm));
	}
}
EXPORT_SYMBOL_IF_KUNIT(dpm_walk_finish);

#ifdef CONFIG_DEBUG_FS
static int dpm_async_stats_show(struct seq_file *s, void *unused)
{
	int p, i;

	mutex_lock(&dpm_last_mtx);
	seq_puts(s, "# phase event devices wall_us cp_us queued inline continued helpers task peak stalls not_started chain_len chain\n");
	for (p = 0; p < DPM_NR_PHASES; p++) {
		struct dpm_phase_report *r = &dpm_last[p];
		struct dpm_walk_stats *st = &r->stats;

		if (!st->devices)
			continue;
		seq_printf(s, "%s %d %u %llu %llu %u %u %u %u %u %u %u %u %u ",
			   dpm_phase_names[p], st->event, st->devices,
			   st->wall_ns / NSEC_PER_USEC, st->cp_ns / NSEC_PER_USEC,
			   st->queued, st->inlined, st->continued, st->helpers,
			   st->task, st->peak, st->stalls, st->not_started,
			   r->chain_len);
		if (r->chain_len > r->shown)
			seq_puts(s, "...>");
		for (i = 0; i < r->shown; i++)
			seq_printf(s, "%s%s", i ? ">" : "", r->chain[i]);
		seq_putc(s, '\n');
	}
	mutex_unlock(&dpm_last_mtx);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(dpm_async_stats);

static int __init dpm_async_debugfs_init(void)
{
	struct dentry *dir = debugfs_create_dir("pm_async", NULL);

	debugfs_create_file("stats", 0444, dir, NULL, &dpm_async_stats_fops);
	debugfs_create_u32("inline_us", 0644, dir, &dpm_inline_us);
	debugfs_create_bool("continue", 0644, dir, &dpm_continue);
	debugfs_create_u32("split_min", 0644, dir, &dpm_split_min);
	return 0;
}
late_initcall(dpm_async_debugfs_init);
#endif /* CONFIG_DEBUG_FS */
