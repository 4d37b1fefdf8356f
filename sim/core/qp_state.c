// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The kernel's QP state table (ib_modify_qp_is_ok, identical in 6.1 and
 * 6.12) for RC, UC and UD: which transitions exist and, per QP type, the
 * attributes each requires and allows besides IB_QP_STATE.
 */
#include "obj.h"

struct transition {
	uint8_t valid;
	uint32_t req[3], opt[3]; /* [RC, UC, UD] */
};

#define ST(s) IB_QPS_##s
#define M(b)  IB_QP_##b

/* rows that need nothing and allow nothing (to RESET and to ERR) */
#define BARE                                                                   \
	{                                                                      \
		.valid = 1                                                     \
	}

#define RCUC_INIT_OPT (M(PKEY_INDEX) | M(PORT) | M(ACCESS_FLAGS))
#define UD_INIT_OPT   (M(PKEY_INDEX) | M(PORT) | M(QKEY))
#define RC_RTS_OPT                                                             \
	(M(CUR_STATE) | M(ALT_PATH) | M(ACCESS_FLAGS) | M(MIN_RNR_TIMER) |     \
	 M(PATH_MIG_STATE))
#define UC_RTS_OPT                                                             \
	(M(CUR_STATE) | M(ALT_PATH) | M(ACCESS_FLAGS) | M(PATH_MIG_STATE))
#define UD_RTS_OPT (M(CUR_STATE) | M(QKEY))

static const struct transition table[7][7] = {
	[ST(RESET)] =
		{
			[ST(RESET)] = BARE,
			[ST(INIT)] = {.valid = 1,
				      .req = {RCUC_INIT_OPT, RCUC_INIT_OPT,
					      UD_INIT_OPT}},
		},
	[ST(INIT)] =
		{
			[ST(RESET)] = BARE,
			[ST(ERR)] = BARE,
			[ST(INIT)] = {.valid = 1,
				      .opt = {RCUC_INIT_OPT, RCUC_INIT_OPT,
					      UD_INIT_OPT}},
			[ST(RTR)] = {.valid = 1,
				     .req = {M(AV) | M(PATH_MTU) | M(DEST_QPN) |
						     M(RQ_PSN) |
						     M(MAX_DEST_RD_ATOMIC) |
						     M(MIN_RNR_TIMER),
					     M(AV) | M(PATH_MTU) | M(DEST_QPN) |
						     M(RQ_PSN),
					     0},
				     .opt = {M(ALT_PATH) | M(ACCESS_FLAGS) |
						     M(PKEY_INDEX),
					     M(ALT_PATH) | M(ACCESS_FLAGS) |
						     M(PKEY_INDEX),
					     M(PKEY_INDEX) | M(QKEY)}},
		},
	[ST(RTR)] =
		{
			[ST(RESET)] = BARE,
			[ST(ERR)] = BARE,
			[ST(RTS)] = {.valid = 1,
				     .req = {M(TIMEOUT) | M(RETRY_CNT) |
						     M(RNR_RETRY) |
						     M(SQ_PSN) | M(MAX_QP_RD_ATOMIC),
					     M(SQ_PSN), M(SQ_PSN)},
				     .opt =
					     {RC_RTS_OPT,
					      UC_RTS_OPT, UD_RTS_OPT}},
		},
	[ST(RTS)] =
		{
			[ST(RESET)] = BARE,
			[ST(ERR)] = BARE,
			[ST(RTS)] = {.valid = 1,
				     .opt = {RC_RTS_OPT, UC_RTS_OPT,
					     UD_RTS_OPT}},
			[ST(SQD)] = {.valid = 1,
				     .opt = {M(EN_SQD_ASYNC_NOTIFY),
					     M(EN_SQD_ASYNC_NOTIFY),
					     M(EN_SQD_ASYNC_NOTIFY)}},
		},
	[ST(SQD)] =
		{
			[ST(RESET)] = BARE,
			[ST(ERR)] = BARE,
			[ST(RTS)] = {.valid = 1,
				     .opt = {RC_RTS_OPT, UC_RTS_OPT,
					     UD_RTS_OPT}},
			[ST(SQD)] = {.valid = 1,
				     .opt = {M(PORT) |
						     M(AV) | M(TIMEOUT) | M(RETRY_CNT) |
						     M(RNR_RETRY) |
						     M(MAX_QP_RD_ATOMIC) |
						     M(MAX_DEST_RD_ATOMIC) |
						     M(ALT_PATH) |
						     M(ACCESS_FLAGS) |
						     M(PKEY_INDEX) |
						     M(MIN_RNR_TIMER) |
						     M(PATH_MIG_STATE),
					     M(AV) | M(ALT_PATH) |
						     M(ACCESS_FLAGS) |
						     M(PKEY_INDEX) |
						     M(PATH_MIG_STATE),
					     M(PKEY_INDEX) | M(QKEY)}},
		},
	[ST(SQE)] =
		{
			[ST(RESET)] = BARE,
			[ST(ERR)] = BARE,
			[ST(RTS)] = {.valid = 1,
				     .opt = {0, M(CUR_STATE) | M(ACCESS_FLAGS),
					     M(CUR_STATE) | M(QKEY)}},
		},
	[ST(ERR)] =
		{
			[ST(RESET)] = BARE,
			[ST(ERR)] = BARE,
		},
};

/*
 * XRC QPs follow RC's rows without the attributes of the half they lack
 * (the kernel's qp_state_table lists them so; modify_qp_mask drops them
 * from the request first).
 */
uint32_t sim_qp_mask_stripped(unsigned int type)
{
	if (type == IB_QPT_XRC_INI)
		return M(MAX_DEST_RD_ATOMIC) | M(MIN_RNR_TIMER);
	if (type == IB_QPT_XRC_TGT)
		return M(MAX_QP_RD_ATOMIC) | M(RETRY_CNT) | M(RNR_RETRY);
	return 0;
}

int sim_qp_transition_ok(unsigned int cur, unsigned int next, unsigned int type,
			 uint32_t mask)
{
	const struct transition *t;
	uint32_t strip = sim_qp_mask_stripped(type);
	unsigned int k;

	if (cur > IB_QPS_ERR || next > IB_QPS_ERR)
		return 0;
	if (type == IB_QPT_XRC_INI || type == IB_QPT_XRC_TGT)
		type = IB_QPT_RC;
	if (type < IB_QPT_RC || type > IB_QPT_UD)
		return 0;
	/* CUR_STATE only names a state the QP can be told it is in */
	if ((mask & IB_QP_CUR_STATE) && cur != IB_QPS_RTR &&
	    cur != IB_QPS_RTS && cur != IB_QPS_SQD && cur != IB_QPS_SQE)
		return 0;
	t = &table[cur][next];
	if (!t->valid)
		return 0;
	k = type - IB_QPT_RC;
	if ((mask & t->req[k] & ~strip) != (t->req[k] & ~strip))
		return 0;
	return !(mask & ~(t->req[k] | t->opt[k] | IB_QP_STATE));
}
