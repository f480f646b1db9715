// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of pm-async-advise, TAP output.
 *   run-tests --logs DIR --tool PATH --sample SKYNET_DMESG
 * The hand-written logs in tests/logs/ and the expected numbers below are
 * computed by hand (see the comments); the shared sample test is skipped
 * when the file is absent.
 */
#define _DEFAULT_SOURCE		/* wait4(): a child's own peak memory */
#include <ctype.h>
#include <fnmatch.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pmadv.h"
#include "topo.h"
#include "test_utf8.h"

/* tolerances (written out: checkpatch reads "1e-6" as a subtraction) */
#define EPS6	0.000001
#define EPS9	0.000000001

/* what profile names are made of */
#define NAME_CHARS "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.:-"

static int ntest, nfail;
static const char *logdir = "logs", *tool = "../pm-async-advise", *sample;

static int ok(int cond, const char *fmt, ...)
{
	va_list ap;

	ntest++;
	printf("%sok %d - ", cond ? "" : "not ", ntest);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (!cond)
		nfail++;
	fflush(stdout);
	return cond;
}

static void skip(const char *what, const char *why)
{
	ntest++;
	printf("ok %d - %s # SKIP %s\n", ntest, what, why);
}

static void diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static int near(double a, double b, double tol)
{
	return fabs(a - b) <= tol;
}

static char *logpath(const char *name)
{
	return xasprintf("%s/%s", logdir, name);
}

static int parse(const char *name, struct pmlog *log, char *err, size_t n)
{
	char *p = logpath(name);
	int r = pmlog_parse_file(p, 0, log, err, n);

	free(p);
	return r;
}

static int dev_named(const struct graph *g, const char *name)
{
	return graph_find(g, name);
}

static const char *parent_of(const struct graph *g, const char *name)
{
	int i = graph_find(g, name);

	if (i < 0 || g->d[i].parent < 0)
		return "";
	return g->d[g->d[i].parent].name;
}

static int has_problem(const struct pmlog *log, int line, const char *kind,
		       const char *dev)
{
	int i;

	for (i = 0; i < log->nprob; i++)
		if (log->prob[i].line == line && !strcmp(log->prob[i].kind, kind) &&
		    log->prob[i].dev && !strcmp(log->prob[i].dev, dev))
			return 1;
	return 0;
}

/* run the tool, capture stdout (and stderr) and the exit status */
static char *run(const char *args, int *status)
{
	char *cmd = xasprintf("%s %s 2>&1", tool, args);
	FILE *p = popen(cmd, "r");
	char *buf = NULL;
	size_t len = 0, cap = 0;
	int c, st;

	free(cmd);
	if (!p) {
		*status = -1;
		return xstrdup("");
	}
	while ((c = fgetc(p)) != EOF) {
		if (len + 2 > cap) {
			cap = cap ? 2 * cap : 4096;
			buf = xrealloc(buf, cap);
		}
		buf[len++] = (char)c;
	}
	if (!buf)
		buf = xstrdup("");
	else
		buf[len] = 0;
	st = pclose(p);
	*status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	return buf;
}

/* graph from a lab topology string */
static int topo(struct graph *g, const char *text)
{
	FILE *f = tmpfile();
	char err[256];
	int r;

	fputs(text, f);
	rewind(f);
	graph_init(g);
	r = graph_from_topology(g, f, "test", err, sizeof(err));
	fclose(f);
	if (r)
		diag("topology error: %s", err);
	return r;
}

static double sim_ms(const struct graph *g, int ph, enum policy pol,
		     int limit, const unsigned char *flags)
{
	struct sim_params p = { limit, 0, POL_612 };

	return sim_phase(g, ph, pol, flags, &p, NULL) / 1e3;
}

/* ------------------------------------------------------------ parsing */

static void test_old_format(void)
{
	struct pmlog log;
	struct graph g;
	struct units u;
	char err[1024];
	int r, i, per[NPHASES] = { 0 }, n;

	r = parse("old_basic.txt", &log, err, sizeof(err));
	ok(r == PARSE_OK, "old format: parses (%s)", r ? err : "ok");
	ok(log.ncb == 22, "old format: 22 callbacks (got %d)", log.ncb);
	ok(log.nbd == 6, "old format: 6 phase boundaries (got %d)", log.nbd);
	ok(log.nprob == 0, "old format: no unmatched lines (got %d)", log.nprob);
	ok(log.format == FMT_OLD, "old format: detected as old format");
	ok(log.skipped == 9 && log.used == 50,
	   "old format: 9 unknown lines skipped and counted, 50 used (got %d, %d)",
	   log.skipped, log.used);
	for (i = 0; i < log.ncb; i++)
		if (log.cb[i].phase >= 0)
			per[log.cb[i].phase]++;
	ok(per[PH_SUSPEND] == 8 && per[PH_SUSPEND_LATE] == 1 &&
	   per[PH_SUSPEND_NOIRQ] == 2 && per[PH_RESUME_NOIRQ] == 2 &&
	   per[PH_RESUME_EARLY] == 1 && per[PH_RESUME] == 8,
	   "old format: callbacks assigned to the phase the next boundary closes (8/1/2/2/1/8)");
	ok(near(pmlog_observed(&log, 0, PH_SUSPEND, NULL), 112.5, EPS9) &&
	   near(pmlog_observed(&log, 0, PH_RESUME_EARLY, NULL), 0.2, EPS9),
	   "old format: observed phase times from the boundary lines");
	detect_units(&log, 0, NULL, NULL, &u);
	ok(near(u.scale, 1.024, EPS9) && u.samples == 12,
	   "old format: printed usecs detected as ns>>10 (ratio %.4f over %d)",
	   u.ratio, u.samples);
	/*
	 * A known release decides over the timestamps: stock 7.3's log in
	 * a TCG guest had its printk clock 2% ahead of ktime_get().
	 */
	{
		static const char *const rel[] = {
			"7.3.4-1.bpo13+1-pmasync-stock-bench", "5.14.0", "5.13.19",
			"3.15.0-latest", "unknown"
		};
		static const double want[] = { 1.0, 1.0, 1.024, 1.024, 1.024 };
		struct units v;
		int j, good = 1;

		for (j = 0; j < 5; j++) {
			detect_units(&log, 0, NULL, rel[j], &v);
			if (!near(v.scale, want[j], EPS9)) {
				diag("release %s: scale %.3f (%s)", rel[j], v.scale, v.why);
				good = 0;
			}
		}
		detect_units(&log, 0, "ns1024", rel[0], &v);
		ok(good && near(v.scale, 1.024, EPS9),
		   "units: a release from 5.14 on prints usecs, an older one ns>>10, whatever the timestamps say; unknown: the timestamps; --units wins");
	}
	graph_init(&g);
	graph_from_log(&g, &log, 0, u.scale);
	graph_finalize(&g);
	ok(g.n == 11, "old format: 8 devices + 3 seen only as parents (got %d)", g.n);
	ok(g.pm_pid == 1000, "old format: PM task PID 1000 (got %d)", g.pm_pid);
	ok(!strcmp(parent_of(&g, "serio0"), "i8042") &&
	   !strcmp(parent_of(&g, "0:0:0:0"), "ata1") &&
	   !strcmp(parent_of(&g, "ata1"), "0000:00:1f.2") &&
	   !strcmp(parent_of(&g, "i8042"), "platform"),
	   "old format: parent tree");
	i = dev_named(&g, "platform");
	ok(i >= 0 && g.d[i].placeholder && g.d[i].dur[PH_SUSPEND] == 0,
	   "old format: parent-only device present with zero durations");
	n = dev_named(&g, "Fixed MDIO bus.0");
	ok(n >= 0 && !g.d[n].async, "old format: device name with blanks, sync");
	i = dev_named(&g, "i8042");
	ok(i >= 0 && !g.d[i].async && g.d[dev_named(&g, "serio0")].async &&
	   g.d[dev_named(&g, "0:0:0:0")].async && !g.d[dev_named(&g, "rtc0")].async,
	   "old format: sync/async from the PM task PID");
	ok(near(g.d[i].dur[PH_SUSPEND], 977 * 1.024, EPS9) &&
	   near(g.d[i].dur[PH_SUSPEND_NOIRQ], 9 * 1.024, EPS9) &&
	   g.d[i].has_cb[PH_RESUME_NOIRQ] && !g.d[i].has_cb[PH_SUSPEND_LATE],
	   "old format: per-phase durations (scaled)");
	graph_free(&g);
	pmlog_free(&log);
}

static void test_new_format(void)
{
	struct pmlog log;
	struct graph g;
	struct units u;
	char err[1024];
	int r, i, c1, c2;

	r = parse("new_basic.txt", &log, err, sizeof(err));
	ok(r == PARSE_OK, "6.x format: parses (%s)", r ? err : "ok");
	ok(log.format == FMT_NEW, "6.x format: detected");
	ok(log.ncb == 15, "6.x format: 15 callbacks (got %d)", log.ncb);
	ok(log.nbd == 6 && log.nprob == 0,
	   "6.x format: 6 phases ('start'/'end' lines are not phases), nothing unmatched");
	/* 6.12 prints "start suspend" after the suspend phase it sums up. */
	ok(log.ncycles == 1,
	   "6.x format: one cycle, the 'start' total does not open another (got %d)",
	   log.ncycles);
	detect_units(&log, 0, NULL, NULL, &u);
	ok(u.scale == 1.0, "6.x format: usecs taken as printed (%s)", u.why);
	graph_init(&g);
	graph_from_log(&g, &log, 0, u.scale);
	graph_finalize(&g);
	ok(g.pm_pid == 200, "6.x format: PM task PID 200 (got %d)", g.pm_pid);
	i = dev_named(&g, "Fixed MDIO bus.0");
	ok(i >= 0 && !strcmp(g.d[i].driver, "") && !g.d[i].async &&
	   g.d[i].dur[PH_SUSPEND] == 3,
	   "6.x format: empty driver string (line starts with a blank), module callback");
	c1 = dev_named(&g, "card0");
	c2 = c1 >= 0 ? g.d[c1].next_same_name : -1;
	ok(c1 >= 0 && c2 >= 0 && strcmp(g.d[c1].driver, g.d[c2].driver),
	   "6.x format: drm card0 and sound card0 are two devices");
	i = dev_named(&g, "0000:00:1b.0");
	ok(i >= 0 && g.d[i].async && g.d[i].dur[PH_SUSPEND_LATE] == 100 &&
	   g.d[i].dur[PH_SUSPEND_NOIRQ] == 2000 && g.d[i].dur[PH_RESUME] == 40000,
	   "6.x format: late/noirq/resume durations of an async device");
	i = dev_named(&g, "i8042");
	ok(i >= 0 && !g.d[i].async && g.d[i].has_cb[PH_RESUME_EARLY] &&
	   !strcmp(parent_of(&g, "serio0"), "i8042"),
	   "6.x format: sync device, early resume phase, parent");
	ok(near(pmlog_observed(&log, 0, PH_SUSPEND, NULL), 50.3, EPS9),
	   "6.x format: observed suspend 50.3 ms");
	graph_free(&g);
	pmlog_free(&log);
}

static void test_bad_input(void)
{
	struct pmlog log;
	char err[1024];
	int r, st;
	char *out;

	r = parse("unmatched.txt", &log, err, sizeof(err));
	ok(r == PARSE_OK, "unmatched: parses");
	ok(has_problem(&log, 3, "returned without calling", "b"),
	   "unmatched: 'returned without calling' reported at line 3");
	ok(has_problem(&log, 4, "calling without returned", "c"),
	   "unmatched: 'calling without returned' reported at line 4");
	ok(has_problem(&log, 7, "returned matches several open callings", "x") &&
	   has_problem(&log, 5, "calling without returned", "x") &&
	   has_problem(&log, 6, "calling without returned", "x"),
	   "unmatched: ambiguous returned (two devices named x) not guessed (lines 5, 6, 7)");
	ok(has_problem(&log, 12, "callback after the last phase boundary", "d"),
	   "unmatched: callback after the last boundary reported at line 12");
	ok(log.nprob == 6, "unmatched: exactly 6 problems (got %d)", log.nprob);
	pmlog_free(&log);

	r = parse("nopm.txt", &log, err, sizeof(err));
	ok(r == PARSE_NOPM && strstr(err, "pm_print_times") &&
	   strstr(err, "complete after"),
	   "no PM lines: error names the expected lines");
	pmlog_free(&log);
	r = parse("noboundary.txt", &log, err, sizeof(err));
	ok(r == PARSE_NOPM && strstr(err, "phase boundary"),
	   "callbacks without phase lines: error says so");
	pmlog_free(&log);
	{
		char *p = logpath("nopm.txt"), *a = xasprintf("'%s'", p);

		out = run(a, &st);
		ok(st == 2 && strstr(out, "no usable PM lines"),
		   "no PM lines: tool exits 2 with a clear message");
		free(out);
		free(a);
		free(p);
	}
	{
		char *p = logpath("unmatched.txt"), *a = xasprintf("'%s'", p);

		out = run(a, &st);
		ok(st == 0 && strstr(out, "line 3: returned without calling: b") &&
		   strstr(out, "line 4: calling without returned: c"),
		   "unmatched: the tool prints the line numbers");
		free(out);
		free(a);
		free(p);
	}
}

/* ------------------------------------------------------------ simulator */

/*
 * The 2009 stall: sync i8042 with async serio children, and an unrelated
 * async disk after i8042 in the suspend walk (list order disk, i8042,
 * serio0, serio1; suspend walks it backwards: serio1, serio0, i8042, disk).
 *   stock suspend: serio* 0-50, PM task waits for them, i8042 50-60, only
 *     then queues disk: 60-160                                -> 160 ms
 *   pm-async: disk and serio* start at 0, i8042 50-60, disk ends at 100
 *   sync: 50 + 50 + 10 + 100                                 -> 210 ms
 *   i8042 made async (stock): disk queued at 0                -> 100 ms
 *   resume (walk disk, i8042, serio0, serio1): stock and pm-async 100 ms
 *   (disk upfront, i8042 0-10, serio 10-30), sync 150 ms.
 */
static const char *seed_topo =
	"disk async=1 suspend=100000 resume=100000\n"
	"i8042 async=0 suspend=10000 resume=10000\n"
	"serio0 parent=i8042 async=1 suspend=50000 resume=20000\n"
	"serio1 parent=i8042 async=1 suspend=50000 resume=20000\n";

