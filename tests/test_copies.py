"""Scripts shipped in more than one place must stay identical copies."""

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_basic1_copies_are_identical():
    ref = (ROOT / "examples" / "basic1.tcl").read_bytes()
    assert (ROOT / "python" / "dumbbell" / "data" / "basic1.tcl").read_bytes() == ref
    assert (ROOT / "tests" / "ns2" / "scripts" / "basic1.tcl").read_bytes() == ref


def test_benchmark_script_copies_are_identical():
    ref = (ROOT / "benches" / "dumbbell-ns2.tcl").read_bytes()
    assert (ROOT / "tests" / "ns2" / "scripts" / "dumbbell-ns2.tcl").read_bytes() == ref
    shared = ROOT.parent / "shared" / "bench" / "dumbbell-ns2.tcl"
    if not shared.exists():
        pytest.skip("no ../shared (the project's shared files) beside this clone")
    assert shared.read_bytes() == ref


def test_ns3_benchmark_program_is_the_shared_one():
    """benches/dumbbell-ns3.cc is the project's shared ns-3 workload."""
    shared = ROOT.parent / "shared" / "bench" / "dumbbell-ns3.cc"
    if not shared.exists():
        pytest.skip("no ../shared (the project's shared files) beside this clone")
    assert shared.read_bytes() == (ROOT / "benches" / "dumbbell-ns3.cc").read_bytes()


def test_dordal_basic2_copies_are_identical():
    ref = (ROOT / "examples" / "seed002" / "basic2.tcl").read_bytes()
    assert (ROOT / "tests" / "ns2" / "scripts" / "dordal_basic2.tcl").read_bytes() == ref
