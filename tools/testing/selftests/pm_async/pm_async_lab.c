// SPDX-License-Identifier: GPL-2.0
/*
 * The pm_async_test lab's files and the sleep knobs, for the kselftest's
 * C cases; see pm_async_lab.h.
 */
#define _GNU_SOURCE	/* strchrnul() */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pm_async_lab.h"

/*
 * The cases' diagnostics ("# ...") go to stdout, from test processes that
 * kselftest_harness.h ends with _exit(): write each line at once.
 */
static void __attribute__((constructor)) pma_line_buffered(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
}

int pma_write(const char *path, const char *text)
{
	size_t len = strlen(text);
	int fd, err = 0;
	ssize_t n;

	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	n = write(fd, text, len);
	if (n < 0)
		err = -errno;
	else if ((size_t)n != len)
		err = -EIO;
	close(fd);
	return err;
}

char *pma_read(const char *path)
{
	size_t len = 0, cap = 4096;
	char *buf, *more;
	ssize_t n = 0;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return NULL;
	buf = malloc(cap);
	while (buf && (n = read(fd, buf + len, cap - len - 1)) > 0) {
		len += n;
		if (cap - len > 1)
			continue;
		more = realloc(buf, cap *= 2);
		if (!more)
			free(buf);
		buf = more;
	}
	close(fd);
	if (!buf || n < 0) {
		free(buf);
		return NULL;
	}
	buf[len] = '\0';
	return buf;
}

int pma_lab_write(const char *file, const char *text)
{
	char path[128];

	snprintf(path, sizeof(path), PMA_LAB "%s", file);
	return pma_write(path, text);
}

char *pma_lab_read(const char *file)
{
	char path[128];

	snprintf(path, sizeof(path), PMA_LAB "%s", file);
	return pma_read(path);
}

int pma_file_has_word(const char *path, const char *word)
{
	char *s = pma_read(path), *p;
	size_t n = strlen(word);
	int found = 0;

	for (p = s; p && (p = strstr(p, word)); p += n)
		found |= (p == s || strchr(" [", p[-1])) &&
			 (!p[n] || strchr(" ]\n", p[n]));
	free(s);
	return found;
}

int pma_bus_count(void)
{
	struct dirent *e;
	DIR *d = opendir(PMA_BUS);
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

int pma_nlines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

char *pma_load(const char *text)
{
	if (pma_lab_write("topology", "clear\n") ||
	    pma_lab_write("topology", text))
		return NULL;
	return pma_lab_read("topology");
}

/* The first line of @path, without its newline, into @buf. */
static void first_line(const char *path, char *buf, size_t len)
{
	char *s = pma_read(path);

	snprintf(buf, len, "%s", s ? s : "");
	buf[strcspn(buf, "\n")] = '\0';
	free(s);
}

int pma_knobs_set(struct pma_knobs *saved)
{
	char all[128], *l, *r;

	first_line(PMA_PWR "pm_test", all, sizeof(all));
	l = strchr(all, '[');
	r = l ? strchr(l, ']') : NULL;
	if (!r)
		return -1;
	*r = '\0';
	snprintf(saved->pm_test, sizeof(saved->pm_test), "%s", l + 1);
	first_line(PMA_PWR "pm_async", saved->pm_async,
		   sizeof(saved->pm_async));
	first_line(PMA_DELAY, saved->delay, sizeof(saved->delay));
	if (*saved->delay && pma_write(PMA_DELAY, "0\n"))
		return -1;
	if (!pma_write(PMA_PWR "pm_test", "platform\n"))
		return 0;
	if (*saved->delay)
		pma_write(PMA_DELAY, saved->delay);
	return -1;
}

void pma_knobs_restore(const struct pma_knobs *saved)
{
	pma_write(PMA_PWR "pm_test", saved->pm_test);
	pma_write(PMA_PWR "pm_async", saved->pm_async);
	if (*saved->delay)
		pma_write(PMA_DELAY, saved->delay);
}

int pma_set_pm_async(int on)
{
	return pma_write(PMA_PWR "pm_async", on ? "1\n" : "0\n");
}

int pma_cycle(const char *state, struct pma_report *rep)
{
	int err = pma_write(PMA_PWR "state", state);

	if (pma_report_read(PMA_LAB "report", rep))
		return -1;
	return err ? 1 : 0;
}

int pma_line_has(const char *topo, const char *name, const char *text,
		 int at_end)
{
	size_t nl = strlen(name), tl = strlen(text);
	const char *l, *e, *p;

	for (l = topo; *l; l = *e ? e + 1 : e) {
		e = strchrnul(l, '\n');
		if ((size_t)(e - l) < nl + tl || strncmp(l, name, nl) ||
		    l[nl] != ' ')
			continue;
		if (at_end)
			return !strncmp(e - tl, text, tl);
		for (p = l + nl; p + tl <= e; p++)
			if (!strncmp(p, text, tl))
				return 1;
		return 0;
	}
	return 0;
}

int pma_askl(const struct pma_report *rep, const char *cmd, ...)
{
	char *argv[16];
	va_list ap;
	int argc = 0;

	va_start(ap, cmd);
	for (argv[argc] = (char *)cmd; argv[argc] && argc < 15;)
		argv[++argc] = va_arg(ap, char *);
	va_end(ap);
	argv[argc] = NULL;
	return pma_ask(rep, argc, argv);
}

const char *pma_ctx(const struct pma_report *rep, const char *dev,
		    const char *phase)
{
	const char *ctx = NULL;
	int i;

	for (i = 0; i < rep->ncb; i++)
		if (!strcmp(rep->cb[i].r.name, dev) &&
		    !strcmp(rep->cb[i].r.phase, phase))
			ctx = pma_rec_ctx(&rep->cb[i].r);
	return ctx;
}