static void test_sim_seed(void)
{
	struct graph g;
	unsigned char *fl;
	struct cpath cp;
	int i;

	if (topo(&g, seed_topo)) {
		ok(0, "seed topology");
		return;
	}
	ok(near(sim_ms(&g, PH_SUSPEND, POL_612, 256, NULL), 160, EPS6),
	   "seed: stock suspend 160 ms (sync i8042 waits for async serio, delays the disk)");
	ok(near(sim_ms(&g, PH_SUSPEND, POL_PMASYNC, 256, NULL), 100, EPS6),
	   "seed: pm-async suspend 100 ms (disk not held back)");
	ok(near(sim_ms(&g, PH_SUSPEND, POL_SYNC, 256, NULL), 210, EPS6),
	   "seed: sync suspend 210 ms");
	fl = xcalloc((size_t)g.n, 1);
	for (i = 0; i < g.n; i++)
		fl[i] = (unsigned char)g.d[i].async;
	fl[graph_find(&g, "i8042")] = 1;
	ok(near(sim_ms(&g, PH_SUSPEND, POL_612, 256, fl), 100, EPS6),
	   "seed: i8042 async under stock: 100 ms");
	ok(near(sim_ms(&g, PH_RESUME, POL_612, 256, NULL), 100, EPS6) &&
	   near(sim_ms(&g, PH_RESUME, POL_PMASYNC, 256, NULL), 100, EPS6) &&
	   near(sim_ms(&g, PH_RESUME, POL_SYNC, 256, NULL), 150, EPS6),
	   "seed: resume stock 100, pm-async 100, sync 150 ms");
	cpath_phase(&g, PH_SUSPEND, 256, &cp);
	ok(near(cp.bound, 100000, EPS6) && cp.nchain == 1 &&
	   cp.chain[0] == graph_find(&g, "disk"),
	   "seed: suspend bound 100 ms, critical path = disk");
	cpath_free(&cp);
	cpath_phase(&g, PH_RESUME, 256, &cp);
	ok(near(cp.cp, 100000, EPS6), "seed: resume critical path 100 ms");
	cpath_free(&cp);
	free(fl);
	graph_free(&g);
}

static int chain_is(const struct cpath *cp, int n, const int *want)
{
	return cp->nchain == n && !memcmp(cp->chain, want, sizeof(int) * (size_t)n);
}

/*
 * lib/cpath.c, the one bound of both tools, on bare graphs: a diamond, a
 * zero-time callback on the chain, a loop, the worker limit.
 */
static void test_cpath_lib(void)
{
	static const int diamond[] = { 0, 1, 3 }, zero[] = { 0, 1 };
	static const int one[] = { 1 }, loop[] = { 0, 1 };
	struct cp_graph g;
	struct cpath cp;
	int rc;

	cp_graph_init(&g, 4);
	g.w[0] = 1, g.w[1] = 5, g.w[2] = 2, g.w[3] = 1;
	memset(g.ran, 1, 4);
	cp_graph_edge(&g, 0, 1);
	cp_graph_edge(&g, 0, 2);
	cp_graph_edge(&g, 2, 3);
	cp_graph_edge(&g, 1, 3);
	rc = cp_solve(&g, NULL, 9, 0, &cp);
	ok(!rc && near(cp.cp, 7, EPS6) && near(cp.bound, 7, EPS6) &&
	   chain_is(&cp, 3, diamond),
	   "cpath: diamond 1+5+1, chain 0 1 3, no limit");
	cpath_free(&cp);
	cp_solve(&g, NULL, 30, 2, &cp);
	ok(near(cp.bound, 15, EPS6) && near(cp.cp, 7, EPS6),
	   "cpath: 30 of work on 2 workers bound 15 over a 7 chain");
	cpath_free(&cp);
	cp_graph_free(&g);

	cp_graph_init(&g, 2);
	g.w[1] = 3;
	g.ran[0] = 1;
	g.ran[1] = 1;
	cp_graph_edge(&g, 0, 1);
	cp_solve(&g, NULL, 3, 0, &cp);
	ok(chain_is(&cp, 2, zero), "cpath: a 0-time callback stays on the chain");
	cpath_free(&cp);
	g.ran[0] = 0;
	cp_solve(&g, NULL, 3, 0, &cp);
	ok(chain_is(&cp, 1, one) && near(cp.cp, 3, EPS6),
	   "cpath: a device without a callback does not");
	cpath_free(&cp);
	cp_graph_free(&g);

	cp_graph_init(&g, 2);
	g.w[0] = 2;
	g.w[1] = 3;
	g.ran[0] = 1;
	g.ran[1] = 1;
	cp_graph_edge(&g, 0, 1);
	cp_graph_edge(&g, 1, 0);
	rc = cp_solve(&g, NULL, 5, 0, &cp);
	ok(rc == -1 && near(cp.cp, 5, EPS6) && chain_is(&cp, 2, loop),
	   "cpath: a loop is said (-1), its chain finite (0 1, 5)");
	cpath_free(&cp);
	cp_graph_free(&g);
}

static int json_ok(const char *s);

/* lib/jsonw.c, the writer of both tools: block and flat, null for NaN. */
static void test_jsonw_lib(void)
{
	static const char want[] =
		"{\n  \"a\": 1.500,\n  \"b\": [\n"
		"    {\"n\": 2, \"x\": null, \"e\": []},\n"
		"    {\"s\": \"q\\\"\", \"t\": true}\n  ],\n"
		"  \"c\": {},\n  \"d\": [\"x\", null]\n}";
	struct jw w = { .num_format = "%.3f" };
	char *buf = NULL;
	size_t len = 0;

	w.f = open_memstream(&buf, &len);
	if (!w.f) {
		ok(0, "jsonw: open_memstream");
		return;
	}
	jw_obj(&w, NULL, JW_BLOCK);
	jw_num(&w, "a", 1.5);
	jw_arr(&w, "b", JW_BLOCK);
	jw_obj(&w, NULL, JW_FLAT);
	jw_int(&w, "n", 2);
	jw_num(&w, "x", NAN);
	jw_arr(&w, "e", JW_BLOCK);	/* flat inside a flat one */
	jw_end(&w);
	jw_end(&w);
	jw_obj(&w, NULL, JW_FLAT);
	jw_str(&w, "s", "q\"");
	jw_bool(&w, "t", 7);
	jw_end(&w);
	jw_end(&w);
	jw_obj(&w, "c", JW_BLOCK);
	jw_end(&w);
	jw_arr(&w, "d", JW_FLAT);
	jw_str(&w, NULL, "x");
	jw_str(&w, NULL, NULL);
	jw_end(&w);
	jw_end(&w);
	fclose(w.f);
	ok(buf && !strcmp(buf, want) && json_ok(buf),
	   "jsonw: block and flat containers, commas, null for NaN and NULL");
	if (buf && strcmp(buf, want))
		diag("got: %s", buf);
	free(buf);
}

/*
 * A read error ends either log parser with PARSE_IOERR and the line it
 * came after (a directory opened as a file reads as EISDIR).
 */
static void test_pmlog_read_error(void)
{
	int ftrace;

	for (ftrace = 0; ftrace < 2; ftrace++) {
		FILE *f = fopen(logdir, "r");
		struct pmlog log;
		char err[256] = "";
		int r = -1;

		if (f) {
			if (ftrace)
				r = pmlog_parse_ftrace(f, "D", &log, err,
						       sizeof(err));
			else
				r = pmlog_parse_dmesg(f, "D", &log, err,
						      sizeof(err));
			fclose(f);
			pmlog_free(&log);
		}
		if (!ok(r == PARSE_IOERR &&
			!strcmp(err, "D: read error after line 0: Is a directory"),
			"pmlog: a read error ends the %s parser with PARSE_IOERR",
			ftrace ? "ftrace" : "dmesg"))
			diag("got %d: %s", r, err);
	}
}

/*
 * lib/topo.c: the one reader of a lab topology line, for both tools (the
 * report's tests read the same lines through pm-async-report).
 */
static void test_topo_lib(void)
{
	static const struct {
		const char *line;
		int rc;
		const char *err;	/* a part of the message, rc < 0 */
	} bad[] = {
		{ "", 0, NULL },
		{ " \t # a comment", 0, NULL },
		{ "a/b", -1, "bad device name 'a/b'" },
		{ "a0123456789012345678901234567890", -1, "bad device name" },
		{ "a async=2", -1, "bad value 'async=2'" },
		{ "a pm=yes", -1, "bad value 'pm=yes'" },
		{ "a fail=prepare", -1, "bad value 'fail=prepare'" },
		{ "a fail=sleep", -1, "bad value 'fail=sleep'" },
		{ "a suspend=-1", -1, "bad value 'suspend=-1'" },
		{ "a resume=1x", -1, "bad value 'resume=1x'" },
		{ "a resume_noirq=", -1, "bad value 'resume_noirq='" },
		{ "a =1", -1, "field '=1' is not key=value" },
		{ "a parent", -1, "field 'parent' is not key=value" },
		{ "a speed=9", -1, "unknown topology key 'speed'" },
	};
	char line[128], err[128];
	struct topo_dev t;
	size_t i;
	int n = 0;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int rc;

		snprintf(line, sizeof(line), "%s", bad[i].line);
		err[0] = 0;
		rc = topo_parse(line, &t, err, sizeof(err));
		if (rc != bad[i].rc ||
		    (bad[i].err && !strstr(err, bad[i].err))) {
			diag("topo: '%s': %d '%s'", bad[i].line, rc, err);
			continue;
		}
		n++;
	}
	ok(n == (int)(sizeof(bad) / sizeof(bad[0])),
	   "topo: blank lines, comments and %d bad lines, each with its reason",
	   (int)(sizeof(bad) / sizeof(bad[0])) - 2);

	snprintf(line, sizeof(line), "%s",
		 "dev-1.x:y parent=p async=0 pm=late suppliers=s1,s2 "
		 "fail=freeze_late suspend=5 resume_noirq=7 # c=1");
	ok(topo_parse(line, &t, err, sizeof(err)) == 1 &&
	   !strcmp(t.name, "dev-1.x:y") && !strcmp(t.parent, "p") &&
	   !t.async && t.pm == TOPO_PM_LATE &&
	   !strcmp(t.suppliers, "s1,s2") && t.fail == PH_SUSPEND_LATE &&
	   t.us[PH_SUSPEND] == 5 && t.us[PH_RESUME_NOIRQ] == 7 &&
	   t.us[PH_RESUME] == 0,
	   "topo: every key read, a fail phase of any family, a comment cut");
	snprintf(line, sizeof(line), "%s", "r pm=0 fail=none");
	ok(topo_parse(line, &t, err, sizeof(err)) == 1 && !t.parent &&
	   !t.suppliers && t.async && t.pm == TOPO_PM_OFF && t.fail < 0,
	   "topo: defaults async=1, no parent, no supplier; fail=none; pm=0");
}

/*
 * Slots: A (10 ms) with children B, C (1 ms), unrelated D (1 ms), all async,
 * 2 slots, resume walk A, B, C, D.
 *   stock: all queued upfront; A and B get the slots, B sleeps until A is
 *     done at 10; C gets A's slot (10-11), D gets B's at 11 (11-12) -> 12
 *   pm-async: A and D at 0, B and C at 10                        -> 11
 *   sync: 13; bound max(CP 11, 13 / 2)                           -> 11
 */
static void test_sim_slots(void)
{
	struct graph g;
	struct cpath cp;

	if (topo(&g, "A resume=10000\nB parent=A resume=1000\n"
		     "C parent=A resume=1000\nD resume=1000\n")) {
		ok(0, "slots topology");
		return;
	}
	ok(near(sim_ms(&g, PH_RESUME, POL_612, 2, NULL), 12, EPS6),
	   "slots: stock resume 12 ms (sleeping workers hold slots)");
	ok(near(sim_ms(&g, PH_RESUME, POL_PMASYNC, 2, NULL), 11, EPS6),
	   "slots: pm-async resume 11 ms");
	ok(near(sim_ms(&g, PH_RESUME, POL_SYNC, 2, NULL), 13, EPS6),
	   "slots: sync resume 13 ms");
	cpath_phase(&g, PH_RESUME, 2, &cp);
	ok(near(cp.bound, 11000, EPS6), "slots: bound 11 ms");
	cpath_free(&cp);
	graph_free(&g);

	/* three 1 ms leaves, 2 slots: 2 ms; bound max(1, 3/2) = 1.5 ms */
	topo(&g, "a suspend=1000\nb suspend=1000\nc suspend=1000\n");
	ok(near(sim_ms(&g, PH_SUSPEND, POL_612, 2, NULL), 2, EPS6) &&
	   near(sim_ms(&g, PH_SUSPEND, POL_PMASYNC, 2, NULL), 2, EPS6),
	   "slots: 3 async leaves on 2 slots take 2 ms");
	cpath_phase(&g, PH_SUSPEND, 2, &cp);
	ok(near(cp.bound, 1500, EPS6), "slots: bound = total / slots = 1.5 ms");
	cpath_free(&cp);
	graph_free(&g);

	/* chain a <- b <- c (parents), suspend 1, 2, 3 ms: 6 ms whatever the policy */
	topo(&g, "a suspend=1000\nb parent=a suspend=2000\nc parent=b suspend=3000\n");
	ok(near(sim_ms(&g, PH_SUSPEND, POL_612, 256, NULL), 6, EPS6) &&
	   near(sim_ms(&g, PH_SUSPEND, POL_PMASYNC, 256, NULL), 6, EPS6) &&
	   near(sim_ms(&g, PH_SUSPEND, POL_SYNC, 256, NULL), 6, EPS6),
	   "chain: children before parents, 6 ms for every policy");
	graph_free(&g);

	/* link: X consumes Y; suspend Y waits for X (5 + 1), resume X for Y */
	topo(&g, "Y suspend=1000 resume=1000\nX suspend=5000 resume=5000 suppliers=Y\n");
	ok(near(sim_ms(&g, PH_SUSPEND, POL_PMASYNC, 256, NULL), 6, EPS6) &&
	   near(sim_ms(&g, PH_RESUME, POL_612, 256, NULL), 6, EPS6),
	   "links: supplier suspends after, resumes before its consumer");
	graph_free(&g);

	/* overhead is added to every callback: 3 sync devices, 10 us each */
	topo(&g, "a async=0 suspend=100\nb async=0 suspend=100\nc async=0 suspend=100\n");
	{
		struct sim_params p = { 256, 10, POL_612 };

		ok(near(sim_phase(&g, PH_SUSPEND, POL_612, NULL, &p, NULL), 330, EPS6),
		   "overhead: added once per callback");
	}
	graph_free(&g);
}

/*
 * The four policies on hand-worked topologies (times in ms).
 *
 * Seed topology (list order disk, i8042, serio0, serio1; suspend walk is
 * the reverse: serio1, serio0, i8042, disk):
 *   suspend 6.12: the PM task queues serio1, serio0 (run 0-50), waits for
 *     them to run the sync i8042 50-60, only then queues disk 60-160  = 160
 *   suspend mainline: the async leaves disk, serio0, serio1 start upfront
 *     (disk 0-100, serio 0-50); the PM task skips them, runs i8042 50-60
 *                                                        max(100, 60) = 100
 *   resume mainline: roots disk (async) starts upfront 0-100; the PM task
 *     runs the sync root i8042 0-10, which then starts serio0/1 10-30 = 100
 */
