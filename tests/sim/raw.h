/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Hand-built uverbs calls for the rdma-sim conformance test. */
#ifndef RDMA_SIM_RAW_H
#define RDMA_SIM_RAW_H

#include <rdma/mlx5-abi.h>
#include <rdma/mlx5_user_ioctl_cmds.h>
#include <rdma/mlx5_user_ioctl_verbs.h>
#include <rdma/rdma_dm_uapi.h>
#include <rdma/rdma_user_ioctl_cmds.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

#include "raw_ioctl.h"

extern int raw_failures;
extern int raw_no_dmabuf;
extern const char *raw_argv0; /* to run ourselves again */

#define EXPECT(cond, ...)                                                      \
	do {                                                                   \
		if (!(cond)) {                                                 \
			fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);   \
			fprintf(stderr, __VA_ARGS__);                          \
			fputc('\n', stderr);                                   \
			raw_failures++;                                        \
		}                                                              \
	} while (0)
/* expect a call to return errno e (0 = success) */
#define EXPECT_ERR(call, e)                                                    \
	do {                                                                   \
		int got_ = (call);                                             \
		EXPECT(got_ == (e), "%s: got %d (%s), want %d", #call, got_,   \
		       got_ ? strerrorname_np(got_) : "0", (e));               \
	} while (0)

/* Open uverbs0, optionally with a context (mlx5 v2 request, DYN_UAR). */
int raw_open(void);
int raw_open_ctx(struct mlx5_ib_alloc_ucontext_resp *resp);
int raw_get_context(int fd, const void *req, uint16_t req_len,
		    struct mlx5_ib_alloc_ucontext_resp *resp);

/* DM_ALLOC with mlx5 attrs; returns errno, fills handle and page index. */
int raw_dm_alloc(int fd, uint64_t len, uint32_t align, uint32_t *handle,
		 uint16_t *page_idx);
/* byte mmap offset of a DEVICE_MEM page index */
uint64_t raw_dm_offset(uint16_t page_idx);
int raw_export(int fd, uint64_t pgoff, int *dmabuf_fd);
/* REG_DMABUF_MR (LOCAL_WRITE, iova = off); errno and *mr. */
int raw_reg_dmabuf_mr(int fd, uint32_t pd, int dfd, uint64_t off, uint64_t len,
		      uint32_t *mr);
/* DM_MR_REG of len bytes at off of DM dm; errno and *mr. */
int raw_reg_dm_mr(int fd, uint32_t pd, uint32_t dm, uint64_t off, uint64_t len,
		  uint32_t access, uint32_t *mr);
/* mlx5 UAR_OBJ_ALLOC of type; errno, handle and byte mmap offset. */
int raw_uar_alloc(int fd, uint64_t type, uint32_t *h, uint64_t *off);

void raw_check_header(void);
void raw_check_context(void);
void raw_check_write(void);
void raw_check_dm(void);
void raw_check_dmabuf(void);
void raw_check_lifetime(void);
void raw_check_netlink(void);
int raw_check_netlink_many(unsigned int ndev);
void raw_check_uar(void);
void raw_check_paths(void);
void raw_check_internal_fds(void);
void raw_check_access(void);
void raw_check_share(void);
/* --peer-reads FD: an exec'd child reads "parent" through the peer */
int raw_peer_reads(const char *fd);
/* --limits N: all pages of N devices of 1 MiB, 300 exports */
int raw_check_limits(unsigned int ndev);
/*
 * Fork a child that runs fn (0: success) and then dies by SIGKILL; once it
 * is a zombie, its pid (the caller reaps it), or -1 if fn or that failed.
 */
pid_t raw_zombie(int (*fn)(void *arg), void *arg);
/* without rdma-sim: the peer API fails cleanly */
int raw_check_outside(void);
/* --driver rxe: no UHW, no DM, no DMABUF, driver id 14 */
int raw_check_rxe(void);

#endif
