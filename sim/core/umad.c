// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * ib_umad: /dev/infiniband/umadN (every port) and issmN (InfiniBand ports)
 * for port 1 of device N (N < 64: char 231:N and 231:64+N), with the
 * kernel's user_mad.c ABI:
 *   ioctl  REGISTER_AGENT (56-byte headers unless ENABLE_PKEY came first),
 *          REGISTER_AGENT2 (64-byte headers), UNREGISTER_AGENT,
 *          ENABLE_PKEY (EINVAL once an agent was registered); others
 *          ENOTTY. At most 32 agents (ENOMEM), QP 0 or 1 (EINVAL), QP 0
 *          only on a port with an SMI (EPROTONOSUPPORT), SMI classes only
 *          on QP 0 and the others only on QP 1 (EINVAL).
 *   write  header + MAD: shorter than header + 36 bytes or agent id >= 32
 *          EINVAL, an unregistered agent EIO; returns the count.
 *   read   shorter than the header EINVAL; nothing queued blocks (EAGAIN
 *          with O_NONBLOCK); too short for the packet EINVAL, the packet
 *          stays. poll/epoll: readable while packets wait.
 * A MAD sent to a port of the world (a 0-hop directed route to the own
 * port, or a LID 1..ndev: device LID-1) is answered by that HCA's agents
 * (hca_mad.c), an SA MAD to the SM LID by the SA (umad_sa.c: multicast
 * joins and leaves), and the answer queued for the sending agent, source
 * LID and QP as received; one nobody answers comes back, when it asked for a
 * timeout, with status ETIMEDOUT and only its 24-byte header (at once:
 * the timer is not modelled). Not modelled: MADs between user agents,
 * RMPP, the IsSM bit while issmN is open and its single-opener rule.
 */
#include "mad.h"
#include "uapi.h"

#include <errno.h>
#include <fcntl.h>
#include <rdma/ib_user_mad.h>
#include <rdma/rdma_user_ioctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define UMAD_MAJOR	231
#define UMAD_MAX_PORTS	SIM_UMAD_MAX_PORTS
#define UMAD_MAX_AGENTS 32
#define HDR_OLD		56 /* ib_user_mad_hdr_old */

struct umad_agent {
	uint8_t used;
	uint8_t qpn;
	uint8_t mgmt_class;
};

struct umad_pkt {
	struct umad_pkt *next;
	size_t len; /* header + MAD bytes read() returns */
	uint8_t data[sizeof(struct ib_user_mad_hdr) + SIM_MAD_SIZE];
};

struct umad_file {
	unsigned int dev;
	uint8_t use_pkey; /* 64-byte headers */
	uint8_t used;	  /* an agent was registered: no ENABLE_PKEY */
	struct umad_agent agents[UMAD_MAX_AGENTS];
	struct umad_pkt *head, **tail;
};

static size_t hdr_size(const struct umad_file *u)
{
	return u->use_pkey ? sizeof(struct ib_user_mad_hdr) : HDR_OLD;
}

static unsigned int nports(void)
{
	return sim.sh->cfg.ndev < UMAD_MAX_PORTS ? sim.sh->cfg.ndev
						 : UMAD_MAX_PORTS;
}

/* "<prefix><N>" with N a port of the world, in canonical decimal. */
static int match_index(const char *path, const char *prefix, unsigned int *n)
{
	size_t len = strlen(prefix);
	char want[64];

	if (strncmp(path, prefix, len) || path[len] < '0' || path[len] > '9')
		return 0;
	*n = (unsigned int)strtoul(path + len, NULL, 10);
	snprintf(want, sizeof(want), "%s%u", prefix, *n);
	return !strcmp(path, want) && *n < nports() &&
	       sim_dev_live(sim.sh, *n); /* an unregistered port has none */
}

/* umadN is minor N, issmN (InfiniBand ports only) minor 64 + N. */
static int umad_match(const char *path, unsigned int *minor)
{
	if (match_index(path, "/dev/infiniband/umad", minor))
		return 1;
	if (!match_index(path, "/dev/infiniband/issm", minor) ||
	    sim_port_is_eth(sim.sh, *minor)) /* issm: IB ports only */
		return 0;
	*minor += UMAD_MAX_PORTS;
	return 1;
}

static int umad_open(struct sim_devfile *f, int flags)
{
	struct umad_file *u = calloc(1, sizeof(*u));

	(void)flags;
	if (!u)
		return -ENOMEM;
	u->dev = f->minor % UMAD_MAX_PORTS;
	u->tail = &u->head;
	f->priv = u;
	return 0;
}

static void umad_release(struct sim_devfile *f)
{
	struct umad_file *u = f->priv;
	struct umad_pkt *p;

	while (u && (p = u->head)) {
		u->head = p->next;
		free(p);
	}
	free(u);
}

