// SPDX-License-Identifier: GPL-2.0
/*
 * link_wormcast.so: the iproute2 link plugin of kind "wormcast".
 *
 * Debian's ip (iproute2 6.1) dlopens $IP_LIB_DIR/link_wormcast.so (default
 * /usr/lib/ip) and looks up "wormcast_link_util".  It is built against the
 * headers of the iproute2 installed here (ip/ip_common.h for struct
 * link_util and struct iplink_req, include/json_print.h and
 * include/color.h for the printers and COLOR_NONE), taken from Debian's
 * source package of that version by tools/iproute2/fetch-source.sh
 * (Documentation/tools.rst, "Binary compatibility with ip").  It calls only
 * functions /sbin/ip exports.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/wormcast.h>

#include "utils.h"
#include "ip_common.h"

#include "wc_args.h"

/*
 * The room parse_opt() may fill: the attribute buffer of iplink.c's
 * request (iproute2's own link plugins pass the same 1024).
 */
#define IP_REQ_MAXLEN ((int)sizeof(((struct iplink_req *)0)->buf))

/* The iproute2 version whose headers this was built against. */
const char wormcast_iproute2_headers[] = "iproute2 headers " WC_IPROUTE2_VERSION;

/* ---- plugin ---- */

static void wc_print_usage(FILE *f)
{
	fputs(wc_link_usage, f);
}

static int wc_parse_opt(struct link_util *lu, int argc, char **argv,
			struct nlmsghdr *n)
{
	struct wc_link_args a;
	char err[256];
	size_t i;
	int r;

	r = wc_link_args_parse(argc, argv, &a, err, sizeof(err));
	if (r == 1) {
		wc_print_usage(stderr);
		return -1;
	}
	if (r < 0) {
		fprintf(stderr, "Error: wormcast: %s.\n\n", err);
		wc_print_usage(stderr);
		return -1;
	}

	if (addattr32(n, IP_REQ_MAXLEN, IFLA_WORMCAST_TOPOLOGY, a.topology) ||
	    addattr_l(n, IP_REQ_MAXLEN, IFLA_WORMCAST_DIMS, a.dims,
		      (int)(a.ndims * sizeof(a.dims[0]))))
		return -1;
	if (a.nodename &&
	    addattr_l(n, IP_REQ_MAXLEN, IFLA_WORMCAST_NODE_NAME, a.nodename,
		      (int)strlen(a.nodename) + 1))
		return -1;
	for (i = 0; i < WC_NPARAMS; i++) {
		if (!a.set[i])
			continue;
		if (wc_param_is_u8(&wc_params[i]))
			r = addattr8(n, IP_REQ_MAXLEN, wc_params[i].ifla,
				     (uint8_t)a.val[i]);
		else
			r = addattr32(n, IP_REQ_MAXLEN, wc_params[i].ifla,
				      a.val[i]);
		if (r)
			return -1;
	}
	return 0;
}

/* Value of a u32 attribute, false if absent or malformed. */
static bool wc_attr_u32(struct rtattr *tb[], int type, uint32_t *v)
{
	if (!tb[type] || RTA_PAYLOAD(tb[type]) < sizeof(uint32_t))
		return false;
	memcpy(v, RTA_DATA(tb[type]), sizeof(*v));
	return true;
}

static bool wc_attr_u8(struct rtattr *tb[], int type, uint32_t *v)
{
	if (!tb[type] || RTA_PAYLOAD(tb[type]) < sizeof(uint8_t))
		return false;
	*v = *(uint8_t *)RTA_DATA(tb[type]);
	return true;
}

static void print_u32(const char *key, uint32_t v)
{
	char fmt[48];

	snprintf(fmt, sizeof(fmt), "%s %%llu ", key);
	print_color_u64(PRINT_ANY, COLOR_NONE, key, fmt, v);
}

/*
 * A u32 array attribute: "key 4x4 " (or "key 1,2 ") in text, a JSON array
 * of numbers under @key.
 */
