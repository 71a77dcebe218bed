"""The 49 networks of tests/wireless/aodv/ (AODV and DSDV, CBR/UDP flows,
movements, either trace format, MAC trace on or off) with ns-2's preamble
TDMA MAC in 802.11's place (`-macType Mac/Tdma`), run by the real ns-2
2.35 and by `dumbbell run` side by side and compared byte for byte (trace
and stdout).  The oracle runs live: the tests are skipped where
/usr/bin/ns is not installed (the stored Mac/Tdma fixtures are
tests/ns2/cases.json's `wireless_tdma_*`).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
AODV = HERE / "aodv"
ROOT = HERE.parents[1]
NS = Path("/usr/bin/ns")

SPECS = sorted(p.stem for p in AODV.glob("*.spec"))

pytestmark = pytest.mark.skipif(not NS.exists(), reason="the real ns-2 (/usr/bin/ns) is not installed")


def tdma_script(dest: Path) -> None:
    text = (AODV / "spec.tcl").read_text()
    assert "-macType Mac/802_11" in text
    dest.write_text(text.replace("-macType Mac/802_11", "-macType Mac/Tdma"))


def first_difference(want: bytes, got: bytes) -> str:
    a, b = want.split(b"\n"), got.split(b"\n")
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return f"line {i + 1}:\n  ns-2:     {x.decode()}\n  dumbbell: {y.decode()}"
    return f"ns-2 {len(a)} lines, dumbbell {len(b)}"


@pytest.mark.parametrize("name", SPECS)
def test_tdma_network_gives_ns2s_trace(name, tmp_path):
    out = {}
    for who, cmd in (("ns", [str(NS)]), ("db", [sys.executable, "-m", "dumbbell.cli", "run"])):
        d = tmp_path / who
        d.mkdir()
        tdma_script(d / "spec.tcl")
        shutil.copy(AODV / f"{name}.spec", d / f"{name}.spec")
        r = subprocess.run(
            cmd + ["spec.tcl", f"{name}.spec"], cwd=d, capture_output=True, timeout=300,
            env={"PYTHONPATH": str(ROOT / "python"), "PATH": "/usr/bin:/bin"},
        )
        assert r.returncode == 0, (who, r.stderr.decode())
        out[who] = ((d / f"{name}.tr").read_bytes(), r.stdout)
    (want, want_out), (got, got_out) = out["ns"], out["db"]
    assert got == want, first_difference(want, got)
    assert got_out == want_out
