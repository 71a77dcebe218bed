#!/usr/bin/env python3
"""Random wireless networks with TCP under the real ns-2 and Dumbbell.

    python3 tests/wireless/tcp/check.py [-n 60] [-s 1] [-j 2] [--stress] [--cmu] [--keep DIR]

Writes COUNT random specs with gen.py (seed -s), runs spec.tcl on each
under `ns` and `dumbbell run` in separate directories, and compares the
trace and stdout byte for byte.  Prints one line per network and a summary;
exits 1 if any differ.  A failing network's spec and both outputs are kept
in --keep (default /tmp/dumbbell-wireless-tcp-failures).  Standard library
only (gen.py, beside this file, writes the specs).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path.insert(0, str(HERE))
import gen  # noqa: E402  (gen.py beside this file)


def first_difference(want: bytes, got: bytes) -> str:
    a, b = want.split(b"\n"), got.split(b"\n")
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return f"line {i + 1}:\n  ns-2:     {x.decode()}\n  dumbbell: {y.decode()}"
    return f"ns-2 {len(a)} lines, dumbbell {len(b)}"


def run(cmd: list[str], spec_text: str, name: str, timeout: float) -> tuple[int, bytes, bytes]:
    with tempfile.TemporaryDirectory(prefix="wl-tcp-") as d:
        shutil.copy(HERE / "spec.tcl", d)
        Path(d, f"{name}.spec").write_text(spec_text)
        r = subprocess.run([*cmd, "spec.tcl", f"{name}.spec"], cwd=d, capture_output=True, timeout=timeout)
        tr = Path(d, f"{name}.tr")
        return r.returncode, r.stdout, tr.read_bytes() if tr.exists() else b""


def one(name: str, text: str, ns: str, db: list[str], keep: Path, timeout: float) -> tuple[str, bool, str]:
    want = run([ns], text, name, timeout)
    got = run(db, text, name, timeout)
    if want == got:
        return name, True, f"same ({len(want[2].splitlines())} lines)"
    why = (f"exit {want[0]} vs {got[0]}" if want[0] != got[0] else
           f"trace {first_difference(want[2], got[2])}" if want[2] != got[2] else
           f"stdout {first_difference(want[1], got[1])}")
    k = keep / name
    k.mkdir(parents=True, exist_ok=True)
    (k / f"{name}.spec").write_text(text)
    for who, (_, out, tr) in (("ns2", want), ("dumbbell", got)):
        (k / f"{who}.out").write_bytes(out)
        (k / f"{who}.tr").write_bytes(tr)
    return name, False, why


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", type=int, default=60)
    ap.add_argument("-s", type=int, default=1)
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--ns", default=os.environ.get("NS", "/usr/bin/ns"))
    ap.add_argument("--keep", type=Path, default=Path("/tmp/dumbbell-wireless-tcp-failures"))
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("--stress", action="store_true", help="gen.py's stress networks (10 to 16 nodes, 3 to 6 transfers)")
    ap.add_argument("--cmu", action="store_true",
                    help="every network with -ifqType CMUPriQueue and routed by DSDV (ns-2 2.35's AODV crashes with that queue)")
    a = ap.parse_args()
    venv = ROOT / ".venv" / "bin" / "python"
    db = [str(venv if venv.exists() else sys.executable), "-m", "dumbbell.cli", "run"]
    rng = random.Random(a.s)
    specs = [(f"{'s' if a.stress else 't'}{a.s}-{k}", gen.spec(rng, a.stress)) for k in range(a.n)]
    if a.cmu:
        specs = [("c" + name, text.replace("routing AODV", "routing DSDV") + "ifq CMUPriQueue\n") for name, text in specs]
    bad = []
    with concurrent.futures.ThreadPoolExecutor(a.j) as ex:
        for name, ok, why in ex.map(lambda s: one(*s, a.ns, db, a.keep, a.timeout), specs):
            print(f"{name}: {why}", flush=True)
            if not ok:
                bad.append((name, why))
    print(f"{len(specs) - len(bad)} of {len(specs)} identical")
    for name, why in bad:
        print(f"  {name}: {why}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
