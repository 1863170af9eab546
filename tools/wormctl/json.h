/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wormctl's output: a small JSON writer in the style of "ip -j" (compact,
 * or indented with -p), and helpers that print a field either as JSON or
 * as text, so that each display function is written once.
 */
#ifndef WORMCTL_JSON_H
#define WORMCTL_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define OUT_MAX_DEPTH 16

struct out {
	FILE *fp;
	bool json;
	bool pretty;
	int depth;			/* open objects and arrays */
	bool nonempty[OUT_MAX_DEPTH];	/* the container at depth has items */
};

void out_init(struct out *o, FILE *fp, bool json, bool pretty);

/* Write @s as a JSON string literal, quotes included. */
void json_escape(FILE *fp, const char *s);

/*
 * JSON containers and values.  @key is NULL inside arrays (and for the
 * top-level container), the member name inside objects.
 */
void json_open_object(struct out *o, const char *key);
void json_close_object(struct out *o);
void json_open_array(struct out *o, const char *key);
void json_close_array(struct out *o);
void json_string(struct out *o, const char *key, const char *s);
void json_u64(struct out *o, const char *key, uint64_t v);
void json_s64(struct out *o, const char *key, int64_t v);
void json_bool(struct out *o, const char *key, bool v);
void json_null(struct out *o, const char *key);
void json_u32_array(struct out *o, const char *key, const uint32_t *v,
		    uint32_t n);

/*
 * A field either way: JSON member @key, or the text @fmt (printf format
 * with one conversion for the value) when not in JSON mode.
 */
void out_u64(struct out *o, const char *key, const char *fmt, uint64_t v);
void out_string(struct out *o, const char *key, const char *fmt,
		const char *s);

/* Text only (nothing in JSON mode). */
void out_text(struct out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* WORMCTL_JSON_H */
