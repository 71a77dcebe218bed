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

Without SUITE arguments it runs what `EXPECTED` (below; test_suites.py
holds Dumbbell to it) lists.  Prints "SUITE passed/total" per suite and the failing tests; exit status 0
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
# Suites whose shipped reference outputs the real ns-2 2.35 does not
# reproduce: their references are what /usr/bin/ns writes, kept in the
# repository (fixtures/SUITE/TEST.gz) and made by
#     python3 tests/suites/run_suites.py --regen SUITE -j 2
FIXTURES = Path(__file__).resolve().parent / "fixtures"
OWN_REFERENCE = {"tcpLinux"}


# suite -> tests that must pass (None: all of the suite's tests)
EXPECTED = {
    "wireless-infra": None,
    "wireless-infra-mobility": None,
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
    "pi": None,
    "quickstart": None,
    "cbq": None,
    # example3 needs rtproto DV
    "greis": None,
    "schedule": None,
    # test-all-rr runs test-suite-srr.tcl (SRR) against test-output-schedule
    "rr": None,
    "vq": None,
    "rem": None,
    "rio": None,
    "gk": None,
    "red-pd": None,
    "simple": None,
    "frto": None,
    "links": None,
    "rfc793edu": None,
    # wireless needs wireless nodes
    # (dsr: ns-2 2.35 itself stops with an error after the three M lines,
    # its reference; Dumbbell refuses DSR there)
    "wireless-shadowing": None,
    "wireless-lan-aodv": None,
    "wireless-lan-newnode": None,
    "tagged-trace": None,
    "wireless-gridkeeper": None,
    "rbp": None,
    "xcp": None,
    "tcpVariants": None,
    "delaybox": None,
    "ecn-ack": None,
    # the reference outputs of the other five are stale: ns-2 2.35 itself
    # writes what Dumbbell writes, not those (tcp_cbr, tcp_telnet,
    # tfrc_cbr_conservative, tfrc_onoff, tfrc_onoff_oldcode)
    "quiescent": ["tcp_onoff", "tcp_cbr_CWV", "tcp_telnet_CWV", "tfrc_cbr", "tfrc_telnet"],
    "friendly": None,
    "lan": None,
    # hier-cmcast needs multicast (CtrMcast), hier-session SessionSim
    "hier-routing": ["hier-simple"],
    # references: the real ns-2's output, in fixtures/tcpLinux (OWN_REFERENCE)
    "tcpLinux": None,
    "full": None,
    "simple-full": None,
    "sack-full": None,
    "ecn-full": None,
    "full-fixes": None,
    "testReno-full": None,
    "testReno-bayfull": None,
    "jobs": None,
    "tcpOptions": None,
    # the references of the other four are stale: ns-2 2.35 itself writes
    # what Dumbbell writes (newreno4, reno4, tahoe4, slowLink2)
    "diffserv": None,
    "tcp-init-win-full": ["tahoe1", "tahoe1A", "tahoe2", "tahoe3", "reno1", "reno2", "reno3", "newreno1", "newreno2",
                          "newreno3", "slowLink"],
    # brdcast0 needs Mac/SMAC
    "energy": ["aodv", "dsdv", "dsr"],
    "WLtutorial": None,
    "wireless-tdma": None,
    "snoop": None,
    "wireless-lan-newnode-80211Ext": None,
}


def suite_info(suite: str) -> tuple[str, str, list[str]]:
    """(suite file, reference directory, test names) from test-all-SUITE."""
    test = EXAMPLES / "test"
    driver = (test / f"test-all-{suite}").read_text()
    # the driver's plain shell assignments (test-all-rr: f="srr",
    # file="test-suite-$f.tcl"), each expanded with the earlier ones
    shell: dict[str, str] = {}
    for name, value in re.findall(r'^(\w+)="?([^"\s]*)"?\s*$', driver, re.M):
        shell[name] = re.sub(r"\$\{?(\w+)\}?", lambda v: shell.get(v.group(1), v.group(0)), value)
    file = shell.get("file", "")
    file = file if file and "$" not in file else f"test-suite-{suite}.tcl"
    directory = shell.get("directory", "")
    directory = directory if directory and "$" not in directory else f"test-output-{suite}"
    text = (test / file).read_text(errors="replace")
    names = re.findall(r"^Class Test/(\S+)", text, re.M) or re.findall(r"^proc test_(\S+)", text, re.M)
    seen, tests = set(), []
    for n in names:
        if n not in seen:
            seen.add(n)
            tests.append(n)
    return file, directory, tests


def reference(suite: str, directory: str, name: str) -> Path:
    """The gzipped reference output of one test: the repository's fixture for
    the suites of OWN_REFERENCE, ns-2's shipped file otherwise."""
    if suite in OWN_REFERENCE:
        return FIXTURES / suite / f"{name}.gz"
    return EXAMPLES / "test" / directory / f"{name}.gz"


