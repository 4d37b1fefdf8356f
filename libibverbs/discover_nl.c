// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* Device discovery through RDMA netlink (NLDEV), using libnl-3. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <linux/netlink.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <rdma/rdma_netlink.h>

#include "discover.h"
#include "log.h"
#include "sysfs.h"

/* Sized by the header in use: 6.1 and newer kernels differ. */
static struct nla_policy nldev_policy[RDMA_NLDEV_ATTR_MAX] = {
	[RDMA_NLDEV_ATTR_DEV_INDEX] = {.type = NLA_U32},
	[RDMA_NLDEV_ATTR_DEV_NAME] = {.type = NLA_STRING},
	[RDMA_NLDEV_ATTR_PORT_INDEX] = {.type = NLA_U32},
	[RDMA_NLDEV_ATTR_NODE_GUID] = {.type = NLA_U64},
	[RDMA_NLDEV_ATTR_DEV_NODE_TYPE] = {.type = NLA_U8},
	[RDMA_NLDEV_ATTR_CHARDEV] = {.type = NLA_U64},
	[RDMA_NLDEV_ATTR_CHARDEV_ABI] = {.type = NLA_U64},
	[RDMA_NLDEV_ATTR_CHARDEV_NAME] = {.type = NLA_STRING},
	[RDMA_NLDEV_ATTR_CHARDEV_TYPE] = {.type = NLA_STRING},
};

static int parse_attrs(struct nlmsghdr *nlh,
		       struct nlattr *tb[RDMA_NLDEV_ATTR_MAX])
{
	if (nlh->nlmsg_len < NLMSG_HDRLEN ||
	    nlmsg_parse(nlh, 0, tb, RDMA_NLDEV_ATTR_MAX - 1, nldev_policy))
		return EINVAL;
	return 0;
}

/* libnl checks minimum sizes only; insist on the exact size. */
static bool has_exact(struct nlattr *attr, int len)
{
	return attr && nla_len(attr) == len;
}

/* A NUL-terminated string that fits in @size bytes. */
static bool copy_string(char *dst, size_t size, struct nlattr *attr)
{
	const char *text;
	int len;

	if (!attr)
		return false;
	text = nla_data(attr);
	len = nla_len(attr);
	if (len < 1 || strnlen(text, len) == (size_t)len ||
	    strnlen(text, len) >= size || !text[0] || strchr(text, '/'))
		return false;
	strcpy(dst, text);
	return true;
}

int verbs_nl_parse_device(struct nlmsghdr *nlh, struct verbs_sysfs_dev *dev)
{
	struct nlattr *tb[RDMA_NLDEV_ATTR_MAX] = {};
	uint8_t node_type;

	if (parse_attrs(nlh, tb) ||
	    !has_exact(tb[RDMA_NLDEV_ATTR_DEV_INDEX], 4) ||
	    !has_exact(tb[RDMA_NLDEV_ATTR_PORT_INDEX], 4) ||
	    !has_exact(tb[RDMA_NLDEV_ATTR_NODE_GUID], 8) ||
	    !has_exact(tb[RDMA_NLDEV_ATTR_DEV_NODE_TYPE], 1) ||
	    !copy_string(dev->ibdev_name, sizeof(dev->ibdev_name),
			 tb[RDMA_NLDEV_ATTR_DEV_NAME]))
		return EINVAL;

	dev->ibdev_idx = nla_get_u32(tb[RDMA_NLDEV_ATTR_DEV_INDEX]);
	dev->num_ports = nla_get_u32(tb[RDMA_NLDEV_ATTR_PORT_INDEX]);
	dev->node_guid = nla_get_u64(tb[RDMA_NLDEV_ATTR_NODE_GUID]);
	dev->have_node_guid = true;
	node_type = nla_get_u8(tb[RDMA_NLDEV_ATTR_DEV_NODE_TYPE]);
	dev->node_type =
		node_type >= IBV_NODE_CA && node_type <= IBV_NODE_UNSPECIFIED
			? (enum ibv_node_type)node_type
			: IBV_NODE_UNKNOWN;
	dev->from_netlink = true;
	return 0;
}

