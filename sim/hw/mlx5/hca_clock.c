// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The HCA's free-running clock: a 41-bit counter at hca_core_clock
 * (156250 kHz, 5 cycles every 32 ns) that started with the host
 * (CLOCK_MONOTONIC), shared by every process of the simulation. CQEs
 * carry its value; the driver reads it for the clock-info page.
 */
#include "hca_cmd.h"

#include <time.h>

uint64_t hca_clock_at(uint64_t mono_ns)
{
	return mono_ns / 32 * 5 & HCA_CLOCK_MASK;
}

uint64_t hca_clock_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return hca_clock_at((uint64_t)ts.tv_sec * 1000000000ULL +
			    (uint64_t)ts.tv_nsec);
}
