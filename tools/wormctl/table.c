// SPDX-License-Identifier: GPL-2.0
/*
 * wormctl table show: the bytes of an installed table put back together
 * from a TABLE_GET dump, struct wormcast_trees, wormcast_labels,
 * wormcast_plans, wormcast_bcast or wormcast_ftmesh decoded, and its
 * display as
 * text or JSON.  No netlink here (fabric.c talks to the kernel), so that
 * the unit test can feed hand-built tables and pieces.
 */
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../common/wc_util.h"
#include "mcast_names.h"
#include "fabric.h"

int wc_table_bytes_init(struct wc_table_bytes *b, const struct wc_table_info *t)
{
	memset(b, 0, sizeof(*b));
	b->want = *t;
	if (!t->size || t->size > WORMCAST_TABLE_MAX_BYTES)
		return wc_fail(b->err, sizeof(b->err),
			       "table of %u bytes: the kernel allows 1 to %u",
			       t->size, WORMCAST_TABLE_MAX_BYTES);
	b->buf = malloc(t->size);
	if (!b->buf)
		return wc_fail(b->err, sizeof(b->err), "out of memory");
	return 0;
}

int wc_table_bytes_add(struct wc_table_bytes *b, uint32_t kind, uint32_t gen,
		       uint32_t offset, const void *data, uint32_t len)
{
	if (!b->buf)
		return wc_fail(b->err, sizeof(b->err), "no table being read");
	if (kind != b->want.kind)
		return wc_fail(b->err, sizeof(b->err),
			       "dump of table kind %u carries kind %u",
			       b->want.kind, kind);
	if (gen != b->want.gen) {
		b->replaced = true;
		return wc_fail(b->err, sizeof(b->err),
			       "table replaced while being read (generation %u, then %u): try again",
			       b->want.gen, gen);
	}
	if (offset != b->len)
		return wc_fail(b->err, sizeof(b->err),
			       "table bytes not contiguous: piece at offset %u, expected %u",
			       offset, b->len);
	if (len > b->want.size - b->len)
		return wc_fail(b->err, sizeof(b->err),
			       "table bytes past its size: %u + %u > %u",
			       offset, len, b->want.size);
	memcpy(b->buf + b->len, data, len);
	b->len += len;
	return 0;
}

int wc_table_bytes_done(struct wc_table_bytes *b)
{
	if (b->len != b->want.size)
		return wc_fail(b->err, sizeof(b->err),
			       "table truncated: %u of %u bytes received",
			       b->len, b->want.size);
	return 0;
}

void wc_table_bytes_free(struct wc_table_bytes *b)
{
	free(b->buf);
	b->buf = NULL;
	b->len = 0;
}

int wc_trees_decode(const void *buf, size_t len, struct wc_table_view *v,
		    char *err, size_t errlen)
{
	const size_t hdr = sizeof(struct wormcast_trees);
	struct wormcast_trees t;
	uint64_t want;
	uint32_t i;

	memset(v, 0, sizeof(*v));
	if (len < hdr)
		return wc_fail(err, errlen,
			       "trees table truncated: %zu bytes, the header alone is %zu",
			       len, hdr);
	memcpy(&t, buf, hdr);
	if (t.ntrees < 1 || t.ntrees > WORMCAST_MAX_TREES)
		return wc_fail(err, errlen,
			       "trees table: ntrees %u, expected 1 to %u",
			       t.ntrees, WORMCAST_MAX_TREES);
	if (!t.nnodes)
		return wc_fail(err, errlen, "trees table: nnodes 0");
	if (t.nfaults > WORMCAST_TREES_MAX_FAULTS)
		return wc_fail(err, errlen,
			       "trees table: %u faulty links, at most %u",
			       t.nfaults, WORMCAST_TREES_MAX_FAULTS);
	want = hdr + (uint64_t)t.ntrees * t.nnodes +
	       (uint64_t)t.nfaults * sizeof(struct wormcast_trees_fault);
	if (len != want)
		return wc_fail(err, errlen,
			       "trees table %s: %zu bytes, %" PRIu64
			       " for %u trees of %u nodes and %u faulty links",
			       len < want ? "truncated" : "has trailing bytes",
			       len, want, t.ntrees, t.nnodes, t.nfaults);
	for (i = 0; i < t.ntrees; i++)
		if (t.root[i] >= t.nnodes)
			return wc_fail(err, errlen,
				       "trees table: tree %u's root %u is not one of the %u nodes",
				       i, t.root[i], t.nnodes);
	v->kind = WORMCAST_TABLE_TREES;
	v->scheme = t.scheme;
	v->nnodes = t.nnodes;
	v->ntrees = t.ntrees;
	memcpy(v->root, t.root, sizeof(v->root));
	v->parent_port = (const uint8_t *)buf + hdr;
	v->nfaults = t.nfaults;
	v->faults = v->parent_port + (size_t)t.ntrees * t.nnodes;
	return 0;
}