dev_t verbs_nl_decode_dev(uint64_t encoded)
{
	unsigned int major_nr = (encoded >> 8) & 0xfff;
	unsigned int minor_nr = (encoded & 0xff) | ((encoded >> 12) & 0xfff00);

	return makedev(major_nr, minor_nr);
}

int verbs_nl_parse_chardev(struct nlmsghdr *nlh, struct verbs_sysfs_dev *dev)
{
	struct nlattr *tb[RDMA_NLDEV_ATTR_MAX] = {};
	struct nlattr *drv;
	uint64_t abi;

	if (parse_attrs(nlh, tb) ||
	    !has_exact(tb[RDMA_NLDEV_ATTR_CHARDEV], 8) ||
	    !has_exact(tb[RDMA_NLDEV_ATTR_CHARDEV_ABI], 8) ||
	    !copy_string(dev->sysfs_name, sizeof(dev->sysfs_name),
			 tb[RDMA_NLDEV_ATTR_CHARDEV_NAME]))
		return EINVAL;

	/* The upper 32 bits of the ABI attribute are reserved. */
	abi = nla_get_u64(tb[RDMA_NLDEV_ATTR_CHARDEV_ABI]);
	dev->abi_ver = (int)(uint32_t)abi;
	dev->sysfs_cdev =
		verbs_nl_decode_dev(nla_get_u64(tb[RDMA_NLDEV_ATTR_CHARDEV]));

	/* Optional; the uAPI comment and the kernel disagree on its width. */
	drv = tb[RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID];
	if (drv && nla_len(drv) == 4)
		dev->driver_id = nla_get_u32(drv);
	else if (drv && nla_len(drv) == 8)
		dev->driver_id = (uint32_t)nla_get_u64(drv);
	return 0;
}

struct dump_state {
	struct verbs_sysfs_list *list;
	int err;
};

static int device_cb(struct nl_msg *msg, void *arg)
{
	struct dump_state *state = arg;
	struct verbs_sysfs_dev *dev = verbs_sysfs_dev_new();

	if (!dev) {
		state->err = ENOMEM;
		return NL_STOP;
	}
	if (verbs_nl_parse_device(nlmsg_hdr(msg), dev)) {
		verbs_lib_warn("ignoring a malformed netlink device record\n");
		free(dev);
		return NL_OK;
	}
	if (verbs_sysfs_list_add(state->list, dev)) {
		free(dev);
		state->err = ENOMEM;
		return NL_STOP;
	}
	return NL_OK;
}

/*
 * GET_CHARDEV for a window of devices goes out in one datagram (the
 * kernel answers every message of it, each reply a datagram of its own)
 * and the replies come back through recvmmsg: two kernel calls per window
 * instead of two per device. The window keeps the replies well inside the
 * socket's receive buffer, which the kernel would otherwise overrun.
 */
#define CHARDEV_WINDOW 32
#define CHARDEV_REPLY  1024 /* bytes per reply datagram, ample */
#define CHARDEV_SEQ    0x40000000u

/* One attribute at @buf + *len; NLA_ALIGN'ed, pad bytes zeroed. */
static void put_attr(uint8_t *buf, size_t *len, uint16_t type, const void *data,
		     uint16_t size)
{
	struct nlattr *attr = (struct nlattr *)(buf + *len);

	attr->nla_type = type;
	attr->nla_len = (uint16_t)(NLA_HDRLEN + size);
	memcpy(buf + *len + NLA_HDRLEN, data, size);
	memset(buf + *len + NLA_HDRLEN + size, 0, NLA_ALIGN(size) - size);
	*len += NLA_ALIGN(attr->nla_len);
}

/*
 * Append the request for @dev with sequence @seq to @buf, written in
 * place (a libnl message would be a page allocated per device).
 */
