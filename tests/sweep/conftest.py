"""Shared helpers of the sweep tests: small, fast scripts in a temporary
plan directory, and a log that counts the runs that really executed."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

# argv: x [ms [bad]]: logs "start x", "pid N" and "done x" to $SWEEP_LOG, sleeps ms,
# exits 1 when x == bad, prints "result x=.. sq=.." and a last line "2x 3x".
COUNT_TCL = r"""
set x [lindex $argv 0]
set ms [expr {$argc >= 2 ? [lindex $argv 1] : 0}]
proc logline {what} {
    global env
    if {[info exists env(SWEEP_LOG)]} {
        set f [open $env(SWEEP_LOG) a]
        puts $f $what
        close $f
    }
}
logline "start $x"
logline "pid [pid]"
if {$ms > 0} { after $ms }
if {$argc >= 3 && $x == [lindex $argv 2]} {
    puts stderr "count.tcl: x = $x is refused"
    exit 1
}
puts "result x=$x sq=[expr {$x * $x}]"
puts "[expr {$x * 2}] [expr {$x * 3}]"
logline "done $x"
"""


class Log:
    """The runs that executed, from the scripts' own log lines."""

    def __init__(self, path: Path):
        self.path = path

    def lines(self, kind="start"):
        if not self.path.exists():
            return []
        return [ln.split(" ", 1)[1] for ln in self.path.read_text().splitlines() if ln.startswith(kind + " ")]

    def clear(self):
        self.path.unlink(missing_ok=True)


@pytest.fixture
def plandir(tmp_path):
    """A plan directory with basic2.tcl (examples/seed002: the book's, with argv) and count.tcl."""
    shutil.copy(ROOT / "examples" / "seed002" / "basic2.tcl", tmp_path / "basic2.tcl")
    (tmp_path / "count.tcl").write_text(COUNT_TCL)
    return tmp_path


@pytest.fixture
def runlog(tmp_path, monkeypatch):
    log = Log(tmp_path / "runs.log")
    monkeypatch.setenv("SWEEP_LOG", str(log.path))
    return log


BASIC2_COLUMNS = ["_", "_", "recv0", "recv1", "rttratio", "rttratio2", "actualratio", "ratio1", "ratio2"]
