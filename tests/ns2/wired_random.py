"""Compare random wired-cum-wireless networks with the real ns-2.

    python3 tests/ns2/wired_random.py FIRST LAST [--ns /usr/bin/ns]

Runs `wireless-wired.tcl random-SEED FORMAT MACTRACE` (tests/ns2/scripts/
wireless-wired.tcl: one to three wired nodes in a random tree, one or two
base stations each linked to one of them, one to four DSDV mobile nodes
per base station at random places, one to four CBR or TCP flows between
random wired and mobile nodes, random moves; the old trace format with the
MAC trace for even seeds, use-newtrace's without it for odd ones) for each
seed under the real ns-2 and under `dumbbell run`, and compares exit
status, stdout, trace and nam file byte for byte.  Prints each differing
seed and a count; exit status 1 if any differs.
"""

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tests" / "ns2" / "scripts" / "wireless-wired.tcl"


def run(cmd: list[str], seed: int, where: Path) -> tuple:
    where.mkdir()
    fmt = ["old", "ON"] if seed % 2 == 0 else ["new", "OFF"]
    p = subprocess.run([*cmd, str(SCRIPT), f"random-{seed}", *fmt], cwd=where, capture_output=True, timeout=300)
    files = tuple((where / f).read_bytes() if (where / f).exists() else None for f in ("ww.tr", "ww.nam"))
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
        with tempfile.TemporaryDirectory(prefix="wired-") as tmp:
            want = run([a.ns], seed, Path(tmp) / "ns")
            got = run(dumbbell, seed, Path(tmp) / "db")
        if want != got:
            bad += 1
            what = [n for n, w, g in zip(("exit", "stdout", "trace", "nam"), want, got) if w != g]
            print(f"seed {seed}: differs ({', '.join(what)})", flush=True)
    n = a.last - a.first + 1
    print(f"{n - bad} of {n} seeds identical")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
