/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wormcastd: deciding whether a fabric needs a table, and installing one
 * by the uapi's transaction (TABLE_NEW, TABLE_CHUNKs, TABLE_COMMIT; ABORT
 * on failure).  Pure logic over caller-supplied operations: wormcastd.c
 * backs them with generic netlink, tests/unit/test_wormcastd.c with a fake
 * kernel.
 */
#ifndef WCD_PUSH_H
#define WCD_PUSH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WCD_MAX_TABLES	8	/* table entries of a fabric we keep */

struct wcd_table_info {
	uint32_t kind;		/* enum wormcast_table_kind */
	uint32_t gen;
	uint32_t size;
};

/* What FABRIC_GET (and, for the scheme of a table, TABLE_GET) told. */
struct wcd_fabric_view {
	uint32_t ifindex;
	char name[64];
	uint32_t topology, ndims, dims[3], nnodes;
	uint32_t vcs;		/* WORMCAST_PARAM_VCS, 0 if not reported */
	uint32_t fault_info;	/* WORMCAST_PARAM_FAULT_INFO, 0 (global) if not */
	bool has_scheme;	/* WORMCAST_PARAM_MULTICAST present */
	uint32_t scheme;
	uint32_t gen;		/* WORMCAST_A_TABLE_GEN */
	uint32_t ntables;
	struct wcd_table_info tables[WCD_MAX_TABLES];
	bool table_scheme_known;	/* filled from a table's bytes: */
	uint32_t table_kind;		/* the table read */
	uint32_t table_scheme;		/* the scheme it starts with (a kind
					 * without one, wcd_kind_has_scheme():
					 * the scheme if its bytes are those
					 * computed, else UINT32_MAX) */
	bool stale;		/* the current table was computed with options
				 * that a reloaded configuration changed */
};

enum wcd_action {
	WCD_NO_SCHEME,		/* the kernel reports no scheme (older module) */
	WCD_UNICAST,		/* built in: no table */
	WCD_UP_TO_DATE,		/* a table of this scheme at this generation */
	WCD_READ_SCHEME,	/* a current table of the scheme's kind: read its scheme first */
	WCD_PUSH,
};

/*
 * Whether a table of @kind starts with its scheme (trees, labels, bcast).
 * A table of another kind (ftmesh, one scheme) is compared byte for byte
 * with the table computed instead (wcd_sync_ops.read_table).
 */
bool wcd_kind_has_scheme(uint32_t kind);

enum wcd_action wcd_decide(const struct wcd_fabric_view *v);

/*
 * A fabric's live faults as wormcastd keeps them (FAULT_GET): faulty links
 * as link ids, faulty nodes as node ids, each sorted and once; @seq counts
 * changes of the set.
 */
struct wcd_faults {
	bool known;		/* read at least once */
	bool dirty;		/* an event said they changed: read again */
	uint64_t event_ms;	/* first event of the burst (monotonic) */
	uint32_t seq;
	uint32_t nlinks, nnodes;
	uint32_t *links, *nodes;	/* malloc'ed */
};

/*
 * Replace the set by *@links and *@nodes (malloc'ed, taken over: set to
 * NULL; sorted and made unique here), counting the change; known, not
 * dirty.
 */
void wcd_faults_update(struct wcd_faults *f, uint32_t **links,
		       uint32_t nlinks, uint32_t **nodes, uint32_t nnodes);
void wcd_faults_free(struct wcd_faults *f);

/*
 * The schemes whose tables depend on the faults: spam, two-tree and label
 * schemes (their tables carry the faulty links), ftmesh.
 */
bool wcd_follows_faults(uint32_t scheme);

/*
 * The schemes of a trees or labels table, which carries the dead links
 * (spam, dstm-1, dstm-2, rt, the label schemes): the faulty links and
 * those of the failed nodes that its tree or path avoids.
 */
bool wcd_carries_links(uint32_t scheme);

/*
 * Whether the table of @scheme lacks the current faults (links and
 * nodes): @ours says that it is a table we computed when the counter was
 * @pushed_seq; a table someone else pushed counts as carrying none.
 */
bool wcd_faults_stale(const struct wcd_faults *f, uint32_t scheme, bool ours,
		      uint32_t pushed_seq);
const char *wcd_action_name(enum wcd_action a);

/* The transaction's steps; each returns 0 or a negative errno. */
struct wcd_push_ops {
	int (*table_new)(void *ctx, uint32_t kind, uint32_t size, uint32_t gen,
			 uint32_t *txn);
	int (*chunk)(void *ctx, uint32_t txn, uint32_t offset,
		     const void *data, uint32_t len);
	int (*commit)(void *ctx, uint32_t txn, uint32_t *new_gen);
	int (*abort)(void *ctx, uint32_t txn);
};

/*
 * One transaction: TABLE_NEW (kind, len, gen), CHUNKs of at most
 * @chunk_max bytes in order from offset 0, COMMIT.  On a failure after
 * TABLE_NEW, ABORT (its own result ignored).  Returns 0 with *@new_gen, or
 * the failing step's error with *@stage naming it ("TABLE_NEW",
 * "TABLE_CHUNK", "TABLE_COMMIT").
 */
int wcd_push_table(const struct wcd_push_ops *ops, void *ctx, uint32_t kind,
		   const void *table, size_t len, uint32_t gen,
		   uint32_t chunk_max, uint32_t *new_gen, const char **stage);

/* Everything a sync of one fabric needs. */
struct wcd_sync_ops {
	struct wcd_push_ops push;
	/* Re-read the fabric (FABRIC_GET, and TABLE_GET when asked). */
	int (*refresh)(void *ctx, struct wcd_fabric_view *v);
	/* Read the scheme of the fabric's table of @kind into @v. */
	int (*read_table_scheme)(void *ctx, struct wcd_fabric_view *v,
				 uint32_t kind);
	/* The table of @scheme for @v's topology (malloc'ed). */
	int (*compute)(void *ctx, const struct wcd_fabric_view *v,
		       uint32_t scheme, void **table, size_t *len);
	/*
	 * The fabric's whole current table of @kind (malloc'ed; *@len 0 and
	 * *@table NULL when it has none), for kinds without a scheme word.
	 */
	int (*read_table)(void *ctx, const struct wcd_fabric_view *v,
			  uint32_t kind, void **table, size_t *len);
};

struct wcd_sync_result {
	enum wcd_action action;	/* the last decision */
	uint32_t scheme;	/* scheme pushed (or the fabric's) */
	uint32_t gen;		/* generation after the sync */
	size_t bytes;		/* table size pushed */
	uint32_t attempts;	/* transactions tried */
	double compute_ms;	/* the last computation */
	double push_ms;		/* the last transaction */
	const char *stage;	/* failing step, or NULL */
	int err;		/* 0, or the failing step's error */
	bool compared;		/* the kernel's table was read and compared */
	bool adopted;		/* ... and held the bytes computed: kept */
};

/*
 * Bring one fabric up to date: decide from @v (already read), read the
 * scheme of the table of its scheme's kind when needed (or, for a kind
 * without one, compute the table and compare it with the kernel's: equal
 * is up to date), compute and push (the kind of wc_mcast_table_kind()); when a
 * step fails
 * with -EAGAIN (the generation moved), re-read the fabric and start again,
 * at most @tries transactions in all.  Returns 0 (nothing to do, or
 * pushed) or the last error; @res says what happened.
 */
int wcd_sync_fabric(const struct wcd_sync_ops *ops, void *ctx,
		    struct wcd_fabric_view *v, uint32_t tries,
		    uint32_t chunk_max, struct wcd_sync_result *res);

#endif /* WCD_PUSH_H */