static int is_smi(uint8_t mgmt_class)
{
	return mgmt_class == SIM_MAD_CLASS_SMI ||
	       mgmt_class == SIM_MAD_CLASS_SMI_DR;
}

/* ib_register_mad_agent's checks, then the lowest free id. */
static int add_agent(struct umad_file *u, uint32_t qpn, uint8_t mgmt_class,
		     uint32_t *id)
{
	unsigned int i;

	if (qpn > 1)
		return -EINVAL;
	if (qpn == 0 && sim.model->gid_is_roce)
		return -EPROTONOSUPPORT; /* no SMI on an Ethernet port */
	if (mgmt_class && (is_smi(mgmt_class) != (qpn == 0) ||
			   (mgmt_class >= 0x80 && !is_smi(mgmt_class))))
		return -EINVAL;
	for (i = 0; i < UMAD_MAX_AGENTS; i++) {
		if (u->agents[i].used)
			continue;
		u->agents[i].used = 1;
		u->agents[i].qpn = (uint8_t)qpn;
		u->agents[i].mgmt_class = mgmt_class;
		u->used = 1;
		*id = i;
		return 0;
	}
	return -ENOMEM;
}

static long reg_agent(struct umad_file *u, void *arg)
{
	struct ib_user_mad_reg_req r;
	int ret;

	if (sim_copy_from_user(&r, arg, sizeof(r)))
		return -EFAULT;
	ret = add_agent(u, r.qpn, r.mgmt_class, &r.id);
	if (!ret && sim_copy_to_user(arg, &r.id, sizeof(r.id)))
		ret = -EFAULT;
	return ret;
}

static long reg_agent2(struct umad_file *u, void *arg)
{
	struct ib_user_mad_reg_req2 r;
	int ret;

	if (sim_copy_from_user(&r, arg, sizeof(r)))
		return -EFAULT;
	if (r.flags & ~(uint32_t)IB_USER_MAD_REG_FLAGS_CAP) {
		r.flags = IB_USER_MAD_REG_FLAGS_CAP; /* what is supported */
		sim_copy_to_user(
			(uint8_t *)arg +
				offsetof(struct ib_user_mad_reg_req2, flags),
			&r.flags, sizeof(r.flags));
		return -EINVAL;
	}
	if (r.oui & 0xff000000)
		return -EINVAL;
	ret = add_agent(u, r.qpn, r.mgmt_class, &r.id);
	if (!ret) {
		u->use_pkey = 1; /* the new ABI carries the P_Key index */
		if (sim_copy_to_user(arg, &r.id, sizeof(r.id)))
			ret = -EFAULT;
	}
	return ret;
}

static long umad_ioctl(struct sim_devfile *f, unsigned long req, void *arg)
{
	struct umad_file *u = f->priv;
	uint32_t id;

	switch (req) {
	case IB_USER_MAD_REGISTER_AGENT:
		return reg_agent(u, arg);
	case IB_USER_MAD_REGISTER_AGENT2:
		return reg_agent2(u, arg);
	case IB_USER_MAD_UNREGISTER_AGENT:
		if (sim_copy_from_user(&id, arg, sizeof(id)))
			return -EFAULT;
		if (id >= UMAD_MAX_AGENTS || !u->agents[id].used)
			return -EINVAL;
		u->agents[id].used = 0;
		return 0;
	case IB_USER_MAD_ENABLE_PKEY:
		if (u->used)
			return -EINVAL;
		u->use_pkey = 1;
		return 0;
	}
	return -ENOTTY;
}

/* Queue header + mad_len bytes of MAD for read(). Needs sim_lock. */
static void queue_pkt(struct sim_devfile *f, struct ib_user_mad_hdr *h,
		      const uint8_t *mad, size_t mad_len)
{
	struct umad_file *u = f->priv;
	struct umad_pkt *p = calloc(1, sizeof(*p));
	size_t hs = hdr_size(u);

	if (!p)
		return; /* the kernel drops a MAD it cannot allocate for */
	h->length = (uint32_t)(hs + mad_len);
	memcpy(p->data, h, hs);
	memcpy(p->data + hs, mad, mad_len);
	p->len = hs + mad_len;
	*u->tail = p;
	u->tail = &p->next;
	sim_devfile_ready(f, 1);
}

/* Device dev's agents' answer, through its driver (the HCA's firmware
 * runs them); 1 with the response in out. */
static int process_mad(unsigned int dev, const uint8_t *in, uint8_t *out)
{
	const struct sim_driver_ops *d = sim_driver();

	return d->process_mad ? d->process_mad(dev, in, out) : 0;
}

