#!/usr/bin/python3
"""ci/mutate.py - mutation testing of the CPU sources (`make mutate`).

Mutants come from universalmutator (`mutate FILE c --noCheck`, installed
by the Makefile into a venv). Each mutant is one changed line of one source
file; it is built in a worker's private copy of the tree (swap the file,
recompile that object, relink only the suites that will run) and run
against the Check suites of its domain that execute the mutated line
(a gcov pass per suite finds them). Statuses:

  killed     a suite failed (or crashed) on the mutant
  timeout    a suite ran past its limit: counted as killed, as is usual
  survived   every suite that executes the line passed
  uncovered  no suite of the domain executes the line: survives unrun
             (it is compiled all the same, for the two statuses below)
  invalid    does not compile: counted apart, outside the score
  equivalent its object code is the unmutated one's (trivial compiler
             equivalence: the compiler proved it), or it is listed in
             ci/mutate-equivalent.txt with its reason: outside the score

Before any suite runs, a mutant's objects are compared with the unmutated
ones (debug sections and the compiler's comment stripped: -g records
columns, which a mutant shifts without changing a machine instruction).
A mutant whose objects are those of a mutant judged before (a duplicate)
takes that verdict without running; its record names the other in "dup".

score = (killed + timeout) / (killed + timeout + survived + uncovered).

Results go one line per mutant to BUILD/mutate/results.jsonl as soon as
they are known, so a run stopped anywhere resumes where it was. Survivors
are run again when the domain's tests have changed since.

Environment: MUTATE_JOBS (workers, default nproc), MUTATE_SAMPLE=N and
MUTATE_SEED=S (a seeded sample of N mutants of the selected files),
MUTATE_PER_FILE=N (instead: a seeded sample of N mutants of each file of
more than 100 lines, for per-file scores),
MUTATE_FILES (space or comma separated paths or globs), MUTATE_TIMEOUT
(least seconds a suite is given, default 20; each gets 5x its unmutated
time when that is more), MUTATE_NOCOV=1 (no gcov pass: every suite of the
domain runs), MUTATE_TCE=0 (no comparison of objects: every valid mutant
runs), MUTATE_REPORT (default report/mutation.html).
Usage: ci/mutate.py [--build DIR] [--venv DIR] [--report-only]
"""
import argparse
import fnmatch
import glob
import hashlib
import html
import json
import os
import queue
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

# ---- the one table: which files are mutated, which suites judge them -------
# A domain's suites are binaries under BUILD/tests. The zoo runs the wrong
# implementations of every domain against the oracles; test_api goes through
# the public checks.
DOMAINS = {
    "spmm": {
        "files": ["src/spmm/*.c", "oracles/spmm/*.c"],
        "suites": ["spmm/test_*", "cli/test_cli_spmm*", "api/test_api", "zoo/zoo"],
    },
    "mm": {
        "files": ["src/mm/*.c"],
        "suites": ["spmm/test_*", "cli/test_cli_spmm*", "api/test_api"],
    },
    "sa": {
        "files": ["src/sa/*.c", "src/sa/sa_sais_*.h", "oracles/sa/*.c"],
        "suites": ["sa/test_*", "api/test_api", "zoo/zoo"],
    },
    "pets": {
        "files": ["src/pets/*.c", "oracles/pets/*.c"],
        "suites": ["pets/test_*", "api/test_api", "zoo/zoo"],
    },
}
# Device-only suites: without the device they print SKIPPED, so they can
# neither kill nor protect a host mutant here.
SKIP_SUITES = {"spmm/test_spmm_cuda", "sa/test_cuda"}
# Tree parts a worker needs (its copy of the repository).
TREE = ["Makefile", "include", "src", "oracles", "tests", "ci", "fuzz", "examples"]
EQUIV_FILE = "ci/mutate-equivalent.txt"
KILLED = ("killed", "timeout")
SCORED = ("killed", "timeout", "survived", "uncovered")


def log(msg):
    print("mutate: " + msg, flush=True)


def sha1(data):
    return hashlib.sha1(data if isinstance(data, bytes) else data.encode()).hexdigest()


TCE_REASON = ("its object code is identical to the unmutated one's (trivial compiler "
              "equivalence)")


def object_digest(paths):
    """sha1 over the objects PATHS (in order), each copied without its debug
    sections and .comment; None when objcopy fails (then no mutant is taken
    for equivalent)."""
    h = hashlib.sha1()
    for p in paths:
        fd, tmp = tempfile.mkstemp(suffix=".o")
        os.close(fd)
        try:
            r = subprocess.run(["objcopy", "--strip-debug", "--remove-section=.comment", p, tmp],
                               capture_output=True)
            if r.returncode != 0:
                return None
            h.update(os.path.basename(p).encode() + b"\0")
            h.update(open(tmp, "rb").read())
        finally:
            os.unlink(tmp)
    return h.hexdigest()