int wc_labels_decode(const void *buf, size_t len, struct wc_table_view *v,
		     char *err, size_t errlen)
{
	const size_t hdr = sizeof(struct wormcast_labels);
	struct wormcast_labels l;
	uint64_t want;

	memset(v, 0, sizeof(*v));
	if (len < hdr)
		return wc_fail(err, errlen,
			       "labels table truncated: %zu bytes, the header alone is %zu",
			       len, hdr);
	memcpy(&l, buf, hdr);
	if (!l.nnodes)
		return wc_fail(err, errlen, "labels table: nnodes 0");
	if (l.nfaults > WORMCAST_TREES_MAX_FAULTS)
		return wc_fail(err, errlen,
			       "labels table: %u faulty links, at most %u",
			       l.nfaults, WORMCAST_TREES_MAX_FAULTS);
	want = hdr + (uint64_t)l.nnodes * sizeof(uint32_t) +
	       (uint64_t)l.nfaults * sizeof(struct wormcast_trees_fault);
	if (len != want)
		return wc_fail(err, errlen,
			       "labels table %s: %zu bytes, %" PRIu64
			       " for %u nodes and %u faulty links",
			       len < want ? "truncated" : "has trailing bytes",
			       len, want, l.nnodes, l.nfaults);
	v->kind = WORMCAST_TABLE_LABELS;
	v->scheme = l.scheme;
	v->nnodes = l.nnodes;
	v->label = (const uint32_t *)((const uint8_t *)buf + hdr);
	v->nfaults = l.nfaults;
	v->faults = (const uint8_t *)(v->label + l.nnodes);
	return 0;
}

/* The header of struct wormcast_plans; the plans are walked when shown. */
static int wc_plans_decode(const void *buf, size_t len, struct wc_table_view *v,
			   char *err, size_t errlen)
{
	const size_t hdr = sizeof(struct wormcast_plans);
	struct wormcast_plans p;

	memset(v, 0, sizeof(*v));
	if (len < hdr)
		return wc_fail(err, errlen,
			       "plans table truncated: %zu bytes, the header alone is %zu",
			       len, hdr);
	memcpy(&p, buf, hdr);
	v->kind = WORMCAST_TABLE_PLANS;
	v->scheme = p.scheme;		/* 0: ocms/otms */
	v->nnodes = p.nnodes;
	v->nplans = p.nplans;
	v->plans = (const uint8_t *)buf + hdr;
	v->plans_len = len - hdr;
	return 0;
}

