/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The interface between v44_probe.c (compiled against rdma-core 44's
 * installed headers, as a program built elsewhere would be) and the test
 * that runs it on our contexts. Only plain C types cross it.
 */
#ifndef VERBS_API_V44_PROBE_H
#define VERBS_API_V44_PROBE_H

#include <stdint.h>

struct v44_result {
	void *dm;		/* ibv_alloc_dm() */
	int alloc_dm_errno;
	uint32_t dm_handle;
	int free_dm_ret;	/* ibv_free_dm() */
	void *dm_mr;		/* ibv_reg_dm_mr() */
	int dm_mr_errno;
	int query_ex_ret;	/* ibv_query_device_ex() */
	uint64_t max_dm_size;
	int query_ex_bad_mask;	/* with input comp_mask 1 */
	int query_port_ret;	/* ibv_query_port() */
	uint16_t lid;
	uint8_t port_bytes_past_v44_untouched;
	int poll_ret;		/* ibv_poll_cq() on a CQ of the context */
};

/* Run the v44 inline verbs on @ibv_context. */
void v44_probe(void *ibv_context, struct v44_result *res);

#endif /* VERBS_API_V44_PROBE_H */
