// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Prints what the device-independent exported functions return for every
 * value around their ranges, and the values of header-only constants.
 * Built once against rdma-core 44 (system headers and library) and once
 * against ours: the outputs must match.
 */
#include <stdio.h>

#include <infiniband/opcode.h>
#include <infiniband/tm_types.h>
#include <infiniband/verbs.h>

#define OPCODE(t, op)                                                          \
	printf("opcode %s_%s: %d\n", #t, #op, IBV_OPCODE_##t##_##op);
#define SENDS_AND_WRITES(t)                                                    \
	OPCODE(t, SEND_FIRST) OPCODE(t, SEND_MIDDLE) OPCODE(t, SEND_LAST)      \
	OPCODE(t, SEND_LAST_WITH_IMMEDIATE) OPCODE(t, SEND_ONLY)               \
	OPCODE(t, SEND_ONLY_WITH_IMMEDIATE) OPCODE(t, RDMA_WRITE_FIRST)        \
	OPCODE(t, RDMA_WRITE_MIDDLE) OPCODE(t, RDMA_WRITE_LAST)                \
	OPCODE(t, RDMA_WRITE_LAST_WITH_IMMEDIATE) OPCODE(t, RDMA_WRITE_ONLY)   \
	OPCODE(t, RDMA_WRITE_ONLY_WITH_IMMEDIATE)
#define READS_AND_ATOMICS(t)                                                   \
	OPCODE(t, RDMA_READ_REQUEST) OPCODE(t, RDMA_READ_RESPONSE_FIRST)       \
	OPCODE(t, RDMA_READ_RESPONSE_MIDDLE)                                   \
	OPCODE(t, RDMA_READ_RESPONSE_LAST)                                     \
	OPCODE(t, RDMA_READ_RESPONSE_ONLY) OPCODE(t, ACKNOWLEDGE)              \
	OPCODE(t, ATOMIC_ACKNOWLEDGE) OPCODE(t, COMPARE_SWAP)                  \
	OPCODE(t, FETCH_ADD)

/* Header constants: every base transport header opcode, TM header ops. */
static void print_constants(void)
{
	SENDS_AND_WRITES(RC)
	READS_AND_ATOMICS(RC)
	SENDS_AND_WRITES(UC)
	SENDS_AND_WRITES(RD)
	READS_AND_ATOMICS(RD)
	OPCODE(UD, SEND_ONLY)
	OPCODE(UD, SEND_ONLY_WITH_IMMEDIATE)
	printf("tmh ops: %d %d %d %d\n", IBV_TMH_NO_TAG, IBV_TMH_RNDV,
	       IBV_TMH_FIN, IBV_TMH_EAGER);
}

int main(void)
{
	static const int mults[] = { -1, 0, 1, 2, 3, 4, 8, 10, 11, 12, 16, 20,
				     24, 32, 40, 48, 80, 160, 240, 320, 480 };
	int i;

	for (i = -1; i <= 26; i++)
		printf("rate %d: mult %d mbps %d\n", i,
		       ibv_rate_to_mult((enum ibv_rate)i),
		       ibv_rate_to_mbps((enum ibv_rate)i));
	for (i = 0; i < (int)(sizeof(mults) / sizeof(mults[0])); i++)
		printf("mult %d: rate %d\n", mults[i],
		       (int)mult_to_ibv_rate(mults[i]));
	/* Every speed the table knows, and its neighbours. */
	for (i = -1; i <= 26; i++) {
		int mbps = ibv_rate_to_mbps((enum ibv_rate)i);

		printf("mbps %d: rate %d %d %d\n", mbps,
		       (int)mbps_to_ibv_rate(mbps - 1),
		       (int)mbps_to_ibv_rate(mbps),
		       (int)mbps_to_ibv_rate(mbps + 1));
	}
	for (i = -2; i <= 9; i++)
		printf("node %d: %s\n", i,
		       ibv_node_type_str((enum ibv_node_type)i));
	for (i = -1; i <= 7; i++)
		printf("port %d: %s\n", i,
		       ibv_port_state_str((enum ibv_port_state)i));
	for (i = -1; i <= 21; i++)
		printf("event %d: %s\n", i,
		       ibv_event_type_str((enum ibv_event_type)i));
	for (i = -1; i <= 25; i++)
		printf("wc %d: %s\n", i,
		       ibv_wc_status_str((enum ibv_wc_status)i));
	print_constants();
	return 0;
}
