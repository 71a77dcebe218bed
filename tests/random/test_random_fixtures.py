"""Randomized differential tests, offline: for every seed of seeds.txt the
script gen.py generates, run with `dumbbell run`, must give ns-2 2.35's exit
code, stdout and output files byte for byte.  ns-2's outputs are stored in
fixtures/<seed>/ (written by `python3 tests/random/regen.py`, see README.md),
so this test needs no ns-2.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))

import gen  # noqa: E402

FIXTURES = HERE / "fixtures"
DUMBBELL = [sys.executable, "-m", "dumbbell.cli", "run"]
SCRIPT = "script.tcl"


def _seeds():
    seeds = []
    for line in (HERE / "seeds.txt").read_text().splitlines():
        line = line.split("#")[0].strip()
        if line:
            seeds.append(line)          # "N", or N after mode letters: dN, tN, vN, dtN... (gen.parse_entry)
    return seeds


SEEDS = _seeds()


def _first_difference(a: bytes, b: bytes) -> str:
    la, lb = a.split(b"\n"), b.split(b"\n")
    for i, (x, y) in enumerate(zip(la, lb)):
        if x != y:
            return (f"line {i + 1}:\n  ns-2:     {x.decode(errors='replace')}\n"
                    f"  dumbbell: {y.decode(errors='replace')}")
    return f"lengths differ: ns-2 {len(la)} lines, dumbbell {len(lb)} lines"


def test_every_seed_has_a_fixture():
    assert SEEDS, "seeds.txt lists no seeds"
    missing = [s for s in SEEDS if not (FIXTURES / str(s) / "exit_code").exists()]
    assert not missing, f"no fixtures for seeds {missing}: run python3 tests/random/regen.py"


@pytest.mark.parametrize("seed", SEEDS)
def test_random_scenario_matches_ns2(seed, tmp_path):
    fx = FIXTURES / str(seed)
    text = gen.entry_build(seed)[0]
    want_sha = (fx / "script.sha256").read_text().split()[0]
    assert hashlib.sha256(text.encode()).hexdigest() == want_sha, (
        f"gen.py no longer generates the script fixture {seed} was made from; "
        "regenerate the fixtures with python3 tests/random/regen.py (needs ns-2)")
    (tmp_path / SCRIPT).write_text(text, newline="\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "python") + os.pathsep + os.environ.get("PYTHONPATH", "")}
    r = subprocess.run(DUMBBELL + [SCRIPT], cwd=tmp_path, capture_output=True, timeout=600, env=env)

    want_rc = int((fx / "exit_code").read_text().strip())
    assert r.returncode == want_rc, (
        f"exit code {r.returncode}, ns-2 gave {want_rc}\nstderr:\n{r.stderr.decode(errors='replace')[-3000:]}")
    want_out = (fx / "stdout").read_bytes()
    assert r.stdout == want_out, "stdout differs: " + _first_difference(want_out, r.stdout)

    want_files = sorted(p.name[:-3] for p in fx.glob("*.gz"))
    got_files = sorted(p.name for p in tmp_path.iterdir()
                       if p.is_file() and p.name != SCRIPT and not p.name.endswith(".nam"))
    assert got_files == want_files, f"files written: dumbbell {got_files}, ns-2 {want_files}"
    for name in want_files:
        want = gzip.decompress((fx / f"{name}.gz").read_bytes())
        got = (tmp_path / name).read_bytes()
        assert got == want, f"{name} differs: " + _first_difference(want, got)
