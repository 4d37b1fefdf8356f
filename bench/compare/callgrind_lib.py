#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""Library instructions per call from a callgrind profile.

usage: callgrind_lib.py FILE CALLS SIM_OBJECT_SUBSTRING

The profile was taken with --toggle-collect on the bench_* functions, so
its total is what those calls cost. Under rdma-sim the kernel runs in the
process: the inclusive cost of every call from outside the simulator into
its object (its interposed syscalls) is the kernel's share and is taken
away, except calls to the simulator's wrappers of library entry points
(ibv_*: the HCA hooks call the library inside, whose own calls into the
simulator are counted on their own). Prints "total_per_call
library_per_call".
"""
import re
import sys


def main():
    path, calls, sim = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    names = {"ob": {}, "fn": {}}  # callgrind numbers each kind apart
    total = sim_ir = 0
    cur_ob = call_ob = call_fn = None
    pending = False

    def resolve(value, kind="ob"):
        m = re.match(r"\((\d+)\)(?: (.*))?$", value)
        if not m:
            return value
        if m.group(2) is not None:
            names[kind][m.group(1)] = m.group(2)
        return names[kind].get(m.group(1), "?")

    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("ob="):
                cur_ob = resolve(line[3:])
            elif line.startswith("cob="):
                call_ob = resolve(line[4:])
            elif line.startswith("cfn="):
                call_fn = resolve(line[4:], "fn")
            elif line.startswith("fn="):
                resolve(line[3:], "fn")
                call_ob = None
            elif line.startswith("calls="):
                target = call_ob or cur_ob or ""
                pending = (sim in target and sim not in (cur_ob or "") and
                           not (call_fn or "").startswith("ibv_"))
                call_ob = call_fn = None
            elif line.startswith(("totals:", "summary:")):
                total = int(line.split()[1])
            elif line and (line[0].isdigit() or line[0] in "+-*"):
                parts = line.split()
                if pending and len(parts) > 1:
                    sim_ir += int(parts[1])
                pending = False
    print(total // calls, (total - sim_ir) // calls)


if __name__ == "__main__":
    main()
