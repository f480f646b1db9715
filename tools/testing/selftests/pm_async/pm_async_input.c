// SPDX-License-Identifier: GPL-2.0
/*
 * The pm_async_test lab's control files as input: what the topology, fail
 * and churn files accept, refuse and read back
 * (Documentation/power/pm-async-lab.rst).  No system transition is made,
 * so these cases run on any kernel with the lab loaded.  pm_async.sh runs
 * this program as one of its cases, its results a subtest.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "pm_async_lab.h"

/*
 * A write the lab must refuse, to the topology file or the fail file,
 * with two devices loaded: it is refused, the topology stays as it was
 * and no device is left on the bus.
 */
FIXTURE(reject) {
	char *topo;
};

FIXTURE_VARIANT(reject) {
	const char *file;	/* NULL: the topology file */
	const char *text;
};

FIXTURE_SETUP(reject)
{
	if (access(PMA_LAB "topology", W_OK))
		SKIP(return, "the pm_async_test lab is not loaded");
	self->topo = pma_load("b0 suspend=100\nb1 parent=b0 resume=100\n");
	ASSERT_NE(NULL, self->topo);
}

FIXTURE_TEARDOWN(reject)
{
	free(self->topo);
	pma_lab_write("topology", "clear\n");
}

TEST_F(reject, write)
{
	char *now;
	int err;

	err = pma_lab_write(variant->file ?: "topology", variant->text);
	EXPECT_NE(0, err) TH_LOG("the write was accepted");
	now = pma_lab_read("topology");
	ASSERT_NE(NULL, now);
	EXPECT_STREQ(self->topo, now) TH_LOG("the topology changed");
	free(now);
	EXPECT_EQ(pma_nlines(self->topo), pma_bus_count())
		TH_LOG("devices were left on the bus");
}

FIXTURE_VARIANT_ADD(reject, unknown_key) {
	.text = "n1 colour=red\n",
};

FIXTURE_VARIANT_ADD(reject, key_without_value) {
	.text = "n1 suspend\n",
};

FIXTURE_VARIANT_ADD(reject, bad_number) {
	.text = "n1 suspend=12x\n",
};

FIXTURE_VARIANT_ADD(reject, negative_number) {
	.text = "n1 resume=-1\n",
};

FIXTURE_VARIANT_ADD(reject, async_not_0_or_1) {
	.text = "n1 async=2\n",
};

FIXTURE_VARIANT_ADD(reject, unknown_parent) {
	.text = "n1 parent=nosuch\n",
};

FIXTURE_VARIANT_ADD(reject, parent_defined_later_in_the_write) {
	.text = "n1 parent=n2\nn2\n",
};

FIXTURE_VARIANT_ADD(reject, unknown_supplier) {
	.text = "n1 suppliers=b0,nosuch\n",
};

FIXTURE_VARIANT_ADD(reject, duplicate_name) {
	.text = "b1\n",
};

FIXTURE_VARIANT_ADD(reject, duplicate_name_within_one_write) {
	.text = "n1\nn2\nn1\n",
};

FIXTURE_VARIANT_ADD(reject, device_is_its_own_supplier) {
	.text = "n1 suppliers=b1,n1\n",
};

FIXTURE_VARIANT_ADD(reject, device_is_its_own_parent) {
	.text = "n1 parent=n1\n",
};

FIXTURE_VARIANT_ADD(reject, name_of_32_characters) {
	.text = "00000000000000000000000000000000\n",
};

FIXTURE_VARIANT_ADD(reject, pm_not_0_or_1) {
	.text = "n1 pm=2\n",
};

FIXTURE_VARIANT_ADD(reject, supplier_with_pm_0) {
	.text = "n1 pm=0\nn2 suppliers=n1\n",
};

FIXTURE_VARIANT_ADD(reject, async_1_with_pm_0) {
	.text = "n1 async=1 pm=0\n",
};

FIXTURE_VARIANT_ADD(reject, driver_not_0_or_1) {
	.text = "n1 driver=yes\n",
};

FIXTURE_VARIANT_ADD(reject, unknown_managed_supplier) {
	.text = "n1 managed=nosuch\n",
};

