/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The network side of a world. The launcher gives the world its own network
 * namespace and one real Linux netdev (a veth whose peer sits in a private
 * "wire" namespace) per Ethernet (RoCE) port, so routes, neighbours and
 * `ip addr` are the kernel's own. Each such port has a RoCE GID table kept
 * here, in the shared state, as the kernel's roce_gid_mgmt keeps it: default
 * GIDs from the MAC in the reserved slots, then one entry per supported GID
 * type for every IPv4 (as ::ffff:a.b.c.d) and IPv6 address of the netdev,
 * each in the lowest free slot. The launcher watches the netdevs with
 * rtnetlink and applies changes under the shared lock, appending one event
 * (GID_CHANGE, PORT_ERR, PORT_ACTIVE) per change to the port's event log and
 * bumping net.seq (a futex word); each process turns new log entries into
 * async events on its contexts. Other modules (the RDMA CM) use the lookups
 * at the end: IP address -> (device, port, GID index), a port's netdev.
 */
#ifndef RDMA_SIM_NETDEV_H
#define RDMA_SIM_NETDEV_H

#include <stdint.h>
#include <sys/socket.h>

#define SIM_MAX_NETDEVS	 64   /* Ethernet ports per world */
#define SIM_GID_SLOTS	 1024 /* the largest table (rxe) */
#define SIM_NET_EVENTS	 256  /* per-port event log, a ring */
#define SIM_NEIGH_UPDATES 64  /* per-port neighbour-update log, a ring */
#define SIM_MLX5_ROCE_GIDS 255 /* mlx5 RoCE gid_tbl_len */
#define SIM_NET_MAX_DEVICES 1024 /* = SIM_MAX_DEVICES */
/* A destination on the wire that no port of the world owns. */
#define SIM_NO_DEVICE 0xffffu

enum sim_gid_type {
	SIM_GID_IB = 0,
	SIM_GID_ROCE_V1 = 1,
	SIM_GID_ROCE_V2 = 2,
};

enum sim_gid_state {
	SIM_GID_EMPTY = 0,
	SIM_GID_VALID,
	SIM_GID_PENDING, /* deleted, slot held by a QP or AH as its SGID */
};

struct sim_gid_slot {
	uint8_t gid[16];
	uint8_t type;  /* enum sim_gid_type */
	uint8_t state; /* enum sim_gid_state */
	uint16_t holders;
	int32_t ifindex; /* netdev holding the address */
};

/* One update of a neighbour entry of a port's netdev (the kernel's
 * NETEVENT_NEIGH_UPDATE, which rtnetlink mirrors as RTM_NEWNEIGH and
 * RTM_DELNEIGH): its IP address (IPv4 as ::ffff:a.b.c.d) and the hardware
 * address the entry holds now (zeros: never resolved). The RDMA CM reads
 * it (core/ucma_neigh.c). */
struct sim_neigh_update {
	uint8_t addr[16];
	uint8_t ha[6];
};

struct sim_netdev {
	uint32_t dev;	    /* device index */
	uint32_t port;	    /* 1 */
	char ifname[16];    /* port netdev in the world's namespace */
	int32_t ifindex;
	uint8_t mac[6];
	uint8_t up;	    /* IFF_UP */
	uint8_t running;    /* IFF_RUNNING: up with carrier */
	uint32_t mtu;	    /* netdev MTU */
	uint32_t gid_tbl_len;
	uint32_t ndefault;  /* reserved default-GID slots */
	uint32_t types;	    /* bit per enum sim_gid_type supported */
	uint32_t nevents;   /* events appended so far */
	uint8_t events[SIM_NET_EVENTS]; /* ibv_event_type, ring */
	uint32_t nneigh;    /* neighbour updates appended so far */
	struct sim_neigh_update neigh[SIM_NEIGH_UPDATES]; /* ring */
	struct sim_gid_slot gids[SIM_GID_SLOTS];
};

#define SIM_IPOIB_ADDRS 16   /* addresses an IPoIB netdev keeps track of */
#define SIM_IPOIB_MTU	2044 /* datagram mode under a 2048-byte group MTU */

/*
 * The IPoIB interface of an InfiniBand port (ib<D>): a veth on a switch of
 * its own, since userspace cannot make an ARPHRD_INFINIBAND netdev. Only
 * the RDMA CM looks at it: an IP address of it names the port, and the
 * port GID (not the MAC) is what address resolution yields, as from the
 * 20-byte IPoIB hardware address (QPN, then the GID).
 */