def regen(ns: list[str], suite: str, file: str, name: str, timeout: float) -> tuple[str, str]:
    """Run one test with `ns` (the real ns-2) and store its temp.rands as the
    suite's fixture (gzip level 9, no name, mtime 0: byte-stable)."""
    with tempfile.TemporaryDirectory(prefix=f"regen-{suite}-") as tmp:
        work = prepare_tree(Path(tmp))
        p = subprocess.run([*ns, file, name, "QUIET"], cwd=work, capture_output=True, timeout=timeout)
        out = work / "temp.rands"
        if p.returncode != 0 or not out.exists():
            return name, f"FAILED (exit {p.returncode}, temp.rands {'present' if out.exists() else 'missing'})"
        dest = FIXTURES / suite / f"{name}.gz"
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes(gzip.compress(out.read_bytes(), 9, mtime=0))
        return name, f"{out.stat().st_size} bytes"


def prepare_tree(tmp: Path) -> Path:
    """A private copy of the example tree under `tmp` (see run_test_why);
    returns the test directory to run in."""
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
        if d.name == "mobility":
            link_unzipped(d, tmp / "tcl" / d.name)
        elif d.name != "test":
            os.symlink(d, tmp / "tcl" / d.name)
    os.symlink(NSBIN, tmp / "bin")
    return work


def link_unzipped(src: Path, dest: Path) -> None:
    """`dest` as a tree of symlinks to `src`'s files, with each gzipped file
    also there uncompressed.  Debian's ns2-examples compresses the movement
    and connection files (mobility/scene/cbr-50-20-4-512.gz) that suites
    source by their plain names (ns-2's own tree has them uncompressed):
    without this neither ns-2 nor Dumbbell can read them."""
    dest.mkdir()
    for f in src.iterdir():
        if f.is_dir():
            link_unzipped(f, dest / f.name)
            continue
        os.symlink(f, dest / f.name)
        plain = dest / f.name[: -len(".gz")]
        if f.suffix == ".gz" and not (src / plain.name).exists():
            plain.write_bytes(gzip.decompress(f.read_bytes()))


def run_test(ns: list[str], suite: str, file: str, directory: str, name: str, timeout: float) -> tuple[str, str]:
    """(test, verdict): PASS, FAIL, TIMEOUT, SKIP or NOREF."""
    name, verdict, _ = run_test_why(ns, suite, file, directory, name, timeout)
    return name, verdict


def run_test_why(ns: list[str], suite: str, file: str, directory: str, name: str,
                 timeout: float) -> tuple[str, str, str]:
    """`run_test`, with the first line of the command's standard error (why
    a test fails, when it says)."""
    ref = reference(suite, directory, name)
    if not ref.exists():
        return name, "NOREF", ""
    with tempfile.TemporaryDirectory(prefix=f"suite-{suite}-") as tmp:
        work = prepare_tree(Path(tmp))
        try:
            p = subprocess.run([*ns, file, name, "QUIET"], cwd=work, capture_output=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return name, "TIMEOUT", f"still running after {timeout:g} s"
        why = next((ln for ln in p.stderr.decode("utf-8", "replace").splitlines() if ln.strip()), "")
        if p.returncode == 2:
            return name, "SKIP", why
        out = work / "temp.rands"
        if not out.exists():
            return name, "FAIL (no temp.rands)", why
        want = gzip.decompress(ref.read_bytes())
        return name, "PASS" if out.read_bytes() == want else "FAIL", why


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("suites", nargs="*", default=[s if t is None else f"{s}:{','.join(t)}" for s, t in EXPECTED.items()])
    ap.add_argument("-j", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--ns", default=None, help="ns-compatible command (default: .venv/bin/dumbbell run)")
    ap.add_argument("--timeout", type=float, default=300.0)
    ap.add_argument("--regen", action="store_true",
                    help="store what --ns (default /usr/bin/ns) writes as the fixtures of suites in OWN_REFERENCE")
    a = ap.parse_args(argv)
    if not (EXAMPLES / "test").is_dir():
        print(f"no ns-2 example tree at {EXAMPLES} (apt-get install ns2-examples, or set NSTCL)", file=sys.stderr)
        return 2
    ns = a.ns.split() if a.ns else DEFAULT_NS
    if a.regen:
        ns = a.ns.split() if a.ns else ["/usr/bin/ns"]
        with cf.ThreadPoolExecutor(a.j) as pool:
            for spec in a.suites:
                suite, _, only = spec.partition(":")
                if suite not in OWN_REFERENCE:
                    print(f"{suite}: not in OWN_REFERENCE (its references are ns-2's shipped files)", file=sys.stderr)
                    return 2
                file, _, tests = suite_info(suite)
                tests = [t for t in tests if not only or t in only.split(",")]
                for name, what in pool.map(lambda t: regen(ns, suite, file, t, a.timeout), tests):
                    print(f"{suite}/{name}: {what}")
        return 0
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
