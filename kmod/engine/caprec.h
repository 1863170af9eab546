/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Capture records (uapi struct wormcast_cap_hdr and what follows it):
 * encoded from a finished message and its trace.  Kernel-agnostic, so that
 * the encoder is unit-tested in userspace.
 */
#ifndef WC_CAPREC_H
#define WC_CAPREC_H

#include "engine.h"

struct wc_caprec_info {
	u32 fabric;
	u32 nnodes;
	u32 scheme;
	u32 table_gen;
	u32 flags;		/* WORMCAST_CAP_F_ABORTED, from the caller */
	u64 done;		/* cycle of msg_done */
};

/* Bytes of the record's header and arrays (the frame follows). */
size_t wc_caprec_hdr_len(const struct wc_msg *m, const struct wc_trace *t);

/*
 * Write the header and arrays of @m's record into @buf (wc_caprec_hdr_len()
 * bytes); the caller appends m->bytes bytes of frame.
 */
void wc_caprec_encode(void *buf, const struct wc_caprec_info *info,
		      const struct wc_msg *m, const struct wc_trace *t);

#endif /* WC_CAPREC_H */
