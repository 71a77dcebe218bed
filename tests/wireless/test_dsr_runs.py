"""The DSR networks of tests/wireless/dsr/ (28 of them: a chain of three
with the MAC trace, a chain of four with Queue/DropTail/PriQueue, a chain
of five with flows both ways, two networks whose links break -- salvaging,
route errors, send failures, send-buffer time-outs --, TCP over three hops
with CBR the other way, TCP with a relay leaving, twenty random ones
of random.py, and flowerr, a denser random one of dense.py whose flows
break often enough for flow-state errors, `SFErr` and `SFEr`), run whole by `dumbbell run` from their ns-2 script
(spec.tcl: `-adhocRouting DSR`, CBR/UDP and TCP, movements, either trace
format, MAC trace on or off) and compared byte for byte with the trace
and the nam file the real ns-2 2.35 wrote for each (`sh
tests/wireless/dsr/regen.sh` regenerates them).  The trace holds the DSR
agent's own lines too (`Sconfig`, `SFs`/`SFESTs`/`SFf`, `Ssb`, `Ssalv`,
`SSendFailure`).
"""

from __future__ import annotations

import gzip
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
DSR = HERE / "dsr"
ROOT = HERE.parents[1]

SPECS = sorted(p.stem for p in DSR.glob("*.spec"))


def first_difference(want: bytes, got: bytes) -> str:
    a, b = want.split(b"\n"), got.split(b"\n")
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return f"line {i + 1}:\n  ns-2:     {x.decode()}\n  dumbbell: {y.decode()}"
    return f"ns-2 {len(a)} lines, dumbbell {len(b)}"


def test_every_network_is_run():
    assert len([s for s in SPECS if s.startswith("r3-")]) == 20
    assert len(SPECS) == 28
    assert {"flowerr", "chain3", "chain4_pri", "chain5_new", "repair", "repair_new", "tcp", "tcp_new_move"} <= set(SPECS)


@pytest.mark.parametrize("name", SPECS)
def test_network_gives_ns2s_trace_and_nam(name, tmp_path):
    shutil.copy(DSR / "spec.tcl", tmp_path / "spec.tcl")
    shutil.copy(DSR / f"{name}.spec", tmp_path / f"{name}.spec")
    r = subprocess.run(
        [sys.executable, "-m", "dumbbell.cli", "run", "spec.tcl", f"{name}.spec"],
        cwd=tmp_path, capture_output=True, timeout=300,
        env={"PYTHONPATH": str(ROOT / "python"), "PATH": "/usr/bin:/bin"},
    )
    assert r.returncode == 0, r.stderr.decode()
    for ext in ("tr", "nam"):
        want = gzip.decompress((DSR / f"{name}.{ext}.gz").read_bytes())
        got = (tmp_path / f"{name}.{ext}").read_bytes()
        assert got == want, f"{name}.{ext} " + first_difference(want, got)
