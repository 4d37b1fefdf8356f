#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""Write the list of names a set of public headers declares, as X-macros.

A developer tool, not run by the build: it produced upstream-verbs-44.def
and upstream-mlx5dv-44.def from Debian's rdma-core 44 headers:
  gen_upstream_list.py --newer upstream-verbs-post44.def /usr/include \
	infiniband/verbs.h infiniband/tm_types.h infiniband/verbs_api.h
  gen_upstream_list.py --newer upstream-mlx5dv-post44.def /usr/include \
	+infiniband/verbs.h infiniband/mlx5dv.h +infiniband/tm_types.h \
	infiniband/mlx5_api.h clang's JSON AST gives the
functions, enums, records and typedefs declared in the headers named on the
command line, `clang -E -dD` gives their macros, and a probe program built
against the same headers prints enum and macro values, member offsets and
sizes. upstream_names_test.c reads the list.

usage: gen_upstream_list.py [--newer LIST] INCLUDE_DIR HEADER... > list.def
  A HEADER written +infiniband/verbs.h is included but its names not listed.
  HEADER as included, e.g. infiniband/verbs.h: the declarations of every
  HEADER are listed. A struct whose UP_SIZE the --newer list gives (it grew
  after v44) gets no UP_SIZE line here.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

CC = "clang"
CLANG = "clang"


def run(cmd, **kw):
	res = subprocess.run(cmd, capture_output=True, text=True, **kw)
	return res.returncode, res.stdout, res.stderr


def walk_locs(node, state, out):
	"""Depth-first, tracking the file clang elides from repeated locs."""
	for key in ("loc", "range"):
		obj = node.get(key)
		if not obj:
			continue
		for loc in (obj, obj.get("begin"), obj.get("end"),
			    obj.get("spellingLoc"), obj.get("expansionLoc")):
			if isinstance(loc, dict) and "file" in loc:
				state["file"] = loc["file"]
	out.append((node, state["file"]))
	for child in node.get("inner", []):
		walk_locs(child, state, out)


def params_of(fn):
	args = [p["type"]["qualType"] for p in fn.get("inner", [])
		if p["kind"] == "ParmVarDecl"]
	if fn.get("variadic"):
		args.append("...")
	return "(" + (", ".join(args) if args else "void") + ")"


def ret_of(fn):
	qt = fn["type"]["qualType"]
	# "T (args)" or, for a function returning a function pointer,
	# "T (*(args))(args2)": only the first form appears in these headers.
	depth = 0
	for i, c in enumerate(qt):
		if c == "(" and depth == 0:
			return qt[:i].strip()
		depth += c == "("
		depth -= c == ")"
	sys.exit(f"cannot split {qt}")


def record_fields(rec, prefix, out):
	"""Named members reachable with offsetof() (members of anonymous
	structs and unions are IndirectFieldDecls of the outer record)."""
	for child in rec.get("inner", []):
		if child["kind"] not in ("FieldDecl", "IndirectFieldDecl"):
			continue
		if child.get("isBitfield") or not child.get("name"):
			continue
		flex = child.get("type", {}).get("qualType", "").endswith("[]")
		out.append((prefix + child["name"], flex))


