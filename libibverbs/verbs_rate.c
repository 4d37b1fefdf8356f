// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* Static-rate conversions: one table, looked up in both directions. */
#include <stddef.h>
#include <string.h>

#include <infiniband/verbs.h>

/* mult is the rate in units of 2.5 Gb/s (-1: not a multiple of it). */
struct rate_row {
	int rate; /* enum ibv_rate */
	int mult;
	int mbps;
};

static const struct rate_row rates[] = {
	{ IBV_RATE_2_5_GBPS, 1, 2500 },	     { IBV_RATE_5_GBPS, 2, 5000 },
	{ IBV_RATE_10_GBPS, 4, 10000 },	     { IBV_RATE_20_GBPS, 8, 20000 },
	{ IBV_RATE_30_GBPS, 12, 30000 },     { IBV_RATE_40_GBPS, 16, 40000 },
	{ IBV_RATE_60_GBPS, 24, 60000 },     { IBV_RATE_80_GBPS, 32, 80000 },
	{ IBV_RATE_120_GBPS, 48, 120000 },   { IBV_RATE_14_GBPS, -1, 14062 },
	{ IBV_RATE_56_GBPS, -1, 56250 },     { IBV_RATE_112_GBPS, -1, 112500 },
	{ IBV_RATE_168_GBPS, -1, 168750 },   { IBV_RATE_25_GBPS, -1, 25781 },
	{ IBV_RATE_100_GBPS, -1, 103125 },   { IBV_RATE_200_GBPS, -1, 206250 },
	{ IBV_RATE_300_GBPS, -1, 309375 },   { IBV_RATE_28_GBPS, 11, 28125 },
	{ IBV_RATE_50_GBPS, 20, 53125 },     { IBV_RATE_400_GBPS, 160, 425000 },
	{ IBV_RATE_600_GBPS, 240, 637500 },  { IBV_RATE_800_GBPS, 320, 850000 },
	{ IBV_RATE_1200_GBPS, 480, 1275000 },
};

/* The row whose int member at @key (an offsetof) equals @value. */
static const struct rate_row *find_rate(size_t key, int value)
{
	size_t i;

	for (i = 0; i < sizeof(rates) / sizeof(rates[0]); i++) {
		const struct rate_row *row = &rates[i];
		int cur;

		memcpy(&cur, (const char *)row + key, sizeof(cur));
		if (cur == value)
			return row;
	}
	return NULL;
}

int ibv_rate_to_mult(enum ibv_rate rate)
{
	const struct rate_row *row = find_rate(offsetof(struct rate_row, rate),
					       rate);

	return row ? row->mult : -1;
}

/* Rates with no 2.5 Gb/s multiple have mult -1, which is not a match. */
enum ibv_rate mult_to_ibv_rate(int mult)
{
	const struct rate_row *row =
		mult > 0 ? find_rate(offsetof(struct rate_row, mult), mult) :
			   NULL;

	return row ? (enum ibv_rate)row->rate : IBV_RATE_MAX;
}

int ibv_rate_to_mbps(enum ibv_rate rate)
{
	const struct rate_row *row = find_rate(offsetof(struct rate_row, rate),
					       rate);

	return row ? row->mbps : -1;
}

enum ibv_rate mbps_to_ibv_rate(int mbps)
{
	const struct rate_row *row = find_rate(offsetof(struct rate_row, mbps),
					       mbps);

	return row ? (enum ibv_rate)row->rate : IBV_RATE_MAX;
}