/* struct wormcast_bcast (@buf 4-byte aligned): the header, nsends sends. */
static int wc_bcast_decode(const void *buf, size_t len, struct wc_table_view *v,
			   char *err, size_t errlen)
{
	const size_t hdr = sizeof(struct wormcast_bcast);
	struct wormcast_bcast b;
	uint64_t want;

	memset(v, 0, sizeof(*v));
	if (len < hdr)
		return wc_fail(err, errlen,
			       "bcast table truncated: %zu bytes, the header alone is %zu",
			       len, hdr);
	memcpy(&b, buf, hdr);
	want = hdr + (uint64_t)b.nsends * sizeof(struct wormcast_bcast_send);
	if (len != want)
		return wc_fail(err, errlen,
			       "bcast table %s: %zu bytes, %" PRIu64 " for %u unicasts",
			       len < want ? "truncated" : "has trailing bytes",
			       len, want, b.nsends);
	v->kind = WORMCAST_TABLE_BCAST;
	v->scheme = b.scheme;
	v->nnodes = b.nnodes;
	v->nsends = b.nsends;
	v->sends = (const void *)((const uint8_t *)buf + hdr);
	return 0;
}

/*
 * struct wormcast_ftmesh (@buf 8-byte aligned, as the dump's bytes are):
 * the sizes, and record offsets that never decrease and end at nrecs so
 * that every node's records can be shown.  The rest is the kernel's to
 * check (it did, at commit).
 */
static int wc_ftmesh_decode(const void *buf, size_t len, struct wc_table_view *v,
			    char *err, size_t errlen)
{
	const size_t hdr = sizeof(struct wormcast_ftmesh);
	const uint8_t *p = buf;
	struct wormcast_ftmesh f;
	uint64_t want, noff, i;

	memset(v, 0, sizeof(*v));
	if (len < hdr)
		return wc_fail(err, errlen,
			       "ftmesh table truncated: %zu bytes, the header alone is %zu",
			       len, hdr);
	memcpy(&f, buf, hdr);
	noff = (uint64_t)WORMCAST_FTMESH_SUBNETS * f.nnodes + 1;
	want = hdr + (uint64_t)f.nblocks * sizeof(struct wormcast_ftmesh_block) +
	       (uint64_t)f.nnodes * sizeof(struct wormcast_ftmesh_safety) +
	       noff * sizeof(uint32_t) +
	       (uint64_t)f.nrecs * sizeof(struct wormcast_ftmesh_rec);
	if (len != want)
		return wc_fail(err, errlen,
			       "ftmesh table %s: %zu bytes, %" PRIu64 " for %u nodes, %u blocks and %u records",
			       len < want ? "truncated" : "has trailing bytes",
			       len, want, f.nnodes, f.nblocks, f.nrecs);
	v->kind = WORMCAST_TABLE_FTMESH;
	v->scheme = WORMCAST_MCAST_FTMESH;
	v->nnodes = f.nnodes;
	v->strategy = f.strategy;
	v->flags = f.flags;
	v->seed = f.seed;
	v->nblocks = f.nblocks;
	v->nrecs = f.nrecs;
	p += hdr;
	v->blocks = (const void *)p;
	p += (size_t)f.nblocks * sizeof(*v->blocks);
	v->safety = (const void *)p;
	p += (size_t)f.nnodes * sizeof(*v->safety);
	v->rec_off = (const void *)p;
	p += noff * sizeof(uint32_t);
	v->recs = (const void *)p;
	for (i = 0; i + 1 < noff; i++)
		if (v->rec_off[i + 1] < v->rec_off[i])
			break;
	if (v->rec_off[0] || i + 1 < noff || v->rec_off[noff - 1] != f.nrecs)
		return wc_fail(err, errlen,
			       "ftmesh table record offsets do not go from 0 up to %u",
			       f.nrecs);
	return 0;
}

int wc_table_decode(uint32_t kind, const void *buf, size_t len,
		    struct wc_table_view *v, char *err, size_t errlen)
{
	switch (kind) {
	case WORMCAST_TABLE_TREES:
		return wc_trees_decode(buf, len, v, err, errlen);
	case WORMCAST_TABLE_LABELS:
		return wc_labels_decode(buf, len, v, err, errlen);
	case WORMCAST_TABLE_PLANS:
		return wc_plans_decode(buf, len, v, err, errlen);
	case WORMCAST_TABLE_BCAST:
		return wc_bcast_decode(buf, len, v, err, errlen);
	case WORMCAST_TABLE_FTMESH:
		return wc_ftmesh_decode(buf, len, v, err, errlen);
	}
	return 1;
}