static void test_policy_seed(void)
{
	struct graph g;

	if (topo(&g, seed_topo)) {
		ok(0, "policies: seed topology");
		return;
	}
	ok(near(sim_ms(&g, PH_SUSPEND, POL_612, 256, NULL), 160, EPS6) &&
	   near(sim_ms(&g, PH_SUSPEND, POL_MAINLINE, 256, NULL), 100, EPS6),
	   "policies: seed suspend 6.12 160 ms, mainline 100 ms (leaves upfront: disk not held back)");
	ok(near(sim_ms(&g, PH_RESUME, POL_MAINLINE, 256, NULL), 100, EPS6),
	   "policies: seed resume mainline 100 ms (root disk upfront, serio started by i8042)");
	graph_free(&g);
}

/*
 * Mainline starts a parent on its FIRST finished child; its worker then
 * sleeps in a slot until the other children are done.  2 slots, all async
 * but q; list order P, f (parent P), s (parent P), Q, q (parent Q, sync);
 * suspend P 1, f 1, s 10, Q 20, q 1; suspend walk q, Q, s, f, P.
 *   sync:     1 + 20 + 10 + 1 + 1                                   = 33
 *   6.12:     PM task runs q 0-1, then queues Q (1-21), s (1-11), f, P;
 *             f gets s's slot 11-12, P f's slot 12-13        max(21, 13) = 21
 *   mainline: leaves s (0-10), f (0-1) upfront; the PM task runs q 0-1;
 *             at 1 f starts P, which takes f's slot and sleeps until s is
 *             done; q starts Q, no slot free; at 10 P runs 10-11 and Q
 *             gets s's slot, 10-30                                   = 30
 *   pm-async: s 0-10, f 0-1, q 0-1 (PM task); Q ready at 1 takes f's
 *             slot 1-21; P ready at 10, 10-11                        = 21
 */
static void test_policy_first_child(void)
{
	struct graph g;

	if (topo(&g, "P suspend=1000\nf parent=P suspend=1000\n"
		     "s parent=P suspend=10000\nQ suspend=20000\n"
		     "q parent=Q async=0 suspend=1000\n")) {
		ok(0, "policies: first-child topology");
		return;
	}
	ok(near(sim_ms(&g, PH_SUSPEND, POL_SYNC, 2, NULL), 33, EPS6),
	   "policies: first child, sync 33 ms");
	ok(near(sim_ms(&g, PH_SUSPEND, POL_612, 2, NULL), 21, EPS6),
	   "policies: first child, 6.12 21 ms");
	ok(near(sim_ms(&g, PH_SUSPEND, POL_MAINLINE, 2, NULL), 30, EPS6),
	   "policies: first child, mainline 30 ms (P's worker sleeps in a slot Q needs)");
	ok(near(sim_ms(&g, PH_SUSPEND, POL_PMASYNC, 2, NULL), 21, EPS6),
	   "policies: first child, pm-async 21 ms");
	graph_free(&g);
}

/*
 * Links the kernel does not wait on.  Y then X in the list, X consumes Y,
 * suspend Y 1, X 5, resume the same, both async.
 *   normal link: suspend Y waits for X: 5 + 1 = 6; resume X waits: 6
 *   SYNC_STATE_ONLY or dormant: Y is not a leaf (it has a consumer link)
 *     so mainline does not start it upfront, but the PM task reaches it
 *     right after X (suspend walk X, Y) and starts it; nothing to wait
 *     for: max(5, 1) = 5 for 6.12 and mainline, suspend and resume
 */
static void test_policy_links(void)
{
	static const int fl[] = { 0, LINK_SYNC_STATE_ONLY, LINK_DORMANT };
	static const char *const nm[] = { "normal", "sync_state_only", "dormant" };
	int k;

	for (k = 0; k < 3; k++) {
		struct graph g;
		double want = k ? 5 : 6;

		if (topo(&g, "Y suspend=1000 resume=1000\nX suspend=5000 resume=5000\n")) {
			ok(0, "policies: link topology");
			return;
		}
		graph_add_link_flags(&g, graph_find(&g, "X"), graph_find(&g, "Y"), fl[k]);
		graph_finalize(&g);
		ok(near(sim_ms(&g, PH_SUSPEND, POL_612, 256, NULL), want, EPS6) &&
		   near(sim_ms(&g, PH_SUSPEND, POL_MAINLINE, 256, NULL), want, EPS6) &&
		   near(sim_ms(&g, PH_RESUME, POL_612, 256, NULL), want, EPS6) &&
		   near(sim_ms(&g, PH_RESUME, POL_MAINLINE, 256, NULL), want, EPS6),
		   "policies: %s link, %g ms suspend and resume (6.12 and mainline)",
		   nm[k], want);
		graph_free(&g);
	}
}

/* which policy a kernel release selects */
static void test_policy_of_release(void)
{
	const char *why;

	ok(policy_of_release("6.12.117-1~deb12u1", &why) == POL_612 &&
	   policy_of_release("3.15.0-latest", &why) == POL_612 &&
	   policy_of_release("6.15.9", &why) == POL_612 &&
	   policy_of_release("6.16.0-rc1", &why) == POL_MAINLINE &&
	   policy_of_release("7.3.0-pmasync", &why) == POL_MAINLINE,
	   "policies: 6.12 before 6.16, mainline from 6.16");
	ok(policy_of_release(NULL, &why) == POL_MAINLINE && strstr(why, "no kernel version"),
	   "policies: no version found: mainline, and the reason says so");
}

/*
 * Advice: list order disk, eth, i8042, serio0, serio1 (suspend walk:
 * serio1, serio0, i8042, eth, disk).  Stock: serio 0-50, i8042 50-60,
 * eth 60-90, disk 90-190 -> 190.  eth async: disk queued at 60 -> 160
 * (saves 30).  i8042 async: eth 0-30 in the PM task, disk 30-130 -> 130
 * (saves 60).  Both: 100 (saves 90).
 */
static void test_advice(void)
{
	struct graph g;
	struct advice a;
	struct sim_params p = { 256, 0, POL_612 };

	if (topo(&g, "disk async=1 suspend=100000\n"
		     "eth async=0 suspend=30000\n"
		     "i8042 async=0 suspend=10000\n"
		     "serio0 parent=i8042 async=1 suspend=50000\n"
		     "serio1 parent=i8042 async=1 suspend=50000\n")) {
		ok(0, "advice topology");
		return;
	}
	advice_compute(&g, &p, 5, 50, 0, &a);
	ok(near(a.base_us[PH_SUSPEND], 190000, EPS6), "advice: stock baseline 190 ms");
	ok(a.nitems == 2 && a.items[0].dev == graph_find(&g, "i8042") &&
	   near(a.items[0].saving_us, 60000, EPS6) &&
	   a.items[1].dev == graph_find(&g, "eth") &&
	   near(a.items[1].saving_us, 30000, EPS6),
	   "advice: ranking i8042 (60 ms) before eth (30 ms)");
	ok(a.nbest == 2 && a.best[0] == graph_find(&g, "i8042") &&
	   a.best[1] == graph_find(&g, "eth") &&
	   near(a.best_saving_us, 90000, EPS6) &&
	   near(a.best_cum_us[0], 60000, EPS6),
	   "advice: greedy set {i8042, eth} saves 90 ms");
	advice_free(&a);
	advice_compute(&g, &p, 1, 50, 0, &a);
	ok(a.nbest == 1 && near(a.best_saving_us, 60000, EPS6),
	   "advice: --max 1 keeps the best single device");
	advice_free(&a);
	graph_free(&g);

	/* seed: making i8042 async saves exactly the 60 ms stall */
	topo(&g, seed_topo);
	advice_compute(&g, &p, 5, 50, 0, &a);
	ok(a.nitems == 1 && near(a.items[0].saving_us, 60000, EPS6) &&
	   near(a.items[0].ph_saving_us[PH_SUSPEND], 60000, EPS6),
	   "advice: seed stall, i8042 async saves 60 ms of suspend");
	advice_free(&a);
	graph_free(&g);
}

/* ------------------------------------------------------------ profile */

static void test_profile(void)
{
	struct pmlog log;
	struct graph g, h;
	struct units u;
	char err[1024], line[1024];
	FILE *f;
	int i, same = 1, lines = 0, shape = 1;

	parse("old_basic.txt", &log, err, sizeof(err));
	detect_units(&log, 0, NULL, NULL, &u);
	graph_init(&g);
	graph_from_log(&g, &log, 0, u.scale);
	graph_finalize(&g);
	f = tmpfile();
	ok(profile_write(&g, f, 2.0, "old_basic.txt") == 0, "profile: written");
	rewind(f);
	while (fgets(line, sizeof(line), f)) {
		char name[64];

		if (line[0] == '#')
			continue;
		lines++;
		if (sscanf(line, "%63s", name) != 1 || strlen(name) > 31 ||
		    strspn(name,
			   NAME_CHARS) != strlen(name) ||
		    !strstr(line, " async=") || !strstr(line, " suspend=") ||
		    !strstr(line, " resume_noirq="))
			shape = 0;
	}
	ok(lines == g.n && shape, "profile: one lab line per device, valid names and keys");
	rewind(f);
	graph_init(&h);
	ok(graph_from_topology(&h, f, "profile", err, sizeof(err)) == 0,
	   "profile: read back by the topology parser (parents before children)");
	fclose(f);
	ok(h.n == g.n, "profile: same device count");
	for (i = 0; i < g.n && same; i++) {
		char *nm[64];
		int j, hp;

		if (g.n > 64)
			break;
		sanitize_names(&g, nm);
		j = graph_find(&h, nm[i]);
		if (j < 0) {
			same = 0;
		} else {
			int had_parent = g.d[i].parent >= 0, has_parent;

			hp = h.d[j].parent;
			has_parent = hp >= 0;
			if (had_parent != has_parent ||
			    (hp >= 0 && strcmp(h.d[hp].name, nm[g.d[i].parent])) ||
			    h.d[j].async != g.d[i].async ||
			    h.d[j].dur[PH_SUSPEND] != (double)lround(g.d[i].dur[PH_SUSPEND] * 2) ||
			    h.d[j].dur[PH_RESUME] != (double)lround(g.d[i].dur[PH_RESUME] * 2))
				same = 0;
		}
		for (j = 0; j < g.n; j++)
			free(nm[j]);
	}
	ok(same, "profile: round trip keeps names, parents, async flags, scaled durations");
	i = graph_find(&h, "Fixed_MDIO_bus.0");
	ok(i >= 0 && !strcmp(h.d[h.d[i].parent].name, "top-platform"),
	   "profile: name sanitized ('Fixed MDIO bus.0' -> 'Fixed_MDIO_bus.0'), its root 'platform' -> 'top-platform'");
	graph_free(&h);
	graph_free(&g);
	pmlog_free(&log);

	/* uniqueness and length */
	graph_init(&g);
	graph_add_dev(&g, "PNP0C0B:00", "", "platform");
	graph_add_dev(&g, "PNP0C0B:00", "", "LNXSYBUS:01");
	graph_add_dev(&g, "a-very-long-device-name-with/slash-and-more", "", NULL);
	graph_add_dev(&g, "a-very-long-device-name-with/slash-and-more", "", "x");
	{
		char *nm[8];

		graph_resolve(&g);
		ok(g.n == 7, "profile: 4 devices and 3 parent-only roots (got %d)", g.n);
		sanitize_names(&g, nm);
		ok(!strcmp(nm[0], "PNP0C0B:00") && !strcmp(nm[1], "PNP0C0B:00-2") &&
		   strlen(nm[2]) == 31 && strlen(nm[3]) == 31 &&
		   strcmp(nm[2], nm[3]) && !strchr(nm[2], '/'),
		   "profile: names made unique and cut to 31 chars (%s, %s)", nm[2], nm[3]);
		ok(!strncmp(nm[2], "top-a-very-long", 15) && !strncmp(nm[3], "a-very-long", 11) &&
		   !strcmp(nm[4], "top-platform") && !strcmp(nm[5], "top-LNXSYBUS:01") &&
		   !strcmp(nm[6], "top-x"),
		   "profile: devices without a parent get 'top-' (%s, %s, %s)",
		   nm[2], nm[4], nm[6]);
		for (i = 0; i < g.n; i++)
			free(nm[i]);
	}
	graph_free(&g);
	{
		struct graph t;
		FILE *bf = tmpfile();

		fputs("a\nb parent=nosuch\n", bf);
		rewind(bf);
		graph_init(&t);
		ok(graph_from_topology(&t, bf, "bad", err, sizeof(err)) != 0 &&
		   strstr(err, "bad:2") && strstr(err, "unknown parent"),
		   "topology: unknown parent rejected with the line number (%s)", err);
		fclose(bf);
		graph_free(&t);
	}
	{
		struct graph t;
		FILE *bf = tmpfile();

		fputs("a pm=1\nw parent=a async=0 pm=0\n", bf);
		rewind(bf);
		graph_init(&t);
		ok(graph_from_topology(&t, bf, "nopm", err, sizeof(err)) != 0 &&
		   strstr(err, "nopm:2") && strstr(err, "pm=0"),
		   "topology: pm=1 accepted, a pm=0 device rejected as not modelled (%s)",
		   err);
		fclose(bf);
		graph_free(&t);
	}
}

/* ------------------------------------------------------------ release */

/*
 * The kernel release comes from the log's own parse, so a log on stdin
 * names it too (it used to be read again from the file, which stdin has
 * not): "Linux version 5.10" decides ns>>10 durations.
 */
static void test_release_stdin(void)
{
	char dir[] = "/tmp/pmadv-relXXXXXX";
	char *src = logpath("new_basic.txt"), *path, *a, *out;
	FILE *f, *in;
	int c, st;

	if (!mkdtemp(dir)) {
		ok(0, "release: mkdtemp");
		free(src);
		return;
	}
	path = xasprintf("%s/log.txt", dir);
	f = fopen(path, "w");
	in = fopen(src, "r");
	if (f)
		fprintf(f, "[    0.000000] Linux version 5.10.0-test (x) #1 SMP\n");
	while (f && in && (c = fgetc(in)) != EOF)
		fputc(c, f);
	if (in)
		fclose(in);
	if (f)
		fclose(f);
	a = xasprintf("- < '%s'", path);
	out = run(a, &st);
	ok(st == 0 && strstr(out, "kernel    : 5.10.0-test (-:1: Linux version)") &&
	   strstr(out, "kernel before 5.14"),
	   "release: named by the log itself, also on stdin (5.10: ns>>10 durations)");
	free(out);
	free(a);
	unlink(path);
	rmdir(dir);
	free(path);
	free(src);
}

/* ------------------------------------------------------------ links, CLI */