def glob_match(path, pat):
    """fnmatch with glob's meaning: '*' does not cross a '/'."""
    return os.path.dirname(path) == os.path.dirname(pat) and \
        fnmatch.fnmatch(os.path.basename(path), os.path.basename(pat))


def file_domain(path):
    """Domain of a source path, or None when no pattern of the table names it."""
    for dom, d in DOMAINS.items():
        if any(glob_match(path, p) for p in d["files"]):
            return dom
    return None


def select_files(spec):
    """The table's files, restricted to MUTATE_FILES (paths or globs) when set."""
    files = sorted({f for d in DOMAINS.values() for p in d["files"] for f in glob.glob(p)})
    if not spec:
        return files
    pats = [p for p in spec.replace(",", " ").split() if p]
    chosen = [f for f in files if any(fnmatch.fnmatch(f, p) for p in pats)]
    unknown = [p for p in pats if not any(fnmatch.fnmatch(f, p) for f in files)]
    if unknown:
        sys.exit("mutate: MUTATE_FILES names no mutated file: %s (see DOMAINS in ci/mutate.py)"
                 % " ".join(unknown))
    return chosen


def domain_suites(build, dom):
    """Suite binaries of a domain, as paths relative to BUILD/tests."""
    out = []
    for pat in DOMAINS[dom]["suites"]:
        for p in sorted(glob.glob(os.path.join(build, "tests", pat))):
            rel = os.path.relpath(p, os.path.join(build, "tests"))
            if os.access(p, os.X_OK) and not p.endswith((".o", ".d")) and rel not in SKIP_SUITES:
                out.append(rel)
    return out


# ---- mutant generation ------------------------------------------------------
def line_change(orig, mut):
    """(first line 1-based, old lines, new lines) where mut differs from orig."""
    a, b = orig.splitlines(), mut.splitlines()
    i = 0
    while i < min(len(a), len(b)) and a[i] == b[i]:
        i += 1
    j = 0
    while j < min(len(a), len(b)) - i and a[len(a) - 1 - j] == b[len(b) - 1 - j]:
        j += 1
    return i + 1, a[i:len(a) - j], b[i:len(b) - j]


