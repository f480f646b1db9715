// SPDX-License-Identifier: GPL-2.0
/*
 * The workqueue floor of pm-async's "make bench": how long N work items
 * that each sleep as a pm_async_test lab callback does take, with no PM
 * core around them, in three ways: on a per-CPU workqueue with the items
 * spread over the online CPUs, the same without the writer's CPU, and with
 * the async framework (as mainline's PM core).  It is the lowest a PM core
 * that runs each sleeping callback in a worker of its own can reach on the
 * machine, measured in the same run as the lab's transitions.
 *
 * Not part of the kernel series: a benchmark helper, built against each
 * kernel of the harness as an external module.  A run holds the writer in
 * an uninterruptible wait; a system suspend started meanwhile fails to
 * freeze it (the bench runs it in a boot of its own).
 *
 * /sys/kernel/debug/pma_wqfloor: write "ITEMS US" (1 to 10000 items of 1
 * to 100000 us) to run; read one line per way of the last run:
 *
 *   WAY items=N us=US elapsed_ns=NS longest_ns=NS sum_ns=NS
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/async.h>
#include <linux/atomic.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/uaccess.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#define FLOOR_MAX_ITEMS		10000U
#define FLOOR_MAX_US		100000U
/* As the lab: usleep_range() below this, msleep() from it on. */
#define FLOOR_USLEEP_MAX	20000U

enum floor_way { FLOOR_PERCPU, FLOOR_OTHER, FLOOR_ASYNC, FLOOR_WAYS };

static const char * const floor_names[FLOOR_WAYS] = {
	"percpu", "percpu-other", "async",
};

struct floor_item {
	struct work_struct work;
	u32 us;
	u64 ns;			/* How long the item slept */
};

struct floor_result {
	u32 items, us;
	u64 elapsed_ns, longest_ns, sum_ns;
};

static DEFINE_MUTEX(floor_lock);	/* A run and the results */
static struct floor_result floor_results[FLOOR_WAYS];
static atomic_t floor_left;
static DECLARE_WAIT_QUEUE_HEAD(floor_wq);
static ASYNC_DOMAIN_EXCLUSIVE(floor_domain);
static struct dentry *floor_file;

static void floor_sleep(struct floor_item *item)
{
	ktime_t start = ktime_get();

	if (item->us < FLOOR_USLEEP_MAX)
		usleep_range(item->us, item->us + item->us / 8 + 1);
	else
		msleep(item->us / 1000);
	item->ns = ktime_to_ns(ktime_sub(ktime_get(), start));
	if (atomic_dec_and_test(&floor_left))
		wake_up(&floor_wq);
}

static void floor_work_fn(struct work_struct *work)
{
	floor_sleep(container_of(work, struct floor_item, work));
}

static void floor_async_fn(void *data, async_cookie_t cookie)
{
	floor_sleep(data);
}

/* Run @n items of @us each the @way way; return how long all took, in ns. */
static u64 floor_run(struct floor_item *items, u32 n, u32 us,
		     enum floor_way way, struct workqueue_struct *wq)
{
	ktime_t start;
	int cpu = 0;
	u32 i;

	for (i = 0; i < n; i++) {
		INIT_WORK(&items[i].work, floor_work_fn);
		items[i].us = us;
		items[i].ns = 0;
	}
	atomic_set(&floor_left, n);

	cpus_read_lock();
	start = ktime_get();
	for (i = 0; i < n; i++) {
		if (way == FLOOR_ASYNC) {
			async_schedule_domain(floor_async_fn, &items[i],
					      &floor_domain);
			continue;
		}
		cpu = cpumask_next_wrap(cpu, cpu_online_mask);
		if (way == FLOOR_OTHER && cpu == raw_smp_processor_id() &&
		    num_online_cpus() > 1)
			cpu = cpumask_next_wrap(cpu, cpu_online_mask);
		queue_work_on(cpu, wq, &items[i].work);
	}
	wait_event(floor_wq, !atomic_read(&floor_left));
	cpus_read_unlock();

	/* The items are done; let their workers and async entries go. */
	if (way == FLOOR_ASYNC)
		async_synchronize_full_domain(&floor_domain);
	else
		flush_workqueue(wq);

	return ktime_to_ns(ktime_sub(ktime_get(), start));
}

static int floor_measure(u32 n, u32 us)
{
	struct workqueue_struct *wq;
	struct floor_item *items;
	int way;
	u32 i;

	items = kvcalloc(n, sizeof(*items), GFP_KERNEL);
	wq = alloc_workqueue("pma_wqfloor", WQ_PERCPU, 0);
	if (!items || !wq) {
		kvfree(items);
		if (wq)
			destroy_workqueue(wq);
		return -ENOMEM;
	}

	for (way = 0; way < FLOOR_WAYS; way++) {
		struct floor_result *r = &floor_results[way];

		r->elapsed_ns = floor_run(items, n, us, way, wq);
		r->items = n;
		r->us = us;
		r->longest_ns = 0;
		r->sum_ns = 0;
		for (i = 0; i < n; i++) {
			r->longest_ns = max(r->longest_ns, items[i].ns);
			r->sum_ns += items[i].ns;
		}
	}

	destroy_workqueue(wq);
	kvfree(items);
	return 0;
}

static int floor_show(struct seq_file *m, void *v)
{
	int way;

	guard(mutex)(&floor_lock);
	for (way = 0; way < FLOOR_WAYS; way++) {
		struct floor_result *r = &floor_results[way];

		if (r->items)
			seq_printf(m, "%s items=%u us=%u elapsed_ns=%llu longest_ns=%llu sum_ns=%llu\n",
				   floor_names[way], r->items, r->us,
				   r->elapsed_ns, r->longest_ns, r->sum_ns);
	}
	return 0;
}

static int floor_open(struct inode *inode, struct file *file)
{
	return single_open(file, floor_show, NULL);
}

static ssize_t floor_write(struct file *file, const char __user *ubuf,
			   size_t count, loff_t *ppos)
{
	char buf[32];
	u32 n, us;
	int ret;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';

	if (sscanf(buf, "%u %u", &n, &us) != 2 || !n ||
	    n > FLOOR_MAX_ITEMS || !us || us > FLOOR_MAX_US) {
		pr_err("expected 'ITEMS US', 1 to %u items of 1 to %u us\n",
		       FLOOR_MAX_ITEMS, FLOOR_MAX_US);
		return -EINVAL;
	}

	mutex_lock(&floor_lock);
	ret = floor_measure(n, us);
	mutex_unlock(&floor_lock);
	return ret ? ret : count;
}

static const struct file_operations floor_fops = {
	.owner		= THIS_MODULE,
	.open		= floor_open,
	.read		= seq_read,
	.write		= floor_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

static int __init floor_init(void)
{
	floor_file = debugfs_create_file("pma_wqfloor", 0600, NULL, NULL,
					 &floor_fops);
	return 0;
}

static void __exit floor_exit(void)
{
	debugfs_remove(floor_file);
}

module_init(floor_init);
module_exit(floor_exit);
MODULE_DESCRIPTION("pm-async bench: sleeping work items with no PM core");
MODULE_LICENSE("GPL");
