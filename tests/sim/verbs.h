/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * sim_verbs: the data-path uverbs objects (completion channel, CQ, QP,
 * SRQ, AH) of rdma-sim by hand-built ioctls and writes, under either
 * driver model. Creates carry the driver data the real provider would
 * send (mlx5: rings and doorbell records; rxe: room for its responses).
 */
#ifndef RDMA_SIM_VERBS_H
#define RDMA_SIM_VERBS_H

#include "raw.h"
#include "raw_write_dp.h"

#include <rdma/ib_user_verbs.h>

/* the driver the test runs against */
extern int v_rxe;

/* A context on uverbs0 for the driver (mlx5: static UARs, cqe v1). */
int v_open(void);

/* Driver data of one create (rings stay mapped: the objects use them). */
struct v_udata {
	uint8_t in[96];
	size_t in_len;
	uint8_t out[64];
	size_t out_len;
	void *buf, *db;
};
void v_cq_udata(struct v_udata *u, uint32_t cqe);
void v_qp_udata(struct v_udata *u, uint32_t max_recv_wr, int has_rq);
void v_srq_udata(struct v_udata *u, uint32_t max_wr, uint32_t max_sge);

/* write(cmd) of a core request (its first u64 the response pointer) with
 * u's driver data; the response is core_len bytes then u->out. */
int v_write_udata(int fd, uint32_t cmd, void *core, size_t core_len,
		  void *resp, size_t resp_len, struct v_udata *u);
/* The same by extended write(): the driver data's words in the ex header,
 * its response after the core's resp_len bytes. */
int v_write_ex_udata(int fd, uint32_t cmd, void *core, size_t core_len,
		     void *resp, size_t resp_len, struct v_udata *u);
/* Append the driver data as UHW_IN (when any) and UHW_OUT. */
void v_add_uhw(struct raw_ioctl *c, struct v_udata *u);
/* A context with a PD and a 64-entry CQ; -1 (reported) on failure. */
int v_env(uint32_t *pd, uint32_t *cq);

/* write(CREATE_CQ); channel -1 for none. 0 or the errno. */
int v_create_cq(int fd, uint32_t cqe, uint32_t vector, int channel,
		uint32_t *handle, uint32_t *cqe_out);
/* ioctl CQ_CREATE with optional channel/event fds (-1: absent). */
int v_create_cq_ioctl(int fd, uint32_t cqe, uint32_t vector, int channel,
		      int event_fd, uint32_t flags, uint32_t *handle);
int v_create_channel(int fd, int *channel);

struct v_qp_req {
	uint32_t pd, send_cq, recv_cq, srq; /* srq ~0: none */
	uint8_t type;
	struct ib_uverbs_qp_cap cap;
	int event_fd; /* ioctl create only; -1: the context's default */
};
void v_qp_req_init(struct v_qp_req *r, uint32_t pd, uint32_t cq, uint8_t type);
/* write(CREATE_QP) / ioctl QP_CREATE: 0 or the errno. */
int v_create_qp(int fd, const struct v_qp_req *r, uint32_t *handle,
		uint32_t *qpn);
int v_create_qp_ioctl(int fd, const struct v_qp_req *r, uint64_t flags,
		      uint32_t *handle, uint32_t *qpn);

/* A valid MODIFY_QP template (raw_modify_qp_init, an AV on LID 1, with
 * a GRH on rxe) of the attributes in mask with the given state. */
void v_modify_base(struct ib_uverbs_modify_qp *m, uint32_t qp, uint8_t state,
		   uint32_t mask);
/* QP to RESET->INIT->RTR->RTS->SQD or ERR by valid minimal steps. */
int v_drive(int fd, uint32_t qp, uint8_t type, uint8_t state);
int v_query_state(int fd, uint32_t qp, uint8_t *state);

int v_create_srq(int fd, uint32_t pd, uint32_t max_wr, uint32_t max_sge,
		 uint32_t *handle);
/* INFO_HANDLES: the live handles of object type obj, ~0 on failure. */
uint32_t v_count_handles(int fd, uint16_t obj);

/* XRC by write(): OPEN_XRCD on file (-1: private), CREATE_QP of an
 * XRC_TGT, OPEN_QP of one. 0 or the errno. */
int v_open_xrcd(int fd, int file, uint32_t oflags, uint32_t *handle);
int v_create_tgt(int fd, uint32_t xrcd, uint32_t *handle, uint32_t *qpn);
int v_open_qp(int fd, uint32_t xrcd, uint32_t qpn, uint8_t type,
	      uint32_t *handle);

/* --abort KIND: the first create of KIND fails at its commit (run under
 * --fail KIND:1:EIO:commit) and leaves nothing behind. */
int v_check_abort(const char *kind);
/* --fork-destroy: a fork child destroys its copies of the parent's
 * objects, then the parent its own (verbs_fork.c). */
int v_check_fork_destroy(void);

void v_check_cq(void);
void v_check_qp(void);
void v_check_states(void);
void v_check_srq_ah(void);
void v_check_events(void);
void v_check_leaks(void);
void v_check_mlx5_udata(void);
void v_check_xrc(void);
void v_check_rxe_dp(void);

#endif
