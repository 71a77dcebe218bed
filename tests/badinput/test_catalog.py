"""The bad-input catalog (scripts.txt; README.md says the format): each
case's exit status and messages, and never a traceback, a panic, a
signal or a hang."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]

MACROS = {
    "@HEAD": """set ns [new Simulator]
set a [$ns node]
set b [$ns node]
$ns duplex-link $a $b 1Mb 10ms DropTail""",
    "@TCP": """set tcp [new Agent/TCP]
$ns attach-agent $a $tcp
set sink [new Agent/TCPSink]
$ns attach-agent $b $sink
$ns connect $tcp $sink
set ftp [new Application/FTP]
$ftp attach-agent $tcp
$ns at 0.1 "$ftp start\"""",
}


@dataclass
class Case:
    name: str
    line: int
    exit: int = 1
    stderr: list[str] = field(default_factory=list)
    not_stderr: list[str] = field(default_factory=list)
    stdout: list[str] = field(default_factory=list)
    not_stdout: list[str] = field(default_factory=list)
    script: str = ""


def _script(body: list[str]) -> str:
    """The script of a case: its lines up to the next case, less the
    comments and blank lines at its end (they introduce the next case)."""
    while body and (not body[-1].strip() or body[-1].startswith("#")):
        body.pop()
    return "\n".join(body).strip("\n") + "\n"


def parse(path: Path) -> list[Case]:
    cases: list[Case] = []
    cur: Case | None = None
    in_script = False
    body: list[str] = []
    for n, line in enumerate(path.read_text().splitlines(), 1):
        if line.startswith("=== "):
            if cur is not None:
                cur.script = _script(body)
                cases.append(cur)
            cur, in_script, body = Case(line[4:].strip(), n), False, []
            continue
        if cur is None or (not in_script and (not line.strip() or line.startswith("#"))):
            continue
        if in_script:
            body.append(MACROS.get(line.strip(), line))
        elif line.strip() == "---":
            in_script = True
        else:
            key, _, val = line.partition(": ")
            if key == "exit":
                cur.exit = int(val)
            elif key == "stderr":
                cur.stderr.append(val)
            elif key == "not-stderr":
                cur.not_stderr.append(val)
            elif key == "stdout":
                cur.stdout.append(val)
            elif key == "not-stdout":
                cur.not_stdout.append(val)
            else:
                raise ValueError(f"{path.name}:{n}: unknown header {line!r}")
    if cur is not None:
        cur.script = _script(body)
        cases.append(cur)
    names = [c.name for c in cases]
    dup = {x for x in names if names.count(x) > 1}
    if dup:
        raise ValueError(f"{path.name}: duplicate case names {sorted(dup)}")
    return cases


CASES = parse(HERE / "scripts.txt")

# What must never be seen, whatever the case.
NEVER = ["Traceback (most recent call last)", "internal error in the engine", "panicked at", "dumbbell: internal error",
         # an error is `file:line: message`, without Tcl's traceback or the
         # names of Dumbbell's own Tcl (DUMBBELL_DEBUG=1 shows those)
         "Tcl traceback", "invoked from within", "::otcl::", "::dumbbell::", "source.orig"]


def run_case(tmp_path: Path, c: Case) -> subprocess.CompletedProcess:
    script = tmp_path / "s.tcl"
    script.write_text(c.script)
    return subprocess.run(
        [sys.executable, "-m", "dumbbell.cli", "run", "s.tcl"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(ROOT / "python")},
    )


def test_catalog_is_large_enough_and_well_formed():
    assert len(CASES) >= 75, len(CASES)
    for c in CASES:
        assert c.script.strip(), c.name
        assert c.exit != 1 or c.stderr, f"{c.name}: an error case names its message"


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_case(tmp_path, case):
    r = run_case(tmp_path, case)
    where = f"scripts.txt:{case.line} ({case.name})"
    assert r.returncode >= 0, f"{where}: killed by signal {-r.returncode}"
    for bad in NEVER:
        assert bad not in r.stderr, f"{where}: {bad!r} in\n{r.stderr}"
    assert r.returncode == case.exit, f"{where}: exit {r.returncode}, expected {case.exit}\n{r.stderr}"
    for s in case.stderr:
        assert s in r.stderr, f"{where}: {s!r} not in stderr:\n{r.stderr}"
    for s in case.not_stderr:
        assert s not in r.stderr, f"{where}: {s!r} in stderr:\n{r.stderr}"
    for s in case.stdout:
        assert s in r.stdout, f"{where}: {s!r} not in stdout:\n{r.stdout}"
    for s in case.not_stdout:
        assert s not in r.stdout, f"{where}: {s!r} in stdout:\n{r.stdout}"
    if case.exit == 1 and r.stderr.startswith("dumbbell: error: "):
        # one line saying what, then where (if the error has a line)
        first = r.stderr.splitlines()[0]
        assert len(first) < 600, f"{where}: an error's first line is a sentence, not a dump"
        assert not re.search(r"\b_o\d+ init\b", first), f"{where}: internal names in {first!r}"
