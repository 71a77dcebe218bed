"""`dumbbell run` of a script written into a test's directory: the helper
the tests of ns-2 classes here share."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(tmp_path: Path, script: str, name: str = "s.tcl") -> subprocess.CompletedProcess:
    """Write `script` as `tmp_path/name` and run it there with `dumbbell run`
    (this clone's package), text output captured."""
    (tmp_path / name).write_text(script)
    return subprocess.run(
        [sys.executable, "-m", "dumbbell.cli", "run", name],
        cwd=tmp_path, capture_output=True, text=True, timeout=300,
        env={**os.environ, "PYTHONPATH": str(ROOT / "python")},
    )
