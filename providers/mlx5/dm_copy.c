// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The DM copy loops. See dm_copy.h for the access rules.
 *
 * Ordering, and why:
 *  - After the stores, a store fence (x86 sfence, arm64 dmb oshst). Write-
 *    combining stores sit in WC buffers and may leave in any order, later
 *    than plain stores; the fence drains them, so once ibv_memcpy_to_dm()
 *    returns, a doorbell or flag the caller writes is seen after the data.
 *  - Before the loads, a load fence (x86 lfence, arm64 dmb oshld). WC loads
 *    are weakly ordered and may be speculated; the fence keeps them behind
 *    whatever the caller read first (a CQE saying the device wrote the DM).
 * No fence inside the loop: the device does not care about order within
 * one copy, only that the copy is complete relative to what comes after.
 */
#include <errno.h>
#include <string.h>

#include "dm_copy.h"

#ifdef MLX5_DM_COUNT_ACCESSES
uint64_t mlx5_dm_access_count;
#define COUNT_ACCESS() (mlx5_dm_access_count++)
#else
#define COUNT_ACCESS() do { } while (0)
#endif

#if defined(__x86_64__) || defined(__i386__)
#define dm_store_fence() __asm__ volatile("sfence" ::: "memory")
#define dm_load_fence() __asm__ volatile("lfence" ::: "memory")
#elif defined(__aarch64__)
#define dm_store_fence() __asm__ volatile("dmb oshst" ::: "memory")
#define dm_load_fence() __asm__ volatile("dmb oshld" ::: "memory")
#else
#define dm_store_fence() __sync_synchronize()
#define dm_load_fence() __sync_synchronize()
#endif

/* Device words; may_alias because tests use plain byte arrays as the DM. */
typedef uint32_t __attribute__((may_alias)) dm_u32;
typedef uint64_t __attribute__((may_alias)) dm_u64;

int mlx5_dm_check_access(uint64_t dm_length, uint64_t offset, size_t length)
{
	if (offset > dm_length || length > dm_length - offset)
		return EFAULT;
	if ((offset | length) & 3)
		return EINVAL;
	return 0;
}

/*
 * Host-side words go through memcpy into a local: the user buffer may be
 * unaligned, and this compiles to one plain load or store.
 */
static inline void put32(uint8_t *dev, const uint8_t *host)
{
	uint32_t v;

	memcpy(&v, host, sizeof(v));
	*(volatile dm_u32 *)dev = v;
	COUNT_ACCESS();
}

static inline void put64(uint8_t *dev, const uint8_t *host)
{
	uint64_t v;

	memcpy(&v, host, sizeof(v));
	*(volatile dm_u64 *)dev = v;
	COUNT_ACCESS();
}

static inline void get32(uint8_t *host, const uint8_t *dev)
{
	uint32_t v = *(const volatile dm_u32 *)dev;

	COUNT_ACCESS();
	memcpy(host, &v, sizeof(v));
}

static inline void get64(uint8_t *host, const uint8_t *dev)
{
	uint64_t v = *(const volatile dm_u64 *)dev;

	COUNT_ACCESS();
	memcpy(host, &v, sizeof(v));
}

void mlx5_dm_write(void *dev, const void *host, size_t length)
{
	uint8_t *d = dev;
	const uint8_t *h = host;

	if (length >= 4 && ((uintptr_t)d & 7)) {
		put32(d, h);
		d += 4;
		h += 4;
		length -= 4;
	}
	for (; length >= 8; d += 8, h += 8, length -= 8)
		put64(d, h);
	if (length)
		put32(d, h);
	dm_store_fence();
}

void mlx5_dm_read(void *host, const void *dev, size_t length)
{
	const uint8_t *d = dev;
	uint8_t *h = host;

	dm_load_fence();
	if (length >= 4 && ((uintptr_t)d & 7)) {
		get32(h, d);
		d += 4;
		h += 4;
		length -= 4;
	}
	for (; length >= 8; d += 8, h += 8, length -= 8)
		get64(h, d);
	if (length)
		get32(h, d);
}
