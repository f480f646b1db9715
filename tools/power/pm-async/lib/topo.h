/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The lab's topology file: one device per line, in the order the lab adds
 * them (a parent or supplier before the devices that name it).
 *
 *	NAME [parent=P] [async=0|1] [pm=0|1|late] [suppliers=A,B]
 *	     [fail=PHASE|none] [suspend=US] ... [resume=US]	# comment
 *
 * pm-async-report reads it to check a cycle against the topology it ran,
 * pm-async-advise to simulate it; topo_parse() is the one reader of a line
 * for both.  What a name refers to (a parent or supplier defined earlier,
 * a duplicate) is the caller's to check: it knows its devices.
 */
#ifndef PM_ASYNC_TOPO_H
#define PM_ASYNC_TOPO_H

#include <stddef.h>

#include "pmlog.h"

#define LAB_NAME_MAX 31

/* pm=: no PM at all, PM, or marked no-PM after it was added (late) */
enum { TOPO_PM_OFF, TOPO_PM_ON, TOPO_PM_LATE };

/* One line, its strings pointing into the line topo_parse() was given. */
struct topo_dev {
	char *name;
	char *parent;		/* NULL: a root */
	char *suppliers;	/* "A,B", NULL: none */
	int async;		/* 1 unless async=0 */
	int pm;			/* TOPO_PM_* */
	int fail;		/* phase_key[] index of fail=, -1 */
	long long us[NPHASES];	/* a callback's time per phase_key[], 0 */
};

/* The lab's rule for a name: 1 to LAB_NAME_MAX of [A-Za-z0-9_.:-]. */
int lab_name_char(int c);
int lab_name_ok(const char *s);

/*
 * Parse @line in place.  Return 1 for a device in @t, 0 for a line with
 * none (blank, a comment), -1 with a message in @err (no file or line: the
 * caller's to add).
 */
int topo_parse(char *line, struct topo_dev *t, char *err, size_t errlen);

#endif /* PM_ASYNC_TOPO_H */
