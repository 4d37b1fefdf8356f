// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * CQ moderation (MODIFY_CQ): an armed CQ holds back its completion
 * event until cq_count CQEs arrived since the arm, or cq_period
 * microseconds passed since the first of them, whichever comes first;
 * a criterion set to 0 is off, both 0 is no moderation. The timer is seen
 * at the engine's passes (the idle engine looks at least every 10 ms).
 */
#include "hca.h"

int hca_cq_mod_due(struct hca_cq *cq, uint32_t pending)
{
	uint64_t now;

	if (!cq->mod_count && !cq->mod_period)
		return 1;
	if (cq->mod_count && pending >= cq->mod_count)
		return 1;
	now = hca_now();
	if (!cq->mod_since)
		cq->mod_since = now;
	return cq->mod_period &&
	       now - cq->mod_since >= (uint64_t)cq->mod_period * 1000;
}
