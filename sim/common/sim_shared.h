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

#include "fault.h"
#include "netdev.h"

#define SIM_MAGIC	0x52534d31u /* "RSM1" */
#define SIM_MAX_DEVICES 1024
/* The kernel's MEMIC page bitmap: at most 256 pages per device. */
#define SIM_MEMIC_MAX_PAGES 256
/* One slot per possible first page: no allocation limit of our own. */
#define SIM_MAX_ALLOCS (SIM_MAX_DEVICES * SIM_MEMIC_MAX_PAGES)
#define SIM_MAX_FAIL   16
#define SIM_KIND_LEN   32
#define SIM_PATH_LEN   512

enum sim_driver_kind { SIM_DRIVER_MLX5 = 0, SIM_DRIVER_RXE = 1 };
/* Whether the world gets its own network namespace. */
enum sim_netns_mode {
	SIM_NETNS_AUTO = 0, /* when a port is Ethernet */
	SIM_NETNS_ALWAYS,   /* --netns */
	SIM_NETNS_NEVER,    /* --no-netns (IB-only worlds) */
};

struct sim_config {
	uint32_t ndev;
	uint32_t page_size;
	uint64_t dm_size; /* bytes of MEMIC per device, 0 = no DM */
	uint8_t driver;	  /* enum sim_driver_kind */
	uint8_t no_dmabuf;
	uint8_t no_netlink;
	uint8_t static_uar; /* mlx5 kernel without MLX5_LIB_CAP_DYN_UAR */
	uint8_t cc_guest;   /* a confidential-computing guest: DMA bounces */
	uint8_t no_dma_heap; /* no /dev/dma_heap (CONFIG_DMABUF_HEAPS=n) */
	uint8_t no_seccomp; /* no system-call trap (boundary/seccomp.c) */
	uint8_t netns;	    /* enum sim_netns_mode: --netns, --no-netns */
	uint8_t kernel_61;  /* --kernel 6.1: answer as 6.1 where 6.12 differs */
	char trace_path[SIM_PATH_LEN];
	char static_helper[SIM_PATH_LEN]; /* rdma-sim-static, for exec */
	/* --fault rules, --seed, and the clock their times count from */
	uint64_t seed;
	uint64_t start_ns; /* CLOCK_MONOTONIC when the world was made */
	uint32_t nfaults;
	struct sim_fault_rule faults[SIM_MAX_FAULTS];
	/* --link-layer: port 1 of device d is Ethernet (RoCE) */
	uint8_t link_eth[SIM_MAX_DEVICES];
};

struct sim_fail_rule {
	char kind[SIM_KIND_LEN];
	uint32_t nth; /* 1-based call number that fails */
	uint32_t err;
	uint32_t count; /* calls of this kind seen so far */
	uint8_t at_commit; /* :commit: after the handler, before commit */
};

/*
 * One MEMIC allocation: whole pages, as the kernel's page bitmap does; its
 * slot is dev * SIM_MEMIC_MAX_PAGES + first_page. The pages stay reserved
 * while the DM lives, while any CPU mapping of them exists in any process
 * (an OFD read lock on their range of the backing file, held by the
 * mappings' open file), and while an export is open anywhere
 * (drivers/mlx5/memic.c, core/dmabuf.c).
 */
struct sim_alloc {
	uint32_t in_use;
	uint32_t gen; /* bumped on every reuse of the slot */
	uint32_t dev;
	uint32_t first_page;
	uint32_t npages;
	int32_t owner_pid;
	uint8_t dm_alive;    /* the DM object still exists */
	uint32_t exports;    /* export files not yet seen closed */
	uint32_t export_seq; /* names the next export's file */
};

/*
 * An XRC domain named by a file (OPEN_XRCD with an fd): one row per
 * (device, inode), what the kernel keeps per uverbs device in its
 * xrcd_tree. Every process's open handles on it are counted per pid, so
 * the row goes with the last handle or with the last holder's death
 * (core/obj_xrcd.c).
 */
#define SIM_MAX_XRCD_FILES 256
#define SIM_XRCD_HOLDERS   16
/* A process's handles on a shared kernel object (dead ones reaped). */
struct sim_holder {
	int32_t pid;
	uint32_t refs;
};
struct sim_xrcd_file {
	uint32_t in_use;
	uint32_t dev;
	uint32_t xrcdn;
	uint64_t st_dev, st_ino;
	struct sim_holder holder[SIM_XRCD_HOLDERS];
};

/*
 * An XRC_TGT QP as the kernel keeps it: owned by its XRC domain, not by a
 * process (core/obj_xrcd.c, hw/mlx5/hca_xrc.c). Every handle of it, the
 * creator's and those OPEN_QP made in any process, holds the row; the QP
 * is destroyed with the last one. attr is the core's struct sim_qp_attr
 * (what modify gave it, query reads) but for its state, which is state
 * (modify's, or ERR when an HCA found an error); qpc is what the HCA's
 * instances run by, in the HCA's terms, as the driver set it at modify
 * (hw/mlx5/hca_xrc.c reads state, qpc, epsn and holders only); epsn is
 * the responder's expected PSN, moved on by whichever process runs a
 * request (atomics).
 */
