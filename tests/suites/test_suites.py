"""ns-2's own validation suites under `dumbbell run` (see run_suites.py).

Runs when Debian's ns2-examples package provides the suites and their
reference outputs; skipped otherwise.  Every test listed here must keep
matching ns-2's reference output byte for byte.
"""

import os
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import run_suites as rs  # noqa: E402

pytestmark = pytest.mark.skipif(not (rs.EXAMPLES / "test").is_dir(), reason="ns2-examples not installed")

EXPECTED = rs.EXPECTED


@pytest.mark.parametrize("suite", sorted(EXPECTED))
def test_suite_matches_ns2_reference(suite):
    file, directory, tests = rs.suite_info(suite)
    want = EXPECTED[suite] or tests
    with ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        results = dict(pool.map(lambda t: rs.run_test(rs.DEFAULT_NS, suite, file, directory, t, 300.0), want))
    bad = {t: r for t, r in results.items() if r != "PASS"}
    assert not bad, f"{suite}: {len(bad)}/{len(want)} differ from ns-2: {bad}"
