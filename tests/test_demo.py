"""`dumbbell demo` (what `make demo` runs): basic1 through the ns-2 layer,
a summary with the book's figures, and a cwnd plot."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_demo_prints_book_figures_and_writes_a_plot(tmp_path):
    r = subprocess.run(
        [sys.executable, "-m", "dumbbell.cli", "demo"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT / "python")},
    )
    assert r.returncode == 0, r.stderr
    assert "packets acknowledged: 809 (book: 809)" in r.stdout
    assert "first at t=0.58616" in r.stdout
    assert "cwnd peak after slow start: 20.935" in r.stdout
    png = tmp_path / "demo-output" / "basic1-cwnd.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
