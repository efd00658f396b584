#!/usr/bin/env python3
"""memreport.py CASES REPORT_DIR - peak vs model for every memreport case.

For each case of CASES (see ci/memreport.cases) reads
REPORT_DIR/memory/<case>.massif (massif, every snapshot detailed) and
<case>.json (the --json output of the run). The attributed bytes of a
snapshot are those allocated below any of the case's `attribute` functions
in the snapshot's heap tree; the peak is their maximum over the snapshots
("*": the heap total). A line fails when peak > model * 1.1 + 1 MiB.
Writes REPORT_DIR/memory.txt and REPORT_DIR/memory.html; exit status 1 when
a line fails or cannot be evaluated."""
import html
import json
import os
import re
import sys

MIB = 1 << 20
NODE = re.compile(r"^( *)n(\d+): (\d+) (.*)$")
FN = re.compile(r"^0x[0-9A-Fa-f]+: (\S+)")


def parse_massif(path):
    """Yields (heap_bytes, tree) per snapshot; tree = (bytes, fn, children)."""
    snaps, cur, stack = [], None, []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("snapshot="):
                cur = {"heap": 0, "tree": None}
                snaps.append(cur)
                stack = []
            elif cur is None:
                continue
            elif line.startswith("mem_heap_B="):
                cur["heap"] = int(line.split("=", 1)[1])
            else:
                m = NODE.match(line)
                if not m:
                    continue
                depth = len(m.group(1))
                fm = FN.match(m.group(4))
                node = (int(m.group(3)), fm.group(1) if fm else None, [])
                del stack[depth:]
                if stack:
                    stack[-1][2].append(node)
                else:
                    cur["tree"] = node
                stack.append(node)
    return snaps


def excluded(node, excl):
    """Bytes of node's subtree allocated with an excluded function on the stack."""
    size, fn, kids = node
    if fn in excl:
        return size
    return sum(excluded(k, excl) for k in kids)


def attributed(node, names, excl=frozenset()):
    """Bytes below any function of names whose stack holds none of excl.
    The massif tree runs from the allocation function towards main, so an
    excluded function may sit on either side of the attributed one."""
    size, fn, kids = node
    if fn in excl:
        return 0
    if fn in names:
        return size - sum(excluded(k, excl) for k in kids)
    return sum(attributed(k, names, excl) for k in kids)


def fmt_mib(b):
    return "%.2f" % (b / MIB)


def load_cases(path):
    cases = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            parts = [p.strip() for p in line.split(" | ")]
            if len(parts) not in (6, 7, 8):
                raise SystemExit("%s: bad line (6 to 8 fields separated by ' | '): %s"
                                 % (path, line))
            cases.append(dict(zip(("name", "input", "gen", "run", "attr", "model", "massif",
                                   "warm"), parts)))
    return cases


def evaluate(case, rep):
    row = {"case": case["name"], "peak": None, "heap": None, "model": None, "ok": False,
           "note": ""}
    base = os.path.join(rep, "memory", case["name"])
    try:
        snaps = parse_massif(base + ".massif")
    except OSError as e:
        row["note"] = "no massif output (%s)" % e.strerror
        return row
    attrs = [a.strip() for a in case["attr"].split(",") if a.strip()]
    names = set(a for a in attrs if not a.startswith("-"))
    excl = frozenset(a[1:] for a in attrs if a.startswith("-"))
    row["heap"] = max((s["heap"] for s in snaps), default=0)
    if "*" in names:
        row["peak"] = row["heap"]
    else:
        row["peak"] = max((attributed(s["tree"], names, excl) for s in snaps if s["tree"]),
                          default=0)
    try:
        with open(base + ".json", encoding="utf-8") as f:
            js = json.load(f)
        results = js.get("results") or [{}]
        r = results[0]
        i = js.get("input", {})
        inp = os.path.join(os.environ.get("PC_INPUTS", os.path.join(rep, "inputs")), case["input"])
        n = os.path.getsize(inp) if os.path.exists(inp) else 0
        row["model"] = int(eval(case["model"], {"__builtins__": {}},
                                {"r": r, "i": i, "n": n, "json": js, "min": min, "max": max}))
        if r.get("status") not in (None, "pass"):
            row["note"] = "run status %s: %s" % (r.get("status"), r.get("reason", ""))
    except Exception as e:  # a line that cannot be evaluated fails
        row["note"] = "model not evaluated: %s" % e
        return row
    limit = row["model"] * 1.1 + MIB
    row["limit"] = limit
    row["ok"] = row["peak"] <= limit and not row["note"]
    return row


