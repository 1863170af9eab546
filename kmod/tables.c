// SPDX-License-Identifier: GPL-2.0
/*
 * Routing tables of a fabric: the transaction that brings a table in from
 * userspace (TABLE_NEW, TABLE_CHUNK, TABLE_COMMIT, TABLE_ABORT), its
 * validation, and its publication by RCU (Documentation/kernel.rst,
 * "Routing tables"; the wire format is in Documentation/uapi.rst,
 * "Tables").
 *
 * Nothing here knows about netlink messages or the fabric: the generic
 * netlink handlers (genl.c) parse the attributes and call the wc_table_*
 * functions, which KUnit calls as well (kmod/tests/tables_kunit.c).  Every
 * refusal sets an extack message and changes nothing that is published.
 *
 * Lifetime: a committed table is a struct wc_table with one reference held
 * by its slot.  The NAPI poll pins the table its engine runs on with
 * another one (wc_table_tryget(), under rcu_read_lock()), so a table that
 * is replaced lives on until every message routed on it is done; the last
 * wc_table_put(), possibly in softirq, frees it after a grace period.
 */
#include <linux/slab.h>
#include <linux/mm.h>

#include "wormcast.h"

/* ------------------------------------------------------------ kinds */

static int wc_trees_build(struct wc_table *t, struct wc_tables *ts,
			  const char **why)
{
	struct wc_tree_set *s = &t->u.trees;
	int err;

	err = wc_tree_set_build(s, ts->topo, t->bytes, t->size, why);
	if (err)
		return err;
	/* a table for a scheme the fabric could never run is refused too */
	err = wc_mcast_check(s->scheme, ts->topo, ts->params, why);
	if (err)
		wc_tree_set_free(s);
	return err;
}

static void wc_trees_destroy(struct wc_table *t)
{
	wc_tree_set_free(&t->u.trees);
}

static size_t wc_trees_mem(const struct wc_table *t)
{
	return t->u.trees.mem;
}

static u32 wc_trees_scheme(const struct wc_table *t)
{
	return t->u.trees.scheme;
}

static int wc_labels_build(struct wc_table *t, struct wc_tables *ts,
			   const char **why)
{
	struct wc_label_set *s = &t->u.labels;
	int err;

	err = wc_label_set_build(s, ts->topo, t->bytes, t->size, why);
	if (err)
		return err;
	err = wc_mcast_check(s->scheme, ts->topo, ts->params, why);
	if (err)
		wc_label_set_free(s);
	return err;
}

static void wc_labels_destroy(struct wc_table *t)
{
	wc_label_set_free(&t->u.labels);
}

static size_t wc_labels_mem(const struct wc_table *t)
{
	return t->u.labels.mem;
}

static u32 wc_labels_scheme(const struct wc_table *t)
{
	return t->u.labels.scheme;
}

/*
 * Plans are checked against the table published now that their scheme
 * plans for (the header's scheme: 0, the labels table of ocms/otms;
 * ftmesh, the ftmesh table of strategy 3), and keep its generation: the
 * datapath uses them only while that table is the one the engine runs
 * on (wc_use_plan()).
 */
static int wc_plans_build(struct wc_table *t, struct wc_tables *ts,
			  const char **why)
{
	const struct wormcast_plans *h = (const void *)t->bytes;
	u32 kind = WORMCAST_TABLE_LABELS;
	struct wc_table *base;
	int err;

	if (t->size >= sizeof(*h) && h->scheme == WORMCAST_MCAST_FTMESH)
		kind = WORMCAST_TABLE_FTMESH;
	base = rcu_dereference_protected(ts->slot[kind],
					 lockdep_is_held(&ts->lock));
	if (!base) {
		*why = kind == WORMCAST_TABLE_FTMESH ?
		       "ftmesh plans need a committed ftmesh table of strategy 3 first" :
		       "plans need a committed labels table of scheme ocms or otms first";
		return -EINVAL;
	}
	if (kind == WORMCAST_TABLE_FTMESH)
		err = wc_plan_set_build_ftm(&t->u.plans, ts->topo,
					    &base->u.ftm.tab, t->bytes,
					    t->size, why);
	else
		err = wc_plan_set_build(&t->u.plans, ts->topo,
					&base->u.labels, t->bytes, t->size,
					why);
	if (err)
		return err;
	t->u.plans.base_gen = base->gen;
	return 0;
}

static void wc_plans_destroy(struct wc_table *t)
{
	wc_plan_set_free(&t->u.plans);
}

static size_t wc_plans_mem(const struct wc_table *t)
{
	return t->u.plans.mem;
}

