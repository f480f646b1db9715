// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for pm-async-report, TAP output.
 *
 * Run from tools/power/pm-async/report/tests with the path of the built tool as the
 * only argument ("make test" does that).  The graph and statistics cases
 * call the library directly on small inline cycles whose critical paths
 * and bounds are worked out by hand in the comments; the rest run the tool
 * on the fixtures in data/ and on generated cycles written to out/.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "report.h"
#include "test_utf8.h"

/* tolerance (written out: checkpatch reads "1e-9" as a subtraction) */
#define EPS9	0.000000001

static const char *prog;

#define MS	1000000.0	/* ns */
/* A lab report section starts so (pm_async_record.h). */
#define REPORT	"--- report\npm_async_test report version=2 event=suspend\n"

/* a failed CHECK ends the test case: check_failed() jumps back to main() */
static jmp_buf case_end;

static __noreturn void check_failed(const char *file, int line, const char *cond)
{
	printf("# %s:%d: failed: %s\n", file, line, cond);
	longjmp(case_end, 1);
}

#define CHECK(cond)							\
	do {								\
		if (!(cond))						\
			check_failed(__FILE__, __LINE__, #cond);	\
	} while (0)

static int NEAR(double a, double b)
{
	return fabs(a - b) <= EPS9 * (1 + fabs(b));
}

/* ---- helpers ---------------------------------------------------------- */

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = xmalloc(n + 1);
	if (fread(buf, 1, n, f) != (size_t)n)
		n = 0;
	buf[n] = '\0';
	fclose(f);
	if (len)
		*len = n;
	return buf;
}

/* Run the tool with @args; stdout/stderr land in out/stdout, out/stderr. */
static int run(const char *fmt, ...)
{
	char args[1024], cmd[1400];
	va_list ap;
	int st;

	va_start(ap, fmt);
	vsnprintf(args, sizeof(args), fmt, ap);
	va_end(ap);
	snprintf(cmd, sizeof(cmd), "%s %s >out/stdout 2>out/stderr </dev/null",
		 prog, args);
	st = system(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int file_has(const char *path, const char *needle)
{
	char *s = slurp(path, NULL);
	int found = s && strstr(s, needle);

	if (!found)
		printf("# %s does not contain \"%s\"\n", path, needle);
	free(s);
	return found;
}

static int count_of(const char *s, const char *needle)
{
	int n = 0;

	while ((s = strstr(s, needle))) {
		n++;
		s += strlen(needle);
	}
	return n;
}

/* Parse @text and analyse its cycles; NULL on parse error. */
static struct cycle *parse_text(struct input *in, const char *text,
				int limit, FILE *warn)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	char err[256];
	int i, ret;

	memset(in, 0, sizeof(*in));
	ret = parse_file(in, "inline", f, err, sizeof(err));
	fclose(f);
	if (ret) {
		printf("# parse error: %s\n", err);
		return NULL;
	}
	for (i = 0; i < in->n; i++)
		cycle_analyse(in->cyc[i], limit, warn);
	return in->n ? in->cyc[0] : NULL;
}

/* The critical path of @slot as "a b c". */
static int chain_is(const struct cycle *c, int slot, const char *want)
{
	char got[512] = "";
	int i;

	for (i = 0; i < c->nchain[slot]; i++) {
		if (i)
			strcat(got, " ");
		strcat(got, c->dev[c->chain[slot][i]].name);
	}
	if (strcmp(got, want))
		printf("# chain of slot %d is \"%s\", want \"%s\"\n", slot, got,
		       want);
	return !strcmp(got, want);
}

/* ---- well-formedness checkers ----------------------------------------- */

static const char *json_value(const char *p);

static const char *json_ws(const char *p)
{
	while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
		p++;
	return p;
}

static const char *json_string(const char *p)
{
	if (*p++ != '"')
		return NULL;
	for (; *p != '"'; p++) {
		if ((unsigned char)*p < 0x20)
			return NULL;
		if (*p != '\\')
			continue;
		p++;
		if (*p == 'u') {
			int i;

			for (i = 1; i <= 4; i++)
				if (!strchr("0123456789abcdefABCDEF", p[i]) ||
				    !p[i])
					return NULL;
			p += 4;
		} else if (!*p || !strchr("\"\\/bfnrt", *p)) {
			return NULL;
		}
	}
	return p + 1;
}

static const char *json_number(const char *p)
{
	const char *start;

	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else if (*p >= '1' && *p <= '9')
		while (*p >= '0' && *p <= '9')
			p++;
	else
		return NULL;
	if (*p == '.') {
		start = ++p;
		while (*p >= '0' && *p <= '9')
			p++;
		if (p == start)
			return NULL;
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		start = p;
		while (*p >= '0' && *p <= '9')
			p++;
		if (p == start)
			return NULL;
	}
	return p;
}

/* Object or array: members separated by commas, no trailing comma. */
static const char *json_compound(const char *p, char close, int keyed)
{
	p = json_ws(p + 1);
	if (*p == close)
		return p + 1;
	for (;;) {
		if (keyed) {
			p = json_string(json_ws(p));
			if (!p)
				return NULL;
			p = json_ws(p);
			if (*p++ != ':')
				return NULL;
		}
		p = json_value(p);
		if (!p)
			return NULL;
		p = json_ws(p);
		if (*p == close)
			return p + 1;
		if (*p++ != ',')
			return NULL;
	}
}

static const char *json_value(const char *p)
{
	p = json_ws(p);
	if (*p == '{')
		return json_compound(p, '}', 1);
	if (*p == '[')
		return json_compound(p, ']', 0);
	if (*p == '"')
		return json_string(p);
	if (!strncmp(p, "true", 4) || !strncmp(p, "null", 4))
		return p + 4;
	if (!strncmp(p, "false", 5))
		return p + 5;
	return json_number(p);
}

static int json_valid(const char *s)
{
	const char *end = json_value(s);

	return end && !*json_ws(end);
}

/* Tag balance, quoted attributes, entities; enough for our own output. */
static int xml_valid(const char *s)
{
	char stack[64][32];
	int depth = 0, roots = 0;

	while (*s) {
		if (*s == '&') {
			size_t n = strspn(s + 1, "abcdefghijklmnopqrstuvwxyz#0123456789");

			if (!n || s[1 + n] != ';')
				return 0;
			s += n + 2;
		} else if (!strncmp(s, "<?", 2) || !strncmp(s, "<!--", 4)) {
			const char *end = strstr(s, s[1] == '?' ? "?>" : "-->");

			if (!end)
				return 0;
			s = end + 2;
		} else if (*s == '<') {
			int closing = s[1] == '/';
			size_t n;
			char q = 0;

			s += 1 + closing;
			n = strspn(s,
				   "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789:-_");
			if (!n || n >= 32)
				return 0;
			if (closing) {
				if (!depth || strncmp(stack[depth - 1], s, n) ||
				    stack[depth - 1][n] || s[n] != '>')
					return 0;
				depth--;
				s += n + 1;
				continue;
			}
			if (!depth && roots++)
				return 0;
			if (depth == 64)
				return 0;
			memcpy(stack[depth], s, n);
			stack[depth++][n] = '\0';
			for (s += n; *s && (q || *s != '>'); s++) {
				if (q && (*s == '<' ||
					  (*s == '&' && !strchr(s, ';'))))
					return 0;
				if (*s == '"' || *s == '\'')
					q = q == *s ? 0 : q ? q : *s;
			}
			if (!*s)
				return 0;
			if (s[-1] == '/')
				depth--;
			s++;
		} else if (*s != '>') {
			s++;
		} else {
			return 0;
		}
	}
	return !depth && roots == 1;
}

/* ---- generated cycles ------------------------------------------------- */

/*
 * A tree of @ndev devices, device i a child of (i - 1) / @fanout, every
 * seventh one sync; plausible times, all six phases and PM lines.
 */
static void gen_cycle(FILE *f, int ndev, int fanout, int num)
{
	static const char *const ph[NPHASES] = {
		"suspend", "suspend_late", "suspend_noirq",
		"resume_noirq", "resume_early", "resume",
	};
	static const char *const pm[NPHASES] = {
		"suspend", "late suspend", "noirq suspend",
		"noirq resume", "early resume", "resume",
	};
	long long t = 1000000000LL, task, span[NPHASES];
	int i, s;

	fprintf(f,
		"boot noise\n=== cycle kernel=patched profile=gen%d mode=async cycle=%d version=6.12.117\n--- topology\n",
		ndev, num);
	for (i = 0; i < ndev; i++) {
		fprintf(f, "dev%d", i);
		if (i)
			fprintf(f, " parent=dev%d", (i - 1) / fanout);
		fprintf(f, " async=%d", i % 7 != 3);
		if (i > 2 && i % 11 == 0)
			fprintf(f, " suppliers=dev%d", i - 2);
		fprintf(f, "\n");
	}
	fputs(REPORT, f);
	for (s = 0; s < NPHASES; s++) {
		long long end = t;

		task = t;
		for (i = 0; i < ndev; i++) {
			int k = s < 3 ? ndev - 1 - i : i;
			long long dur = 20000 + (k * 7919 % 13) * 30000;
			int sync = k % 7 == 3;
			long long st = sync ? task : t + (k % 5) * 40000;

			if (sync)
				task = st + dur + 5000;
			fprintf(f, "name=dev%d phase=%s start=%lld end=%lld cpu=%d ctx=%s result=0\n",
				k, ph[s], st, st + dur, k % 4,
				sync ? "task" : "worker");
			if (st + dur > end)
				end = st + dur;
		}
		span[s] = end - t + 100000;
		t = end + (s == 2 ? 5000000000LL : 300000);
	}
	fprintf(f, "violations=0\n--- pm\n");
	for (s = 0; s < NPHASES; s++)
		fprintf(f, "[  %d.000000] PM: %s of devices complete after %lld.%03lld msecs\n",
			10 + s, pm[s], span[s] / 1000000,
			span[s] / 1000 % 1000);
	fprintf(f, "=== end\n");
}

static int gen_file(const char *path, int ndev, int fanout)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return 0;
	gen_cycle(f, ndev, fanout, 1);
	return !fclose(f);
}

