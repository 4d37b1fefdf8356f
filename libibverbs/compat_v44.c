// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * A private symbol that rdma-core's own tools bind by version: Debian's
 * ibv_devinfo calls ibv_query_gid_type@IBVERBS_PRIVATE_34 and rdma-core 65's
 * pyverbs @IBVERBS_PRIVATE_65, so without it the unmodified binaries do not
 * even load against this libibverbs. One function, two versions, 65's the
 * default. (A plain "ibv_query_gid_type" next to a versioned one would be
 * dropped by the linker, hence .symver for both.)
 */
#include <errno.h>

#include <infiniband/verbs.h>

/* rdma-core 44's sysfs GID type: IB and RoCE v1 share one value. */
enum compat_gid_type_sysfs {
	COMPAT_GID_TYPE_SYSFS_IB_ROCE_V1,
	COMPAT_GID_TYPE_SYSFS_ROCE_V2,
};

int compat_query_gid_type(struct ibv_context *context, uint8_t port_num,
			  unsigned int index, enum compat_gid_type_sysfs *type);

/* 0, or -1 with errno; an empty slot reads as IB/RoCE v1, as sysfs says. */
int compat_query_gid_type(struct ibv_context *context, uint8_t port_num,
			  unsigned int index, enum compat_gid_type_sysfs *type)
{
	struct ibv_gid_entry entry = {};
	int ret;

	ret = _ibv_query_gid_ex(context, port_num, index, &entry, 0,
				sizeof(entry));
	if (ret && ret != ENODATA) {
		errno = ret;
		return -1;
	}
	*type = !ret && entry.gid_type == IBV_GID_TYPE_ROCE_V2 ?
			COMPAT_GID_TYPE_SYSFS_ROCE_V2 :
			COMPAT_GID_TYPE_SYSFS_IB_ROCE_V1;
	return 0;
}
__asm__(".symver compat_query_gid_type, "
	"ibv_query_gid_type@@IBVERBS_PRIVATE_65");
__asm__(".symver compat_query_gid_type, "
	"ibv_query_gid_type@IBVERBS_PRIVATE_34");
