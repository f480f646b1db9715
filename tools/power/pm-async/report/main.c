// SPDX-License-Identifier: GPL-2.0
/*
 * pm-async-report: tables, JSON and SVG timelines from pm_async_test lab
 * cycles or a machine's own kernel log (pm_print_times), statistics per
 * device and phase, and the comparison of two logs or runs.  Exit status:
 * 0 success, 1 I/O error, 2 usage error (a wrong option or value, named)
 * or malformed input, 3 (--compare) a median moved.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lineread.h"
#include "numarg.h"
#include "report.h"

struct opts {
	long limit;
	const char *filter;
	const char *json;
	const char *svg;
	const char *cycle;
	int aggregate;		/* -1: by size */
	int quiet;
	int kernel_log;		/* --kernel-log: inputs are machine logs */
	int stats;		/* --stats */
	long top;
	const char *compare[2];	/* --compare A B */
	double threshold;	/* ms */
	const char *variant;	/* of a pm-async-measure run directory */
	char cycle_sel[32];	/* --cycle N as "cycle=N" */
	char **files;
	int nfiles;
};

static void print_usage(FILE *f)
{
	fprintf(f,
		"usage: pm-async-report [--limit N] [--filter KEY=VAL[,...]] [--json FILE]\n"
		"                       [--svg FILE [--cycle N|KEY=VAL[,...]] [--aggregate|--no-aggregate]]\n"
		"                       [--kernel-log] [--stats [--top N]] [--variant V] [--quiet] FILE...\n"
		"       pm-async-report --compare A B [--threshold MS] [--variant V] [--json FILE]\n"
		"\n"
		"Summarise pm_async_test cycles (\"=== cycle\" ... \"=== end\" blocks) or a\n"
		"machine's kernel log with pm_print_times (dmesg, dmesg -x, journalctl -o json;\n"
		"a pm-async-measure run directory) from FILEs ('-' = stdin): suspend/resume\n"
		"times, lower bounds and critical paths.\n"
		"\n"
		"  --limit N       async worker limit used in the bound (default %d)\n"
		"  --filter SEL    only use cycles whose header matches, e.g. profile=laptop\n"
		"  --json FILE     also write the numbers as JSON ('-' = stdout)\n"
		"  --svg FILE      draw a timeline of one cycle ('-' = stdout); default the\n"
		"                  first async cycle of the first profile, of a kernel log\n"
		"                  its last complete cycle\n"
		"  --cycle SEL     which cycle to draw, e.g. kernel=patched,mode=async,cycle=2;\n"
		"                  a number N: cycle=N (a log's cycles count from 1)\n"
		"  --aggregate     group devices by depth in the SVG (default above %d devices)\n"
		"  --no-aggregate  one SVG row per device whatever the size\n"
		"  --kernel-log    read the FILEs as kernel logs (default: a file without\n"
		"                  \"=== cycle\" blocks but with PM lines is one)\n"
		"  --stats         statistics per device and phase over the complete cycles\n"
		"                  (n, median, worst, spread = worst - best), slowest first\n"
		"  --top N         rows of the --stats table (default 25, 0 = all)\n"
		"  --compare A B   medians of two logs or run directories: every phase, and\n"
		"                  the devices whose median moved by more than the threshold;\n"
		"                  exit 3 if something moved\n"
		"  --threshold MS  of --compare (default %g ms)\n"
		"  --variant V     of a run directory, only its cycle-*-V.log\n"
		"  --quiet         no tables on stdout\n",
		DEFAULT_LIMIT, AGGREGATE_MIN, DEFAULT_THRESHOLD_MS);
}

static __printf(1, 2) int
report_usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "pm-async-report: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	print_usage(stderr);
	return EXIT_USAGE;
}

enum {
	OPT_LIMIT = 256, OPT_FILTER, OPT_JSON, OPT_SVG, OPT_CYCLE,
	OPT_AGGREGATE, OPT_NO_AGGREGATE, OPT_KERNEL_LOG, OPT_STATS, OPT_TOP,
	OPT_COMPARE, OPT_THRESHOLD, OPT_VARIANT
};

