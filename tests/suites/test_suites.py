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

# suite -> tests that must pass (None: all of the suite's tests)
EXPECTED = {
    "ecn": None,
    "newreno": None,
    "sack": None,
    "testReno": None,
    "tcpHighspeed": None,
    "red": None,
    "tcp": None,
    "rfc2581": None,
    "LimTransmit": None,
    "tcp-init-win": None,
    "aimd": None,
    "adaptive-red": None,
    "oddBehaviors": None,
    "tcpReset": None,
    "misc": None,
    "rng": None,
    "monitor": None,
    # example2 needs SFQ, example3 rtproto DV, ping and pingOneWay Agent/Ping
    "greis": ["example1", "example1a", "example1b", "example4"],
    # statsTFRC needs TFRC
    "simple": ["tahoe1", "tahoe1Bytes", "tahoe1RED", "tahoe1REDbytes", "tahoe2", "tahoe3", "tahoe3RED", "tahoe4",
               "no_bug", "bug", "reno1", "reno", "renoA", "reno2", "reno3", "reno4", "reno4a", "reno5",
               "reno5_nobug", "telnet", "delayed", "phase", "phase1", "phase2", "timers", "manyflows", "stats",
               "statsECN", "stats1", "stats1Bytes", "stats1a", "stats1aBytes", "statsHeaders", "stats2", "stats3",
               "stats4"],
    "frto": None,
    "links": None,
    "rfc793edu": None,
    # wireless needs wireless nodes
    "tagged-trace": ["simple", "Format-simple"],
    # the other three need the RBP senders (Agent/TCP/Vegas/RBP, /Reno/RBP)
    "rbp": ["reno_slow_start_restart", "reno_no_slow_start_restart", "vegas_slow_start_restart",
            "vegas_no_slow_start_restart"],
}


@pytest.mark.parametrize("suite", sorted(EXPECTED))
def test_suite_matches_ns2_reference(suite):
    file, directory, tests = rs.suite_info(suite)
    want = EXPECTED[suite] or tests
    with ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        results = dict(pool.map(lambda t: rs.run_test(rs.DEFAULT_NS, suite, file, directory, t, 300.0), want))
    bad = {t: r for t, r in results.items() if r != "PASS"}
    assert not bad, f"{suite}: {len(bad)}/{len(want)} differ from ns-2: {bad}"
