// SPDX-License-Identifier: GPL-2.0
/*
 * pm-async-advise: what the machine and pm-async-measure's output directory
 * say about a log: the device links (/sys/class/devlink) and the kernel
 * release (which policy "stock" means).
 */
#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lineread.h"
#include "pmadv.h"

/* first line of ROOT/NAME/FILE, trimmed, in buf; 0 if unreadable */
static int read_attr(const char *dir, const char *file, char *buf, size_t n)
{
	char path[PATH_MAX];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "r");
	if (!f)
		return 0;
	ok = !!fgets(buf, (int)n, f);
	fclose(f);
	if (ok) {
		char *t = trim(buf);

		memmove(buf, t, strlen(t) + 1);
	}
	return ok;
}

/*
 * the device a devlink's supplier/consumer symlink points to: its path
 * ("../../../devices/pci0000:00/0000:00:1f.3"), which graph_link_by_name()
 * matches by name and, for names two devices have, by the path above it
 */
static int link_end(const char *dir, const char *file, char *buf, size_t n)
{
	char path[PATH_MAX], target[PATH_MAX];
	const char *slash;
	ssize_t len;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	len = readlink(path, target, sizeof(target) - 1);
	if (len <= 0)
		return 0;
	target[len] = 0;
	while (len > 1 && target[len - 1] == '/')
		target[--len] = 0;
	slash = strstr(target, "devices/");
	if (!slash) {
		slash = strrchr(target, '/');
		slash = slash ? slash + 1 : target;
	}
	return snprintf(buf, n, "%s", slash) < (int)n;
}

int graph_read_devlinks(struct graph *g, const char *root, int *skipped,
			char *err, size_t errlen)
{
	char cls[PATH_MAX];
	struct dirent **ent;
	int n, i, nread = 0;

	*skipped = 0;
	snprintf(cls, sizeof(cls), "%s/class/devlink", root);
	n = scandir(cls, &ent, NULL, alphasort);
	if (n < 0) {
		snprintf(err, errlen, "%s: cannot read the device links", cls);
		return -1;
	}
	g->links_given = 1;
	for (i = 0; i < n; i++) {
		char dir[PATH_MAX], cons[PATH_MAX], sup[PATH_MAX], v[64], where[PATH_MAX + 16];
		int flags = 0;

		if (ent[i]->d_name[0] == '.')
			goto next;
		if (snprintf(dir, sizeof(dir), "%s/%s", cls, ent[i]->d_name) >=
		    (int)sizeof(dir))
			goto next;
		if (!link_end(dir, "consumer", cons, sizeof(cons)) ||
		    !link_end(dir, "supplier", sup, sizeof(sup))) {
			graph_note(g, 0, "%s: no supplier or consumer link; skipped", dir);
			goto next;
		}
		if (read_attr(dir, "sync_state_only", v, sizeof(v)) && !strcmp(v, "1"))
			flags |= LINK_SYNC_STATE_ONLY;
		if (read_attr(dir, "status", v, sizeof(v)) && !strcmp(v, "dormant"))
			flags |= LINK_DORMANT;
		snprintf(where, sizeof(where), "%s", dir);
		/* a machine has many links to devices without PM callbacks */
		if (graph_link_by_name(g, cons, sup, flags, where, 1) == -2)
			(*skipped)++;
		else
			nread++;
next:
		free(ent[i]);
	}
	free(ent);
	if (*skipped)
		graph_note(g, 0,
			   "%s: %d link(s) name devices not in the log (no callbacks there); not used",
			   cls, *skipped);
	return nread;
}

const char *beside_log(const char *log, const char *name)
{
	static char path[PATH_MAX];
	const char *slash = strrchr(log, '/');
	struct stat st;

	if (slash)
		snprintf(path, sizeof(path), "%.*s/%s", (int)(slash - log), log, name);
	else
		snprintf(path, sizeof(path), "%s", name);
	if (stat(path, &st) || !S_ISREG(st.st_mode) || access(path, R_OK))
		return NULL;
	return path;
}

int log_kernel_release(const struct pmlog *pl, const char *log, char *rel,
		       size_t n, char *from, size_t fn)
{
	const char *run;
	FILE *f;
	int found = 0;

	if (pl && pl->release_line && strlen(pl->release) < n) {
		strcpy(rel, pl->release);
		snprintf(from, fn, "%s:%d: %s", log, pl->release_line,
			 pl->release_pmgraph ? "pm-graph header" : "Linux version");
		return 1;
	}
	/* stdin has no directory: no run.txt of a measure run beside it */
	run = strcmp(log, "-") ? beside_log(log, "run.txt") : NULL;
	f = run ? fopen(run, "r") : NULL;
	if (f) {
		char buf[256];

		while (!found && fgets(buf, sizeof(buf), f))
			if (!strncmp(buf, "kernel ", 7) && release_word(buf + 7, rel, n)) {
				snprintf(from, fn, "%s (pm-async-measure)", run);
				found = 1;
			}
		fclose(f);
	}
	return found;
}
