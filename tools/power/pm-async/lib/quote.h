/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Safe output shared by the pm-async host tools: a command they print is
 * pasted into a root shell, their JSON is read by other programs, and the
 * names in both come from a kernel log that anyone may have written.
 *
 * Shell words: sh_quote() writes a string as one single-quoted sh word, a
 * ' inside as '\'' (close the quotes, an escaped quote, reopen them).
 * Nothing else is special inside single quotes, so the word sh reads back
 * is the string, byte for byte: no expansion, no command substitution.
 *
 * Names in commands: a device name goes into a printed command only if
 * name_refused() accepts it.  It refuses what no kernel device name
 * holds: the empty name, "." and "..", '/' (the kernel writes '!' for it),
 * control characters (U+0000-U+001F, U+007F, U+0080-U+009F: a newline
 * would end the command, the others drive the terminal) and bytes that are
 * not UTF-8.  Instead of the command the tool prints a comment naming the
 * device with c_escape().
 *
 * JSON: json_quote() writes '"' and '\' escaped, every control character
 * as \u00XX and U+FFFD (EF BF BD) for each maximal ill-formed subsequence
 * (Unicode 3.9, "U+FFFD Substitution of Maximal Subparts"): the output is
 * valid UTF-8 and valid JSON whatever the input holds.
 */
#ifndef PM_ASYNC_QUOTE_H
#define PM_ASYNC_QUOTE_H

#include <stdio.h>

#define UTF8_REPLACEMENT	"\xef\xbf\xbd"	/* U+FFFD */

long utf8_next(const char *s, int *len);
int is_control(long cp);
const char *name_refused(const char *name);
void sh_quote(FILE *f, const char *s);
char *glob_escape(const char *s);
void c_escape(FILE *f, const char *s);
void json_quote(FILE *f, const char *s);

#endif /* PM_ASYNC_QUOTE_H */
