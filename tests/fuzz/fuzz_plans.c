// SPDX-License-Identifier: GPL-2.0
/*
 * Plans tables as TABLE_COMMIT hands them to the kernel
 * (kmod/engine/plans.c: wc_plan_set_build()), checked against the ocms
 * labels of a 4x4 mesh (the snake): hostile bytes from userspace.  A
 * refusal must name its reason and leave nothing allocated (ASan's leak
 * check); what is accepted is checked here independently: every plan is
 * found by its (source, group), its layout is its worms in labels, each
 * worm non-empty and label-monotone away from the source, no destination
 * twice nor the source, and the plan matches exactly its destinations.
 *
 * Input: byte 0 bit 0 picks raw mode (a 16-bit length, then the table)
 * or structured mode (up to 4 plans, each source, group byte, worm count
 * and worms of node bytes, all drawn from the input so that the
 * validator's later checks and acceptance are reached).
 */
#include <linux/wormcast.h>

#include "fuzz.h"
#include "plans.h"

#define MAX_BYTES	1024

static struct wc_topo topo;
static struct wc_label_set ls;

static int setup(void)
{
	static const u32 dims[2] = { 4, 4 };
	u32 buf[4 + 16], x, y;
	struct wormcast_labels *h = (struct wormcast_labels *)buf;

	if (ls.nnodes)
		return 0;
	if (wc_topo_init(&topo, WC_TOPO_MESH, 2, dims, NULL))
		return -1;
	memset(buf, 0, sizeof(buf));
	h->scheme = WORMCAST_MCAST_OCMS;
	h->nnodes = 16;
	for (y = 0; y < 4; y++)
		for (x = 0; x < 4; x++)
			h->label[x + 4 * y] = 4 * y + (y % 2 ? 3 - x : x);
	return wc_label_set_build(&ls, &topo, buf, sizeof(buf), NULL);
}

static void check_set(const struct wc_plan_set *ps)
{
	u32 i, k, pos, w, words[1 + 2 * 16], map[1];

	for (i = 0; i < ps->nplans; i++) {
		const struct wc_plan *p = &ps->plans[i];
		u32 own = ls.label[p->src], used, seen = 0;

		FUZZ_CHECK(wc_plan_find(ps, p->src, p->addr) == p, "plan %u not found", i);
		used = wc_plan_layout(ps, p, words, 1 + 2 * 16);
		FUZZ_CHECK(used && words[0] == used && used == 1 + p->nworms + p->ndsts,
			   "plan %u: layout of %u words", i, used);
		for (w = 0, pos = 1; w < p->nworms; w++) {
			u32 len = words[pos++], prev = own;
			bool up = words[pos] > own;

			FUZZ_CHECK(len && pos + len <= used, "plan %u: worm %u", i, w);
			for (k = 0; k < len; k++, pos++) {
				u32 l = words[pos];

				FUZZ_CHECK(l < 16 && l != own && !(seen & BIT(l)),
					   "plan %u: label %u", i, l);
				FUZZ_CHECK(up ? l > prev : l < prev,
					   "plan %u: worm %u not monotone", i, w);
				seen |= BIT(l);
				prev = l;
			}
		}
		FUZZ_CHECK(pos == used, "plan %u: layout length", i);
		map[0] = 0;
		for (k = 0; k < p->ndsts; k++)
			map[0] |= BIT(ps->dsts[p->dsts + k]);
		FUZZ_CHECK(wc_plan_matches(ps, p, map, p->ndsts),
			   "plan %u does not match its own destinations", i);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz f = { data, size };
	u32 buf[MAX_BYTES / 4];
	struct wormcast_plans *h = (struct wormcast_plans *)buf;
	struct wc_plan_set ps;
	const char *why = NULL;
	size_t len = 0, i;
	int err;

	if (setup())
		return 0;
	memset(buf, 0, sizeof(buf));
	if (fz_u8(&f) & 1) {
		len = fz_u16(&f) % (MAX_BYTES + 1);
		for (i = 0; i < len; i++)
			((u8 *)buf)[i] = fz_u8(&f);
	} else {
		u32 np = fz_u8(&f) % 5, p, w, k;

		h->nnodes = 16;
		h->nplans = np;
		len = sizeof(*h);
		for (p = 0; p < np; p++) {
			struct wormcast_plan *ph = (void *)((u8 *)buf + len);
			u32 *words = (u32 *)(ph + 1), nw = 0;

			if (len + sizeof(*ph) + 4 * 40 > MAX_BYTES)
				break;
			ph->addr[0] = 0x01;
			ph->addr[5] = fz_u8(&f) % 3;
			ph->src = fz_u8(&f) % 17;
			ph->nworms = fz_u8(&f) % 5;
			for (w = 0; w < ph->nworms; w++) {
				u32 n = fz_u8(&f) % 5;

				words[nw++] = n;
				for (k = 0; k < n; k++)
					words[nw++] = fz_u8(&f) % 17;
			}
			ph->nwords = nw;
			len += sizeof(*ph) + 4 * nw;
		}
	}
	err = wc_plan_set_build(&ps, &topo, &ls, buf, len, &why);
	if (err) {
		FUZZ_CHECK(err == -EINVAL || err == -ENOMEM, "error %d", err);
		FUZZ_CHECK(why && *why, "refused without a reason");
		return 0;
	}
	check_set(&ps);
	wc_plan_set_free(&ps);
	return 0;
}