/* ---- test cases ------------------------------------------------------- */

#define HDR(mode) "=== cycle kernel=patched profile=t mode=" mode " cycle=1\n"

/* c -> b -> a: suspend CP 3 + 2 + 1 = 6 ms, resume a -> b -> c. */
static int t_chain3(void)
{
	static const char text[] = HDR("async")
		"--- topology\na\nb parent=a\nc parent=b\n" REPORT
		"name=c phase=suspend start=0 end=3000000 cpu=0 ctx=worker result=0\n"
		"name=b phase=suspend start=3000000 end=5000000 cpu=1 ctx=worker result=0\n"
		"name=a phase=suspend start=5000000 end=6000000 cpu=0 ctx=worker result=0\n"
		"name=a phase=resume start=10000000 end=11000000 cpu=0 ctx=worker result=0\n"
		"name=b phase=resume start=11000000 end=13000000 cpu=0 ctx=worker result=0\n"
		"name=c phase=resume start=13000000 end=16000000 cpu=0 ctx=worker result=0\n"
		"violations=0\n=== end\n";
	struct input in;
	struct cycle *c = parse_text(&in, text, 256, NULL);
	int ok;

	CHECK(c);
	ok = NEAR(c->cp_ns[0], 6 * MS) && chain_is(c, 0, "c b a") &&
	     NEAR(c->cp_ns[5], 6 * MS) && chain_is(c, 5, "a b c") &&
	     NEAR(c->bound_ns[0], 6 * MS) && c->dev[2].depth == 2;
	input_free(&in);
	return ok;
}

/*
 * The chain of 3 with a pm=0 child under c (a wakeup source's wakeupN):
 * it has no callbacks, adds no edge and is not missing; CP 6 ms as before.
 */
static int t_no_pm(void)
{
	static const char text[] = HDR("async")
		"--- topology\na\nb parent=a\nc parent=b\nw parent=c async=0 pm=0\n"
		REPORT
		"name=c phase=suspend start=0 end=3000000 cpu=0 ctx=worker result=0\n"
		"name=b phase=suspend start=3000000 end=5000000 cpu=1 ctx=worker result=0\n"
		"name=a phase=suspend start=5000000 end=6000000 cpu=0 ctx=worker result=0\n"
		"violations=0\n=== end\n";
	char *warn = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&warn, &len);
	struct input in;
	struct cycle *c;
	int ok;

	CHECK(f);
	c = parse_text(&in, text, 256, f);
	fclose(f);
	CHECK(c && warn);
	ok = c->ndev == 4 && c->dev[3].no_pm && !c->dev[2].no_pm &&
	     NEAR(c->cp_ns[0], 6 * MS) && chain_is(c, 0, "c b a") &&
	     strstr(warn, "missing report line a suspend_late") &&
	     !strstr(warn, "w suspend");
	if (!ok)
		printf("# warnings: %s", warn);
	free(warn);
	input_free(&in);
	return ok;
}

/*
 * The lab's pm=late (marked no-PM after it was added): on the PM core's
 * list, its callbacks run, so it is a device as any other.
 */
static int t_pm_late(void)
{
	static const char text[] = HDR("async")
		"--- topology\na\nb parent=a pm=late\n"
		REPORT
		"name=b phase=suspend start=0 end=2000000 cpu=0 ctx=worker result=0\n"
		"name=a phase=suspend start=2000000 end=3000000 cpu=1 ctx=worker result=0\n"
		"violations=0\n=== end\n";
	struct input in;
	struct cycle *c;
	int ok;

	c = parse_text(&in, text, 256, NULL);
	CHECK(c);
	ok = c->ndev == 2 && !c->dev[1].no_pm && NEAR(c->cp_ns[0], 3 * MS) &&
	     chain_is(c, 0, "b a");
	input_free(&in);
	return ok;
}

/* Children 4, 7, 5 ms in parallel, then p 2 ms: CP 9 ms via y. */
static int t_parallel_children(void)
{
	static const char text[] = HDR("async")
		"--- topology\np\nx parent=p\ny parent=p\nz parent=p\n"
		REPORT
		"name=x phase=suspend start=0 end=4000000 cpu=0 ctx=worker result=0\n"
		"name=y phase=suspend start=0 end=7000000 cpu=1 ctx=worker result=0\n"
		"name=z phase=suspend start=0 end=5000000 cpu=2 ctx=worker result=0\n"
		"name=p phase=suspend start=7000000 end=9000000 cpu=0 ctx=worker result=0\n"
		"name=p phase=resume start=20000000 end=21000000 cpu=0 ctx=worker result=0\n"
		"name=x phase=resume start=21000000 end=24000000 cpu=0 ctx=worker result=0\n"
		"name=y phase=resume start=21000000 end=27000000 cpu=1 ctx=worker result=0\n"
		"name=z phase=resume start=21000000 end=23000000 cpu=2 ctx=worker result=0\n"
		"violations=0\n=== end\n";
	struct input in;
	struct cycle *c = parse_text(&in, text, 256, NULL);
	int ok;

	CHECK(c);
	ok = NEAR(c->cp_ns[0], 9 * MS) && chain_is(c, 0, "y p") &&
	     NEAR(c->cp_ns[5], 7 * MS) && chain_is(c, 5, "p y") &&
	     NEAR(c->total_ns[0], 18 * MS);
	input_free(&in);
	return ok;
}

