"""Generated scenarios on which the real ns-2 dies of a signal: Dumbbell
stops at the same point with an error that says why, and exit status 1
(ns-2's traces are lost with it, so there is no fixture to compare).

Found by `check.py --xcp -n 100 -s 500` (seed 579: ns-2 2.35 gets SIGFPE
in `XcpEndsys::send`, `divsd` by a window of 0 after Reno halved a
one-packet window to 0.5; gdb's backtrace in the commit message)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))

import gen  # noqa: E402


def test_xcp_sender_with_a_zero_window_stops_as_ns2_does(tmp_path):
    text = gen.build(579, xcp=True)[0]
    (tmp_path / "script.tcl").write_text(text, newline="\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "python") + os.pathsep + os.environ.get("PYTHONPATH", "")}
    r = subprocess.run([sys.executable, "-m", "dumbbell.cli", "run", "script.tcl"], cwd=tmp_path,
                       capture_output=True, timeout=300, env=env)
    err = r.stderr.decode(errors="replace")
    assert r.returncode == 1, err[-2000:]
    assert "(an XCP sender): it sends with a window of 0 packets (cwnd_ 0.5" in err, err[-2000:]
    assert "ns-2 crashes here (floating-point exception)" in err
    assert "Traceback" not in err
