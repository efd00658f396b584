#!/usr/bin/python3
"""ci/mutate_selftest.py - the bookkeeping of ci/mutate.py, without building
anything (under a second): mutant diffs round-trip, the file -> domain table,
the score (timeouts killed, invalid and equivalent outside it), the
equivalent list, resumption and the seeded sample, the report.
Prints one line per check and the SUMMARY line of ci/run-tests.sh."""
import importlib.util
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("mutate", os.path.join(HERE, "mutate.py"))
mu = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mu)
passed = failed = 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print("ok   " + name)
    else:
        failed += 1
        print("FAIL " + name + (": " + detail if detail else ""))


os.chdir(os.path.dirname(HERE))
src = "int f(int a)\n{\n    if (a < 3)\n        return a + 1;\n    return a;\n}\n"
for new in (["    if (a <= 3)"], ["    if (a < 3)", "        return 0;"], []):
    m = {"line": 3, "old": ["    if (a < 3)"], "new": new}
    mut = mu.apply_mutant(src, m)
    line, old, got = mu.line_change(src, mut)
    check("round trip of a %d-line replacement" % len(new),
          mu.apply_mutant(src, {"line": line, "old": old, "new": got}) == mut and mut != src,
          repr((line, old, got)))

check("an inserted line is run where the line above it or below it is",
      mu.mutant_lines({"line": 105, "old": [], "new": ["    break;"]}) == [104, 105]
      and mu.mutant_lines({"line": 1, "old": [], "new": ["x"]}) == [1]
      and mu.mutant_lines({"line": 7, "old": ["a", "b"], "new": ["c"]}) == [7, 8])
check("domains of the table", [mu.file_domain(f) for f in (
    "src/spmm/spmm_kernels.c", "oracles/spmm/spmm_check.c", "src/mm/mm_read.c",
    "src/sa/sa_omp.c", "oracles/pets/pets_check.c", "src/cli/main.c", "src/spmm/cuda/x.c")]
      == ["spmm", "spmm", "mm", "sa", "pets", None, None])
check("MUTATE_FILES restricts by glob",
      mu.select_files("src/mm/mm_*.c") == sorted(f for f in mu.select_files("")
                                                 if f.startswith("src/mm/")))

recs = [{"status": s} for s in ("killed", "killed", "timeout", "survived", "uncovered",
                                "invalid", "invalid", "equivalent")]
c = mu.tally(recs)
check("score: timeouts killed, invalid and equivalent outside",
      (c["k"], c["tot"], round(c["score"], 1)) == (3, 5, 60.0), repr(c))

muts = [{"key": "%016x" % i} for i in range(500)]
s1 = random.Random(7).sample(sorted(muts, key=lambda m: m["key"]), 20)
s2 = random.Random(7).sample(sorted(reversed(muts), key=lambda m: m["key"]), 20)
check("a seeded sample does not depend on generation order", s1 == s2)
pm = [{"key": "%04d" % i, "file": f} for i, f in enumerate(["a.c"] * 30 + ["b.c"] * 3 + ["c.c"] * 9)]
pf1 = mu.sample_per_file(pm, 5, 7, {"a.c": 300, "b.c": 150, "c.c": 90})
pf2 = mu.sample_per_file(list(reversed(pm)), 5, 7, {"a.c": 300, "b.c": 150, "c.c": 90})
check("per-file sample: n of each long file, all of a small population, no short file",
      pf1 == pf2 and [m["file"] for m in pf1].count("a.c") == 5 and
      [m["file"] for m in pf1].count("b.c") == 3 and "c.c" not in [m["file"] for m in pf1],
      repr([m["file"] for m in pf1]))

with tempfile.TemporaryDirectory() as tmp:
    eq = os.path.join(tmp, "eq.txt")
    with open(eq, "w") as f:
        f.write("# comment\n\nabc src/sa/sa_lcp.c:12 the value is never read again\n")
    old, mu.EQUIV_FILE = mu.EQUIV_FILE, eq
    check("equivalent list parsed", mu.load_equivalent() ==
          {"abc": "the value is never read again"})
    check("an entry whose key is no mutant of its file is reported as lapsed",
          mu.lapsed_entries(eq, [{"key": "zzz"}], ["src/sa/sa_lcp.c"]) == ["abc src/sa/sa_lcp.c:12"]
          and mu.lapsed_entries(eq, [{"key": "abc"}], ["src/sa/sa_lcp.c"]) == []
          and mu.lapsed_entries(eq, [], ["src/mm/mm_read.c"]) == [])
    mu.EQUIV_FILE = old
    rs = [dict(key="k%d" % i, file="src/sa/sa_lcp.c", line=10 + i, old=["a < b"],
               new=["a <= b"], status=s, suites=["sa/test_property"])
          for i, s in enumerate(("killed", "survived", "equivalent", "invalid"))]
    rs[2]["reason"] = "never read"
    rep = os.path.join(tmp, "m.html")
    allc, _, frow = mu.write_report(rs, {"src/sa/sa_lcp.c": 796}, {"src/sa/sa_lcp.c": 150},
                                    rep, "meta")
    text = open(rep).read()
    check("report: score, survivor diff, equivalent reason, flag under 85%",
          "50.0% (1/2)" in text and "a &lt;= b" in text and "never read" in text
          and frow[0][2] is True, repr(allc))
    res = os.path.join(tmp, "results.jsonl")
    with open(res, "w") as f:
        f.write(json.dumps(rs[0]) + "\n" + '{"key": "cut')
    kept = []
    for ln in open(res):
        try:
            kept.append(json.loads(ln))
        except ValueError:
            pass
    check("a results line cut by a stop is skipped", len(kept) == 1)

