# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""What a fresh Debian 12 (debootstrap --variant=minbase: the Priority
required packages and apt) needs that build.sh's DEPS must install.

Checks, against the apt cache of this machine:
  - build-essential is in DEPS (dpkg-buildpackage insists on it),
  - every Build-Depends of debian/control comes with DEPS,
  - every program the CMake files find_program() and every command the
    shell scripts run comes from a DEPS package, its dependencies, or a
    Priority required package, or apt (see base_system).

usage: deps_test.py SOURCE_DIR
"""
import os
import re
import shutil
import subprocess
import sys

src = sys.argv[1]
failures = []


def run(*cmd):
    return subprocess.run(cmd, capture_output=True, text=True).stdout


def build_sh_deps():
    text = open(os.path.join(src, "build.sh")).read()
    body = re.search(r"^DEPS=\((.*?)^\)", text, re.M | re.S).group(1)
    return [w for line in body.splitlines()
            for w in line.split("#")[0].split()]


def closure(pkgs):
    """DEPS and everything they pull in (alternatives included)."""
    out = run("apt-cache", "depends", "--recurse", "--no-recommends",
              "--no-suggests", "--no-conflicts", "--no-breaks",
              "--no-replaces", "--no-enhances", *pkgs)
    names = {line.strip("<>") for line in out.splitlines()
             if line and not line.startswith(" ")}
    return {n.split(":")[0] for n in names}


def providers(name):
    """A real package name, or the packages providing a virtual one."""
    out = run("apt-cache", "showpkg", name)
    rev = out.split("Reverse Provides:", 1)
    provs = {line.split()[0] for line in rev[1].splitlines()
             if line.strip()} if len(rev) > 1 else set()
    return provs | {name}


def owners(paths):
    """Path -> owning package, from dpkg's file lists (usrmerge aware)."""
    want = {}
    for p in paths:
        real = os.path.realpath(p)
        for alias in (p, real, real.replace("/usr/", "/", 1)):
            want[alias] = p
    found = {}
    info = "/var/lib/dpkg/info"
    for name in os.listdir(info):
        if not name.endswith(".list"):
            continue
        pkg = name[:-5].split(":")[0]
        for line in open(os.path.join(info, name), errors="replace"):
            path = want.get(line.rstrip("\n"))
            if path:
                found.setdefault(path, pkg)
    return found


def base_system():
    """What every Debian system has: the Priority required packages, and
    apt, which debootstrap installs in every variant (minbase too) although
    its own control file says Priority important: a freshly bootstrapped
    system's dpkg database has it so, whatever the archive's override."""
    out = run("dpkg-query", "-W", "-f=${Package} ${Priority}\\n")
    return {line.split()[0] for line in out.splitlines()
            if line.endswith(" required")} | {"apt"}


def build_depends():
    text = open(os.path.join(src, "debian/control")).read()
    m = re.search(r"^Build-Depends:(.*?)^\S", text, re.M | re.S)
    for dep in m.group(1).replace("\n", " ").split(","):
        alts = [re.sub(r"[ (\[<].*", "", a.strip()) for a in dep.split("|")]
        yield [a for a in alts if a]


def find_program_names():
    for f in tree_files():
        if os.path.basename(f) != "CMakeLists.txt":
            continue
        root = os.path.dirname(f) or "."
        text = open(os.path.join(src, f)).read()
        for m in re.finditer(r"find_program\(\s*\w+\s+([^)]*)\)", text):
            words = m.group(1).replace("NAMES", " ").split()
            for w in words:
                if re.fullmatch(r"[a-z][\w.+-]*", w):
                    yield w, root
                    break


COMMAND_POS = re.compile(
    r"(?:^|[|;&(]|\$\(|\bthen\b|\bdo\b|\belse\b|\bexec\b|\bnice\b|"
    r"\btimeout\s+(?:--\S+\s+)*\d+\S*|!)\s*([A-Za-z_][\w.+-]*)")


def tree_files():
    """The source tree's files (no git: a tarball tree has no .git)."""
    for root, dirs, files in os.walk(src):
        top = os.path.samefile(root, src)
        # Build trees sit at the top (build/, build-*, obj-*).
        dirs[:] = [d for d in dirs if d != ".git" and not (
            top and (d == "build" or d.startswith(("build-", "obj-"))))]
        for name in files:
            yield os.path.relpath(os.path.join(root, name), src)


def script_commands():
    files = [f for f in tree_files()
             if f.endswith(".sh") or f == "debian/rules"]
    if len(files) < 10:
        failures.append(f"only {len(files)} scripts found under {src}")
    for f in files:
        # The guest scripts run in the VM's busybox initramfs.
        if f.startswith("tests/vm/guest-"):
            continue
        in_array = False
        for n, line in enumerate(open(os.path.join(src, f),
                                     errors="replace"), 1):
            s = line.strip()
            if in_array:  # the words of a multi-line array assignment
                in_array = ")" not in s
                continue
            if s.startswith("#"):
                continue
            in_array = bool(re.search(r"\w+=\([^)]*$", s))
            s = re.sub(r"'[^']*'", "", s)
            s = re.sub(r'"[^"$]*"', "", s)
            s = re.sub(r"\w+=\([^)]*\)?", "", s)  # array assignments
            for m in COMMAND_POS.finditer(s):
                w = m.group(1)
                if s[m.end():m.end() + 1] == "=":
                    continue  # an assignment, not a command
                if shutil.which(w) and not w.startswith("_"):
                    yield w, f"{f}:{n}"


deps = build_sh_deps()
have = closure(deps)
if "build-essential" not in deps:
    failures.append("build-essential is not in DEPS "
                    "(dpkg-buildpackage: Unmet build dependencies)")
for alts in build_depends():
    if not any(a in have or providers(a) & have for a in alts):
        failures.append(f"Build-Depends {' | '.join(alts)} is not installed "
                        "by DEPS")

seen = {}
for cmd, where in list(find_program_names()) + list(script_commands()):
    seen.setdefault(cmd, where)
paths = {cmd: shutil.which(cmd) for cmd in seen}
required = base_system()
owner = owners(p for p in paths.values() if p)
for cmd, where in sorted(seen.items()):
    path = paths[cmd]
    if not path:
        failures.append(f"{cmd} ({where}) is not installed here")
        continue
    pkg = owner.get(path)
    if pkg is None:
        continue  # not from a package (a shell builtin's twin, pyenv...)
    if pkg not in have and pkg not in required:
        failures.append(f"{cmd} ({where}) comes from {pkg}, which DEPS "
                        "does not install")

for f in failures:
    print("FAIL:", f)
print(f"{len(deps)} DEPS, {len(have)} packages with dependencies, "
      f"{len(seen)} commands checked, {len(failures)} failure(s)")
sys.exit(1 if failures else 0)