static int wc_bcast_build(struct wc_table *t, struct wc_tables *ts,
			  const char **why)
{
	struct wc_bcast_set *s = &t->u.bcast;
	int err;

	err = wc_bcast_set_build(s, ts->topo, t->bytes, t->size, why);
	if (err)
		return err;
	err = wc_mcast_check(s->scheme, ts->topo, ts->params, why);
	if (err)
		wc_bcast_set_free(s);
	return err;
}

static void wc_bcast_destroy(struct wc_table *t)
{
	wc_bcast_set_free(&t->u.bcast);
}

static size_t wc_bcast_mem(const struct wc_table *t)
{
	return t->u.bcast.mem;
}

static u32 wc_bcast_table_scheme(const struct wc_table *t)
{
	return t->u.bcast.scheme;
}

/*
 * ftmesh: the fault information of a 2-D mesh.  Refused too where the
 * scheme cannot run, and with the detour flag on fewer than 8 VCs.
 */
static int wc_ftm_build(struct wc_table *t, struct wc_tables *ts,
			const char **why)
{
	struct wc_ftm_set *s = &t->u.ftm;
	int err;

	err = wc_ftm_set_build(s, ts->topo, t->bytes, t->size, why);
	if (err)
		return err;
	err = wc_mcast_check(WORMCAST_MCAST_FTMESH, ts->topo, ts->params,
			     why) ?: wc_ftm_set_check(s, ts->params, why);
	if (err)
		wc_ftm_set_free(s);
	return err;
}

static void wc_ftm_destroy(struct wc_table *t)
{
	wc_ftm_set_free(&t->u.ftm);
}

static size_t wc_ftm_mem(const struct wc_table *t)
{
	return t->u.ftm.mem;
}

static u32 wc_ftm_table_scheme(const struct wc_table *t)
{
	return WORMCAST_MCAST_FTMESH;
}

const struct wc_table_ops wc_table_ops[WORMCAST_TABLE_MAX + 1] = {
	[WORMCAST_TABLE_TREES] = {
		.build = wc_trees_build,
		.destroy = wc_trees_destroy,
		.mem = wc_trees_mem,
		.scheme = wc_trees_scheme,
		.algo = &wc_algo_tree,
	},
	[WORMCAST_TABLE_LABELS] = {
		.build = wc_labels_build,
		.destroy = wc_labels_destroy,
		.mem = wc_labels_mem,
		.scheme = wc_labels_scheme,
		.algo = &wc_algo_label,
	},
	[WORMCAST_TABLE_PLANS] = {	/* used by the source, not the engine */
		.build = wc_plans_build,
		.destroy = wc_plans_destroy,
		.mem = wc_plans_mem,
	},
	[WORMCAST_TABLE_BCAST] = {	/* broadcasts relayed by schedule */
		.build = wc_bcast_build,
		.destroy = wc_bcast_destroy,
		.mem = wc_bcast_mem,
		.scheme = wc_bcast_table_scheme,
		.algo = &wc_algo_plh,
	},
	[WORMCAST_TABLE_FTMESH] = {	/* routed hop by hop around blocks */
		.build = wc_ftm_build,
		.destroy = wc_ftm_destroy,
		.mem = wc_ftm_mem,
		.scheme = wc_ftm_table_scheme,
		.algo = &wc_algo_ftmesh,
	},
};

/*
 * Can a fabric of @topo and @params run multicast scheme @scheme?  The
 * built-in unicast-based scheme always can.
 */
int wc_mcast_check(u32 scheme, const struct wc_topo *topo,
		   const struct wc_engine_params *params, const char **why)
{
	int err;

	if (scheme > WORMCAST_MCAST_MAX) {
		*why = "unknown multicast scheme";
		return -EINVAL;
	}
	if (wc_mcast_builtin(scheme))
		return 0;
	*why = NULL;
	if (wc_mcast_table_kind(scheme) == WORMCAST_TABLE_LABELS)
		err = wc_label_scheme_check(scheme, topo, params, why);
	else if (wc_mcast_table_kind(scheme) == WORMCAST_TABLE_BCAST)
		err = wc_plh_check(topo, params, why);
	else if (wc_mcast_table_kind(scheme) == WORMCAST_TABLE_FTMESH)
		err = wc_ftm_scheme_check(topo, params, why);
	else
		err = wc_tree_scheme_check(scheme, topo, params, why);
	if (err) {
		if (!*why)
			*why = "the multicast scheme cannot run on this fabric";
		return -EINVAL;
	}
	return 0;
}

/* ------------------------------------------------------------ objects */

static void wc_table_free(struct wc_table *t)
{
	if (t->ops)
		t->ops->destroy(t);
	kvfree(t->bytes);
	kfree(t);
}

static void wc_table_free_rcu(struct rcu_head *head)
{
	wc_table_free(container_of(head, struct wc_table, rcu));
}

/* A reference on @t, seen under rcu_read_lock(); false if it is dying. */
bool wc_table_tryget(struct wc_table *t)
{
	return refcount_inc_not_zero(&t->ref);
}

