// SPDX-License-Identifier: GPL-2.0
/*
 * wormctl fault add | del | show | random, and wormctl monitor: FAULT_ADD,
 * FAULT_DEL, FAULT_GET (dump, decoded by fabric.c) and the "events" group
 * of the wormcast generic netlink family (Documentation/faults.rst, "Live
 * faults").
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <net/if.h>
#include <linux/genetlink.h>

#include "commands.h"
#include "fabric.h"
#include "names.h"
#include "nl.h"

/* ------------------------------------------------------------ add, del */

/* FAULT_ADD or FAULT_DEL of one fault on the fabric of @ifindex. */
static int fault_send(struct wc_nl *nl, uint32_t ifindex, bool del, bool node,
		      uint32_t a, uint32_t b, const char *what)
{
	struct nlmsghdr *nlh;
	struct nlattr *nest;

	nlh = wc_nl_request(nl, del ? WORMCAST_CMD_FAULT_DEL :
				      WORMCAST_CMD_FAULT_ADD, NLM_F_ACK);
	mnl_attr_put_u32(nlh, WORMCAST_A_FABRIC_IFINDEX, ifindex);
	nest = mnl_attr_nest_start(nlh, WORMCAST_A_FAULT);
	mnl_attr_put_u32(nlh, WORMCAST_FAULT_KIND,
			 node ? WORMCAST_FAULT_KIND_NODE :
				WORMCAST_FAULT_KIND_LINK);
	mnl_attr_put_u32(nlh, WORMCAST_FAULT_NODE, a);
	if (!node)
		mnl_attr_put_u32(nlh, WORMCAST_FAULT_PEER, b);
	mnl_attr_nest_end(nlh, nest);
	return wc_nl_talk(nl, nlh, NULL, NULL, what);
}

int cmd_fault_change(const struct wormctl_cmdline *c)
{
	struct wc_nl nl;
	uint32_t ifindex;
	int r;

	ifindex = wc_dev_ifindex(c->dev);
	if (!ifindex || wc_nl_open(&nl))
		return 1;
	r = fault_send(&nl, ifindex, c->fault_del, c->fault_node, c->fault_a,
		       c->fault_b, c->fault_del ? "fault del" : "fault add");
	wc_nl_close(&nl);
	return r ? 1 : 0;
}

/* ------------------------------------------------------------ show */

int cmd_fault_show(const struct wormctl_cmdline *c)
{
	struct wc_fabric_info f;
	struct out o;
	uint32_t i;

	if (wc_fabric_query_one(WORMCAST_CMD_FAULT_GET, c->dev, "fault show",
				&f))
		return 1;
	out_init(&o, stdout, c->opts.json, c->opts.pretty);
	if (o.json) {
		json_open_array(&o, NULL);
		for (i = 0; i < f.nfaults; i++) {
			json_open_object(&o, NULL);
			json_string(&o, "kind", f.faults[i].node ? "node" : "link");
			json_u64(&o, "node", f.faults[i].a);
			if (!f.faults[i].node)
				json_u64(&o, "peer", f.faults[i].b);
			json_close_object(&o);
		}
		json_close_array(&o);
	} else {
		for (i = 0; i < f.nfaults; i++) {
			if (f.faults[i].node)
				printf("node %u\n", f.faults[i].a);
			else
				printf("link %u %u\n", f.faults[i].a,
				       f.faults[i].b);
		}
	}
	wc_fabric_free(&f);
	return 0;
}

/* ------------------------------------------------------------ random */

/* One fault of the random process and when it is repaired. */
struct rfault {
	bool node;
	uint32_t a, b;
	double repair_ms;
};

static uint64_t xorshift64(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Uniform in (0, 1]. */
static double uniform(uint64_t *s)
{
	return ((xorshift64(s) >> 11) + 1) * (1.0 / 9007199254740992.0);
}

/* Exponentially distributed with mean @mean. */
static double expo(uint64_t *s, double mean)
{
	return -mean * log(uniform(s));
}

static double now_ms(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1e3 + (t.tv_nsec - t0->tv_nsec) / 1e6;
}

static void sleep_until_ms(const struct timespec *t0, double ms)
{
	struct timespec t = *t0;
	long long ns = (long long)(ms * 1e6);

	t.tv_sec += ns / 1000000000;
	t.tv_nsec += ns % 1000000000;
	if (t.tv_nsec >= 1000000000) {
		t.tv_sec++;
		t.tv_nsec -= 1000000000;
	}
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL) ==
	       EINTR)
		;
}

