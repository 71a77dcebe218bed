#!/usr/bin/env python3
"""Randomized differential test: generated ns-2 scripts under ns-2 and Dumbbell.

    python3 tests/random/check.py                  seeds 0..199
    python3 tests/random/check.py -n 500 -s 1000   seeds 1000..1499
    python3 tests/random/check.py 17 42 99         only these seeds
    python3 tests/random/check.py --seed-file tests/random/seeds.txt

For every seed: generate the script with gen.py into a fresh temporary
directory, run `ns script.tcl` and `dumbbell run script.tcl` in two separate
empty directories, and compare the exit code, stdout and every file either
run wrote (except the script and .nam files) byte for byte.  stderr is not
compared.  Prints one line per seed, then a summary with the first differing
line of each failure, and exits 1 if any seed failed.

Failing cases are copied (script, both outputs) to --keep (default
/tmp/dumbbell-random-failures/<seed>/) for minimising with minimize.py.

Options: --stress (gen.py --stress scripts), --dynamics, --traffic, --vegas, --tfrc, --queues, --linux, --full, --qs, --aqm, --diffserv, --lan, --fack, --xcp, --rbp, --delaybox, --bay, --jobs-queues, --sched, --redpd (gen.py's modes), -j workers (default 2), --ns PATH (default $NS or /usr/bin/ns),
--dumbbell CMD (default: <repo>/.venv/bin/python -m dumbbell.cli run, else
this Python), --timeout seconds per run (default 300).

Standard library only.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

import gen  # noqa: E402

SCRIPT = "script.tcl"

# Limits for every simulator run: a reduced script (minimize.py) may run
# forever, and an endless run must neither eat the machine's memory nor
# fill its disk.
MEM_LIMIT = 6 << 30       # bytes of address space
FILE_LIMIT = 1 << 30      # bytes per file written


def _limits():
    try:
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (MEM_LIMIT, MEM_LIMIT))
        resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_LIMIT, FILE_LIMIT))
    except (ImportError, ValueError, OSError):
        pass


def default_dumbbell():
    py = os.path.join(ROOT, ".venv", "bin", "python")
    if not os.path.exists(py):
        py = sys.executable
    return [py, "-m", "dumbbell.cli", "run"]


def run(cmd, cwd, timeout):
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd + [SCRIPT], cwd=cwd, stdin=subprocess.DEVNULL,
                           preexec_fn=_limits if os.name == "posix" else None,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
        rc, out, err = p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        rc, out, err = "timeout", e.stdout or b"", (e.stderr or b"") + b"\n[timeout]"
    secs = time.monotonic() - t0
    files = {}
    for name in sorted(os.listdir(cwd)):
        if name == SCRIPT or name.endswith(".nam"):
            continue
        path = os.path.join(cwd, name)
        if os.path.isfile(path):
            with open(path, "rb") as f:
                files[name] = f.read()
    return dict(rc=rc, stdout=out, stderr=err, files=files, secs=secs)


def first_diff(a: bytes, b: bytes):
    """(1-based line number, line a, line b) of the first difference."""
    la, lb = a.split(b"\n"), b.split(b"\n")
    for i, (x, y) in enumerate(zip(la, lb)):
        if x != y:
            return i + 1, x, y
    n = min(len(la), len(lb))
    return n + 1, (la[n] if n < len(la) else b"<end of file>"), (lb[n] if n < len(lb) else b"<end of file>")


def short(b: bytes, n=160) -> str:
    s = b.decode(errors="replace")
    return s if len(s) <= n else s[:n] + "..."


# ns-2's TcpAgent prints its own address when it resizes its timestamp
# table (`%p resizing timestamp table`): a different one in every run.
POINTER = re.compile(rb"^0x[0-9a-f]+( resizing timestamp table)$", re.M)


def compare(ns, db):
    """List of human-readable differences (empty when identical; stdout's
    printed addresses aside)."""
    diffs = []
    ns = dict(ns, stdout=POINTER.sub(rb"0xADDRESS\1", ns["stdout"]))
    db = dict(db, stdout=POINTER.sub(rb"0xADDRESS\1", db["stdout"]))
    if ns["rc"] != db["rc"]:
        diffs.append("exit code: ns-2 %s, dumbbell %s; dumbbell stderr: %s"
                     % (ns["rc"], db["rc"], short(db["stderr"].strip().split(b"\n")[-1] if db["stderr"].strip() else b"", 300)))
    if ns["stdout"] != db["stdout"]:
        ln, x, y = first_diff(ns["stdout"], db["stdout"])
        diffs.append("stdout line %d:\n      ns-2:     %s\n      dumbbell: %s" % (ln, short(x), short(y)))
    for name in sorted(set(ns["files"]) | set(db["files"])):
        a, b = ns["files"].get(name), db["files"].get(name)
        if a is None:
            diffs.append("%s: written only by dumbbell" % name)
        elif b is None:
            diffs.append("%s: written only by ns-2" % name)
        elif a != b:
            ln, x, y = first_diff(a, b)
            diffs.append("%s line %d:\n      ns-2:     %s\n      dumbbell: %s" % (name, ln, short(x), short(y)))
    return diffs


def check_seed(entry, args):
    seed, dyn, traffic, vegas = gen.parse_entry(entry)
    text, meta = gen.build(seed, args.stress, "dv" if args.dv else (args.dynamics or dyn), args.traffic or traffic, args.vegas or vegas,
                           args.tfrc or gen.tfrc_entry(entry), args.queues or gen.queues_entry(entry),
                           args.linux or gen.linux_entry(entry),
                           args.full or gen.full_entry(entry), args.qs or gen.qs_entry(entry), args.aqm or gen.aqm_entry(entry),
                           args.diffserv or gen.diffserv_entry(entry),
                           args.lan or gen.lan_entry(entry),
                           args.fack or gen.fack_entry(entry),
                           **{kw: getattr(args, "mode_" + kw) or on for kw, on in gen.new_modes(entry).items()})
    with tempfile.TemporaryDirectory(prefix="dbrand-%d-" % seed) as tmp:
        dirs = {}
        for k in ("ns", "db"):
            d = os.path.join(tmp, k)
            os.makedirs(d)
            with open(os.path.join(d, SCRIPT), "w", newline="\n") as f:
                f.write(text)
            dirs[k] = d
        ns = run([args.ns], dirs["ns"], args.timeout)
        db = run(args.dumbbell, dirs["db"], args.timeout)
        diffs = compare(ns, db)
        kept = None
        if diffs and args.keep:
            kept = os.path.join(args.keep, str(entry))
            if os.path.isdir(kept):
                shutil.rmtree(kept)
            shutil.copytree(tmp, kept)
            for k, res in (("ns", ns), ("db", db)):
                with open(os.path.join(kept, k, "_stdout"), "wb") as f:
                    f.write(res["stdout"])
                with open(os.path.join(kept, k, "_stderr"), "wb") as f:
                    f.write(res["stderr"])
                with open(os.path.join(kept, k, "_rc"), "w") as f:
                    f.write("%s\n" % res["rc"])
    size = sum(len(v) for v in ns["files"].values())
    return dict(seed=entry, diffs=diffs, ns_secs=ns["secs"], db_secs=db["secs"], ns_rc=ns["rc"],
                ns_stderr=ns["stderr"], size=size, meta=meta, kept=kept)


def main(argv=None):
    p = argparse.ArgumentParser(description="Differential test of generated ns-2 scripts: ns-2 vs Dumbbell.")
    p.add_argument("seeds", nargs="*", type=int, help="explicit seeds (default: a range)")
    p.add_argument("-n", "--count", type=int, default=200, help="number of seeds (default 200)")
    p.add_argument("-s", "--start", type=int, default=0, help="first seed (default 0)")
    p.add_argument("--seed-file", help="file with one seed per line (# comments allowed)")
    p.add_argument("-j", "--jobs", type=int, default=2, help="parallel seeds (default 2)")
    p.add_argument("--ns", default=os.environ.get("NS", "/usr/bin/ns"))
    p.add_argument("--dumbbell", type=shlex.split, default=None,
                   help="command that runs a script, e.g. 'dumbbell run'")
    p.add_argument("--timeout", type=float, default=300)
    p.add_argument("--keep", default=os.path.join(tempfile.gettempdir(), "dumbbell-random-failures"),
                   help="directory for failing cases ('' to keep nothing)")
    p.add_argument("-q", "--quiet", action="store_true", help="print only failures and the summary")
    p.add_argument("--dynamics", action="store_true",
                   help="gen.py --dynamics scripts: links going down and up (route models, $link dynamic)")
    p.add_argument("--dv", action="store_true",
                   help="--dynamics scripts with `$ns rtproto DV` (distance-vector routing) instead of static or Session")
    p.add_argument("--traffic", action="store_true",
                   help="gen.py --traffic scripts: UDP sources (CBR, Exponential, Pareto) beside the TCP flows")
    p.add_argument("--vegas", action="store_true", help="gen.py --vegas scripts: some flows are TCP Vegas")
    p.add_argument("--tfrc", action="store_true", help="gen.py --tfrc scripts: TFRC connections beside the TCP flows")
    p.add_argument("--queues", action="store_true",
                   help="gen.py --queues scripts: DRR, SFQ, Vq, GK and CBQ queues (random parameters, mid-run commands) on some links")
    p.add_argument("--linux", action="store_true",
                   help="gen.py --linux scripts: some flows are Agent/TCP/Linux with random congestion controls")
    p.add_argument("--full", action="store_true",
                   help="gen.py --full scripts: two-way TCP connections (FullTcp, /Tahoe, /Newreno, /Sack) beside them")
    p.add_argument("--fack", action="store_true",
                   help="gen.py --fack scripts: some flows are TCP FACK, most with SACK sinks")
    p.add_argument("--qs", action="store_true",
                   help="gen.py --qs scripts: Quick-Start routers on every node, Quick-Start requests on the TCP flows")
    p.add_argument("--aqm", action="store_true",
                   help="gen.py --aqm scripts: ns-2's RIO and REM queues (random parameters, token-bucket taggers) on some links")
    p.add_argument("--diffserv", action="store_true",
                   help="gen.py --diffserv scripts: ns-2's DiffServ edge and core queues (schedulers, MRED modes, policies) on some links")
    p.add_argument("--lan", action="store_true",
                   help="gen.py --lan scripts: one or two wired LANs (802.3, plain MAC or abstract) over some of the nodes")
    p.add_argument("--stress", action="store_true",
                   help="gen.py --stress scripts: RED/ECN/error models in every seed, more changes and traces")
    for kw in gen.NEW_MODES.values():
        p.add_argument(gen.NEW_MODE_FLAGS[kw], dest="mode_" + kw, action="store_true",
                       help="gen.py %s scripts: %s" % (gen.NEW_MODE_FLAGS[kw], gen.NEW_MODE_HELP[kw]))
    args = p.parse_args(argv)
    if args.dumbbell is None:
        args.dumbbell = default_dumbbell()
    if not shutil.which(args.ns):
        sys.exit("ns-2 not found: %s (set --ns or NS)" % args.ns)

    if args.seed_file:
        seeds = []
        with open(args.seed_file) as f:
            for line in f:
                line = line.split("#")[0].strip()
                if line:
                    seeds.append(line.split()[0])       # N, dN (--dynamics) or vN (--vegas)
    elif args.seeds:
        seeds = [str(s) for s in args.seeds]
    else:
        seeds = [str(s) for s in range(args.start, args.start + args.count)]

    results = []
    t0 = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
        futs = {ex.submit(check_seed, s, args): s for s in seeds}
        for fut in concurrent.futures.as_completed(futs):
            s = futs[fut]
            try:
                res = fut.result()
            except Exception as e:  # a generator or harness error is a failure too
                res = dict(seed=s, diffs=["harness error: %r" % e], ns_secs=0.0, db_secs=0.0,
                           ns_rc=None, ns_stderr=b"", size=0, meta={}, kept=None)
            results.append(res)
            if res["diffs"] or not args.quiet:
                print("seed %6s  %-4s ns %6.2fs  dumbbell %6.2fs  %7.0fK  %s%s" % (
                    s, "FAIL" if res["diffs"] else "ok", res["ns_secs"], res["db_secs"], res["size"] / 1024.0,
                    res["meta"].get("topology", "?"),
                    "" if res["ns_rc"] == 0 else "  (ns-2 exit %s)" % res["ns_rc"]), flush=True)
    wall = time.monotonic() - t0
    results.sort(key=lambda r: gen.parse_entry(r["seed"]))
    failed = [r for r in results if r["diffs"]]
    ns_bad = [r for r in results if r["ns_rc"] != 0]

    print()
    print("=" * 72)
    print("%d seeds: %d passed, %d failed   (wall %.1f s with %d jobs)" % (
        len(results), len(results) - len(failed), len(failed), wall, args.jobs))
    print("sum of wall times: ns-2 %.1f s, dumbbell %.1f s; largest output %.0fK (seed %s)" % (
        sum(r["ns_secs"] for r in results), sum(r["db_secs"] for r in results),
        max([r["size"] for r in results] + [0]) / 1024.0,
        max(results, key=lambda r: r["size"])["seed"] if results else "-"))
    if ns_bad:
        print("ns-2 itself exited non-zero on seeds: %s" % " ".join(
            "%s(%s)" % (r["seed"], r["ns_rc"]) for r in ns_bad))
    for r in failed:
        print("\nseed %s FAILED%s" % (r["seed"], ("  [kept in %s]" % r["kept"]) if r["kept"] else ""))
        for d in r["diffs"]:
            print("  - " + d)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
