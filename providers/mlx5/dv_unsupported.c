// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mlx5dv verbs this library does not implement (mkeys, crypto, DEKs,
 * DEVX general commands, the DC/mlx5 send-op QP view). They exist so that
 * programs linked against upstream's libmlx5 (perftest among them) load;
 * each fails with EOPNOTSUPP and touches nothing.
 */
#include <errno.h>

#include "mlx5.h"

struct mlx5dv_mkey *mlx5dv_create_mkey(struct mlx5dv_mkey_init_attr *attr)
{
	errno = EOPNOTSUPP;
	return NULL;
}

int mlx5dv_destroy_mkey(struct mlx5dv_mkey *mkey)
{
	return EOPNOTSUPP;
}

int mlx5dv_crypto_login(struct ibv_context *context,
			struct mlx5dv_crypto_login_attr *login_attr)
{
	return EOPNOTSUPP;
}

struct mlx5dv_dek *mlx5dv_dek_create(struct ibv_context *context,
				     struct mlx5dv_dek_init_attr *init_attr)
{
	errno = EOPNOTSUPP;
	return NULL;
}

int mlx5dv_dek_destroy(struct mlx5dv_dek *dek)
{
	return EOPNOTSUPP;
}

int mlx5dv_devx_general_cmd(struct ibv_context *context, const void *in,
			    size_t inlen, void *out, size_t outlen)
{
	return EOPNOTSUPP;
}

struct mlx5dv_qp_ex *mlx5dv_qp_ex_from_ibv_qp_ex(struct ibv_qp_ex *qp)
{
	errno = EOPNOTSUPP;
	return NULL;
}
