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
 * Write "<content>\n" to dir/relpath (printf-style), creating parents
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
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
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

static int write_device(const char *dir, const struct sim_device_model *m,
			unsigned int idx, int eth)
{
	uint64_t guid = m->guid_base + idx;
	char ib[768], uv[768], rel[128], g[32];
	unsigned int minor = SIM_UVERBS_MINOR_BASE + idx;
	int ret = 0;

	snprintf(ib, sizeof(ib), "%s/sys/class/infiniband/%s%u", dir,
		 m->ibdev_prefix, idx);
	snprintf(uv, sizeof(uv), "%s/sys/class/infiniband_verbs/uverbs%u", dir,
		 idx);
	sim_format_guid(g, sizeof(g), guid);
	ret |= put(ib, "node_type", "%s", m->node_type_str);
	ret |= put(ib, "node_guid", "%s", g);
	ret |= put(ib, "sys_image_guid", "%s", g);
	ret |= put(ib, "node_desc", "rdma-sim %s%u", m->ibdev_prefix, idx);
	ret |= put(ib, "fw_ver", "%s", m->fw_ver);
	ret |= put(ib, "hca_type", "%s", m->hca_type);
	ret |= put(ib, "board_id", "%s", m->board_id);
	ret |= put(ib, "hw_rev", "0x%x", m->hw_ver);
	if (m->pci_vendor) {
		ret |= put(ib, "device/modalias",
			   "pci:v%08Xd%08Xsv%08Xsd%08Xbc02sc07i00",
			   m->pci_vendor, m->pci_device, m->pci_vendor,
			   0x0016u);
		ret |= put(ib, "device/vendor", "0x%04x", m->pci_vendor);
		ret |= put(ib, "device/device", "0x%04x", m->pci_device);
	}
	snprintf(rel, sizeof(rel), "device/infiniband_verbs/uverbs%u/ibdev",
		 idx);
	ret |= put(ib, rel, "%s%u", m->ibdev_prefix, idx);
	ret |= write_port(ib, m, guid, idx, eth);
	ret |= put(uv, "ibdev", "%s%u", m->ibdev_prefix, idx);
	ret |= put(uv, "dev", "%u:%u", SIM_UVERBS_MAJOR, minor);
	ret |= put(uv, "abi_version", "%u", m->uverbs_abi);
	snprintf(rel, sizeof(rel), "dev/infiniband/uverbs%u", idx);
	ret |= put(dir, rel, "%s", "");
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
	/* an empty slot reads EINVAL in the kernel: here an empty file */
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
