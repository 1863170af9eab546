/* SPDX-License-Identifier: GPL-2.0 */
/* Number parsing and formatting shared by the tools. */
#ifndef WC_TOOLS_UTIL_H
#define WC_TOOLS_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Format an error message into err[errlen]; returns -1 for "return wc_fail(...)". */
static inline int wc_fail(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static inline int wc_fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/*
 * Decimal u32: digits only (no sign, blank or base prefix), no overflow.
 * Returns 0 with *v set, or -1 leaving *v untouched.
 */
static inline int wc_parse_u32(const char *s, uint32_t *v)
{
	unsigned long long x = 0;
	const char *p;

	if (!s || !*s)
		return -1;
	for (p = s; *p; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		x = x * 10 + (unsigned int)(*p - '0');
		if (x > UINT32_MAX)
			return -1;
	}
	*v = (uint32_t)x;
	return 0;
}

/*
 * "4x4" (sep 'x') or "1,2" (sep ','), truncated to fit @len; returns the
 * length of the whole list, as snprintf() does.
 */
static inline int wc_format_u32_list(char *buf, size_t len, const uint32_t *v,
				     uint32_t n, char sep)
{
	const char sepstr[2] = { sep, '\0' };
	size_t used = 0, off;
	uint32_t i;

	if (len)
		buf[0] = '\0';
	for (i = 0; i < n; i++) {
		off = used < len ? used : len;	/* past the end: count only */
		used += (size_t)snprintf(buf + off, len - off, "%s%u",
					 i ? sepstr : "", v[i]);
	}
	return (int)used;
}

#endif /* WC_TOOLS_UTIL_H */
