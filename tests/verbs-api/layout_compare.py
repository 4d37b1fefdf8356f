#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""Struct layouts of our public headers against rdma-core 44's.

clang dumps the layout of every record of a probe that includes the
public headers, once against our include/ and once against the system's
/usr/include (Debian's rdma-core 44). Both dumps become one line per
field ("<struct> <offset> <path> <type>") plus a sizeof/align line per
struct; verbs_context offsets are taken relative to its `context` member,
because its slots grow downwards. Every line that differs must be listed
in the expected-differences file (what upstream added after v44), and
every listed line must really differ: a stale list fails too.

usage: layout_compare.py CLANG PROBE.c OUR_INCLUDE_DIR EXPECTED_FILE
"""
import re
import subprocess
import sys

PREFIXES = ("ibv_", "verbs_", "_ibv_", "_compat_ibv", "ib_uverbs_")
FIELD = re.compile(r"^\s*(\d+)(?::\d+-\d+)? \| (\s*)(.*)$")
SIZE = re.compile(r"\[sizeof=(\d+), (?:dsize=\d+, )?align=(\d+)")
UNNAMED = re.compile(r"\((?:unnamed|anonymous) at [^)]*\)")


def dump(clang, probe, includes):
    cmd = [clang, "-fsyntax-only", "-Xclang", "-fdump-record-layouts-complete"]
    cmd += [f"-I{d}" for d in includes] + [probe]
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode:
        sys.exit(f"clang failed ({' '.join(cmd)}):\n{res.stderr}")
    return res.stdout


def fields(block):
    """Yield (offset, path, type) of a record dump, then ('size', s, a)."""
    stack = []
    for line in block[1:]:
        m = FIELD.match(line)
        if m:
            depth = len(m.group(2)) // 2
            decl = UNNAMED.sub("(unnamed)", m.group(3))
            ftype, _, fname = decl.rpartition(" ")
            if decl.endswith("(unnamed)"):
                ftype, fname = decl, "{}"
            del stack[depth - 1:]
            stack.append(fname)
            yield int(m.group(1)), ".".join(stack), ftype
            continue
        s = SIZE.search(line)
        if s:
            yield "size", s.group(1), s.group(2)


def normalize(text):
    out = set()
    for block in text.split("*** Dumping AST Record Layout")[1:]:
        lines = [l for l in block.strip("\n").split("\n") if l.strip()]
        head = FIELD.match(lines[0])
        if not head or " " not in head.group(3):
            continue
        name = head.group(3).split(" ", 1)[1]
        if not name.startswith(PREFIXES) or "(" in name:
            continue
        rows = list(fields(lines))
        base = 0
        if name == "verbs_context":
            base = next(off for off, path, _ in rows if path == "context")
        for off, path, ftype in rows:
            if off == "size":
                out.add(f"{name} sizeof={path} align={ftype}")
                continue
            ftype = ftype.replace("enum ib_uverbs_", "enum ibv_")
            out.add(f"{name} {off - base} {path} {ftype}")
    return out


def main():
    clang, probe, our_inc, expected_file = sys.argv[1:5]
    theirs = normalize(dump(clang, probe, []))
    ours = normalize(dump(clang, probe, [our_inc]))
    if len(theirs) < 2000 or len(ours) < 2000:
        sys.exit(f"too few layout lines (44: {len(theirs)}, ours: "
                 f"{len(ours)}): is the probe including the headers?")

    diff = {f"- {l}" for l in theirs - ours} | {f"+ {l}" for l in ours - theirs}
    with open(expected_file) as f:
        expected = {l.rstrip("\n") for l in f
                    if l.strip() and not l.startswith("#")}

    bad = False
    for line in sorted(diff - expected):
        print(f"unexpected layout difference: {line}")
        bad = True
    for line in sorted(expected - diff):
        print(f"listed difference no longer present: {line}")
        bad = True
    print(f"{len(theirs)} layout lines from rdma-core 44, {len(ours)} ours, "
          f"{len(diff)} known differences")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
