// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * NLDEV answers about devices, ports, char devices and the system, as
 * nldev.c's fill_dev_info/fill_port_info and friends give them (Linux 6.1
 * attribute set: the installed uAPI header's; iproute2 6.1 stops parsing
 * a message at an attribute id it does not know).
 *   GET          doit (DEV_INDEX) / dump of every device
 *   PORT_GET     doit (DEV_INDEX, PORT_INDEX) / dump of one device's ports
 *   GET_CHARDEV  uverbs of a device, umad/issm of a port; other client
 *                names: EOPNOTSUPP
 *   SYS_GET      netns mode shared, copy-on-fork on
 */
#include "ib_gid.h"
#include "netlink.h"
#include "ucma.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* No netdevs in the world yet: no port has one. */
__attribute__((weak)) int sim_port_netdev(unsigned int dev, unsigned int port,
					  char *name, size_t len,
					  uint32_t *ifindex)
{
	(void)dev, (void)port, (void)name, (void)len, (void)ifindex;
	return 0;
}

static void fill_dev(struct nl_out *o, const struct sim_nl_dump *d,
		     unsigned int dev)
{
	struct ib_uverbs_query_device_resp r;
	uint64_t caps;

	(void)d;
	sim_fill_device(dev, &r);
	caps = r.device_cap_flags;
	if (sim.sh->cfg.cc_guest)
		caps |= 1ULL
			<< 41; /* IB_DEVICE_CC_DMA_BOUNCE, as QUERY_DEVICE */
	nl_put_dev(o, dev);
	nl_put_u32(o, RDMA_NLDEV_ATTR_PORT_INDEX, nl_nports());
	nl_put_u64(o, RDMA_NLDEV_ATTR_CAP_FLAGS, caps);
	if (sim.model->fw_ver[0])
		nl_put_str(o, RDMA_NLDEV_ATTR_FW_VERSION, sim.model->fw_ver);
	nl_put_u64(o, RDMA_NLDEV_ATTR_NODE_GUID, sim_guid(dev));
	nl_put_u64(o, RDMA_NLDEV_ATTR_SYS_IMAGE_GUID, sim_guid(dev));
	nl_put_u8(o, RDMA_NLDEV_ATTR_DEV_NODE_TYPE,
		  (uint8_t)sim.model->node_type);
	/* mlx5 turns on adaptive moderation of kernel CQs (use_cq_dim) */
	nl_put_u8(o, RDMA_NLDEV_ATTR_DEV_DIM,
		  sim_model_kind(sim.model) == SIM_DRIVER_MLX5);
	nl_put_str(o, RDMA_NLDEV_ATTR_DEV_PROTOCOL,
		   sim_port_is_eth(sim.sh, dev) ? "roce" : "ib");
}

int nl_get_doit(struct nl_out *o, const struct nl_req *r)
{
	return nl_dev_doit(o, r, RDMA_NLDEV_CMD_GET, fill_dev);
}

int nl_get_dumpit(struct sim_nl_dump *d, struct nl_out *o, size_t limit)
{
	return nl_dump_devs(d, o, limit, RDMA_NLDEV_CMD_GET, fill_dev);
}

static void fill_port(struct nl_out *o, unsigned int dev, unsigned int port)
{
	struct ib_uverbs_query_port_resp_ex pr;
	struct ib_uverbs_query_port_resp *p = &pr.legacy_resp;
	uint32_t ifindex;
	char ndev[64];

	sim_port_attr(sim.sh, sim.model, dev, &pr);
	nl_put_dev(o, dev);
	nl_put_u32(o, RDMA_NLDEV_ATTR_PORT_INDEX, port);
	if (p->link_layer != 2) { /* InfiniBand: the SM's view of the port */
		nl_put_u64(o, RDMA_NLDEV_ATTR_CAP_FLAGS,
			   p->port_cap_flags | (uint64_t)pr.port_cap_flags2
						       << 32);
		nl_put_u64(o, RDMA_NLDEV_ATTR_SUBNET_PREFIX,
			   SIM_IB_GID_PREFIX);
		nl_put_u32(o, RDMA_NLDEV_ATTR_LID, p->lid);
		nl_put_u32(o, RDMA_NLDEV_ATTR_SM_LID, p->sm_lid);
		nl_put_u8(o, RDMA_NLDEV_ATTR_LMC, p->lmc);
	}
	nl_put_u8(o, RDMA_NLDEV_ATTR_PORT_STATE, p->state);
	nl_put_u8(o, RDMA_NLDEV_ATTR_PORT_PHYS_STATE, p->phys_state);
	if (sim_port_netdev(dev, port, ndev, sizeof(ndev), &ifindex)) {
		nl_put_u32(o, RDMA_NLDEV_ATTR_NDEV_INDEX, ifindex);
		nl_put_str(o, RDMA_NLDEV_ATTR_NDEV_NAME, ndev);
	}
}

int nl_port_get_doit(struct nl_out *o, const struct nl_req *r)
{
	int64_t port = nl_get_u32(r->tb, RDMA_NLDEV_ATTR_PORT_INDEX);
	int dev = nl_req_dev(r->tb);

	if (dev < 0)
		return dev;
	if (port < 1 || port > nl_nports())
		return -EINVAL;
	nl_msg_begin(o, nl_type(RDMA_NLDEV_CMD_PORT_GET), 0, r->h->nlmsg_seq,
		     r->h->nlmsg_pid);
	fill_port(o, (unsigned int)dev, (unsigned int)port);
	nl_msg_end(o);
	sim_trace("netlink PORT_GET dev %d port %u", dev, (unsigned int)port);
	return 0;
}