/*
 * b (under r2) consumes a (under r1).  Suspend: b 5 -> a 2 -> r1 1 = 8 ms
 * beats b -> r2 (6 ms); without the link the CP would be 6 ms.  Resume:
 * r1 1 -> a 2 -> b 5 = 8 ms.
 */
static int t_supplier_link(void)
{
	static const char text[] = HDR("async")
		"--- topology\nr1\na parent=r1\nr2\nb parent=r2 suppliers=a\n"
		REPORT
		"name=b phase=suspend start=0 end=5000000 cpu=0 ctx=worker result=0\n"
		"name=a phase=suspend start=5000000 end=7000000 cpu=1 ctx=worker result=0\n"
		"name=r2 phase=suspend start=5000000 end=6000000 cpu=0 ctx=worker result=0\n"
		"name=r1 phase=suspend start=7000000 end=8000000 cpu=1 ctx=worker result=0\n"
		"name=r1 phase=resume start=10000000 end=11000000 cpu=0 ctx=worker result=0\n"
		"name=r2 phase=resume start=10000000 end=11000000 cpu=1 ctx=worker result=0\n"
		"name=a phase=resume start=11000000 end=13000000 cpu=0 ctx=worker result=0\n"
		"name=b phase=resume start=13000000 end=18000000 cpu=1 ctx=worker result=0\n"
		"violations=0\n=== end\n";
	struct input in;
	struct cycle *c = parse_text(&in, text, 256, NULL);
	int ok;

	CHECK(c);
	ok = NEAR(c->cp_ns[0], 8 * MS) && chain_is(c, 0, "b a r1") &&
	     NEAR(c->cp_ns[5], 8 * MS) && chain_is(c, 5, "r1 a b");
	input_free(&in);
	return ok;
}

/*
 * x (4 ms) and y (3 ms) ran in the task, z (5 ms) in a worker, no
 * dependencies.  mode=async: task order x -> y makes the CP 7 ms.
 * mode=sync: no task edges, CP = z = 5 ms, total 12 ms / 256.
 */
static const char sync_order_text[] =
	"--- topology\nx async=0\ny async=0\nz\n" REPORT
	"name=x phase=suspend start=0 end=4000000 cpu=0 ctx=task result=0\n"
	"name=y phase=suspend start=4000000 end=7000000 cpu=0 ctx=task result=0\n"
	"name=z phase=suspend start=0 end=5000000 cpu=1 ctx=worker result=0\n"
	"violations=0\n=== end\n";

static int t_sync_order(void)
{
	char text[512];
	struct input in;
	struct cycle *c;
	int ok;

	snprintf(text, sizeof(text), "%s%s", HDR("async"), sync_order_text);
	c = parse_text(&in, text, 256, NULL);
	CHECK(c);
	ok = NEAR(c->cp_ns[0], 7 * MS) && chain_is(c, 0, "x y") &&
	     NEAR(c->total_ns[0], 5 * MS) && NEAR(c->bound_ns[0], 7 * MS);
	input_free(&in);
	CHECK(ok);
	snprintf(text, sizeof(text), "%s%s", HDR("sync"), sync_order_text);
	c = parse_text(&in, text, 256, NULL);
	CHECK(c);
	ok = NEAR(c->cp_ns[0], 5 * MS) && chain_is(c, 0, "z") &&
	     NEAR(c->total_ns[0], 12 * MS) && NEAR(c->bound_ns[0], 5 * MS);
	input_free(&in);
	return ok;
}

/* Six independent 10 ms callbacks. */
static const char six_text[] =
	"--- topology\nd1\nd2\nd3\nd4\nd5\nd6\n" REPORT
	"name=d1 phase=suspend start=0 end=10000000 cpu=0 ctx=%s result=0\n"
	"name=d2 phase=suspend start=%d end=20000000 cpu=0 ctx=%s result=0\n"
	"name=d3 phase=suspend start=%d end=30000000 cpu=0 ctx=%s result=0\n"
	"name=d4 phase=suspend start=%d end=40000000 cpu=0 ctx=%s result=0\n"
	"name=d5 phase=suspend start=%d end=50000000 cpu=0 ctx=%s result=0\n"
	"name=d6 phase=suspend start=%d end=60000000 cpu=0 ctx=%s result=0\n"
	"violations=0\n=== end\n";

/* Workers, one after another (no edges between them), 10 ms each. */
static void six_workers(char *buf, size_t len)
{
	char body[1024];

	snprintf(body, sizeof(body), six_text, "worker",
		 10000000, "worker", 20000000, "worker", 30000000, "worker",
		 40000000, "worker", 50000000, "worker");
	snprintf(buf, len, "%s%s", HDR("async"), body);
}

/* LIMIT 2: 60 ms of async work / 2 = 30 ms > CP 10 ms; LIMIT 256: 10 ms. */
static int t_limit(void)
{
	char text[1200];
	struct input in;
	struct cycle *c;
	int ok;

	six_workers(text, sizeof(text));
	c = parse_text(&in, text, 2, NULL);
	CHECK(c);
	ok = NEAR(c->cp_ns[0], 10 * MS) && NEAR(c->bound_ns[0], 30 * MS);
	input_free(&in);
	CHECK(ok);
	c = parse_text(&in, text, 256, NULL);
	CHECK(c);
	ok = NEAR(c->bound_ns[0], 10 * MS);
	input_free(&in);
	return ok;
}

/*
 * The same six callbacks run one after another in the task.  mode=sync
 * uses the all-async bound: CP 10 ms, 60 ms / LIMIT 2 = 30 ms.  In an
 * async cycle the task order chains them: CP 60 ms, no worker time.
 */
static int t_sync_bound(void)
{
	char text[1200], body[1024];
	struct input in;
	struct cycle *c;
	int ok;

	snprintf(body, sizeof(body), six_text, "task", 10000000, "task",
		 20000000, "task", 30000000, "task", 40000000, "task",
		 50000000, "task");
	snprintf(text, sizeof(text), "%s%s", HDR("sync"), body);
	c = parse_text(&in, text, 2, NULL);
	CHECK(c);
	ok = NEAR(c->cp_ns[0], 10 * MS) && NEAR(c->total_ns[0], 60 * MS) &&
	     NEAR(c->bound_ns[0], 30 * MS);
	input_free(&in);
	CHECK(ok);
	/*
	 * mode=async: the devices are async in the topology, so that an
	 * engine ran them in the task is no constraint: no task chain.
	 */
	snprintf(text, sizeof(text), "%s%s", HDR("async"), body);
	c = parse_text(&in, text, 2, NULL);
	CHECK(c);
	ok = NEAR(c->cp_ns[0], 10 * MS) && NEAR(c->total_ns[0], 60 * MS) &&
	     NEAR(c->bound_ns[0], 30 * MS);
	input_free(&in);
	return ok;
}

/* The task ran parent p before its child c: dependencies win, warned. */
static int t_task_order_loop(void)
{
	static const char text[] = HDR("async")
		"--- topology\np async=0\nc parent=p async=0\n" REPORT
		"name=p phase=suspend start=0 end=1000000 cpu=0 ctx=task result=0\n"
		"name=c phase=suspend start=1000000 end=3000000 cpu=0 ctx=task result=0\n"
		"violations=1\nviolation=p suspend before child c\n=== end\n";
	FILE *warn = tmpfile();
	struct input in;
	struct cycle *c;
	char buf[1024] = "";
	int ok;

	CHECK(warn);
	c = parse_text(&in, text, 256, warn);
	rewind(warn);
	if (!fread(buf, 1, sizeof(buf) - 1, warn))
		buf[0] = '\0';
	fclose(warn);
	CHECK(c);
	ok = NEAR(c->cp_ns[0], 3 * MS) && chain_is(c, 0, "c p") &&
	     strstr(buf, "task order contradicts") &&
	     strstr(buf, "1 ordering violation");
	input_free(&in);
	return ok;
}

