/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Management datagrams as the IBA lays them out, between the umad device
 * (core/umad.c), the SA (core/umad_sa.c) and the HCA's own agents
 * (hw/mlx5/hca_mad.c: the SMA and PMA the firmware runs, reached through
 * the driver's process_mad, hca_cmd.h). Offsets are the IBA's, all fields
 * big-endian.
 */
#ifndef RDMA_SIM_MAD_H
#define RDMA_SIM_MAD_H

#include <stdint.h>

#include "port_attr.h" /* SIM_SM_LID */

#define SIM_MAD_SIZE	 256
#define SIM_MAD_HDR	 24 /* the common MAD header */
#define SIM_MAD_RMPP_HDR 36 /* shortest write the kernel takes */

enum {
	SIM_MAD_CLASS_SMI = 0x01,
	SIM_MAD_CLASS_SA = 0x03,
	SIM_MAD_CLASS_PERF = 0x04,
	SIM_MAD_CLASS_SMI_DR = 0x81,
};

enum {
	SIM_MAD_GET = 0x01,
	SIM_MAD_SET = 0x02,
	SIM_MAD_RESP = 0x80, /* the R bit of the method */
};

/*
 * The SA's answer to MAD in sent to the SM LID (core/umad_sa.c): 1 with
 * the response in out for an MCMemberRecord join or leave (or its error
 * status), 0 for what the SA leaves unanswered. Takes the shared lock.
 */
int sim_sa_process(const uint8_t *in, uint8_t *out);

/*
 * The RDMA CM's join of device dev's port (cma_join_ib_multicast): a
 * SubnAdmSet of MCMemberRecord for mgid with the port GID, Q_Key, P_Key
 * 0xffff, JoinState js and the IPoIB broadcast group's SL, FlowLabel and
 * TClass. 0 with the group's record (its MLID) in rec, or the SA's
 * status. Caller holds the shared lock.
 */
uint16_t sim_sa_cm_join(unsigned int dev, const uint8_t port_gid[16],
			const uint8_t mgid[16], uint32_t qkey, uint8_t js,
			uint8_t *rec);
/* Leave the JoinState bits js of dev's port that it holds (the CM's last
 * join of the port needing them went). Caller holds the shared lock. */
void sim_sa_cm_leave(unsigned int dev, const uint8_t mgid[16], uint8_t js);

#endif