const char *wc_table_kind_name(uint32_t kind)
{
	switch (kind) {
	case WORMCAST_TABLE_TREES:
		return "trees";
	case WORMCAST_TABLE_LABELS:
		return "labels";
	case WORMCAST_TABLE_PLANS:
		return "plans";
	case WORMCAST_TABLE_BCAST:
		return "bcast";
	case WORMCAST_TABLE_FTMESH:
		return "ftmesh";
	}
	return NULL;
}

static void show_labels(struct out *o, const struct wc_table_view *v)
{
	uint32_t n;

	if (o->json) {
		json_u32_array(o, "label", v->label, v->nnodes);
		return;
	}
	fputs("    label", o->fp);
	for (n = 0; n < v->nnodes; n++)
		fprintf(o->fp, " %u", v->label[n]);
	fputc('\n', o->fp);
}

/*
 * Every plan: source, group, worms (node ids in visiting order).  JSON
 * "plans": [{src, group, worms: [[..], ..]}].  Stops at a plan that does
 * not fit the bytes (the kernel validated them).  ftmesh (Strategy 3)
 * plans: a destination with choices shows them, "NODE/0xCHOICES" (bit 0
 * the first choice, 1 for +Y), in JSON also "choices": [[..], ..].
 */
static void show_plans(struct out *o, const struct wc_table_view *v)
{
	bool ftm = v->scheme == WORMCAST_MCAST_FTMESH;
	size_t off = 0;
	uint32_t i, w, k;

	if (o->json)
		json_open_array(o, "plans");
	for (i = 0; i < v->nplans; i++) {
		struct wormcast_plan p;
		const uint8_t *q;
		char addr[18];
		uint32_t pos = 0, len;

		if (v->plans_len - off < sizeof(p))
			break;
		memcpy(&p, v->plans + off, sizeof(p));
		off += sizeof(p);
		if ((v->plans_len - off) / 4 < p.nwords)
			break;
		q = v->plans + off;
		off += (size_t)p.nwords * 4;
		snprintf(addr, sizeof(addr), "%02x:%02x:%02x:%02x:%02x:%02x",
			 p.addr[0], p.addr[1], p.addr[2], p.addr[3], p.addr[4],
			 p.addr[5]);
		if (o->json) {
			json_open_object(o, NULL);
			json_u64(o, "src", p.src);
			json_string(o, "group", addr);
			json_open_array(o, "worms");
		} else {
			fprintf(o->fp, "    plan src %u group %s worms %u:", p.src,
				addr, p.nworms);
		}
		for (w = 0; w < p.nworms && pos < p.nwords; w++) {
			memcpy(&len, q + 4 * pos++, 4);
			if (o->json)
				json_open_array(o, NULL);
			else
				fputs(w ? " |" : "", o->fp);
			for (k = 0; k < len && pos < p.nwords; k++, pos++) {
				uint32_t d, c = 0;

				memcpy(&d, q + 4 * pos, 4);
				if (ftm) {
					c = (d & WORMCAST_PLAN_FTM_CHOICES) >> 16;
					d &= WORMCAST_PLAN_FTM_NODE;
				}
				if (o->json)
					json_u64(o, NULL, d);
				else if (c)
					fprintf(o->fp, " %u/%#x", d, c);
				else
					fprintf(o->fp, " %u", d);
			}
			if (o->json)
				json_close_array(o);
		}
		if (o->json)
			json_close_array(o);
		if (o->json && ftm) {
			json_open_array(o, "choices");
			for (w = 0, pos = 0; w < p.nworms && pos < p.nwords; w++) {
				memcpy(&len, q + 4 * pos++, 4);
				json_open_array(o, NULL);
				for (k = 0; k < len && pos < p.nwords; k++, pos++) {
					uint32_t d;

					memcpy(&d, q + 4 * pos, 4);
					json_u64(o, NULL, (d & WORMCAST_PLAN_FTM_CHOICES) >> 16);
				}
				json_close_array(o);
			}
			json_close_array(o);
		}
		if (o->json) {
			json_close_object(o);
		} else {
			fputc('\n', o->fp);
		}
	}
	if (o->json)
		json_close_array(o);
}