/*
 * Drop a reference, in any context but NMI: the table is freed after a
 * grace period, since RCU readers may still look at it (module exit
 * waits for that with rcu_barrier()).
 */
void wc_table_put(struct wc_table *t)
{
	if (t && refcount_dec_and_test(&t->ref))
		call_rcu(&t->rcu, wc_table_free_rcu);
}

/* ------------------------------------------------------------ context */

void wc_tables_init(struct wc_tables *ts, const struct wc_topo *topo,
		    const struct wc_engine_params *params,
		    const struct wc_table_ops *ops)
{
	u32 k;

	mutex_init(&ts->lock);
	ts->topo = topo;
	ts->params = params;
	ts->ops = ops;
	ts->gen = 0;
	ts->last_txn = 0;
	ts->txn = NULL;
	for (k = 0; k <= WORMCAST_TABLE_MAX; k++)
		RCU_INIT_POINTER(ts->slot[k], NULL);
}

static void wc_txn_free(struct wc_table_txn *txn)
{
	if (txn) {
		kvfree(txn->buf);
		kfree(txn);
	}
}

/* The open transaction, if it is @id; else NULL and an extack message. */
static struct wc_table_txn *wc_txn_find(struct wc_tables *ts, u32 id,
					struct netlink_ext_ack *extack)
{
	lockdep_assert_held(&ts->lock);
	if (!ts->txn) {
		NL_SET_ERR_MSG(extack, "no table transaction is open on this fabric");
		return NULL;
	}
	if (ts->txn->id != id) {
		NL_SET_ERR_MSG(extack,
			       "not the open table transaction (a later TABLE_NEW replaced it, or it ended)");
		return NULL;
	}
	return ts->txn;
}

/*
 * The fabric is going away (no reader left but those in an RCU read-side
 * section, and the poll's pin, released by the fabric's stop): drop the
 * open transaction and unpublish every table.
 */
void wc_tables_destroy(struct wc_tables *ts)
{
	u32 k;

	mutex_lock(&ts->lock);
	wc_txn_free(ts->txn);
	ts->txn = NULL;
	for (k = 0; k <= WORMCAST_TABLE_MAX; k++) {
		struct wc_table *t;

		t = rcu_replace_pointer(ts->slot[k], NULL,
					lockdep_is_held(&ts->lock));
		wc_table_put(t);
	}
	mutex_unlock(&ts->lock);
	mutex_destroy(&ts->lock);
}

u32 wc_tables_gen(struct wc_tables *ts)
{
	return READ_ONCE(ts->gen);
}

/* The table of @kind with a reference (wc_table_put() it), or NULL. */
struct wc_table *wc_tables_get(struct wc_tables *ts, u32 kind)
{
	struct wc_table *t;

	if (kind > WORMCAST_TABLE_MAX)
		return NULL;
	rcu_read_lock();
	t = rcu_dereference(ts->slot[kind]);
	if (t && !wc_table_tryget(t))
		t = NULL;
	rcu_read_unlock();
	return t;
}

/* The table of @kind, for a reader under rcu_read_lock(). */
struct wc_table *wc_tables_peek_rcu(struct wc_tables *ts, u32 kind)
{
	return rcu_dereference(ts->slot[kind]);
}

/* Memory of the published tables. */
size_t wc_tables_mem(const struct wc_tables *ts)
{
	size_t mem = 0;
	u32 k;

	rcu_read_lock();
	for (k = 0; k <= WORMCAST_TABLE_MAX; k++) {
		struct wc_table *t = rcu_dereference(ts->slot[k]);

		if (t)
			mem += t->mem;
	}
	rcu_read_unlock();
	return mem;
}

/* ------------------------------------------------------------ transaction */

static int wc_check_gen(struct wc_tables *ts, u32 gen,
			struct netlink_ext_ack *extack)
{
	if (gen != ts->gen) {
		NL_SET_ERR_MSG(extack, "table computed against an old generation");
		return -EAGAIN;
	}
	return 0;
}

/*
 * TABLE_NEW: open a transaction for a table of @kind, @size bytes,
 * computed against generation @gen; *@txn is its handle.  An open
 * transaction is replaced (its handle fails from now on).
 */