def main():
	args = sys.argv[1:]
	grown = set()
	if args[0] == "--newer":
		with open(args[1]) as f:
			grown = set(re.findall(r"^UP_SIZE\(([^,]+),", f.read(), re.M))
		args = args[2:]
	inc = args[0]
	headers = [h.lstrip("+") for h in args[1:]]
	wanted = tuple("/" + h for h in args[1:] if not h.startswith("+"))
	tmp = tempfile.mkdtemp()
	probe = os.path.join(tmp, "p.c")
	with open(probe, "w") as f:
		for h in headers:
			f.write(f"#include <{h}>\n")
	rc, ast, err = run([CLANG, "-x", "c", "-fsyntax-only", f"-I{inc}", "-Xclang",
			    "-ast-dump=json", probe])
	if rc:
		sys.exit(err)
	nodes = []
	walk_locs(json.loads(ast), {"file": ""}, nodes)
	top = json.loads(ast)["inner"]
	top_ids = {n["id"] for n in top}
	funcs, enums, consts, records, typedefs = [], [], [], [], []
	seen = set()
	for node, fname in nodes:
		if not fname.endswith(wanted) or node.get("isImplicit"):
			continue
		kind = node["kind"]
		name = node.get("name")
		if kind == "FunctionDecl" and node["id"] in top_ids:
			if name in seen:
				continue
			seen.add(name)
			inline = node.get("storageClass") == "static"
			funcs.append((inline, ret_of(node), name, params_of(node)))
		elif kind == "EnumDecl" and node.get("inner"):
			if name:
				enums.append(f"enum {name}")
			for c in node["inner"]:
				if c["kind"] == "EnumConstantDecl":
					consts.append(c["name"])
		elif kind == "RecordDecl" and name and \
		     node.get("completeDefinition"):
			fields = []
			record_fields(node, "", fields)
			records.append((f"{node['tagUsed']} {name}", fields))
		elif kind == "TypedefDecl" and node["id"] in top_ids:
			typedefs.append(name)

	# Macros defined in the wanted headers (not include guards).
	rc, pp, err = run([CLANG, "-E", "-dD", f"-I{inc}", probe])
	macros = []
	cur = ""
	for line in pp.split("\n"):
		m = re.match(r'^# \d+ "([^"]*)"', line)
		if m:
			cur = m.group(1)
			continue
		m = re.match(r"^#define (\w+)(\(([^)]*)\))?\s*(.*)$", line)
		if not m or not cur.endswith(wanted):
			continue
		name, fargs, body = m.group(1), m.group(3), m.group(4)
		if fargs is None and re.search(r"_H_?$", name):
			continue
		if name.startswith("__") and fargs is None:
			continue
		macros.append((name, fargs, body))

	# A lowercase alias of a kernel enum or struct names a type.
	tags = {f"{n['tagUsed']} {n['name']}" for n, _ in nodes
		if n.get("kind") == "RecordDecl" and n.get("name")
		and "tagUsed" in n}
	tags |= {f"enum {n['name']}" for n, _ in nodes
		 if n.get("kind") == "EnumDecl" and n.get("name")}
	aliases = []
	for n, a, body in macros:
		for tag in ("enum", "struct", "union"):
			if a is None and f"{tag} {body}" in tags:
				aliases.append(f"{tag} {n}")
	alias_names = {t.split()[1] for t in aliases}
	fmacros = [(n, a) for n, a, _ in macros if a is not None]
	omacros = [n for n, a, _ in macros
		   if a is None and n not in alias_names]
	numeric = probe_numeric(inc, headers, consts + omacros, tmp)
	values = probe_values(inc, headers, numeric, records, tmp)

	out = sys.stdout
	out.write("/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */\n")
	out.write("/* Generated by gen_upstream_list.py from: " +
		  " ".join(headers) + " */\n")
	for inline, ret, name, params in funcs:
		kind = "UP_INLINE" if inline else "UP_FUNC"
		out.write(f"{kind}({ret}, {name}, {params})\n")
	for e in enums:
		out.write(f"UP_TYPE({e})\n")
	for t in aliases:
		out.write(f"UP_TYPE({t})\n")
	for t in typedefs:
		out.write(f"UP_TYPE({t})\n")
	for n in consts + omacros:
		if n in values:
			out.write(f"UP_VALUE({n}, {values[n]})\n")
		elif n not in consts:
			out.write(f"#ifndef {n}\nUP_NO_MACRO({n})\n#endif\n")
	for n, a in fmacros:
		out.write(f"#ifndef {n}\nUP_NO_MACRO({n})\n#endif\n")
	for rec, fields in records:
		if rec == "struct verbs_context":
			# It grows downwards: slots sit at fixed distances
			# below the struct ibv_context it ends with.
			base = int(values[(rec, "context")][0])
			for fld, _ in fields:
				off = int(values[(rec, fld)][0])
				if fld != "context":
					out.write(f"UP_SLOT({fld}, {base - off})\n")
			continue
		if rec not in grown:
			out.write(f"UP_SIZE({rec}, {values[rec]})\n")
		for fld, flex in fields:
			off, size = values[(rec, fld)]
			if flex:
				out.write(f"UP_FLEX({rec}, {fld}, {off})\n")
			else:
				out.write(f"UP_FIELD({rec}, {fld}, {off}, {size})\n")


def compile_probe(inc, headers, body, tmp):
	src = os.path.join(tmp, "v.c")
	exe = os.path.join(tmp, "v")
	with open(src, "w") as f:
		f.write("#include <stdio.h>\n#include <stddef.h>\n")
		for h in headers:
			f.write(f"#include <{h}>\n")
		f.write("int main(void)\n{\n")
		f.write(body)
		f.write("return 0;\n}\n")
	rc, _, err = run([CC, f"-I{inc}", "-w", "-o", exe, src])
	return rc, err, exe


def probe_numeric(inc, headers, names, tmp):
	"""Names usable as an integer constant expression."""
	good = list(names)
	while True:
		lines = [f'_Static_assert((long long)({n}) || 1, "");\n'
			 for n in good]
		rc, err, _ = compile_probe(inc, headers, "".join(lines), tmp)
		if rc == 0:
			return good
		bad = set()
		for m in re.finditer(r"v\.c:(\d+):", err):
			bad.add(int(m.group(1)) - 5 - len(headers))
		if not bad:
			sys.exit(err)
		good = [n for i, n in enumerate(good) if i not in bad]


def probe_values(inc, headers, numeric, records, tmp):
	lines, keys = [], []
	for n in numeric:
		lines.append(f'printf("%lld\\n", (long long)({n}));\n')
		keys.append(n)
	for rec, fields in records:
		lines.append(f'printf("%zu\\n", sizeof({rec}));\n')
		keys.append(rec)
		for fld, flex in fields:
			size = "0" if flex else f"sizeof(((({rec} *)0)->{fld}))"
			lines.append(f'printf("%zu %zu\\n", offsetof({rec}, {fld}),'
				     f' (size_t){size});\n')
			keys.append((rec, fld))
	rc, err, exe = compile_probe(inc, headers, "".join(lines), tmp)
	if rc:
		sys.exit(err)
	_, out, _ = run([exe])
	vals = {}
	for key, line in zip(keys, out.strip().split("\n")):
		parts = line.split()
		vals[key] = parts[0] if len(parts) == 1 else tuple(parts)
	return vals


if __name__ == "__main__":
	main()
