"""The 802.11 networks crates/engine/tests/dcf.rs runs with the radio
stack alone, now run whole by `dumbbell run` from their ns-2 scripts
(tests/wireless/dcf/dcf.tcl and spec.tcl: DumbAgent routing, CBR/UDP
flows, MAC trace on) and compared byte for byte with the trace the real
ns-2 2.35 wrote for each (`sh tests/wireless/dcf/regen.sh` regenerates
them): the twelve chosen networks, two of them again in use-newtrace's
format, the ninety random ones of random/, moving ones included, and the
thirty of random-prop/ over free space and shadowing.
"""

from __future__ import annotations

import gzip
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
DCF = HERE / "dcf"
ROOT = HERE.parents[1]

CHOSEN = ["pair", "three", "garbled", "busy", "hidden", "capture", "crowd", "line",
          "norts", "fast", "oldtimer", "oldtimer-norts"]
RUNS = [("dcf.tcl", [s], f"{s}.tr", f"{s}.tr.gz") for s in CHOSEN]
RUNS += [("dcf.tcl", [s, "new"], f"{s}-new.tr", f"{s}-new.tr.gz") for s in ["busy", "crowd"]]
RUNS += [("spec.tcl", [p.name], f"{p.stem}.tr", f"random/{p.stem}.tr.gz")
         for p in sorted((DCF / "random").glob("*.spec"))]
PROP = [("spec.tcl", [p.name], f"{p.stem}.tr", f"random-prop/{p.stem}.tr.gz")
        for p in sorted((DCF / "random-prop").glob("*.spec"))]
RUNS += PROP


def first_difference(want: bytes, got: bytes) -> str:
    a, b = want.split(b"\n"), got.split(b"\n")
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return f"line {i + 1}:\n  ns-2:     {x.decode()}\n  dumbbell: {y.decode()}"
    return f"ns-2 {len(a)} lines, dumbbell {len(b)}"


def test_every_random_network_is_run():
    assert len(RUNS) == 14 + 90 + 30


@pytest.mark.parametrize("script,args,out,fixture", RUNS, ids=[" ".join(r[1]) for r in RUNS])
def test_network_gives_ns2s_trace(script, args, out, fixture, tmp_path):
    shutil.copy(DCF / script, tmp_path / script)
    if script == "spec.tcl":
        shutil.copy(DCF / Path(fixture).parent / args[0], tmp_path / args[0])
    r = subprocess.run(
        [sys.executable, "-m", "dumbbell.cli", "run", script, *args],
        cwd=tmp_path, capture_output=True, timeout=300,
        env={"PYTHONPATH": str(ROOT / "python"), "PATH": "/usr/bin:/bin"},
    )
    assert r.returncode == 0, r.stderr.decode()
    want = gzip.decompress((DCF / fixture).read_bytes())
    got = (tmp_path / out).read_bytes()
    assert got == want, first_difference(want, got)