static int put_request(uint8_t *buf, size_t *len, size_t cap,
		       const struct verbs_sysfs_dev *dev, uint32_t seq)
{
	struct nlmsghdr *hdr = (struct nlmsghdr *)(buf + *len);
	size_t start = *len, end = *len + NLMSG_HDRLEN;

	if (end + 2 * NLA_HDRLEN + 4 + NLA_ALIGN(sizeof("uverbs")) > cap)
		return ENOMEM;
	*hdr = (struct nlmsghdr){
		.nlmsg_type = RDMA_NL_GET_TYPE(RDMA_NL_NLDEV,
					       RDMA_NLDEV_CMD_GET_CHARDEV),
		.nlmsg_flags = NLM_F_REQUEST,
		.nlmsg_seq = seq,
	};
	put_attr(buf, &end, RDMA_NLDEV_ATTR_DEV_INDEX, &dev->ibdev_idx, 4);
	put_attr(buf, &end, RDMA_NLDEV_ATTR_CHARDEV_TYPE, "uverbs",
		 sizeof("uverbs"));
	hdr->nlmsg_len = (uint32_t)(end - start);
	*len = end;
	return 0;
}

/* One reply datagram: each message fills the device its seq names. */
static size_t take_replies(struct verbs_sysfs_list *list, size_t first,
			   size_t num, uint8_t *buf, size_t len)
{
	struct nlmsghdr *hdr = (struct nlmsghdr *)buf;
	size_t taken = 0, i;
	ssize_t left = (ssize_t)len;

	for (; NLMSG_OK(hdr, left); hdr = NLMSG_NEXT(hdr, left)) {
		i = hdr->nlmsg_seq - CHARDEV_SEQ;
		if (hdr->nlmsg_seq < CHARDEV_SEQ || i < first ||
		    i >= first + num)
			continue;
		taken++;
		/* An error (old kernel, device gone) leaves sysfs to try. */
		if (hdr->nlmsg_type == NLMSG_ERROR ||
		    verbs_nl_parse_chardev(hdr, list->devs[i]))
			list->devs[i]->sysfs_name[0] = '\0';
	}
	return taken;
}

struct chardev_io {
	uint8_t req[CHARDEV_WINDOW * 64];
	uint8_t reply[CHARDEV_WINDOW][CHARDEV_REPLY];
	struct iovec iov[CHARDEV_WINDOW];
	struct mmsghdr vec[CHARDEV_WINDOW];
};

