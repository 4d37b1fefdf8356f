// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The generated sysfs tree: <dir>/sys/class/infiniband{,_verbs,_mad} and
 * <dir>/dev/infiniband, holding what upstream userspace reads.
 */
#include "launcher.h"
#include "device_model.h"
#include "netdev.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* mkdir -p for a path below dir. */
static int mkdirs(const char *path)
{
	char buf[1024];
	char *p;

	snprintf(buf, sizeof(buf), "%s", path);
	for (p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(buf, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(buf, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

/*
 * Write "<content>\n" (nothing for no content) to dir/relpath
 * (printf-style), creating parents
 * only when missing: 1024 devices are ~40,000 files.
 */
static int __attribute__((format(printf, 3, 4)))
put(const char *dir, const char *relpath, const char *fmt, ...)
{
	char path[1024], *slash;
	va_list ap;
	FILE *f;
	int ret;

	snprintf(path, sizeof(path), "%s/%s", dir, relpath);
	f = fopen(path, "we");
	if (!f && errno == ENOENT) {
		slash = strrchr(path, '/');
		*slash = 0;
		ret = mkdirs(path);
		*slash = '/';
		if (ret)
			return ret;
		f = fopen(path, "we");
	}
	if (!f)
		return -errno;
	va_start(ap, fmt);
	/* nothing to say stays an empty file: the kernel's attribute whose
	 * read fails (an empty GID slot's type or netdev: EINVAL); a reader
	 * gets 0 bytes, never a lone newline to parse */
	if (vfprintf(f, fmt, ap) > 0)
		fputc('\n', f);
	va_end(ap);
	return fclose(f) ? -errno : 0;
}

static void gid_string(char *buf, size_t len, const struct sim_device_model *m,
		       uint64_t guid, unsigned int idx)
{
	if (idx)
		snprintf(buf, len, "0000:0000:0000:0000:0000:0000:0000:0000");
	else
		snprintf(buf, len, "fe80:0000:0000:0000:%04x:%04x:%04x:%04x",
			 (unsigned int)(guid >> 48),
			 (unsigned int)(guid >> 32) & 0xffff,
			 (unsigned int)(guid >> 16) & 0xffff,
			 (unsigned int)guid & 0xffff);
}

static int write_port(const char *ib, const struct sim_device_model *m,
		      uint64_t guid, unsigned int dev, int eth)
{
	char gid[64];
	unsigned int i;
	int ret = 0;

	ret |= put(ib, "ports/1/state", "4: ACTIVE");
	ret |= put(ib, "ports/1/phys_state", "5: LinkUp");
	ret |= put(ib, "ports/1/link_layer", "%s",
		   eth ? "Ethernet" : "InfiniBand");
	ret |= put(ib, "ports/1/rate", "%s", m->rate);
	/* device N is LID N+1: the fabric routes IB packets by DLID */
	ret |= put(ib, "ports/1/lid", "0x%x", eth ? 0 : dev + 1);
	ret |= put(ib, "ports/1/sm_lid", "0x%x", eth ? 0 : 1);
	ret |= put(ib, "ports/1/lid_mask_count", "0");
	ret |= put(ib, "ports/1/sm_sl", "0");
	ret |= put(ib, "ports/1/cap_mask", "0x%08x",
		   eth ? 0x00010000 : 0x2651e848);
	/* a RoCE port's table is the network monitor's (net_monitor.c) */
	for (i = 0; !eth && i < SIM_NUM_GIDS; i++) {
		char rel[64];

		gid_string(gid, sizeof(gid), m, guid, i);
		snprintf(rel, sizeof(rel), "ports/1/gids/%u", i);
		ret |= put(ib, rel, "%s", gid);
		snprintf(rel, sizeof(rel), "ports/1/gid_attrs/types/%u", i);
		ret |= put(ib, rel, "%s",
			   m->gid_is_roce ? "RoCE v2" : "IB/RoCE v1");
		if (m->gid_is_roce) {
			snprintf(rel, sizeof(rel), "ports/1/gid_attrs/ndevs/%u",
				 i);
			ret |= put(ib, rel, "eth0");
		}
	}
	for (i = 0; i < SIM_NUM_PKEYS; i++) {
		char rel[64];

		snprintf(rel, sizeof(rel), "ports/1/pkeys/%u", i);
		ret |= put(ib, rel, "0x%04x", i ? 0 : 0xffff);
	}
	return ret ? -EIO : 0;
}

/* A relative symlink at dir/relpath, as sysfs links its objects. */
static int link_at(const char *dir, const char *relpath, const char *target)
{
	char path[1024], *slash;
	int ret;

	snprintf(path, sizeof(path), "%s/%s", dir, relpath);
	slash = strrchr(path, '/');
	*slash = 0;
	ret = mkdirs(path);
	*slash = '/';
	if (!ret && symlink(target, path))
		ret = -errno;
	return ret;
}

/* The CPUs of NUMA node 0, as the host reports them (mask or list). */
static void node0_cpus(char *buf, size_t len, const char *file,
		       const char *fallback)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "/sys/devices/system/node/node0/%s", file);
	f = fopen(path, "re");
	snprintf(buf, len, "%s", fallback);
	if (f) {
		if (fgets(buf, (int)len, f))
			buf[strcspn(buf, "\n")] = 0;
		fclose(f);
	}
}

/* resource: start, end, flags of 6 BARs, the ROM and 6 SR-IOV BARs; BAR0
 * is 32 MiB of 64-bit prefetchable memory, the rest unused. */
static int write_resource(const char *fn, unsigned int idx)
{
	unsigned long long bar = 0xe0000000000ULL + idx * 0x2000000ULL;
	char text[13 * 60], *p = text;
	unsigned int i;

	p += sprintf(p, "0x%016llx 0x%016llx 0x%016llx", bar, bar + 0x1ffffff,
		     0x14220cULL);
	for (i = 1; i < 13; i++)
		p += sprintf(p, "\n0x%016x 0x%016x 0x%016x", 0, 0, 0);
	return put(fn, "resource", "%s", text);
}

/* The 256-byte type 0 configuration header (pci_regs.h offsets). */
static int write_config(const char *fn, const struct sim_device_model *m,
			uint32_t pci_class)
{
	uint8_t c[256] = {0};
	char path[1100];
	FILE *f;
	size_t n;

	c[0x00] = (uint8_t)m->pci_vendor;
	c[0x01] = (uint8_t)(m->pci_vendor >> 8);
	c[0x02] = (uint8_t)m->pci_device;
	c[0x03] = (uint8_t)(m->pci_device >> 8);
	c[0x04] = 0x06; /* memory space, bus master */
	c[0x06] = 0x10; /* status: capability list */
	c[0x09] = (uint8_t)pci_class;
	c[0x0a] = (uint8_t)(pci_class >> 8);
	c[0x0b] = (uint8_t)(pci_class >> 16);
	c[0x10] = 0x0c; /* BAR0: 64-bit prefetchable memory */
	c[0x2c] = (uint8_t)m->pci_vendor;
	c[0x2d] = (uint8_t)(m->pci_vendor >> 8);
	c[0x2e] = 0x16; /* subsystem id 0x0016 */
	c[0x34] = 0x60; /* first capability: PCI Express */
	c[0x3d] = 1;	/* INTA# */
	c[0x60] = 0x10; /* PCIe capability id */
	c[0x62] = 0x02; /* version 2, endpoint */
	snprintf(path, sizeof(path), "%s/config", fn);
	f = fopen(path, "we");
	if (!f)
		return -errno;
	n = fwrite(c, 1, sizeof(c), f);
	return fclose(f) || n != sizeof(c) ? -EIO : 0;
}

/*
 * The HCA's PCI function (pci-sysfs.c attributes) with its class devices
 * below it: infiniband/<dev>, infiniband_verbs/uverbsN; /sys/class and
 * /sys/bus/pci/devices link to them, as the driver core links them.
 */
static int write_pci(const char *dir, const struct sim_device_model *m,
		     unsigned int idx, char *fn, size_t fnlen)
{
	uint32_t pci_class = m->gid_is_roce ? 0x020000 : 0x020700;
	char rel[768], bdf[16], target[800], cpus[256];
	int ret = 0;

	sim_pci_dir(rel, sizeof(rel), idx);
	sim_pci_bdf(bdf, sizeof(bdf), idx);
	snprintf(fn, fnlen, "%s%s", dir, rel);
	ret |= put(fn, "vendor", "0x%04x", m->pci_vendor);
	ret |= put(fn, "device", "0x%04x", m->pci_device);
	ret |= put(fn, "subsystem_vendor", "0x%04x", m->pci_vendor);
	ret |= put(fn, "subsystem_device", "0x%04x", 0x0016u);
	ret |= put(fn, "class", "0x%06x", pci_class);
	ret |= put(fn, "revision", "0x%02x", 0);
	ret |= put(fn, "irq", "%d", 16);
	ret |= put(fn, "enable", "%d", 1);
	ret |= put(fn, "numa_node", "%d", 0);
	node0_cpus(cpus, sizeof(cpus), "cpumap", "1");
	ret |= put(fn, "local_cpus", "%s", cpus);
	node0_cpus(cpus, sizeof(cpus), "cpulist", "0");
	ret |= put(fn, "local_cpulist", "%s", cpus);
	ret |= put(fn, "dma_mask_bits", "%d", 64);
	ret |= put(fn, "consistent_dma_mask_bits", "%d", 64);
	ret |= put(fn, "max_link_speed", "16.0 GT/s PCIe");
	ret |= put(fn, "current_link_speed", "16.0 GT/s PCIe");
	ret |= put(fn, "max_link_width", "%d", 16);
	ret |= put(fn, "current_link_width", "%d", 16);
	ret |= put(fn, "power_state", "D0");
	ret |= put(fn, "modalias",
		   "pci:v%08Xd%08Xsv%08Xsd%08Xbc%02Xsc%02Xi%02X", m->pci_vendor,
		   m->pci_device, m->pci_vendor, 0x0016u, pci_class >> 16,
		   (pci_class >> 8) & 0xff, pci_class & 0xff);
	ret |= put(fn, "uevent",
		   "DRIVER=mlx5_core\nPCI_CLASS=%X\nPCI_ID=%04X:%04X\n"
		   "PCI_SUBSYS_ID=%04X:%04X\nPCI_SLOT_NAME=%s\n"
		   "MODALIAS=pci:v%08Xd%08Xsv%08Xsd%08Xbc%02Xsc%02Xi%02X",
		   pci_class, m->pci_vendor, m->pci_device, m->pci_vendor,
		   0x0016u, bdf, m->pci_vendor, m->pci_device, m->pci_vendor,
		   0x0016u, pci_class >> 16, (pci_class >> 8) & 0xff,
		   pci_class & 0xff);
	ret |= write_resource(fn, idx);
	ret |= write_config(fn, m, pci_class);
	ret |= link_at(fn, "driver", "../../../../bus/pci/drivers/mlx5_core");
	ret |= link_at(fn, "subsystem", "../../../../bus/pci");
	snprintf(target, sizeof(target), "../../..%s", rel + 4);
	snprintf(rel, sizeof(rel), "sys/bus/pci/devices/%s", bdf);
	ret |= link_at(dir, rel, target);
	return ret ? -EIO : 0;
}

/* dir/sys/class/<cls>/<name> -> the class device below the function. */
static int link_class(const char *dir, unsigned int idx, const char *cls,
		      const char *name)
{
	char rel[256], target[256];

	sim_pci_dir(target, sizeof(target), idx);
	snprintf(rel, sizeof(rel), "sys/class/%s/%s", cls, name);
	snprintf(target + strlen(target), sizeof(target) - strlen(target),
		 "/%s/%s", cls, name);
	/* from sys/class/<cls>/: ../../ is sys/ */
	memmove(target + 5, target + 4, strlen(target + 4) + 1);
	memcpy(target, "../..", 5);
	return link_at(dir, rel, target);
}

/*
 * infiniband_mad/<kind><idx> of port 1 (user_mad.c: ibdev, port, dev),
 * below the PCI function when there is one, and its /dev node.
 */
static int write_mad_dev(const char *dir, const struct sim_device_model *m,
			 unsigned int idx, const char *kind, unsigned int minor)
{
	char d[1100], rel[128], name[32], fn[1000];
	int ret = 0;

	snprintf(name, sizeof(name), "%s%u", kind, idx);
	if (m->pci_vendor) {
		sim_pci_dir(rel, sizeof(rel), idx);
		snprintf(fn, sizeof(fn), "%s%s", dir, rel);
		snprintf(d, sizeof(d), "%s/infiniband_mad/%s", fn, name);
		snprintf(rel, sizeof(rel), "../../../%s", strrchr(fn, '/') + 1);
		ret |= link_at(d, "device", rel);
		ret |= link_class(dir, idx, "infiniband_mad", name);
	} else {
		snprintf(d, sizeof(d), "%s/sys/class/infiniband_mad/%s", dir,
			 name);
	}
	ret |= put(d, "ibdev", "%s%u", m->ibdev_prefix, idx);
	ret |= put(d, "port", "%d", 1);
	ret |= put(d, "dev", "%u:%u", SIM_UVERBS_MAJOR, minor);
	snprintf(rel, sizeof(rel), "dev/infiniband/%s", name);
	ret |= put(dir, rel, "%s", "");
	return ret;
}

static int write_device(const char *dir, const struct sim_device_model *m,
			unsigned int idx, int eth)
{
	uint64_t guid = m->guid_base + idx;
	char ib[1100], uv[1100], fn[1000], rel[128], g[32], name[64];
	unsigned int minor = SIM_UVERBS_MINOR_BASE + idx;
	int ret = 0;

	snprintf(name, sizeof(name), "%s%u", m->ibdev_prefix, idx);
	if (m->pci_vendor) {
		ret |= write_pci(dir, m, idx, fn, sizeof(fn));
		snprintf(ib, sizeof(ib), "%s/infiniband/%s", fn, name);
		snprintf(uv, sizeof(uv), "%s/infiniband_verbs/uverbs%u", fn,
			 idx);
		snprintf(rel, sizeof(rel), "../../../%s", strrchr(fn, '/') + 1);
		ret |= link_at(ib, "device", rel);
		ret |= link_at(uv, "device", rel);
		ret |= link_class(dir, idx, "infiniband", name);
		snprintf(rel, sizeof(rel), "uverbs%u", idx);
		ret |= link_class(dir, idx, "infiniband_verbs", rel);
	} else {
		snprintf(ib, sizeof(ib), "%s/sys/class/infiniband/%s", dir,
			 name);
		snprintf(uv, sizeof(uv),
			 "%s/sys/class/infiniband_verbs/uverbs%u", dir, idx);
	}
	sim_format_guid(g, sizeof(g), guid);
	ret |= put(ib, "node_type", "%s", m->node_type_str);
	ret |= put(ib, "node_guid", "%s", g);
	ret |= put(ib, "sys_image_guid", "%s", g);
	ret |= put(ib, "node_desc", "rdma-sim %s", name);
	ret |= put(ib, "fw_ver", "%s", m->fw_ver);
	ret |= put(ib, "hca_type", "%s", m->hca_type);
	ret |= put(ib, "board_id", "%s", m->board_id);
	ret |= put(ib, "hw_rev", "0x%x", m->hw_ver);
	ret |= write_port(ib, m, guid, idx, eth);
	ret |= put(uv, "ibdev", "%s", name);
	ret |= put(uv, "dev", "%u:%u", SIM_UVERBS_MAJOR, minor);
	ret |= put(uv, "abi_version", "%u", m->uverbs_abi);
	snprintf(rel, sizeof(rel), "dev/infiniband/uverbs%u", idx);
	ret |= put(dir, rel, "%s", "");
	if (idx < SIM_UMAD_MAX_PORTS) {
		ret |= write_mad_dev(dir, m, idx, "umad", idx);
		if (!eth) /* the SM's device: SMI ports only */
			ret |= write_mad_dev(dir, m, idx, "issm",
					     SIM_UMAD_MAX_PORTS + idx);
	}
	return ret ? -EIO : 0;
}

int sim_write_sysfs(const char *dir, const struct sim_config *cfg)
{
	const struct sim_device_model *m = sim_model_by_kind(cfg->driver);
	char path[768];
	unsigned int i;
	int ret;

	ret = put(dir, "sys/class/infiniband_verbs/abi_version", "6");
	if (ret)
		return ret;
	snprintf(path, sizeof(path), "%s/sys/class/infiniband_mad", dir);
	ret = mkdirs(path);
	if (ret)
		return ret;
	ret = put(dir, "sys/class/infiniband_mad/abi_version", "5");
	if (!ret && m->pci_vendor) {
		snprintf(path, sizeof(path), "%s/sys/bus/pci/drivers/mlx5_core",
			 dir);
		ret = mkdirs(path);
	}
	if (!ret) /* the RDMA CM (misc 10:58, ucma ABI 4) */
		ret = put(dir, "sys/class/misc/rdma_cm/abi_version", "4");
	if (!ret)
		ret = put(dir, "sys/class/misc/rdma_cm/dev", "10:58");
	for (i = 0; !ret && i < cfg->ndev; i++)
		ret = write_device(dir, m, i, cfg->link_eth[i]);
	return ret;
}

/*
 * What sysfs shows of each RoCE port now, to rewrite only what changed.
 * Files exist for slots 0..shown_len-1: the first SYSFS_GIDS and every
 * slot that ever held a GID (all 1024 of rxe's cost seconds of start-up).
 */
#define SYSFS_GIDS 16
static struct sim_gid_slot shown[SIM_MAX_NETDEVS][SIM_GID_SLOTS];
static uint32_t shown_len[SIM_MAX_NETDEVS];
static uint8_t shown_state[SIM_MAX_NETDEVS]; /* 0 unwritten, 1 down, 2 up */

static int write_gid(const char *ib, const struct sim_netdev *nd,
		     const struct sim_gid_slot *g, unsigned int i)
{
	static const char *const types[] = {"IB/RoCE v1", "IB/RoCE v1",
					    "RoCE v2"};
	const uint8_t *b = g->gid;
	char rel[64];
	int ret;

	snprintf(rel, sizeof(rel), "ports/1/gids/%u", i);
	ret = put(ib, rel,
		  "%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:"
		  "%02x%02x:%02x%02x",
		  b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9],
		  b[10], b[11], b[12], b[13], b[14], b[15]);
	/* an empty slot reads EINVAL in the kernel: here an empty file
	 * (put) */
	snprintf(rel, sizeof(rel), "ports/1/gid_attrs/types/%u", i);
	ret |= g->state == SIM_GID_VALID ? put(ib, rel, "%s", types[g->type % 3])
					 : put(ib, rel, "%s", "");
	snprintf(rel, sizeof(rel), "ports/1/gid_attrs/ndevs/%u", i);
	ret |= g->state == SIM_GID_VALID ? put(ib, rel, "%s", nd->ifname)
					 : put(ib, rel, "%s", "");
	return ret;
}

int sim_sysfs_write_roce_port(const char *dir, const struct sim_shared *sh,
			      unsigned int n)
{
	const struct sim_device_model *m = sim_model_by_kind(sh->cfg.driver);
	const struct sim_netdev *nd = &sh->net.nd[n];
	uint8_t state = nd->running ? 2 : 1;
	char ib[768];
	uint32_t i;
	int ret = 0;

	snprintf(ib, sizeof(ib), "%s/sys/class/infiniband/%s%u", dir,
		 m->ibdev_prefix, nd->dev);
	for (i = 0; i < nd->gid_tbl_len; i++) {
		struct sim_gid_slot v = {.state = nd->gids[i].state};

		if (v.state == SIM_GID_VALID)
			v = nd->gids[i];
		if (i < shown_len[n] ? !memcmp(&v, &shown[n][i], sizeof(v))
				     : i >= SYSFS_GIDS && !v.state)
			continue;
		for (; shown_len[n] < i; shown_len[n]++) /* no gaps */
			ret |= write_gid(ib, nd, &shown[n][shown_len[n]],
					 shown_len[n]);
		shown[n][i] = v;
		ret |= write_gid(ib, nd, &v, i);
		if (shown_len[n] <= i)
			shown_len[n] = i + 1;
	}
	if (state != shown_state[n]) {
		shown_state[n] = state;
		ret |= put(ib, "ports/1/state", "%s",
			   state == 2 ? "4: ACTIVE" : "1: DOWN");
		ret |= put(ib, "ports/1/phys_state", "%s",
			   state == 2 ? "5: LinkUp" : "3: Disabled");
	}
	return ret ? -EIO : 0;
}

int sim_sysfs_register_device(const char *dir, const struct sim_shared *sh,
			      unsigned int dev)
{
	const struct sim_device_model *m = sim_model_by_kind(sh->cfg.driver);
	int n = sh->net.netdev_of[dev];
	int ret = write_device(dir, m, dev, sh->cfg.link_eth[dev]);

	if (n < 0)
		return ret;
	/* the port's GID files went with the device: all of them anew */
	shown_len[n] = 0;
	shown_state[n] = 0;
	return ret | sim_sysfs_write_roce_port(dir, sh, (unsigned int)n);
}
