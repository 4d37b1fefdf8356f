/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Ordering between this CPU, the rings in host memory and the device's
 * registers. On x86 stores to write-back memory are not reordered with each
 * other, so making WQEs visible before a doorbell record needs only a
 * compiler barrier; reading a CQE after its ownership byte needs a load
 * fence; write-combining stores to a BlueFlame register are flushed with
 * sfence. Other architectures use the full barrier.
 */
#ifndef MLX5_DOORBELL_H
#define MLX5_DOORBELL_H

#include <endian.h>
#include <stdint.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#define udma_to_device_barrier() asm volatile("" ::: "memory")
#define udma_from_device_barrier() asm volatile("lfence" ::: "memory")
#define mmio_flush_writes() asm volatile("sfence" ::: "memory")
#else
#define udma_to_device_barrier() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#define udma_from_device_barrier() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#define mmio_flush_writes() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#endif
/* Start of a write-combining burst: earlier stores must be out first. */
#define mmio_wc_start() mmio_flush_writes()

/* One 64-bit store of @val (already big-endian) to a device register. */
static inline void mmio_write64_be(void *reg, uint64_t val_be)
{
	*(volatile uint64_t *)reg = val_be;
}

/* A doorbell record word (host memory the HCA reads). */
static inline void mlx5_set_dbrec(__be32 *db, uint32_t val)
{
	*(volatile __be32 *)db = htobe32(val);
}

/*
 * 16 bytes: one SSE (x86_64) or NEON register, else two 64-bit words;
 * declared 8-aligned so an odd caller's buffer gets unaligned moves.
 */
typedef uint64_t mlx5_bf_chunk __attribute__((vector_size(16), aligned(8)));

/*
 * BlueFlame: copy @bytes (a multiple of 64) of WQE from @src into the
 * register, wrapping the source from @end to @start (the SQ ring), 64 bytes
 * at a time as four 16-byte stores.
 */
static inline void mlx5_bf_copy(uint8_t *reg, const uint8_t *src,
				unsigned int bytes, const uint8_t *start,
				const uint8_t *end)
{
	volatile mlx5_bf_chunk *dst = (volatile mlx5_bf_chunk *)reg;
	const mlx5_bf_chunk *s;

	for (;;) {
		s = (const mlx5_bf_chunk *)src;
		dst[0] = s[0];
		dst[1] = s[1];
		dst[2] = s[2];
		dst[3] = s[3];
		bytes -= 64;
		if (!bytes)
			return;
		dst += 4;
		src += 64;
		if (src == end)
			src = start;
	}
}

#endif /* MLX5_DOORBELL_H */