static const struct option longopts[] = {
	{ "limit", required_argument, NULL, OPT_LIMIT },
	{ "filter", required_argument, NULL, OPT_FILTER },
	{ "json", required_argument, NULL, OPT_JSON },
	{ "svg", required_argument, NULL, OPT_SVG },
	{ "cycle", required_argument, NULL, OPT_CYCLE },
	{ "aggregate", no_argument, NULL, OPT_AGGREGATE },
	{ "no-aggregate", no_argument, NULL, OPT_NO_AGGREGATE },
	{ "kernel-log", no_argument, NULL, OPT_KERNEL_LOG },
	{ "stats", no_argument, NULL, OPT_STATS },
	{ "top", required_argument, NULL, OPT_TOP },
	{ "compare", required_argument, NULL, OPT_COMPARE },
	{ "threshold", required_argument, NULL, OPT_THRESHOLD },
	{ "variant", required_argument, NULL, OPT_VARIANT },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

static int parse_args(struct opts *o, int argc, char **argv)
{
	int c;

	o->limit = DEFAULT_LIMIT;
	o->aggregate = -1;
	o->top = 25;
	o->threshold = DEFAULT_THRESHOLD_MS;
	o->files = xcalloc(argc, sizeof(*o->files));
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			print_usage(stdout);
			exit(0);
		case OPT_LIMIT:
			/* exits 2 naming --limit if not an integer in range */
			o->limit = arg_long("--limit", optarg, 1, 1000000);
			break;
		case OPT_FILTER:
			o->filter = optarg;
			break;
		case OPT_JSON:
			o->json = optarg;
			break;
		case OPT_SVG:
			o->svg = optarg;
			break;
		case OPT_CYCLE:
			o->cycle = optarg;
			break;
		case OPT_AGGREGATE:
			o->aggregate = 1;
			break;
		case OPT_NO_AGGREGATE:
			o->aggregate = 0;
			break;
		case OPT_KERNEL_LOG:
			o->kernel_log = 1;
			break;
		case OPT_STATS:
			o->stats = 1;
			break;
		case OPT_TOP:
			o->top = arg_long("--top", optarg, 0, 1000000000);
			break;
		case OPT_COMPARE:
			/* two values: A here, B the next argument */
			if (optind >= argc)
				return report_usage_error("%s",
							  "--compare needs two inputs, A and B");
			o->compare[0] = optarg;
			o->compare[1] = argv[optind++];
			break;
		case OPT_THRESHOLD:
			o->threshold = arg_double("--threshold", optarg, 0, 1e9);
			break;
		case OPT_VARIANT:
			if (!lab_name_ok(optarg))
				return report_usage_error("bad --variant '%s'",
							  optarg);
			o->variant = optarg;
			break;
		case 'q':
			o->quiet = 1;
			break;
		case ':':
			return report_usage_error("option '%s' needs a value",
						  bad_option(argv, optind, optopt));
		default:
			return report_usage_error("unknown option '%s'",
						  bad_option(argv, optind, optopt));
		}
	}
	while (optind < argc)
		o->files[o->nfiles++] = argv[optind++];
	if (o->compare[0]) {
		if (o->nfiles || o->svg || o->stats || o->filter || o->cycle)
			return report_usage_error("%s",
						  "--compare A B takes no other inputs, --svg, --stats, --filter or --cycle");
		return 0;
	}
	if (!o->nfiles)
		return report_usage_error("%s", "no input files");
	if (o->filter && !sel_valid(o->filter))
		return report_usage_error("bad --filter '%s' (want KEY=VAL[,...])",
				   o->filter);
	if (o->cycle && o->cycle[strspn(o->cycle, "0123456789")] == '\0') {
		snprintf(o->cycle_sel, sizeof(o->cycle_sel), "cycle=%.20s",
			 o->cycle);
		o->cycle = o->cycle_sel;
	}
	if (o->cycle && !sel_valid(o->cycle))
		return report_usage_error("bad --cycle '%s' (want KEY=VAL[,...])",
				   o->cycle);
	if (o->cycle && !o->svg)
		return report_usage_error("%s", "--cycle needs --svg");
	return 0;
}

/* stdin as a file that can be read twice (a lab log or a kernel log) */
static FILE *spool_stdin(char *err, size_t errlen)
{
	FILE *f = tmpfile();
	char buf[65536];
	size_t n;

	if (!f) {
		snprintf(err, errlen, "cannot spool stdin: %s", strerror(errno));
		return NULL;
	}
	while ((n = fread(buf, 1, sizeof(buf), stdin)) > 0)
		if (fwrite(buf, 1, n, f) != n)
			break;
	if (ferror(stdin) || ferror(f) || fseek(f, 0, SEEK_SET)) {
		snprintf(err, errlen, "cannot spool stdin");
		fclose(f);
		return NULL;
	}
	return f;
}

/* one file: lab cycles, else (or with --kernel-log) a kernel log */
static int read_file(const struct opts *o, struct input *in, const char *path,
		     const char *rel)
{
	int is_stdin = !strcmp(path, "-");
	const char *name = is_stdin ? "<stdin>" : path;
	char err[1024];
	FILE *f;
	int ret = PARSE_KERNEL_LOG;

	f = is_stdin ? spool_stdin(err, sizeof(err)) :
		       lr_open(path, err, sizeof(err));
	if (!f) {
		fprintf(stderr, "pm-async-report: %s\n", err);
		return 1;
	}
	if (!o->kernel_log && !rel)
		ret = parse_file(in, name, f, err, sizeof(err));
	if (ret == PARSE_KERNEL_LOG)
		ret = klog_read(in, name, f, rel, err, sizeof(err));
	fclose(f);
	if (ret) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	return 0;
}

