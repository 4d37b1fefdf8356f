#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""Medians and ratios of the side-by-side rounds run.sh recorded.

usage: summarize.py RESULTS
RESULTS lines: "CONFIG LIB ROUND NAME VALUE" (VALUE: median ns per call
of that run). Prints a markdown table: per config and name, the median
over rounds for each library and ours / rdma-core 44 (time ratio; < 1 is
faster), and for copies the bandwidth ratio.
"""
import statistics
import sys


def main():
    runs = {}
    for line in open(sys.argv[1]):
        parts = line.split()
        if len(parts) != 5:
            continue
        config, lib, _, name, value = parts
        runs.setdefault((config, name), {}).setdefault(lib, []).append(
            float(value))
    print("| config | call | rounds | ours ns | rdma-core 44 ns | "
          "ours / 44 (time) | speed-up |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for (config, name), libs in runs.items():
        if "ours" not in libs:
            continue
        if "deb" not in libs:  # a verb rdma-core 44 does not have
            print("| %s | %s | %d | %.0f | n/a | n/a | n/a |" %
                  (config, name, len(libs["ours"]),
                   statistics.median(libs["ours"])))
            continue
        ours = statistics.median(libs["ours"])
        deb = statistics.median(libs["deb"])
        print("| %s | %s | %d | %.0f | %.0f | %.2f | %.2fx |" %
              (config, name, min(len(libs["ours"]), len(libs["deb"])),
               ours, deb, ours / deb, deb / ours))


if __name__ == "__main__":
    main()
