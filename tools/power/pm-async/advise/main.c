// SPDX-License-Identifier: GPL-2.0
/*
 * pm-async-advise: command line.  See README.rst and --help.
 */
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "lineread.h"
#include "numarg.h"
#include "pmadv.h"

static void print_usage(FILE *f)
{
	fputs("usage: pm-async-advise [OPTIONS] DMESG\n"
	      "       pm-async-advise [OPTIONS] --ftrace TRACE [DMESG]\n"
	      "       pm-async-advise [OPTIONS] --topology LAB_TOPOLOGY\n"
	      "       pm-async-advise summarize [--json] --label L LOG... [--label L2 LOG...]\n"
	      "\n"
	      "Rebuilds the device graph of one suspend/resume cycle from a dmesg taken with\n"
	      "pm_print_times (and pm_debug_messages for the phase lines), simulates the six\n"
	      "device phases fully sync, with the async policy of Linux 6.12, with mainline's\n"
	      "(since 6.16) and with pm-async, and ranks the sync devices worth making async\n"
	      "under the \"stock\" policy: the one of the log's kernel unless --policy says.\n"
	      "\n"
	      "  --policy P        stock policy: 6.12 or mainline (default: from the kernel\n"
	      "                    version of the log or of pm-async-measure's run.txt next\n"
	      "                    to it: 6.12 before 6.16; mainline if none is found)\n"
	      "  --ftrace FILE     ftrace with device_pm_callback_start/end (+ suspend_resume)\n"
	      "                    events; its callbacks replace the dmesg ones (exact times)\n"
	      "  --links FILE      device links, 'CONSUMER SUPPLIER [sync_state_only] [dormant]'\n"
	      "                    per line or devlink names 'bus:SUPPLIER--bus:CONSUMER';\n"
	      "                    default: links.txt next to the log (pm-async-measure)\n"
	      "  --sysfs ROOT      read the links from ROOT/class/devlink (default: /sys, when\n"
	      "                    the log's kernel is the running one; 'none': never)\n"
	      "  --topology FILE   simulate a pm_async_test lab topology instead of a log\n"
	      "  --cycle N         which suspend/resume cycle of the log (default: first)\n"
	      "  --json            machine-readable output\n"
	      "  --max N           size limit of the advised set (default 5)\n"
	      "  --min-gain-ms X   smallest extra saving worth a device in the set (0.05)\n"
	      "  --top N           rows of the single-device ranking shown (default 10)\n"
	      "  --candidates N    sync devices simulated per ranking step, those on the\n"
	      "                    critical path holding it longest (default: 400000 /\n"
	      "                    devices, at least 32)\n"
	      "  --limit N         async concurrency slots (default 256)\n"
	      "  --overhead-us X   per-callback overhead (default: measured from the log)\n"
	      "  --units U         auto|us|ns1024: unit of printed 'usecs' (default auto)\n"
	      "  --profile FILE    write the graph as a lab topology ('-' = stdout)\n"
	      "  --scale F         scale durations in the profile (default 1.0)\n"
	      "  --version, -h, --help\n"
	      "Exit status: 0 ok, 1 I/O error (also a directory given as a file), 2 bad\n"
	      "input: a wrong option or value, no usable PM lines in the log, or a --links\n"
	      "file that is empty or holds no link.\n",
	      f);
}

/* the log's kernel is the one running here: its links are this machine's */
static int running_kernel(const char *release)
{
	struct utsname u;

	return release && !uname(&u) && !strcmp(u.release, release);
}

enum {
	OPT_FTRACE = 256, OPT_LINKS, OPT_TOPOLOGY, OPT_PROFILE, OPT_UNITS,
	OPT_JSON, OPT_MAX, OPT_MIN_GAIN, OPT_TOP, OPT_CYCLE, OPT_LIMIT,
	OPT_SCALE, OPT_OVERHEAD, OPT_POLICY, OPT_SYSFS, OPT_VERSION,
	OPT_CANDIDATES
};

