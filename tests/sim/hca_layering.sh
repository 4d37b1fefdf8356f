#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The mlx5 driver and the HCA meet at the firmware-command interface
# (sim/hw/mlx5/hca_cmd.h) and the event queue only:
#  - the HCA (sim/hw) names no kernel object (struct sim_qp, sim_pd, ...),
#    raises no uverbs event itself, looks up no kernel object table and
#    calls no driver function; it includes no driver or object header
#    directly, and the uverbs uAPI header only where the SMA reads the
#    port (hca_mad.c);
#  - the driver (sim/drivers/mlx5) touches no engine struct or list and
#    includes from hw/mlx5 only hca_cmd.h (hca.h where it maps the UAR
#    page, the doorbell entry, and for the tag-matching limits).
SIM=$1
fail() { echo "FAIL: $*" >&2; exit 1; }
[ -d "$SIM/hw/mlx5" ] && [ -d "$SIM/drivers/mlx5" ] || fail "no $SIM/hw/mlx5"

grep -rnE 'struct sim_(obj|uvfile|pd|qp|cq|srq|mr|mw|dm|xrcd|ah|dmabuf_import)\b|\bsim_(obj|pd|qp|cq|srq|mr|mw)\(' \
	"$SIM/hw" && fail "the HCA names kernel objects (above)"
grep -rnE '\b(sim_async_event|sim_cq_comp_event|sim_device_event|sim_for_each_context|sim_[a-z]+_by_(key|num)|sim_dmabuf_bytes|sim_memic_base|mlx5_sim_[a-z_]+)\(' \
	"$SIM/hw" && fail "the HCA calls the kernel's object or event code (above)"
# Named exception: an XRC TGT QP is its domain's, shared by processes;
# the instance an HCA runs for it (hca_xrc.c) reads the QP's row in the
# shared state (core/xrc_tgt.c: attributes, PSN, holders) and takes its
# path's device as the driver computes it. No other HCA file may.
grep -rnE '\bsim_xrc_tgt|\bsim_qp_attr\b|\bmlx5_av_dev\b' "$SIM/hw" |
	grep -v '/hca_xrc\.c:' && fail "the HCA reads the core's XRC rows (above)"
# one world-wide numbering (common/sim_shared.c): no layer draws its own
grep -rn 'next_id++' "$SIM/hw" "$SIM/drivers" &&
	fail "a layer numbers objects itself: sim_shared_number() (above)"
grep -rnE '#[[:space:]]*include[[:space:]]*"(obj|mlx5)\.h"' "$SIM/hw" &&
	fail "the HCA includes a kernel object or driver header (above)"
# the SMA (hca_mad.c) still asks the core for the port's attributes
grep -rlE '#[[:space:]]*include[[:space:]]*"uapi\.h"' "$SIM/hw" |
	grep -v '/hca_mad\.c$' && fail "the HCA includes the uverbs uAPI (above)"
grep -rnE 'struct hca_(qp|cq|srq|mkey)\b|\bhca_(qps|cqs|srqs)\b|hca_qp_set_state' \
	"$SIM/drivers/mlx5" && fail "the driver reaches into the HCA's state (above)"
for f in "$SIM"/drivers/mlx5/*.[ch]; do
	case $(basename "$f") in
	driver_mlx5.c | mlx5_tm.c) continue ;;
	esac
	grep -nE '#[[:space:]]*include[[:space:]]*"hca\.h"' "$f" &&
		fail "$f includes hca.h: only hca_cmd.h is the driver's"
done
# rxe meets the HCA's event queue itself (drivers/dev_event.c), not
# through the mlx5 driver
grep -rnE '\bmlx5_[a-z_]+\(' "$SIM/drivers/rxe" &&
	fail "the rxe driver calls the mlx5 driver (above)"
n=$(grep -c 'HCA_CMD(' "$SIM"/hw/mlx5/hca_cmd*.c | awk -F: '{s += $2} END {print s}')
[ "$n" -gt 20 ] || fail "only $n commands in the dispatcher's tables"
echo "HCA and mlx5 driver layered: $n firmware commands, no object crossing"
