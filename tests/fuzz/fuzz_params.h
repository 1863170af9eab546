/* SPDX-License-Identifier: GPL-2.0 */
/* Engine parameters from fuzz input, for the harnesses that run the engine. */
#ifndef WC_FUZZ_PARAMS_H
#define WC_FUZZ_PARAMS_H

#include "fuzz.h"
#include "engine.h"

/*
 * Override the fields of @p named by a 16-bit mask from the input, each
 * with fz_pick() around the field's upper bound.
 */
static inline void fz_params(struct fz *f, struct wc_engine_params *p)
{
	u32 *field[] = {
		&p->flit_bytes, &p->buf_flits, &p->vcs, &p->inj_channels,
		&p->cons_channels, &p->router_delay, &p->link_delay,
		&p->startup, &p->replication, &p->watchdog,
	};
	static const u32 max[] = {
		WC_MAX_FLIT_BYTES, WC_MAX_BUF_FLITS, WC_MAX_VCS, WC_MAX_INJ,
		WC_MAX_CONS, WC_MAX_DELAY, WC_MAX_DELAY, WC_MAX_DELAY, 1, 16,
	};
	u16 which = fz_u16(f);
	u32 i;

	for (i = 0; i < ARRAY_SIZE(field); i++)
		if (which & (1u << i))
			*field[i] = fz_pick(f, max[i]);
}

#endif /* WC_FUZZ_PARAMS_H */
