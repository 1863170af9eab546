/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A whole table transaction for the KUnit suites, as wormcastd sends one:
 * TABLE_NEW, TABLE_CHUNK in pieces of @step bytes, TABLE_COMMIT.  Returns
 * the first error (its message in @ext, cleared first) or COMMIT's result.
 */
#ifndef WC_TABLE_PUSH_H
#define WC_TABLE_PUSH_H

static inline int wc_kunit_table_push(struct wc_tables *ts, u32 kind,
				      const void *blob, size_t len, u32 gen,
				      size_t step, u32 *new_gen,
				      struct netlink_ext_ack *ext)
{
	u32 txn, got_kind;
	size_t off;
	int err;

	memset(ext, 0, sizeof(*ext));
	err = wc_table_txn_new(ts, kind, len, gen, &txn, ext);
	if (err)
		return err;
	for (off = 0; off < len; off += step) {
		err = wc_table_txn_chunk(ts, txn, off, (const u8 *)blob + off,
					 min_t(size_t, step, len - off), ext);
		if (err)
			return err;
	}
	return wc_table_txn_commit(ts, txn, &got_kind, new_gen, ext);
}

/*
 * A push refused as a bad table of @kind must be: -EINVAL (@err), its
 * extack message containing @why, the generation still @gen and the
 * published table still @published.  @name says which case failed.
 */
static inline void wc_kunit_expect_refused(struct kunit *test,
					   struct wc_tables *ts, u32 kind,
					   int err,
					   const struct netlink_ext_ack *ext,
					   const char *why, const char *name,
					   u32 gen,
					   const struct wc_table *published)
{
	struct wc_table *now;

	KUNIT_EXPECT_EQ_MSG(test, err, -EINVAL, "%s", name);
	KUNIT_EXPECT_TRUE_MSG(test, ext->_msg && strstr(ext->_msg, why),
			      "%s: %s", name, ext->_msg ?: "(none)");
	KUNIT_EXPECT_EQ_MSG(test, wc_tables_gen(ts), gen, "%s", name);
	now = wc_tables_get(ts, kind);
	KUNIT_EXPECT_PTR_EQ_MSG(test, now, published, "%s", name);
	wc_table_put(now);
}

#endif /* WC_TABLE_PUSH_H */