/*
 * The schedule's unicasts in the table's order, offsets from the source
 * as (x,y) on the n x n torus.  JSON "sends": [{step, from, to}] (offsets
 * as node ids).
 */
static void show_bcast(struct out *o, const struct wc_table_view *v)
{
	uint32_t i, n = 1, last = 0;

	while (n * n < v->nnodes)
		n++;
	if (o->json)
		json_open_array(o, "sends");
	for (i = 0; i < v->nsends; i++) {
		struct wormcast_bcast_send s;

		memcpy(&s, &v->sends[i], sizeof(s));
		if (o->json) {
			json_open_object(o, NULL);
			json_u64(o, "step", s.step);
			json_u64(o, "from", s.from);
			json_u64(o, "to", s.to);
			json_close_object(o);
			continue;
		}
		if (!i || s.step != last)
			fprintf(o->fp, "%s    step %u:", i ? "\n" : "", s.step);
		last = s.step;
		fprintf(o->fp, " (%u,%u)->(%u,%u)", s.from % n, s.from / n,
			s.to % n, s.to / n);
	}
	if (o->json)
		json_close_array(o);
	else if (v->nsends)
		fputc('\n', o->fp);
}

/* The faulty blocks, "(x0,y0)-(x1,y1)"; JSON "blocks": [{x0, y0, x1, y1}]. */
static void show_ftmesh_blocks(struct out *o, const struct wc_table_view *v)
{
	uint32_t i;

	if (o->json)
		json_open_array(o, "blocks");
	else if (v->nblocks)
		fprintf(o->fp, "    blocks:");
	for (i = 0; i < v->nblocks; i++) {
		struct wormcast_ftmesh_block b;

		memcpy(&b, &v->blocks[i], sizeof(b));
		if (o->json) {
			json_open_object(o, NULL);
			json_u64(o, "x0", b.x0);
			json_u64(o, "y0", b.y0);
			json_u64(o, "x1", b.x1);
			json_u64(o, "y1", b.y1);
			json_close_object(o);
			continue;
		}
		fprintf(o->fp, " (%u,%u)-(%u,%u)", b.x0, b.y0, b.x1, b.y1);
	}
	if (o->json)
		json_close_array(o);
	else if (v->nblocks)
		fputc('\n', o->fp);
}

/*
 * Per node: its safety vector (E S W N, "inf" for no block that way) and
 * its records per subnetwork ("b3/L1": block 3 on line L1).  JSON
 * "nodes": [{node, safety: [e, s, w, n] (null for inf), records: four
 * arrays (subnetworks +X+Y, +X-Y, -X+Y, -X-Y) of {block, line}}].
 */
