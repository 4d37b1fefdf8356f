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
 * BlueFlame: copy @bytes (a multiple of 64) of WQE from @src into the
 * register, wrapping the source from @end to @start (the SQ ring), 64 bytes
 * at a time as eight 64-bit stores (unrolled: this is per WQE).
 */
static inline void mlx5_bf_copy(uint8_t *reg, const uint8_t *src,
				unsigned int bytes, const uint8_t *start,
				const uint8_t *end)
{
	volatile uint64_t *dst = (volatile uint64_t *)reg;
	const uint64_t *s;

	for (;;) {
		s = (const uint64_t *)src;
		dst[0] = s[0];
		dst[1] = s[1];
		dst[2] = s[2];
		dst[3] = s[3];
		dst[4] = s[4];
		dst[5] = s[5];
		dst[6] = s[6];
		dst[7] = s[7];
		bytes -= 64;
		if (!bytes)
			return;
		dst += 8;
		src += 64;
		if (src == end)
			src = start;
	}
}

#endif /* MLX5_DOORBELL_H */
