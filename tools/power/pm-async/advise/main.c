// SPDX-License-Identifier: GPL-2.0
/*
 * pm-async-advise: command line.  See README.rst and --help.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pmadv.h"

static void usage(FILE *f)
{
	fputs("usage: pm-async-advise [OPTIONS] DMESG\n"
	      "       pm-async-advise [OPTIONS] --ftrace TRACE [DMESG]\n"
	      "       pm-async-advise [OPTIONS] --topology LAB_TOPOLOGY\n"
	      "       pm-async-advise summarize [--json] --label L LOG... [--label L2 LOG...]\n"
	      "\n"
	      "Rebuilds the device graph of one suspend/resume cycle from a dmesg taken with\n"
	      "pm_print_times (and pm_debug_messages for the phase lines), simulates the six\n"
	      "device phases fully sync, with the stock Linux 6.12 async policy and with the\n"
	      "pm-async policy, and ranks the sync devices worth making async.\n"
	      "\n"
	      "  --ftrace FILE     ftrace with device_pm_callback_start/end (+ suspend_resume)\n"
	      "                    events; its callbacks replace the dmesg ones (exact times)\n"
	      "  --links FILE      device links, 'CONSUMER SUPPLIER' per line or devlink names\n"
	      "                    'bus:SUPPLIER--bus:CONSUMER' (as in /sys/class/devlink)\n"
	      "  --topology FILE   simulate a pm_async_test lab topology instead of a log\n"
	      "  --cycle N         which suspend/resume cycle of the log (default: first)\n"
	      "  --json            machine-readable output\n"
	      "  --max N           size limit of the advised set (default 5)\n"
	      "  --min-gain-ms X   smallest extra saving worth a device in the set (0.05)\n"
	      "  --top N           rows of the single-device ranking shown (default 10)\n"
	      "  --limit N         async concurrency slots (default 256)\n"
	      "  --overhead-us X   per-callback overhead (default: measured from the log)\n"
	      "  --units U         auto|us|ns1024: unit of printed 'usecs' (default auto)\n"
	      "  --profile FILE    write the graph as a lab topology ('-' = stdout)\n"
	      "  --scale F         scale durations in the profile (default 1.0)\n"
	      "  --version, -h, --help\n"
	      "Exit status: 0 ok, 1 usage or I/O error, 2 no usable PM lines in the input.\n",
	      f);
}

static int need(int argc, char **argv, int i)
{
	if (i + 1 >= argc) {
		fprintf(stderr, "pm-async-advise: %s needs an argument\n", argv[i]);
		exit(1);
	}
	return i + 1;
}

int main(int argc, char **argv)
{
	const char *dmesg = NULL, *ftrace = NULL, *links = NULL, *topo = NULL;
	const char *profile = NULL, *units_opt = NULL;
	int json = 0, max = 5, top = 10, cycle = -1, limit = 256, i, rc;
	double scale = 1.0, overhead = NAN, min_gain_ms = 0.05;
	struct pmlog dlog, flog;
	int have_d = 0, have_f = 0, ret = 0, ran = 0;
	struct graph g;
	struct analysis a;
	char err[1024];

	if (argc > 1 && !strcmp(argv[1], "summarize"))
		return summarize_main(argc - 1, argv + 1);
	for (i = 1; i < argc; i++) {
		const char *o = argv[i];

		if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(o, "--version")) {
			printf("pm-async-advise %s\n", PMADV_VERSION);
			return 0;
		} else if (!strcmp(o, "--ftrace")) {
			ftrace = argv[i = need(argc, argv, i)];
		} else if (!strcmp(o, "--links")) {
			links = argv[i = need(argc, argv, i)];
		} else if (!strcmp(o, "--topology")) {
			topo = argv[i = need(argc, argv, i)];
		} else if (!strcmp(o, "--profile")) {
			profile = argv[i = need(argc, argv, i)];
		} else if (!strcmp(o, "--units")) {
			units_opt = argv[i = need(argc, argv, i)];
			if (strcmp(units_opt, "auto") && strcmp(units_opt, "us") &&
			    strcmp(units_opt, "ns1024")) {
				fprintf(stderr, "pm-async-advise: --units auto|us|ns1024\n");
				return 1;
			}
		} else if (!strcmp(o, "--json")) {
			json = 1;
		} else if (!strcmp(o, "--max")) {
			max = atoi(argv[i = need(argc, argv, i)]);
		} else if (!strcmp(o, "--min-gain-ms")) {
			min_gain_ms = atof(argv[i = need(argc, argv, i)]);
		} else if (!strcmp(o, "--top")) {
			top = atoi(argv[i = need(argc, argv, i)]);
		} else if (!strcmp(o, "--cycle")) {
			cycle = atoi(argv[i = need(argc, argv, i)]) - 1;
			if (cycle < 0) {
				fprintf(stderr, "pm-async-advise: --cycle counts from 1\n");
				return 1;
			}
		} else if (!strcmp(o, "--limit")) {
			limit = atoi(argv[i = need(argc, argv, i)]);
		} else if (!strcmp(o, "--scale")) {
			scale = atof(argv[i = need(argc, argv, i)]);
		} else if (!strcmp(o, "--overhead-us")) {
			overhead = atof(argv[i = need(argc, argv, i)]);
		} else if (o[0] == '-' && o[1]) {
			fprintf(stderr, "pm-async-advise: unknown option %s\n", o);
			usage(stderr);
			return 1;
		} else if (!dmesg) {
			dmesg = o;
		} else {
			fprintf(stderr, "pm-async-advise: one DMESG only (use summarize for several)\n");
			return 1;
		}
	}
	if (!dmesg && !ftrace && !topo) {
		usage(stderr);
		return 1;
	}
	if (max < 0 || top < 0 || limit < 1 || !(scale >= 0) || !(min_gain_ms >= 0) ||
	    (!isnan(overhead) && overhead < 0)) {
		fprintf(stderr, "pm-async-advise: bad numeric option\n");
		return 1;
	}

	memset(&a, 0, sizeof(a));
	memset(&dlog, 0, sizeof(dlog));
	memset(&flog, 0, sizeof(flog));
	graph_init(&g);
	a.g = &g;
	a.top = top;
	a.min_gain_us = min_gain_ms * 1e3;
	a.sp.limit = limit;
	a.profile_path = profile;
	a.profile_scale = scale;
	for (i = 0; i < NPHASES; i++)
		a.observed[i] = NAN;

	if (topo) {
		FILE *f = fopen(topo, "r");

		if (!f) {
			fprintf(stderr, "pm-async-advise: cannot open %s\n", topo);
			ret = 1;
			goto out;
		}
		rc = graph_from_topology(&g, f, topo, err, sizeof(err));
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
			fprintf(stderr, "pm-async-advise: error: %s: no callbacks assigned to a device phase%s\n",
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
		detect_units(cb, cycle, units_opt, &a.units);
		graph_from_log(&g, cb, cycle, a.units.scale);
		if (links && graph_read_links(&g, links, err, sizeof(err))) {
			fprintf(stderr, "pm-async-advise: %s\n", err);
			ret = 1;
			goto out;
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
	if (links && topo && graph_read_links(&g, links, err, sizeof(err))) {
		fprintf(stderr, "pm-async-advise: %s\n", err);
		ret = 1;
		goto out;
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