static const struct option longopts[] = {
	{ "ftrace", required_argument, NULL, OPT_FTRACE },
	{ "links", required_argument, NULL, OPT_LINKS },
	{ "topology", required_argument, NULL, OPT_TOPOLOGY },
	{ "profile", required_argument, NULL, OPT_PROFILE },
	{ "units", required_argument, NULL, OPT_UNITS },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "max", required_argument, NULL, OPT_MAX },
	{ "min-gain-ms", required_argument, NULL, OPT_MIN_GAIN },
	{ "top", required_argument, NULL, OPT_TOP },
	{ "candidates", required_argument, NULL, OPT_CANDIDATES },
	{ "cycle", required_argument, NULL, OPT_CYCLE },
	{ "limit", required_argument, NULL, OPT_LIMIT },
	{ "scale", required_argument, NULL, OPT_SCALE },
	{ "overhead-us", required_argument, NULL, OPT_OVERHEAD },
	{ "policy", required_argument, NULL, OPT_POLICY },
	{ "sysfs", required_argument, NULL, OPT_SYSFS },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

int main(int argc, char **argv)
{
	const char *dmesg = NULL, *ftrace = NULL, *links = NULL, *topo = NULL;
	const char *profile = NULL, *units_opt = NULL, *sysfs = NULL;
	int json = 0, max = 5, top = 10, cycle = -1, limit = 256, i, rc, c;
	int policy = -1, links_from_measure = 0, cand_max = 0;
	const char *log_for_kernel;
	double scale = 1.0, overhead = NAN, min_gain_ms = 0.05;
	struct pmlog dlog, flog;
	int have_d = 0, have_f = 0, ret = 0, ran = 0;
	struct graph g;
	struct analysis a;
	char err[1024];
	static char kernel[128], kernel_from[PATH_MAX + 32];
	static char links_from[PATH_MAX + 64];

	if (argc > 1 && !strcmp(argv[1], "summarize"))
		return summarize_main(argc - 1, argv + 1);
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			print_usage(stdout);
			return 0;
		case OPT_VERSION:
			printf("pm-async-advise %s\n", PMADV_VERSION);
			return 0;
		case OPT_FTRACE:
			ftrace = optarg;
			break;
		case OPT_LINKS:
			links = optarg;
			break;
		case OPT_TOPOLOGY:
			topo = optarg;
			break;
		case OPT_PROFILE:
			profile = optarg;
			break;
		case OPT_SYSFS:
			sysfs = optarg;
			break;
		case OPT_UNITS:
			units_opt = optarg;
			if (strcmp(units_opt, "auto") && strcmp(units_opt, "us") &&
			    strcmp(units_opt, "ns1024"))
				usage_error("--units: '%s' is not auto, us or ns1024", optarg);
			break;
		case OPT_POLICY:
			if (!strcmp(optarg, "6.12"))
				policy = POL_612;
			else if (!strcmp(optarg, "mainline"))
				policy = POL_MAINLINE;
			else
				usage_error("--policy: '%s' is not 6.12 or mainline", optarg);
			break;
		case OPT_JSON:
			json = 1;
			break;
		case OPT_MAX:
			max = (int)arg_long("--max", optarg, 0, 100000);
			break;
		case OPT_MIN_GAIN:
			min_gain_ms = arg_double("--min-gain-ms", optarg, 0, 1e9);
			break;
		case OPT_TOP:
			top = (int)arg_long("--top", optarg, 0, 100000);
			break;
		case OPT_CANDIDATES:
			cand_max = (int)arg_long("--candidates", optarg, 1,
						 1000000);
			break;
		case OPT_CYCLE:
			cycle = (int)arg_long("--cycle", optarg, 1, 1000000) - 1;
			break;
		case OPT_LIMIT:
			limit = (int)arg_long("--limit", optarg, 1, 1000000);
			break;
		case OPT_SCALE:
			scale = arg_double("--scale", optarg, 0, 1e6);
			break;
		case OPT_OVERHEAD:
			overhead = arg_double("--overhead-us", optarg, 0, 1e9);
			break;
		case ':':
			usage_error("%s needs a value", bad_option(argv, optind, optopt));
		default:
			usage_error("unknown option %s", bad_option(argv, optind, optopt));
		}
	}
	for (i = optind; i < argc; i++) {
		if (dmesg)
			usage_error("one DMESG only (use summarize for several)");
		dmesg = argv[i];
	}
	if (!dmesg && !ftrace && !topo)
		usage_error("no input: DMESG, --ftrace TRACE or --topology FILE");

	memset(&a, 0, sizeof(a));
	memset(&dlog, 0, sizeof(dlog));
	memset(&flog, 0, sizeof(flog));
	graph_init(&g);
	a.g = &g;
	a.top = top;
	a.cand_max = cand_max;
	a.min_gain_us = min_gain_ms * 1e3;
	a.sp.limit = limit;
	a.profile_path = profile;
	a.profile_scale = scale;
	for (i = 0; i < NPHASES; i++)
		a.observed[i] = NAN;

	if (topo) {
		FILE *f = lr_open(topo, err, sizeof(err));

		if (!f) {
			fprintf(stderr,
				"pm-async-advise: error: --topology %s\n", err);
			ret = 1;
			goto out;
		}
		rc = graph_from_topology(&g, f, topo, err, sizeof(err));
		if (f != stdin)
			fclose(f);
		if (rc) {
			fprintf(stderr, "pm-async-advise: %s\n", err);
			ret = 2;
			goto out;
		}
		a.topology = topo;
		a.units.scale = 1.0;
		a.units.why = "lab topology, us";
		a.units.ratio = NAN;
		a.sp.overhead_us = isnan(overhead) ? 0 : overhead;
		a.overhead_why = isnan(overhead) ? "none for a topology; --overhead-us to set"
						 : "--overhead-us";
	} else {
		const struct pmlog *cb, *obs;

		if (dmesg) {
			rc = pmlog_parse_file(dmesg, pmlog_looks_like_ftrace(dmesg),
					      &dlog, err, sizeof(err));
			if (rc == PARSE_IOERR) {
				fprintf(stderr, "pm-async-advise: %s\n", err);
				ret = 1;
				goto out;
			}
			if (rc == PARSE_NOPM && !ftrace) {
				fprintf(stderr, "pm-async-advise: error: %s\n", err);
				ret = 2;
				goto out;
			}
			if (rc == PARSE_NOPM)
				fprintf(stderr, "pm-async-advise: warning: %s\n", err);
			have_d = 1;
		}
		if (ftrace) {
			rc = pmlog_parse_file(ftrace, 1, &flog, err, sizeof(err));
			if (rc == PARSE_IOERR) {
				fprintf(stderr, "pm-async-advise: %s\n", err);
				ret = 1;
				goto out;
			}
			if (rc == PARSE_NOPM && !(have_d && dlog.ncb)) {
				fprintf(stderr, "pm-async-advise: error: %s\n", err);
				ret = 2;
				goto out;
			}
			have_f = 1;
		}
		cb = have_f && flog.ncb ? &flog : &dlog;
		obs = have_d && dlog.nbd ? &dlog : &flog;
		if (cycle < 0) {
			for (i = 0; i < cb->ncb; i++)
				if (cb->cb[i].phase >= 0) {
					cycle = cb->cb[i].cycle;
					break;
				}
		}
		if (cycle < 0 || cycle >= cb->ncycles) {
			fprintf(stderr,
				"pm-async-advise: error: %s: no callbacks assigned to a device phase%s\n",
				cb->name, cycle >= 0 ? " in that cycle" : "");
			ret = 2;
			goto out;
		}
		for (i = 0; i < cb->ncb; i++)
			if (cb->cb[i].cycle == cycle && cb->cb[i].phase >= 0)
				break;
		if (i == cb->ncb) {
			fprintf(stderr, "pm-async-advise: error: %s: cycle %d has no callbacks\n",
				cb->name, cycle + 1);
			ret = 2;
			goto out;
		}
		a.input = have_d ? dmesg : NULL;
		a.ftrace = ftrace;
		a.cblog = cb;
		a.obslog = obs;
		a.cycle = cycle;
		log_for_kernel = have_d ? dmesg : ftrace;
		if (log_kernel_release(have_d ? &dlog : &flog, log_for_kernel,
				       kernel, sizeof(kernel), kernel_from,
				       sizeof(kernel_from))) {
			a.kernel = kernel;
			a.kernel_from = kernel_from;
		}
		detect_units(cb, cycle, units_opt, a.kernel, &a.units);
		graph_from_log(&g, cb, cycle, a.units.scale);
		/* device links: --links, pm-async-measure's links.txt, sysfs */
		if (!links && beside_log(log_for_kernel, "run.txt") &&
		    beside_log(log_for_kernel, "links.txt")) {
			links = beside_log(log_for_kernel, "links.txt");
			snprintf(links_from, sizeof(links_from),
				 "%s, saved by pm-async-measure", links);
			links = links_from;	/* beside_log's buffer is reused */
			links_from_measure = 1;
		}
		if (links) {
			const char *path = links;
			char copy[PATH_MAX];

			if (links_from_measure) {
				snprintf(copy, sizeof(copy), "%.*s",
					 (int)(strstr(links_from, ", saved by") - links_from),
					 links_from);
				path = copy;
			}
			rc = graph_read_links(&g, path, err, sizeof(err));
			if (rc) {
				fprintf(stderr,
					"pm-async-advise: error: %s%s\n",
					links_from_measure ? "" : "--links ",
					err);
				ret = rc == -2 ? 2 : 1;
				goto out;
			}
			if (!links_from_measure)
				snprintf(links_from, sizeof(links_from), "--links %s", links);
			a.links_from = links_from;
		} else if (sysfs ? strcmp(sysfs, "none") != 0 : running_kernel(a.kernel)) {
			int skipped, nl;

			nl = graph_read_devlinks(&g, sysfs ? sysfs : "/sys", &skipped,
						 err, sizeof(err));
			if (nl < 0 && sysfs) {
				fprintf(stderr, "pm-async-advise: --sysfs: %s\n", err);
				ret = 1;
				goto out;
			}
			if (nl >= 0) {
				snprintf(links_from, sizeof(links_from),
					 "%s/class/devlink%s, %d naming devices not in the log",
					 sysfs ? sysfs : "/sys",
					 sysfs ? "" : " of this machine, running the log's kernel",
					 skipped);
				a.links_from = links_from;
			}
		}
		if (isnan(overhead)) {
			static char why[160];

			a.sp.overhead_us = graph_overhead_from_log(&g, cb, cycle,
								   &a.overhead_samples);
			if (a.overhead_samples >= 5)
				snprintf(why, sizeof(why),
					 "median gap between consecutive PM-task callbacks minus the first one's duration, %d pairs; --overhead-us to override",
					 a.overhead_samples);
			else
				snprintf(why, sizeof(why),
					 "fewer than 5 consecutive PM-task callbacks with timestamps: 0; --overhead-us to set");
			a.overhead_why = why;
		} else {
			a.sp.overhead_us = overhead;
			a.overhead_why = "--overhead-us";
		}
		for (i = 0; i < NPHASES; i++)
			a.observed[i] = pmlog_observed(obs, cycle, i,
						       &a.observed_aborted[i]);
	}
	if (links && topo) {
		rc = graph_read_links(&g, links, err, sizeof(err));
		if (rc) {
			fprintf(stderr, "pm-async-advise: error: --links %s\n",
				err);
			ret = rc == -2 ? 2 : 1;
			goto out;
		}
		snprintf(links_from, sizeof(links_from), "--links %s", links);
		a.links_from = links_from;
	}
	if (policy >= 0) {
		a.sp.stock = (enum policy)policy;
		a.policy_why = "--policy";
	} else if (topo) {
		a.sp.stock = POL_MAINLINE;
		a.policy_why = "a lab topology has no kernel version: assuming mainline";
	} else {
		a.sp.stock = policy_of_release(a.kernel, &a.policy_why);
	}
	graph_finalize(&g);
	if (!g.topo_ok)
		graph_note(&g, 0, "dependency cycle: walk order partly arbitrary");

	analysis_run(&a, max);
	ran = 1;
	if (profile) {
		FILE *pf = strcmp(profile, "-") ? fopen(profile, "w") : stdout;

		if (!pf || profile_write(&g, pf, scale,
					 topo ? topo : (dmesg ? dmesg : ftrace))) {
			fprintf(stderr, "pm-async-advise: cannot write %s\n", profile);
			if (pf && pf != stdout)
				fclose(pf);
			ret = 1;
			goto out;
		}
		if (pf != stdout && fclose(pf)) {
			fprintf(stderr, "pm-async-advise: cannot write %s\n", profile);
			ret = 1;
			goto out;
		}
	}
	if (json)
		report_json(stdout, &a);
	else if (!profile || strcmp(profile, "-"))
		report_text(stdout, &a);

out:
	if (ran)
		analysis_free(&a);
	graph_free(&g);
	pmlog_free(&dlog);
	pmlog_free(&flog);
	return ret;
}