static void test_links_cli(void)
{
	char *l = logpath("links.txt"), *o = logpath("old_basic.txt");
	char *a = xasprintf("--json --links '%s' '%s'", l, o), *out;
	int st;

	out = run(a, &st);
	ok(st == 0 && strstr(out, "\"links_given\": true") && strstr(out, "\"links\": 3"),
	   "links: 3 of 5 links used (unknown name and cycle refused)");
	ok(strstr(out, "nosuchdev") && strstr(out, "would create a dependency cycle"),
	   "links: skipped links are reported");
	free(out);
	free(a);
	a = xasprintf("--json '%s'", o);
	out = run(a, &st);
	ok(st == 0 && strstr(out, "\"links_given\": false"),
	   "json: says when no links were given");
	ok(strstr(out, "\"devices\": 11") && strstr(out, "\"phases\": {") &&
	   strstr(out, "\"suspend_noirq\": {\"observed_ms\": 2.200") &&
	   strstr(out, "\"predicted_ms\": {\"stock\": ") &&
	   strstr(out, "\"sync\": ") && strstr(out, "\"6.12\": ") &&
	   strstr(out, "\"mainline\": ") && strstr(out, "\"policy\": \"") &&
	   strstr(out, "\"pm-async\": ") && strstr(out, "\"bound_ms\": ") &&
	   strstr(out, "\"advice\": ["),
	   "json: stable keys present");
	free(out);
	free(a);
	a = xasprintf("--overhead-us 0 '%s'", o);
	out = run(a, &st);
	ok(st == 0 && strstr(out, "suspend           112.500") &&
	   strstr(out, "Critical path per phase"),
	   "text: observed times next to the predictions");
	free(out);
	free(a);
	free(l);
	free(o);
}

/* ------------------------------------------------------------ policy, sysfs, options */