static bool rfault_has(const struct rfault *v, uint32_t n, bool node,
		       uint32_t a, uint32_t b)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		if (v[i].node == node && v[i].a == a && (node || v[i].b == b))
			return true;
	return false;
}

/* Draw a fault not yet in @v: false if the draw hit one (skipped). */
static bool rfault_draw(const struct wc_topo *t, uint32_t kinds,
			uint64_t *s, const struct rfault *v, uint32_t n,
			struct rfault *out)
{
	uint32_t a = (uint32_t)(xorshift64(s) % t->nnodes), port, b;
	bool node = kinds == WC_FAULTS_NODES ||
		    (kinds == WC_FAULTS_ANY && xorshift64(s) % 2);

	if (node) {
		*out = (struct rfault){ true, a, 0, 0 };
		return !rfault_has(v, n, true, a, 0);
	}
	port = (uint32_t)(xorshift64(s) % t->nports);
	b = wc_topo_neighbor(t, a, port);
	if (b == WC_NO_NODE || b == a)
		return false;
	if (a > b) {
		uint32_t x = a;

		a = b;
		b = x;
	}
	*out = (struct rfault){ false, a, b, 0 };
	return !rfault_has(v, n, false, a, b);
}

static void rfault_print(double ms, bool del, const struct rfault *f)
{
	if (f->node)
		printf("%.1f ms: %s node %u\n", ms, del ? "del" : "add", f->a);
	else
		printf("%.1f ms: %s link %u %u\n", ms, del ? "del" : "add",
		       f->a, f->b);
	fflush(stdout);
}

/*
 * Failures arrive as a Poisson process of mean interval --mtbf; each
 * fault is repaired after an exponential time of mean --mttr.  At the end
 * every fault still installed is repaired, so the fabric is left as found.
 * A fault someone else installed meanwhile (EEXIST, ENOENT) is reported
 * and skipped.
 */
