"""The API examples print the book's numbers (and ns-2's) and save plots."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from api_scenarios import ROOT, fixture_stdout

EXAMPLES = ROOT / "examples"
ENV = {**os.environ, "PYTHONPATH": str(ROOT / "python")}


def _run(tmp_path, script, *args):
    r = subprocess.run([sys.executable, str(EXAMPLES / script), *args], cwd=tmp_path, capture_output=True,
                       text=True, env=ENV, timeout=300)
    assert r.returncode == 0, r.stderr
    return r.stdout.splitlines()


def test_api_basic1(tmp_path):
    out = _run(tmp_path, "api_basic1.py")
    assert out[0] == "final ack: 808, final seq num: 829"
    assert "cwnd peaks after slow start: 20.931, 20.934, 20.934 " in out[3]
    assert (tmp_path / "basic1-cwnd.png").read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize("delayB", ["0", "36"])
def test_api_basic2(tmp_path, delayB):
    out = _run(tmp_path, "api_basic2.py", delayB)
    assert out[:2] == fixture_stdout(f"basic2_d{delayB}")[:2]
    assert (tmp_path / "basic2-cwnd.png").read_bytes()[:4] == b"\x89PNG"


def test_api_basic2_needs_delayB(tmp_path):
    r = subprocess.run([sys.executable, str(EXAMPLES / "api_basic2.py")], cwd=tmp_path, capture_output=True,
                       text=True, env=ENV, timeout=60)
    assert r.returncode != 0 and "delayB" in r.stderr
