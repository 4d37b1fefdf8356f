/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Hand-built uverbs commands, shared by every test that talks to the ABI
 * with no library in between (tests/sim, tests/conformance, ...): one
 * ioctl builder and the legacy/extended write() framing.
 */
#ifndef RDMA_TEST_RAW_IOCTL_H
#define RDMA_TEST_RAW_IOCTL_H

#include <stddef.h>
#include <stdint.h>
#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/rdma_user_ioctl.h>

#define RAW_MAX_ATTRS 300

/*
 * The header followed by room for RAW_MAX_ATTRS attributes. The union
 * lets a check reach attribute i as cmd->attrs[i] or cmd->hdr.attrs[i].
 */
struct raw_ioctl {
	union {
		struct ib_uverbs_ioctl_hdr hdr;
		struct {
			uint8_t hdr_room_[sizeof(struct ib_uverbs_ioctl_hdr)];
			struct ib_uverbs_attr attrs[RAW_MAX_ATTRS];
		};
	};
};

/* driver_id that raw_init puts in every header (RDMA_DRIVER_*; 0 = none). */
extern uint32_t raw_driver_id;

/* Start a command: empty attribute list, length of the bare header. */
void raw_init(struct raw_ioctl *cmd, uint16_t object, uint16_t method);
/*
 * Append one attribute, keeping num_attrs and length in step; returns it
 * so a check can corrupt it afterwards.
 */
struct ib_uverbs_attr *raw_add(struct raw_ioctl *cmd, uint16_t id, uint16_t len,
			       uint16_t flags, uint64_t data);
/* raw_add of a mandatory attribute. */
struct ib_uverbs_attr *raw_attr(struct raw_ioctl *cmd, uint16_t id,
				uint16_t len, uint64_t data);
#define raw_ptr(c, id, p) raw_attr(c, id, sizeof(*(p)), (uintptr_t)(p))
/* Recompute length from num_attrs (after a check changed num_attrs). */
void raw_finish(struct raw_ioctl *cmd);
/* Issue the ioctl as it stands; 0 or the errno. */
int raw_call(int fd, struct raw_ioctl *cmd);
/* raw_call, then the new handle a create left in attribute 0. */
int raw_call_new(int fd, struct raw_ioctl *cmd, uint32_t *handle);
/* raw_finish + raw_call. */
int raw_exec(int fd, struct raw_ioctl *cmd);
/*
 * raw_exec in a child process, for commands carrying bad user pointers: a
 * kernel answers EFAULT, a user-space model that dereferences them dies,
 * and that must become a result (-signal number), not end the test.
 */
int raw_exec_isolated(int fd, struct raw_ioctl *cmd);

/* Legacy write(): hdr + body; the body's response pointer is the caller's. */
int raw_write(int fd, uint32_t command, void *body, size_t body_len,
	      size_t resp_len);
/* Extended write(): hdr + ex_hdr + body, response of resp_len bytes. */
int raw_write_ex(int fd, uint32_t command, void *body, size_t body_len,
		 void *resp, size_t resp_len);

/* write(ALLOC_PD) / write(REG_MR): 0 or the errno. */
int raw_alloc_pd(int fd, uint32_t *pd_handle);
int raw_reg_mr(int fd, uint32_t pd_handle, void *buf, size_t len,
	       uint32_t *mr_handle);
/* write(REG_MR) with access flags: 0 or the errno; handle and keys in
 * resp. */
int raw_reg_mr_access(int fd, uint32_t pd_handle, void *buf, size_t len,
		      uint32_t access, struct ib_uverbs_reg_mr_resp *resp);
/* A destroy ioctl whose handle is attribute attr (0 for core objects). */
int raw_destroy_attr(int fd, uint16_t obj, uint16_t method, uint16_t attr,
		     uint32_t handle);
int raw_destroy(int fd, uint16_t obj, uint16_t method, uint32_t handle);
/* ioctl(PD_DESTROY): 0 or the errno. */
int raw_destroy_pd(int fd, uint32_t pd_handle);

#endif /* RDMA_TEST_RAW_IOCTL_H */
