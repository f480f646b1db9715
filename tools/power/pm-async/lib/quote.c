// SPDX-License-Identifier: GPL-2.0
/*
 * Safe output of the pm-async host tools: shell words, the names that may
 * go into a command, JSON strings (see quote.h).
 */
#include <string.h>

#include "quote.h"
#include "xalloc.h"

/**
 * utf8_next() - decode the UTF-8 character at the start of a string
 * @s: a NUL-terminated string, not at its end
 * @len: set to the number of bytes taken: the character's, or those of the
 *	maximal ill-formed subpart (a lead byte and the continuation bytes
 *	that may follow it, at least 1)
 *
 * Well-formed is Unicode's table 3-7: shortest forms only, no surrogates,
 * nothing above U+10FFFF.  The terminating NUL is never taken.
 *
 * Return: the code point, or -1 if @s does not start a well-formed
 * character.
 */
long utf8_next(const char *s, int *len)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned char lo = 0x80, hi = 0xbf;
	int need, i;
	long cp;

	*len = 1;
	if (p[0] < 0x80)
		return p[0];
	if (p[0] >= 0xc2 && p[0] <= 0xdf) {
		need = 1;
		cp = p[0] & 0x1f;
	} else if (p[0] >= 0xe0 && p[0] <= 0xef) {
		need = 2;
		cp = p[0] & 0x0f;
		if (p[0] == 0xe0)
			lo = 0xa0;	/* else overlong */
		else if (p[0] == 0xed)
			hi = 0x9f;	/* else a surrogate */
	} else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		need = 3;
		cp = p[0] & 0x07;
		if (p[0] == 0xf0)
			lo = 0x90;	/* else overlong */
		else if (p[0] == 0xf4)
			hi = 0x8f;	/* else above U+10FFFF */
	} else {
		return -1;	/* 0x80-0xc1 (continuation, overlong), 0xf5- */
	}
	for (i = 1; i <= need; i++) {
		if (p[i] < lo || p[i] > hi) {	/* so does the NUL */
			*len = i;
			return -1;
		}
		cp = cp << 6 | (p[i] & 0x3f);
		lo = 0x80;
		hi = 0xbf;
	}
	*len = need + 1;
	return cp;
}

/**
 * is_control() - whether a code point is a control character
 * @cp: a code point
 *
 * Return: 1 for C0 (U+0000-U+001F), DEL (U+007F) and C1 (U+0080-U+009F),
 * else 0.
 */
int is_control(long cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f);
}

/**
 * name_refused() - whether a device name may be printed in a command
 * @name: the name, as the log gave it
 *
 * A kernel device name is never empty, "." or "..", and never holds a '/',
 * a control character or bytes that are not UTF-8; a name that does comes
 * from a log that was written by hand, or changed, and no command is
 * printed for it.
 *
 * Return: NULL if @name may be printed, else what is wrong with it ("holds
 * a control character"), for the comment printed instead.
 */
const char *name_refused(const char *name)
{
	const char *s;
	int len;

	if (!*name)
		return "is empty";
	if (!strcmp(name, ".") || !strcmp(name, ".."))
		return "is . or ..";
	for (s = name; *s; s += len) {
		long cp = utf8_next(s, &len);

		if (cp < 0)
			return "holds bytes that are not UTF-8";
		if (is_control(cp))
			return "holds a control character";
		if (cp == '/')
			return "holds a '/'";
	}
	return NULL;
}

/**
 * sh_quote() - write a string as one single-quoted sh word
 * @f: where to
 * @s: the string
 *
 * Each ' of @s becomes '\'' ; sh reads the word back as @s exactly.  A
 * string with a newline stays one word, but on two lines: check it with
 * name_refused() first if it must fit one.
 */
void sh_quote(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	}
	fputc('\'', f);
}

/**
 * glob_escape() - a pattern that matches a string literally
 * @s: the string
 *
 * Each of * ? [ ] \ in @s gets a backslash in front: the pattern of
 * fnmatch(3) (find -name, -path) that matches @s and nothing else.
 *
 * Return: the pattern, allocated (free() it).
 */
char *glob_escape(const char *s)
{
	char *p = xmalloc(2 * strlen(s) + 1), *q = p;

	for (; *s; s++) {
		if (strchr("*?[]\\", *s))
			*q++ = '\\';
		*q++ = *s;
	}
	*q = '\0';
	return p;
}

/**
 * c_escape() - write a string in double quotes, C escapes for the rest
 * @f: where to
 * @s: the string
 *
 * For a comment that names what was refused: '"' and '\' get a backslash,
 * a newline, tab and carriage return are written \n, \t and \r, every
 * other byte of a control character or of bytes that are not UTF-8 \xHH.
 * What is written is printable UTF-8 on one line.
 */
void c_escape(FILE *f, const char *s)
{
	int len, i;

	fputc('"', f);
	for (; *s; s += len) {
		long cp = utf8_next(s, &len);

		if (cp == '"' || cp == '\\')
			fprintf(f, "\\%c", (int)cp);
		else if (cp == '\n')
			fputs("\\n", f);
		else if (cp == '\t')
			fputs("\\t", f);
		else if (cp == '\r')
			fputs("\\r", f);
		else if (cp < 0 || is_control(cp))
			for (i = 0; i < len; i++)
				fprintf(f, "\\x%02x", (unsigned char)s[i]);
		else
			fwrite(s, 1, (size_t)len, f);
	}
	fputc('"', f);
}

/**
 * json_quote() - write a string as a JSON string
 * @f: where to
 * @s: the string, or NULL for null
 *
 * '"' and '\' are escaped, control characters (C0, DEL, C1) written
 * \u00XX, and each maximal ill-formed subpart replaced by U+FFFD: the
 * result is valid JSON and valid UTF-8, and it reads back as @s wherever
 * @s was UTF-8.
 */
void json_quote(FILE *f, const char *s)
{
	int len;

	if (!s) {
		fputs("null", f);
		return;
	}
	fputc('"', f);
	for (; *s; s += len) {
		long cp = utf8_next(s, &len);

		if (cp < 0)
			fputs(UTF8_REPLACEMENT, f);
		else if (cp == '"' || cp == '\\')
			fprintf(f, "\\%c", (int)cp);
		else if (is_control(cp))
			fprintf(f, "\\u%04lx", cp);
		else
			fwrite(s, 1, (size_t)len, f);
	}
	fputc('"', f);
}
