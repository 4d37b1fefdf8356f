// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mlx5dv entry points this provider does not implement (memory keys,
 * crypto, DEVX general commands, the DC/mlx5 send-op QP view; declared in
 * mlx5dv.h). They exist so that programs built
 * against rdma-core's libmlx5 — Debian's perftest binds them at load
 * (BIND_NOW) — load and run on this library; each call fails cleanly with
 * EOPNOTSUPP, which those programs treat as "feature absent".
 */
#include <errno.h>
#include <stddef.h>

#include "mlx5.h"

static void *refuse_ptr(void)
{
	errno = EOPNOTSUPP;
	return NULL;
}

struct mlx5dv_mkey *mlx5dv_create_mkey(struct mlx5dv_mkey_init_attr *attr)
{
	(void)attr;
	return refuse_ptr();
}

int mlx5dv_destroy_mkey(struct mlx5dv_mkey *mkey)
{
	(void)mkey;
	return EOPNOTSUPP;
}

int mlx5dv_crypto_login(struct ibv_context *context,
			struct mlx5dv_crypto_login_attr *login_attr)
{
	(void)context;
	(void)login_attr;
	return EOPNOTSUPP;
}

struct mlx5dv_dek *mlx5dv_dek_create(struct ibv_context *context,
				     struct mlx5dv_dek_init_attr *init_attr)
{
	(void)context;
	(void)init_attr;
	return refuse_ptr();
}

int mlx5dv_dek_destroy(struct mlx5dv_dek *dek)
{
	(void)dek;
	return EOPNOTSUPP;
}

int mlx5dv_devx_general_cmd(struct ibv_context *context, const void *in,
			    size_t inlen, void *out, size_t outlen)
{
	(void)context;
	(void)in;
	(void)inlen;
	(void)out;
	(void)outlen;
	return EOPNOTSUPP;
}