int cmd_fault_random(const struct wormctl_cmdline *c)
{
	struct wc_fabric_info f;
	struct rfault *v = NULL, nf;
	double end_ms, next_fail, t, soonest;
	uint32_t n = 0, cap = 0, i, j, adds = 0, dels = 0;
	uint64_t s = c->seed * 2654435761u + 1;
	struct timespec t0;
	struct wc_topo topo;
	struct wc_nl nl;
	uint32_t ifindex;
	int status = 1, r;

	if (wc_fabric_query_one(WORMCAST_CMD_FAULT_GET, c->dev, "fault random",
				&f))
		return 1;
	ifindex = wc_dev_ifindex(c->dev);
	if (wc_topo_init(&topo, f.topology, f.ndims, f.dims, NULL)) {
		fprintf(stderr, "wormctl: fault random: unknown topology\n");
		wc_fabric_free(&f);
		return 1;
	}
	if (f.nfaults)
		fprintf(stderr,
			"wormctl: fault random: %u faults already installed, left alone\n",
			f.nfaults);
	if (wc_nl_open(&nl)) {
		wc_fabric_free(&f);
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	end_ms = c->duration_s * 1e3;
	next_fail = expo(&s, c->mtbf_ms);
	for (;;) {
		/* the next event: a failure, a repair, or the end */
		soonest = next_fail;
		j = n;
		for (i = 0; i < n; i++)
			if (v[i].repair_ms < soonest) {
				soonest = v[i].repair_ms;
				j = i;
			}
		if (soonest >= end_ms)
			break;
		sleep_until_ms(&t0, soonest);
		t = now_ms(&t0);
		if (j < n) {
			r = fault_send(&nl, ifindex, true, v[j].node, v[j].a,
				       v[j].b, "fault random: del");
			if (r && r != -ENOENT)
				goto out;
			rfault_print(t, true, &v[j]);
			dels += !r;
			v[j] = v[--n];
			continue;
		}
		next_fail += expo(&s, c->mtbf_ms);
		if (!rfault_draw(&topo, c->fault_kinds, &s, v, n, &nf))
			continue;	/* already failed: this arrival is lost */
		r = fault_send(&nl, ifindex, false, nf.node, nf.a, nf.b,
			       "fault random: add");
		if (r && r != -EEXIST)
			goto out;
		if (r)
			continue;
		rfault_print(t, false, &nf);
		adds++;
		if (n == cap) {
			struct rfault *w;

			cap = cap ? 2 * cap : 16;
			w = realloc(v, cap * sizeof(*v));
			if (!w) {
				fprintf(stderr, "wormctl: fault random: out of memory\n");
				goto out;
			}
			v = w;
		}
		nf.repair_ms = soonest + expo(&s, c->mttr_ms);
		v[n++] = nf;
	}
	sleep_until_ms(&t0, end_ms);
	status = 0;
out:
	/* leave the fabric as found: repair what is still failed */
	for (i = 0; i < n; i++) {
		r = fault_send(&nl, ifindex, true, v[i].node, v[i].a,
			       v[i].b, "fault random: del");
		if (r && r != -ENOENT)
			status = 1;
		if (!r) {
			rfault_print(now_ms(&t0), true, &v[i]);
			dels++;
		}
	}
	printf("%u faults added, %u repaired, seed %llu\n", adds, dels,
	       (unsigned long long)c->seed);
	free(v);
	wc_nl_close(&nl);
	wc_fabric_free(&f);
	return status;
}

/* ------------------------------------------------------------ monitor */

static const char *const event_names[] = {
	[WORMCAST_CMD_FABRIC_NEW] = "fabric new",
	[WORMCAST_CMD_FABRIC_DEL] = "fabric del",
	[WORMCAST_CMD_FABRIC_SET] = "fabric set",
	[WORMCAST_CMD_TABLE_COMMIT] = "table commit",
	[WORMCAST_CMD_FAULT_ADD] = "fault add",
	[WORMCAST_CMD_FAULT_DEL] = "fault del",
	[WORMCAST_CMD_GROUPS_GET] = "groups change",
};

/*
 * One notification: "EVENT fabric ID [NAME] [link A B | node N]
 * [generation G]" (G: the membership generation of "groups change").
 */
static int monitor_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct genlmsghdr *g = mnl_nlmsg_get_payload(nlh);
	struct wc_fabric_info *f = data;
	uint8_t cmd = g->cmd;

	(void)wc_fabric_decode_msg(nlh, f);
	if (cmd < sizeof(event_names) / sizeof(event_names[0]) &&
	    event_names[cmd])
		printf("%s", event_names[cmd]);
	else
		printf("event %u", cmd);
	printf(" fabric %u", f->id);
	if (f->name[0])
		printf(" %s", f->name);
	if (f->nfaults && f->faults[0].node)
		printf(" node %u", f->faults[0].a);
	else if (f->nfaults)
		printf(" link %u %u", f->faults[0].a, f->faults[0].b);
	if (f->has_groups_gen)
		printf(" generation %u", f->groups_gen);
	printf("\n");
	fflush(stdout);
	wc_fabric_free(f);
	memset(f, 0, sizeof(*f));
	return MNL_CB_OK;
}

int cmd_monitor(const struct wormctl_cmdline *c)
{
	struct wc_fabric_info f = { 0 };
	char *buf;
	struct wc_nl nl;
	ssize_t len;
	int r = 1;

	(void)c;
	if (wc_nl_open(&nl))
		return 1;
	if (!nl.events_grp) {
		fprintf(stderr, "wormctl: monitor: no \"%s\" group\n",
			WORMCAST_GENL_MCGRP_EVENTS);
		goto out;
	}
	if (mnl_socket_setsockopt(nl.sk, NETLINK_ADD_MEMBERSHIP,
				  &nl.events_grp, sizeof(nl.events_grp)) < 0) {
		fprintf(stderr, "wormctl: monitor: %s\n", strerror(errno));
		goto out;
	}
	buf = malloc(MNL_SOCKET_BUFFER_SIZE * 4);
	if (!buf)
		goto out;
	for (;;) {
		len = mnl_socket_recvfrom(nl.sk, buf, MNL_SOCKET_BUFFER_SIZE * 4);
		if (len < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "wormctl: monitor: %s\n",
				strerror(errno));
			break;
		}
		if (mnl_cb_run(buf, (size_t)len, 0, 0, monitor_cb, &f) ==
		    MNL_CB_ERROR)
			break;
	}
	free(buf);
out:
	wc_nl_close(&nl);
	return r;
}
