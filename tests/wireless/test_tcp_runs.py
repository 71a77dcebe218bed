"""Random wireless networks with TCP transfers (tests/wireless/tcp/:
gen.py's networks of 3 to 9 nodes, Tahoe/Reno/NewReno/SACK senders with
ACK-every or delayed-ACK sinks, CBR beside them, nodes moving, AODV or
DSDV, either trace format, MAC trace on or off, RTS/CTS on or off, 1 or 2
Mb/s) run by `dumbbell run` from their ns-2 script (spec.tcl) and
compared byte for byte with the trace and stdout the real ns-2 2.35 wrote
(`sh tests/wireless/tcp/regen.sh` regenerates them).  The fourteen stored
here are a sample of sixty (`python3 tests/wireless/tcp/check.py -n 60 -s
1` runs them all against /usr/bin/ns); t1-34 is the one that found the
MAC's duplicate drop counting the reception (tests/ns2 case
wireless_mac_dup_old).
"""

from __future__ import annotations

import gzip
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
TCP = HERE / "tcp"
ROOT = HERE.parents[1]

SPECS = sorted(p.stem for p in TCP.glob("*.spec"))


def first_difference(want: bytes, got: bytes) -> str:
    a, b = want.split(b"\n"), got.split(b"\n")
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return f"line {i + 1}:\n  ns-2:     {x.decode()}\n  dumbbell: {y.decode()}"
    return f"ns-2 {len(a)} lines, dumbbell {len(b)}"


def test_the_sample_covers_both_protocols_formats_and_the_mac_trace():
    texts = [(TCP / f"{s}.spec").read_text() for s in SPECS]
    assert len(SPECS) == 14
    assert sum("routing DSDV" in t for t in texts) >= 4 and sum("routing AODV" in t for t in texts) >= 4
    assert sum("trace new" in t for t in texts) >= 4 and sum("mac on" in t for t in texts) >= 4
    assert sum("moves" in t for t in texts) >= 8 and all("tcp " in t for t in texts)
    # half the transfers or more move data (ack_ above 0 at the end; the
    # others' ends are out of reach of each other all along)
    acks = [int(ln.split()[3]) for s in SPECS for ln in (TCP / f"{s}.out").read_text().splitlines()
            if ln.startswith("tcp ")]
    assert len(acks) >= 25 and sum(a > 0 for a in acks) >= 0.5 * len(acks)


@pytest.mark.parametrize("name", SPECS)
def test_network_gives_ns2s_trace(name, tmp_path):
    shutil.copy(TCP / "spec.tcl", tmp_path / "spec.tcl")
    shutil.copy(TCP / f"{name}.spec", tmp_path / f"{name}.spec")
    r = subprocess.run(
        [sys.executable, "-m", "dumbbell.cli", "run", "spec.tcl", f"{name}.spec"],
        cwd=tmp_path, capture_output=True, timeout=300,
        env={"PYTHONPATH": str(ROOT / "python"), "PATH": "/usr/bin:/bin"},
    )
    assert r.returncode == 0, r.stderr.decode()
    want = gzip.decompress((TCP / f"{name}.tr.gz").read_bytes())
    got = (tmp_path / f"{name}.tr").read_bytes()
    assert got == want, first_difference(want, got)
    assert r.stdout == (TCP / f"{name}.out").read_bytes()