def main():
    cases_path, rep = sys.argv[1], sys.argv[2]
    rows = [evaluate(c, rep) for c in load_cases(cases_path)]
    head = "%-20s %12s %12s %8s %14s  %s" % ("case", "peak MiB", "model MiB", "ratio",
                                            "process MiB", "verdict")
    lines = [head, "-" * len(head)]
    for r in rows:
        ratio = "%.3f" % (r["peak"] / r["model"]) if r["peak"] is not None and r["model"] else "-"
        lines.append("%-20s %12s %12s %8s %14s  %s%s" % (
            r["case"], fmt_mib(r["peak"]) if r["peak"] is not None else "-",
            fmt_mib(r["model"]) if r["model"] is not None else "-", ratio,
            fmt_mib(r["heap"]) if r["heap"] is not None else "-",
            "PASS" if r["ok"] else "FAIL", (" (" + r["note"] + ")") if r["note"] else ""))
    lines.append("")
    lines.append("peak: heap bytes attributed to the case (massif, every snapshot); "
                 "a line fails when peak > model x 1.1 + 1 MiB;")
    lines.append("process: the whole process's heap peak. ms_print output: "
                 "report/memory/<case>.txt")
    text = "\n".join(lines) + "\n"
    with open(os.path.join(rep, "memory.txt"), "w", encoding="utf-8") as f:
        f.write(text)
    sys.stdout.write(text)
    trs = []
    for r in rows:
        cells = [html.escape(r["case"]),
                 fmt_mib(r["peak"]) if r["peak"] is not None else "-",
                 fmt_mib(r["model"]) if r["model"] is not None else "-",
                 "%.3f" % (r["peak"] / r["model"]) if r["peak"] is not None and r["model"] else "-",
                 fmt_mib(r["heap"]) if r["heap"] is not None else "-"]
        verdict = "PASS" if r["ok"] else "FAIL"
        trs.append("<tr class=\"%s\">%s<td>%s</td><td>%s</td><td><a href=\"memory/%s.txt\">"
                   "ms_print</a></td></tr>" % (
                       verdict.lower(), "".join("<td>%s</td>" % c for c in cells), verdict,
                       html.escape(r["note"]), html.escape(r["case"])))
    page = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>parcheck memory report</title>
<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}
td,th{border:1px solid #999;padding:4px 8px;text-align:right}td:first-child{text-align:left}
tr.pass td:nth-child(6){color:#070}tr.fail td:nth-child(6){color:#b00;font-weight:bold}</style>
</head><body><h1>Memory: massif peak vs model</h1>
<p>Peak = heap bytes attributed to the case (valgrind massif, --time-unit=B
--peak-inaccuracy=0.0, every snapshot detailed). A line fails when
peak &gt; model &times; 1.1 + 1 MiB. Models: docs/README-harness.md.</p>
<table><tr><th>case</th><th>peak MiB</th><th>model MiB</th><th>peak/model</th>
<th>process heap MiB</th><th>verdict</th><th>note</th><th>detail</th></tr>
%s
</table></body></html>
""" % "\n".join(trs)
    with open(os.path.join(rep, "memory.html"), "w", encoding="utf-8") as f:
        f.write(page)
    return 0 if rows and all(r["ok"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
