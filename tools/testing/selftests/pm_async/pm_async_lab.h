/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The pm_async_test lab's files and the sleep knobs, for the kselftest's
 * C cases (pm_async_lab.c).
 */
#ifndef PM_ASYNC_LAB_H
#define PM_ASYNC_LAB_H

#include "pm_async_ask.h"

#define PMA_LAB		"/sys/kernel/debug/pm_async_test/"
#define PMA_BUS		"/sys/bus/pm_async_test/devices"
#define PMA_PWR		"/sys/power/"
#define PMA_DELAY	"/sys/module/suspend/parameters/pm_test_delay"

/* Write @text to @path in one write(): 0, or -errno. */
int pma_write(const char *path, const char *text);
/* The file at @path, whole, NUL-terminated (malloc'd); NULL on error. */
char *pma_read(const char *path);
/* The same for the lab's file @file. */
int pma_lab_write(const char *file, const char *text);
char *pma_lab_read(const char *file);

/*
 * Whether the file @path has the word @word (between blanks, brackets or
 * the ends, as /sys/power/state and pm_test list theirs).
 */
int pma_file_has_word(const char *path, const char *word);
/* Devices on the lab's bus; -1 without the bus. */
int pma_bus_count(void);
/* Lines of @s. */
int pma_nlines(const char *s);

/*
 * Load @text as the whole topology (after "clear"); the topology read
 * back (malloc'd), or NULL.
 */
char *pma_load(const char *text);

/**
 * struct pma_knobs - the sleep knobs as a case found them
 * @pm_test: /sys/power/pm_test's selected word.
 * @pm_async: /sys/power/pm_async.
 * @delay: pm_test_delay, "" without one.
 */
struct pma_knobs {
	char pm_test[32];
	char pm_async[8];
	char delay[16];
};

/*
 * Save the knobs into @saved and set them for the lab's transitions:
 * pm_test=platform, pm_test_delay=0.  0, or -1 without pm_test.
 */
int pma_knobs_set(struct pma_knobs *saved);
void pma_knobs_restore(const struct pma_knobs *saved);
int pma_set_pm_async(int on);

/*
 * Make the transition @state ("freeze", "disk") and read its report into
 * @rep: 0 if the transition succeeded, 1 if it failed, -1 without a report
 * (after saying why).
 */
int pma_cycle(const char *state, struct pma_report *rep);

/*
 * Whether the line of device @name in the topology @topo has @text
 * (@at_end: ends with it).
 */
int pma_line_has(const char *topo, const char *name, const char *text,
		 int at_end);

/*
 * pma_ask() with the question and its arguments as the arguments up to a
 * NULL (at most 15).
 */
int pma_askl(const struct pma_report *rep, const char *cmd, ...);

/* The context ("task", "worker") @dev's @phase ran in; NULL if it did not. */
const char *pma_ctx(const struct pma_report *rep, const char *dev,
		    const char *phase);

#endif /* PM_ASYNC_LAB_H */