static __printf(1, 2) int sh(const char *fmt, ...);
static int sh(const char *fmt, ...)
{
	char cmd[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return system(cmd);
}

static void test_cli_policy(void)
{
	char *o = logpath("old_basic.txt"), *a, *out;
	int st;

	if (sample) {
		a = xasprintf("'%s'", sample);
		out = run(a, &st);
		ok(st == 0 && strstr(out, "policy    : stock = Linux 6.12 (kernel 3.15 < 6.16") &&
		   strstr(out, "kernel    : 3.15.0-latest") &&
		   strstr(out, "mainline   pm-async"),
		   "cli: the skynet log's pm-graph header selects the 6.12 policy; mainline shown too");
		free(out);
		free(a);
		a = xasprintf("--json --policy mainline '%s'", sample);
		out = run(a, &st);
		ok(st == 0 && strstr(out, "\"policy\": \"mainline\"") &&
		   strstr(out, "\"policy_reason\": \"--policy\""),
		   "cli: --policy mainline overrides the log's kernel");
		free(out);
		free(a);
	} else {
		skip("cli: skynet policy", "sample not found");
		skip("cli: --policy", "sample not found");
	}
	a = xasprintf("--json '%s'", o);
	out = run(a, &st);
	ok(st == 0 && strstr(out, "\"policy\": \"mainline\"") &&
	   strstr(out, "no kernel version found") && strstr(out, "\"kernel\": null"),
	   "cli: no kernel version in the log: mainline, and the reason says so");
	free(out);
	free(a);
	free(o);
}

/*
 * A fake sysfs: three links between devices of old_basic.txt (rtc0 supplies
 * serio1; i8042 supplies ata1, SYNC_STATE_ONLY; rtc0 supplies serio0,
 * dormant) and one to a device the log does not have.
 */
static void test_cli_sysfs(void)
{
	char dir[] = "/tmp/pmadv-sysfs.XXXXXX", *o = logpath("old_basic.txt");
	char *a, *out;
	int st;

	if (!mkdtemp(dir)) {
		ok(0, "sysfs: temporary directory");
		return;
	}
	st = sh("cd '%s' && mkdir -p sys/class/devlink && cd sys/class/devlink &&\n"
		"mk() { mkdir \"$1\" &&\n"
		"  ln -s \"../../../devices/x/$2\" \"$1/supplier\" &&\n"
		"  ln -s \"../../../devices/x/y/$3\" \"$1/consumer\" &&\n"
		"  echo $4 >\"$1/sync_state_only\" && echo $5 >\"$1/status\"; } &&\n"
		"mk platform:rtc0--serio:serio1 rtc0 serio1 0 active &&\n"
		"mk platform:i8042--ata:ata1 i8042 ata1 1 available &&\n"
		"mk platform:rtc0--serio:serio0 rtc0 serio0 0 dormant &&\n"
		"mk platform:rtc0--usb:nosuch rtc0 nosuch 0 active\n", dir);
	a = xasprintf("--json --sysfs '%s/sys' '%s'", dir, o);
	out = run(a, &st);
	ok(st == 0 && strstr(out, "\"links_given\": true") && strstr(out, "\"links\": 3") &&
	   strstr(out, "1 naming devices not in the log"),
	   "sysfs: 3 links read from class/devlink, 1 naming a device not in the log");
	free(out);
	free(a);
	a = xasprintf("--sysfs '%s/nowhere' '%s'", dir, o);
	out = run(a, &st);
	ok(st == 1 && strstr(out, "--sysfs") && strstr(out, "class/devlink"),
	   "sysfs: an unreadable --sysfs tree is an error naming it");
	free(out);
	free(a);

	/* pm-async-measure's output directory: run.txt and links.txt */
	sh("mkdir '%s/run' && cp '%s' '%s/run/cycle-001-async.log' && cd '%s/run' &&\n"
	   "printf 'kernel 6.12.117-1~deb12u1\\ncycles 1\\n' >run.txt &&\n"
	   "printf 'serio1\\trtc0\\t-\\nata1\\ti8042\\tsync_state_only\\n' >links.txt\n",
	   dir, o, dir, dir);
	a = xasprintf("--json '%s/run/cycle-001-async.log'", dir);
	out = run(a, &st);
	ok(st == 0 && strstr(out, "\"links\": 2") && strstr(out, "saved by pm-async-measure") &&
	   strstr(out, "\"policy\": \"6.12\"") && strstr(out, "\"kernel\": \"6.12.117-1~deb12u1\""),
	   "measure dir: links.txt and the kernel of run.txt are picked up");
	free(out);
	free(a);
	sh("rm -rf '%s'", dir);
	free(o);
}

/* every wrong option or value: exit 2, the option named */
static void test_cli_options(void)
{
	static const struct {
		const char *args, *want;
	} c[] = {
		{ "--max abc", "--max: 'abc' is not an integer" },
		{ "--max -1", "--max: -1 is out of range" },
		{ "--top x", "--top: 'x' is not an integer" },
		{ "--top 3x", "--top: '3x' is not an integer" },
		{ "--scale -3", "--scale: -3 is out of range" },
		{ "--scale nan", "--scale: 'nan' is not a number" },
		{ "--min-gain-ms 1e", "--min-gain-ms: '1e' is not a number" },
		{ "--limit 0", "--limit: 0 is out of range" },
		{ "--cycle 0", "--cycle: 0 is out of range" },
		{ "--overhead-us ''", "--overhead-us: '' is not a number" },
		{ "--policy 5.4", "--policy: '5.4' is not 6.12 or mainline" },
		{ "--units ms", "--units: 'ms' is not" },
		{ "--bogus", "unknown option --bogus" },
		{ "-x", "unknown option -x" },
		{ "--json --max", "--max needs a value" },
		{ "summarize --limit x --label a", "summarize --limit: 'x' is not an integer" },
		{ "summarize --label a --bogus", "summarize: unknown option --bogus" },
	};
	char *o = logpath("old_basic.txt");
	size_t i;

	for (i = 0; i < ARRAY_SIZE(c); i++) {
		/* the value-less case must end the command line */
		char *a = strstr(c[i].args, "--json --max") ?
			xasprintf("'%s' %s", o, c[i].args) :
			xasprintf("%s '%s'", c[i].args, o);
		int st;
		char *out = run(a, &st);

		if (!ok(st == 2 && strstr(out, c[i].want),
			"options: '%s' exits 2 saying \"%s\"", c[i].args, c[i].want))
			diag("got status %d: %s", st, strtok(out, "\n"));
		free(out);
		free(a);
	}
	free(o);
}

static void test_summarize(void)
{
	char *c1 = logpath("cyc1.txt"), *c2 = logpath("cyc2.txt");
	char *fl = logpath("fail.txt"), *np = logpath("nopm.txt");
	char *a = xasprintf("summarize --label A '%s' '%s' --label B '%s' '%s' '%s'",
			    c1, c2, c1, fl, np), *out;
	int st;

	out = run(a, &st);
	ok(st == 0 && strstr(out, "14.0 (+/- 1.4)") && strstr(out, "24.5 (+/- 1.4)"),
	   "summarize: suspend 14.0 (+/- 1.4), resume 24.5 (+/- 1.4) over two cycles");
	ok(strstr(out, "11.0 (+/- 1.4)") && strstr(out, "21.0 (+/- 1.4)"),
	   "summarize: per-phase columns");
	ok(strstr(out, "1-1: usb 1-1: PM: failed to suspend async: error -5") &&
	   strstr(out, "suspend phase aborted"),
	   "summarize: failing device of a failed cycle reported");
	ok(!!strstr(out, "no usable PM lines"),
	   "summarize: unusable log reported");
	ok(strstr(out, "suspend CP (2/2 cycles): suspend: sd0 -> ata1") &&
	   strstr(out, "resume CP (2/2 cycles): resume: ata1 -> sd0"),
	   "summarize: critical path per label");
	free(out);
	free(a);
	a = xasprintf("summarize --json --label A '%s' '%s'", c1, c2);
	out = run(a, &st);
	ok(st == 0 &&
	   strstr(out, "\"suspend\": {\"n\": 2, \"mean_ms\": 14.000, \"sd_ms\": 1.414") &&
	   strstr(out, "\"bound_ms\": {\"suspend\": {\"n\": 2, \"mean_ms\": 8.000"),
	   "summarize --json: stats and bound (sd0 7 ms + ata1 1 ms)");
	free(out);
	free(a);
	a = xasprintf("summarize --label F '%s'", fl);
	out = run(a, &st);
	ok(st == 2, "summarize: exit 2 when a label has no good cycle");
	free(out);
	free(a);
	free(c1);
	free(c2);
	free(fl);
	free(np);
}

/* ------------------------------------------------------------ safe output */

/*
 * Issue #28: the commands of "To try the set" are pasted into a root shell,
 * and --json must stay valid UTF-8 and valid JSON whatever the log holds.
 * The log below is the advice topology above as a dmesg: its best set is
 * {i8042, eth} (6.12 policy).  Each hostile name replaces i8042 (variant
 * "device") or its parent, platform (variant "parent").  A hostile name
 * only ever tries "touch pwned", relative to the working directory of the
 * sh that reads it (a scratch directory), and never holds '<' or '>'.
 */
static const char hostile_log[] =
	"[    1.000000] PM: suspend entry (deep)\n"
	"[    1.001000] serio serio1: PM: calling serio_suspend @ 201, parent: %s\n"
	"[    1.001010] serio serio0: PM: calling serio_suspend @ 202, parent: %s\n"
	"[    1.051000] serio serio1: PM: serio_suspend returned 0 after 50000 usecs\n"
	"[    1.051010] serio serio0: PM: serio_suspend returned 0 after 50000 usecs\n"
	"[    1.051100] i8042 %s: PM: calling platform_pm_suspend @ 100, parent: %s\n"
	"[    1.061100] i8042 %s: PM: platform_pm_suspend returned 0 after 10000 usecs\n"
	"[    1.061200] e1000e eth: PM: calling pci_pm_suspend @ 100, parent: pci0\n"
	"[    1.091200] e1000e eth: PM: pci_pm_suspend returned 0 after 30000 usecs\n"
	"[    1.091300] sd disk: PM: calling scsi_bus_suspend @ 203, parent: ata1\n"
	"[    1.191300] sd disk: PM: scsi_bus_suspend returned 0 after 100000 usecs\n"
	"[    1.191400] PM: suspend of devices complete after 190.400 msecs\n";

/* one good cycle for summarize: the hostile name is each side's critical path */
static const char hostile_cycle[] =
	"[    1.000000] PM: suspend entry (deep)\n"
	"[    1.001000] i8042 %s: PM: calling platform_pm_suspend @ 100, parent: platform\n"
	"[    1.011000] i8042 %s: PM: platform_pm_suspend returned 0 after 10000 usecs\n"
	"[    1.011100] PM: suspend of devices complete after 10.100 msecs\n"
	"[    1.012000] PM: late suspend of devices complete after 0.100 msecs\n"
	"[    1.013000] PM: noirq suspend of devices complete after 0.100 msecs\n"
	"[    2.000000] PM: noirq resume of devices complete after 0.100 msecs\n"
	"[    2.001000] PM: early resume of devices complete after 0.100 msecs\n"
	"[    2.002000] i8042 %s: PM: calling platform_pm_resume @ 100, parent: platform\n"
	"[    2.012000] i8042 %s: PM: platform_pm_resume returned 0 after 10000 usecs\n"
	"[    2.012100] PM: resume of devices complete after 10.100 msecs\n";

/* bytes as octal escapes: at most three digits, so any character may follow */
static const struct {
	const char *name;
	int refused;		/* no kernel device name looks like it */
	const char *json;	/* the name as --json must write it */
	const char *decoy;	/* a name its find pattern must not match */
} hostile[] = {
	{ "it's", 0, "it's", NULL },
	{ "x'$(touch pwned)'y", 0, "x'$(touch pwned)'y", NULL },
	{ "b`touch pwned`q'`touch pwned`'", 0, "b`touch pwned`q'`touch pwned`'",
	  NULL },
	{ "q\"u\"o'te", 0, "q\\\"u\\\"o'te", NULL },
	{ "sp ace 'dev' $HOME", 0, "sp ace 'dev' $HOME", NULL },
	{ "st*r?[a]\\b", 0, "st*r?[a]\\\\b", "stZZrZab" },
	{ "caf\303\251", 0, "caf\303\251", NULL },
	{ "e\033[31msc", 1, "e\\u001b[31msc", NULL },
	{ "c\rr'$(touch pwned)'", 1, "c\\u000dr'$(touch pwned)'", NULL },
	{ "t\tab", 1, "t\\u0009ab", NULL },
	{ "c1\302\233x", 1, "c1\\u009bx", NULL },
	{ "bad\377'$(touch pwned)'", 1, "bad\357\277\275'$(touch pwned)'", NULL },
	{ "ov\300\257er", 1, "ov\357\277\275\357\277\275er", NULL },
	{ "tr\342\202x", 1, "tr\357\277\275x", NULL },
	{ "sl/ash", 1, "sl/ash", NULL },
	{ "..", 1, "..", NULL },
};

/* a small JSON syntax check (RFC 8259), recursive descent */
static int jv_value(const char **s, int depth);

static void jv_ws(const char **s)
{
	while (**s == ' ' || **s == '\t' || **s == '\n' || **s == '\r')
		(*s)++;
}

static int jv_string(const char **s)
{
	const char *p = *s;
	int i;

	if (*p++ != '"')
		return 0;
	for (;;) {
		unsigned char c = (unsigned char)*p++;

		if (c == '"')
			break;
		if (c < 0x20)	/* a raw control character, or the end */
			return 0;
		if (c != '\\')
			continue;
		c = (unsigned char)*p++;
		if (c == 'u') {
			for (i = 0; i < 4; i++)
				if (!isxdigit((unsigned char)*p++))
					return 0;
		} else if (!c || !strchr("\"\\/bfnrt", c)) {
			return 0;
		}
	}
	*s = p;
	return 1;
}

static int jv_number(const char **s)
{
	const char *p = *s;

	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else if (*p >= '1' && *p <= '9')
		while (isdigit((unsigned char)*p))
			p++;
	else
		return 0;
	if (*p == '.') {
		if (!isdigit((unsigned char)*++p))
			return 0;
		while (isdigit((unsigned char)*p))
			p++;
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (!isdigit((unsigned char)*p))
			return 0;
		while (isdigit((unsigned char)*p))
			p++;
	}
	*s = p;
	return 1;
}

/* OPEN (value | string ':' value) [, ...] CLOSE */
static int jv_members(const char **s, int depth, char close, int keyed)
{
	(*s)++;
	jv_ws(s);
	if (**s == close) {
		(*s)++;
		return 1;
	}
	for (;;) {
		if (keyed) {
			if (!jv_string(s))
				return 0;
			jv_ws(s);
			if (*(*s)++ != ':')
				return 0;
		}
		if (!jv_value(s, depth + 1))
			return 0;
		jv_ws(s);
		if (**s == close) {
			(*s)++;
			return 1;
		}
		if (*(*s)++ != ',')
			return 0;
		jv_ws(s);
	}
}

static int jv_value(const char **s, int depth)
{
	static const char *const lit[] = { "true", "false", "null" };
	size_t i;

	if (depth > 64)
		return 0;
	jv_ws(s);
	if (**s == '{')
		return jv_members(s, depth, '}', 1);
	if (**s == '[')
		return jv_members(s, depth, ']', 0);
	if (**s == '"')
		return jv_string(s);
	for (i = 0; i < ARRAY_SIZE(lit); i++)
		if (!strncmp(*s, lit[i], strlen(lit[i]))) {
			*s += strlen(lit[i]);
			return 1;
		}
	return jv_number(s);
}

/* one JSON text: valid syntax, valid UTF-8 */
static int json_ok(const char *s)
{
	const char *p = s;

	if (!utf8_ok(s, strlen(s)))
		return 0;
	if (!jv_value(&p, 0))
		return 0;
	jv_ws(&p);
	return !*p;
}

/*
 * The words sh makes of @line ("set -- LINE" in a script in @dir, run
 * there), at most @max in @w (malloc'd).  Returns how many, -1 if sh
 * failed.
 */
static int sh_words(const char *dir, const char *line, char **w, int max)
{
	char *path = xasprintf("%s/words.sh", dir), *cmd, buf[8192];
	FILE *f = fopen(path, "w"), *p;
	size_t len, i, start = 0;
	int n = 0;

	if (!f) {
		free(path);
		return -1;
	}
	fprintf(f, "set -- %s\nprintf '%%s\\0' \"$@\"\n", line);
	fclose(f);
	cmd = xasprintf("cd '%s' && sh ./words.sh 2>/dev/null", dir);
	p = popen(cmd, "r");
	len = p ? fread(buf, 1, sizeof(buf), p) : 0;
	if (!p || pclose(p))
		n = -1;
	for (i = 0; n >= 0 && i < len; i++) {
		if (buf[i])
			continue;
		if (n < max)
			w[n] = xstrndup(buf + start, i - start);
		n++;
		start = i + 1;
	}
	free(cmd);
	free(path);
	return n > max ? -1 : n;
}

static void free_words(char **w, int n)
{
	while (n-- > 0)
		free(w[n]);
}

/* what one run's "To try the set" block must hold */
struct try_want {
	const char *name;	/* the advised device named in the log */
	const char *dir;	/* its reconstructed sysfs directory */
	const char *decoy;	/* what its -name pattern must not match */
	const char *ppath;	/* what its -path pattern must match */
	const char *pdecoy;	/* what it must not */
};

/*
 * Check one "echo enabled > PATH" line and the find line under it
 * against @want[0..n): the words sh makes of them.  Returns the index
 * of the device the line is for, -1 (with a diag) if it is wrong.
 */
static int check_echo(const char *dir, const char *line, const char *hint,
		      const struct try_want *want, int n)
{
	char *w[8], *path;
	const char *f;
	int nw, k, i, good;

	nw = sh_words(dir, line + strlen("  echo enabled > "), w, 8);
	if (nw != 1) {
		diag("not one word (%d): %s", nw, line);
		free_words(w, nw);
		return -1;
	}
	for (k = 0; k < n; k++) {
		path = xasprintf("%s/power/async", want[k].dir);
		good = !strcmp(w[0], path);
		free(path);
		if (good)
			break;
	}
	free_words(w, nw);
	if (k == n) {
		diag("unexpected path: %s", line);
		return -1;
	}
	/* "  #   [(chain ...) ]if absent: find ..." */
	f = hint && !strncmp(hint, "  #   ", 6) ?
		strstr(hint, "if absent: find ") : NULL;
	if (!f) {
		diag("no find line after: %s", line);
		return -1;
	}
	nw = sh_words(dir, f + strlen("if absent: find "), w, 8);
	good = (nw == 5 || nw == 7) && !strcmp(w[0], "/sys/devices") &&
	       !strcmp(w[1], "-type") && !strcmp(w[2], "d") &&
	       !strcmp(w[3], "-name") && !fnmatch(w[4], want[k].name, 0) &&
	       (!want[k].decoy || fnmatch(w[4], want[k].decoy, 0));
	if (good && nw == 7)
		good = !strcmp(w[5], "-path") &&
		       !fnmatch(w[6], want[k].ppath, 0) &&
		       (!want[k].pdecoy || fnmatch(w[6], want[k].pdecoy, 0));
	if (!good)
		diag("wrong find words (%d) in: %s", nw, hint);
	for (i = 0; i < nw && i < 8; i++)
		free(w[i]);
	return good ? k : -1;
}

/* mkdir -p @dir (absolute) */
static void mkdirs(const char *dir)
{
	char *p = xstrdup(dir), *s;

	for (s = p + 1; *s; s++)
		if (*s == '/') {
			*s = 0;
			mkdir(p, 0755);
			*s = '/';
		}
	mkdir(p, 0755);
	free(p);
}

/*
 * The "To try the set" block of @out: every line a comment or an echo
 * command, nothing a terminal would take for a control sequence, each
 * echo line one word (@want's directories), each find line the right
 * patterns; run as a whole with /sys/devices moved to @dir/sys/devices,
 * it enables the advised devices there and touches nothing else.
 * Returns the number of echo lines, -1 if something is wrong; *skipped
 * counts the "# skipped" comments.
 */
static int check_try_block(const char *dir, const char *out,
			   const struct try_want *want, int n, int *skipped)
{
	const char *b = strstr(out, "\nTo try the set");
	char *block, *line, *save, *prev = NULL, *script, *fake, *s;
	int necho = 0, bad = 0, k, seen[4] = { 0 };
	FILE *f;

	*skipped = 0;
	if (!b) {
		diag("no \"To try the set\" block");
		return -1;
	}
	b = strchr(b + 1, '\n') + 1;
	block = xstrdup(b);
	if (strstr(block, "\n\n"))
		strstr(block, "\n\n")[1] = 0;
	for (s = block; *s; s++)
		if ((*s != '\n' && (unsigned char)*s < 0x20) || *s == 0x7f)
			bad = 1;
	if (bad || !utf8_ok(block, strlen(block))) {
		diag("a control character or bytes not UTF-8 in the block");
		free(block);
		return -1;
	}
	/* the script: /sys/devices moved into the scratch directory */
	fake = xasprintf("'%s/sys/devices/", dir);
	script = xstrdup("");
	for (s = block; *s;) {
		char *hit = strstr(s, "'/sys/devices/"), *t;

		if (!hit)
			hit = s + strlen(s);
		t = xasprintf("%s%.*s%s", script, (int)(hit - s), s,
			      *hit ? fake : "");
		free(script);
		script = t;
		s = *hit ? hit + strlen("'/sys/devices/") : hit;
	}
	free(fake);
	for (line = strtok_r(block, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (prev) {
			k = check_echo(dir, prev, line, want, n);
			if (k < 0)
				bad = 1;
			else
				seen[k]++;
			prev = NULL;
		}
		if (!strncmp(line, "  echo enabled > ", 17)) {
			prev = line;
			necho++;
		} else if (!strncmp(line, "  # skipped", 11)) {
			(*skipped)++;
		} else if (strncmp(line, "  # ", 4)) {
			diag("neither a command nor a comment: %s", line);
			bad = 1;
		}
	}
	if (prev && check_echo(dir, prev, NULL, want, n) < 0)
		bad = 1;
	for (k = 0; k < n && k < 4; k++) {
		char *p = xasprintf("%s/%s/power", dir, want[k].dir + 1);

		mkdirs(p);
		free(p);
		if (seen[k] > 1)
			bad = 1;
	}
	line = xasprintf("%s/block.sh", dir);
	f = fopen(line, "w");
	if (f) {
		fputs(script, f);
		fclose(f);
	}
	free(line);
	free(script);
	sh("cd '%s' && sh ./block.sh >/dev/null 2>&1", dir);
	for (k = 0; k < n; k++) {
		char *p = xasprintf("%s/%s/power/async", dir, want[k].dir + 1);
		char got[32] = "";

		f = fopen(p, "r");
		if (f) {
			if (!fgets(got, sizeof(got), f))
				got[0] = 0;
			fclose(f);
		}
		if (!!seen[k] != !strcmp(got, "enabled\n")) {
			diag("the block run in %s: %s/power/async holds '%s'",
			     dir, want[k].dir, got);
			bad = 1;
		}
		free(p);
	}
	line = xasprintf("%s/pwned", dir);
	if (!access(line, F_OK)) {
		diag("a name's command substitution ran (%s created)", line);
		bad = 1;
	}
	free(line);
	free(block);
	return bad ? -1 : necho;
}

/*
 * Write the hostile log: @dev is the device the advice names, @par its
 * parent; with @par NULL the summarize cycle of @dev instead.
 */
static int write_hostile_log(const char *path, const char *dev, const char *par)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return 0;
	if (par)
		fprintf(f, hostile_log, dev, dev, dev, par, dev);
	else
		fprintf(f, hostile_cycle, dev, dev, dev, dev);
	return !fclose(f);
}

static void test_safe_output(void)
{
	char base[] = "/tmp/pmadv-hostile.XXXXXX";
	size_t i;
	int variant, nrun = 0;

	if (!mkdtemp(base)) {
		ok(0, "safe output: temporary directory");
		return;
	}
	for (i = 0; i < ARRAY_SIZE(hostile); i++) {
		for (variant = 0; variant < 2; variant++) {
			const char *nm = hostile[i].name;
			const char *vn = variant ? "parent" : "device";
			char *dir = xasprintf("%s/run%d", base, nrun++);
			char *log = xasprintf("%s/h.txt", dir);
			char *a, *out, *want_json;
			struct try_want want[2];
			int st, n = 0, necho, skipped;

			mkdir(dir, 0755);
			if (!write_hostile_log(log, variant ? "i8042" : nm,
					       variant ? nm : "platform")) {
				ok(0, "safe output: write %s", log);
				free(log);
				free(dir);
				continue;
			}
			if (!hostile[i].refused) {
				want[n].name = variant ? "i8042" : nm;
				if (variant)
					want[n].dir = xasprintf("/sys/devices/%s/i8042",
								nm);
				else
					want[n].dir = xasprintf("/sys/devices/platform/%s",
								nm);
				want[n].decoy = variant ? NULL :
					hostile[i].decoy;
				want[n].ppath = want[n].dir;
				want[n].pdecoy = variant && hostile[i].decoy ?
					xasprintf("/sys/devices/%s/i8042",
						  hostile[i].decoy) : NULL;
				n++;
			}
			want[n].name = "eth";
			want[n].dir = xstrdup("/sys/devices/pci0/eth");
			want[n].decoy = NULL;
			want[n].ppath = want[n].dir;
			want[n].pdecoy = NULL;
			n++;
			a = xasprintf("--policy 6.12 '%s'", log);
			out = run(a, &st);
			necho = st ? -1 :
				check_try_block(dir, out, want, n, &skipped);
			ok(necho == n && skipped == hostile[i].refused,
			   "safe output: hostile %s name %d (%s): %s%s",
			   vn, (int)i + 1,
			   hostile[i].refused ? "refused" : "quoted",
			   hostile[i].refused ? "skipped with a comment, " :
			   "one sh word, find pattern literal, ",
			   "the block runs in a sandbox without running the name");
			free(out);
			free(a);
			a = xasprintf("--json --policy 6.12 '%s'", log);
			out = run(a, &st);
			want_json = variant ?
				xasprintf("\"sysfs\": \"/sys/devices/%s/i8042/power/async\"",
					  hostile[i].json) :
				xasprintf("\"device\": \"%s\"", hostile[i].json);
			ok(st == 0 && json_ok(out) && strstr(out, want_json),
			   "safe output: hostile %s name %d: --json is valid UTF-8 and JSON, %s",
			   vn, (int)i + 1,
			   "the name escaped (controls \\u00XX, bad bytes U+FFFD)");
			if (!json_ok(out))
				diag("not valid JSON / UTF-8");
			else if (!strstr(out, want_json))
				diag("missing: %s", want_json);
			free(want_json);
			free(out);
			free(a);
			if (!variant && write_hostile_log(log, nm, NULL)) {
				a = xasprintf("summarize --json --label L '%s'", log);
				out = run(a, &st);
				ok(json_ok(out) && strstr(out, hostile[i].json),
				   "safe output: hostile name %d: summarize --json is valid UTF-8 and JSON, the name escaped",
				   (int)i + 1);
				free(out);
				free(a);
			}
			while (n--)
				free((char *)want[n].dir);
			free((char *)want[0].pdecoy);
			free(log);
			free(dir);
		}
	}
	sh("rm -rf '%s'", base);
}

/*
 * No log line holds a newline, but a name may come from elsewhere one day:
 * the advice topology with i8042 renamed by hand, through report_text()
 * and report_json().
 */
static void test_safe_output_newline(void)
{
	char base[] = "/tmp/pmadv-newline.XXXXXX", *buf = NULL;
	struct try_want want = { "eth", "/sys/devices/eth", NULL,
				 "/sys/devices/eth", NULL };
	struct analysis a;
	struct graph g;
	size_t len = 0;
	int ph, i, necho, skipped;
	FILE *f;

	if (!mkdtemp(base) ||
	    topo(&g, "disk async=1 suspend=100000\n"
		     "eth async=0 suspend=30000\n"
		     "i8042 async=0 suspend=10000\n"
		     "serio0 parent=i8042 async=1 suspend=50000\n"
		     "serio1 parent=i8042 async=1 suspend=50000\n")) {
		ok(0, "safe output: newline topology");
		return;
	}
	i = graph_find(&g, "i8042");
	free(g.d[i].name);
	g.d[i].name = xstrdup("new\nline'$(touch pwned)'");
	memset(&a, 0, sizeof(a));
	a.g = &g;
	a.topology = "test";
	a.top = 10;
	a.min_gain_us = 50;
	a.sp.limit = 256;
	a.sp.stock = POL_612;
	a.units.scale = 1;
	a.units.ratio = NAN;
	a.units.why = "test";
	a.overhead_why = "test";
	for (ph = 0; ph < NPHASES; ph++)
		a.observed[ph] = NAN;
	analysis_run(&a, 5);
	f = open_memstream(&buf, &len);
	report_text(f, &a);
	fclose(f);
	necho = check_try_block(base, buf, &want, 1, &skipped);
	ok(necho == 1 && skipped == 1,
	   "safe output: a name with a newline is skipped with a comment; the block runs in a sandbox without running it");
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	report_json(f, &a);
	fclose(f);
	ok(json_ok(buf) && strstr(buf, "\"new\\u000aline'$(touch pwned)'@none\""),
	   "safe output: --json writes the newline as \\u000a");
	free(buf);
	analysis_free(&a);
	graph_free(&g);
	sh("rm -rf '%s'", base);
}

/* ------------------------------------------------------------ scaling */

/* a small LCG: the synthetic logs are the same on every machine */
static unsigned int lcg_next(unsigned int *s)
{
	*s = *s * 1103515245u + 12345u;
	return (*s >> 16) & 0x7fff;
}

/*
 * A synthetic 6.x log of one suspend/resume cycle of @n devices: a tree
 * where the parent of dev<i> is dev<(i - 1) / 4> (dev00000's is
 * "platform"), six devices in ten sync (PID 100, the PM task), the others
 * async (PIDs 1000-1063); callbacks of 1-60 us, one in ten of 0.1-2 ms,
 * one in a hundred of 5-50 ms; every device in suspend and resume, one in
 * four in the noirq phases, one in eight in late/early.  Suspend phases
 * print children first (reverse list order), resume phases list order.
 * Returns 0 on success.
 */
static int write_synthetic_log(const char *path, int n, unsigned int seed)
{
	static const char *const verb[NPHASES] = {
		"suspend", "late suspend", "noirq suspend",
		"noirq resume", "early resume", "resume",
	};
	static const int every[NPHASES] = { 1, 8, 4, 4, 8, 1 };
	FILE *f = fopen(path, "w");
	unsigned int s = seed;
	int *dur = xmalloc(sizeof(int) * (size_t)n * NPHASES);
	int *pid = xmalloc(sizeof(int) * (size_t)n);
	double t = 1.0;
	int i, k, ph;

	if (!f) {
		free(dur);
		free(pid);
		return -1;
	}
	for (i = 0; i < n; i++) {
		pid[i] = lcg_next(&s) % 10 < 6 ? 100 : 1000 + i % 64;
		for (ph = 0; ph < NPHASES; ph++) {
			unsigned int r = lcg_next(&s) % 100;

			int *d = &dur[i * NPHASES + ph];

			if (r < 1)
				*d = 5000 + (int)(lcg_next(&s) % 45000);
			else if (r < 11)
				*d = 100 + (int)(lcg_next(&s) % 1900);
			else
				*d = 1 + (int)(lcg_next(&s) % 60);
		}
	}
	fprintf(f, "[    0.000000] Linux version 6.12.0-synthetic (test) #1 SMP\n");
	fprintf(f, "[    1.000000] PM: suspend entry (deep)\n");
	for (ph = 0; ph < NPHASES; ph++) {
		double start = t;

		for (k = 0; k < n; k++) {
			char par[16];
			int d;

			i = phase_is_suspend(ph) ? n - 1 - k : k;
			if (i % every[ph])
				continue;
			d = dur[i * NPHASES + ph];
			if (i)
				snprintf(par, sizeof(par), "dev%05d",
					 (i - 1) / 4);
			else
				snprintf(par, sizeof(par), "platform");
			fprintf(f, "[%12.6f] drv%d dev%05d: PM: calling drv_%s @ %d, parent: %s\n",
				t, i % 7, i, phase_key[ph], pid[i], par);
			t += d / 1e6;
			fprintf(f, "[%12.6f] drv%d dev%05d: PM: drv_%s returned 0 after %d usecs\n",
				t, i % 7, i, phase_key[ph], d);
			t += 0.000002;
		}
		fprintf(f, "[%12.6f] PM: %s of devices complete after %.3f msecs\n",
			t, verb[ph], (t - start) * 1e3);
		t += 0.001;
	}
	fprintf(f, "[%12.6f] PM: suspend exit\n", t);
	free(dur);
	free(pid);
	return fclose(f) ? -1 : 0;
}

/* ------------------------------------------------------------ issue #28 */

/* CPU seconds (user + system) of a rusage */
static double cpu_s(const struct rusage *ru)
{
	return ru->ru_utime.tv_sec + ru->ru_utime.tv_usec / 1e6 +
	       ru->ru_stime.tv_sec + ru->ru_stime.tv_usec / 1e6;
}

/**
 * run_timed() - run the tool, output discarded, killed after a deadline
 * @args: its arguments (sh syntax)
 * @limit_s: wall-clock seconds it may take; it is killed after that
 * @cpu: gets its CPU time (user + system, s)
 * @maxrss_kb: gets its peak resident set (KiB)
 *
 * Return: its exit status, -1 if it was killed or did not run.
 */
static int run_timed(const char *args, double limit_s, double *cpu,
		     long *maxrss_kb)
{
	char *cmd = xasprintf("exec %s %s >/dev/null 2>&1", tool, args);
	struct rusage ru;
	struct timespec t0, t1, nap = { 0, 10000000 };
	pid_t pid;
	int st = 0, killed = 0;

	*cpu = 0;
	*maxrss_kb = 0;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	free(cmd);
	if (pid < 0)
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (wait4(pid, &st, WNOHANG, &ru) == 0) {
		clock_gettime(CLOCK_MONOTONIC, &t1);
		if (!killed && (t1.tv_sec - t0.tv_sec) +
		    (t1.tv_nsec - t0.tv_nsec) / 1e9 > limit_s) {
			kill(pid, SIGKILL);
			killed = 1;
		}
		nanosleep(&nap, NULL);
	}
	*cpu = cpu_s(&ru);
	*maxrss_kb = ru.ru_maxrss;
	if (killed || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

/* CPU seconds of this process so far */
static double self_cpu_s(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return cpu_s(&ru);
}

/*
 * Finding A: the ranking re-simulated the phase for every sync device,
 * O(n^2 log n): 1.3k devices 1.35 s, 12.9k 265 s.  It now simulates the
 * devices on the simulated critical path only, a bounded number per step.
 * Timed as a ratio to parsing the same log in this process (CPU times,
 * so that a loaded machine slows both): the whole tool (parse, graph, four
 * policies, ranking, output) on 10,000 devices must stay within
 * SCALE_RATIO parses.  Before, it took about 2800 (62 s); now about 23
 * (0.5 s).
 */
#define SCALE_DEVICES	10000
#define SCALE_RATIO	100

/*
 * Logs written to be slow, 2-4 MB: @kind 0, 40,000 callings that never
 * return (each looked through all open ones: 6 s, then over 200); 1,
 * 30,000 devices of one name under different parents (each looked
 * through all of that name: 11 s).  Now 0.1-0.2 s.
 */
static int write_hostile_scale(const char *path, int kind)
{
	FILE *f = fopen(path, "w");
	double t = 1.0;
	int i;

	if (!f)
		return -1;
	for (i = 0; i < (kind ? 30000 : 40000); i++, t += 0.000002) {
		if (!kind) {
			fprintf(f, "[%12.6f] drv d%d: PM: calling cb @ 100, parent: p\n",
				t, i);
			continue;
		}
		fprintf(f, "[%12.6f] drv x: PM: calling cb @ 100, parent: p%d\n",
			t, i);
		fprintf(f, "[%12.6f] drv x: PM: cb returned 0 after 1 usecs\n", t);
	}
	fprintf(f, "[%12.6f] PM: suspend of devices complete after 1.000 msecs\n", t);
	return fclose(f) ? -1 : 0;
}

/* the hostile logs, timed against @parse (the synthetic log's parse) */
static void test_hostile_scaling(const char *dir, double parse)
{
	static const char *const what[] = {
		"40,000 callings without a return",
		"30,000 devices of one name",
	};
	int kind;

	for (kind = 0; kind < 2; kind++) {
		char *log = xasprintf("%s/hostile%d.txt", dir, kind), *a;
		double cpu;
		long rss;
		int st;

		if (write_hostile_scale(log, kind)) {
			ok(0, "scaling: write %s", log);
			free(log);
			continue;
		}
		a = xasprintf("'%s'", log);
		st = run_timed(a, 30 + SCALE_RATIO * 2 * parse, &cpu, &rss);
		diag("scaling: %s: the tool %.3f s CPU (%.1f parses of the synthetic log)",
		     what[kind], cpu, cpu / parse);
		ok(st == 0 && cpu / parse < SCALE_RATIO,
		   "scaling: a log of %s in less than %d parses of the 10,000-device one (%s)",
		   what[kind], SCALE_RATIO,
		   st < 0 ? "killed at its deadline" : "took that long");
		unlink(log);
		free(a);
		free(log);
	}
}

static void test_scaling(void)
{
	char dir[] = "/tmp/pmadv-scale.XXXXXX", *log, *a, err[1024];
	double parse = 1e9, cpu, t;
	struct pmlog pl;
	long rss;
	int k, st;

	if (!mkdtemp(dir)) {
		ok(0, "scaling: temporary directory");
		return;
	}
	log = xasprintf("%s/syn.txt", dir);
	if (write_synthetic_log(log, SCALE_DEVICES, 1)) {
		ok(0, "scaling: write %s", log);
		free(log);
		return;
	}
	for (k = 0; k < 3; k++) {
		t = self_cpu_s();
		pmlog_parse_file(log, 0, &pl, err, sizeof(err));
		t = self_cpu_s() - t;
		if (t < parse)
			parse = t;
		if (!k)
			ok(pl.ncb == SCALE_DEVICES * 2 + SCALE_DEVICES / 4 * 2 +
			   SCALE_DEVICES / 8 * 2,
			   "scaling: the synthetic log has %d callbacks", pl.ncb);
		pmlog_free(&pl);
	}
	if (parse < 0.005)	/* the clock's grain */
		parse = 0.005;
	a = xasprintf("'%s'", log);
	st = run_timed(a, 30 + SCALE_RATIO * 2 * parse, &cpu, &rss);
	diag("scaling: %d devices: parse %.3f s, the tool %.3f s CPU (%.1f parses; at most %d)",
	     SCALE_DEVICES, parse, cpu, cpu / parse, SCALE_RATIO);
	ok(st == 0 && cpu / parse < SCALE_RATIO,
	   "scaling: advice on %d devices in less than %d times the parse (%s)",
	   SCALE_DEVICES, SCALE_RATIO,
	   st < 0 ? "killed at its deadline" : "took that long");
	free(a);
	test_hostile_scaling(dir, parse);
	/* how many the ranking simulated: 400000 / devices per step */
	a = xasprintf("--json --max 3 '%s'", log);
	{
		int s2, ns = 0, nc = 0, np = 0, per = 0;
		char *out = run(a, &s2);
		const char *r = strstr(out, "\"ranking\": {");

		if (r)
			sscanf(r,
			       "\"ranking\": {\"sync_devices\": %d, \"on_critical_path\": %d, \"simulated\": %d, \"candidates_per_step\": %d",
			       &nc, &np, &ns, &per);
		ok(s2 == 0 && per == 400000 / (SCALE_DEVICES + 1) &&
		   ns == per && np > ns && nc >= np,
		   "scaling: --json says how many devices the ranking simulated (%d of %d on a critical path, of %d sync)",
		   ns, np, nc);
		free(out);
	}
	free(a);
	unlink(log);
	rmdir(dir);
	free(log);
}

/*
 * Finding A: a line longer than LINE_MAX_BYTES is read through and
 * dropped, and counted: a file without newlines is not held in memory
 * (a 512 MB one took 526 MB).  A 16 MB line between the lines of a
 * small log, and one at its end without a newline.
 */
#define LONG_LINE_MB	16

static void test_long_line(void)
{
	char dir[] = "/tmp/pmadv-long.XXXXXX", *log, *a, *out, *buf;
	FILE *f, *src;
	char *p = logpath("new_basic.txt"), line[1024];
	double cpu;
	long rss;
	int st, n = 0;

	if (!mkdtemp(dir)) {
		ok(0, "long line: temporary directory");
		free(p);
		return;
	}
	log = xasprintf("%s/long.txt", dir);
	f = fopen(log, "w");
	src = fopen(p, "r");
	buf = xmalloc(1 << 20);
	memset(buf, 'x', 1 << 20);
	while (f && src && fgets(line, sizeof(line), src)) {
		int k;

		fputs(line, f);
		if (++n != 3)
			continue;
		for (k = 0; k < LONG_LINE_MB; k++)
			fwrite(buf, 1, 1 << 20, f);
		fputc('\n', f);
	}
	if (f) {
		int k;

		for (k = 0; k < LONG_LINE_MB; k++)
			fwrite(buf, 1, 1 << 20, f);
		fclose(f);
	}
	if (src)
		fclose(src);
	free(buf);
	a = xasprintf("'%s'", log);
	out = run(a, &st);
	ok(st == 0 && strstr(out, "\n            2 longer than 8192 bytes, skipped unread\n") &&
	   strstr(out, "lines     : 48 read, 38 used, 8 skipped"),
	   "long line: two lines of %d MB skipped and counted, the log's lines all read",
	   LONG_LINE_MB);
	free(out);
	st = run_timed(a, 60, &cpu, &rss);
	diag("long line: peak RSS %ld KiB", rss);
	ok(st == 0 && rss < LONG_LINE_MB * 1024 / 2,
	   "long line: memory stays small (%ld KiB, a line is %d MiB)", rss,
	   LONG_LINE_MB);
	free(a);
	unlink(log);
	/* a file that is nothing but a line without a newline */
	f = fopen(log, "w");
	if (f) {
		buf = xmalloc(1 << 20);
		memset(buf, 'y', 1 << 20);
		for (n = 0; n < LONG_LINE_MB; n++)
			fwrite(buf, 1, 1 << 20, f);
		free(buf);
		fclose(f);
	}
	a = xasprintf("'%s'", log);
	out = run(a, &st);
	ok(st == 2 && strstr(out, "no usable PM lines in 1 lines (1 longer than 8192 bytes"),
	   "long line: a file without a newline: no usable PM lines, the long line named");
	free(out);
	free(a);
	unlink(log);
	rmdir(dir);
	free(log);
	free(p);
}

/*
 * The greedy set counts a pick's effect in the phases it has no callback
 * in.  new_basic.txt with one slot (mainline): the sound card0 (a suspend
 * callback only) made async no longer holds the PM task in resume while
 * its parent resumes: 1.005 ms of suspend and 2 ms of resume.  Before,
 * the set's resume time stayed the old one and the next device simulated
 * in resume, Fixed MDIO bus.0, got the 2 ms and joined the set, though it
 * makes resume slower.
 */
static void test_greedy_all_phases(void)
{
	char *p = logpath("new_basic.txt"), *a = xasprintf("--limit 1 '%s'", p);
	char *out;
	int st;

	out = run(a, &st);
	ok(st == 0 && strstr(out, "  1. card0@0000:00:1b.0") &&
	   strstr(out, "cumulative saving 3.005 ms") &&
	   !strstr(out, "  2. Fixed MDIO bus.0"),
	   "advice: a pick's saving in the phases it has no callback in is its own (set {card0}, 3.005 ms)");
	free(out);
	free(a);
	/* --candidates: fewer simulated, and said so */
	a = xasprintf("--candidates 1 --top 3 '%s'", sample ? sample : p);
	out = run(a, &st);
	ok(st == 0 && strstr(out, "on a critical path not simulated: at most 1"),
	   "advice: --candidates 1 simulates one device per step and says how many were left out");
	free(out);
	free(a);
	a = xasprintf("--candidates 0 '%s'", p);
	out = run(a, &st);
	ok(st == 2 && strstr(out, "--candidates: 0 is out of range"),
	   "options: '--candidates 0' exits 2 naming it");
	free(out);
	free(a);
	free(p);
}

/* why mainline's model is stuck, word for word */
#define STUCK_TWO_SLOTS \
	"all 2 slots are held by started devices that wait for devices queued behind them (1-1 waits for 1-1.1)"
#define STUCK_ONE_SLOT \
	"its only slot is held by a started device that waits for one queued behind it (P waits for B)"

/*
 * Finding B1: with few slots mainline's model never ends a phase (a parent
 * started by its first finished child sleeps in the last slot while its
 * other child is queued behind it).  The table printed "deadlock" and the
 * error column "+nan%": now "stuck" and a line saying why, in words.
 */
static void test_stuck(void)
{
	char dir[] = "/tmp/pmadv-stuck.XXXXXX", *t, *a, *out;
	int st;
	FILE *f;

	if (sample) {
		a = xasprintf("--limit 2 --policy mainline '%s'", sample);
		out = run(a, &st);
		ok(st == 0 && !strstr(out, "nan") && !strstr(out, "deadlock") &&
		   strstr(out, "suspend_late       15.933      stuck        -") &&
		   strstr(out, "stuck: mainline, suspend_late (and = suspend): no prediction: ") &&
		   strstr(out, STUCK_TWO_SLOTS),
		   "stuck: mainline with 2 slots on the sample: no nan, the reason in words");
		free(out);
		free(a);
		a = xasprintf("--json --limit 2 --policy mainline '%s'", sample);
		out = run(a, &st);
		ok(st == 0 && json_ok(out) &&
		   strstr(out, "\"no_prediction\": {"
			       "\"mainline\": \"no prediction: the model's queue never drains"),
		   "stuck: --json says why there is no mainline prediction");
		free(out);
		free(a);
	} else {
		skip("stuck: sample", "sample not found");
		skip("stuck: sample --json", "sample not found");
	}
	if (!mkdtemp(dir)) {
		ok(0, "stuck: temporary directory");
		return;
	}
	/*
	 * P's children B (parent of C) and A; S sync.  Suspend walk S, A,
	 * C, B, P.  The PM task runs S 0-10; A (a leaf, started upfront) ends
	 * at 1 and starts P, queued behind C; C ends at 2 and starts B,
	 * queued behind P; P takes the one slot and waits for B.
	 */
	t = xasprintf("%s/t.txt", dir);
	f = fopen(t, "w");
	if (f) {
		fputs("P suspend=1000\nB parent=P suspend=1000\nC parent=B suspend=1000\n"
		      "A parent=P suspend=1000\nS async=0 suspend=10000\n", f);
		fclose(f);
	}
	a = xasprintf("--limit 1 --topology '%s'", t);
	out = run(a, &st);
	ok(st == 0 && strstr(out, "suspend                 -      stuck") &&
	   strstr(out, "= suspend               -      stuck") &&
	   strstr(out, STUCK_ONE_SLOT),
	   "stuck: a topology that mainline's model cannot end with one slot: 'stuck', P waits for B");
	free(out);
	free(a);
	unlink(t);
	free(t);
	rmdir(dir);
}

/* Findings B2, B3: a directory or an empty links file */
static void test_bad_files(void)
{
	static const struct {
		const char *args;
		int status;
		const char *want;
	} c[] = {
		{ "'%s'", 1, ": is a directory, not a file" },
		{ "--ftrace '%s' '%s/old_basic.txt'", 1, ": is a directory, not a file" },
		{ "--topology '%s'", 1, "--topology %s: is a directory" },
		{ "--links '%s' '%s/old_basic.txt'", 1, "--links %s: is a directory" },
		{ "--links /dev/null '%s/old_basic.txt'", 2,
		  "--links /dev/null: empty: not a links file" },
		{ "--links '%s/new_basic.txt' '%s/old_basic.txt'", 2,
		  "not a links file: none of its 46 lines is a link" },
		{ "summarize --label L '%s'", 2, ": is a directory, not a file" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(c); i++) {
		char *a = xasprintf(c[i].args, logdir, logdir);
		char *w = xasprintf(c[i].want, logdir);
		int st;
		char *out = run(a, &st);

		if (!ok(st == c[i].status && strstr(out, w),
			"bad file: %s exits %d saying \"%s\"", a, c[i].status, w))
			diag("got status %d: %s", st, strtok(out, "\n"));
		free(out);
		free(w);
		free(a);
	}
	{
		char dir[] = "/tmp/pmadv-links.XXXXXX", *l, *a, *out, *o;
		FILE *f;
		int st;

		if (!mkdtemp(dir)) {
			ok(0, "links: temporary directory");
			return;
		}
		l = xasprintf("%s/links.txt", dir);
		f = fopen(l, "w");
		if (f) {
			fprintf(f,
				"# device links of host from /sys/class/devlink: consumer, supplier, flags\n");
			fclose(f);
		}
		o = logpath("old_basic.txt");
		a = xasprintf("--links '%s' '%s'", l, o);
		out = run(a, &st);
		ok(st == 0 && strstr(out, "links     : 0 device links used"),
		   "links: a links file of comments only (a machine without links) is read: 0 links");
		free(out);
		free(a);
		free(o);
		unlink(l);
		free(l);
		rmdir(dir);
	}
}

/*
 * Finding B4: "dmesg -x" and "journalctl -o json" logs.  new_basic.txt
 * and old_basic.txt rewritten both ways must give the report of the plain
 * log from the "devices" line on.
 */
static void write_variant(const char *from, const char *to, int json)
{
	FILE *in = fopen(from, "r"), *out = fopen(to, "w");
	char line[2048];
	int n = 0;

	while (in && out && fgets(line, sizeof(line), in)) {
		double ts = 0;
		char *m = line, *e = strchr(line, ']');
		size_t l = strlen(line);

		if (l && line[l - 1] == '\n')
			line[--l] = 0;
		if (!json) {
			fprintf(out, "%s  :%s  : %s\n", n % 3 ? "kern" : "user",
				n % 2 ? "info" : "debug", line);
			n++;
			continue;
		}
		if (line[0] == '[' && e) {
			ts = strtod(line + 1, NULL);
			m = e + 1;
			if (*m == ' ')
				m++;
		}
		/* fields before and after MESSAGE, some tricky */
		fprintf(out, "{\"__CURSOR\":\"s=1;i=%x;b=2\",", n);
		fputs("\"_UDEV_DEVLINK\":[\"/dev/a\",\"/dev/\\\"b\\\"\"],", out);
		fputs("\"PRIORITY\":\"6\",\"_TRANSPORT\":\"kernel\",\"MESSAGE\":", out);
		if (n % 5 == 4) {	/* as bytes */
			fputc('[', out);
			for (e = m; *e; e++)
				fprintf(out, "%s%d", e == m ? "" : ",", (unsigned char)*e);
			fputc(']', out);
		} else {
			json_quote(out, m);
		}
		fprintf(out,
			",\"_SOURCE_MONOTONIC_TIMESTAMP\":\"%.0f\",\"X\":{\"y\":[1,{\"z\":\"}\"}]}}\n",
			ts * 1e6);
		/* a PM line from user space: not the kernel's */
		if (n++ == 2)
			fprintf(out,
				"{\"MESSAGE\":\"PM: suspend of devices complete after 99.000 msecs\",\"_TRANSPORT\":\"syslog\"}\n");
	}
	if (in)
		fclose(in);
	if (out)
		fclose(out);
}

static void test_log_variants(void)
{
	static const char *const logs[] = { "new_basic.txt", "old_basic.txt" };
	static const char *const kind[] = { "dmesg -x", "journalctl -o json" };
	char dir[] = "/tmp/pmadv-variants.XXXXXX";
	size_t i;
	int v;

	if (!mkdtemp(dir)) {
		ok(0, "log variants: temporary directory");
		return;
	}
	for (i = 0; i < ARRAY_SIZE(logs); i++) {
		char *p = logpath(logs[i]), *a = xasprintf("'%s'", p), *plain;
		const char *want;
		int st;

		plain = run(a, &st);
		want = strstr(plain, "devices   :");
		for (v = 0; v < 2; v++) {
			char *t = xasprintf("%s/%d-%s", dir, v, logs[i]);
			char *b = xasprintf("'%s'", t), *out;
			const char *got;

			write_variant(p, t, v);
			out = run(b, &st);
			got = strstr(out, "devices   :");
			if (!ok(st == 0 && want && got && !strcmp(want, got) &&
				(!v || strstr(out, "(journal JSON, the kernel's MESSAGE fields)")),
				"log variants: %s as %s gives the same report", logs[i], kind[v]))
				diag("got status %d: %s", st, strtok(out, "\n"));
			free(out);
			unlink(t);
			free(b);
			free(t);
		}
		free(plain);
		free(a);
		free(p);
	}
	/* json-pretty: not one entry per line, said so */
	{
		char *t = xasprintf("%s/pretty.json", dir), *a, *out;
		FILE *f = fopen(t, "w");
		int st;

		if (f) {
			fputs("{\n\t\"__CURSOR\" : \"s=1\",\n"
			      "\t\"MESSAGE\" : \"PM: suspend entry (deep)\",\n"
			      "\t\"_TRANSPORT\" : \"kernel\"\n}\n", f);
			fclose(f);
		}
		a = xasprintf("'%s'", t);
		out = run(a, &st);
		ok(st == 2 && strstr(out, "not one journal entry per line") &&
		   strstr(out, "journalctl -k -o short-monotonic"),
		   "log variants: journal JSON across lines (json-pretty): exit 2 saying how to export it");
		free(out);
		free(a);
		unlink(t);
		free(t);
	}
	rmdir(dir);
}

/*
 * Finding B8: a hibernation log names its phases.  The hostile cycle
 * (i8042 10 ms in each side) with the verbs of a restore from an image:
 * freeze, late freeze, noirq freeze, noirq restore, early restore,
 * restore.
 */
static const char hibernation_log[] =
	"[    1.000000] PM: hibernation: hibernation entry\n"
	"[    1.001000] i8042 i8042: PM: calling platform_pm_freeze @ 100, parent: platform\n"
	"[    1.011000] i8042 i8042: PM: platform_pm_freeze returned 0 after 10000 usecs\n"
	"[    1.011100] PM: freeze of devices complete after 10.100 msecs\n"
	"[    1.012000] PM: late freeze of devices complete after 0.100 msecs\n"
	"[    1.013000] PM: noirq freeze of devices complete after 0.100 msecs\n"
	"[    2.000000] PM: noirq restore of devices complete after 0.100 msecs\n"
	"[    2.001000] PM: early restore of devices complete after 0.100 msecs\n"
	"[    2.002000] i8042 i8042: PM: calling platform_pm_restore @ 100, parent: platform\n"
	"[    2.012000] i8042 i8042: PM: platform_pm_restore returned 0 after 10000 usecs\n"
	"[    2.012100] PM: restore of devices complete after 10.100 msecs\n";

static void test_hibernation(void)
{
	char dir[] = "/tmp/pmadv-hib.XXXXXX", *t, *a, *out;
	FILE *f;
	int st;

	if (!mkdtemp(dir)) {
		ok(0, "hibernation: temporary directory");
		return;
	}
	t = xasprintf("%s/hib.txt", dir);
	f = fopen(t, "w");
	if (f) {
		fputs(hibernation_log, f);
		fclose(f);
	}
	a = xasprintf("'%s'", t);
	out = run(a, &st);
	ok(st == 0 && strstr(out, "transition: hibernation") &&
	   strstr(out, "\nfreeze             10.100 ") &&
	   strstr(out, "\nfreeze_late         0.100 ") &&
	   strstr(out, "\nfreeze_noirq        0.100 ") &&
	   strstr(out, "\nrestore_noirq       0.100 ") &&
	   strstr(out, "\nrestore_early       0.100 ") &&
	   strstr(out, "\nrestore            10.100 ") &&
	   strstr(out, "\n= freeze           10.300 ") &&
	   strstr(out, "\n= restore          10.300 ") &&
	   !strstr(out, "suspend_noirq") && !strstr(out, "resume_early"),
	   "hibernation: the phases are freeze ... restore, as the log's lines say");
	free(out);
	free(a);
	a = xasprintf("--json '%s'", t);
	out = run(a, &st);
	ok(st == 0 && json_ok(out) && strstr(out, "\"transition\": \"hibernation\"") &&
	   strstr(out, "\"name\": \"freeze_late\"") &&
	   strstr(out, "\"name\": \"restore_noirq\"") &&
	   strstr(out, "\"suspend_late\": {\"observed_ms\": 0.100"),
	   "hibernation: --json names them, under the stable keys");
	free(out);
	free(a);
	unlink(t);
	free(t);
	rmdir(dir);
	if (sample) {
		a = xasprintf("'%s'", sample);
		out = run(a, &st);
		ok(st == 0 && !strstr(out, "transition:") &&
		   strstr(out, "\nsuspend_noirq "),
		   "hibernation: a suspend log keeps suspend ... resume");
		free(out);
		free(a);
	} else {
		skip("hibernation: suspend log", "sample not found");
	}
}

/*
 * Finding B7: every document a man page names is in the tree (when the
 * tools sit in a kernel tree: tools/power/pm-async/).
 */
static void test_man_refs(void)
{
	static const char *const man[] = {
		"pm-async-advise.8", "pm-async-report.8", "pm-async-measure.8"
	};
	const char *root = "../../../../..";	/* from advise/tests */
	char *doc = xasprintf("%s/Documentation", root);
	size_t i;
	struct stat sb;

	if (stat(doc, &sb) || !S_ISDIR(sb.st_mode)) {
		skip("man pages: the documents they name exist", "not in a kernel tree");
		free(doc);
		return;
	}
	free(doc);
	for (i = 0; i < ARRAY_SIZE(man); i++) {
		char *p = xasprintf("../../man/%s", man[i]), line[1024];
		FILE *f = fopen(p, "r");
		int n = 0, bad = 0;

		while (f && fgets(line, sizeof(line), f)) {
			static const char *const pfx[] = {
				"Documentation/", "tools/power/"
			};
			size_t k;

			for (k = 0; k < ARRAY_SIZE(pfx); k++) {
				char *s = line;

				while ((s = strstr(s, pfx[k]))) {
					size_t l = strcspn(s, " \t\n,;)");
					char *ref = xstrndup(s, l), *path;
					size_t rl = strlen(ref);

					while (rl && ref[rl - 1] == '.')
						ref[--rl] = 0;
					path = xasprintf("%s/%s", root, ref);
					n++;
					if (stat(path, &sb)) {
						diag("%s names %s: not there",
						     man[i], ref);
						bad++;
					}
					free(path);
					free(ref);
					s += l;
				}
			}
		}
		ok(f && !bad, "man pages: %s names %d document(s), all in the tree",
		   man[i], n);
		if (f)
			fclose(f);
		free(p);
	}
}

/* ------------------------------------------------------------ shared sample */

/* ------------------------------------------------------------ duplicate names */

/* the number after @key in @s from @from on (NAN if absent) */
static double json_num_after(const char *s, const char *from, const char *key)
{
	const char *p = from ? strstr(s, from) : s;

	p = p ? strstr(p, key) : NULL;
	return p ? strtod(p + strlen(key), NULL) : NAN;
}

/* the JSON object of phase @ph ("\"resume\": {...}") in @out, allocated */
static char *json_phase(const char *out, const char *ph)
{
	char *key = xasprintf("\"%s\": {\"observed_ms\"", ph);
	const char *p = strstr(out, key), *e = p ? strstr(p, "\"name\"") : NULL;

	free(key);
	return p && e ? xstrndup(p, (size_t)(e - p)) : xstrdup("");
}

/*
 * dupname.txt: the shape of the laptop of issue 28, synthetic.  Two card0:
 * the DRM card (callbacks, parent 0000:00:02.0) and the ALSA card (no
 * callback: the log names it only as "parent: card0" of the HDA jack
 * inputs input12 and input13, and in their "input: ... as /devices/
 * pci0000:00/0000:00:1f.3/sound/card0/inputN" lines).  In resume the HDA
 * controller 0000:00:1f.3 (async) takes 161 ms, so the PM task waits
 * 58 ms at input12 (the log: 110.112440 to 110.171100), then runs the
 * 17.6 ms sync i2c-SYNA8004:00: 179.5 ms.  With "parent: card0" taken for
 * the DRM card the jacks wait for nothing: 161.0 ms predicted (-10.3%),
 * and under mainline's policy making i2c-SYNA8004:00 async saves nothing
 * of resume where it saves 17.6 ms.  dupname_nobus.txt: the same cycle
 * without bus prefixes and paths, where the ALSA card prints (0 us)
 * callbacks: two devices "card0" that "parent: card0" cannot tell apart.
 */
static void test_duplicate_names(void)
{
	char dir[] = "/tmp/pmadv-dup.XXXXXX", *d = logpath("dupname.txt");
	char *nb = logpath("dupname_nobus.txt"), *a, *out, *ph, *f;
	struct pmlog log;
	struct graph g;
	struct units u;
	char err[1024];
	int st, c1, c2, snd = -1, in12;
	double obs, pred;

	if (parse("dupname.txt", &log, err, sizeof(err)) != PARSE_OK) {
		ok(0, "duplicate names: dupname.txt parses (%s)", err);
		return;
	}
	detect_units(&log, 0, NULL, NULL, &u);
	graph_init(&g);
	graph_from_log(&g, &log, 0, u.scale);
	graph_finalize(&g);
	c1 = dev_named(&g, "card0");
	c2 = c1 >= 0 ? g.d[c1].next_same_name : -1;
	in12 = dev_named(&g, "input12");
	if (c1 >= 0 && c2 >= 0)
		snd = g.d[c1].placeholder ? c1 : c2;
	ok(log.npaths == 2 && c2 >= 0 && g.d[c2].next_same_name < 0 && snd >= 0 &&
	   !strcmp(g.d[snd].driver, "sound") && g.d[snd].path &&
	   !strcmp(g.d[snd].path, "devices/pci0000:00/0000:00:1f.3/sound/card0") &&
	   g.d[snd].parent == dev_named(&g, "0000:00:1f.3") &&
	   !strcmp(g.d[c1 == snd ? c2 : c1].driver, "drm"),
	   "duplicate names: DRM card0, ALSA card0 (sound, path from the log) two devices");
	ok(in12 >= 0 && snd >= 0 && g.d[in12].parent == snd && g.path_parents == 2 &&
	   !g.ambiguous_parents,
	   "duplicate names: 'parent: card0' of the jack inputs is the ALSA card0, by their paths");
	graph_free(&g);
	pmlog_free(&log);

	a = xasprintf("--json '%s'", d);
	out = run(a, &st);
	ph = json_phase(out, "resume");
	obs = json_num_after(ph, NULL, "\"observed_ms\": ");
	pred = json_num_after(ph, NULL, "\"stock\": ");
	diag("duplicate names: resume observed %.3f ms, predicted %.3f ms (%+.1f%%)", obs,
	     pred, (pred - obs) / obs * 100);
	ok(st == 0 && fabs(pred - obs) <= 0.03 * obs,
	   "duplicate names: resume predicted within 3%% of the measured 179.5 ms");
	ok(st == 0 && strstr(ph, "\"uncertain\": false") && !strstr(out, "ambiguous"),
	   "duplicate names: resolved by the paths, so neither ambiguous nor uncertain");
	free(ph);
	free(out);
	free(a);

	a = xasprintf("'%s'", nb);
	out = run(a, &st);
	ok(st == 0 && strstr(out, "parent name 'card0' of input12 is ambiguous (2 devices)") &&
	   strstr(out, "    11  uncertain\n= suspend") &&
	   strstr(out, "uncertain: resume: a device name resolves to two or more devices"),
	   "duplicate names: no bus prefix, no path: noted, resume row uncertain");
	free(out);
	free(a);
	a = xasprintf("--json '%s'", nb);
	out = run(a, &st);
	ph = json_phase(out, "resume");
	ok(st == 0 &&
	   strstr(ph, "\"uncertain\": true, \"uncertain_reasons\": [\"ambiguous_name\"]") &&
	   strstr(out, "\"uncertain\": true, \"name\": \"resume\"}"),
	   "duplicate names: JSON: resume and its total uncertain, reason ambiguous_name");
	free(ph);
	free(out);
	free(a);

	/* the laptop's log as the old model saw it: no paths, or no DRM card either */
	if (!mkdtemp(dir)) {
		ok(0, "duplicate names: temporary directory");
		goto out;
	}
	sh("grep -v ' as /devices/' '%s' >'%s/nopath.txt' &&\n"
	   "grep -v -e ' as /devices/' -e 'drm card0' '%s' >'%s/nocb.txt'", d, dir, d, dir);
	a = xasprintf("--json '%s/nopath.txt'", dir);
	out = run(a, &st);
	ph = json_phase(out, "resume");
	ok(st == 0 && strstr(ph, "\"uncertain\": true, \"uncertain_reasons\": [\"idle_gap\"]") &&
	   strstr(ph, "PM task idle 58.140 ms before sync input12 not modelled"),
	   "duplicate names: no paths: the 58 ms idle before input12 makes resume uncertain");
	free(ph);
	free(out);
	free(a);
	a = xasprintf("--json '%s/nocb.txt'", dir);
	out = run(a, &st);
	ph = json_phase(out, "resume");
	ok(st == 0 &&
	   strstr(ph, "\"uncertain_reasons\": [\"parent_without_callback\", \"idle_gap\"]") &&
	   strstr(ph, "above it card0 has no callback and no known parent"),
	   "duplicate names: idle before a child of a parent with no callback: reported");
	free(ph);
	free(out);
	free(a);
	/* a sysfs device link to the DRM card0: its path tells it from the other */
	sh("l='%s/sys/class/devlink/pci:0000:00:02.0--i2c:x' && mkdir -p \"$l\" &&\n"
	   "p=../../../devices/pci0000:00 && ln -s $p/0000:00:02.0/drm/card0 \"$l/supplier\" &&\n"
	   "ln -s $p/0000:00:15.1/i2c_designware.1/i2c-SYNA8004:00 \"$l/consumer\"", dir);
	a = xasprintf("--json --sysfs '%s/sys' '%s'", dir, d);
	out = run(a, &st);
	ok(st == 0 && strstr(out, "\"links\": 1,") && !strstr(out, "ambiguous"),
	   "duplicate names: a sysfs link end is matched by its path, not taken as ambiguous");
	free(out);
	free(a);
	sh("rm -rf '%s'", dir);

	/* mainline's policy: the advice finds the 17.6 ms behind the wait */
	a = xasprintf("--json --policy mainline '%s'", d);
	out = run(a, &st);
	f = strstr(out, "\"advice\": [");
	ok(st == 0 && f && strstr(f, "{\"device\": \"i2c-SYNA8004:00\"") ==
	   strstr(f, "{\"device\": ") &&
	   near(json_num_after(f, NULL, "\"resume_side_ms\": "), 17.6, 0.5),
	   "duplicate names: mainline: i2c-SYNA8004:00 async saves ~17.6 ms of resume");
	free(out);
	free(a);
out:
	free(d);
	free(nb);
}

static void test_sample(void)
{
	struct pmlog log;
	struct graph g;
	struct units u;
	struct sim_params p = { 256, 0, POL_612 };
	char err[1024];
	double stock, obs;
	int n, side;
	FILE *f = sample ? fopen(sample, "r") : NULL;

	if (!f) {
		skip("shared sample skynet_freeze_dmesg.txt", "sample not found");
		skip("sample: parent relations", "sample not found");
		skip("sample: stock suspend within 15% of observed", "sample not found");
		skip("sample: stock suspend device time", "sample not found");
		skip("sample: stock resume device time", "sample not found");
		return;
	}
	fclose(f);
	pmlog_parse_file(sample, 0, &log, err, sizeof(err));
	detect_units(&log, 0, NULL, NULL, &u);
	graph_init(&g);
	graph_from_log(&g, &log, 0, u.scale);
	graph_finalize(&g);
	ok(log.ncb == 278 && g.n == 141 && g.pm_pid == 2804,
	   "sample: 278 callbacks, 141 devices (129 + 12 parent-only), PM task 2804 (got %d, %d, %d)",
	   log.ncb, g.n, g.pm_pid);
	ok(!strcmp(parent_of(&g, "0:0:0:0"), "target0:0:0") &&
	   !strcmp(parent_of(&g, "serio0"), "i8042") &&
	   !strcmp(parent_of(&g, "usb1"), "0000:00:1a.0") &&
	   !strcmp(parent_of(&g, "0000:00:1f.2"), "pci0000:00") &&
	   g.d[graph_find(&g, "pci0000:00")].placeholder,
	   "sample: parent relations");
	/*
	 * The log is Linux 3.15 (its pm-graph header says so), which queued
	 * async work in list order with workers sleeping on completions,
	 * like 6.12: the 6.12 policy is its stock.
	 */
	p.overhead_us = graph_overhead_from_log(&g, &log, 0, &n);
	stock = sim_phase(&g, PH_SUSPEND, POL_612, NULL, &p, NULL) / 1e3;
	obs = pmlog_observed(&log, 0, PH_SUSPEND, NULL);
	diag("sample suspend: observed %.3f ms, stock %.3f ms (%+.2f%%)",
	     obs, stock, (stock - obs) / obs * 100);
	diag("sample: overhead %.2f us, scale %.3f", p.overhead_us, u.scale);
	ok(near(obs, 864.689, EPS9) && fabs(stock - obs) / obs < 0.15,
	   "sample: stock suspend prediction within 15%% of observed 864.689 ms");
	for (side = 0; side < 2; side++) {
		double o = 0, st = 0, ml = 0;
		int ph;

		for (ph = side ? PH_RESUME_NOIRQ : PH_SUSPEND;
		     ph <= (side ? PH_RESUME : PH_SUSPEND_NOIRQ); ph++) {
			o += pmlog_observed(&log, 0, ph, NULL);
			st += sim_phase(&g, ph, POL_612, NULL, &p, NULL) / 1e3;
			ml += sim_phase(&g, ph, POL_MAINLINE, NULL, &p, NULL) / 1e3;
		}
		diag("sample %s devices: observed %.3f ms, 6.12 %.3f ms (%+.2f%%)",
		     side ? "resume" : "suspend", o, st, (st - o) / o * 100);
		diag("sample %s devices: mainline %.3f ms", side ? "resume" : "suspend", ml);
		ok(o > 0 && fabs(st - o) / o < 0.15,
		   "sample: stock (6.12) %s device time within 15%% of observed",
		   side ? "resume" : "suspend");
	}
	graph_free(&g);
	pmlog_free(&log);
}

int main(int argc, char **argv)
{
	int i;

	/* run-tests --write-synthetic N FILE: the scaling log, to time */
	if (argc == 4 && !strcmp(argv[1], "--write-synthetic"))
		return write_synthetic_log(argv[3], atoi(argv[2]), 1) ? 1 : 0;
	for (i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--logs"))
			logdir = argv[i + 1];
		else if (!strcmp(argv[i], "--tool"))
			tool = argv[i + 1];
		else if (!strcmp(argv[i], "--sample"))
			sample = argv[i + 1];
	}
	printf("TAP version 13\n");
	test_old_format();
	test_new_format();
	test_bad_input();
	test_sim_seed();
	test_sim_slots();
	test_cpath_lib();
	test_jsonw_lib();
	test_topo_lib();
	test_pmlog_read_error();
	test_policy_seed();
	test_policy_first_child();
	test_policy_links();
	test_policy_of_release();
	test_advice();
	test_profile();
	test_links_cli();
	test_release_stdin();
	test_cli_policy();
	test_cli_sysfs();
	test_cli_options();
	test_summarize();
	test_safe_output();
	test_safe_output_newline();
	test_scaling();
	test_long_line();
	test_greedy_all_phases();
	test_stuck();
	test_bad_files();
	test_log_variants();
	test_hibernation();
	test_man_refs();
	test_duplicate_names();
	test_sample();
	printf("1..%d\n", ntest);
	if (nfail)
		printf("# %d of %d tests failed\n", nfail, ntest);
	return nfail ? 1 : 0;
}
