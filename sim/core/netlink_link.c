// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * `rdma link add NAME type rxe netdev IF` (RDMA_NLDEV_CMD_NEWLINK) is
 * checked as nldev_newlink() and rxe_newlink() check it. In an rxe world
 * it registers again the device of a port's netdev that `rdma link
 * delete` took away (rxe_net_add): under the name it had (another name
 * is not modelled: EOPNOTSUPP), while the old one still unregisters its
 * name is taken (ENFILE, as assign_name finds it). The launcher writes
 * its sysfs directory, uverbs and MAD nodes and GID files again and makes
 * it live; the request waits for that. Other new devices (on lo, on an
 * mlx5 world's netdev) are not modelled (EOPNOTSUPP).
 *
 * `rdma link delete DEV` (RDMA_NLDEV_CMD_DELLINK): the device leaves the
 * world as ib_unregister_device() takes it out of a running kernel. Only
 * a device whose driver allows a user to unregister it (rxe sets
 * IBK_ALLOW_USER_UNREG; mlx5 does not: EINVAL) goes, in the kernel's
 * order: it stops being found by index or listed; the RDMA CM tells every
 * id bound to it (DEVICE_REMOVAL) and lets go of it; uverbs removes its
 * char device, so no new file opens, and then waits for every open file
 * of the device to be closed, since rxe has no disassociate_ucontext
 * (ib_uverbs_remove_one: wait_clients); the sysfs directory goes last.
 * The request blocks all that time, as the kernel's DELLINK does.
 */
#include "netlink.h"
#include "restrack.h"
#include "ucma.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define IB_DEVICE_NAME_MAX 64

/* The registered device named name, or -1. */
static int dev_by_name(const char *name)
{
	char n[IB_DEVICE_NAME_MAX];
	unsigned int d;

	for (d = 0; d < sim.sh->cfg.ndev; d++) {
		snprintf(n, sizeof(n), "%s%u", sim.model->ibdev_prefix, d);
		if (sim_dev_live(sim.sh, d) && !strcmp(n, name))
			return (int)d;
	}
	return -1;
}

/* rxe_get_dev_from_net: a registered rxe device on the netdev ifindex. */
static int rxe_on_netdev(int ifindex)
{
	uint32_t i;

	if (sim.sh->cfg.driver != SIM_DRIVER_RXE)
		return 0;
	for (i = 0; i < sim.sh->net.nnetdev; i++)
		if (sim.sh->net.nd[i].ifindex == ifindex &&
		    sim_dev_live(sim.sh, sim.sh->net.nd[i].dev))
			return 1;
	return 0;
}

/* Ask the launcher to register the devices marked so; wait for dev. */
static int launcher_register(unsigned int dev)
{
	const struct timespec tick = {.tv_nsec = 10 * 1000 * 1000};
	char path[SIM_PATH_LEN + 16];
	int fd, i, ret = -ETIMEDOUT;

	snprintf(path, sizeof(path), "%s/%s", sim.dir, SIM_REGISTER_FIFO);
	fd = sys.open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 || sys.write(fd, "r", 1) != 1) {
		if (fd >= 0)
			sys.close(fd);
		return -EOPNOTSUPP; /* no launcher listens */
	}
	sys.close(fd);
	sim_lock_drop();
	for (i = 0; i < 3000 && ret; i++) {
		if (__atomic_load_n(&sim.sh->dev_state[dev],
				    __ATOMIC_ACQUIRE) == SIM_DEV_LIVE)
			ret = 0;
		else
			nanosleep(&tick, NULL);
	}
	sim_lock_take();
	return ret;
}

/* rxe_net_add: the gone rxe device of netdev ifindex, registered again
 * as name. */
static int rxe_register(const char *name, int ifindex)
{
	char slot[IB_DEVICE_NAME_MAX];
	uint8_t gone = SIM_DEV_GONE;
	uint32_t i;
	int dev = -1, ret;

	for (i = 0; i < sim.sh->net.nnetdev; i++)
		if (sim.sh->net.nd[i].ifindex == ifindex)
			dev = (int)sim.sh->net.nd[i].dev;
	if (sim.sh->cfg.driver != SIM_DRIVER_RXE || dev < 0) {
		sim_trace("netlink NEWLINK %s: an rxe device on a netdev of "
			  "no rxe port is not modelled",
			  name);
		return -EOPNOTSUPP;
	}
	snprintf(slot, sizeof(slot), "%s%d", sim.model->ibdev_prefix, dev);
	if (__atomic_load_n(&sim.sh->dev_state[dev], __ATOMIC_ACQUIRE) ==
		    SIM_DEV_UNREGISTERING &&
	    !strcmp(slot, name))
		return -ENFILE; /* the old device still holds its name */
	if (strcmp(slot, name)) {
		sim_trace("netlink NEWLINK %s: device %d is %s, another name "
			  "is not modelled",
			  name, dev, slot);
		return -EOPNOTSUPP;
	}
	if (!__atomic_compare_exchange_n(&sim.sh->dev_state[dev], &gone,
					 SIM_DEV_REGISTERING, 0,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		return -EEXIST; /* another add was first */
	sim_trace("netlink NEWLINK %s: registering device %d", name, dev);
	ret = launcher_register((unsigned int)dev);
	if (ret)
		__atomic_store_n(&sim.sh->dev_state[dev], SIM_DEV_GONE,
				 __ATOMIC_RELEASE);
	sim_trace("netlink NEWLINK %s: %s", name, ret ? "failed" : "live");
	return ret;
}

int nl_newlink(struct nl_out *o, const struct nl_req *r)
{
	char name[IB_DEVICE_NAME_MAX], type[IFNAMSIZ], ndev[IFNAMSIZ];
	int ifindex;

	(void)o;
	if (nl_get_str(r->tb, RDMA_NLDEV_ATTR_DEV_NAME, name, sizeof(name)) ||
	    nl_get_str(r->tb, RDMA_NLDEV_ATTR_LINK_TYPE, type, sizeof(type)) ||
	    nl_get_str(r->tb, RDMA_NLDEV_ATTR_NDEV_NAME, ndev, sizeof(ndev)))
		return -EINVAL;
	if (!*name || strchr(name, '%'))
		return -EINVAL;
	/* the caller's namespace: the world's */
	ifindex = (int)if_nametoindex(ndev);
	if (!ifindex)
		return -ENODEV;
	/* Debian's kernel has the rxe and siw link types, nothing else */
	if (strcmp(type, "rxe") && strcmp(type, "siw"))
		return -EINVAL;
	if (!strcmp(type, "rxe") && rxe_on_netdev(ifindex))
		return -EEXIST;
	if (dev_by_name(name) >= 0)
		return -ENFILE; /* assign_name: the name is taken */
	if (!strcmp(type, "rxe"))
		return rxe_register(name, ifindex);
	sim_trace("netlink NEWLINK %s type %s netdev %s: a new device is not "
		  "modelled",
		  name, type, ndev);
	return -EOPNOTSUPP;
}

static int remove_entry(const char *path, const struct stat *st, int type,
			struct FTW *f)
{
	(void)st, (void)type, (void)f;
	remove(path);
	return 0;
}

/* Remove the world's file or tree at <dir>/<rel>. */
static void remove_world(const char *rel)
{
	char path[SIM_PATH_LEN + 128];

	snprintf(path, sizeof(path), "%s/%s", sim.dir, rel);
	nftw(path, remove_entry, 8, FTW_DEPTH | FTW_PHYS);
}

/* cma_process_remove: each id that holds dev hears DEVICE_REMOVAL (once:
 * a device is unregistered once). */
static void cm_remove(unsigned int dev)
{
	int i;

	if (ucma_world_map())
		return; /* no RDMA CM file was ever opened */
	ucma_lock();
	for (i = 0; i < UCMA_MAX_IDS; i++) {
		struct ucma_id *id = &ucma_w->ids[i];

		if (!id->used || !id->has_dev || id->dev != dev)
			continue;
		ucma_event(i, RDMA_CM_EVENT_DEVICE_REMOVAL, 0, NULL);
		/* ucma queues close_work: the id is closed, no event follows
		 * and later commands on it fail (ENXIO) but its destroy */
		id->removed = 1;
		id->timer = TIMER_NONE;
		sim_trace("netlink DELLINK dev %u: cm id %d DEVICE_REMOVAL",
			  dev, i);
	}
	ucma_unlock();
}

/* ib_uverbs_remove_one without disassociation: every context closed. */
static void uverbs_remove(unsigned int dev)
{
	const struct timespec tick = {.tv_nsec = 10 * 1000 * 1000};
	char rel[64];
	int said = 0;

	snprintf(rel, sizeof(rel), "sys/class/infiniband_verbs/uverbs%u", dev);
	remove_world(rel);
	snprintf(rel, sizeof(rel), "dev/infiniband/uverbs%u", dev);
	remove_world(rel);
	while (sim_res_count(dev, SIM_RES_CTX, SIM_RES_ANY, 0)) {
		if (!said++)
			sim_trace("netlink DELLINK dev %u: waiting for its "
				  "contexts to close",
				  dev);
		nanosleep(&tick, NULL);
	}
}

/* The port's MAD nodes (ib_umad_remove_one) and the device's sysfs. */
static void sysfs_remove(unsigned int dev)
{
	static const char *const mad[] = {"umad", "issm"};
	char rel[128];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(mad); i++) {
		snprintf(rel, sizeof(rel), "sys/class/infiniband_mad/%s%u",
			 mad[i], dev);
		remove_world(rel);
		snprintf(rel, sizeof(rel), "dev/infiniband/%s%u", mad[i], dev);
		remove_world(rel);
	}
	snprintf(rel, sizeof(rel), "sys/class/infiniband/%s%u",
		 sim.model->ibdev_prefix, dev);
	remove_world(rel);
}

int nl_dellink(struct nl_out *o, const struct nl_req *r)
{
	int dev = nl_req_dev(r->tb);

	(void)o;
	if (dev < 0)
		return dev;
	if (sim.sh->cfg.driver != SIM_DRIVER_RXE)
		return -EINVAL; /* no IBK_ALLOW_USER_UNREG */
	__atomic_store_n(&sim.sh->dev_state[dev], SIM_DEV_UNREGISTERING,
			 __ATOMIC_RELEASE);
	sim_trace("netlink DELLINK dev %d: unregistering", dev);
	/* the wait may be long: other threads of this process go on */
	sim_lock_drop();
	cm_remove((unsigned int)dev);
	uverbs_remove((unsigned int)dev);
	sysfs_remove((unsigned int)dev);
	sim_lock_take();
	__atomic_store_n(&sim.sh->dev_state[dev], SIM_DEV_GONE,
			 __ATOMIC_RELEASE);
	sim_trace("netlink DELLINK dev %d: gone", dev);
	return 0;
}
