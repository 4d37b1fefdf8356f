/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Moving bytes between host memory and a MEMIC mapping.
 *
 * MEMIC is device memory behind a PCI BAR, mapped write-combining. The
 * device only takes naturally aligned 4- or 8-byte accesses, so the device
 * side is touched one 64-bit word at a time where it is 8-aligned and with
 * one 32-bit word at each unaligned edge: half the accesses of a 32-bit copy.
 * Nothing here uses memcpy or vector registers on the device side.
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
 *
 * Speed: the 8-aligned middle moves 64 bytes per iteration (eight 64-bit
 * loads, eight 64-bit stores), so the loop's own instructions are an
 * eighth of a word loop's and where its branch falls in the i-cache does
 * not matter. The routines are inline so a copy is one call from
 * ibv_memcpy_to_dm() (small copies pay no second call).
 *
 * These routines know nothing about verbs, so they are unit-tested against
 * plain memory.
 */
#ifndef MLX5_DM_COPY_H
#define MLX5_DM_COPY_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef MLX5_DM_COUNT_ACCESSES
/* Bench/test builds only: device-side loads and stores since the start. */
extern uint64_t mlx5_dm_access_count;
#define MLX5_DM_COUNT(n) (mlx5_dm_access_count += (n))
#else
#define MLX5_DM_COUNT(n) ((void)0)
#endif

#if defined(__x86_64__) || defined(__i386__)
#define mlx5_dm_store_fence() __asm__ volatile("sfence" ::: "memory")
#define mlx5_dm_load_fence()  __asm__ volatile("lfence" ::: "memory")
#elif defined(__aarch64__)
#define mlx5_dm_store_fence() __asm__ volatile("dmb oshst" ::: "memory")
#define mlx5_dm_load_fence()  __asm__ volatile("dmb oshld" ::: "memory")
#else
#define mlx5_dm_store_fence() __sync_synchronize()
#define mlx5_dm_load_fence()  __sync_synchronize()
#endif

/* Device words; may_alias because tests use plain byte arrays as the DM. */
typedef uint32_t __attribute__((may_alias)) mlx5_dm_u32;
typedef uint64_t __attribute__((may_alias)) mlx5_dm_u64;

/*
 * Validate a copy of @length bytes at @offset of a DM of @dm_length bytes.
 * Returns 0, EFAULT if the range leaves the DM (checked first, without
 * overflow), or EINVAL if @offset or @length is not a multiple of 4.
 */
static inline int mlx5_dm_check_access(uint64_t dm_length, uint64_t offset,
				       size_t length)
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
static inline void mlx5_dm_put32(uint8_t *dev, const uint8_t *host)
{
	uint32_t v;

	memcpy(&v, host, sizeof(v));
	*(volatile mlx5_dm_u32 *)dev = v;
	MLX5_DM_COUNT(1);
}

static inline void mlx5_dm_put64(uint8_t *dev, const uint8_t *host)
{
	uint64_t v;

	memcpy(&v, host, sizeof(v));
	*(volatile mlx5_dm_u64 *)dev = v;
	MLX5_DM_COUNT(1);
}

static inline void mlx5_dm_get32(uint8_t *host, const uint8_t *dev)
{
	uint32_t v = *(const volatile mlx5_dm_u32 *)dev;

	MLX5_DM_COUNT(1);
	memcpy(host, &v, sizeof(v));
}

static inline void mlx5_dm_get64(uint8_t *host, const uint8_t *dev)
{
	uint64_t v = *(const volatile mlx5_dm_u64 *)dev;

	MLX5_DM_COUNT(1);
	memcpy(host, &v, sizeof(v));
}

/*
 * Copy @length bytes (a multiple of 4) from @host to @dev (4-aligned) and
 * flush them out of the write-combining buffers before returning, so a
 * doorbell the caller writes next cannot overtake them.
 */
static inline void mlx5_dm_write(void *dev, const void *host, size_t length)
{
	uint8_t *d = dev;
	const uint8_t *h = host;
	unsigned int i;

	if (length >= 4 && ((uintptr_t)d & 7)) {
		mlx5_dm_put32(d, h);
		d += 4;
		h += 4;
		length -= 4;
	}
	for (; length >= 64; d += 64, h += 64, length -= 64) {
#pragma GCC unroll 8
		for (i = 0; i < 64; i += 8)
			mlx5_dm_put64(d + i, h + i);
	}
	for (; length >= 8; d += 8, h += 8, length -= 8)
		mlx5_dm_put64(d, h);
	if (length)
		mlx5_dm_put32(d, h);
	mlx5_dm_store_fence();
}

/*
 * Copy @length bytes (a multiple of 4) from @dev (4-aligned) to @host. The
 * device reads are ordered after every load the caller made before (e.g. a
 * completion it polled).
 */
static inline void mlx5_dm_read(void *host, const void *dev, size_t length)
{
	const uint8_t *d = dev;
	uint8_t *h = host;
	unsigned int i;

	mlx5_dm_load_fence();
	if (length >= 4 && ((uintptr_t)d & 7)) {
		mlx5_dm_get32(h, d);
		d += 4;
		h += 4;
		length -= 4;
	}
	for (; length >= 64; d += 64, h += 64, length -= 64) {
#pragma GCC unroll 8
		for (i = 0; i < 64; i += 8)
			mlx5_dm_get64(h + i, d + i);
	}
	for (; length >= 8; d += 8, h += 8, length -= 8)
		mlx5_dm_get64(h, d);
	if (length)
		mlx5_dm_get32(h, d);
}

#endif /* MLX5_DM_COPY_H */
