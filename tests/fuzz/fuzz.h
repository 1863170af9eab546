/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the libFuzzer harnesses in tests/fuzz/ share: a reader that turns
 * the fuzz input into numbers (biased towards small and boundary values),
 * an argv builder, and a check macro that aborts (libFuzzer then saves the
 * input as a crash reproducer).
 */
#ifndef WC_FUZZ_H
#define WC_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A property that does not hold: name it and abort. */
#define FUZZ_CHECK(cond, ...)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "%s:%d: check failed: %s: ",	\
				__FILE__, __LINE__, #cond);		\
			fprintf(stderr, __VA_ARGS__);			\
			fputc('\n', stderr);				\
			abort();					\
		}							\
	} while (0)

/* Bytes read front to back; zeros once they run out. */
struct fz {
	const uint8_t *p;
	size_t n;
};

static inline bool fz_empty(const struct fz *f)
{
	return !f->n;
}

static inline uint8_t fz_u8(struct fz *f)
{
	if (!f->n)
		return 0;
	f->n--;
	return *f->p++;
}

static inline uint16_t fz_u16(struct fz *f)
{
	uint16_t v = fz_u8(f);

	return (uint16_t)(v | fz_u8(f) << 8);
}

static inline uint32_t fz_u32(struct fz *f)
{
	uint32_t v = fz_u16(f);

	return v | (uint32_t)fz_u16(f) << 16;
}

/*
 * A u32 that is usually small, sometimes on a boundary: one byte below
 * 0xf0 is its value; 0xf0..0xff pick @max - 1, @max, @max + 1, U32_MAX,
 * 2^31, 2^16 or a raw 32-bit value from the next four bytes.
 */
static inline uint32_t fz_pick(struct fz *f, uint32_t max)
{
	uint8_t b = fz_u8(f);

	if (b < 0xf0)
		return b;
	switch (b & 7) {
	case 0:
		return max - 1;
	case 1:
		return max;
	case 2:
		return max + 1;
	case 3:
		return UINT32_MAX;
	case 4:
		return 1u << 31;
	case 5:
		return 1u << 16;
	default:
		return fz_u32(f);
	}
}

/*
 * argv from the rest of the input: words separated by NUL bytes, at most
 * @max words, each a separate heap copy so that ASan sees a read past its
 * end.  *@argc is set; the array ends with NULL.  fz_argv_free() frees it.
 */
static inline char **fz_argv(struct fz *f, const char *argv0, int max,
			     int *argc)
{
	char **argv = calloc((size_t)max + 2, sizeof(*argv));
	int n = 0;

	if (!argv)
		abort();
	if (argv0)
		argv[n++] = strdup(argv0);
	while (!fz_empty(f) && n < max + (argv0 ? 1 : 0)) {
		const uint8_t *end = memchr(f->p, '\0', f->n);
		size_t len = end ? (size_t)(end - f->p) : f->n;

		argv[n] = malloc(len + 1);
		if (!argv[n])
			abort();
		memcpy(argv[n], f->p, len);
		argv[n][len] = '\0';
		n++;
		f->p += len;
		f->n -= len;
		if (end) {
			f->p++;
			f->n--;
		}
	}
	*argc = n;
	return argv;
}

static inline void fz_argv_free(char **argv, int argc)
{
	int i;

	for (i = 0; i < argc; i++)
		free(argv[i]);
	free(argv);
}

/* An error buffer of exactly @len bytes (malloc'd, so overruns are seen). */
static inline char *fz_errbuf(size_t len)
{
	char *err = malloc(len ? len : 1);

	if (!err)
		abort();
	memset(err, 'X', len ? len : 1);
	return err;
}

/*
 * A message a parser returned: NUL-terminated within @len, not empty, no
 * newline at the end (unless @quoted_nl: the message quotes a word that
 * has one, and may be cut right after it).
 */
static inline void fz_check_errmsg(const char *err, size_t len, bool quoted_nl)
{
	size_t n;

	if (!len)
		return;
	n = strnlen(err, len);
	FUZZ_CHECK(n < len, "error message not terminated");
	FUZZ_CHECK(len < 2 || n > 0, "empty error message");
	FUZZ_CHECK(quoted_nl || !n || err[n - 1] != '\n',
		   "error message ends with a newline");
}

/* Does any word of @argv contain a newline? */
static inline bool fz_argv_has_nl(char **argv, int argc)
{
	int i;

	for (i = 0; i < argc; i++)
		if (strchr(argv[i], '\n'))
			return true;
	return false;
}

#endif /* WC_FUZZ_H */