#define SIM_MAX_XRC_TGT	  128
#define SIM_XRC_ATTR_SIZE 256
struct sim_xrc_tgt {
	uint32_t in_use;
	uint32_t dev, qpn, xrcdn;
	uint32_t epsn;
	uint32_t resets;    /* modifies to RESET: instances start over */
	uint32_t err_event; /* the event of the error that put it in ERR */
	uint32_t state;	    /* IB_QPS_* */
	struct sim_xrc_qpc {
		uint32_t dest_qpn;
		uint32_t path_dev; /* the device the primary path leads to */
		uint8_t access;	   /* IB_ACCESS_* remote bits */
		uint8_t min_rnr_timer;
		uint8_t rra_max; /* READ/atomic requests kept as responder */
	} qpc;
	struct sim_holder holder[SIM_XRCD_HOLDERS];
	uint8_t attr[SIM_XRC_ATTR_SIZE] __attribute__((aligned(8)));
};

/*
 * The kernel's resource tracking (restrack) of the world: one row per
 * user object of every process, what `rdma resource` lists
 * (core/restrack.c). Written by the owning process, read by any.
 */
#define SIM_MAX_RES 8192
enum sim_res_kind {
	SIM_RES_CTX,
	SIM_RES_PD,
	SIM_RES_CQ,
	SIM_RES_SRQ,
	SIM_RES_QP,
	SIM_RES_MR,
	SIM_RES_AH, /* counted in its PD's users, never listed */
	SIM_RES_MW, /* the same */
	SIM_RES_KINDS,
};

struct sim_res {
	uint8_t in_use;
	uint8_t kind; /* enum sim_res_kind */
	uint16_t dev;
	int32_t pid;
	uint32_t id;   /* restrack id; a QP's is its number */
	uint32_t ctxn; /* PD, CQ */
	uint32_t pdn;  /* QP, MR, SRQ, AH, MW */
	uint32_t cqn;  /* QP: send CQ, SRQ: XRC CQ (or ~0) */
	uint32_t rcqn; /* QP: receive CQ */
	uint32_t srqn; /* QP on an SRQ (or ~0) */
	uint32_t cqe;
	uint8_t type;  /* QP: IB_QPT_*, SRQ: IB_SRQT_* */
	uint8_t state; /* QP: IB_QPS_* */
	uint8_t port;  /* QP: 0 until INIT gave it one */
	uint8_t path_mig;
	uint32_t rqpn, rq_psn, sq_psn;
	uint32_t lkey, rkey;
	uint64_t iova, length;
};

/* Counters the HCA keeps per device (port 1), bumped by the engine. */
enum sim_hwc {
	SIM_HWC_RX_WRITE,     /* RDMA WRITE requests taken (responder) */
	SIM_HWC_RX_READ,      /* RDMA READ requests taken */
	SIM_HWC_RX_ATOMIC,    /* atomic requests taken */
	SIM_HWC_OUT_OF_SEQ,   /* requests past a PSN gap (sequence NAK sent) */
	SIM_HWC_DUPLICATE,    /* duplicate requests answered again */
	SIM_HWC_RNR_NAK_RCVD, /* RNR NAKs the requester received */
	SIM_HWC_SEQ_NAK_RCVD, /* sequence NAKs the requester received */
	SIM_HWC_ACK_TIMEOUT,  /* local ACK timer expiries */
	/* the PMA's PortCounters: packets and payload octets on the wire */
	SIM_HWC_XMIT_PKTS,
	SIM_HWC_RCV_PKTS,
	SIM_HWC_XMIT_BYTES,
	SIM_HWC_RCV_BYTES,
	SIM_HWC_COUNT,
};

/* A UD QP attached to a multicast group (ATTACH_MCAST), world-wide. */
#define SIM_MAX_MC_ATTACH 4096
struct sim_mc_attach {
	uint8_t used;
	uint8_t gid[16];
	uint16_t mlid;
	uint32_t dev;
	uint32_t qpn;
};

/* A multicast group the SA created (core/umad_sa.c): its MCMemberRecord
 * (the MGID first; PortGID and JoinState unused) and each port's
 * JoinState bits. */
#define SIM_MAX_SA_GROUPS 64
#define SIM_SA_MCM_LEN	  56 /* the record, padded to 8-byte words */
enum {
	SIM_SA_FULL = 1,
	SIM_SA_NON = 2,
	SIM_SA_SENDONLY_NON = 4,
	SIM_SA_SENDONLY_FULL = 8,
};
struct sim_sa_group {
	uint8_t used;
	uint8_t rec[SIM_SA_MCM_LEN];
	uint8_t join[SIM_MAX_DEVICES];
};