/* 2,4,4,4,5,5,7,9: mean 5, sample sd sqrt(32/7), median 4.5. */
static int t_stats(void)
{
	static const double v[] = { 9, 2, 4, 4, 5, 4, 5, 7 };
	static const double w[] = { 3, NAN, 1, 2 };
	struct stats st;

	stat_compute(&st, v, 8);
	CHECK(st.n == 8 && NEAR(st.mean, 5) && NEAR(st.sd, sqrt(32.0 / 7)) &&
	      NEAR(st.median, 4.5) && NEAR(st.min, 2) && NEAR(st.max, 9));
	stat_compute(&st, w, 4);
	CHECK(st.n == 3 && NEAR(st.median, 2) && NEAR(st.sd, 1));
	stat_compute(&st, v, 1);
	CHECK(st.n == 1 && NEAR(st.sd, 0) && NEAR(st.median, 9));
	stat_compute(&st, v, 0);
	return st.n == 0 && isnan(st.mean);
}

/* PM log lines to phase slots, families and times. */
static int t_pm_lines(void)
{
	static const struct {
		const char *line;
		int match, fam, slot;
		double ms;
	} cases[] = {
		{ "[   12.345678] PM: suspend of devices complete after 12.345 msecs",
		  1, FAM_SUSPEND, 0, 12.345 },
		{ "PM: late suspend of devices complete after 1.000 msecs",
		  1, FAM_SUSPEND, 1, 1 },
		{ "PM: noirq suspend of devices complete after 0.5 msecs",
		  1, FAM_SUSPEND, 2, 0.5 },
		{ "PM: noirq resume of devices complete after 2.000 msecs",
		  1, FAM_SUSPEND, 3, 2 },
		{ "PM: early resume of devices complete after 3.000 msecs",
		  1, FAM_SUSPEND, 4, 3 },
		{ "PM: resume of devices complete after 4.000 msecs",
		  1, FAM_SUSPEND, 5, 4 },
		{ "PM: late freeze of devices complete after 1.000 msecs",
		  1, FAM_FREEZE, 1, 1 },
		{ "PM: noirq quiesce of devices complete after 1.000 msecs",
		  1, FAM_FREEZE, 2, 1 },
		{ "PM: early thaw of devices complete after 1.000 msecs",
		  1, FAM_FREEZE, 4, 1 },
		{ "PM: recover of devices complete after 1.000 msecs",
		  1, FAM_FREEZE, 5, 1 },
		{ "PM: hibernate of devices complete after 1.000 msecs",
		  1, FAM_POWEROFF, 0, 1 },
		{ "PM: noirq restore of devices complete after 1.000 msecs",
		  1, FAM_POWEROFF, 3, 1 },
		{ "PM: early suspend of devices complete after 1.000 msecs",
		  0, 0, 0, 0 },
		{ "PM: suspend entry (deep)", 0, 0, 0, 0 },
		{ "PM: suspend of devices complete after x msecs", 0, 0, 0, 0 },
		{ "PM: suspend devices took 0.100 seconds", 0, 0, 0, 0 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		int fam = -1, slot = -1, ab = -1;
		double ms = -1;
		int m = parse_pm_line(cases[i].line, &fam, &slot, &ms, &ab);

		if (m != cases[i].match ||
		    (m && (fam != cases[i].fam || slot != cases[i].slot ||
			   !NEAR(ms, cases[i].ms) || ab))) {
			printf("# line \"%s\": match %d fam %d slot %d ms %g\n",
			       cases[i].line, m, fam, slot, ms);
			return 0;
		}
	}
	return 1;
}

static struct cycle *load_file(struct input *in, const char *path, FILE *warn)
{
	FILE *f = fopen(path, "r");
	char err[256];
	int i;

	memset(in, 0, sizeof(*in));
	if (!f || parse_file(in, path, f, err, sizeof(err))) {
		printf("# cannot load %s\n", path);
		if (f)
			fclose(f);
		return NULL;
	}
	fclose(f);
	for (i = 0; i < in->n; i++)
		cycle_analyse(in->cyc[i], 256, warn);
	return in->n ? in->cyc[0] : NULL;
}

/*
 * Cycle 1: suspend phases 4 ms each, CP 2 + 1 ms each: side 12 ms, bound
 * 9 ms, ratio 4/3.  Cycle 2 lacks a callback: excluded, counted, warned.
 */
static int t_incomplete(void)
{
	struct input in;
	struct summary s;
	const struct row *r;
	int ok;

	CHECK(load_file(&in, "data/incomplete.txt", NULL) && in.n == 2);
	CHECK(in.cyc[0]->complete && !in.cyc[1]->complete);
	summarise(&s, in.cyc, in.n, 256);
	r = profile_row(&s.prof[0], "async", "patched");
	ok = r && r->n == 1 && r->incomplete == 1 && s.prof[0].ncycles == 2 &&
	     NEAR(r->side[0].mean, 12) && NEAR(r->side[1].mean, 15) &&
	     NEAR(r->bound[0].mean, 9) && NEAR(r->ratio[0].mean, 12.0 / 9);
	summary_free(&s);
	input_free(&in);
	CHECK(ok);
	CHECK(run("data/incomplete.txt") == 0);
	return file_has("out/stderr",
			"cycle 2 (patched/small/async): missing report line b suspend_late") &&
	       file_has("out/stdout", "1 incomplete");
}

static int t_violations(void)
{
	struct input in;
	struct summary s;
	int ok;

	CHECK(load_file(&in, "data/violations.txt", NULL));
	summarise(&s, in.cyc, in.n, 256);
	ok = s.prof[0].violations == 2 && s.prof[0].row[0].violations == 2 &&
	     s.prof[0].row[0].n == 1;
	summary_free(&s);
	input_free(&in);
	CHECK(ok);
	CHECK(run("--json out/v.json data/violations.txt") == 0);
	return file_has("out/stderr", "2 ordering violations") &&
	       file_has("out/v.json", "\"violations\": 2") &&
	       file_has("out/stdout", "2 violations");
}

static int t_hibernate(void)
{
	struct input in;
	struct cycle *c = load_file(&in, "data/hibernate.txt", NULL);
	int ok;

	CHECK(c);
	ok = c->complete && !strcmp(cycle_phase_name(c, 1), "freeze_late") &&
	     !strcmp(cycle_phase_name(c, 3), "thaw_noirq") &&
	     NEAR(c->pm_ms[0], 3.5) && NEAR(c->pm_ms[5], 2.5) &&
	     NEAR(c->cp_ns[0], 3 * MS) && c->ncb == 6;
	input_free(&in);
	return ok;
}

static int expect_error(const char *file, const char *where,
			const char *why)
{
	CHECK(run("%s", file) == 2);
	return file_has("out/stderr", where) && file_has("out/stderr", why);
}

static int t_bad_key(void)
{
	return expect_error("data/bad_key.txt", "data/bad_key.txt:5: ",
			    "unknown topology key 'speed'");
}

static int t_bad_number(void)
{
	return expect_error("data/bad_number.txt", "data/bad_number.txt:7: ",
			    "bad end '40x0'");
}

static int t_unterminated(void)
{
	return expect_error("data/unterminated.txt",
			    "data/unterminated.txt:3: ", "not terminated");
}

static int t_missing_key(void)
{
	return expect_error("data/missing_key.txt",
			    "data/missing_key.txt:9: ", "'mode'");
}

static int t_usage(void)
{
	CHECK(run("") == 2 && file_has("out/stderr", "usage:"));
	CHECK(run("--bogus data/laptop.txt") == 2 &&
	      file_has("out/stderr", "unknown option '--bogus'"));
	CHECK(run("-x data/laptop.txt") == 2 &&
	      file_has("out/stderr", "unknown option '-x'"));
	CHECK(run("--limit 0 data/laptop.txt") == 2 &&
	      file_has("out/stderr", "--limit: 0 is out of range"));
	CHECK(run("--limit abc data/laptop.txt") == 2 &&
	      file_has("out/stderr", "--limit: 'abc' is not an integer"));
	CHECK(run("--limit=4x data/laptop.txt") == 2 &&
	      file_has("out/stderr", "--limit: '4x' is not an integer"));
	CHECK(run("data/laptop.txt --json") == 2 &&
	      file_has("out/stderr", "'--json' needs a value"));
	CHECK(run("--cycle mode=async data/laptop.txt") == 2);
	CHECK(run("--filter profile data/laptop.txt") == 2);
	return run("no/such/file") == 1;
}

/* Numbers checked by hand from the fixture's PM lines. */
static int t_table(void)
{
	static const char *const want[] = {
		"Profile laptop", "6.12.117-1~deb12u1+pmasync", "8 cycles",
		"sync stock", "sync pm-async", "async stock", "async pm-async",
		"bound (async pm-async)",
		/* sync stock suspend: 29.413, 31.460 */
		"30.4 (+/- 1.4)",
		"patched/stock async: suspend 0.56x resume 1.00x",
		"critical path (suspend), async pm-async cycle 1",
		"sd0 -> ata1 -> pci0",
	};
	size_t i;

	CHECK(run("data/laptop.txt") == 0);
	for (i = 0; i < ARRAY_SIZE(want); i++)
		CHECK(file_has("out/stdout", want[i]));
	return 1;
}

static int json_file_ok(const char *path)
{
	char *s = slurp(path, NULL), cmd[256];
	int ok = s && json_valid(s);

	free(s);
	if (!ok)
		return 0;
	/* A second opinion where python3 exists; not required. */
	if (system("command -v python3 >/dev/null 2>&1"))
		return 1;
	snprintf(cmd, sizeof(cmd), "python3 -m json.tool %s >/dev/null", path);
	return system(cmd) == 0;
}

static int t_json(void)
{
	CHECK(json_valid("{\"a\": [1, -2.5e3, \"x\\u0041\", null, true]}"));
	CHECK(!json_valid("{\"a\": [1, 2,]}") && !json_valid("{\"a\" 1}"));
	CHECK(run("--limit 2 --json out/all.json %s",
		  "data/laptop.txt data/escape.txt data/incomplete.txt") == 0);
	CHECK(json_file_ok("out/all.json"));
	CHECK(file_has("out/all.json", "\"limit\": 2"));
	CHECK(file_has("out/all.json", "\"we\\\"ird\\\\<&>'\": {"));
	CHECK(file_has("out/all.json", "\"async/patched\": {"));
	CHECK(file_has("out/all.json", "\"incomplete\": 1"));
	CHECK(file_has("out/all.json", "\"suspend\": [\n"));
	CHECK(run("--json - data/escape.txt") == 0);
	return json_file_ok("out/stdout");
}

/*
 * Issue #28: header values are free text.  A byte that is not UTF-8
 * (0xff, the overlong 0xc0 0xaf, a truncated 0xe2 0x82) becomes U+FFFD in
 * the JSON and the SVG, and a control character is escaped (JSON) or
 * dropped (SVG): both stay valid UTF-8 and well-formed.  The bytes are
 * octal escapes: at most three digits, so any character may follow.
 */
static int t_hostile(void)
{
	FILE *f = fopen("out/hostile.txt", "w");
	size_t len;
	char *s;

	CHECK(f);
	fputs("=== cycle kernel=patched profile=bad\377prof mode=async cycle=1 ", f);
	fputs("version=v\033[31m\300\2571 transition=t\342\202x\n"
	      "--- topology\nx.y:z-1 async=1\n" REPORT, f);
	fputs("name=x.y:z-1 phase=suspend start=0 end=1000000 cpu=0 ctx=worker result=0\n"
	      "name=x.y:z-1 phase=suspend_late start=2000000 end=2100000 cpu=0 ctx=worker result=0\n"
	      "name=x.y:z-1 phase=suspend_noirq start=3000000 end=3100000 cpu=0 ctx=worker result=0\n"
	      "name=x.y:z-1 phase=resume_noirq start=4000000 end=4100000 cpu=0 ctx=worker result=0\n"
	      "name=x.y:z-1 phase=resume_early start=5000000 end=5100000 cpu=0 ctx=worker result=0\n"
	      "name=x.y:z-1 phase=resume start=6000000 end=7000000 cpu=0 ctx=worker result=0\n"
	      "violations=0\n--- pm\n", f);
	fputs("PM: suspend of devices complete after 1.200 msecs\n"
	      "PM: late suspend of devices complete after 0.200 msecs\n"
	      "PM: noirq suspend of devices complete after 0.200 msecs\n"
	      "PM: noirq resume of devices complete after 0.200 msecs\n"
	      "PM: early resume of devices complete after 0.200 msecs\n"
	      "PM: resume of devices complete after 1.200 msecs\n"
	      "=== end\n", f);
	CHECK(!fclose(f));
	CHECK(run("--json out/hostile.json --svg out/hostile.svg out/hostile.txt") == 0);
	s = slurp("out/hostile.json", &len);
	CHECK(s && utf8_ok(s, len) && json_valid(s));
	CHECK(strstr(s, "\"bad\357\277\275prof\": {") &&
	      strstr(s, "\"v\\u001b[31m\357\277\275\357\277\2751\""));
	free(s);
	CHECK(run("--json - out/hostile.txt") == 0);
	s = slurp("out/stdout", &len);
	CHECK(s && utf8_ok(s, len) && json_valid(s));
	free(s);
	s = slurp("out/hostile.svg", &len);
	CHECK(s && utf8_ok(s, len) && xml_valid(s));
	CHECK(strstr(s, "bad\357\277\275prof") &&
	      strstr(s, "v[31m\357\277\275\357\277\2751"));
	free(s);
	return 1;
}

static int t_filter(void)
{
	char *s;
	int ok;

	CHECK(run("--filter profile=laptop --json out/f.json %s",
		  "data/laptop.txt data/escape.txt") == 0);
	s = slurp("out/f.json", NULL);
	ok = s && strstr(s, "\"laptop\"") && !strstr(s, "ird") &&
	     strstr(s, "\"cycles\": 8");
	free(s);
	return ok;
}

static int svg_file_ok(const char *path, size_t max, int cbs)
{
	size_t len;
	char *s = slurp(path, &len);
	int ok = s && len < max && xml_valid(s);

	if (ok && cbs >= 0 && count_of(s, "class=\"cb\"") != cbs) {
		printf("# %s: %d callback rects, want %d\n", path,
		       count_of(s, "class=\"cb\""), cbs);
		ok = 0;
	}
	if (s && !ok)
		printf("# %s: %zu bytes, xml %s\n", path, len,
		       xml_valid(s) ? "ok" : "broken");
	free(s);
	return ok;
}

static int t_svg_small(void)
{
	CHECK(xml_valid("<?xml version=\"1.0\"?>\n<a x=\"1>\"><b/><c>&lt;</c></a>"));
	CHECK(!xml_valid("<a><b></a></b>") && !xml_valid("<a>&</a>") &&
	      !xml_valid("<a/><b/>"));
	CHECK(gen_file("out/dev25.txt", 25, 3));
	CHECK(run("--svg out/dev25.svg --cycle mode=async,cycle=1 out/dev25.txt") == 0);
	/* 25 devices x 6 measured phases, prepare/complete not drawn */
	CHECK(svg_file_ok("out/dev25.svg", 200000, 150));
	CHECK(file_has("out/dev25.svg", "suspend_noirq"));
	CHECK(run("--svg out/laptop.svg --cycle %s data/laptop.txt",
		  "kernel=stock,mode=sync,cycle=2") == 0);
	CHECK(svg_file_ok("out/laptop.svg", 200000, 36));
	CHECK(run("--svg out/esc.svg data/escape.txt") == 0);
	CHECK(svg_file_ok("out/esc.svg", 200000, 6));
	return run("--svg out/none.svg --cycle cycle=99 data/laptop.txt") == 1;
}

static int t_svg_large(void)
{
	CHECK(gen_file("out/dev2000.txt", 2000, 8));
	CHECK(run("--svg out/dev2000.svg out/dev2000.txt") == 0);
	CHECK(svg_file_ok("out/dev2000.svg", 2000000, 0));
	CHECK(file_has("out/dev2000.svg", "class=\"band\""));
	CHECK(file_has("out/dev2000.svg", "class=\"cp\""));
	/* forcing the grouped view on a small cycle works too */
	CHECK(run("--aggregate --svg out/agg25.svg out/dev25.txt") == 0);
	return svg_file_ok("out/agg25.svg", 2000000, 0);
}

/* CHECK that @path holds @needle (alone on its line, however long) */
static void expect(const char *path, const char *needle)
{
	CHECK(file_has(path, needle));
}

static void expect_in(const char *s, const char *needle)
{
	if (!strstr(s, needle))
		printf("# missing \"%s\"\n", needle);
	CHECK(strstr(s, needle));
}

/* write @text to @path */
static int put_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return 0;
	fputs(text, f);
	return !fclose(f);
}

