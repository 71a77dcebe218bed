"""tools/ns2bin/ns2oldns.pl, Dumbbell's tagged-to-positional trace
converter (Perl, unlike the other helpers: the tagged-trace suite runs it
as "$PERL -I../../bin ../../bin/ns2oldns.pl"), against the output of
ns-2's original for fixtures/tagged.tr (expected/ns2oldns.out, made by
regen.sh): tagged packet lines with ECN flags, h and v lines, comments,
tags out of order or repeated, bracketed and quoted values, unclosed
groups, and a line without a time, which ends the conversion."""

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BIN = ROOT / "tools" / "ns2bin"
FIXTURES = Path(__file__).resolve().parent / "fixtures"

pytestmark = pytest.mark.skipif(shutil.which("perl") is None, reason="perl not installed")


def convert(stdin: bytes, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["perl", f"-I{BIN}", str(BIN / "ns2oldns.pl"), *args],
                          input=stdin, capture_output=True, timeout=30)


def test_same_bytes_as_ns2_original():
    r = convert((FIXTURES / "tagged.tr").read_bytes())
    assert r.returncode == 0 and r.stderr == b""
    assert r.stdout == (FIXTURES / "expected" / "ns2oldns.out").read_bytes()


def test_arguments_are_ignored_as_by_the_original():
    r = convert(b"+ 1 -s 0 -d 1 -p tcp -e 40 -c 0 -i 3 -a 0 -x {0.0 1.0 2 ------- null}\n", "no-such-file")
    assert r.stdout == b"+ 1 0 1 tcp 40 ------- 0 0.0 1.0 2 3\n"


def test_the_suites_prerequisite_modules_load():
    # test-suite-tagged-trace.tcl skips Format-simple unless these load.
    r = subprocess.run(["perl", f"-I{BIN}", "-MNS::TraceFileEvent", "-MNS::TraceFileReader",
                        "-MNS::TraceFileWriter", "-e", "exit"], capture_output=True, timeout=30)
    assert r.returncode == 0, r.stderr