static void print_u32_array(struct rtattr *rta, const char *key, char sep)
{
	uint32_t v[WC_MAX_COORDS];
	uint32_t n, i;
	char buf[WC_MAX_COORDS * 12];
	char text[sizeof(buf) + 16];

	if (!rta)
		return;
	n = RTA_PAYLOAD(rta) / sizeof(uint32_t);
	if (n > WC_MAX_COORDS)
		n = WC_MAX_COORDS;
	memcpy(v, RTA_DATA(rta), n * sizeof(uint32_t));

	open_json_array(PRINT_JSON, key);
	for (i = 0; i < n; i++)
		print_color_u64(PRINT_JSON, COLOR_NONE, NULL, "%llu", v[i]);
	close_json_array(PRINT_JSON, NULL);

	wc_format_u32_list(buf, sizeof(buf), v, n, sep);
	snprintf(text, sizeof(text), "%s %s ", key, buf);
	print_color_string(PRINT_FP, COLOR_NONE, NULL, "%s", text);
}

static void wc_print_opt(struct link_util *lu, FILE *f, struct rtattr *tb[])
{
	const char *name;
	uint32_t v;
	size_t i;

	if (!tb)
		return;
	if (wc_attr_u8(tb, IFLA_WORMCAST_ROLE, &v))
		print_color_string(PRINT_JSON, COLOR_NONE, "role", NULL,
				   v == WORMCAST_ROLE_NODE ? "node" : "fabric");
	if (wc_attr_u32(tb, IFLA_WORMCAST_FABRIC_ID, &v))
		print_u32("fabric", v);
	if (wc_attr_u32(tb, IFLA_WORMCAST_TOPOLOGY, &v))
		print_color_string(PRINT_ANY, COLOR_NONE, "topology",
				   "topology %s ", wc_topo_kind_name(v));
	print_u32_array(tb[IFLA_WORMCAST_DIMS], "dims", 'x');
	if (wc_attr_u32(tb, IFLA_WORMCAST_NNODES, &v))
		print_u32("nodes", v);
	if (wc_attr_u32(tb, IFLA_WORMCAST_NODE_ID, &v))
		print_u32("node", v);
	print_u32_array(tb[IFLA_WORMCAST_COORDS], "coords", ',');
	if (wc_attr_u32(tb, IFLA_WORMCAST_FABRIC_IFINDEX, &v))
		print_color_u64(PRINT_JSON, COLOR_NONE, "fabric_ifindex",
				NULL, v);
	if (tb[IFLA_WORMCAST_NODE_NAME] &&
	    RTA_PAYLOAD(tb[IFLA_WORMCAST_NODE_NAME]) > 0) {
		char pattern[IFNAMSIZ + 1];
		size_t len = RTA_PAYLOAD(tb[IFLA_WORMCAST_NODE_NAME]);

		if (len > IFNAMSIZ)
			len = IFNAMSIZ;
		memcpy(pattern, RTA_DATA(tb[IFLA_WORMCAST_NODE_NAME]), len);
		pattern[len] = '\0';
		print_color_string(PRINT_ANY, COLOR_NONE, "nodename",
				   "nodename %s ", pattern);
	}
	for (i = 0; i < WC_NPARAMS; i++) {
		if (wc_param_is_u8(&wc_params[i])) {
			if (!wc_attr_u8(tb, wc_params[i].ifla, &v))
				continue;
		} else if (!wc_attr_u32(tb, wc_params[i].ifla, &v)) {
			continue;
		}
		name = wc_param_value_name(&wc_params[i], v);
		if (name) {
			char fmt[48];

			snprintf(fmt, sizeof(fmt), "%s %%s ", wc_params[i].name);
			print_color_string(PRINT_ANY, COLOR_NONE,
					   wc_params[i].name, fmt, name);
			continue;
		}
		print_u32(wc_params[i].name, v);
	}
}

static void wc_print_help(struct link_util *lu, int argc, char **argv,
			  FILE *f)
{
	wc_print_usage(f);
}

struct link_util wormcast_link_util = {
	.id = WORMCAST_KIND,
	.maxattr = IFLA_WORMCAST_MAX,
	.parse_opt = wc_parse_opt,
	.print_opt = wc_print_opt,
	.print_help = wc_print_help,
};