/*
 * The report's record (pm_async_record.c): a version 1 line, another
 * version, a line out of order and a missing field are each an error at
 * their line.
 */
static int t_record_errors(void)
{
	static const struct {
		const char *report, *why;
	} bad[] = {
		{ "--- report\nname=a phase=suspend start=1 end=2 cpu=0 ctx=worker result=0\n",
		  "no 'pm_async_test report' header first" },
		{ "--- report\npm_async_test report version=1 event=suspend\n",
		  "report version '1', this reader reads 2" },
		{ REPORT "a suspend 1 2 0 worker 0\n",
		  "not a line of a version 2 report" },
		{ REPORT "name=a phase=suspend start=1 end=2 cpu=0 result=0\n",
		  "callback line without 'ctx='" },
		{ REPORT "violations=0\nname=a phase=suspend start=1 end=2 cpu=0 ctx=worker result=0\n",
		  "callback line after the violations" },
		{ REPORT "violation=x\n",
		  "violation line before the violations line" },
		{ REPORT "pm_async_test report version=2 event=suspend\n",
		  "second header" },
	};
	char text[512];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		snprintf(text, sizeof(text), "%s--- topology\na async=1\n%s",
			 HDR("async"), bad[i].report);
		CHECK(put_file("out/record.txt", text));
		CHECK(expect_error("out/record.txt", "out/record.txt:",
				   bad[i].why));
	}
	/* A field this reader does not know is skipped; so is the event. */
	snprintf(text, sizeof(text), "%s--- topology\na async=1\n%s%s",
		 HDR("async"), REPORT,
		 "name=a phase=suspend start=1 end=2 cpu=0 ctx=worker result=0 new=7\nviolations=0\n=== end\n");
	CHECK(put_file("out/record.txt", text));
	return run("out/record.txt") == 0;
}