static void fill_port_at(struct nl_out *o, const struct sim_nl_dump *d,
			 unsigned int i)
{
	fill_port(o, (unsigned int)d->dev, i + 1);
}

/* The ports of the request's device (DEV_INDEX required). */
int nl_port_get_dumpit(struct sim_nl_dump *d, struct nl_out *o, size_t limit)
{
	if (d->dev < 0 || !sim_dev_live(sim.sh, (unsigned int)d->dev))
		return -EINVAL;
	return nl_dump_each(d, o, limit, RDMA_NLDEV_CMD_PORT_GET, nl_nports(),
			    fill_port_at);
}

/* huge_encode_dev: major in bits 8-19, minor's low byte in 0-7, the rest
 * of the minor from bit 20. */
static uint64_t huge_dev(unsigned int major, unsigned int minor)
{
	return ((uint64_t)major << 8) | (minor & 0xff) |
	       ((uint64_t)(minor & ~0xffu) << 12);
}

/*
 * The char device of a client: uverbs of a device (ABI of the model, its
 * driver id), umad/issm of a port (ABI 5; issm only on InfiniBand).
 * Fills name and the numbers; -errno as ib_get_client_nl_info.
 */
static int chardev_of(const char *type, int dev, int64_t port, char *name,
		      size_t len, unsigned int *major, unsigned int *minor,
		      uint64_t *abi)
{
	int issm = !strcmp(type, "issm");

	*major = SIM_UVERBS_MAJOR; /* uverbs and umad share 231 */
	if (!strcmp(type, "rdma_cm")) {
		if (dev >= 0)
			return -EOPNOTSUPP; /* ucma is a global client */
		*major = UCMA_MAJOR; /* the misc device */
		*minor = UCMA_MINOR;
		*abi = RDMA_USER_CM_ABI_VERSION;
		snprintf(name, len, "rdma_cm");
		return 0;
	}
	if (!strcmp(type, "uverbs")) {
		if (dev < 0)
			return -EINVAL; /* uverbs is per device */
		*minor = SIM_UVERBS_MINOR_BASE + (unsigned int)dev;
		*abi = sim.model->uverbs_abi;
		snprintf(name, len, "uverbs%d", dev);
		return 0;
	}
	if (!issm && strcmp(type, "umad"))
		return -EOPNOTSUPP; /* no client of that name */
	if (dev < 0 || port != 1 || (issm && sim_port_is_eth(sim.sh, (unsigned int)dev)))
		return -EINVAL;
	if (dev >= SIM_UMAD_MAX_PORTS)
		return -EOPNOTSUPP;
	*minor = (unsigned int)dev + (issm ? SIM_UMAD_MAX_PORTS : 0);
	*abi = 5; /* IB_USER_MAD_ABI_VERSION */
	snprintf(name, len, "%s%d", type, dev);
	return 0;
}

int nl_get_chardev(struct nl_out *o, const struct nl_req *r)
{
	int64_t port = nl_get_u32(r->tb, RDMA_NLDEV_ATTR_PORT_INDEX);
	char type[16], name[32];
	unsigned int major, minor;
	int dev = -1, ret;
	uint64_t abi;

	if (nl_get_str(r->tb, RDMA_NLDEV_ATTR_CHARDEV_TYPE, type, sizeof(type)))
		return -EINVAL;
	if (r->tb[RDMA_NLDEV_ATTR_DEV_INDEX]) {
		dev = nl_req_dev(r->tb);
		if (dev < 0)
			return dev;
	}
	ret = chardev_of(type, dev, port, name, sizeof(name), &major, &minor,
			 &abi);
	if (ret)
		return ret;
	nl_msg_begin(o, nl_type(RDMA_NLDEV_CMD_GET_CHARDEV), 0, r->h->nlmsg_seq,
		     r->h->nlmsg_pid);
	nl_put_u64(o, RDMA_NLDEV_ATTR_CHARDEV,
		   huge_dev(major, minor));
	nl_put_u64(o, RDMA_NLDEV_ATTR_CHARDEV_ABI, abi);
	nl_put_str(o, RDMA_NLDEV_ATTR_CHARDEV_NAME, name);
	if (!strcmp(type, "uverbs"))
		nl_put_u32(o, RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID,
			   sim.model->driver_id);
	nl_msg_end(o);
	sim_trace("netlink GET_CHARDEV dev %d %s -> %s %u:%u", dev, type, name,
		  major, minor);
	return 0;
}

int nl_sys_get(struct nl_out *o, const struct nl_req *r)
{
	nl_msg_begin(o, nl_type(RDMA_NLDEV_CMD_SYS_GET), 0, r->h->nlmsg_seq,
		     r->h->nlmsg_pid);
	nl_put_u8(o, RDMA_NLDEV_SYS_ATTR_NETNS_MODE, 1);
	nl_put_u8(o, RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK, 1);
	nl_msg_end(o);
	sim_trace("netlink SYS_GET -> copy_on_fork 1");
	return 0;
}
