#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""Fail, one at a time, every kernel call of a scenario.

A clean run under `rdma-sim --trace` lists the calls that ibv_open_device,
ibv_alloc_dm, ibv_dm_export_dmabuf_fd, ibv_free_dm (and close) make. Then
for every call and for two errnos, `rdma-sim --fail KIND:N:ERRNO` runs the
scenario (dm_fault_scenario.c) again. Each run must end cleanly (no leaked
fd or mapping, no crash), and:
  - a call the provider cannot do without (context creation, the device
    query, DM_ALLOC and its MEMIC mmap, DMABUF_ALLOC, DM_FREE) must make
    its verb fail with exactly the injected errno (EIO on DM_FREE, a
    disassociated device, must instead succeed: destroys count it so);
  - an optional call (clock pages, NC UAR, port query) may be absorbed:
    the verb succeeds, or fails with the injected errno.

The control-path scenario (ctl_fault_scenario.c: PD, MR, channel, CQ, SRQ,
QP to RTS, AH and their destroys) runs with --ctl, which names its own
strict calls and destroys. Under the ASan build LeakSanitizer ends a run
that left memory behind with its own exit code: that run fails too.

usage: dm_fault_injection.py [--ctl] RDMA_SIM SCENARIO WORKDIR [SIM_ARG...]
"""
import os
import re
import subprocess
import sys

ERRNOS = {"ENOMEM": 12, "EIO": 5}
MMAP_DEVICE_MEM = 8
# uverbs methods / write commands whose failure must reach the caller.
STRICT = {"GET_CONTEXT", "QUERY_DEVICE", "EX_QUERY_DEVICE", "DM_ALLOC",
          "DMABUF_ALLOC", "DM_FREE"}
# Destroys: EIO means the device was disassociated and the object is gone
# with it, so the verb must succeed (libibverbs' destroy rule).
DESTROYS = {"DM_FREE"}
# The control-path scenario: its creates and destroys must reach the caller
# (the library's write-path commands are INVOKE_WRITE here: may absorb).
# Options for every rdma-sim run (--driver rxe).
SIM_ARGS = []
CTL_DESTROYS = {"QP_DESTROY", "SRQ_DESTROY", "CQ_DESTROY", "MR_DESTROY",
                "PD_DESTROY", "DM_FREE", "AH_DESTROY"}
CTL_STRICT = {"GET_CONTEXT", "CQ_CREATE", "SRQ_CREATE", "QP_CREATE",
              "DM_ALLOC", "DM_MR_REG"} | CTL_DESTROYS


def classify(kind, line, page):
    """(name, strict) of one traced call."""
    if kind == "ioctl":
        m = re.search(r"ioctl fd \d+ (\w+)\.(\w+) attrs=", line)
        name = m.group(2) if m else "unknown method"
        return name, name in STRICT
    if kind == "write":
        m = re.search(r"write (\w+) len", line)
        name = m.group(1) if m else "write"
        return name, name in STRICT
    if kind == "mmap":
        m = re.search(r"off (0x[0-9a-f]+|0)\b", line)
        cmd = (int(m.group(1), 16) // page >> 8) & 0xff if m else -1
        return "mmap cmd %d" % cmd, cmd == MMAP_DEVICE_MEM
    uverbs = "/dev/infiniband/" in line
    return "open uverbs" if uverbs else "open sysfs", uverbs


def calls_from_trace(path, page):
    """[(kind, nth, name, strict)] from the first uverbs open on; nth
    counts every call of that kind, as --fail does."""
    counts = {}
    calls = []
    started = False
    with open(path) as f:
        for line in f:
            m = re.match(r"\[\d+\] (ioctl|write|mmap|open) ", line)
            if not m:
                continue
            kind = m.group(1)
            counts[kind] = counts.get(kind, 0) + 1
            if kind == "open" and "/dev/infiniband/" in line:
                started = True
            if started:
                name, strict = classify(kind, line, page)
                calls.append((kind, counts[kind], name, strict))
    return calls


def run(sim, scenario, extra):
    p = subprocess.run([sim] + SIM_ARGS + extra + ["--", scenario],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, timeout=60)
    m = re.search(r"^RESULT (\S+) (\d+)$", p.stdout, re.M)
    return p.returncode, m.group(1) if m else None, \
        int(m.group(2)) if m else None, p.stdout


def main():
    global STRICT, DESTROYS
    args = sys.argv[1:]
    if args and args[0] == "--ctl":
        STRICT, DESTROYS = CTL_STRICT, CTL_DESTROYS
        args = args[1:]
    sim, scenario, workdir = args[:3]
    SIM_ARGS[:] = args[3:]
    os.makedirs(workdir, exist_ok=True)
    trace = os.path.join(workdir, "clean.trace")
    if os.path.exists(trace):
        os.unlink(trace)
    rc, verb, _, out = run(sim, scenario, ["--trace", trace])
    if rc != 0 or verb != "none":
        print("clean run failed (rc %d):\n%s" % (rc, out))
        return 1
    calls = calls_from_trace(trace, os.sysconf("SC_PAGE_SIZE"))
    if not calls:
        print("no kernel calls found in %s" % trace)
        return 1

    failures = 0
    runs = 0
    for kind, nth, name, strict in calls:
        for ename, enum in ERRNOS.items():
            if STRICT is CTL_STRICT and name in DESTROYS and ename == "EIO":
                # EIO is a disassociated device, where every later call
                # fails too; one failed call leaves the kernel's object
                # behind instead, and the destroys after it see EBUSY.
                continue
            rule = "%s:%d:%s" % (kind, nth, ename)
            rc, verb, err, out = run(sim, scenario, ["--fail", rule])
            runs += 1
            clean_fail = rc == 3 and err == enum
            absorbed = rc == 0
            if name in DESTROYS and ename == "EIO":
                ok = absorbed
            else:
                ok = clean_fail if strict else (clean_fail or absorbed)
            status = "ok" if ok else "FAIL"
            print("%-4s %-24s (%-18s) -> %s %s" %
                  (status, rule, name,
                   verb if verb else "rc=%d" % rc,
                   "" if err is None else err))
            if not ok:
                failures += 1
                print(out)
    print("%d kernel calls, %d injected runs, %d failures" %
          (len(calls), runs, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
