#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""Split a callgrind profile of one verb into library and "kernel" cost.

usage: callgrind_calls.py FILE N SIM_OBJECT_SUBSTRING

Under rdma-sim the kernel is the preload library, so the inclusive cost of
every call from the verb into its syscall wrappers (ioctl, mmap, munmap,
...) is what the real kernel would spend; the rest is userspace. Prints
per call: total Ir, library Ir, kernel calls made (and which).
"""
import re
import sys

SYSCALLS = {"ioctl", "write", "read", "mmap", "mmap64", "munmap", "open",
            "open64", "openat", "openat64", "close", "dup", "dup2", "dup3",
            "fcntl", "fcntl64"}


def main():
    path, n, sim_obj = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    names = {"ob": {}, "fn": {}}
    total = 0
    cur_ob = call_ob = call_fn = None
    pending = False
    sim_ir = 0
    calls = {}

    def resolve(kind, value):
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
                cur_ob = resolve("ob", line[3:])
            elif line.startswith("cob="):
                call_ob = resolve("ob", line[4:])
            elif line.startswith("fn="):
                resolve("fn", line[3:])
                call_ob = None
            elif line.startswith("cfn="):
                call_fn = resolve("fn", line[4:])
            elif line.startswith("calls="):
                count = int(line[6:].split()[0])
                target_ob = call_ob or cur_ob
                is_sys = sim_obj in (target_ob or "") and \
                    call_fn in SYSCALLS
                if is_sys:
                    calls[call_fn] = calls.get(call_fn, 0) + count
                pending = is_sys
                call_ob = None
            elif line.startswith(("totals:", "summary:")):
                total = int(line.split()[1])
            elif line and (line[0].isdigit() or line[0] in "+-*"):
                parts = line.split()
                if pending and len(parts) > 1:
                    sim_ir += int(parts[1])
                pending = False
    kernel_calls = sum(calls.values())
    detail = ", ".join("%s %.2g" % (k, v / n) for k, v in sorted(calls.items()))
    print("%d %d %.2f %s" % (total // n, (total - sim_ir) // n,
                              kernel_calls / n, detail or "-"))


if __name__ == "__main__":
    main()
