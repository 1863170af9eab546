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

#endif /* WC_TABLE_PUSH_H */