FIXTURE_VARIANT_ADD(reject, managed_supplier_with_pm_0) {
	.text = "n1 pm=0\nn2 managed=n1\n",
};

FIXTURE_VARIANT_ADD(reject, supplier_in_suppliers_and_managed) {
	.text = "n1 suppliers=b0 managed=b1,b0\n",
};

FIXTURE_VARIANT_ADD(reject, device_is_its_own_managed_supplier) {
	.text = "n1 managed=n1\n",
};

FIXTURE_VARIANT_ADD(reject, sync_state_only_consumer_with_a_driver) {
	.text = "n1 driver=1\nn2 sync_consumers=n1\n",
};

FIXTURE_VARIANT_ADD(reject, sync_state_only_supplier_with_pm_0) {
	.text = "n1\nn2 pm=0 sync_consumers=n1\n",
};

FIXTURE_VARIANT_ADD(reject, sync_state_only_consumer_defined_later) {
	.text = "n1 sync_consumers=n2\nn2\n",
};

FIXTURE_VARIANT_ADD(reject, wait_without_a_phase) {
	.text = "n1 wait=b0\n",
};

FIXTURE_VARIANT_ADD(reject, wait_with_an_unknown_phase) {
	.text = "n1 wait=sleep:b0\n",
};

FIXTURE_VARIANT_ADD(reject, wait_for_an_unknown_device) {
	.text = "n1 wait=resume:nosuch\n",
};

FIXTURE_VARIANT_ADD(reject, wait_for_itself) {
	.text = "n1 wait=suspend:n1\n",
};

FIXTURE_VARIANT_ADD(reject, wait_given_twice) {
	.text = "n1 wait=resume:b0,resume:b0\n",
};

FIXTURE_VARIANT_ADD(reject, more_than_4_waits) {
	.text = "n1 wait=prepare:b0,suspend:b0,resume:b0,complete:b0,thaw:b0\n",
};

FIXTURE_VARIANT_ADD(reject, direct_complete_with_pm_0) {
	.text = "n1 pm=0 direct_complete=1\n",
};

FIXTURE_VARIANT_ADD(reject, smart_suspend_without_a_driver) {
	.text = "n1 smart_suspend=1\n",
};

FIXTURE_VARIANT_ADD(reject, may_skip_resume_without_a_driver) {
	.text = "n1 driver=0 may_skip_resume=1\n",
};

FIXTURE_VARIANT_ADD(reject, jitter_out_of_range) {
	.text = "n1 jitter=10000001\n",
};

FIXTURE_VARIANT_ADD(reject, bad_line_after_good_lines) {
	.text = "n1 parent=b1\n"
		"n2 parent=n1 suppliers=b0\n"
		"# comment\n"
		"n3 parent=n2 fail=resume\n",
};

FIXTURE_VARIANT_ADD(reject, fail_file_unknown_device) {
	.file = "fail",
	.text = "nosuch suspend\n",
};

FIXTURE_VARIANT_ADD(reject, fail_file_not_a_suspend_phase) {
	.file = "fail",
	.text = "b0 resume\n",
};

/* A topology the lab reads and writes back. */
FIXTURE(parse) {
	char *topo;
};

FIXTURE_SETUP(parse)
{
	if (access(PMA_LAB "topology", W_OK))
		SKIP(return, "the pm_async_test lab is not loaded");
	self->topo = NULL;
}

FIXTURE_TEARDOWN(parse)
{
	free(self->topo);
	pma_lab_write("churn", "none\n");
	pma_lab_write("topology", "clear\n");
}

/*
 * Comments, blank lines, tabs, keys in any order and names defined earlier
 * in the same write; "clear" empties the bus; the read-back writes back
 * unchanged.
 */
#define PARSE_TOPO							\
	"# comment\n\n  p0\tasync=0 # trailing comment\n"		\
	"p0.c resume_noirq=7 parent=p0 suspend=1 async=1\n\t\n"	\
	"p1 suppliers=p0.c,p0 suspend_late=3\n"				\
	"p1:x.y-z_ parent=p1 fail=suspend_noirq\n"