struct sim_ipoib {
	uint32_t dev;
	char ifname[16];
	int32_t ifindex;
	uint8_t up, running;
	uint32_t naddr;
	uint8_t addr[SIM_IPOIB_ADDRS][16]; /* IPv4 as ::ffff:a.b.c.d */
};

struct sim_net {
	uint32_t seq;	  /* futex word: bumped after every change */
	uint32_t netns;	  /* the world has its own network namespace */
	uint32_t nnetdev;
	int16_t netdev_of[SIM_NET_MAX_DEVICES]; /* -1: InfiniBand port */
	struct sim_netdev nd[SIM_MAX_NETDEVS];
	uint32_t nipoib;
	struct sim_ipoib ib[SIM_MAX_NETDEVS];
};

struct sim_shared;

/* The netdev of (dev, port), or NULL for an InfiniBand port. */
struct sim_netdev *sim_netdev_of(struct sim_shared *sh, unsigned int dev,
				 unsigned int port);
/* Is (dev, port 1) an Ethernet port? */
int sim_port_is_eth(struct sim_shared *sh, unsigned int dev);

/* Copy GID slot index of nd (takes the shared lock): 0, -EINVAL (index
 * beyond gid_tbl_len) or -ENODATA (empty or being deleted). */
int sim_gid_get(struct sim_shared *sh, struct sim_netdev *nd,
		uint32_t index, struct sim_gid_slot *out);
/* Index of the valid entry (gid, type) of nd, or -ENOENT. Caller holds the
 * shared lock. */
int sim_gid_find(struct sim_netdev *nd, const uint8_t gid[16], uint8_t type);

/* The RoCE GID of an IPv4/IPv6 socket address (IPv4 -> ::ffff:a.b.c.d).
 * 0 or -EAFNOSUPPORT. */
int sim_gid_from_sockaddr(const struct sockaddr *sa, uint8_t gid[16]);
/* Which port holds IP address sa with a GID of type: its device, port and
 * GID index. 0 or -ENODEV (no RoCE port has it). Takes the shared lock. */
int sim_roce_find_ip(struct sim_shared *sh, const struct sockaddr *sa,
		     uint8_t type, unsigned int *dev, unsigned int *port,
		     unsigned int *index);

/* The IB port whose IPoIB netdev holds address sa: 0 and its device, or
 * -ENODEV. Caller holds the shared lock. */
int sim_ipoib_find_ip(struct sim_shared *sh, const struct sockaddr *sa,
		      unsigned int *dev);
/* Device dev's IPoIB netdev, or NULL. */
struct sim_ipoib *sim_ipoib_of(struct sim_shared *sh, unsigned int dev);

/* The netdev whose MAC is mac, or NULL. */
struct sim_netdev *sim_netdev_by_mac(struct sim_shared *sh,
				     const uint8_t mac[6]);
/* The MAC a multicast DGID maps to: 0, or -1 when dgid is unicast. */
int sim_roce_mcast_mac(const uint8_t dgid[16], uint8_t dmac[6]);
/* ::, ::1, ::ffff:0.0.0.0 or ::ffff:127.x.y.z: routed through lo. */
int sim_roce_is_lo_gid(const uint8_t g[16]);
/* The port's active MTU (IB enum, 1..5) for netdev MTU mtu; 0 if none. */
unsigned int sim_roce_active_mtu(uint32_t mtu);

/* ---- table maintenance (the launcher; caller holds the shared lock) ---- */

/* Add (gid, type, ifindex) in the lowest free slot; a key present already
 * is a no-op. 1 added, 0 present, -ENOSPC table full. */
int sim_gid_add(struct sim_netdev *nd, const uint8_t gid[16], uint8_t type,
		int32_t ifindex, int reserved_slot);
/* Delete the non-default entry (gid, type, ifindex): 1 deleted, 0 none. */
int sim_gid_del(struct sim_netdev *nd, const uint8_t gid[16], uint8_t type,
		int32_t ifindex);
/* The default GIDs (fe80:: + EUI-64 of the MAC), one per type. */
void sim_gid_add_defaults(struct sim_netdev *nd);
/* Append event (an ibv_event_type) to nd's log. */
void sim_net_event(struct sim_netdev *nd, uint8_t event);
/* Wake every process waiting on net.seq. */
void sim_net_wake(struct sim_shared *sh);

#endif
