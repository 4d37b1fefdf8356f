/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#ifndef RDMA_SIM_LAUNCHER_H
#define RDMA_SIM_LAUNCHER_H

#include "sim_shared.h"
#include "static_elf.h"

#define SIM_MAX_ADDRS 64

struct sim_launch {
	struct sim_config cfg;
	struct sim_fail_rule fail[SIM_MAX_FAIL];
	unsigned int nfail;
	int list_kinds; /* --list-fail-kinds */
	char **argv;	/* PROGRAM [ARGS...] */
	/* --addr D=ADDR/PLEN: addresses of device D's port netdev */
	unsigned int naddr;
	const char *addr[SIM_MAX_ADDRS];
	unsigned int addr_dev[SIM_MAX_ADDRS];
};

/* The namespaces and rtnetlink sockets of the world's network (netns.c). */
struct sim_net_setup {
	int wire_fd;	/* the wire namespace, where the veth peers are */
	int wire_sock;	/* rtnetlink in the wire namespace */
	int world_sock; /* rtnetlink in the world's namespace */
	int netns;	/* the world has its own namespace */
	uint64_t guid_base;
	unsigned int nipoib; /* IB ports with an IPoIB netdev ib<D> */
	unsigned int ipoib[SIM_MAX_NETDEVS];
};

/* Parse the command line. 0, 1 (--help printed) or -1 (error printed). */
int sim_parse_options(int argc, char **argv, struct sim_launch *l);
/* Reject --fail kinds the preload library lib does not know. 0 or -1
 * (message printed). */
int sim_check_fail_kinds(const char *lib, const struct sim_launch *l);
/* Print the kinds lib knows, one per line. 0 or -1. */
int sim_print_fail_kinds(const char *lib);
/* Write the sysfs tree and device nodes under dir. 0 or -errno. */
int sim_write_sysfs(const char *dir, const struct sim_config *cfg);

/*
 * Give the world its own network namespace with one veth per Ethernet port
 * and its addresses. An IB-only world whose namespace cannot be made stays
 * in ours (ns->netns 0). 0 or -errno.
 */
int sim_net_setup(struct sim_launch *l, struct sim_net_setup *ns);
void sim_net_teardown(struct sim_net_setup *ns);
/* Show the world's netdevs under /sys/class/net (best effort). */
void sim_net_mount_sysfs(const struct sim_net_setup *ns, const char *dir);
/* Add address cidr ("a.b.c.d/p" or "x::y/p") to ifindex. 0 or -errno. */
int sim_net_add_addr(int sock, int ifindex, const char *cidr);
/*
 * Fill the shared netdev table of dir's world, build the GID tables from
 * the netdevs' addresses, write their sysfs files, then keep all of it
 * current from rtnetlink in a thread until sim_net_monitor_stop().
 * 0 or -errno.
 */
int sim_net_monitor_start(const char *dir, const struct sim_launch *l,
			  const struct sim_net_setup *ns);
void sim_net_monitor_stop(void);
struct nlmsghdr;
/* An RTM_NEWNEIGH or RTM_DELNEIGH of nd's netdev: one neighbour update in
 * its log unless it is a dump's (net_neigh.c). Shared lock held. */
void sim_neigh_msg(struct sim_netdev *nd, const struct nlmsghdr *h);
/* (Re)write the gids/, gid_attrs/ and state files of RoCE port n (in
 * sh->net.nd) where they changed since the last call. 0 or -errno. */
int sim_sysfs_write_roce_port(const char *dir, const struct sim_shared *sh,
			      unsigned int n);
/* The sysfs files and /dev nodes of device dev again, as at start-up
 * (`rdma link add` of an rxe device deleted before). 0 or -errno. */
int sim_sysfs_register_device(const char *dir, const struct sim_shared *sh,
			      unsigned int dev);

#endif