static void show_ftmesh_nodes(struct out *o, const struct wc_table_view *v)
{
	static const char *const subnet[WORMCAST_FTMESH_SUBNETS] = {
		"+X+Y", "+X-Y", "-X+Y", "-X-Y",
	};
	uint32_t n, q, k, i;

	if (o->json)
		json_open_array(o, "nodes");
	for (n = 0; n < v->nnodes; n++) {
		struct wormcast_ftmesh_safety sv;
		uint16_t e[4];

		memcpy(&sv, &v->safety[n], sizeof(sv));
		e[0] = sv.e;
		e[1] = sv.s;
		e[2] = sv.w;
		e[3] = sv.n;
		if (o->json) {
			json_open_object(o, NULL);
			json_u64(o, "node", n);
			json_open_array(o, "safety");
			for (i = 0; i < 4; i++) {
				if (e[i] == WORMCAST_FTMESH_SAFETY_INF)
					json_null(o, NULL);
				else
					json_u64(o, NULL, e[i]);
			}
			json_close_array(o);
			json_open_array(o, "records");
		} else {
			fprintf(o->fp, "    node %u: safety", n);
			for (i = 0; i < 4; i++) {
				if (e[i] == WORMCAST_FTMESH_SAFETY_INF)
					fprintf(o->fp, " inf");
				else
					fprintf(o->fp, " %u", e[i]);
			}
		}
		for (q = 0; q < WORMCAST_FTMESH_SUBNETS; q++) {
			uint32_t from = v->rec_off[q * v->nnodes + n];
			uint32_t to = v->rec_off[q * v->nnodes + n + 1];

			if (o->json)
				json_open_array(o, NULL);
			else if (from < to)
				fprintf(o->fp, " %s", subnet[q]);
			for (k = from; k < to; k++) {
				struct wormcast_ftmesh_rec r;

				memcpy(&r, &v->recs[k], sizeof(r));
				if (o->json) {
					json_open_object(o, NULL);
					json_u64(o, "block", r.block);
					json_u64(o, "line", r.line);
					json_close_object(o);
				} else {
					fprintf(o->fp, " b%u/L%u", r.block,
						r.line == 2 ? 3 : r.line);
				}
			}
			if (o->json)
				json_close_array(o);
		}
		if (o->json) {
			json_close_array(o);
			json_close_object(o);
		} else {
			fputc('\n', o->fp);
		}
	}
	if (o->json)
		json_close_array(o);
}

static void show_parent_ports(struct out *o, const struct wc_table_view *v)
{
	const uint8_t *pp;
	uint32_t t, n;

	if (o->json)
		json_open_array(o, "parent_port");
	for (t = 0; t < v->ntrees; t++) {
		pp = v->parent_port + (size_t)t * v->nnodes;
		if (o->json)
			json_open_array(o, NULL);
		else
			fprintf(o->fp, "    tree %u root %u parent_port", t,
				v->root[t]);
		for (n = 0; n < v->nnodes; n++) {
			if (o->json && pp[n] == WORMCAST_NO_PORT)
				json_null(o, NULL);
			else if (o->json)
				json_u64(o, NULL, pp[n]);
			else if (pp[n] == WORMCAST_NO_PORT)
				fputs(" -", o->fp);
			else
				fprintf(o->fp, " %u", pp[n]);
		}
		if (o->json)
			json_close_array(o);
		else
			fputc('\n', o->fp);
	}
	if (o->json)
		json_close_array(o);
}

/* The faulty links a trees or labels table routes around, by (node, port). */
static void show_faults(struct out *o, const struct wc_table_view *v)
{
	struct wormcast_trees_fault f;
	uint32_t i;

	if (o->json)
		json_open_array(o, "faulty_links");
	else if (v->nfaults)
		fputs("    faulty links (node.port):", o->fp);
	for (i = 0; i < v->nfaults; i++) {
		memcpy(&f, v->faults + (size_t)i * sizeof(f), sizeof(f));
		if (o->json) {
			json_open_object(o, NULL);
			json_u64(o, "node", f.node);
			json_u64(o, "port", f.port);
			json_close_object(o);
		} else {
			fprintf(o->fp, " %u.%u", f.node, f.port);
		}
	}
	if (o->json)
		json_close_array(o);
	else if (v->nfaults)
		fputc('\n', o->fp);
}