/* The device a MAD sent from dev reaches, or -1: a 0-hop directed route
 * stays on the port; LID L is device L-1 (IB ports only). */
static int destination(unsigned int dev, const struct ib_user_mad_hdr *h,
		       const uint8_t *mad, uint16_t *slid)
{
	unsigned int lid = be16toh(h->lid);

	if (mad[1] == SIM_MAD_CLASS_SMI_DR) {
		*slid = 0xffff; /* the permissive DrSLID of a local SMP */
		return mad[7] == 0 ? (int)dev : -1;
	}
	if (sim.model->gid_is_roce || lid < 1 || lid > sim.sh->cfg.ndev)
		return -1;
	*slid = (uint16_t)lid;
	return (int)lid - 1;
}

static ssize_t umad_write(struct sim_devfile *f, int fd, const void *buf,
			  size_t len)
{
	uint8_t kbuf[sizeof(struct ib_user_mad_hdr) + SIM_MAD_SIZE] = {0};
	uint8_t resp[SIM_MAD_SIZE];
	char what[32] = "unanswered";
	struct ib_user_mad_hdr h = {0};
	struct umad_file *u = f->priv;
	size_t hs = hdr_size(u);
	uint16_t slid = 0;
	int dev, answered = 0;
	uint8_t *mad;

	(void)fd; /* the node's file is an eventfd: nothing to write */
	if (len < hs + SIM_MAD_RMPP_HDR || len > hs + SIM_MAD_SIZE)
		return -EINVAL;
	if (sim_copy_from_user(kbuf, buf, len))
		return -EFAULT;
	memcpy(&h, kbuf, hs);
	mad = kbuf + hs;
	if (h.id >= UMAD_MAX_AGENTS)
		return -EINVAL;
	sim_lock_take();
	if (!u->agents[h.id].used) {
		sim_lock_drop();
		return -EIO;
	}
	dev = destination(u->dev, &h, mad, &slid);
	if (dev >= 0 && !(mad[3] & SIM_MAD_RESP))
		answered =
			slid == SIM_SM_LID && mad[1] == SIM_MAD_CLASS_SA
				? sim_sa_process(mad, resp)
				: process_mad((unsigned int)dev, mad, resp);
	if (answered) {
		struct ib_user_mad_hdr r = {.id = h.id, .qpn = h.qpn};

		r.lid = htobe16(slid);
		queue_pkt(f, &r, resp, SIM_MAD_SIZE);
	} else if (h.timeout_ms && !(mad[3] & SIM_MAD_RESP)) {
		h.status = ETIMEDOUT;
		queue_pkt(f, &h, mad, SIM_MAD_HDR);
	}
	sim_lock_drop();
	if (answered) /* the status says what the agent made of it */
		snprintf(what, sizeof(what), "answered, status 0x%04x",
			 be16toh(*(uint16_t *)(resp + 4)));
	sim_trace("umad%u write class %#x method %#x attr %#x -> %s", u->dev,
		  mad[1], mad[3], be16toh(*(uint16_t *)(mad + 16)), what);
	return (ssize_t)len;
}

/* Wait for a packet on the eventfd (the user's fd: its O_NONBLOCK). */
static ssize_t umad_read(struct sim_devfile *f, int fd, void *buf, size_t len)
{
	struct umad_file *u = f->priv;
	struct umad_pkt *p;
	uint64_t v;
	ssize_t ret;

	if (len < hdr_size(u))
		return -EINVAL;
	if (!(sys.fcntl(fd, F_GETFL) & O_NONBLOCK)) {
		ret = sim_wait_readable(fd, -1);
		if (ret < 0)
			return ret;
	}
	if (real.read(fd, &v, sizeof(v)) < 0)
		return -errno;
	sim_lock_take();
	p = u->head;
	if (!p) {
		ret = -EAGAIN; /* another reader took it */
	} else if (len < p->len) {
		sim_devfile_ready(f, 1); /* it stays queued */
		ret = -EINVAL;
	} else {
		u->head = p->next;
		if (!u->head)
			u->tail = &u->head;
		ret = sim_copy_to_user(buf, p->data, p->len) ? -EFAULT
							     : (ssize_t)p->len;
		if (ret < 0) {
			/* the kernel puts it back at the head of the list */
			p->next = u->head;
			if (!u->head)
				u->tail = &p->next;
			u->head = p;
			sim_devfile_ready(f, 1);
		} else {
			free(p);
		}
	}
	sim_lock_drop();
	return ret;
}

static const struct sim_devnode umad_node = {
	.major = UMAD_MAJOR,
	.match = umad_match,
	.open = umad_open,
	.ioctl = umad_ioctl,
	.read = umad_read,
	.write = umad_write,
	.release = umad_release,
	.pollable = 1,
};
SIM_DEVNODE(umad_node);