TEST_F(parse, comments_blanks_key_order_write_back)
{
	char *again;

	self->topo = pma_load(PARSE_TOPO);
	ASSERT_NE(NULL, self->topo);
	ASSERT_EQ(4, pma_nlines(self->topo)) TH_LOG("read back:\n%s", self->topo);
	ASSERT_EQ(0, pma_lab_write("topology", "clear\n"));
	ASSERT_EQ(0, pma_bus_count()) TH_LOG("clear left devices");
	again = pma_load(self->topo);
	ASSERT_NE(NULL, again);
	EXPECT_STREQ(self->topo, again);
	free(again);
}

/* fail= and the fail file arm and disarm a callback's failure. */
TEST_F(parse, fail_arms_and_disarms)
{
	char *t;

	self->topo = pma_load(PARSE_TOPO);
	ASSERT_NE(NULL, self->topo);
	EXPECT_TRUE(pma_line_has(self->topo, "p1:x.y-z_", " fail=suspend_noirq", 0))
		TH_LOG("fail= not shown");
	ASSERT_EQ(0, pma_lab_write("fail", "p1:x.y-z_ none\n"));
	t = pma_lab_read("topology");
	ASSERT_NE(NULL, t);
	EXPECT_EQ(NULL, strstr(t, "fail=")) TH_LOG("'NAME none' did not disarm");
	free(t);
	ASSERT_EQ(0, pma_lab_write("fail", "p0 freeze_late\n"));
	t = pma_lab_read("topology");
	ASSERT_NE(NULL, t);
	EXPECT_TRUE(pma_line_has(t, "p0", " fail=freeze_late", 0))
		TH_LOG("the fail file did not arm");
	free(t);
	EXPECT_EQ(0, pma_lab_write("fail", "p0 none\n"));
}

/*
 * A churn started by a device's callback reads back as written; an unknown
 * device or callback, or none, is refused.
 */
TEST_F(parse, churn_trigger)
{
	static const char *const bad[] = {
		"5@x:suspend b\n", "5@a:bogus b\n", "5@a b\n", "@a:suspend b\n",
		"5@:suspend b\n",
	};
	const char *const *b;
	char *c;

	self->topo = pma_load("a\nb suppliers=a\n");
	ASSERT_NE(NULL, self->topo);
	ASSERT_EQ(0, pma_lab_write("churn", "5@a:suspend_late b unlink=a\n"));
	c = pma_lab_read("churn");
	ASSERT_NE(NULL, c);
	EXPECT_STREQ("armed 5@a:suspend_late b unlink=a\n", c);
	free(c);
	for (b = bad; b < bad + ARRAY_SIZE(bad); b++) {
		int err = pma_lab_write("churn", *b);

		EXPECT_NE(0, err);
		if (!err)
			TH_LOG("churn '%s' accepted", *b);
	}
}

/*
 * Every key of drivers, links, waits, skips and jitter, in any order, and
 * a wait= for a device defined later in the same write: read back and
 * written back unchanged.
 */
TEST_F(parse, driver_link_wait_skip_jitter_keys)
{
	char *again;

	self->topo = pma_load("r0 driver=1 jitter=700\n"
			  "r1 wait=resume:r0,suspend_noirq:r3 managed=r0 driver=0\n"
			  "r2 sync_consumers=r1 direct_complete=1\n"
			  "r3 parent=r2 may_skip_resume=1 smart_suspend=1 driver=1 suppliers=r2\n"
			  "r4 pm=0 parent=r3 managed=r1\n");
	ASSERT_NE(NULL, self->topo);
	again = pma_load(self->topo);
	ASSERT_NE(NULL, again);
	EXPECT_STREQ(self->topo, again);
	free(again);
	EXPECT_TRUE(pma_line_has(self->topo, "r1",
				 " resume_noirq=0 managed=r0 wait=resume:r0,suspend_noirq:r3", 1));
	EXPECT_TRUE(pma_line_has(self->topo, "r2",
				 " sync_consumers=r1 direct_complete=1", 1));
	EXPECT_TRUE(pma_line_has(self->topo, "r3",
				 " suppliers=r2 driver=1 smart_suspend=1 may_skip_resume=1", 1));
	EXPECT_TRUE(pma_line_has(self->topo, "r0", " driver=1 jitter=700", 1));
	if (_metadata->exit_code)
		TH_LOG("read back:\n%s", self->topo);
}

TEST_HARNESS_MAIN
