#!/usr/bin/env python3
"""Benchmark: the dumbbell grid of ../shared/bench run by Dumbbell and, when
installed, by ns-2 and ns-3, side by side on this machine.

    python benches/run.py [--reps 3] [--points "128 10 DropTail 100" ...]
                          [--ns3-reps 1 | --no-ns3] [--ns3 BINARY]

For every grid point Dumbbell and ns-2 each run `reps` times, alternating, as
separate processes; ns-3 (`dumbbell-ns3.cc`, the same workload written for
ns-3.37, which takes 30 to 100 times as long) runs `ns3-reps` times after
them.  Reported: median whole-process wall time, peak RSS, the simulators'
RESULT figures (which must agree between Dumbbell and ns-2: bottleneck
packets, drops, goodput; ns-3's TCP is another implementation, so its
figures are close but not equal), and the ns-2/Dumbbell and ns-3/Dumbbell
ratios.  An ns-3 run that fails (ns-3.37 as Debian ships it crashes at
`16 100 DropTail 100`, in TcpRateLinux::SkbSent) is reported in its column
and the benchmark goes on.  This is a benchmark, not a test: it asserts
nothing about time.

ns-2 is `ns` on PATH (Debian: `apt-get install ns2`).  ns-3's program is
built into target/bench/ by ../shared/bench's build-ns3.sh (g++, C++17;
where there is no ../shared, the same command from benches/dumbbell-ns3.cc)
when ns-3's headers and libraries are installed (Debian: `apt-get install
libns3-dev`; other installations: NS3_INC, NS3_LIB and NS3_LIBNAME as for
that script), or given with --ns3.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "benches" / "dumbbell-ns2.tcl"
NS3_SOURCE = ROOT / "benches" / "dumbbell-ns3.cc"
SHARED_BUILD = ROOT.parent / "shared" / "bench" / "build-ns3.sh"
NS3_MODULES = ["applications", "traffic-control", "point-to-point", "internet", "bridge", "network", "stats", "core"]
DEFAULT_POINTS = [
    "2 10 DropTail 100",
    "16 10 DropTail 100",
    "128 10 DropTail 100",
    "16 100 DropTail 100",
    "1024 10 DropTail 100",
]


class SimFailed(RuntimeError):
    """A simulator run that exited with a non-zero status (`rc`)."""

    def __init__(self, cmd: list[str], rc: int, err: str):
        super().__init__(f"{' '.join(cmd)} exited {rc}:\n{err[-2000:]}")
        self.rc = rc


def run_once(cmd: list[str], cwd: str) -> tuple[float, float, str]:
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    out = p.stdout.read().decode()
    err = p.stderr.read().decode()
    rc = os.waitstatus_to_exitcode(status)
    if rc != 0:
        raise SimFailed(cmd, rc, err)
    return wall, ru.ru_maxrss / 1024.0, out


def build_ns3() -> str | None:
    """The ns-3 program, built from dumbbell-ns3.cc into target/bench when
    ns-3 is installed (again only when the source changed); None if not.
    ../shared/bench's build-ns3.sh builds it (from its own copy of
    dumbbell-ns3.cc, which benches/ copies) with the NS3_* variables."""
    inc = os.environ.get("NS3_INC", "/usr/include")
    if not (Path(inc) / "ns3" / "core-module.h").exists():
        return None
    cxx = os.environ.get("CXX", "g++")
    if not shutil.which(cxx):
        print(f"ns-3 is installed but {cxx} is not: timing without ns-3", file=sys.stderr)
        return None
    shared = SHARED_BUILD.exists()
    source = SHARED_BUILD.with_name(NS3_SOURCE.name) if shared else NS3_SOURCE
    out = ROOT / "target" / "bench" / "dumbbell-ns3"
    if out.exists() and out.stat().st_mtime >= source.stat().st_mtime:
        return str(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    if shared:
        cmd = ["sh", str(SHARED_BUILD)]
    else:
        # ../shared sits beside this repository in its workspace, not in
        # it: a clone has no build script to call, so the same command is
        # spelt out here (keep the two alike).
        lib = os.environ.get("NS3_LIB", "/usr/lib/x86_64-linux-gnu")
        libname = os.environ.get("NS3_LIBNAME", "ns3-%s")
        cmd = [cxx, "-O2", "-std=c++17", f"-I{inc}", str(NS3_SOURCE), "-o", str(out), f"-L{lib}", f"-Wl,-rpath,{lib}"]
        cmd += ["-l" + (libname % m) for m in NS3_MODULES]
    print("building the ns-3 workload: " + " ".join(cmd), file=sys.stderr, flush=True)
    r = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, "OUT": str(out)})
    if r.returncode != 0:
        print(f"building dumbbell-ns3 failed: timing without ns-3\n{r.stderr[-2000:]}", file=sys.stderr)
        return None
    return str(out)


def ns3_args(point: list[str]) -> list[str]:
    """dumbbell-ns2.tcl's arguments (N C_Mbps queue T) as dumbbell-ns3's options."""
    n, bw, queue, t = point[:4]
    return [f"--n={n}", f"--bw={bw}", f"--queue={queue}", f"--time={t}"]


def result_fields(out: str) -> dict[str, str]:
    m = re.search(r"^RESULT (.*)$", out, re.M)
    if not m:
        return {}
    return dict(kv.split("=", 1) for kv in m.group(1).split())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--points", nargs="*", default=DEFAULT_POINTS)
    ap.add_argument("--ns", default=shutil.which("ns") or "", help="ns-2 binary (default: ns on PATH)")
    ap.add_argument("--ns3", default=None, help="dumbbell-ns3 binary (default: built from benches/dumbbell-ns3.cc)")
    ap.add_argument("--ns3-reps", type=int, default=1, help="ns-3 runs per point (default 1: it takes minutes)")
    ap.add_argument("--no-ns3", action="store_true", help="do not run ns-3")
    args = ap.parse_args()

    # Time the `dumbbell` command users run (installed beside this Python by
    # `make build`); `python -m dumbbell.cli` also pays for runpy and for
    # compiling the __main__ module from source on every run (~4.5 ms).
    exe = Path(sys.executable).with_name("dumbbell")
    if exe.exists():
        sims = {"dumbbell": [str(exe), "run", str(SCRIPT)]}
    else:
        sims = {"dumbbell": [sys.executable, "-m", "dumbbell.cli", "run", str(SCRIPT)]}
        print(f"{exe} not found (make build installs it): timing python -m dumbbell.cli", file=sys.stderr)
    if args.ns:
        sims["ns-2"] = [args.ns, str(SCRIPT)]
    else:
        print("ns-2 not found (apt-get install ns2): timing Dumbbell alone", file=sys.stderr)

    ns3 = None
    if not args.no_ns3 and args.ns3_reps > 0:
        ns3 = args.ns3 or build_ns3()
        if ns3 is None:
            print("ns-3 not found (apt-get install libns3-dev): timing without ns-3", file=sys.stderr)

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for point in args.points:
            params = point.split()
            times: dict[str, list[float]] = {s: [] for s in sims}
            rss: dict[str, list[float]] = {s: [] for s in sims}
            results: dict[str, dict[str, str]] = {}
            for rep in range(args.reps):
                # Alternate which simulator goes first, so that neither always
                # runs right after the other.
                order = list(sims.items())
                for name, cmd in order if rep % 2 == 0 else order[::-1]:
                    w, m, out = run_once(cmd + params, tmp)
                    times[name].append(w)
                    rss[name].append(m)
                    results[name] = result_fields(out)
            ns3_failed = None
            if ns3:
                times["ns-3"], rss["ns-3"] = [], []
                for _ in range(args.ns3_reps):
                    try:
                        w, m, out = run_once([ns3, *ns3_args(params)], tmp)
                    except SimFailed as e:
                        # ns-3's own failure (ns-3.37's TcpRateLinux::SkbSent
                        # crashes on some points): reported, the rest goes on.
                        ns3_failed = e.rc
                        print(f"ns-3 failed at {point}: {str(e)[-300:]}", file=sys.stderr)
                        break
                    times["ns-3"].append(w)
                    rss["ns-3"].append(m)
                    results["ns-3"] = result_fields(out)
            row = {"point": point}
            for name in times:
                if name == "ns-3" and ns3_failed is not None:
                    row["ns-3 s"] = f"failed (exit {ns3_failed})"
                    row["ns-3 MB"] = row["ns-3 pkts"] = "-"
                    continue
                row[f"{name} s"] = statistics.median(times[name])
                row[f"{name} MB"] = max(rss[name])
                row[f"{name} pkts"] = results[name].get("bneck_pkts", "?")
            if "ns-2" in sims:
                row["ns-2/dumbbell"] = row["ns-2 s"] / row["dumbbell s"]
                keys = ("bneck_pkts", "drops", "goodput_pkts")
                same = all(results["ns-2"].get(k) == results["dumbbell"].get(k) for k in keys)
                row["same results"] = "yes" if same else "NO: " + " ".join(
                    f"{k} {results['ns-2'].get(k)}/{results['dumbbell'].get(k)}" for k in keys
                )
            if ns3:
                row["ns-3/dumbbell"] = "-" if ns3_failed is not None else row["ns-3 s"] / row["dumbbell s"]
            rows.append(row)
            print(" | ".join(f"{k}: {v:.3f}" if isinstance(v, float) else f"{k}: {v}" for k, v in row.items()), flush=True)

    print()
    cols = list(dict.fromkeys(c for r in rows for c in r))
    print("| " + " | ".join(cols) + " |")
    print("|" + "---|" * len(cols))
    for r in rows:
        print("| " + " | ".join(f"{r[c]:.2f}" if isinstance(r.get(c), float) else str(r.get(c, "")) for c in cols) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
