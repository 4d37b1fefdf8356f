#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""Instructions per operation without rdma-sim's engine, from callgrind.

usage: dp_ir.py FILE N

rdma-sim wraps post_* and poll_cq and runs one engine pass (hca_step) in
the caller's thread: that is the simulated HCA's work. This prints the
collected Ir per operation minus the inclusive cost of every outermost
call into the engine (hca_step, or drive() when it is not inlined, and
the sched_yield of an empty poll); the wrappers' own dispatch stays in,
the same for both libraries.
"""
import re
import sys

ENGINE = {"drive", "hca_step", "sched_yield"}


def main():
    path, n = sys.argv[1], int(sys.argv[2])
    names = {}
    total = 0
    engine = 0
    call_fn = None
    cur_fn = None
    take = False
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith(("fn=", "cfn=")):
                key = line.split("=", 1)[0]
                m = re.match(r"\((\d+)\)(?: (.*))?$", line[len(key) + 1:])
                if m:
                    if m.group(2):
                        names[m.group(1)] = m.group(2)
                    name = names.get(m.group(1), "?")
                else:
                    name = line[len(key) + 1:]
                if key == "cfn":
                    call_fn = name
                else:
                    cur_fn = name
            elif line.startswith("calls="):
                # only the outermost call: hca_step inside drive() once
                take = call_fn in ENGINE and cur_fn not in ENGINE
            elif line and (line[0].isdigit() or line[0] in "+-*"):
                if take:
                    parts = line.split()
                    if len(parts) >= 2:
                        engine += int(parts[1])
                    take = False
            elif line.startswith(("totals:", "summary:")):
                total = int(line.split()[1])
    print(round((total - engine) / n))


if __name__ == "__main__":
    main()
