"""Differential tests of python/dumbbell/ns2/tcl/otcl.tcl against real OTcl.

Every tests/otcl/cases/<name>.tcl is run under our implementation (in
tkinter's Tcl) and its standard output must equal
tests/otcl/expected/<name>.out, which tests/otcl/regen.sh produced by
running the same script with /usr/bin/ns (OTcl 1.14 + tclcl 1.20).
"""
import glob
import os

import pytest

from runcase import run_case

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = sorted(glob.glob(os.path.join(HERE, "cases", "*.tcl")))


def _name(path):
    return os.path.splitext(os.path.basename(path))[0]


def test_have_cases():
    assert len(CASES) >= 25
    for c in CASES:
        assert os.path.exists(
            os.path.join(HERE, "expected", _name(c) + ".out")), _name(c)


@pytest.mark.parametrize("case", CASES, ids=[_name(c) for c in CASES])
def test_case(case):
    with open(os.path.join(HERE, "expected", _name(case) + ".out")) as f:
        expected = f.read()
    cwd = os.getcwd()
    os.chdir(os.path.join(HERE, "cases"))
    try:
        out, err = run_case(case)
    finally:
        os.chdir(cwd)
    assert err is None, err
    assert out == expected