/*
 * Issue #28: a machine's kernel log read as "no cycles found", exit 0;
 * then as an error naming pm-async-advise.  Now it is read: one cycle,
 * its table row and its timeline.
 */
static int t_kernel_log(void)
{
	CHECK(put_file("out/dmesg.txt",
		       "[  100.000000] PM: suspend entry (deep)\n"
		       "[  100.001000] disk sd0: PM: calling lab_suspend @ 50, parent: ata1\n"
		       "[  100.008000] disk sd0: PM: lab_suspend returned 0 after 7000 usecs\n"
		       "[  100.010000] PM: suspend of devices complete after 10.000 msecs\n"));
	CHECK(run("--svg out/dmesg.svg out/dmesg.txt") == 0);
	CHECK(file_has("out/stdout", "Profile dmesg.txt, version unknown: 1 cycle, 1 incomplete"));
	expect("out/stderr",
	       "cycle 1 (log/dmesg.txt/log): missing PM line for suspend_late");
	expect("out/dmesg.svg",
	       "<title>sd0 suspend 0.000-7.000 ms (7.000 ms) pid 50 task result 0</title>");
	/* the parent has no callback: a row of its own, above, no rect */
	CHECK(file_has("out/dmesg.svg", "<text x=\"6\" y=\"94.0\" font-size=\"10\">ata1</text>"));
	expect("out/dmesg.svg",
	       "<text x=\"16\" y=\"108.0\" font-size=\"10\" font-style=\"italic\">sd0</text>");
	/* boot noise only, no PM lines: still "no cycles found" */
	CHECK(put_file("out/noise.txt", "[    0.000000] Linux version 7.3.0\n"));
	CHECK(run("out/noise.txt") == 0 && file_has("out/stdout", "no cycles found"));
	/* forced: the parser's own message, exit 2 */
	CHECK(run("--kernel-log out/noise.txt") == 2);
	return file_has("out/stderr", "out/noise.txt: no usable PM lines in 1 lines");
}

/*
 * A real hibernation log (data/skynet_disk_excerpt.txt, see data/README):
 * its 275 callbacks in one cycle, freeze and restore phases, the sync
 * devices (the PM task, PID 2662) in italics, the critical paths.
 */
static int t_real_log(void)
{
	char *svg;
	int n;

	CHECK(run("--svg out/skynet.svg data/skynet_disk_excerpt.txt") == 0);
	expect("out/stdout",
	       "Profile skynet_disk_excerpt.txt, version 3.15.0-latest: 1 cycle, 0 incomplete,");
	expect("out/stdout",
	       "log 3.15.0-latest                  55.0           0.28           0.71           15.5           0.27           1976");
	expect("out/stdout",
	       "  restore        CP    1978 ms: 0000:00:1a.0 -> usb1 -> 1-1 -> 1-1.4 -> 1-1.4.3");
	expect("out/stdout",
	       "  freeze_noirq   CP    0.48 ms: 0000:02:00.0 -> 0000:00:1c.3");
	svg = slurp("out/skynet.svg", NULL);
	CHECK(svg);
	n = count_of(svg, "class=\"cb\"");
	expect_in(svg,
		  "timeline: 3.15.0-latest / skynet_disk_excerpt.txt / log / cycle 1</text>");
	CHECK(strstr(svg, "transition hibernate; suspend 56.0 ms"));
	CHECK(strstr(svg, "font-style=\"italic\">coretemp.0</text>"));
	expect_in(svg,
		  "0000:00:1a.0 restore 974.824-978.750 ms (3.926 ms) pid 2841 worker result 0</title>");
	CHECK(count_of(svg, "font-style=\"italic\"") == 74);
	/* 40 callbacks on a critical path, and the legend's sample */
	CHECK(count_of(svg, "stroke=\"#d40000\"") == 41);
	free(svg);
	if (n != 275)
		printf("# %d callbacks drawn, want 275\n", n);
	return n == 275 && svg_file_ok("out/skynet.svg", 2000000, 275);
}

/*
 * A log of @n suspend cycles: sd0 (PM task, PID 50) under ata1, ata1
 * under pci0, i8042 in a worker (PID 60); sd0's suspend callback takes
 * @sd0[k] ms; the last cycle ends after its noirq suspend if @cut.
 */
