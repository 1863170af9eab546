// SPDX-License-Identifier: GPL-2.0
/*
 * The iproute2 plugin's argument parser (tools/iproute2/wc_args.c), fed
 * the words after "ip link add NAME type wormcast" from the fuzz input
 * (NUL-separated, at most 24), with an error buffer of any size.
 *
 * Checked: a refusal leaves a terminated message without a newline; an
 * acceptance is a topology wc_topo_init() takes, a node name pattern that
 * printf turns into a valid interface name for every node, parameters at
 * or above their minimum; written back in canonical form the arguments
 * parse to the same result.  wc_parse_dims() and wc_check_nodename() see
 * every word too.
 */
#include "fuzz.h"
/* clang alone frowns at the parser's "every keyword takes one argument" i++. */
#pragma clang diagnostic ignored "-Wfor-loop-analysis"
#include "../../tools/iproute2/wc_args.c"

#define MAX_WORDS	24

static void check_accepted(const struct wc_link_args *a)
{
	struct wc_topo t;
	char name[64];
	size_t i;

	FUZZ_CHECK(!wc_topo_init(&t, a->topology, a->ndims, a->dims, NULL) &&
		   t.nnodes == a->nnodes, "accepted topology refused by the engine");
	if (a->nodename) {
		int n = snprintf(name, sizeof(name), a->nodename, (int)a->nnodes - 1);

		FUZZ_CHECK(n > 0 && n < IFNAMSIZ && !strchr(name, '/') &&
			   !strchr(name, ':') && !strchr(name, ' '),
			   "nodename \"%s\" gives \"%s\"", a->nodename, name);
	}
	for (i = 0; i < WC_NPARAMS; i++) {
		if (!a->set[i])
			continue;
		if (wc_param_is_keyword(&wc_params[i]))
			FUZZ_CHECK(wc_param_value_name(&wc_params[i], a->val[i]),
				   "%s %u", wc_params[i].name, a->val[i]);
		else
			FUZZ_CHECK(a->val[i] >= wc_params[i].min, "%s %u",
				   wc_params[i].name, a->val[i]);
	}
}

/* Write @a back as words and parse them again. */
static void check_round_trip(const struct wc_link_args *a)
{
	char num[WC_NPARAMS][12], dims[48], *argv[4 + 2 + 2 * WC_NPARAMS];
	struct wc_link_args b;
	char err[256];
	int argc = 0;
	size_t i;

	argv[argc++] = "topology";
	argv[argc++] = (char *)wc_topo_kind_name(a->topology);
	argv[argc++] = (char *)a->dims_word;
	wc_format_u32_list(dims, sizeof(dims), a->dims, a->ndims, 'x');
	argv[argc++] = dims;
	if (a->nodename) {
		argv[argc++] = "nodename";
		argv[argc++] = (char *)a->nodename;
	}
	for (i = WC_NPARAMS; i-- > 0;) {	/* order does not matter */
		if (!a->set[i])
			continue;
		argv[argc++] = (char *)wc_params[i].name;
		if (wc_param_is_keyword(&wc_params[i])) {
			argv[argc++] = (char *)wc_param_value_name(&wc_params[i],
								    a->val[i]);
		} else {
			snprintf(num[i], sizeof(num[i]), "%u", a->val[i]);
			argv[argc++] = num[i];
		}
	}
	FUZZ_CHECK(!wc_link_args_parse(argc, argv, &b, err, sizeof(err)),
		   "canonical form refused: %s", err);
	FUZZ_CHECK(b.topology == a->topology && b.ndims == a->ndims &&
		   !memcmp(b.dims, a->dims, sizeof(b.dims)) &&
		   !strcmp(b.dims_word, a->dims_word) && b.nnodes == a->nnodes &&
		   !memcmp(b.set, a->set, sizeof(b.set)) &&
		   !memcmp(b.val, a->val, sizeof(b.val)) &&
		   !b.nodename == !a->nodename &&
		   (!b.nodename || !strcmp(b.nodename, a->nodename)),
		   "canonical form parses differently");
}

static void check_word(const char *w, uint32_t max_id)
{
	uint32_t dims[WC_MAX_DIMS], ndims = 0, i;
	char err[80], back[64];
	const char *p;

	if (!wc_parse_dims(w, dims, &ndims)) {
		FUZZ_CHECK(ndims >= 1 && ndims <= WC_MAX_DIMS, "%u dims", ndims);
		for (p = w; *p; p++)
			FUZZ_CHECK((*p >= '0' && *p <= '9') || *p == 'x',
				   "dims \"%s\" accepted", w);
		/* Leading zeros aside, the numbers come back. */
		wc_format_u32_list(back, sizeof(back), dims, ndims, 'x');
		for (i = 0, p = w; i < ndims; i++) {
			uint32_t v;
			char num[16];
			size_t len = strcspn(p, "x");

			FUZZ_CHECK(len < sizeof(num), "dims \"%s\"", w);
			memcpy(num, p, len);
			num[len] = '\0';
			FUZZ_CHECK(!wc_parse_u32(num, &v) && v == dims[i],
				   "dims \"%s\" read as %s", w, back);
			p += len + (p[len] == 'x');
		}
		FUZZ_CHECK(!*p, "dims \"%s\": words left", w);
	}
	if (!wc_check_nodename(w, max_id, err, sizeof(err))) {
		int n = snprintf(back, sizeof(back), w, (int)max_id);

		FUZZ_CHECK(n > 0 && n < IFNAMSIZ, "nodename \"%s\" gives \"%s\"",
			   w, back);
	} else {
		fz_check_errmsg(err, sizeof(err), strchr(w, '\n'));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz f = { data, size };
	size_t errlen = fz_u8(&f);
	uint32_t max_id = fz_u16(&f) % WC_MAX_NODES;
	struct wc_link_args a;
	char **argv, *err;
	int argc, ret, i;

	argv = fz_argv(&f, NULL, MAX_WORDS, &argc);
	err = fz_errbuf(errlen);
	ret = wc_link_args_parse(argc, argv, &a, err, errlen);
	FUZZ_CHECK(ret >= -1 && ret <= 1, "returned %d", ret);
	if (ret < 0)
		fz_check_errmsg(err, errlen, fz_argv_has_nl(argv, argc));
	else if (ret == 0)
		check_accepted(&a);
	if (ret == 0)
		check_round_trip(&a);
	for (i = 0; i < argc; i++)
		check_word(argv[i], max_id);
	free(err);
	fz_argv_free(argv, argc);
	return 0;
}
