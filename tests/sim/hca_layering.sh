#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The mlx5 driver and the HCA meet at the firmware-command interface
# (sim/hw/mlx5/hca_cmd.h) and the event queue only:
#  - the HCA (sim/hw) names no kernel object (struct sim_qp, sim_pd, ...),
#    raises no uverbs event itself, looks up no kernel object table and
#    calls no driver function; of the simulated kernel it includes only
#    sim_world.h (the world, the lock, the trace, libc's table), never
#    sim.h, uapi.h, obj.h or a driver header; what it shares with the
#    kernel (multicast members, port attributes, an XRC_TGT QP's row)
#    it reads through sim/common; no header of the boundary or the core
#    either (its signals come through common/sig_trap.h);
#  - sim/common declares none of the hardware's functions: what the layers
#    above call of it has its own header in hw/ (hw/fabric/hca_fabric.h);
#  - the driver (sim/drivers/mlx5) touches no engine struct or list;
#  - boundary -> core -> drivers -> hw -> fabric: the layers above include
#    of hw/ only the headers it exports to them (hca_cmd.h, hca_doorbell.h,
#    hca_fabric.h; to the rxe driver hca_engine.h), never hca.h or another
#    of the HCA's own.
SIM=$1
fail() { echo "FAIL: $*" >&2; exit 1; }
[ -d "$SIM/hw/mlx5" ] && [ -d "$SIM/drivers/mlx5" ] || fail "no $SIM/hw/mlx5"

grep -rnE 'struct sim_(obj|uvfile|pd|qp|cq|srq|mr|mw|dm|xrcd|ah|dmabuf_import)\b|\bsim_(obj|pd|qp|cq|srq|mr|mw)\(' \
	"$SIM/hw" && fail "the HCA names kernel objects (above)"
grep -rnE '\b(sim_async_event|sim_cq_comp_event|sim_device_event|sim_for_each_context|sim_[a-z]+_by_(key|num)|sim_dmabuf_bytes|sim_memic_base|mlx5_sim_[a-z_]+)\(' \
	"$SIM/hw" && fail "the HCA calls the kernel's object or event code (above)"
# an XRC_TGT QP's instances run by the row's state and HCA context
# (common/sim_shared.h), which the driver sets at modify
grep -rnE '\bsim_qp_attr\b|\bmlx5_av_dev\b|\bsim_xrc_tgt_(new|open|put|load|store|error|event)\b|->attr\b' \
	"$SIM/hw" && fail "the HCA reads the core's XRC rows (above)"
grep -rnE '#[[:space:]]*include[[:space:]]*"(sim|uapi|obj|mlx5|rxe)\.h"' "$SIM/hw" &&
	fail "the HCA includes a kernel or driver header (above)"
for h in "$SIM"/boundary/*.h "$SIM"/core/*.h; do
	grep -rnE "#[[:space:]]*include[[:space:]]*\"${h##*/}\"" "$SIM/hw" &&
		fail "the HCA includes ${h#"$SIM"/} (above)"
done
# the hardware's functions (non-static, defined at column 0 in hw/)
for fn in $(grep -hoE '^[a-z][a-z0-9_ *]* \**[a-z_0-9]+\(' "$SIM"/hw/*/*.c |
	grep -v '^static' | sed -E 's/.*[ *]([a-z_0-9]+)\($/\1/' | sort -u); do
	grep -nE "\b$fn\(" "$SIM"/common/*.h &&
		fail "sim/common declares the hardware's $fn (above)"
done
grep -rnE 'struct hca_(qp|cq|srq|mkey)\b|\bhca_(qps|cqs|srqs)\b|hca_qp_set_state' \
	"$SIM/drivers/mlx5" && fail "the driver reaches into the HCA's state (above)"
# The layers above reach the hardware only through the headers it exports
# for them: the driver its firmware commands (hca_cmd.h), whoever maps,
# unmaps or moves a UAR page its doorbell pages (hca_doorbell.h), a peer's
# store into a UAR page the fabric (hca_fabric.h). Any other header of
# hw/ (hca.h, the engine's own) included from above fails here. The rxe
# driver, a software device, also sends on the wire (hca_fabric.h: the
# packet, the rings) and runs on the engine: hca_engine.h, exported to it
# alone, declares the thread, clock, counters and soft-device hook.
exported() {
	case $1 in
	boundary) echo "hca_doorbell.h" ;;
	core) echo "hca_fabric.h" ;;
	drivers) echo "hca_cmd.h hca_doorbell.h hca_fabric.h" ;;
	*) echo "" ;;
	esac
}
hw_headers=$(find "$SIM/hw" -name '*.h' -exec basename {} \; | sort -u)
for layer in boundary core drivers launcher common peer include; do
	[ -d "$SIM/$layer" ] || continue
	ok=$(exported "$layer")
	for h in $hw_headers; do
		case " $ok " in *" $h "*) continue ;; esac
		grep -rnE "#[[:space:]]*include[[:space:]]*[\"<]([^\">]*/)?${h%.h}\.h[\">]" \
			"$SIM/$layer" --include='*.[ch]' |
			grep -v "^$SIM/drivers/rxe/[^:]*:[0-9]*:#include \"hca_engine\.h\"" &&
			fail "$layer/ includes the hardware's $h (above);" \
				"hw/ exports to it: ${ok:-nothing}"
	done
done
# what hw/ exports includes nothing of the HCA's own
for h in hca_cmd.h hca_doorbell.h hca_engine.h hca_fabric.h; do
	f=$(find "$SIM/hw" -name "$h")
	[ -n "$f" ] || fail "no exported header $h in hw/"
	grep -nE '#[[:space:]]*include[[:space:]]*"' "$f" &&
		fail "the exported $h includes a header of the sim (above)"
done
# of the wire, the layers above the devices ring a peer's doorbell only
grep -rnE '\bhca_fabric_[a-z_]+\(' "$SIM/boundary" "$SIM/core" \
	"$SIM/drivers" --exclude-dir=rxe &&
	fail "only the rxe driver of the layers above calls the wire (above)"
# rxe meets the HCA's event queue itself (drivers/dev_event.c), not
# through the mlx5 driver
grep -rnE '\bmlx5_[a-z_]+\(' "$SIM/drivers/rxe" &&
	fail "the rxe driver calls the mlx5 driver (above)"
n=$(grep -c 'HCA_CMD(' "$SIM"/hw/mlx5/hca_cmd*.c | awk -F: '{s += $2} END {print s}')
[ "$n" -gt 20 ] || fail "only $n commands in the dispatcher's tables"
echo "HCA and mlx5 driver layered: $n firmware commands, no object crossing"
