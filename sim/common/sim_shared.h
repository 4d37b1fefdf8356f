/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * State shared by every process of one rdma-sim world: configuration,
 * fault-injection counters, the MEMIC allocator and dma-buf exports. It
 * lives in <dir>/state (MAP_SHARED) behind one robust process-shared mutex.
 * MEMIC bytes live in <dir>/memic, one sparse file holding every
 * device's --dm-size bytes one after the other (one fd per process
 * however many devices).
 */
#ifndef RDMA_SIM_SHARED_H
#define RDMA_SIM_SHARED_H

#include <pthread.h>
#include <stdint.h>
#include <sys/types.h>

#define SIM_MAGIC	0x52534d31u /* "RSM1" */
#define SIM_MAX_DEVICES 1024
#define SIM_MAX_ALLOCS	512
#define SIM_MAX_EXPORTS 256
#define SIM_MAX_FAIL	16
#define SIM_KIND_LEN	32
#define SIM_PATH_LEN	512

enum sim_driver_kind { SIM_DRIVER_MLX5 = 0, SIM_DRIVER_RXE = 1 };

struct sim_config {
	uint32_t ndev;
	uint32_t page_size;
	uint64_t dm_size; /* bytes of MEMIC per device, 0 = no DM */
	uint8_t driver;	  /* enum sim_driver_kind */
	uint8_t no_dmabuf;
	uint8_t no_netlink;
	char trace_path[SIM_PATH_LEN];
};

struct sim_fail_rule {
	char kind[SIM_KIND_LEN];
	uint32_t nth; /* 1-based call number that fails */
	uint32_t err;
	uint32_t count; /* calls of this kind seen so far */
};

/* One MEMIC allocation: whole pages, as the kernel's page bitmap does. */
struct sim_alloc {
	uint32_t in_use;
	uint32_t gen; /* bumped on every reuse of the slot */
	uint32_t dev;
	uint32_t first_page;
	uint32_t npages;
	int32_t owner_pid;
	uint8_t dm_alive; /* the DM object still exists */
	uint32_t maps;	  /* CPU mappings still alive in the owner */
	uint32_t exports; /* dma-buf fds still open */
};

struct sim_export {
	uint32_t in_use;
	uint32_t gen;
	uint32_t dev;
	uint32_t first_page;
	uint32_t npages;
	int32_t alloc; /* slot in allocs[], -1 if none */
	uint32_t alloc_gen;
	uint8_t revoked;
	int32_t owner_pid;
};

struct sim_shared {
	uint32_t magic;
	uint32_t size;
	pthread_mutex_t lock;
	struct sim_config cfg;
	uint64_t next_id;
	uint32_t next_qpn; /* QP numbers: unique per device, all processes */
	uint32_t nfail;
	struct sim_fail_rule fail[SIM_MAX_FAIL];
	struct sim_alloc allocs[SIM_MAX_ALLOCS];
	struct sim_export exports[SIM_MAX_EXPORTS];
};

/* Create the state file in dir (launcher). 0 or -errno. */
int sim_shared_create(const char *dir, const struct sim_config *cfg,
		      const struct sim_fail_rule *rules, unsigned int nrules);
/* Map an existing state file; NULL + errno. */
struct sim_shared *sim_shared_map(const char *dir);
void sim_shared_lock(struct sim_shared *sh);
void sim_shared_unlock(struct sim_shared *sh);

/* Path of the MEMIC backing file of all devices. */
void sim_memic_path(char *buf, size_t len, const char *dir);

/*
 * Reserve npages free pages of device dev. Slots held by dead processes are
 * reclaimed first. Returns the slot or -ENOMEM. Caller holds the lock.
 */
int sim_alloc_pages(struct sim_shared *sh, unsigned int dev, uint32_t npages);
/* Drop one reference kind; frees the slot when nothing holds it. Locked. */
void sim_alloc_put(struct sim_shared *sh, int slot);
/* Create an export of an allocation's pages; slot or -ENOSPC. Locked. */
int sim_export_create(struct sim_shared *sh, int alloc, uint32_t first_page,
		      uint32_t npages);
/* Revoke every export of an allocation. Locked. */
void sim_export_revoke_alloc(struct sim_shared *sh, int alloc);
/* The export fd was closed: release it and its hold on the pages. Locked. */
void sim_export_release(struct sim_shared *sh, int slot);

/* Count one call of kind; returns the errno to inject or 0. Takes lock. */
int sim_fail_check(struct sim_shared *sh, const char *kind);

#endif