static int is_run_dir(const char *path)
{
	char run[4096];
	struct stat st;

	if (stat(path, &st) || !S_ISDIR(st.st_mode))
		return 0;
	snprintf(run, sizeof(run), "%s/run.txt", path);
	return !stat(run, &st) && S_ISREG(st.st_mode);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* the "kernel X" line of a run directory's run.txt, "" if none */
static void run_kernel(const char *dir, char *rel, size_t n)
{
	char path[4096], line[256], w[128];
	FILE *f;

	rel[0] = 0;
	snprintf(path, sizeof(path), "%s/run.txt", dir);
	f = fopen(path, "r");
	while (f && !rel[0] && fgets(line, sizeof(line), f))
		if (sscanf(line, "kernel %127s", w) == 1 && lab_name_ok(w))
			snprintf(rel, n, "%s", w);
	if (f)
		fclose(f);
}

/* cycle-NNN-VARIANT.log (with --variant: of that variant only) */
static int cycle_log_name(const char *name, const char *variant)
{
	size_t len = strlen(name), vl = variant ? strlen(variant) : 0;

	if (strncmp(name, "cycle-", 6) || len < 11 ||
	    strcmp(name + len - 4, ".log"))
		return 0;
	return !variant || (len > vl + 5 && name[len - vl - 5] == '-' &&
			    !strncmp(name + len - vl - 4, variant, vl));
}

/*
 * A pm-async-measure run directory: its cycle-NNN-VARIANT.log files (one
 * cycle each) in name order, the kernel of run.txt.
 */
static int read_run_dir(const struct opts *o, struct input *in,
			const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL, rel[128];
	int n = 0, cap = 0, i, ret = 0;

	if (!d) {
		fprintf(stderr, "pm-async-report: %s: %s\n", dir, strerror(errno));
		return 1;
	}
	while ((e = readdir(d))) {
		if (!cycle_log_name(e->d_name, o->variant))
			continue;
		GROW(names, n, cap);
		names[n] = xmalloc(strlen(dir) + strlen(e->d_name) + 2);
		sprintf(names[n++], "%s/%s", dir, e->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof(*names), cmp_str);
	run_kernel(dir, rel, sizeof(rel));
	if (!n) {
		fprintf(stderr,
			"pm-async-report: %s: a pm-async-measure run without cycle-*%s%s.log files\n",
			dir, o->variant ? "-" : "", o->variant ? o->variant : "");
		ret = 2;
	}
	for (i = 0; i < n && !ret; i++)
		ret = read_file(o, in, names[i], rel);
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return ret;
}

static int read_input(const struct opts *o, struct input *in, const char *path)
{
	if (strcmp(path, "-") && is_run_dir(path))
		return read_run_dir(o, in, path);
	return read_file(o, in, path, NULL);
}

static int read_inputs(const struct opts *o, struct input *in)
{
	int i, ret;

	for (i = 0; i < o->nfiles; i++) {
		ret = read_input(o, in, o->files[i]);
		if (ret)
			return ret;
	}
	return 0;
}

/* Keep the filtered cycles, in input order, in @in itself. */
static void filter_cycles(struct input *in, const char *sel)
{
	struct input drop = { 0 };
	int i, n = 0;

	for (i = 0; i < in->n; i++) {
		if (!sel || cycle_match(in->cyc[i], sel)) {
			in->cyc[n++] = in->cyc[i];
		} else {
			GROW(drop.cyc, drop.n, drop.cap);
			drop.cyc[drop.n++] = in->cyc[i];
		}
	}
	in->n = n;
	input_free(&drop);
}

static const struct cycle *svg_cycle(const struct input *in, const char *sel)
{
	int i;

	for (i = 0; sel && i < in->n; i++)
		if (cycle_match(in->cyc[i], sel))
			return in->cyc[i];
	if (sel || !in->n)
		return NULL;
	/* a machine's log: its last complete cycle, else its last one */
	if (in->cyc[0]->from_log) {
		for (i = in->n - 1; i >= 0; i--)
			if (in->cyc[i]->from_log && in->cyc[i]->complete)
				return in->cyc[i];
		return in->cyc[in->n - 1];
	}
	for (i = 0; i < in->n; i++)
		if (!strcmp(in->cyc[i]->profile, in->cyc[0]->profile) &&
		    !in->cyc[i]->sync)
			return in->cyc[i];
	return in->cyc[0];
}

static FILE *open_out(const char *path)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "w") : stdout;

	if (!f)
		fprintf(stderr, "pm-async-report: cannot write %s\n", path);
	return f;
}