static __printf(4, 5) void logln(FILE *f, int t, int us, const char *fmt, ...)
{
	va_list ap;

	fprintf(f, "[%5d.%06d] ", t, us);
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
}

static int gen_log(const char *path, int n, const int *sd0, int cut)
{
	FILE *f = fopen(path, "w");
	int k;

	if (!f)
		return 0;
	for (k = 0; k < n; k++) {
		int t = 100 * (k + 1), s = 1000 * sd0[k], r = t + 10;

		logln(f, t, 0, "PM: suspend entry (deep)");
		logln(f, t, 1000, "disk sd0: PM: calling lab_suspend @ 50, parent: ata1");
		logln(f, t, 2000, "kbd i8042: PM: calling lab_suspend @ 60, parent: none");
		logln(f, t, 4000, "kbd i8042: PM: lab_suspend returned 0 after 2000 usecs");
		logln(f, t, 1000 + s, "disk sd0: PM: lab_suspend returned 0 after %d usecs", s);
		logln(f, t, 1000 + s, "ata ata1: PM: calling lab_suspend @ 50, parent: pci0");
		logln(f, t, 2000 + s, "ata ata1: PM: lab_suspend returned 0 after 1000 usecs");
		logln(f, t, 3000 + s, "PM: suspend of devices complete after %d.000 msecs",
		      3 + sd0[k]);
		logln(f, t, 4000 + s, "PM: late suspend of devices complete after 1.000 msecs");
		logln(f, t, 6000 + s, "PM: noirq suspend of devices complete after 2.000 msecs");
		if (cut && k == n - 1)
			break;
		logln(f, r, 3000, "PM: noirq resume of devices complete after 3.000 msecs");
		logln(f, r, 3500, "PM: early resume of devices complete after 0.500 msecs");
		logln(f, r, 4000, "ata ata1: PM: calling lab_resume @ 50, parent: pci0");
		logln(f, r, 9000, "ata ata1: PM: lab_resume returned 0 after 5000 usecs");
		logln(f, r, 9000, "disk sd0: PM: calling lab_resume @ 50, parent: ata1");
		logln(f, r, 18000, "disk sd0: PM: lab_resume returned 0 after 9000 usecs");
		logln(f, r, 18500, "PM: resume of devices complete after 15.000 msecs");
	}
	return !fclose(f);
}

/* many cycles: --cycle N, the default (the last complete one) */
static int t_log_cycles(void)
{
	static const int sd0[] = { 7, 20, 9, 30 };

	CHECK(gen_log("out/cyc4.txt", 4, sd0, 1));
	CHECK(run("--svg out/cyc4.svg out/cyc4.txt") == 0);
	CHECK(file_has("out/stdout", "Profile cyc4.txt, version unknown: 4 cycles, 1 incomplete"));
	/* cycle 4 lacks its resume: cycle 3 is drawn */
	CHECK(file_has("out/cyc4.svg", "log / cycle 3</text>"));
	expect("out/cyc4.svg",
	       "<title>sd0 suspend 0.000-9.000 ms (9.000 ms) pid 50 task result 0</title>");
	expect("out/cyc4.svg",
	       "<title>i8042 suspend 1.000-3.000 ms (2.000 ms) pid 60 worker result 0</title>");
	CHECK(run("--svg out/cyc2.svg --cycle 2 out/cyc4.txt") == 0);
	CHECK(file_has("out/cyc2.svg", "log / cycle 2</text>"));
	CHECK(file_has("out/cyc2.svg", "(20.000 ms) pid 50 task"));
	CHECK(run("--svg out/cyc4b.svg --cycle 4 out/cyc4.txt") == 0);
	CHECK(file_has("out/cyc4b.svg", "INCOMPLETE cycle"));
	CHECK(run("--svg out/none.svg --cycle 5 out/cyc4.txt") == 1);
	CHECK(file_has("out/stderr", "no cycle matches cycle=5 to draw"));
	/* sync sd0 then sync ata1, in the PM task: the suspend CP */
	expect("out/stdout", "  suspend        CP    10.0 ms: sd0 -> ata1\n");
	return 1;
}

/* per device and phase over the 3 complete cycles: sd0 7, 20, 9 ms */
static int t_dev_stats(void)
{
	static const int sd0[] = { 7, 20, 9, 30 };
	char *out;
	int top1;

	CHECK(gen_log("out/cyc4.txt", 4, sd0, 1));
	CHECK(run("--stats out/cyc4.txt") == 0);
	expect("out/stdout",
	       "device statistics: 5 device-phases over 3 complete cycles (incomplete ones not counted) (ms; spread = worst - best), slowest first:\n"
	       "device  phase             n     median      worst     spread\n"
	       "sd0     suspend           3      9.000     20.000     13.000\n"
	       "sd0     resume            3      9.000      9.000      0.000\n"
	       "ata1    resume            3      5.000      5.000      0.000\n"
	       "i8042   suspend           3      2.000      2.000      0.000\n"
	       "ata1    suspend           3      1.000      1.000      0.000\n");
	CHECK(run("--stats --top 1 out/cyc4.txt") == 0);
	CHECK(file_has("out/stdout", "(the 1 slowest of 5; --top 0 shows all):\n"));
	out = slurp("out/stdout", NULL);
	CHECK(out);
	top1 = !strstr(out, "sd0     resume ");
	free(out);
	CHECK(top1);
	CHECK(run("--stats --json out/stats.json --quiet out/cyc4.txt") == 0);
	expect("out/stats.json",
	       "\"device_stats\": {\n"
	       "    \"cycles\": 3,\n"
	       "    \"incomplete\": 1,\n"
	       "    \"spread\": \"worst - best\"");
	expect("out/stats.json",
	       "\"device\": \"sd0\",\n"
	       "        \"parent\": \"ata1\",\n"
	       "        \"phase\": \"suspend\",\n"
	       "        \"n\": 3,\n"
	       "        \"median_ms\": 9,\n"
	       "        \"worst_ms\": 20,\n"
	       "        \"best_ms\": 7,\n"
	       "        \"spread_ms\": 13");
	/* the phase totals: suspend 10, 23, 12 ms */
	expect("out/stats.json",
	       "\"phase\": \"suspend\",\n"
	       "        \"n\": 3,\n"
	       "        \"median_ms\": 12,\n"
	       "        \"worst_ms\": 23");
	return 1;
}

/*
 * @in (a generated log) as "journalctl -k -o json" (@json) or "dmesg -x"
 * (else) would print it
 */
static int convert_log(const char *in, const char *out, int json)
{
	FILE *f = fopen(in, "r"), *g = fopen(out, "w");
	char line[512];

	if (!f || !g)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char *msg = strchr(line, ']');
		double ts = strtod(line + 1, NULL);

		if (!msg)
			continue;
		msg += 2;
		msg[strcspn(msg, "\n")] = '\0';
		if (json) {
			fprintf(g, "{\"_TRANSPORT\":\"kernel\",\"MESSAGE\":\"%s\",", msg);
			fprintf(g, "\"_SOURCE_MONOTONIC_TIMESTAMP\":\"%.0f\"}\n", ts * 1e6);
		} else {
			fprintf(g, "kern  :info  : %.*s %s\n", (int)(msg - line - 1), line, msg);
		}
	}
	fclose(f);
	return !fclose(g);
}

/* the same cycles as journal JSON and as "dmesg -x": the same rows */
static int t_log_formats(void)
{
	static const int sd0[] = { 7, 20, 9, 30 };
	static const char *const fmt[] = { "out/cyc4.json", "out/cyc4x.txt" };
	int i;

	CHECK(gen_log("out/cyc4.txt", 4, sd0, 1));
	for (i = 0; i < 2; i++) {
		CHECK(convert_log("out/cyc4.txt", fmt[i], !i));
		CHECK(run("--stats %s", fmt[i]) == 0);
		expect("out/stdout", "4 cycles, 1 incomplete");
		expect("out/stdout",
		       "sd0     suspend           3      9.000     20.000     13.000\n");
	}
	return 1;
}

