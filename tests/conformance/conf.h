/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * rdma-conformance: one program that asks the uverbs ABI a fixed list of
 * questions and prints a canonical table (scope, check, expected, got).
 * The expectations are what the real kernels answered in the VM lane; the
 * same table must come out of rdma-sim. Rows whose answer differs between
 * kernel versions have scope "kver" and are not compared with the sim, or
 * "kmod" when the sim answers as the kernel version it is told to be.
 */
#ifndef CONF_H
#define CONF_H

#include <stdbool.h>
#include <stdint.h>
#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/rdma_user_ioctl.h>

#include "raw_ioctl.h"
#include "raw_write_dp.h"

#define UVERBS_DEV "/dev/infiniband/uverbs0"

/* Values of the kernel's port enums (not in the uAPI headers). */
#define CONF_PORT_ACTIVE	 4
#define CONF_LINK_LAYER_ETHERNET 2

/* ---- report.c: the table ---- */

/* Record one row; a row whose got differs from expected counts as failed. */
void conf_row(const char *scope, const char *name, const char *expected,
	      const char *got);
/* "ok" for 0, the errno's symbolic name (EINVAL ...), SIGxxx for -signal. */
const char *conf_err(int err);
/* Row comparing errnos (0 = success), same answer on every kernel. */
void conf_expect(const char *name, int expected, int got);
/* Row whose answer differs by kernel: before 6.12 vs 6.12 and later. */
void conf_expect_kv(const char *name, int before_612, int since_612, int got);
/* Row whose answer differs by kernel and which rdma-sim models per version
 * (`--kernel`): scope "kmod", compared with the sim of the lane's kernel. */
void conf_expect_kmod(const char *name, int before_612, int since_612, int got);
/* Unsigned row as conf_expect_kmod: by kernel, compared with the sim. */
void conf_expect_u_kmod(const char *name, unsigned long long before_612,
			unsigned long long since_612, unsigned long long got);
/* Row comparing an unsigned value printed in decimal. */
void conf_expect_u(const char *name, unsigned long long expected,
		   unsigned long long got);
/* Unsigned row whose value differs by kernel (before 6.12 / since). */
void conf_expect_u_kv(const char *name, unsigned long long before_612,
		      unsigned long long since_612, unsigned long long got);
/* True when the running kernel is at least major.minor. */
bool conf_kernel_at_least(int major, int minor);
void conf_print_header(const char *what);
/* Number of failed rows so far. */
int conf_failures(void);

/* ---- raw.c: hand-built ioctl and write() commands ---- */

/* One table row: break a valid command one way, expect this errno. */
struct raw_mutation {
	const char *name;
	void (*mutate)(struct raw_ioctl *cmd);
	int expected;
};

/* DEVICE/QUERY_PORT of port 1: attr 0 PORT_NUM, attr 1 RESP (resp, len). */
void raw_query_port_cmd(struct raw_ioctl *cmd, void *resp, uint16_t len);

/* Open uverbs0 and create its context with write(GET_CONTEXT). -1 on error. */
int raw_open_context(void);
/* A uverbs fd with a context, shared by the check groups (main.c). */
extern int conf_fd;
/* Ask RDMA netlink for the uverbs driver id of the device named ibdev. */
int nl_uverbs_driver_id(const char *ibdev, uint32_t *driver_id);

/* GID 0 of port 1 as the raw ioctl returned it (check_gid.c). */
extern struct ib_uverbs_gid_entry conf_gid0;
/* Number of entries QUERY_GID_TABLE returned (check_gid.c). */
extern uint64_t conf_gid_count;

/* A one-page dma-buf fd from /dev/udmabuf, or -errno (check_objects.c). */
int conf_udmabuf_create(void);

/*
 * ---- raw_dp.c: write() forms of CQ, QP, SRQ, AH (rxe driver data); the
 * destroys and modifies are tests/common/raw_write_dp.h's ----
 */

/* resp_len 0 = core + rxe response; smaller to starve the driver data. */
int raw_create_cq(int fd, int cqe, int comp_vector, int channel,
		  size_t resp_len, uint32_t *handle, uint32_t *granted);
int raw_resize_cq(int fd, uint32_t handle, int cqe);
/* An RC/UC/UD create command: 8 WRs and 1 SGE each way, CQ for both. */
void raw_qp_cmd_init(struct ib_uverbs_create_qp *cmd, uint32_t pd,
		     uint32_t cq, uint8_t type);
int raw_create_qp(int fd, struct ib_uverbs_create_qp *cmd, size_t resp_len,
		  struct ib_uverbs_create_qp_resp *out);
int raw_create_srq(int fd, uint32_t pd, uint32_t max_wr, uint32_t max_sge,
		   size_t resp_len, struct ib_uverbs_create_srq_resp *out);
int raw_create_ah(int fd, uint32_t pd, const struct ib_uverbs_ah_attr *attr,
		  uint32_t *handle, uint32_t *ah_num);
int raw_destroy_ah(int fd, uint32_t handle);

/* ---- check groups ---- */
void check_netlink(void);
void check_header(void);
void check_attrs(void);
void check_idr(void);
void check_write(void);
void check_objects(void);
void check_gid(void);
void check_context(void);
void check_library(void);
void check_cq(void);
void check_qp(void);
void check_qp_states(void);
void check_srq_ah(void);
void check_mw(void);
void check_lib_discovery(void);

#endif /* CONF_H */
