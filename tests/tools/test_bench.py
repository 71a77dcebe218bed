"""benches/run.py: a simulator that fails at a point is reported in its
column and the benchmark goes on (ns-3.37 crashes at 16 100 DropTail 100).
The timings themselves are not tested: the benchmark asserts nothing about
time."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_a_crashing_ns3_is_reported_and_the_benchmark_goes_on(tmp_path):
    fake = tmp_path / "dumbbell-ns3"
    fake.write_text("#!/bin/sh\nkill -SEGV $$\n")
    fake.chmod(0o755)
    r = subprocess.run(
        [sys.executable, str(ROOT / "benches" / "run.py"), "--reps", "1", "--ns", "", "--ns3", str(fake),
         "--points", "2 10 DropTail 0.5", "2 10 DropTail 1"],
        capture_output=True, text=True, timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT / "python")},
    )
    assert r.returncode == 0, r.stderr
    rows = [line for line in r.stdout.splitlines() if line.startswith("| 2 10 DropTail")]
    assert len(rows) == 2, r.stdout
    for row in rows:
        assert "failed (exit -11)" in row
    assert "ns-3 failed at 2 10 DropTail 0.5" in r.stderr