static int close_out(FILE *f, const char *path)
{
	int bad = ferror(f);

	if (f != stdout)
		bad |= fclose(f);
	else
		bad |= fflush(f);
	if (bad)
		fprintf(stderr, "pm-async-report: error writing %s\n", path);
	return bad ? 1 : 0;
}

static int write_outputs(const struct opts *o, const struct input *in,
			 const struct summary *s)
{
	struct devstats ds;
	const struct cycle *c;
	FILE *f;
	int ret = 0;

	if (o->stats)
		devstats_build(&ds, in->cyc, in->n);
	if (!o->quiet && !(o->json && !strcmp(o->json, "-")) &&
	    !(o->svg && !strcmp(o->svg, "-"))) {
		print_tables(stdout, s);
		if (o->stats) {
			fputc('\n', stdout);
			print_devstats(stdout, &ds, (int)o->top);
		}
	}
	if (o->json) {
		f = open_out(o->json);
		if (f) {
			print_json(f, s, o->stats ? &ds : NULL);
			ret = close_out(f, o->json);
		} else {
			ret = 1;
		}
	}
	if (o->stats)
		devstats_free(&ds);
	if (ret || !o->svg)
		return ret;
	c = svg_cycle(in, o->cycle);
	if (!c) {
		fprintf(stderr, "pm-async-report: no cycle %s%s to draw\n",
			o->cycle ? "matches " : "", o->cycle ? o->cycle : "");
		return 1;
	}
	f = open_out(o->svg);
	if (!f)
		return 1;
	write_svg(f, c, o->aggregate);
	return close_out(f, o->svg);
}

/* read and analyse one input of --compare (file or run directory) */
static int compare_side(const struct opts *o, const char *path,
			struct input *in, struct devstats *ds)
{
	int i, ret;

	memset(in, 0, sizeof(*in));
	ret = read_input(o, in, path);
	if (ret)
		return ret;
	for (i = 0; i < in->n; i++)
		cycle_analyse(in->cyc[i], (int)o->limit, stderr);
	devstats_build(ds, in->cyc, in->n);
	if (!ds->ncycles) {
		fprintf(stderr, "pm-async-report: %s: no complete cycle to compare\n",
			path);
		return 2;
	}
	return 0;
}

/* --compare A B: 0 nothing moved, COMPARE_MOVED something did, or 1/2 */
static int compare(const struct opts *o)
{
	struct input in[2];
	struct devstats ds[2] = { 0 };
	int ret, moved = 0;
	FILE *f;

	memset(in, 0, sizeof(in));
	ret = compare_side(o, o->compare[0], &in[0], &ds[0]);
	if (!ret)
		ret = compare_side(o, o->compare[1], &in[1], &ds[1]);
	if (!ret) {
		FILE *nul = fopen("/dev/null", "w");
		FILE *txt = o->quiet || (o->json && !strcmp(o->json, "-")) ?
			    nul : stdout;

		moved = print_compare(txt ? txt : stdout, &ds[0], o->compare[0],
				      &ds[1], o->compare[1], o->threshold);
		if (nul)
			fclose(nul);
	}
	if (!ret && o->json) {
		f = open_out(o->json);
		if (f) {
			print_compare_json(f, &ds[0], o->compare[0], &ds[1],
					   o->compare[1], o->threshold);
			ret = close_out(f, o->json);
		} else {
			ret = 1;
		}
	}
	devstats_free(&ds[0]);
	devstats_free(&ds[1]);
	input_free(&in[0]);
	input_free(&in[1]);
	return ret ? ret : moved ? COMPARE_MOVED : 0;
}

int main(int argc, char **argv)
{
	struct opts o = { 0 };
	struct input in = { 0 };
	struct summary s;
	int i, ret;

	ret = parse_args(&o, argc, argv);
	if (!ret && o.compare[0]) {
		free(o.files);
		return compare(&o);
	}
	if (!ret)
		ret = read_inputs(&o, &in);
	if (ret) {
		input_free(&in);
		free(o.files);
		return ret;
	}
	filter_cycles(&in, o.filter);
	for (i = 0; i < in.n; i++)
		cycle_analyse(in.cyc[i], (int)o.limit, stderr);
	summarise(&s, in.cyc, in.n, (int)o.limit);
	ret = write_outputs(&o, &in, &s);
	summary_free(&s);
	input_free(&in);
	free(o.files);
	return ret;
}
