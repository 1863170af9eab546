// SPDX-License-Identifier: GPL-2.0
/* wormcastd.conf (config.h). */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "ft_mcast.h"

#define WCD_MAX_CONFIG_BYTES	(1 << 20)

void wcd_config_init(struct wcd_config *c)
{
	memset(c, 0, sizeof(*c));
	wc_trees_opts_default(&c->global);
	c->ftm_global.strategy = WCD_DEFAULT_FTM_STRATEGY;
	c->ftm_global.detour = WCD_FTM_DETOUR_AUTO;
	c->poll_interval = WCD_DEFAULT_POLL;
	c->retries = WCD_DEFAULT_RETRIES;
	c->plans_eager_max = WCD_DEFAULT_PLANS_EAGER_MAX;
}

void wcd_config_free(struct wcd_config *c)
{
	free(c->sec);
	c->sec = NULL;
	c->nsec = 0;
}

static int cfg_fail(char *err, size_t errlen, const char *fname,
		    unsigned int line, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static int cfg_fail(char *err, size_t errlen, const char *fname,
		    unsigned int line, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!errlen)
		return -1;
	n = snprintf(err, errlen, "%s:%u: ", fname, line);
	if (n < 0 || (size_t)n >= errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

/* Decimal digits only, no overflow of @max. */
static int parse_num(const char *s, uint64_t max, uint64_t *v)
{
	uint64_t x = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		if (x > (max - (uint64_t)(*s - '0')) / 10)
			return -1;
		x = x * 10 + (uint64_t)(*s - '0');
	}
	*v = x;
	return 0;
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

static const char *const ftm_detour_names[] = {
	[WCD_FTM_DETOUR_OFF] = "off",
	[WCD_FTM_DETOUR_ON] = "on",
	[WCD_FTM_DETOUR_AUTO] = "auto",
};

const char *wcd_ftm_detour_name(uint32_t detour)
{
	return detour <= WCD_FTM_DETOUR_AUTO ? ftm_detour_names[detour] : "?";
}

uint32_t wcd_ftm_detour_on(const struct wcd_ftm_opts *o, uint32_t vcs)
{
	if (o->detour == WCD_FTM_DETOUR_AUTO)
		return vcs >= WC_FTM_DETOUR_VCS;
	return o->detour == WCD_FTM_DETOUR_ON;
}

/* The keys; those from poll_interval on are global only. */
static const char *const keys[] = {
	"rt_pair", "seed", "trials", "ftmesh_strategy", "ftmesh_detour",
	"poll_interval", "retries", "plans_eager_max",
};
#define NKEYS		(sizeof(keys) / sizeof(keys[0]))
#define FIRST_GLOBAL	5

/* One "key = value" line into the global part (@sec NULL) or a section. */
static int set_key(struct wcd_config *c, struct wcd_section *sec,
		   const char *key, const char *val, bool *seen,
		   const char *fname, unsigned int line, char *err,
		   size_t errlen)
{
	struct wc_trees_opts *o = sec ? &sec->o : &c->global;
	struct wcd_ftm_opts *ftm = sec ? &sec->ftm : &c->ftm_global;
	uint64_t v;
	uint32_t pair;
	size_t k;

	for (k = 0; k < NKEYS; k++)
		if (!strcmp(key, keys[k]))
			break;
	if (k == NKEYS)
		return cfg_fail(err, errlen, fname, line,
				"unknown key \"%s\" (rt_pair, seed, trials, ftmesh_strategy, ftmesh_detour, poll_interval, retries, plans_eager_max)",
				key);
	if (seen[k])
		return cfg_fail(err, errlen, fname, line,
				"\"%s\" given twice in this %s", key,
				sec ? "section" : "global part");
	seen[k] = true;
	if (!*val)
		return cfg_fail(err, errlen, fname, line, "\"%s\" needs a value", key);
	if (sec && k >= FIRST_GLOBAL)
		return cfg_fail(err, errlen, fname, line,
				"\"%s\" is global: put it before the first section", key);
	switch (k) {
	case 0:
		if (wc_rt_pair_parse(val, &pair))
			return cfg_fail(err, errlen, fname, line,
					"rt_pair \"%s\": expected average (or balanced), best, path (or worst)",
					val);
		o->rt_pair = pair;
		if (sec)
			sec->has_pair = true;
		break;
	case 1:
		if (parse_num(val, UINT64_MAX, &v))
			return cfg_fail(err, errlen, fname, line,
					"seed \"%s\": expected a decimal number below 2^64", val);
		o->seed = v;
		if (sec)
			sec->has_seed = true;
		break;
	case 2:
		if (parse_num(val, WC_TREES_MAX_TRIALS, &v) || v < 1)
			return cfg_fail(err, errlen, fname, line,
					"trials \"%s\": expected 1 to %u", val,
					WC_TREES_MAX_TRIALS);
		o->trials = (uint32_t)v;
		if (sec)
			sec->has_trials = true;
		break;
	case 3:
		if (strcmp(val, "1") && strcmp(val, "2") && strcmp(val, "3"))
			return cfg_fail(err, errlen, fname, line,
					"ftmesh_strategy \"%s\": expected 1, 2 or 3",
					val);
		ftm->strategy = (uint32_t)(val[0] - '0');
		if (sec)
			sec->has_ftm_strategy = true;
		break;
	case 4:
		for (v = 0; v <= WCD_FTM_DETOUR_AUTO; v++)
			if (!strcmp(val, ftm_detour_names[v]))
				break;
		if (v > WCD_FTM_DETOUR_AUTO)
			return cfg_fail(err, errlen, fname, line,
					"ftmesh_detour \"%s\": expected on, off or auto (on with 8 or more virtual channels)",
					val);
		ftm->detour = (uint32_t)v;
		if (sec)
			sec->has_ftm_detour = true;
		break;
	case 5:
		if (parse_num(val, 86400, &v))
			return cfg_fail(err, errlen, fname, line,
					"poll_interval \"%s\": expected 0 (off) to 86400 seconds", val);
		c->poll_interval = (uint32_t)v;
		break;
	case 6:
		if (parse_num(val, 100, &v) || v < 1)
			return cfg_fail(err, errlen, fname, line,
					"retries \"%s\": expected 1 to 100", val);
		c->retries = (uint32_t)v;
		break;
	case 7:
		if (parse_num(val, UINT32_MAX, &v))
			return cfg_fail(err, errlen, fname, line,
					"plans_eager_max \"%s\": expected 0 to %u pairs",
					val, UINT32_MAX);
		c->plans_eager_max = (uint32_t)v;
		break;
	}
	return 0;
}

static int new_section(struct wcd_config *c, char *head, const char *fname,
		       unsigned int line, char *err, size_t errlen)
{
	struct wcd_section *bigger, *s;
	char *pat;
	size_t i;

	if (strncmp(head, "fabric", 6) || !isspace((unsigned char)head[6]))
		return cfg_fail(err, errlen, fname, line,
				"section \"[%s]\": expected [fabric PATTERN]", head);
	pat = trim(head + 6);
	if (!*pat || strpbrk(pat, " \t"))
		return cfg_fail(err, errlen, fname, line,
				"section needs one PATTERN (a device name or fnmatch pattern)");
	if (strlen(pat) >= WCD_MAX_PATTERN)
		return cfg_fail(err, errlen, fname, line,
				"pattern longer than %d characters", WCD_MAX_PATTERN - 1);
	for (i = 0; i < c->nsec; i++)
		if (!strcmp(c->sec[i].pattern, pat))
			return cfg_fail(err, errlen, fname, line,
					"section [fabric %s] already at line %u", pat,
					c->sec[i].line);
	bigger = realloc(c->sec, (c->nsec + 1) * sizeof(*c->sec));
	if (!bigger)
		return cfg_fail(err, errlen, fname, line, "out of memory");
	c->sec = bigger;
	s = &c->sec[c->nsec++];
	memset(s, 0, sizeof(*s));
	snprintf(s->pattern, sizeof(s->pattern), "%s", pat);
	s->line = line;
	return 0;
}

int wcd_config_parse(struct wcd_config *c, const char *text, const char *fname,
		     char *err, size_t errlen)
{
	bool gseen[NKEYS] = { false }, sseen[NKEYS] = { false };
	char *buf = strdup(text), *p, *nl;
	struct wcd_section *sec = NULL;
	unsigned int line = 0;
	size_t i;
	int r = 0;

	wcd_config_init(c);
	if (!buf)
		return cfg_fail(err, errlen, fname, 0, "out of memory");
	for (p = buf; p && r == 0; p = nl) {
		char *l, *eq, *hash;

		line++;
		nl = strchr(p, '\n');
		if (nl)
			*nl++ = '\0';
		hash = strchr(p, '#');
		if (hash)
			*hash = '\0';
		l = trim(p);
		if (!*l)
			continue;
		if (*l == '[') {
			size_t n = strlen(l);

			if (l[n - 1] != ']') {
				r = cfg_fail(err, errlen, fname, line, "section header without ']'");
				break;
			}
			l[n - 1] = '\0';
			r = new_section(c, trim(l + 1), fname, line, err, errlen);
			if (r)
				break;
			sec = &c->sec[c->nsec - 1];
			memset(sseen, 0, sizeof(sseen));
			continue;
		}
		eq = strchr(l, '=');
		if (!eq) {
			r = cfg_fail(err, errlen, fname, line,
				     "expected \"key = value\", \"[fabric PATTERN]\" or a # comment");
			break;
		}
		*eq = '\0';
		if (!*trim(l)) {
			r = cfg_fail(err, errlen, fname, line, "missing key before '='");
			break;
		}
		r = set_key(c, sec, trim(l), trim(eq + 1), sec ? sseen : gseen,
			    fname, line, err, errlen);
	}
	free(buf);
	if (r) {
		wcd_config_free(c);
		return -1;
	}
	/* Sections inherit what they do not set from the global part. */
	for (i = 0; i < c->nsec; i++) {
		struct wcd_section *s = &c->sec[i];

		if (!s->has_pair)
			s->o.rt_pair = c->global.rt_pair;
		if (!s->has_seed)
			s->o.seed = c->global.seed;
		if (!s->has_trials)
			s->o.trials = c->global.trials;
		if (!s->has_ftm_strategy)
			s->ftm.strategy = c->ftm_global.strategy;
		if (!s->has_ftm_detour)
			s->ftm.detour = c->ftm_global.detour;
	}
	return 0;
}

int wcd_config_load(struct wcd_config *c, const char *path, bool must_exist,
		    bool *missing, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *text;
	size_t n;
	int r;

	*missing = false;
	wcd_config_init(c);
	if (!f) {
		if (errno == ENOENT && !must_exist) {
			*missing = true;
			return 0;
		}
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	text = malloc(WCD_MAX_CONFIG_BYTES + 1);
	if (!text) {
		fclose(f);
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	n = fread(text, 1, WCD_MAX_CONFIG_BYTES + 1, f);
	if (ferror(f) || n > WCD_MAX_CONFIG_BYTES) {
		snprintf(err, errlen, "%s: %s", path,
			 ferror(f) ? "read error" : "larger than 1 MiB");
		fclose(f);
		free(text);
		return -1;
	}
	fclose(f);
	text[n] = '\0';
	if (memchr(text, '\0', n)) {
		snprintf(err, errlen, "%s: contains a NUL byte", path);
		free(text);
		return -1;
	}
	r = wcd_config_parse(c, text, path, err, errlen);
	free(text);
	return r;
}

void wcd_config_opts(const struct wcd_config *c, const char *name,
		     struct wc_trees_opts *o, struct wcd_ftm_opts *ftm,
		     const char **section)
{
	size_t i;

	for (i = 0; name && i < c->nsec; i++) {
		if (!fnmatch(c->sec[i].pattern, name, 0)) {
			*o = c->sec[i].o;
			if (ftm)
				*ftm = c->sec[i].ftm;
			if (section)
				*section = c->sec[i].pattern;
			return;
		}
	}
	*o = c->global;
	if (ftm)
		*ftm = c->ftm_global;
	if (section)
		*section = NULL;
}
