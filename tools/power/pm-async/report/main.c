// SPDX-License-Identifier: GPL-2.0
/*
 * pm-async-report: tables, JSON and SVG timelines from pm_async_test lab
 * cycles.  Exit status: 0 success, 1 I/O error, 2 usage error (a wrong
 * option or value, named) or malformed input.
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

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
	char **files;
	int nfiles;
};

static void print_usage(FILE *f)
{
	fprintf(f,
		"usage: pm-async-report [--limit N] [--filter KEY=VAL[,...]] [--json FILE]\n"
		"                       [--svg FILE [--cycle KEY=VAL[,...]] [--aggregate|--no-aggregate]]\n"
		"                       [--quiet] FILE...\n"
		"\n"
		"Summarise pm_async_test cycles (\"=== cycle\" ... \"=== end\" blocks) from\n"
		"FILEs ('-' = stdin): suspend/resume times, lower bounds and critical paths.\n"
		"\n"
		"  --limit N       async worker limit used in the bound (default %d)\n"
		"  --filter SEL    only use cycles whose header matches, e.g. profile=laptop\n"
		"  --json FILE     also write the numbers as JSON ('-' = stdout)\n"
		"  --svg FILE      draw a timeline of one cycle ('-' = stdout); default the\n"
		"                  first async cycle of the first profile\n"
		"  --cycle SEL     which cycle to draw, e.g. kernel=patched,mode=async,cycle=2\n"
		"  --aggregate     group devices by depth in the SVG (default above %d devices)\n"
		"  --no-aggregate  one SVG row per device whatever the size\n"
		"  --quiet         no tables on stdout\n",
		DEFAULT_LIMIT, AGGREGATE_MIN);
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
	OPT_AGGREGATE, OPT_NO_AGGREGATE
};

static const struct option longopts[] = {
	{ "limit", required_argument, NULL, OPT_LIMIT },
	{ "filter", required_argument, NULL, OPT_FILTER },
	{ "json", required_argument, NULL, OPT_JSON },
	{ "svg", required_argument, NULL, OPT_SVG },
	{ "cycle", required_argument, NULL, OPT_CYCLE },
	{ "aggregate", no_argument, NULL, OPT_AGGREGATE },
	{ "no-aggregate", no_argument, NULL, OPT_NO_AGGREGATE },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

static int parse_args(struct opts *o, int argc, char **argv)
{
	int c;

	o->limit = DEFAULT_LIMIT;
	o->aggregate = -1;
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
	if (!o->nfiles)
		return report_usage_error("%s", "no input files");
	if (o->filter && !sel_valid(o->filter))
		return report_usage_error("bad --filter '%s' (want KEY=VAL[,...])",
				   o->filter);
	if (o->cycle && !sel_valid(o->cycle))
		return report_usage_error("bad --cycle '%s' (want KEY=VAL[,...])",
				   o->cycle);
	if (o->cycle && !o->svg)
		return report_usage_error("%s", "--cycle needs --svg");
	return 0;
}

static int read_inputs(const struct opts *o, struct input *in)
{
	char err[512];
	int i;

	for (i = 0; i < o->nfiles; i++) {
		int is_stdin = !strcmp(o->files[i], "-");
		FILE *f = lr_open(o->files[i], err, sizeof(err));
		int ret;

		if (!f) {
			fprintf(stderr, "pm-async-report: %s\n", err);
			return 1;
		}
		ret = parse_file(in, is_stdin ? "<stdin>" : o->files[i], f,
				 err, sizeof(err));
		if (!is_stdin)
			fclose(f);
		if (ret) {
			fprintf(stderr, "%s\n", err);
			return 2;
		}
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
	const struct cycle *c;
	FILE *f;

	if (!o->quiet && !(o->json && !strcmp(o->json, "-")) &&
	    !(o->svg && !strcmp(o->svg, "-")))
		print_tables(stdout, s);
	if (o->json) {
		f = open_out(o->json);
		if (!f)
			return 1;
		print_json(f, s);
		if (close_out(f, o->json))
			return 1;
	}
	if (!o->svg)
		return 0;
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

int main(int argc, char **argv)
{
	struct opts o = { 0 };
	struct input in = { 0 };
	struct summary s;
	int i, ret;

	ret = parse_args(&o, argc, argv);
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
