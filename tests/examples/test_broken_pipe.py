"""The examples with `--json` end quietly when their reader goes
(`... --json | head -1`): exit by SIGPIPE as Unix tools do, no
traceback (they used to print BrokenPipeError's)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_json_output_into_a_closed_pipe_ends_without_a_traceback():
    # seed 003's quick run prints its rows after its runs: a reader that
    # takes the first line and leaves makes the writer meet a closed pipe
    p = subprocess.Popen([sys.executable, str(ROOT / "examples" / "seed003_ecnmod.py"), "--quick", "--json",
                          "--jobs", "2"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         env={**os.environ, "PYTHONPATH": str(ROOT / "python")})
    first = p.stdout.readline()
    p.stdout.close()
    err = p.stderr.read().decode()
    rc = p.wait(timeout=120)
    assert first.startswith(b"{")
    assert "Traceback" not in err and "BrokenPipe" not in err, err
    assert rc in (0, -signal.SIGPIPE), (rc, err)
