from __future__ import annotations

import pathlib
import shutil
import subprocess
import sys

import pytest

HERE = pathlib.Path(__file__).parent
ROOT = HERE.parent.parent


@pytest.fixture(scope="session")
def ns2_fixtures():
    return ROOT / "tests" / "ns2" / "fixtures"


@pytest.fixture(scope="session")
def ecn_page(tmp_path_factory):
    """A RED/ECN bottleneck that marks (tests/anim/scripts/ecn_marks.tcl), run
    with dumbbell and animated."""
    from dumbbell.anim import animate

    d = tmp_path_factory.mktemp("ecn")
    shutil.copy(HERE / "scripts" / "ecn_marks.tcl", d)
    dumbbell = pathlib.Path(sys.executable).with_name("dumbbell")
    subprocess.run([str(dumbbell), "run", "ecn_marks.tcl"], cwd=d, check=True, capture_output=True)
    animate(d / "out.nam", d / "out.html", warn=lambda _: None)
    return d / "out.nam", d / "out.html"
