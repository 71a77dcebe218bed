"""The AODV networks crates/engine/tests/aodv.rs runs with the agents over
the node stacks, now run whole by `dumbbell run` from their ns-2 script
(tests/wireless/aodv/spec.tcl: AODV routing, CBR/UDP flows, movements,
either trace format, MAC trace on or off) and compared byte for byte with
the trace the real ns-2 2.35 wrote for each (`sh
tests/wireless/aodv/regen.sh` regenerates them): the three chosen networks
(a chain, a local repair that fails with the route errors after it,
crossing flows with a node leaving) and the thirty random ones of
random.py; and the DSDV networks beside them (a chain with a node leaving,
`dsdv-chain`, and fifteen random ones of 60 s, `d2-N`).
"""

from __future__ import annotations

import gzip
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
AODV = HERE / "aodv"
ROOT = HERE.parents[1]

SPECS = sorted(p.stem for p in AODV.glob("*.spec"))


def first_difference(want: bytes, got: bytes) -> str:
    a, b = want.split(b"\n"), got.split(b"\n")
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return f"line {i + 1}:\n  ns-2:     {x.decode()}\n  dumbbell: {y.decode()}"
    return f"ns-2 {len(a)} lines, dumbbell {len(b)}"


def test_every_network_is_run():
    assert len([s for s in SPECS if s.startswith("r1-")]) == 30
    assert len([s for s in SPECS if s.startswith("d2-")]) == 15
    assert len(SPECS) == 3 + 30 + 1 + 15
    assert {"chain", "repair", "branch", "dsdv-chain"} <= set(SPECS)


@pytest.mark.parametrize("name", SPECS)
def test_network_gives_ns2s_trace(name, tmp_path):
    shutil.copy(AODV / "spec.tcl", tmp_path / "spec.tcl")
    shutil.copy(AODV / f"{name}.spec", tmp_path / f"{name}.spec")
    r = subprocess.run(
        [sys.executable, "-m", "dumbbell.cli", "run", "spec.tcl", f"{name}.spec"],
        cwd=tmp_path, capture_output=True, timeout=300,
        env={"PYTHONPATH": str(ROOT / "python"), "PATH": "/usr/bin:/bin"},
    )
    assert r.returncode == 0, r.stderr.decode()
    want = gzip.decompress((AODV / f"{name}.tr.gz").read_bytes())
    got = (tmp_path / f"{name}.tr").read_bytes()
    assert got == want, first_difference(want, got)