void show_table(struct out *o, const struct wc_table_info *t,
		const struct wc_table_view *v, bool verbose)
{
	const char *kind = wc_table_kind_name(t->kind);
	const char *scheme;
	char buf[32];

	if (!kind) {
		snprintf(buf, sizeof(buf), "kind-%u", t->kind);
		kind = buf;
	}
	if (o->json)
		json_open_object(o, NULL);
	out_string(o, "kind", "%s", kind);
	out_u64(o, "gen", " gen %" PRIu64, t->gen);
	out_u64(o, "size", " size %" PRIu64, t->size);
	if (v && (v->kind != WORMCAST_TABLE_PLANS || v->scheme)) {
		scheme = wc_mcast_scheme_name(v->scheme);
		if (!scheme) {
			snprintf(buf, sizeof(buf), "scheme-%u", v->scheme);
			scheme = buf;
		}
		out_string(o, "scheme", " scheme %s", scheme);
	}
	if (v && v->kind == WORMCAST_TABLE_TREES) {
		out_u64(o, "ntrees", " ntrees %" PRIu64, v->ntrees);
		out_u64(o, "nnodes", " nnodes %" PRIu64, v->nnodes);
		if (o->json) {
			json_u32_array(o, "roots", v->root, v->ntrees);
		} else {
			wc_format_u32_list(buf, sizeof(buf), v->root,
					   v->ntrees, ',');
			fprintf(o->fp, " roots %s", buf);
		}
		if (v->nfaults || o->json)
			out_u64(o, "nfaults", " faulty_links %" PRIu64, v->nfaults);
	} else if (v && v->kind == WORMCAST_TABLE_PLANS) {
		out_u64(o, "nnodes", " nnodes %" PRIu64, v->nnodes);
		out_u64(o, "nplans", " nplans %" PRIu64, v->nplans);
	} else if (v && v->kind == WORMCAST_TABLE_BCAST) {
		out_u64(o, "nnodes", " nnodes %" PRIu64, v->nnodes);
		out_u64(o, "nsends", " nsends %" PRIu64, v->nsends);
	} else if (v && v->kind == WORMCAST_TABLE_FTMESH) {
		out_u64(o, "nnodes", " nnodes %" PRIu64, v->nnodes);
		out_u64(o, "strategy", " strategy %" PRIu64, v->strategy);
		if (o->json)
			json_bool(o, "detour", v->flags & WORMCAST_FTMESH_F_DETOUR);
		else if (v->flags & WORMCAST_FTMESH_F_DETOUR)
			fprintf(o->fp, " detour");
		if (v->flags & ~(uint32_t)WORMCAST_FTMESH_F_DETOUR)
			out_u64(o, "flags", " flags 0x%" PRIx64, v->flags);
		out_u64(o, "seed", " seed %" PRIu64, v->seed);
		out_u64(o, "nblocks", " nblocks %" PRIu64, v->nblocks);
		out_u64(o, "nrecs", " nrecs %" PRIu64, v->nrecs);
	} else if (v && v->kind == WORMCAST_TABLE_LABELS) {
		out_u64(o, "nnodes", " nnodes %" PRIu64, v->nnodes);
		if (v->nfaults || o->json)
			out_u64(o, "nfaults", " faulty_links %" PRIu64, v->nfaults);
	} else if (v) {
		out_u64(o, "nnodes", " nnodes %" PRIu64, v->nnodes);
	}
	out_text(o, "\n");
	if (v && (v->kind == WORMCAST_TABLE_TREES ||
		  v->kind == WORMCAST_TABLE_LABELS))
		show_faults(o, v);
	if (v && v->kind == WORMCAST_TABLE_FTMESH)
		show_ftmesh_blocks(o, v);
	if (v && verbose && v->kind == WORMCAST_TABLE_TREES)
		show_parent_ports(o, v);
	else if (v && verbose && v->kind == WORMCAST_TABLE_PLANS)
		show_plans(o, v);
	else if (v && verbose && v->kind == WORMCAST_TABLE_BCAST)
		show_bcast(o, v);
	else if (v && verbose && v->kind == WORMCAST_TABLE_FTMESH)
		show_ftmesh_nodes(o, v);
	else if (v && verbose)
		show_labels(o, v);
	if (o->json)
		json_close_object(o);
}