static int chardev_window(int fd, struct chardev_io *io,
			  struct verbs_sysfs_list *list, size_t first,
			  size_t num)
{
	size_t len = 0, got = 0, i;
	int n, ret;

	for (i = first; i < first + num; i++) {
		list->devs[i]->sysfs_name[0] = '\0';
		ret = put_request(io->req, &len, sizeof(io->req), list->devs[i],
				  CHARDEV_SEQ + (uint32_t)i);
		if (ret)
			return ret;
	}
	if (send(fd, io->req, len, 0) != (ssize_t)len)
		return EIO;
	while (got < num) {
		for (i = 0; i < num - got; i++) {
			io->iov[i] =
				(struct iovec){io->reply[i], CHARDEV_REPLY};
			io->vec[i] = (struct mmsghdr){
				.msg_hdr = {.msg_iov = &io->iov[i],
					    .msg_iovlen = 1}};
		}
		n = recvmmsg(fd, io->vec, (unsigned int)(num - got),
			     MSG_WAITFORONE, NULL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return EIO;
		for (i = 0; i < (size_t)n; i++)
			got += take_replies(list, first, num, io->reply[i],
					    io->vec[i].msg_len);
	}
	return 0;
}

/* The char device of every listed device; sysfs_name stays "" if none. */
static int request_chardevs(struct nl_sock *sk, struct verbs_sysfs_list *list)
{
	struct chardev_io *io;
	size_t first, num;
	int ret = 0;

	if (!list->num)
		return 0;
	io = malloc(sizeof(*io));
	if (!io)
		return ENOMEM;
	for (first = 0; !ret && first < list->num; first += num) {
		num = list->num - first;
		if (num > CHARDEV_WINDOW)
			num = CHARDEV_WINDOW;
		ret = chardev_window(nl_socket_get_fd(sk), io, list, first,
				     num);
	}
	free(io);
	return ret;
}

/* An old kernel without GET_CHARDEV: <ibdev>/device/infiniband_verbs/. */
static int chardev_from_sysfs(const char *sysfs_root,
			      struct verbs_sysfs_dev *dev)
{
	struct verbs_sysfs_dev probe = {};
	char dir_path[PATH_MAX];
	struct dirent *ent;
	int ret = ENOENT;
	DIR *dir;

	snprintf(dir_path, sizeof(dir_path),
		 "%s/class/infiniband/%s/device/infiniband_verbs", sysfs_root,
		 dev->ibdev_name);
	dir = opendir(dir_path);
	if (!dir)
		return errno;
	while ((ent = readdir(dir))) {
		if (ent->d_name[0] == '.')
			continue;
		ret = verbs_sysfs_read_uverbs(sysfs_root, ent->d_name, &probe);
		break;
	}
	closedir(dir);
	if (ret)
		return ret;
	strcpy(dev->sysfs_name, probe.sysfs_name);
	dev->sysfs_cdev = probe.sysfs_cdev;
	dev->abi_ver = probe.abi_ver;
	return 0;
}

struct finish {
	const char *root;
	const struct verbs_known *known;
	int ibdev_fd; /* <root>/class/infiniband, opened for a new device */
};

/* The char device of @dev; sysfs only for a device not known yet. */
static int finish_device(struct finish *f, struct verbs_sysfs_dev *dev)
{
	char path[PATH_MAX];

	if (!dev->sysfs_name[0] && chardev_from_sysfs(f->root, dev))
		return ENODEV;
	if (f->known && f->known->has(f->known, dev))
		return 0;
	if (snprintf(dev->sysfs_path, sizeof(dev->sysfs_path),
		     "%s/class/infiniband_verbs/%s", f->root,
		     dev->sysfs_name) >= (int)sizeof(dev->sysfs_path) ||
	    snprintf(dev->ibdev_path, sizeof(dev->ibdev_path),
		     "%s/class/infiniband/%s", f->root,
		     dev->ibdev_name) >= (int)sizeof(dev->ibdev_path))
		return ENAMETOOLONG;
	if (f->ibdev_fd < 0) {
		snprintf(path, sizeof(path), "%s/class/infiniband", f->root);
		f->ibdev_fd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	}
	verbs_sysfs_read_ibdev(f->ibdev_fd, dev);
	return 0;
}

static bool keep_finished(struct verbs_sysfs_dev *dev, void *arg)
{
	if (!finish_device(arg, dev))
		return true;
	verbs_lib_debug("%s: no uverbs char device\n", dev->ibdev_name);
	return false;
}

int verbs_nl_discover(const char *sysfs_root, struct verbs_sysfs_list *list,
		      const struct verbs_known *known)
{
	struct finish f = {.root = sysfs_root, .known = known, .ibdev_fd = -1};
	struct dump_state state = {.list = list};
	struct nl_sock *sk;
	int ret;

	sk = nl_socket_alloc();
	if (!sk)
		return ENOMEM;
	ret = nl_connect(sk, NETLINK_RDMA);
	if (ret) {
		ret = EPROTONOSUPPORT;
		goto out;
	}
	nl_socket_disable_auto_ack(sk);
	nl_socket_disable_msg_peek(sk);

	ret = nl_send_simple(
		sk, RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_GET),
		NLM_F_DUMP, NULL, 0);
	if (ret < 0) {
		ret = EIO;
		goto out;
	}
	nl_socket_modify_cb(sk, NL_CB_VALID, NL_CB_CUSTOM, device_cb, &state);
	ret = nl_recvmsgs_default(sk) < 0 ? EIO : state.err;
	if (ret)
		goto out;

	ret = request_chardevs(sk, list);
	if (ret)
		goto out;
	verbs_sysfs_list_filter(list, keep_finished, &f);
	if (f.ibdev_fd >= 0)
		close(f.ibdev_fd);
out:
	nl_socket_free(sk);
	return ret;
}
