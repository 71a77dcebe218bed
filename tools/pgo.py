#!/usr/bin/env python3
"""Profile-guided optimisation data for the engine (used by `make build`).

    python tools/pgo.py OUT.profdata

1. builds the Python extension with LLVM's instrumentation
   (`-Cprofile-generate`) into target/pgo-gen;
2. runs a training set through `dumbbell run` with that build: the benchmark
   grid's dumbbell (DropTail and RED/ECN, 16 and 128 flows), Dordal's basic1
   with its full packet and variable traces, and corpus scenarios covering
   SACK, the other TCP flavours, RED variants and monitors;
3. merges the counts into OUT with the toolchain's `llvm-profdata`.

The final build then compiles with `-Cprofile-use=OUT`.  Profiles change
only how the compiler lays out and inlines code, never what it computes:
results are the same with or without them (the test suite runs on the
optimised build).

Needs rustup's `llvm-tools` component, which this script adds when it can.
If the tools or the instrumented build are unavailable, OUT is written
empty and the build goes on without a profile (a note says so).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GEN_TARGET = ROOT / "target" / "pgo-gen"
SCRIPTS = ROOT / "tests" / "ns2" / "scripts"
BENCH = ROOT / "benches" / "dumbbell-ns2.tcl"

# Benchmark points (args of benches/dumbbell-ns2.tcl) and corpus cases (ids
# in tests/ns2/cases.json): a few seconds in all, over the code paths users
# run most.
BENCH_RUNS = [
    ["16", "100", "DropTail", "20"],
    ["128", "10", "DropTail", "10"],
    ["16", "10", "RED", "30"],
    ["4", "10", "DropTail", "10", "bench.tr"],
]
CORPUS_CASES = [
    "basic1_1000", "sack_multidrop", "sack_red_ecn", "tahoe_delack", "reno_sink",
    "newreno_delack", "red_ecn", "red_adaptive", "qmon", "reverse",
]


def training() -> list[tuple[Path, list[str]]]:
    cases = {c["id"]: c for c in json.loads((ROOT / "tests" / "ns2" / "cases.json").read_text())}
    runs = [(BENCH, a) for a in BENCH_RUNS]
    runs += [(SCRIPTS / cases[i]["script"], list(cases[i]["args"])) for i in CORPUS_CASES]
    return runs

def note(msg: str) -> None:
    print(f"pgo: {msg}", file=sys.stderr)


def profdata_tool() -> Path | None:
    """The toolchain's llvm-profdata (the one matching rustc's LLVM)."""
    def find() -> Path | None:
        try:
            sysroot = subprocess.run(["rustc", "--print", "sysroot"], capture_output=True, text=True, check=True).stdout.strip()
            host = next(l.split(":", 1)[1].strip() for l in subprocess.run(
                ["rustc", "-vV"], capture_output=True, text=True, check=True).stdout.splitlines() if l.startswith("host:"))
        except (OSError, subprocess.CalledProcessError, StopIteration):
            return None
        p = Path(sysroot) / "lib" / "rustlib" / host / "bin" / "llvm-profdata"
        return p if p.is_file() else None

    tool = find()
    # (the pip build's DUMBBELL_PGO=auto: use the tools only if they are there)
    if tool is None and shutil.which("rustup") and not os.environ.get("DUMBBELL_PGO_NO_RUSTUP"):
        note("adding rustup's llvm-tools component (for llvm-profdata)")
        subprocess.run(["rustup", "component", "add", "llvm-tools"], capture_output=True)
        tool = find()
    return tool


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    out = Path(sys.argv[1]).resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    tool = profdata_tool()
    if tool is None:
        note("no llvm-profdata: building without a profile")
        out.write_bytes(b"")
        return 0
    python = sys.executable
    with tempfile.TemporaryDirectory(prefix="dumbbell-pgo-") as tmp:
        tmp = Path(tmp)
        raw = tmp / "raw"
        env = dict(os.environ, PYO3_PYTHON=python, CARGO_TARGET_DIR=str(GEN_TARGET),
                   RUSTFLAGS=f"-Cprofile-generate={raw}")
        note("instrumented build")
        r = subprocess.run(["cargo", "build", "--release", "--quiet", "-p", "dumbbell-py"], cwd=ROOT, env=env)
        if r.returncode != 0:
            note("instrumented build failed: building without a profile")
            out.write_bytes(b"")
            return 0
        # A copy of the package with the instrumented extension in it.
        pkg = tmp / "pkg"
        shutil.copytree(ROOT / "python", pkg, ignore=shutil.ignore_patterns("_engine*.so", "__pycache__"))
        shutil.copy2(GEN_TARGET / "release" / "lib_engine.so", pkg / "dumbbell" / "_engine.abi3.so")
        shutil.rmtree(raw, ignore_errors=True)  # counts of build scripts
        work = tmp / "work"
        work.mkdir()
        run_env = dict(os.environ, PYTHONPATH=str(pkg), LLVM_PROFILE_FILE=str(raw / "train-%p.profraw"))
        runs = training()
        note(f"training on {len(runs)} runs")
        for script, args in runs:
            r = subprocess.run([python, "-c", "import sys; from dumbbell.cli import main; sys.exit(main())",
                                "run", str(script), *args], cwd=work, env=run_env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            if r.returncode != 0:
                note(f"training run {script.name} {' '.join(args)} exited {r.returncode}: building without a profile\n{r.stderr[-2000:]}")
                out.write_bytes(b"")
                return 0
        files = sorted(raw.glob("train-*.profraw"))
        if not files:
            note("the training runs wrote no profile: building without one")
            out.write_bytes(b"")
            return 0
        r = subprocess.run([str(tool), "merge", "-o", str(out), *map(str, files)], capture_output=True, text=True)
        if r.returncode != 0:
            note(f"llvm-profdata merge failed: building without a profile\n{r.stderr}")
            out.write_bytes(b"")
            return 0
    note(f"profile written to {out.relative_to(ROOT) if out.is_relative_to(ROOT) else out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