/* a pm-async-measure run: run.txt and one cycle-NNN-VARIANT.log per cycle */
static int gen_run(const char *dir, const int *sd0, int n)
{
	char path[256];
	int k;

	mkdir(dir, 0755);
	snprintf(path, sizeof(path), "%s/run.txt", dir);
	CHECK(put_file(path, "kernel 6.12.117-1\ncycles 3\nvariants async\n"));
	for (k = 0; k < n; k++) {
		snprintf(path, sizeof(path), "%s/cycle-%03d-async.log", dir, k + 1);
		CHECK(gen_log(path, 1, &sd0[k], 0));
	}
	snprintf(path, sizeof(path), "%s/cycle-%03d-sync.log", dir, n + 1);
	return gen_log(path, 1, &sd0[0], 0);
}

/* --compare: two logs, two run directories, the threshold, exit 3 */
static int t_compare(void)
{
	static const int a[] = { 7, 20, 9 }, b[] = { 40, 50, 45 };

	CHECK(gen_log("out/a.txt", 3, a, 0));
	CHECK(gen_log("out/b.txt", 3, b, 0));
	CHECK(run("--compare out/a.txt out/b.txt") == 3);
	expect("out/stdout",
	       "  A: out/a.txt (3 complete cycles)\n"
	       "  B: out/b.txt (3 complete cycles)\n"
	       "  (fewer than 5 cycles on a side: a median of so few can move by chance)\n");
	expect("out/stdout",
	       "\nsuspend                            12.000    3     48.000    3    +36.000  MOVED\n");
	expect("out/stdout",
	       "resume                             15.000    3     15.000    3     +0.000\n");
	expect("out/stdout",
	       "sd0             suspend             9.000    3     45.000    3    +36.000  MOVED\n"
	       "\n"
	       "2 moved: 1 phase, 1 device-phase\n");
	CHECK(run("--compare out/a.txt out/b.txt --threshold 36.5") == 0);
	expect("out/stdout",
	       "(no device's median moved by more than 36.500 ms)\n\n0 moved");
	CHECK(run("--compare out/a.txt out/b.txt --json out/cmp.json --quiet") == 3);
	expect("out/cmp.json",
	       "\"device\": \"sd0\",\n"
	       "      \"parent\": \"ata1\",\n"
	       "      \"phase\": \"suspend\",\n"
	       "      \"a_median_ms\": 9,\n"
	       "      \"a_n\": 3,\n"
	       "      \"b_median_ms\": 45,\n"
	       "      \"b_n\": 3,\n"
	       "      \"change_ms\": 36,\n"
	       "      \"moved\": true");
	/* run directories; --variant leaves out the sync cycle */
	CHECK(gen_run("out/runA", a, 3));
	CHECK(gen_run("out/runB", b, 3));
	CHECK(run("--compare out/runA out/runB --variant async") == 3);
	CHECK(file_has("out/stdout", "  A: out/runA (3 complete cycles)\n"));
	expect("out/stdout",
	       "sd0             suspend             9.000    3     45.000    3    +36.000  MOVED\n");
	CHECK(run("--compare out/runA out/runB") == 3);
	CHECK(file_has("out/stdout", "  A: out/runA (4 complete cycles)\n"));
	/* a run directory as input: its kernel, its cycles */
	CHECK(run("--variant async out/runB") == 0);
	CHECK(file_has("out/stdout", "Profile cycle-001-async.log, version 6.12.117-1: 1 cycle"));
	CHECK(run("--compare out/a.txt") == 2);
	return file_has("out/stderr", "--compare needs two inputs, A and B");
}

/* a directory is not a file (it read as "FILE:0: read error", exit 2) */
static int t_dir_input(void)
{
	return run("data") == 1 && file_has("out/stderr", "data: is a directory");
}

/* a line is not read whole: one over 1 MiB is an error, not 2 MiB of memory */
static int t_long_line(void)
{
	FILE *f;
	int k;

	f = fopen("out/long.txt", "w");
	CHECK(f);
	for (k = 0; k < (2 << 20) / 64; k++)
		fputs("0123456789012345678901234567890123456789012345678901234567890123", f);
	fclose(f);
	CHECK(run("out/long.txt") == 2);
	return file_has("out/stderr", "out/long.txt:1: line longer than 1048576 bytes");
}

static const struct {
	const char *desc;
	int (*fn)(void);
} cases[] = {
	{ "chain of 3: critical path and bound", t_chain3 },
	{ "parent with 3 children in parallel", t_parallel_children },
	{ "pm=0 device: no callbacks, not missing, no edges", t_no_pm },
	{ "pm=late device: a device as any other, in the critical path", t_pm_late },
	{ "supplier link across subtrees", t_supplier_link },
	{ "sync-order edges change the critical path", t_sync_order },
	{ "LIMIT: 6 equal callbacks, limit 2 vs 256", t_limit },
	{ "mode=sync uses the all-async bound", t_sync_bound },
	{ "task order against dependencies falls back", t_task_order_loop },
	{ "mean, sample sd, median, min, max", t_stats },
	{ "PM log lines map to phases", t_pm_lines },
	{ "incomplete cycle excluded and counted", t_incomplete },
	{ "violations counted", t_violations },
	{ "hibernation phases (freeze/thaw)", t_hibernate },
	{ "error: unknown topology key", t_bad_key },
	{ "error: bad number in report line", t_bad_number },
	{ "error: the report's record: version, order, fields", t_record_errors },
	{ "error: unterminated block", t_unterminated },
	{ "error: missing required header key", t_missing_key },
	{ "usage errors exit 2 naming the option; a missing file 1", t_usage },
	{ "table rows and numbers", t_table },
	{ "JSON output parses and escapes", t_json },
	{ "JSON and SVG stay UTF-8: bad bytes U+FFFD, controls escaped", t_hostile },
	{ "--filter profile=", t_filter },
	{ "SVG: well-formed, one rect per callback (25 devices)", t_svg_small },
	{ "SVG: aggregated 2000-device cycle below 2 MB", t_svg_large },
	{ "a kernel log is read: one cycle, its row and timeline", t_kernel_log },
	{ "a real hibernation log: 275 callbacks, sync devices, CP", t_real_log },
	{ "a log of 4 cycles: --cycle N, default the last complete", t_log_cycles },
	{ "--stats: n, median, worst, spread per device and phase", t_dev_stats },
	{ "journal JSON and dmesg -x logs: the same statistics", t_log_formats },
	{ "--compare: logs and run directories, threshold, exit 3", t_compare },
	{ "a directory given as input: exit 1, said so", t_dir_input },
	{ "a 2 MiB line: an error naming FILE:LINE", t_long_line },
};

/* a case's result, 0 if a CHECK failed in it */
static int run_case(int (*fn)(void))
{
	if (setjmp(case_end))
		return 0;
	return fn();
}

int main(int argc, char **argv)
{
	size_t i, n = ARRAY_SIZE(cases);
	int failed = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: test_report PATH-TO-pm-async-report\n");
		return 2;
	}
	prog = argv[1];
	mkdir("out", 0755);
	printf("TAP version 13\n1..%zu\n", n);
	for (i = 0; i < n; i++) {
		int ok;

		fflush(stdout);
		ok = run_case(cases[i].fn);
		printf("%sok %zu - %s\n", ok ? "" : "not ", i + 1,
		       cases[i].desc);
		failed += !ok;
	}
	if (failed)
		printf("# %d of %zu failed\n", failed, n);
	return failed ? 1 : 0;
}
