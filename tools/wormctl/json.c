// SPDX-License-Identifier: GPL-2.0
/* wormctl: JSON writer and JSON-or-text field printers (see json.h). */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

void out_init(struct out *o, FILE *fp, bool json, bool pretty)
{
	memset(o, 0, sizeof(*o));
	o->fp = fp;
	o->json = json;
	o->pretty = pretty;
}

void json_escape(FILE *fp, const char *s)
{
	const unsigned char *p;

	fputc('"', fp);
	for (p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"':
			fputs("\\\"", fp);
			break;
		case '\\':
			fputs("\\\\", fp);
			break;
		case '\b':
			fputs("\\b", fp);
			break;
		case '\f':
			fputs("\\f", fp);
			break;
		case '\n':
			fputs("\\n", fp);
			break;
		case '\r':
			fputs("\\r", fp);
			break;
		case '\t':
			fputs("\\t", fp);
			break;
		default:
			/* Other control characters must be escaped (RFC 8259). */
			if (*p < 0x20)
				fprintf(fp, "\\u%04x", *p);
			else
				fputc(*p, fp);
		}
	}
	fputc('"', fp);
}

static void newline_indent(struct out *o)
{
	int i;

	fputc('\n', o->fp);
	for (i = 0; i < o->depth; i++)
		fputs("    ", o->fp);
}

/* Separator, indentation and member name before a value. */
static void begin_value(struct out *o, const char *key)
{
	if (o->depth > 0) {
		if (o->nonempty[o->depth - 1])
			fputc(',', o->fp);
		o->nonempty[o->depth - 1] = true;
		if (o->pretty)
			newline_indent(o);
	}
	if (key) {
		json_escape(o->fp, key);
		fputs(o->pretty ? ": " : ":", o->fp);
	}
}

static void open_container(struct out *o, const char *key, char c)
{
	/* Our documents nest 4 deep: more is a bug in wormctl itself. */
	if (o->depth >= OUT_MAX_DEPTH)
		abort();
	begin_value(o, key);
	fputc(c, o->fp);
	o->nonempty[o->depth] = false;
	o->depth++;
}

static void close_container(struct out *o, char c)
{
	bool had_items = o->nonempty[o->depth - 1];

	o->depth--;
	if (o->pretty && had_items)
		newline_indent(o);
	fputc(c, o->fp);
	if (o->depth == 0)
		fputc('\n', o->fp);
}

void json_open_object(struct out *o, const char *key)
{
	open_container(o, key, '{');
}

void json_close_object(struct out *o)
{
	close_container(o, '}');
}

void json_open_array(struct out *o, const char *key)
{
	open_container(o, key, '[');
}

void json_close_array(struct out *o)
{
	close_container(o, ']');
}

void json_string(struct out *o, const char *key, const char *s)
{
	begin_value(o, key);
	json_escape(o->fp, s);
}

void json_u64(struct out *o, const char *key, uint64_t v)
{
	begin_value(o, key);
	fprintf(o->fp, "%" PRIu64, v);
}

void json_s64(struct out *o, const char *key, int64_t v)
{
	begin_value(o, key);
	fprintf(o->fp, "%" PRId64, v);
}

void json_bool(struct out *o, const char *key, bool v)
{
	begin_value(o, key);
	fputs(v ? "true" : "false", o->fp);
}

void json_null(struct out *o, const char *key)
{
	begin_value(o, key);
	fputs("null", o->fp);
}

void json_u32_array(struct out *o, const char *key, const uint32_t *v,
		    uint32_t n)
{
	uint32_t i;

	json_open_array(o, key);
	for (i = 0; i < n; i++)
		json_u64(o, NULL, v[i]);
	json_close_array(o);
}

void out_u64(struct out *o, const char *key, const char *fmt, uint64_t v)
{
	if (o->json)
		json_u64(o, key, v);
	else
		fprintf(o->fp, fmt, v);
}

void out_string(struct out *o, const char *key, const char *fmt,
		const char *s)
{
	if (o->json)
		json_string(o, key, s);
	else
		fprintf(o->fp, fmt, s);
}

void out_text(struct out *o, const char *fmt, ...)
{
	va_list ap;

	if (o->json)
		return;
	va_start(ap, fmt);
	vfprintf(o->fp, fmt, ap);
	va_end(ap);
}