def generate(path, venv, cache_dir):
    """Mutants of one file, [{key, file, line, old, new}], cached by content."""
    src = open(path).read()
    cache = os.path.join(cache_dir, path.replace("/", "__") + ".json")
    h = sha1(src)
    if os.path.exists(cache):
        c = json.load(open(cache))
        if c.get("sha1") == h:
            return c["mutants"]
    tmp = cache + ".d"
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    local = os.path.join(tmp, os.path.basename(path))
    shutil.copy(path, local)
    r = subprocess.run([os.path.join(venv, "bin", "mutate"), os.path.basename(local), "--noCheck",
                        "--mutantDir", "."], cwd=tmp, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("mutate: universalmutator failed on %s:\n%s" % (path, r.stderr[-2000:]))
    out, seen = [], set()
    stem, ext = os.path.splitext(os.path.basename(path))
    for m in glob.glob(os.path.join(tmp, stem + ".mutant.*" + ext)):
        line, old, new = line_change(src, open(m).read())
        key = sha1("%s\0%d\0%s\0%s" % (path, line, "\n".join(old), "\n".join(new)))[:16]
        if key not in seen:
            seen.add(key)
            out.append({"key": key, "file": path, "line": line, "old": old, "new": new})
    shutil.rmtree(tmp)
    out.sort(key=lambda m: (m["line"], m["key"]))
    with open(cache, "w") as f:
        json.dump({"sha1": h, "mutants": out}, f)
    return out


def sample_per_file(muts, n, seed, nlines, min_lines=100):
    """A seeded stratified sample: n mutants (or all there are) of each file
    of more than min_lines lines, none of the shorter ones; independent of
    the order the mutants were generated in."""
    by_file = {}
    for m in sorted(muts, key=lambda m: m["key"]):
        by_file.setdefault(m["file"], []).append(m)
    out = []
    for f in sorted(by_file):
        if nlines.get(f, 0) <= min_lines:
            continue
        ms = by_file[f]
        rng = random.Random("%d:%s" % (seed, f))
        out.extend(ms if len(ms) <= n else rng.sample(ms, n))
    return out


def mutant_lines(m):
    """The lines whose execution a mutant changes: those it replaces; for a
    line inserted before line L, the lines L - 1 and L (an inserted `break;`
    ends the loop of the line above it, which runs whether or not L does)."""
    if not m["old"]:
        return [ln for ln in (m["line"] - 1, m["line"]) if ln >= 1]
    return list(range(m["line"], m["line"] + len(m["old"])))


def apply_mutant(src, m):
    lines = src.splitlines(keepends=True)
    i = m["line"] - 1
    new = "".join(s + "\n" for s in m["new"])
    return "".join(lines[:i]) + new + "".join(lines[i + len(m["old"]):])


# ---- the gcov pass: which suite executes which line ---------------------------
def tree_hash(paths):
    h = hashlib.sha1()
    for p in sorted(paths):
        h.update(p.encode())
        h.update(open(p, "rb").read())
    return h.hexdigest()


def kill_strays(tree):
    """Kills every process still running a program of the worker's build
    TREE (a directory). Check runs each test in a forked child with a
    process group of its own, so killing the suite's group leaves a looping
    test running on (an orphan of a timed-out mutant was found still
    spinning an hour later), and so does the CLI that a test of the CLI
    started (a `parcheck spmm check` of a mutant that timed out was found
    spinning 15 minutes later, the suite long killed)."""
    top = os.path.realpath(tree) + os.sep
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            if os.path.realpath("/proc/%s/exe" % pid).startswith(top):
                os.kill(int(pid), signal.SIGKILL)
        except OSError:
            pass


def run_suite(path, cwd, build, limit, env, strays=True):
    """Runs one suite binary; returns (status, seconds): pass, fail or timeout.
    With strays, every program of the build still running afterwards is
    killed (not where suites of one build run side by side)."""
    t0 = time.time()
    p = subprocess.Popen([path], cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         env=env, start_new_session=True)
    try:
        rc = p.wait(timeout=limit)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()
        return "timeout", time.time() - t0
    finally:
        try:
            os.killpg(p.pid, signal.SIGKILL)  # forked Check children left behind
        except ProcessLookupError:
            pass
        if strays:
            kill_strays(os.path.join(cwd, build))
    return ("pass" if rc == 0 else "fail"), time.time() - t0


# The shared test data (graphs, texts, matrices): the suites look for
# ../shared/data from where they run, which a worker's tree is not, so the
# absolute path of the repository's is passed on (PARCHECK_DATA wins).
def data_dir():
    d = os.environ.get("PARCHECK_DATA") or os.path.abspath(os.path.join("..", "shared", "data"))
    return d if os.path.isdir(d) else None


DATA_DIR = None


def suite_env(root, build):
    env = dict(os.environ)
    env["PARCHECK_BIN"] = os.path.join(root, build, "bin", "parcheck")
    env["OMPI_ALLOW_RUN_AS_ROOT"] = env["OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"] = "1"
    env.setdefault("OMP_NUM_THREADS", "2")
    if DATA_DIR:
        env["PARCHECK_DATA"] = DATA_DIR
    env["PARCHECK_HARNESS_NESTED"] = "1"
    return env


def side_by_side(items, fn, n):
    """fn(item) for every item, on n threads, in the order given."""
    pending, lock = list(items), threading.Lock()

    def loop():
        while True:
            with lock:
                if not pending:
                    return
                it = pending.pop(0)
            fn(it)
    ths = [threading.Thread(target=loop) for _ in range(max(1, min(n, len(pending))))]
    for t in ths:
        t.start()
    for t in ths:
        t.join()


def coverage_pass(files, work, state_hash):
    """{file: {"exec": [lines], "by": {line: [suites]}}} from a --coverage
    build, its suites run side by side (the longest first where an earlier
    run timed them); cached while sources and tests are the same."""
    cache = os.path.join(work, "coverage.json")
    if os.path.exists(cache):
        c = json.load(open(cache))
        if c.get("hash") == state_hash:
            return c["cov"]
    cov_build = os.path.join(work, "cov")
    log("gcov pass: building %s (once per change of sources or tests)" % cov_build)
    env = dict(os.environ, CFLAGS="-O0 -g --coverage -fprofile-update=atomic",
               EXTRA_LDFLAGS="--coverage")
    r = subprocess.run(["make", "--no-print-directory", "-j%d" % os.cpu_count(),
                        "BUILD=" + cov_build, "CUDA=0", "WERROR=", "all", "tests"],
                       capture_output=True, text=True, env=env)
    if r.returncode != 0:
        sys.exit("mutate: coverage build failed:\n" + r.stdout[-3000:] + r.stderr[-3000:])
    root = os.getcwd()
    cov = {f: {"exec": set(), "by": {}} for f in files}
    suites = sorted({s for f in files for s in domain_suites(cov_build, file_domain(f))})
    objs = {f: os.path.join(root, cov_build, "obj", os.path.splitext(f)[0]) for f in files}
    # The suites run side by side, each writing its counts under a prefix of
    # its own (GCOV_PREFIX: the .gcda goes to PREFIX/<absolute object path>),
    # beside a copy of the object's .gcno, where gcov reads them together.
    runs = os.path.join(root, work, "cov-runs")
    shutil.rmtree(runs, ignore_errors=True)
    lock = threading.Lock()
    try:
        secs = json.load(open(os.path.join(work, "baseline.json")))["secs"]
    except (OSError, ValueError, KeyError):
        secs = {}
    order = sorted(suites, key=lambda s: -secs.get(s, 0))

    def one(s):
        pre = os.path.join(runs, s.replace("/", "__"))
        env = dict(suite_env(root, cov_build), GCOV_PREFIX=pre, GCOV_PREFIX_STRIP="0")
        st, secs = run_suite(os.path.join(root, cov_build, "tests", s), root, cov_build, 1800, env,
                             strays=False)
        log("gcov pass: %-28s %s (%.1f s)" % (s, st, secs))
        gcdas = []
        for o in objs.values():
            g = pre + o + ".gcda"
            if os.path.exists(g) and os.path.exists(o + ".gcno"):
                shutil.copy(o + ".gcno", pre + o + ".gcno")
                gcdas.append(g)
        if not gcdas:
            return
        r = subprocess.run(["gcov", "--json-format", "--stdout"] + gcdas,
                           capture_output=True, text=True)
        for doc in r.stdout.splitlines():
            if not doc.strip():
                continue
            for fe in json.loads(doc).get("files", []):
                fn = os.path.relpath(os.path.join(fe.get("file", "")), root) \
                    if os.path.isabs(fe.get("file", "")) else fe.get("file", "")
                if fn not in cov:
                    continue
                dom = file_domain(fn)
                with lock:
                    for ln in fe.get("lines", []):
                        cov[fn]["exec"].add(ln["line_number"])
                        if ln["count"] > 0 and s in domain_suites(cov_build, dom):
                            cov[fn]["by"].setdefault(str(ln["line_number"]), set()).add(s)

    side_by_side(order, one, os.cpu_count())
    shutil.rmtree(runs, ignore_errors=True)
    out = {f: {"exec": sorted(v["exec"]), "by": {k: sorted(x) for k, x in v["by"].items()}}
           for f, v in cov.items()}
    with open(cache, "w") as f:
        json.dump({"hash": state_hash, "cov": out}, f)
    return out


# ---- workers ------------------------------------------------------------------
class Worker:
    """A private copy of the tree and its build, where one mutant at a time
    is swapped in, built and run."""

    def __init__(self, idx, work, build):
        self.dir = os.path.join(work, "w%d" % idx)
        self.build = "build"
        self.main_build = build

    def setup(self, baseline_needed):
        os.makedirs(self.dir, exist_ok=True)
        for t in TREE:
            dst = os.path.join(self.dir, t)
            if os.path.isdir(t):
                shutil.rmtree(dst, ignore_errors=True)
                shutil.copytree(t, dst, symlinks=True)
            elif os.path.exists(t):
                shutil.copy2(t, dst)
        # A run stopped mid-mutant may leave a mutant's object behind, and the
        # copy above gives its source back an older time: touch the sources
        # mutated since the last clean build so that make rebuilds them.
        dirty = os.path.join(self.dir, "mutated-files")
        if os.path.exists(dirty):
            for f in set(open(dirty).read().split()):
                if os.path.exists(os.path.join(self.dir, f)):
                    os.utime(os.path.join(self.dir, f))
        b = os.path.join(self.dir, self.build)
        if not os.path.isdir(b):
            # Objects of the main build, so that only what differs is rebuilt.
            os.makedirs(b)
            for part in ("obj", "pic", "lib", "bin", "gen", "tests"):
                src = os.path.join(self.main_build, part)
                if os.path.isdir(src):
                    subprocess.run(["cp", "-a", src, b + "/"], check=True)
        r = self.make(["all", "tests"], timeout=3600)
        if r.returncode != 0:
            sys.exit("mutate: the unmutated tree does not build in %s:\n%s"
                     % (self.dir, r.stdout[-3000:]))
        open(dirty, "w").close()

    def make(self, targets, timeout=600):
        # CUDA=0 as in the gcov pass: the mutated sources are host code, and
        # on a machine with nvcc each worker would build the device code too
        return subprocess.run(["make", "--no-print-directory", "-s", "BUILD=" + self.build,
                               "CUDA=0", "WERROR=", "MAN="] + targets, cwd=self.dir,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              timeout=timeout)

    def objects_of(self, f):
        """The objects (paths in the worker's tree) that source f compiles
        into: a .c file's own; for a header (sais's passes), every object
        whose dependency file names it."""
        if f.endswith(".c"):
            return [os.path.join(self.build, "obj", os.path.splitext(f)[0] + ".o")]
        out = []
        for d in sorted(glob.glob(os.path.join(self.dir, self.build, "obj", "**", "*.d"),
                                  recursive=True)):
            if f in open(d).read().split():
                out.append(os.path.relpath(d, self.dir)[:-2] + ".o")
        return out

    def digest(self, f):
        """object_digest of what source f compiles into, as built now."""
        objs = self.objects_of(f)
        return object_digest([os.path.join(self.dir, o) for o in objs]) if objs else None

    def suite_path(self, s):
        return os.path.abspath(os.path.join(self.dir, self.build, "tests", s))

    def run_mutant(self, m, suites, limits, ref=None, known=None):
        """(status, suite, digest) of mutant m judged by suites (in that
        order; none: uncovered once it compiles). ref: the digest of the
        unmutated objects (None: no comparison); known(digest): the record
        of a mutant judged before with those objects, or None."""
        path = os.path.join(self.dir, m["file"])
        orig = open(path).read()
        objs = self.objects_of(m["file"])
        with open(os.path.join(self.dir, "mutated-files"), "a") as f:
            f.write(m["file"] + "\n")
        try:
            with open(path, "w") as f:
                f.write(apply_mutant(orig, m))
            r = self.make(objs) if objs else None
            if r is not None and r.returncode != 0:
                return "invalid", None, None
            dig = None
            if ref is not None and objs:
                dig = object_digest([os.path.join(self.dir, o) for o in objs])
                if dig is not None and dig == ref:
                    return "equivalent", None, dig
                prior = known(dig) if dig is not None and known else None
                if prior is not None:
                    return prior["status"], prior.get("by"), dig
            if not suites:
                return "uncovered", None, dig
            r = self.make([os.path.join(self.build, "bin", "parcheck")] +
                          [os.path.join(self.build, "tests", s) for s in suites])
            if r.returncode != 0:
                return "invalid", None, dig
            env = suite_env(os.path.abspath(self.dir), self.build)
            for s in suites:
                st, _ = run_suite(self.suite_path(s), self.dir, self.build, limits[s], env)
                if st == "fail":
                    return "killed", s, dig
                if st == "timeout":
                    return "timeout", s, dig
            return "survived", None, dig
        finally:
            with open(path, "w") as f:
                f.write(orig)
            # Newer than the mutant's object, so that make rebuilds it.
            now = time.time()
            os.utime(path, (now, now + 1))


# ---- report --------------------------------------------------------------------
def load_equivalent():
    """{key: reason} from ci/mutate-equivalent.txt (KEY FILE:LINE REASON)."""
    eq = {}
    if os.path.exists(EQUIV_FILE):
        for ln in open(EQUIV_FILE):
            ln = ln.strip()
            if ln and not ln.startswith("#"):
                parts = ln.split(None, 2)
                eq[parts[0]] = parts[2] if len(parts) > 2 else "(no reason given)"
    return eq


def lapsed_entries(path, muts, files):
    """KEY FILE:LINE of the entries of the equivalent list, for the files
    mutated now, whose key is no mutant of that file any more."""
    have = {m["key"] for m in muts}
    out = []
    if os.path.exists(path):
        for ln in open(path):
            p = ln.split(None, 2)
            if len(p) >= 2 and not ln.startswith("#") and p[0] not in have and \
                    p[1].rsplit(":", 1)[0] in files:
                out.append("%s %s" % (p[0], p[1]))
    return out


def tally(recs):
    c = {k: 0 for k in ("killed", "timeout", "survived", "uncovered", "invalid", "equivalent")}
    for r in recs:
        c[r["status"]] += 1
    k = c["killed"] + c["timeout"]
    tot = sum(c[s] for s in SCORED)
    c["score"] = 100.0 * k / tot if tot else None
    c["k"], c["tot"] = k, tot
    return c


def pct(c):
    return "-" if c["score"] is None else "%.1f%%" % c["score"]


def write_report(recs, population, nlines, path, meta):
    files = sorted({r["file"] for r in recs})
    rows, frow = [], []
    for dom in DOMAINS:
        c = tally([r for r in recs if file_domain(r["file"]) == dom])
        if c["tot"] or c["invalid"] or c["equivalent"]:
            rows.append((dom, c))
    for f in files:
        c = tally([r for r in recs if r["file"] == f])
        flag = nlines[f] > 100 and c["score"] is not None and c["score"] < 85.0
        frow.append((f, c, flag))
    allc = tally(recs)
    e = html.escape
    out = ["<!DOCTYPE html><html><head><meta charset='utf-8'><title>parcheck mutation testing"
           "</title><style>body{font-family:sans-serif;margin:2em;max-width:70em}"
           "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 8px;"
           "text-align:right}td:first-child,th:first-child{text-align:left}"
           ".low{background:#fdd}pre{background:#f6f6f6;padding:4px;margin:2px 0 12px 0;"
           "overflow-x:auto}.del{color:#a00}.add{color:#070}</style></head><body>",
           "<h1>Mutation testing</h1>",
           "<p><b>mutation score: %s (%d/%d)</b> &mdash; killed %d, timed out %d (counted as "
           "killed), survived %d, not covered %d; outside the score: invalid (does not compile) "
           "%d, equivalent %d.</p>" % (pct(allc), allc["k"], allc["tot"], allc["killed"],
                                       allc["timeout"], allc["survived"], allc["uncovered"],
                                       allc["invalid"], allc["equivalent"]),
           "<p>%s</p>" % e(meta)]
    hdr = ("<tr><th>%s</th><th>lines</th><th>mutants (all)</th><th>run</th><th>killed</th>"
           "<th>timeout</th><th>survived</th><th>not covered</th><th>invalid</th>"
           "<th>equivalent</th><th>score</th></tr>")
    out.append("<h2>Per domain</h2><table>" + hdr % "domain")
    for dom, c in rows:
        fl = [f for f in population if file_domain(f) == dom]
        out.append("<tr><td>%s</td><td>%d</td><td>%d</td><td>%d</td><td>%d</td><td>%d</td>"
                   "<td>%d</td><td>%d</td><td>%d</td><td>%d</td><td>%s</td></tr>"
                   % (dom, sum(nlines[f] for f in fl), sum(population[f] for f in fl),
                      sum(c[s] for s in c if s in SCORED + ("invalid", "equivalent")),
                      c["killed"], c["timeout"], c["survived"], c["uncovered"], c["invalid"],
                      c["equivalent"], pct(c)))
    out.append("</table><h2>Per file</h2><p>Rows in red: a file of more than 100 lines "
               "under 85%.</p><table>" + hdr % "file")
    for f, c, flag in frow:
        out.append("<tr%s><td>%s</td><td>%d</td><td>%d</td><td>%d</td><td>%d</td><td>%d</td>"
                   "<td>%d</td><td>%d</td><td>%d</td><td>%d</td><td>%s</td></tr>"
                   % (" class='low'" if flag else "", e(f), nlines[f], population.get(f, 0),
                      sum(c[s] for s in SCORED + ("invalid", "equivalent")), c["killed"],
                      c["timeout"], c["survived"], c["uncovered"], c["invalid"],
                      c["equivalent"], pct(c)))
    out.append("</table>")
    for title, sts in (("Surviving mutants", ("survived", "uncovered")),
                       ("Equivalent mutants", ("equivalent",))):
        sel = [r for r in recs if r["status"] in sts]
        out.append("<h2>%s (%d)</h2>" % (title, len(sel)))
        for r in sorted(sel, key=lambda r: (r["file"], r["line"])):
            note = {"uncovered": "not covered: no suite of its domain executes the line",
                    "survived": "survived: suites run " + ", ".join(r.get("suites", []))
                    }.get(r["status"], "equivalent: " + r.get("reason", ""))
            diff = "\n".join(["<span class='del'>- %s</span>" % e(x) for x in r["old"]] +
                             ["<span class='add'>+ %s</span>" % e(x) for x in r["new"]])
            out.append("<div><code>%s:%d</code> <small>%s &mdash; %s</small><pre>%s</pre></div>"
                       % (e(r["file"]), r["line"], r["key"], e(note), diff))
    out.append("</body></html>")
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")
    return allc, rows, frow


# ---- main ----------------------------------------------------------------------------
def judge_all(workers, todo, judge):
    """Runs judge(worker, mutant) for every mutant of todo, one thread per
    worker taking mutants from a shared queue. Returns (key, what went
    wrong) for each mutant whose judging raised: such a mutant is left
    unjudged (no result line, so a later run takes it again) and the
    worker goes on with the next one. Before, the exception ended the
    worker's thread and the score was printed over the mutants judged
    without a word."""
    q = queue.Queue()
    for m in todo:
        q.put(m)
    errors = []
    lock = threading.Lock()

    def loop(w):
        while True:
            try:
                m = q.get_nowait()
            except queue.Empty:
                return
            try:
                judge(w, m)
            except Exception as e:  # reported by the caller, never swallowed
                with lock:
                    errors.append((m["key"], "%s:%s: %s: %s" % (m.get("file"), m.get("line"),
                                                                type(e).__name__, e)))

    # daemon threads: a stop (Ctrl-C, a time limit's SIGINT) ends the run at
    # once, losing only the mutants in flight, as the results say
    ths = [threading.Thread(target=loop, args=(w,), daemon=True) for w in workers]
    for t in ths:
        t.start()
    for t in ths:
        t.join()
    return errors


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--venv", default=None)
    ap.add_argument("--report-only", action="store_true",
                    help="write the report from the stored results, run nothing")
    a = ap.parse_args()
    build = a.build
    work = os.path.join(build, "mutate")
    venv = os.path.abspath(a.venv or os.path.join(build, "mutate-venv"))
    os.makedirs(os.path.join(work, "mutants"), exist_ok=True)
    jobs = int(os.environ.get("MUTATE_JOBS") or os.cpu_count())
    sample = int(os.environ.get("MUTATE_SAMPLE") or 0)
    seed = int(os.environ.get("MUTATE_SEED") or 1)
    tmin = float(os.environ.get("MUTATE_TIMEOUT") or 20)
    report = os.environ.get("MUTATE_REPORT") or "report/mutation.html"
    files = select_files(os.environ.get("MUTATE_FILES", ""))
    global DATA_DIR
    DATA_DIR = data_dir()
    if not DATA_DIR:
        log("no shared test data (../shared/data, PARCHECK_DATA): the suites that need it "
            "skip, so mutants only they would kill survive")
    t_start = time.time()

    muts, population, nlines = [], {}, {}
    for f in files:
        ms = generate(f, venv, os.path.join(work, "mutants"))
        population[f] = len(ms)
        nlines[f] = len(open(f).read().splitlines())
        muts.extend(ms)
    log("%d mutants of %d files (%s)" % (len(muts), len(files), ", ".join(
        "%s %d" % (d, sum(population[f] for f in files if file_domain(f) == d))
        for d in DOMAINS)))
    chosen = muts
    per_file = int(os.environ.get("MUTATE_PER_FILE") or 0)
    if per_file:
        chosen = sample_per_file(muts, per_file, seed, nlines)
        log("per-file sample: %d of each file over 100 lines, %d in all (MUTATE_SEED=%d)"
            % (per_file, len(chosen), seed))
    elif sample and sample < len(muts):
        chosen = random.Random(seed).sample(sorted(muts, key=lambda m: m["key"]), sample)
        log("seeded sample: %d of %d (MUTATE_SEED=%d)" % (sample, len(muts), seed))

    # Which tests a stored verdict was reached with, per domain: a survivor
    # is run again when they change; a kill stands.
    test_hash = {d: tree_hash(glob.glob("tests/**/*.[ch]", recursive=True)) for d in DOMAINS}
    src_hash = {f: sha1(open(f, "rb").read()) for f in files}
    results_path = os.path.join(work, "results.jsonl")
    eq = load_equivalent()
    lapsed = lapsed_entries(EQUIV_FILE, muts, files)
    if lapsed:
        log("%d entries of %s match no mutant of their file (the line moved or changed: "
            "look at the mutant anew and list it under its new key): %s"
            % (len(lapsed), EQUIV_FILE, ", ".join(lapsed)))
    done = {}
    if os.path.exists(results_path):
        for ln in open(results_path):
            try:
                r = json.loads(ln)
            except ValueError:
                continue  # a line cut by a stop
            if src_hash.get(r["file"]) != r.get("src"):
                continue
            if r["status"] in ("survived", "uncovered") and r["key"] not in eq and \
                    r.get("tests") != test_hash[file_domain(r["file"])]:
                continue  # a listed equivalent is not run again: no test can kill it
            done[r["key"]] = r
    todo = [m for m in chosen if m["key"] not in done]
    log("%d already judged (%s), %d to run" % (len(chosen) - len(todo), results_path, len(todo)))

    errors = []
    if todo and not a.report_only:
        # The plan takes the suites from the main build: without them every
        # mutant would count as not covered (make mutate builds them first).
        bare = sorted({file_domain(m["file"]) for m in todo} - {
            d for d in DOMAINS if domain_suites(build, d)})
        if bare:
            sys.exit("mutate: no suite of %s under %s/tests: run make tests first"
                     % (", ".join(bare), build))
        state = tree_hash([f for t in ("src", "oracles", "tests", "include")
                           for f in glob.glob(t + "/**/*.[ch]", recursive=True)] + ["Makefile"])
        if DATA_DIR:  # what the suites run on changes what they cover and take
            state = sha1(state + DATA_DIR)
        cov = None if os.environ.get("MUTATE_NOCOV") == "1" else coverage_pass(files, work, state)
        workers = [Worker(i, work, build) for i in range(max(1, min(jobs, len(todo))))]
        log("setting up %d worker tree(s) under %s" % (len(workers), work))
        ths = [threading.Thread(target=w.setup, args=(i == 0,)) for i, w in enumerate(workers)]
        for t in ths:
            t.start()
        for t in ths:
            t.join()
        # The unmutated objects' digests, before any mutant is swapped in.
        tce = os.environ.get("MUTATE_TCE") != "0"
        ref = {f: workers[0].digest(f) for f in sorted({m["file"] for m in todo})} if tce else {}
        by_digest = {}  # digest -> the record of a mutant judged with those objects
        for r in done.values():
            if r.get("obj") and r["status"] in ("killed", "timeout", "survived"):
                by_digest.setdefault(r["obj"], r)
        # Unmutated times on worker 0: each suite must pass there (or every
        # mutant would look killed) and sets its limit.
        base_path = os.path.join(work, "baseline.json")
        base = json.load(open(base_path)) if os.path.exists(base_path) else {}
        if base.get("hash") != state:
            base = {"hash": state, "secs": {}}
        w0 = workers[0]
        env = suite_env(os.path.abspath(w0.dir), w0.build)
        need = sorted({s for m in todo for s in domain_suites(build, file_domain(m["file"]))})
        failed = []

        def base_one(s):  # side by side, as the mutants will run
            st, secs = run_suite(w0.suite_path(s), w0.dir, w0.build, 1800, env, strays=False)
            log("baseline %-28s %s %.1f s" % (s, st, secs))
            with lock:
                if st != "pass":
                    failed.append(s)
                    return
                base["secs"][s] = secs
                with open(base_path, "w") as f:
                    json.dump(base, f)
        lock = threading.Lock()
        side_by_side([s for s in need if s not in base["secs"]], base_one, len(workers))
        kill_strays(os.path.join(w0.dir, w0.build))
        if failed:
            sys.exit("mutate: %s fails on the unmutated tree: fix that first" % ", ".join(failed))
        limits = {s: max(tmin, 5 * base["secs"][s]) for s in base["secs"]}

        counter = [0]
        resf = open(results_path, "a")

        def plan(m):
            dom = file_domain(m["file"])
            suites = domain_suites(build, dom)
            if cov is None:
                return suites
            fc = cov.get(m["file"], {"exec": [], "by": {}})
            lines = mutant_lines(m)
            by = set()
            for ln in lines:
                by |= set(fc["by"].get(str(ln), []))
            if by:
                return sorted((s for s in suites if s in by), key=lambda s: base["secs"][s])
            if any(ln in fc["exec"] for ln in lines):
                return []  # executable, executed by none: not covered
            # No line data (declarations, initialisers, macros): all suites.
            return sorted(suites, key=lambda s: base["secs"][s])

        def known(dig):
            with lock:
                return by_digest.get(dig)

        def judge(w, m):
            t0 = time.time()
            suites = plan(m)
            prior = []

            def known_here(dig):
                r = known(dig)
                # a survivor's verdict holds for the suites it ran
                if r is not None and r["status"] == "survived" and \
                        not set(suites) <= set(r.get("suites") or []):
                    r = None
                if r is not None:
                    prior.append(r)
                return r
            st, by, dig = w.run_mutant(m, suites, limits, ref.get(m["file"]) if tce else None,
                                       known_here)
            r = dict(m, status=st, by=by, suites=suites, secs=round(time.time() - t0, 2),
                     src=src_hash[m["file"]], tests=test_hash[file_domain(m["file"])], obj=dig)
            if st == "equivalent":
                r["reason"] = TCE_REASON
            if prior:
                r["dup"] = prior[0]["key"]
            with lock:
                resf.write(json.dumps(r) + "\n")
                resf.flush()
                done[m["key"]] = r
                if dig and st in ("killed", "timeout", "survived"):
                    by_digest.setdefault(dig, r)
                counter[0] += 1
                n = counter[0]
                if n % 10 == 0 or n == len(todo):
                    el = time.time() - t_start
                    log("%d/%d judged, %.0f s so far" % (n, len(todo), el))

        errors = judge_all(workers, todo, judge)
        resf.close()

    recs = []
    for m in chosen:
        r = done.get(m["key"])
        if r is None:
            continue
        r = dict(r)
        if r["key"] in eq and r["status"] in ("survived", "uncovered"):
            r["status"], r["reason"] = "equivalent", eq[r["key"]]
        elif r.get("dup") in eq and r["status"] == "survived":
            # the same object code as a mutant listed as equivalent
            r["status"], r["reason"] = "equivalent", "object code identical to mutant %s's: %s" % (
                r["dup"], eq[r["dup"]])
        recs.append(r)
    judged = [r for r in recs if r["status"] != "invalid"]
    secs = [r["secs"] for r in recs if r.get("secs")]
    per = sum(secs) / len(secs) if secs else 0.0
    meta = ("%d of %d mutants judged%s; %.1f s per mutant on average (one worker), so the "
            "whole population would take about %.1f h on %d worker(s). Files: %s."
            % (len(recs), len(muts), " (seeded sample, MUTATE_SEED=%d)" % seed if sample else "",
               per, per * len(muts) / 3600.0 / max(1, jobs), jobs, len(files)))
    allc, rows, frow = write_report(recs, population, nlines, report, meta)
    for dom, c in rows:
        log("  %-5s %6s (%d/%d)" % (dom, pct(c), c["k"], c["tot"]))
    for f, c, flag in frow:
        if c["tot"]:
            log("  %-36s %6s (%d/%d)%s" % (f, pct(c), c["k"], c["tot"],
                                          "  < 85%% in a file of %d lines" % nlines[f]
                                          if flag else ""))
    log("invalid (do not compile, outside the score): %d; equivalent: %d (%d by their object "
        "code); timeouts counted as killed: %d; verdicts taken from a mutant of identical "
        "object code: %d" % (allc["invalid"], allc["equivalent"],
                             sum(r.get("reason") == TCE_REASON for r in recs), allc["timeout"],
                             sum(1 for r in recs if r.get("dup"))))
    log(meta)
    log("report: %s (%d survivors listed)" % (report, allc["survived"] + allc["uncovered"]))
    print("mutation score: %s (%d/%d)" % (pct(allc), allc["k"], allc["tot"]))
    del judged
    if errors:
        for key, what in errors:
            log("not judged: mutant %s, %s" % (key, what))
        log("%d mutant(s) could not be judged (above): the score covers the others only; "
            "run again to judge them" % len(errors))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