int wc_table_txn_new(struct wc_tables *ts, u32 kind, u32 size, u32 gen,
		     u32 *txn, struct netlink_ext_ack *extack)
{
	struct wc_table_txn *t;
	int err;

	if (kind > WORMCAST_TABLE_MAX || !ts->ops[kind].build) {
		NL_SET_ERR_MSG(extack, "unknown table kind");
		return -EINVAL;
	}
	if (!size || size > WORMCAST_TABLE_MAX_BYTES) {
		NL_SET_ERR_MSG(extack, "table size must be 1 to WORMCAST_TABLE_MAX_BYTES bytes");
		return -EINVAL;
	}
	t = kzalloc(sizeof(*t), GFP_KERNEL_ACCOUNT);
	if (!t)
		return -ENOMEM;
	t->buf = kvmalloc(size, GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
	if (!t->buf) {
		kfree(t);
		NL_SET_ERR_MSG(extack, "out of memory for the table");
		return -ENOMEM;
	}
	t->kind = kind;
	t->size = size;
	t->gen = gen;

	mutex_lock(&ts->lock);
	/* refused at once if it is already stale: it could never commit */
	err = wc_check_gen(ts, gen, extack);
	if (err) {
		mutex_unlock(&ts->lock);
		wc_txn_free(t);
		return err;
	}
	if (!++ts->last_txn)		/* 0 is no handle */
		ts->last_txn = 1;
	t->id = ts->last_txn;
	wc_txn_free(ts->txn);
	ts->txn = t;
	*txn = t->id;
	mutex_unlock(&ts->lock);
	return 0;
}

/* TABLE_CHUNK: @len bytes at @offset, which must follow the last chunk. */
int wc_table_txn_chunk(struct wc_tables *ts, u32 txn, u32 offset,
		       const void *data, u32 len,
		       struct netlink_ext_ack *extack)
{
	struct wc_table_txn *t;
	int err = -EINVAL;

	mutex_lock(&ts->lock);
	t = wc_txn_find(ts, txn, extack);
	if (!t) {
		err = -ENOENT;
		goto out;
	}
	if (offset != t->received) {
		NL_SET_ERR_MSG(extack, "chunk out of order: OFFSET must be the bytes sent so far");
		goto out;
	}
	if (len > t->size - t->received) {
		NL_SET_ERR_MSG(extack, "chunk overruns the announced table size");
		goto out;
	}
	memcpy(t->buf + offset, data, len);
	t->received += len;
	err = 0;
out:
	mutex_unlock(&ts->lock);
	return err;
}

/*
 * TABLE_COMMIT: validate the whole table and publish it as generation
 * *@gen (also its *@kind).  The transaction ends, committed or refused;
 * a refusal changes nothing that is published.
 */
int wc_table_txn_commit(struct wc_tables *ts, u32 txn, u32 *kind, u32 *gen,
			struct netlink_ext_ack *extack)
{
	struct wc_table *t, *old;
	struct wc_table_txn *x;
	const char *why = NULL;
	int err;

	mutex_lock(&ts->lock);
	x = wc_txn_find(ts, txn, extack);
	if (!x) {
		err = -ENOENT;
		goto unlock;
	}
	ts->txn = NULL;			/* ends here, whatever happens */
	if (x->received != x->size) {
		NL_SET_ERR_MSG(extack, "table incomplete: fewer bytes received than announced");
		err = -EINVAL;
		goto free_txn;
	}
	err = wc_check_gen(ts, x->gen, extack);
	if (err)
		goto free_txn;
	t = kzalloc(sizeof(*t), GFP_KERNEL_ACCOUNT);
	if (!t) {
		err = -ENOMEM;
		goto free_txn;
	}
	t->kind = x->kind;
	t->size = x->size;
	t->bytes = x->buf;		/* the table owns the bytes now */
	x->buf = NULL;
	refcount_set(&t->ref, 1);
	err = ts->ops[t->kind].build(t, ts, &why);
	if (err) {
		if (err == -ENOMEM)
			why = why ? why : "out of memory for the table";
		wc_extack_msg(extack, why ? why : "invalid table");
		wc_table_free(t);
		goto free_txn;
	}
	t->ops = &ts->ops[t->kind];
	t->mem = sizeof(*t) + t->size + (t->ops->mem ? t->ops->mem(t) : 0);
	t->gen = ts->gen + 1;
	if (!t->gen)			/* 0 is "nothing committed" */
		t->gen = 1;
	WRITE_ONCE(ts->gen, t->gen);
	old = rcu_replace_pointer(ts->slot[t->kind], t,
				  lockdep_is_held(&ts->lock));
	wc_table_put(old);
	*kind = t->kind;
	*gen = t->gen;
	err = 0;
free_txn:
	wc_txn_free(x);
unlock:
	mutex_unlock(&ts->lock);
	return err;
}

/* TABLE_ABORT: drop the open transaction. */
int wc_table_txn_abort(struct wc_tables *ts, u32 txn,
		       struct netlink_ext_ack *extack)
{
	struct wc_table_txn *x;

	mutex_lock(&ts->lock);
	x = wc_txn_find(ts, txn, extack);
	if (x)
		ts->txn = NULL;
	mutex_unlock(&ts->lock);
	if (!x)
		return -ENOENT;
	wc_txn_free(x);
	return 0;
}
