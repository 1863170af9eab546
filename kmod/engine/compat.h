/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one place where the kernel-agnostic engine meets its environment.
 *
 * Everything under kmod/engine/ includes this header and nothing else from
 * libc or the kernel, so the same sources build into wormcast.ko and into
 * the userspace library used by wormsim, the daemon and the unit tests.
 */
#ifndef WC_COMPAT_H
#define WC_COMPAT_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/errno.h>
#include <linux/string.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/limits.h>
#include <linux/kernel.h>

#define wc_snprintf snprintf

#include <linux/vmalloc.h>
#include <linux/overflow.h>

/*
 * Engine allocations happen at setup time, in process context, and are
 * charged to the creator's memory cgroup (a fabric may be created from a
 * user namespace).  Large arrays go to vmalloc: kmalloc would round them
 * up to a power of two pages, which for a 32x32 torus nearly doubles the
 * engine's footprint.
 */
static inline void *wc_zalloc(size_t size)
{
	if (size <= PAGE_SIZE)
		return kzalloc(size, GFP_KERNEL_ACCOUNT);
	return __vmalloc(size, GFP_KERNEL_ACCOUNT | __GFP_ZERO);
}

static inline void *wc_calloc(size_t n, size_t size)
{
	size_t bytes;

	if (check_mul_overflow(n, size, &bytes))
		return NULL;
	return wc_zalloc(bytes);
}

static inline void wc_free(const void *p)
{
	kvfree(p);
}

#else /* userspace */

#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <assert.h>		/* static_assert(), as <linux/build_bug.h> */
#include <errno.h>
#include <stdlib.h>
#include <limits.h>
#include <stdio.h>

#define wc_snprintf snprintf

#include <linux/types.h>

typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
typedef __s8 s8;
typedef __s16 s16;
typedef __s32 s32;
typedef __s64 s64;

#ifndef U32_MAX
#define U32_MAX UINT32_MAX
#endif
#ifndef U16_MAX
#define U16_MAX UINT16_MAX
#endif
#ifndef U64_MAX
#define U64_MAX UINT64_MAX
#endif
#ifndef BIT
#define BIT(n) (1u << (n))
#endif
#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif
#ifndef DIV_ROUND_UP
#define DIV_ROUND_UP(n, d) ({				\
	__typeof__(d) d__ = (d);			\
	((n) + d__ - 1) / d__;				\
})
#endif
#ifndef min_t
#define min_t(type, a, b) ({				\
	type a__ = (a), b__ = (b);			\
	a__ < b__ ? a__ : b__;				\
})
#define max_t(type, a, b) ({				\
	type a__ = (a), b__ = (b);			\
	a__ > b__ ? a__ : b__;				\
})
#endif

static inline void *wc_zalloc(size_t size)
{
	return calloc(1, size ? size : 1);
}

static inline void *wc_calloc(size_t n, size_t size)
{
	return calloc(n ? n : 1, size ? size : 1);
}

static inline void wc_free(const void *p)
{
	free((void *)p);
}

#endif /* __KERNEL__ */

#endif /* WC_COMPAT_H */
