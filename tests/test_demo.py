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


def test_the_installed_dumbbell_command_runs_a_script_and_imports_little(tmp_path):
    # `make build` installs the command beside the environment's Python (a
    # plain script, python/dumbbell.data/scripts/dumbbell).  Start-up keeps
    # clear of modules that cost milliseconds per run.
    exe = Path(sys.executable).with_name("dumbbell")
    assert exe.is_file() and os.access(exe, os.X_OK), f"{exe}: not installed or not executable (make build)"
    (tmp_path / "s.tcl").write_text('set ns [new Simulator]\n$ns at 1.0 {puts "at [$ns now]"; exit 0}\n$ns run\n')
    r = subprocess.run([str(exe), "run", "s.tcl"], cwd=tmp_path, capture_output=True, text=True, timeout=60,
                       env={**os.environ, "PYTHONPROFILEIMPORTTIME": "1"})
    assert r.returncode == 0, r.stderr
    assert r.stdout == "at 1\n"
    imported = {line.split("|")[-1].strip() for line in r.stderr.splitlines() if line.startswith("import time:")}
    assert "dumbbell.cli" in imported
    assert not imported & {"re", "argparse", "pathlib", "__future__", "tkinter", "polars", "numpy"}, imported
