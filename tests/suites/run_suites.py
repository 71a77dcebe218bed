#!/usr/bin/env python3
"""Run ns-2's own validation suites under `dumbbell run` and compare each
test's output with ns-2's reference output.

    python3 tests/suites/run_suites.py [SUITE[:TEST,TEST..] ...] [-j N] [--ns CMD]

The suites and their reference outputs come from Debian's `ns2-examples`
package (/usr/share/doc/ns2/examples/tcl/test, `test-suite-NAME.tcl` and
`test-output-NAME/TEST.gz`); they are ns-2's files and are not copied into
this repository.  Each test runs as ns-2's own driver (test-all-template1)
runs it: `ns test-suite-NAME.tcl TEST QUIET` in a copy of the test
directory, with the trace post-processors (getrc, raw2xg, ...) in ../../bin
-- Dumbbell's own versions from tools/ns2bin -- and the test passes when
the `temp.rands` it writes equals the reference byte for byte.

Prints "SUITE passed/total" per suite and the failing tests; exit status 0
when nothing failed.  `--ns /usr/bin/ns` runs the real ns-2 instead (the
oracle: it passes everything).
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import gzip
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = Path(os.environ.get("NSTCL", "/usr/share/doc/ns2/examples/tcl"))
NSBIN = ROOT / "tools" / "ns2bin"
DEFAULT_NS = [str(ROOT / ".venv" / "bin" / "dumbbell"), "run"]


def suite_info(suite: str) -> tuple[str, str, list[str]]:
    """(suite file, reference directory, test names) from test-all-SUITE."""
    test = EXAMPLES / "test"
    driver = (test / f"test-all-{suite}").read_text()
    m = re.search(r'^file="?([^"\s]+)"?', driver, re.M)
    file = m.group(1) if m and "$" not in m.group(1) else f"test-suite-{suite}.tcl"
    m = re.search(r'^directory="?([^"\s]+)"?', driver, re.M)
    directory = m.group(1) if m and "$" not in m.group(1) else f"test-output-{suite}"
    text = (test / file).read_text(errors="replace")
    names = re.findall(r"^Class Test/(\S+)", text, re.M) or re.findall(r"^proc test_(\S+)", text, re.M)
    seen, tests = set(), []
    for n in names:
        if n not in seen:
            seen.add(n)
            tests.append(n)
    return file, directory, tests


def run_test(ns: list[str], suite: str, file: str, directory: str, name: str, timeout: float) -> tuple[str, str]:
    ref = EXAMPLES / "test" / directory / f"{name}.gz"
    if not ref.exists():
        return name, "NOREF"
    with tempfile.TemporaryDirectory(prefix=f"suite-{suite}-") as tmp:
        tmp = Path(tmp)
        work = tmp / "tcl" / "test"
        work.mkdir(parents=True)
        for f in (EXAMPLES / "test").iterdir():
            if f.is_file():
                # Tests write files that the example tree also holds (temp.1,
                # temp.s, t1, all.nam ...): through a symlink they would
                # overwrite the shared copy, and tests running in parallel
                # would race on it.  Small files are copied; the suites, their
                # drivers and the compressed references are only read.
                if f.suffix == ".gz" or f.name.startswith(("test-suite-", "test-all-")):
                    os.symlink(f, work / f.name)
                else:
                    shutil.copyfile(f, work / f.name)
        for d in EXAMPLES.iterdir():
            if d.name != "test":
                os.symlink(d, tmp / "tcl" / d.name)
        os.symlink(NSBIN, tmp / "bin")
        try:
            p = subprocess.run([*ns, file, name, "QUIET"], cwd=work, capture_output=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return name, "TIMEOUT"
        if p.returncode == 2:
            return name, "SKIP"
        out = work / "temp.rands"
        if not out.exists():
            return name, "FAIL (no temp.rands)"
        want = gzip.decompress(ref.read_bytes())
        return name, "PASS" if out.read_bytes() == want else "FAIL"


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("suites", nargs="*", default=["ecn", "newreno", "sack", "testReno", "tcpHighspeed", "red", "tcp", "rfc2581",
                                                 "tcp-init-win", "aimd", "adaptive-red", "LimTransmit", "oddBehaviors",
                                                 "simple", "links", "frto"])
    ap.add_argument("-j", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--ns", default=None, help="ns-compatible command (default: .venv/bin/dumbbell run)")
    ap.add_argument("--timeout", type=float, default=300.0)
    a = ap.parse_args(argv)
    if not (EXAMPLES / "test").is_dir():
        print(f"no ns-2 example tree at {EXAMPLES} (apt-get install ns2-examples, or set NSTCL)", file=sys.stderr)
        return 2
    ns = a.ns.split() if a.ns else DEFAULT_NS
    failed = 0
    with cf.ThreadPoolExecutor(a.j) as pool:
        for spec in a.suites:
            suite, _, only = spec.partition(":")
            file, directory, tests = suite_info(suite)
            if only:
                tests = [t for t in tests if t in only.split(",")]
            results = dict(pool.map(lambda t: run_test(ns, suite, file, directory, t, a.timeout), tests))
            counted = {t: r for t, r in results.items() if r not in ("SKIP", "NOREF")}
            passed = sorted(t for t, r in counted.items() if r == "PASS")
            bad = sorted(t for t, r in counted.items() if r != "PASS")
            failed += len(bad)
            print(f"{suite} {len(passed)}/{len(counted)}")
            if bad:
                print(f"  not passing: {' '.join(bad)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
