// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The clock-info page of the HCA's free-running clock (a 41-bit counter
 * at hca_core_clock, 156250 kHz: hw/mlx5/hca_clock.c). It pairs one
 * reading with the wall time of that moment, as mlx5_core's periodic
 * update does, so that mlx5dv_ts_to_ns turns a stamp into the wall time
 * of the completion (within ~34 s of the mapping, where cycles * mult
 * leaves 64 bits: the page is not rewritten later as the kernel's timer
 * would).
 */
#include "mlx5.h"
#include "hca_cmd.h"

#include <stdint.h>
#include <string.h>
#include <time.h>

/*
 * mlx5_core's values for device_frequency_khz 156250: shift
 * min(ilog2(156250) + 16, ilog2(U32_MAX / 10^6 * 156250)) = 29, mult
 * (10^6 << 29) / 156250 rounded, and overflow_period from overflow_cycles
 * = min((2^63 - 1) / mult, mask / 3) in ns, divided by 10^9 / HZ (250)
 * as the kernel stores it.
 */
static uint64_t ns_of(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Tries at reading both clocks close together (a preemption between). */
#define PAIR_TRIES 3

void mlx5_sim_clock_info(struct mlx5_ib_clock_info *ci)
{
	uint64_t m1, m2, now, gap = UINT64_MAX, mono = 0, wall = 0;
	int i;

	/* The wall time between two counter readings, the closest pair. */
	for (i = 0; i < PAIR_TRIES; i++) {
		m1 = ns_of(CLOCK_MONOTONIC);
		now = ns_of(CLOCK_REALTIME);
		m2 = ns_of(CLOCK_MONOTONIC);
		if (m2 - m1 < gap) {
			gap = m2 - m1;
			mono = m1 + gap / 2;
			wall = now;
		}
	}
	memset(ci, 0, sizeof(*ci));
	ci->mult = 3435973837u;
	ci->shift = 29;
	ci->mask = HCA_CLOCK_MASK;
	ci->overflow_period = 4294;
	/* sign even: no update in progress */
	ci->cycles = hca_clock_at(mono);
	ci->nsec = wall;
}
