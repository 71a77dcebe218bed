#!/usr/bin/env python3
"""Compare random hierarchical topologies with the real ns-2.

    python3 tests/ns2/hier_random.py FIRST LAST [--ns /usr/bin/ns]

Runs `hier.tcl random SEED` (tests/ns2/scripts/hier.tcl: a random hierarchy
of domains, clusters and nodes, random links and costs, every node's route
to every other on stdout, CBR flows along the routes that arrive) for each
seed under the real ns-2 and under `dumbbell run`, and compares exit
status, stdout, trace and nam file byte for byte.  Prints each differing
seed and a count; exit status 1 if any differs.  Four seeds are corpus
cases (tests/ns2/cases.json, hier_random_*).
"""

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tests" / "ns2" / "scripts" / "hier.tcl"


def run(cmd: list[str], seed: int, where: Path) -> tuple:
    where.mkdir()
    p = subprocess.run([*cmd, str(SCRIPT), "random", str(seed)], cwd=where, capture_output=True, timeout=120)
    files = tuple((where / f).read_bytes() if (where / f).exists() else None for f in ("hier.tr", "hier.nam"))
    return (p.returncode, p.stdout) + files


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("first", type=int)
    ap.add_argument("last", type=int)
    ap.add_argument("--ns", default="/usr/bin/ns")
    a = ap.parse_args()
    dumbbell = [str(ROOT / ".venv" / "bin" / "dumbbell"), "run"]
    bad = 0
    for seed in range(a.first, a.last + 1):
        with tempfile.TemporaryDirectory(prefix="hier-") as tmp:
            want = run([a.ns], seed, Path(tmp) / "ns")
            got = run(dumbbell, seed, Path(tmp) / "db")
        if want != got:
            bad += 1
            what = [n for n, w, g in zip(("exit", "stdout", "trace", "nam"), want, got) if w != g]
            print(f"seed {seed}: differs ({', '.join(what)})")
    n = a.last - a.first + 1
    print(f"{n - bad} of {n} seeds identical")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
