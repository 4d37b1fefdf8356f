// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The HCA clock as userspace reads it without a syscall: the clock-info
 * page the kernel keeps (to turn cycles into wall time) and the core-clock
 * register page (the free-running counter itself).
 */
#include <errno.h>

#include "mlx5.h"

/* Copies of the clock-info page taken while the kernel rewrote it. */
#define CLOCK_INFO_RETRIES 10

/*
 * A consistent snapshot of the clock-info page: the kernel sets the low
 * bit of sign while it rewrites the page and changes sign after, so a copy
 * is good when sign was even before and unchanged after. EINVAL without
 * the page (or a NULL argument), EBUSY if the kernel kept updating it.
 */
int mlx5dv_get_clock_info(struct ibv_context *ibctx,
			  struct mlx5dv_clock_info *out)
{
	const struct mlx5_ib_clock_info *ci;
	unsigned int retry;
	uint32_t sign;

	if (!ibctx || !out) {
		errno = EINVAL;
		return EINVAL;
	}
	if (!mlx5_is_mlx5_context(ibctx))
		return EOPNOTSUPP;
	ci = to_mctx(ibctx)->clock_info.addr;
	if (!ci)
		return EINVAL;
	for (retry = 0; retry < CLOCK_INFO_RETRIES; retry++) {
		sign = __atomic_load_n(&ci->sign, __ATOMIC_ACQUIRE);
		if (sign & MLX5_IB_CLOCK_INFO_KERNEL_UPDATING)
			continue;
		out->nsec = ci->nsec;
		out->last_cycles = ci->cycles;
		out->frac = ci->frac;
		out->mult = ci->mult;
		out->shift = ci->shift;
		out->mask = ci->mask;
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (__atomic_load_n(&ci->sign, __ATOMIC_RELAXED) == sign)
			return 0;
	}
	return EBUSY;
}

/* Tries to read the 64-bit core clock without its high word moving. */
#define CORE_CLOCK_TRIES 2

/*
 * The free-running clock from the core-clock page: high word, low word,
 * and the high word again to catch a carry between the two reads.
 */
int mlx5_query_rt_values(struct ibv_context *ibctx,
			 struct ibv_values_ex *values)
{
	struct mlx5_context *ctx = to_mctx(ibctx);
	const volatile __be32 *reg;
	uint32_t hi, lo, hi2;
	unsigned int try;

	if (values->comp_mask & ~(uint32_t)IBV_VALUES_MASK_RAW_CLOCK)
		return EINVAL;
	if (!(values->comp_mask & IBV_VALUES_MASK_RAW_CLOCK)) {
		values->comp_mask = 0;
		return 0;
	}
	if (!ctx->core_clock.addr) {
		values->comp_mask = 0;
		return EOPNOTSUPP;
	}
	reg = (const volatile __be32 *)((uint8_t *)ctx->core_clock.addr +
					(ctx->hca_core_clock_offset &
					 (ctx->page_size - 1)));
	for (try = 0; try < CORE_CLOCK_TRIES; try++) {
		hi = be32toh(reg[0]);
		lo = be32toh(reg[1]);
		hi2 = be32toh(reg[0]);
		if (hi == hi2)
			break;
	}
	values->raw_clock.tv_sec = 0;
	values->raw_clock.tv_nsec = (long)((uint64_t)hi2 << 32 | lo);
	values->comp_mask = IBV_VALUES_MASK_RAW_CLOCK;
	return 0;
}
