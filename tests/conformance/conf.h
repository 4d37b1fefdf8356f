/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * rdma-conformance: one program that asks the uverbs ABI a fixed list of
 * questions and prints a canonical table (scope, check, expected, got).
 * The expectations are what the real kernels answered in the VM lane; the
 * same table must come out of rdma-sim. Rows whose answer differs between
 * kernel versions have scope "kver" and are not compared with the sim.
 */
#ifndef CONF_H
#define CONF_H

#include <stdbool.h>
#include <stdint.h>
#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/rdma_user_ioctl.h>

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
/* Row comparing an unsigned value printed in decimal. */
void conf_expect_u(const char *name, unsigned long long expected,
		   unsigned long long got);
/* True when the running kernel is at least major.minor. */
bool conf_kernel_at_least(int major, int minor);
void conf_print_header(const char *what);
/* Number of failed rows so far. */
int conf_failures(void);

/* ---- raw.c: hand-built ioctl and write() commands ---- */

#define RAW_MAX_ATTRS 300

/*
 * Same layout as struct ib_uverbs_ioctl_hdr, spelled out because that one
 * ends in a flexible array and cannot be followed by our attribute array.
 */
struct raw_hdr {
	uint16_t length;
	uint16_t object_id;
	uint16_t method_id;
	uint16_t num_attrs;
	uint64_t reserved1;
	uint32_t driver_id;
	uint32_t reserved2;
};
_Static_assert(sizeof(struct raw_hdr) == sizeof(struct ib_uverbs_ioctl_hdr),
	       "raw_hdr must match ib_uverbs_ioctl_hdr");

struct raw_ioctl {
	struct raw_hdr hdr;
	struct ib_uverbs_attr attrs[RAW_MAX_ATTRS];
};

/* Start a command; driver_id is the device's RDMA_DRIVER_* value. */
void raw_init(struct raw_ioctl *cmd, uint16_t object, uint16_t method);
/* Append one attribute; returns it so a check can corrupt it. */
struct ib_uverbs_attr *raw_add(struct raw_ioctl *cmd, uint16_t id, uint16_t len,
			       uint16_t flags, uint64_t data);
/* Set length/num_attrs from the attributes added so far. */
void raw_finish(struct raw_ioctl *cmd);
/* Issue the ioctl as-is; 0 or the errno. */
int raw_call(int fd, struct raw_ioctl *cmd);
/* raw_finish + raw_call. */
int raw_exec(int fd, struct raw_ioctl *cmd);
/*
 * raw_exec in a child process, for commands carrying bad user pointers: a
 * kernel answers EFAULT, a user-space model that dereferences them dies,
 * and that must become a row (-signal number), not end the table.
 */
int raw_exec_isolated(int fd, struct raw_ioctl *cmd);

/* One table row: break a valid command one way, expect this errno. */
struct raw_mutation {
	const char *name;
	void (*mutate)(struct raw_ioctl *cmd);
	int expected;
};

/* DEVICE/QUERY_PORT of port 1: attr 0 PORT_NUM, attr 1 RESP (resp, len). */
void raw_query_port_cmd(struct raw_ioctl *cmd, void *resp, uint16_t len);

/* Legacy write(): hdr + body; response pointer already set by the caller. */
int raw_write(int fd, uint32_t command, void *body, size_t body_len,
	      size_t resp_len);
/* Extended write(): hdr + ex_hdr + body, response of resp_len bytes. */
int raw_write_ex(int fd, uint32_t command, void *body, size_t body_len,
		 void *resp, size_t resp_len);

/* Open uverbs0 and create its context with write(GET_CONTEXT). -1 on error. */
int raw_open_context(void);
/* write(ALLOC_PD) / write(REG_MR) helpers returning 0 or the errno. */
int raw_alloc_pd(int fd, uint32_t *pd_handle);
int raw_reg_mr(int fd, uint32_t pd_handle, void *buf, size_t len,
	       uint32_t *mr_handle);
/* ioctl(PD_DESTROY); 0 or the errno. */
int raw_destroy_pd(int fd, uint32_t pd_handle);

/* The device's driver id, from netlink (nl_driver.c); 0 when unknown. */
extern uint32_t conf_driver_id;
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
void check_lib_discovery(void);

#endif /* CONF_H */