# Trivial compiler equivalence: objects compared without debug sections.
with tempfile.TemporaryDirectory() as tmp:
    body = {"orig": "int f(int a)\n{\n    return a < 3 ? a + 1 : a;\n}\n",
            "spaced": "int f(int a)\n{\n    return   a < 3 ? a + 1 : a;\n}\n",  # columns only
            "same": "int f(int a)\n{\n    return a <= 2 ? a + 1 : a;\n}\n",  # same code
            "other": "int f(int a)\n{\n    return a <= 3 ? a + 1 : a;\n}\n"}
    dig = {}
    for k, v in body.items():
        with open(os.path.join(tmp, "x.c"), "w") as f:
            f.write(v)
        o = os.path.join(tmp, k + ".o")
        subprocess.run(["gcc", "-O2", "-g", "-c", os.path.join(tmp, "x.c"), "-o", o], check=True)
        os.rename(o, os.path.join(tmp, "x.o"))
        dig[k] = mu.object_digest([os.path.join(tmp, "x.o")])
    check("object digests: columns and an equivalent change keep it, a real change does not",
          dig["orig"] == dig["spaced"] == dig["same"] != dig["other"] and None not in dig.values(),
          repr(dig))
    w = mu.Worker(0, tmp, "build")
    os.makedirs(os.path.join(w.dir, "build", "obj", "src", "sa"))
    with open(os.path.join(w.dir, "build", "obj", "src", "sa", "sa_sais.d"), "w") as f:
        f.write("build/obj/src/sa/sa_sais.o: src/sa/sa_sais.c src/sa/sa_sais_hash.h \\\n"
                " src/sa/sa.h\nsrc/sa/sa_sais_hash.h:\n")
    check("a header's objects are those whose dependency file names it",
          w.objects_of("src/sa/sa_sais_hash.h") == ["build/obj/src/sa/sa_sais.o"]
          and w.objects_of("src/sa/sa_sais_level.h") == []
          and w.objects_of("src/mm/mm_read.c") == ["build/obj/src/mm/mm_read.o"])

# A program of a worker's build left running (a CLI that a test started)
# is killed; one outside that build is not.
with tempfile.TemporaryDirectory() as tmp:
    os.makedirs(os.path.join(tmp, "build", "bin"))
    sl = os.path.join(tmp, "build", "bin", "sleep")
    shutil.copy("/bin/sleep", sl)
    inside = subprocess.Popen([sl, "30"], start_new_session=True)
    outside = subprocess.Popen(["sleep", "30"], start_new_session=True)
    mu.kill_strays(os.path.join(tmp, "build"))
    try:
        rc_in = inside.wait(timeout=5)
    except subprocess.TimeoutExpired:
        rc_in = None
        inside.kill()
    alive = outside.poll() is None
    outside.kill()
    outside.wait()
    check("a stray program of the worker's build is killed, others are not",
          rc_in == -9 and alive, repr((rc_in, alive)))

judged = []


def fake_judge(w, m):
    if m["key"] == "k7":
        raise KeyError("limit of a suite")  # what a relinked build once caused
    judged.append((w, m["key"]))


todo = [{"key": "k%d" % i, "file": "src/x.c", "line": i} for i in range(20)]
errs = mu.judge_all(["w0", "w1", "w2"], todo, fake_judge)
check("a mutant whose judging raises is reported, the others judged",
      [e[0] for e in errs] == ["k7"] and "src/x.c:7: KeyError" in errs[0][1]
      and sorted(k for _, k in judged) == sorted("k%d" % i for i in range(20) if i != 7),
      repr(errs))

seen, lock, busy = [], threading.Lock(), [0, 0]


def one_item(i):
    with lock:
        busy[0] += 1
        busy[1] = max(busy[1], busy[0])
    time.sleep(0.01)
    with lock:
        seen.append(i)
        busy[0] -= 1


mu.side_by_side(range(40), one_item, 4)
check("side_by_side runs every item once, several at a time",
      sorted(seen) == list(range(40)) and busy[1] > 1, repr((len(seen), busy[1])))

# The gcov pass's mechanism: a program run with GCOV_PREFIX writes its
# counts under the prefix (at the object's absolute path), and gcov reads
# them there beside a copy of the .gcno.
if shutil.which("gcc") and shutil.which("gcov"):
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "t.c")
        open(src, "w").write("int main(void)\n{\n    return 0;\n}\n")
        obj = os.path.join(tmp, "t.o")
        subprocess.run(["gcc", "-O0", "--coverage", "-c", src, "-o", obj], check=True)
        subprocess.run(["gcc", "--coverage", obj, "-o", os.path.join(tmp, "t")], check=True)
        pre = os.path.join(tmp, "run1")
        subprocess.run([os.path.join(tmp, "t")], check=True,
                       env=dict(os.environ, GCOV_PREFIX=pre, GCOV_PREFIX_STRIP="0"))
        gcda = pre + os.path.join(tmp, "t.gcda")
        ok = os.path.exists(gcda) and not os.path.exists(os.path.join(tmp, "t.gcda"))
        count = -1
        if ok:
            shutil.copy(os.path.join(tmp, "t.gcno"), pre + os.path.join(tmp, "t.gcno"))
            r = subprocess.run(["gcov", "--json-format", "--stdout", gcda], capture_output=True,
                               text=True)
            for doc in r.stdout.splitlines():
                for fe in json.loads(doc).get("files", []) if doc.strip() else []:
                    for ln in fe.get("lines", []):
                        if ln["line_number"] == 3:
                            count = ln["count"]
        check("counts written under GCOV_PREFIX are read back by gcov", ok and count == 1,
              repr((ok, count)))

print("SUMMARY passed=%d failed=%d skipped=0" % (passed, failed))
sys.exit(1 if failed else 0)
