"""The shared driver of the random side-by-side checks (hier_random.py,
wired_random.py): run one scenario script per seed under the real ns-2 and
under `dumbbell run`, each in an empty directory, and compare exit status,
stdout and the files it writes byte for byte.  Standard library only."""

from __future__ import annotations

import argparse
import subprocess
import tempfile
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[2]


def run(cmd: list[str], script: Path, args: list[str], outputs: tuple[str, ...], where: Path,
        timeout: float) -> tuple:
    """(exit status, stdout, each output file's bytes or None)."""
    where.mkdir()
    p = subprocess.run([*cmd, str(script), *args], cwd=where, capture_output=True, timeout=timeout)
    return (p.returncode, p.stdout) + tuple((where / f).read_bytes() if (where / f).exists() else None for f in outputs)


def main(doc: str, script: Path, args_of: Callable[[int], list[str]], outputs: tuple[str, str],
         prefix: str, timeout: float) -> int:
    """The command line `FIRST LAST [--ns NS]`: every seed of the range,
    each differing one printed with what differs, then a count; 1 if any
    differs.  `outputs` are the trace and nam files the script writes."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("first", type=int)
    ap.add_argument("last", type=int)
    ap.add_argument("--ns", default="/usr/bin/ns")
    a = ap.parse_args()
    dumbbell = [str(ROOT / ".venv" / "bin" / "dumbbell"), "run"]
    bad = 0
    for seed in range(a.first, a.last + 1):
        with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
            want = run([a.ns], script, args_of(seed), outputs, Path(tmp) / "ns", timeout)
            got = run(dumbbell, script, args_of(seed), outputs, Path(tmp) / "db", timeout)
        if want != got:
            bad += 1
            what = [n for n, w, g in zip(("exit", "stdout", "trace", "nam"), want, got) if w != g]
            print(f"seed {seed}: differs ({', '.join(what)})", flush=True)
    n = a.last - a.first + 1
    print(f"{n - bad} of {n} seeds identical")
    return 1 if bad else 0
