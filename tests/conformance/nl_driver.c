// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The device's RDMA_DRIVER_* id, asked from RDMA netlink (NLDEV GET dump to
 * find the device index, then GET_CHARDEV "uverbs"), with a bare socket so
 * the check does not depend on any library.
 */
#include <errno.h>
#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "conf.h"

struct nl_req {
	struct nlmsghdr nh;
	char attrs[64];
};

static void nl_put(struct nl_req *req, uint16_t type, const void *data,
		   uint16_t len)
{
	struct nlattr *nla = (void *)((char *)req + req->nh.nlmsg_len);

	nla->nla_type = type;
	nla->nla_len = NLA_HDRLEN + len;
	memcpy((char *)nla + NLA_HDRLEN, data, len);
	req->nh.nlmsg_len += NLA_ALIGN(nla->nla_len);
}

static int nl_send(int sock, struct nl_req *req, uint16_t op, uint16_t flags)
{
	req->nh.nlmsg_type = RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, op);
	req->nh.nlmsg_flags = NLM_F_REQUEST | flags;
	req->nh.nlmsg_seq = op;
	return send(sock, req, req->nh.nlmsg_len, 0) < 0 ? errno : 0;
}

/* Find attribute type in one message; NULL if absent. */
static struct nlattr *nl_find(struct nlmsghdr *nh, uint16_t type)
{
	int left = nh->nlmsg_len - NLMSG_HDRLEN;
	struct nlattr *nla = (void *)((char *)nh + NLMSG_HDRLEN);

	while (left >= NLA_HDRLEN && nla->nla_len >= NLA_HDRLEN &&
	       nla->nla_len <= left) {
		if ((nla->nla_type & NLA_TYPE_MASK) == type)
			return nla;
		left -= NLA_ALIGN(nla->nla_len);
		nla = (void *)((char *)nla + NLA_ALIGN(nla->nla_len));
	}
	return NULL;
}

static uint64_t nla_uint(struct nlattr *nla)
{
	uint64_t v64 = 0;
	uint32_t v32 = 0;

	if (nla->nla_len - NLA_HDRLEN == sizeof(v64)) {
		memcpy(&v64, (char *)nla + NLA_HDRLEN, sizeof(v64));
		return v64;
	}
	memcpy(&v32, (char *)nla + NLA_HDRLEN, sizeof(v32));
	return v32;
}

/*
 * Read replies until DONE (dump) or one answer; for each message carrying
 * attribute want, when match_name is NULL or DEV_NAME equals it, store the
 * value of want.
 */
static int nl_recv(int sock, const char *match_name, uint16_t want,
		   uint64_t *value, bool dump)
{
	static char buf[32768];
	struct nlmsghdr *nh;
	int found = ENODEV;
	ssize_t n;

	for (;;) {
		n = recv(sock, buf, sizeof(buf), 0);
		if (n < 0)
			return errno;
		for (nh = (void *)buf; NLMSG_OK(nh, n);
		     nh = NLMSG_NEXT(nh, n)) {
			struct nlattr *name, *val;

			if (nh->nlmsg_type == NLMSG_DONE)
				return found;
			if (nh->nlmsg_type == NLMSG_ERROR) {
				struct nlmsgerr *e = NLMSG_DATA(nh);

				return e->error ? -e->error : found;
			}
			name = nl_find(nh, RDMA_NLDEV_ATTR_DEV_NAME);
			val = nl_find(nh, want);
			if (!val || (match_name &&
				     (!name || strcmp((char *)name + NLA_HDRLEN,
						      match_name))))
				continue;
			*value = nla_uint(val);
			found = 0;
		}
		if (!dump)
			return found;
	}
}

int nl_uverbs_driver_id(const char *ibdev, uint32_t *driver_id)
{
	struct nl_req req = {.nh.nlmsg_len = NLMSG_HDRLEN};
	uint64_t index = 0, id = 0;
	uint32_t index32;
	int sock, err;

	sock = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_RDMA);
	if (sock < 0)
		return errno;
	err = nl_send(sock, &req, RDMA_NLDEV_CMD_GET, NLM_F_DUMP);
	if (!err)
		err = nl_recv(sock, ibdev, RDMA_NLDEV_ATTR_DEV_INDEX, &index,
			      true);
	if (err)
		goto out;

	index32 = index;
	req.nh.nlmsg_len = NLMSG_HDRLEN;
	nl_put(&req, RDMA_NLDEV_ATTR_DEV_INDEX, &index32, sizeof(index32));
	nl_put(&req, RDMA_NLDEV_ATTR_CHARDEV_TYPE, "uverbs", sizeof("uverbs"));
	err = nl_send(sock, &req, RDMA_NLDEV_CMD_GET_CHARDEV, 0);
	if (!err)
		err = nl_recv(sock, NULL, RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID, &id,
			      false);
	if (!err)
		*driver_id = id;
out:
	close(sock);
	return err;
}

/*
 * Without netlink (rdma-sim models none), the sysfs ibdev name of uverbs0
 * is matched the way providers match by name, so the ioctl rows still carry
 * the right driver id; the netlink rows above record the failure.
 */
static uint32_t sysfs_driver_id(void)
{
	static const struct {
		const char *prefix;
		uint32_t id;
	} by_name[] = {
		{"rxe", RDMA_DRIVER_RXE},
		{"mlx5_", RDMA_DRIVER_MLX5},
	};
	char name[64] = "";
	unsigned int i;
	FILE *f;

	f = fopen("/sys/class/infiniband_verbs/uverbs0/ibdev", "r");
	if (!f)
		return RDMA_DRIVER_UNKNOWN;
	if (!fgets(name, sizeof(name), f))
		name[0] = 0;
	fclose(f);
	for (i = 0; i < sizeof(by_name) / sizeof(by_name[0]); i++)
		if (!strncmp(name, by_name[i].prefix,
			     strlen(by_name[i].prefix)))
			return by_name[i].id;
	return RDMA_DRIVER_UNKNOWN;
}

void check_netlink(void)
{
	uint32_t id = 0;
	int err;

	err = nl_uverbs_driver_id("rxe0", &id);
	conf_expect("netlink.chardev.uverbs_driver_id", 0, err);
	conf_expect_u("netlink.driver_id_is_rxe", RDMA_DRIVER_RXE, id);
	raw_driver_id = err ? sysfs_driver_id() : id;
}