struct sim_shared {
	uint32_t magic;
	uint32_t size;
	pthread_mutex_t lock;
	struct sim_config cfg;
	uint64_t next_id;
	uint32_t next_qpn; /* QP numbers: unique per device, all processes */
	uint32_t nfail;
	uint32_t trap_notes; /* enum sim_trap_note: said once per world */
	struct sim_fail_rule fail[SIM_MAX_FAIL];
	struct sim_alloc allocs[SIM_MAX_ALLOCS];
	struct sim_xrcd_file xrcd_files[SIM_MAX_XRCD_FILES];
	struct sim_xrc_tgt xrc_tgts[SIM_MAX_XRC_TGT];
	uint32_t res_next[SIM_MAX_DEVICES][SIM_RES_KINDS]; /* restrack ids */
	struct sim_res res[SIM_MAX_RES];
	uint64_t hwc[SIM_MAX_DEVICES][SIM_HWC_COUNT]; /* atomics */
	struct sim_net net; /* netdevs and RoCE GID tables (netdev.h) */
	struct sim_mc_attach mc[SIM_MAX_MC_ATTACH]; /* mc_attach.c */
	struct sim_sa_group sa_groups[SIM_MAX_SA_GROUPS]; /* core/umad_sa.c */
	/* enum sim_dev_state of each device: rdma link delete */
	uint8_t dev_state[SIM_MAX_DEVICES];
};
_Static_assert(SIM_NET_MAX_DEVICES == SIM_MAX_DEVICES, "netdev.h");

/*
 * Where a device is in its life: `rdma link delete` unregisters it (its
 * uverbs node goes at once, the device itself once no file of it is open)
 * and then it is gone from every listing (core/netlink_link.c); `rdma
 * link add` of a gone rxe device registers it again: the launcher writes
 * its sysfs and nodes (SIM_REGISTER_FIFO) and makes it live.
 */
enum sim_dev_state {
	SIM_DEV_LIVE = 0,
	SIM_DEV_UNREGISTERING,
	SIM_DEV_GONE,
	SIM_DEV_REGISTERING,
};
/* <dir>/register: a byte here asks the launcher to register devices */
#define SIM_REGISTER_FIFO "register"

/* Is dev a device of the world that has not begun to leave it? */
static inline int sim_dev_live(const struct sim_shared *sh, unsigned int dev)
{
	return dev < sh->cfg.ndev &&
	       __atomic_load_n(&sh->dev_state[dev], __ATOMIC_ACQUIRE) ==
		       SIM_DEV_LIVE;
}

/* Create the state file in dir (launcher). 0 or -errno. */
int sim_shared_create(const char *dir, const struct sim_config *cfg,
		      const struct sim_fail_rule *rules, unsigned int nrules);
/* <dir>/state: the file the launcher creates and every process maps. */
void sim_state_path(char *buf, size_t len, const char *dir);
void sim_shared_lock(struct sim_shared *sh);
void sim_shared_unlock(struct sim_shared *sh);
/* A number no object of the world had (XRC domains, CQs, SRQs), from the
 * one counter every process and layer draws on: 1..2^24-1. Takes lock. */
uint32_t sim_shared_number(struct sim_shared *sh);

/* Path of the MEMIC backing file of all devices. */
void sim_memic_path(char *buf, size_t len, const char *dir);

/* Is dev's port down now (--fault link-flap)? */
int sim_link_is_down(const struct sim_config *cfg, unsigned int dev);

/* Count one call of kind among the rules that fail before the handler
 * (at_commit 0) or at the commit of a create (1); returns the errno to
 * inject or 0. Takes lock. */
int sim_fail_check(struct sim_shared *sh, const char *kind, int at_commit);

/* The live XRC_TGT row of (dev, qpn), or NULL; without the lock (its
 * in_use is read with acquire). */
struct sim_xrc_tgt *sim_xrc_tgt_row(struct sim_shared *sh, unsigned int dev,
				    uint32_t qpn);
/* The driver's modify of an XRC_TGT QP: the row's HCA context. Takes
 * lock. */
void sim_xrc_tgt_set_qpc(struct sim_shared *sh, unsigned int dev, uint32_t qpn,
			 const struct sim_xrc_qpc *qpc);

/* multicast attachments (mc_attach.c) */
/* ff00::/8 or an IPv4 group mapped into a RoCE v2 GID. */
int sim_gid_is_mcast(const uint8_t gid[16]);
/* The QPs attached to group gid whose port receives it, at most max:
 * their count. Takes lock. */
int sim_mcast_members(struct sim_shared *sh, const uint8_t gid[16],
		      uint32_t *devs, uint32_t *qpns, int max);

#endif
