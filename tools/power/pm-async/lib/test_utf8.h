/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A check the tools' tests share: is a buffer UTF-8?  Written apart from
 * the tools' own decoder (lib/quote.c), so that a test does not check the
 * decoder with itself.
 */
#ifndef PM_ASYNC_TEST_UTF8_H
#define PM_ASYNC_TEST_UTF8_H

#include <stddef.h>

/*
 * 1 if the @n bytes at @s are UTF-8: shortest forms, no surrogates, at
 * most U+10FFFF.
 */
static inline int utf8_ok(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + n;

	while (p < end) {
		unsigned long cp, min;
		unsigned int k, i;

		if (*p < 0x80) {
			p++;
			continue;
		}
		if (*p >= 0xc2 && *p <= 0xdf) {
			k = 1;
			cp = *p & 0x1f;
			min = 0x80;
		} else if (*p >= 0xe0 && *p <= 0xef) {
			k = 2;
			cp = *p & 0x0f;
			min = 0x800;
		} else if (*p >= 0xf0 && *p <= 0xf4) {
			k = 3;
			cp = *p & 0x07;
			min = 0x10000;
		} else {
			return 0;
		}
		if ((size_t)(end - p) <= k)
			return 0;
		for (i = 1; i <= k; i++) {
			if ((p[i] & 0xc0) != 0x80)
				return 0;
			cp = cp << 6 | (p[i] & 0x3f);
		}
		if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
			return 0;
		p += k + 1;
	}
	return 1;
}

#endif /* PM_ASYNC_TEST_UTF8_H */
