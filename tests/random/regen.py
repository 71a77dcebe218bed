#!/usr/bin/env python3
"""Regenerate the fixtures of the randomized differential tests with ns-2.

    python3 tests/random/regen.py                 every seed of seeds.txt
    python3 tests/random/regen.py 17 42           only these seeds (must be in seeds.txt)
    python3 tests/random/regen.py --pick 40 --range 0:1000
                                                  choose new seeds, write seeds.txt, regenerate
    python3 tests/random/regen.py --add 10 --range 2000:3000 --ext-only --budget 2.5
                                                  append 10 seeds with RED/ECN/error models
    NS=/path/to/ns python3 tests/random/regen.py  another ns binary (default /usr/bin/ns)

For every seed: generate the script with gen.py, run `ns script.tcl` twice
in fresh empty directories, check that both runs agree byte for byte
(stdout, exit code, every file written), then replace fixtures/<seed>/ with

    stdout          ns-2's stdout
    exit_code       its exit status and a newline
    script.sha256   sha256 of the generated script (the test checks that
                    gen.py still produces the script the fixture was made from)
    <name>.gz       every file the script wrote (except .nam), gzip level 9,
                    mtime 0, no file name: byte-stable

A full run (no seed arguments) also removes fixture directories of seeds
that are no longer listed.

--pick N chooses N seeds from --range A:B greedily so that together they
cover as many scenario features as possible (topologies, TCP flavours,
sinks, connection styles, trace modes, variable traces, monitors, costs,
simplex links, callbacks, RNG use, ...) while the compressed fixtures stay
under --budget MB (default 6), and rewrites seeds.txt.  --add N instead
keeps the listed seeds (their features count as covered), appends N more
and regenerates only those; --ext-only limits the candidates to seeds with
RED queues, ECN or error models.  --renote rewrites the notes of
seeds.txt from the current generator.

Standard library only.  Exits non-zero if any seed failed.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import gzip
import hashlib
import io
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import gen  # noqa: E402

FIXTURES = os.path.join(HERE, "fixtures")
SEEDS = os.path.join(HERE, "seeds.txt")
SCRIPT = "script.tcl"
TIMEOUT = 600


class SeedError(Exception):
    pass


def gzip_bytes(data: bytes) -> bytes:
    buf = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buf, compresslevel=9, mtime=0) as g:
        g.write(data)
    return buf.getvalue()


def read_seeds(path=SEEDS):
    seeds = []
    with open(path) as f:
        for line in f:
            line = line.split("#")[0].strip()
            if line:
                gen.parse_entry(line)       # "N", "dN" (--dynamics), "tN" (--traffic), else ValueError
                seeds.append(line)
    return seeds


def run_ns(ns, text):
    with tempfile.TemporaryDirectory(prefix="dbregen-") as tmp:
        with open(os.path.join(tmp, SCRIPT), "w", newline="\n") as f:
            f.write(text)
        t0 = time.monotonic()
        p = subprocess.run([ns, SCRIPT], cwd=tmp, stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=TIMEOUT)
        secs = time.monotonic() - t0
        files = {}
        for name in sorted(os.listdir(tmp)):
            if name == SCRIPT or name.endswith(".nam"):
                continue
            with open(os.path.join(tmp, name), "rb") as f:
                files[name] = f.read()
    return secs, p.returncode, p.stdout, p.stderr, files


def first_diff(a: bytes, b: bytes) -> str:
    la, lb = a.split(b"\n"), b.split(b"\n")
    for i, (x, y) in enumerate(zip(la, lb)):
        if x != y:
            return "line %d: %r vs %r" % (i + 1, x[:200], y[:200])
    return "lengths differ: %d vs %d lines" % (len(la), len(lb))


def regen_seed(ns, seed):
    text = gen.entry_build(seed)[0]
    secs, rc, out, err, files = run_ns(ns, text)
    _, rc2, out2, _, files2 = run_ns(ns, text)
    if rc != 0:
        raise SeedError("ns-2 exit code %d: %s" % (rc, err.decode(errors="replace")[-500:]))
    if rc2 != rc:
        raise SeedError("NONDETERMINISTIC exit code %d vs %d" % (rc, rc2))
    if out != out2:
        raise SeedError("NONDETERMINISTIC stdout, " + first_diff(out, out2))
    if sorted(files) != sorted(files2):
        raise SeedError("NONDETERMINISTIC file set %s vs %s" % (sorted(files), sorted(files2)))
    for name in files:
        if files[name] != files2[name]:
            raise SeedError("NONDETERMINISTIC %s, %s" % (name, first_diff(files[name], files2[name])))
    dest = os.path.join(FIXTURES, str(seed))
    if os.path.isdir(dest):
        shutil.rmtree(dest)
    os.makedirs(dest)
    with open(os.path.join(dest, "stdout"), "wb") as f:
        f.write(out)
    with open(os.path.join(dest, "exit_code"), "w") as f:
        f.write("%d\n" % rc)
    with open(os.path.join(dest, "script.sha256"), "w") as f:
        f.write(hashlib.sha256(text.encode()).hexdigest() + "\n")
    stored = []
    for name, data in files.items():
        gz = gzip_bytes(data)
        with open(os.path.join(dest, name + ".gz"), "wb") as f:
            f.write(gz)
        stored.append((name, len(data), len(gz)))
    return secs, stored


def dir_size(path):
    total = 0
    for root, _, names in os.walk(path):
        total += sum(os.path.getsize(os.path.join(root, n)) for n in names)
    return total


def human(n):
    for unit in ("B", "K", "M"):
        if n < 1024 or unit == "M":
            return ("%d%s" % (n, unit)) if unit == "B" else ("%.1f%s" % (n, unit))
        n /= 1024.0


# ---- choosing seeds ------------------------------------------------------------------

def features(m):
    """The set of feature tokens a scenario covers (for --pick)."""
    f = {"topo:" + m["topology"], "trace:" + m["trace"], "gran:" + m["granularity"]}
    f |= {"flavour:" + x for x in m["flavours"]}
    f |= {"sink:" + x for x in m["sinks"]}
    f |= {"conn:" + x for x in m["conn"]}
    f |= {"app:" + x for x in m["appmodes"]}
    f |= {"cb:" + x for x in m["callbacks"]}
    f |= {"change:" + x for x in m["changes"]}
    if m["knobs"]:
        f.add("knobs")
    f |= {"queue:" + x for x in m["queue_knobs"]}
    f |= {"tfrc:" + x for x in m.get("tfrc", [])}
    f |= {"fairq:" + x for x in m.get("queues", [])}
    f |= {"aqm:" + x for x in m.get("aqm", [])}
    f |= {"diffserv:" + x for x in m.get("diffserv", [])}
    f |= {"lan:" + x for x in m.get("lan", [])}
    f |= {"full:" + x for x in m.get("full", [])}
    f |= {"qs:" + x for x in m.get("qs", [])}
    f |= {"fack:" + x for x in m.get("fack", [])}
    for kw in gen.NEW_MODES.values():
        f |= {kw + ":" + x for x in m.get(kw, [])}
    for k in ("simplex", "one_way_ring", "costs", "late_traceall", "trace_queue", "vartrace", "qmon",
              "monitor_queue", "overhead", "class_settings", "mid_class", "subclass_settings",
              "midwin", "halt", "delack_interval", "show_tcphdr"):
        if m[k]:
            f.add(k)
    n = m["nodes"]
    f.add("nodes:" + ("2-3" if n <= 3 else "4-8" if n <= 8 else "9-14" if n <= 14 else "15-20"))
    k = m["flows"]
    f.add("flows:" + ("1" if k == 1 else "2-4" if k <= 4 else "5-8" if k <= 8 else "9-12"))
    e = float(m["end"])
    f.add("end:" + ("<5" if e < 5 else "<20" if e < 20 else ">=20"))
    if len(m["flavours"]) == 3:
        f.add("all-flavours")
    # RED queues, ECN, error models
    if m.get("red"):
        f.add("red")
        f.add("red-links:" + ("1" if m["red"] == 1 else "2-4" if m["red"] <= 4 else "5+"))
    f |= {"redknob:" + x for x in m.get("red_knobs", [])}
    f |= {"err:" + x for x in m.get("errmodels", [])}
    f |= {"extchange:" + x for x in m.get("ext_changes", [])}
    for k in ("red_trace", "red_class", "ext_callbacks"):
        if m.get(k):
            f.add(k)
    f |= {"dyn:" + x for x in m.get("dynamics", [])}
    f |= {"traffic:" + x for x in m.get("traffic", [])}
    if m.get("ecn"):
        f.add("ecn" if m["ecn"] == m["flows"] else "ecn-mixed")
        if m.get("red"):
            f.add("ecn+red")
    return f


def note(m):
    """The comment after a seed in seeds.txt."""
    return "%s %dn %df %s trace=%s end=%s%s" % (
        m["topology"], m["nodes"], m["flows"], "+".join(x.replace("TCP/", "") for x in m["flavours"]),
        m["trace"], m["end"],
        "".join(" " + k for k in ("simplex", "costs", "vartrace", "qmon", "monitor_queue", "overhead",
                                  "halt", "midwin", "mid_class", "subclass_settings", "late_traceall",
                                  "trace_queue", "one_way_ring") if m[k]) +
        ("".join(" cb:" + c for c in m["callbacks"])) +
        ("".join(" change:" + c for c in m["changes"])) +
        ("".join(" " + k for k in m["knobs"] + m["queue_knobs"])) +
        (" show_tcphdr" if m["show_tcphdr"] else "") + " gran=" + m["granularity"] +
        ((" RED=%d" % m["red"]) if m.get("red") else "") +
        (" red_trace" if m.get("red_trace") else "") +
        ((" red:" + ",".join(m["red_knobs"])) if m.get("red_knobs") else "") +
        ((" ecn=%d" % m["ecn"]) if m.get("ecn") else "") +
        ((" err:" + ",".join(m["errmodels"])) if m.get("errmodels") else "") +
        ((" dyn:" + ",".join(m["dynamics"])) if m.get("dynamics") else "") +
        ((" traffic:" + ",".join(m["traffic"])) if m.get("traffic") else "") +
        ((" tfrc:" + ",".join(m["tfrc"])) if m.get("tfrc") else "") +
        ((" queues:" + ",".join(m["queues"])) if m.get("queues") else "") +
        ((" aqm:" + ",".join(m["aqm"])) if m.get("aqm") else "") +
        ((" diffserv:" + ",".join(m["diffserv"])) if m.get("diffserv") else "") +
        ((" lan:" + ",".join(m["lan"])) if m.get("lan") else "") +
        ((" linux=%d" % m["linux"]) if m.get("linux") else "") +
        ((" full:" + ",".join(m["full"])) if m.get("full") else "") +
        ((" qs:" + ",".join(m["qs"])) if m.get("qs") else "") +
        ((" fack:" + ",".join(m["fack"])) if m.get("fack") else "") +
        "".join(" %s:%s" % (kw, ",".join(m[kw])) for kw in gen.NEW_MODES.values() if m.get(kw)))


def pick(ns, n, lo, hi, budget, add=False, ext_only=False, dynamics=False, traffic=False, vegas=False, tfrc=False,
         queues=False, full=False, letters=""):
    """Choose n seeds from lo..hi and write seeds.txt.  With add, the
    seeds already listed stay, count as covering their features, and the
    new ones are appended (budget is then for the new fixtures only)."""
    keep = read_seeds() if add else []
    covered = set()
    for s in keep:
        covered |= features(gen.entry_build(s)[1])
    cands = []
    for k in range(lo, hi):
        s = ("d" if dynamics else "") + ("t" if traffic else "") + ("v" if vegas else "") + ("f" if tfrc else "") + ("q" if queues else "") + ("w" if full else "") + letters + str(k)
        if s in keep:
            continue
        m = gen.entry_build(s)[1]
        if ext_only and not m.get("ext"):
            continue
        cands.append((s, m, features(m)))

    def measure(s):
        text = gen.entry_build(s)[0]
        _, rc, _, _, files = run_ns(ns, text)
        return s, rc, sum(len(gzip_bytes(d)) for d in files.values())

    print("running ns-2 on %d candidate seeds to measure fixture sizes..." % len(cands), flush=True)
    sizes = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as ex:
        for s, rc, gz in ex.map(measure, [c[0] for c in cands]):
            if rc == 0:
                sizes[s] = gz
    cands = [c for c in cands if c[0] in sizes]
    per_seed = budget / n * 2.5         # no single seed takes much more than its share
    chosen, total = [], 0
    while len(chosen) < n:
        best = None
        for s, m, f in cands:
            if s in [c[0] for c in chosen] or sizes[s] > per_seed or total + sizes[s] > budget:
                continue
            gain = len(f - covered)
            # prefer new features, then rich scenarios, then small fixtures;
            # once everything is covered, scenarios with the most traffic
            key = (gain, len(f), -sizes[s]) if gain else (0, sizes[s], len(f))
            if best is None or key > best[0]:
                best = (key, s, m, f)
        if best is None:
            break
        _, s, m, f = best
        chosen.append((s, m, f))
        covered |= f
        total += sizes[s]
    allf = set(covered)
    for _, _, f in cands:
        allf |= f
    missing = sorted(allf - covered)
    print("picked %d seeds, %s of compressed fixtures; features covered %d/%d%s" % (
        len(chosen), human(total), len(covered), len(allf),
        ("; missing: " + " ".join(missing)) if missing else ""))
    if add:
        with open(SEEDS) as fh:
            lines = fh.read().rstrip("\n").split("\n")
        lines.append("# added with  python3 tests/random/regen.py --add %d --range %d:%d%s%s%s"
                     % (n, lo, hi, " --ext-only" if ext_only else "", " --dynamics" if dynamics else "",
                        " --traffic" if traffic else "") + (" --vegas" if vegas else "") + (" --tfrc" if tfrc else "") + (" --queues" if queues else "") + (" --full" if full else ""))
    else:
        lines = ["# Seeds of the randomized differential tests whose ns-2 outputs are stored",
                 "# under fixtures/<seed>/ (see README.md).  Chosen with",
                 "#   python3 tests/random/regen.py --pick %d --range %d:%d" % (n, lo, hi),
                 "# One seed per line; the rest of a line after '#' is a note."]
    for s, m, f in sorted(chosen, key=lambda c: gen.parse_entry(c[0])):
        lines.append("%-6s # %s" % (s, note(m)))
    with open(SEEDS, "w") as fh:
        fh.write("\n".join(lines) + "\n")
    return [c[0] for c in chosen]


def renote():
    """Rewrite the notes of seeds.txt from the current generator."""
    with open(SEEDS) as fh:
        lines = fh.read().rstrip("\n").split("\n")
    out = []
    for line in lines:
        body = line.split("#")[0].strip()
        out.append("%-6s # %s" % (body, note(gen.entry_build(body)[1])) if body else line)
    with open(SEEDS, "w") as fh:
        fh.write("\n".join(out) + "\n")


def main(argv=None):
    p = argparse.ArgumentParser(description="Regenerate tests/random/fixtures with the real ns-2.")
    p.add_argument("seeds", nargs="*", help='entries of seeds.txt: N, or N after mode letters d (--dynamics), t (--traffic), v (--vegas), f (--tfrc), q (--queues), l (--linux), w (--full), a (--aqm), s (--diffserv), e (--lan), c (--fack), x (--xcp), p (--rbp), b (--delaybox), y (--bay), j (--jobs-queues), o (--sched), r (--redpd)')
    p.add_argument("--pick", type=int, metavar="N", help="choose N seeds and rewrite seeds.txt first")
    p.add_argument("--add", type=int, metavar="N",
                   help="choose N more seeds (adding features the listed ones lack), append them to seeds.txt")
    p.add_argument("--ext-only", action="store_true",
                   help="with --pick/--add: only seeds with RED, ECN or error models")
    p.add_argument("--dynamics", action="store_true",
                   help="with --pick/--add: candidates are the seeds' --dynamics scripts (entries dN)")
    p.add_argument("--traffic", action="store_true",
                   help="with --pick/--add: candidates are the seeds' --traffic scripts (entries tN)")
    p.add_argument("--vegas", action="store_true",
                   help="with --pick/--add: candidates are the seeds' --vegas scripts (entries vN)")
    p.add_argument("--tfrc", action="store_true",
                   help="with --pick/--add: candidates are the seeds' --tfrc scripts (entries fN)")
    p.add_argument("--queues", action="store_true",
                   help="with --pick/--add: candidates are the seeds' --queues scripts (entries qN)")
    p.add_argument("--full", action="store_true",
                   help="with --pick/--add: candidates are the seeds' --full scripts (entries wN)")
    p.add_argument("--letters", default="",
                   help="with --pick/--add: candidates carry these mode letters too (x --xcp, p --rbp, b --delaybox, "
                        "y --bay, j --jobs-queues, o --sched, r --redpd)")
    p.add_argument("--renote", action="store_true", help="rewrite the notes of seeds.txt and exit")
    p.add_argument("--range", default="0:1000", help="candidate seeds for --pick, A:B (default 0:1000)")
    p.add_argument("--budget", type=float, default=6.0, help="MB of compressed fixtures for --pick (default 6)")
    a = p.parse_args(argv)
    ns = os.environ.get("NS", "/usr/bin/ns")
    if not shutil.which(ns):
        sys.exit("ns-2 not found: %s (set NS)" % ns)

    if a.renote:
        renote()
        return 0
    if a.pick or a.add:
        lo, hi = (int(x) for x in a.range.split(":"))
        before = set(read_seeds())
        pick(ns, a.pick or a.add, lo, hi, a.budget * 1024 * 1024, add=bool(a.add), ext_only=a.ext_only,
             dynamics=a.dynamics, traffic=a.traffic, vegas=a.vegas, tfrc=a.tfrc, queues=a.queues, full=a.full,
             letters=a.letters)
        if a.add and not a.seeds:
            a.seeds = [s for s in read_seeds() if s not in before]
    listed = read_seeds()
    if a.seeds:
        unknown = [s for s in a.seeds if s not in listed]
        if unknown:
            sys.exit("not in seeds.txt: %s" % " ".join(map(str, unknown)))
        seeds = a.seeds
    else:
        seeds = listed
        if os.path.isdir(FIXTURES):
            for d in sorted(os.listdir(FIXTURES)):
                if d not in set(listed) and os.path.isdir(os.path.join(FIXTURES, d)):
                    print("removing stale fixture directory %s" % d)
                    shutil.rmtree(os.path.join(FIXTURES, d))
    os.makedirs(FIXTURES, exist_ok=True)

    failed, total_secs = [], 0.0
    for s in seeds:
        try:
            secs, stored = regen_seed(ns, s)
        except (SeedError, subprocess.TimeoutExpired, OSError) as e:
            print("seed %s: FAILED: %s" % (s, e), flush=True)
            failed.append(s)
            continue
        total_secs += secs
        print("seed %-6s %5.2fs  %s" % (s, secs, ", ".join(
            "%s %s->%s" % (n, human(raw), human(gz)) for n, raw, gz in stored) or "-"), flush=True)
    print("\n%d seed(s) regenerated, ns-2 time %.1f s, fixtures/ now %s" % (
        len(seeds) - len(failed), total_secs, human(dir_size(FIXTURES))))
    if failed:
        print("FAILED: %s" % " ".join(map(str, failed)))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
