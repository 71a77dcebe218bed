#!/usr/bin/env python3
"""Write docs/conformance.md: how Dumbbell fares on ns-2's own validation
suites (every suite of Debian's ns2-examples, every test, byte for byte
against ns-2's reference output), with the reason each failing test gives,
and what the repository's own differential tests hold it to.

    python3 tools/conformance.py [-j N] [--timeout S] [--out docs/conformance.md]

Needs the ns2-examples package (apt-get install ns2-examples) and a built
Dumbbell (make build).  It runs every test of every suite under
`dumbbell run` (about 1,500 tests), so it takes a while; the page says
when and how it was made.  `--ns2 /usr/bin/ns` runs the real ns-2 too for
a column of its own; `--ns2-from docs/conformance.md` takes that column
from the page written before (ns-2 does not change), which halves the time.
"""

from __future__ import annotations

import argparse
import collections
import concurrent.futures as cf
import datetime
import json
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "suites"))

import run_suites as rs  # noqa: E402


def suites() -> list[str]:
    return sorted(p.name[len("test-all-"):] for p in (rs.EXAMPLES / "test").glob("test-all-*")
                  if (rs.EXAMPLES / "test" / f"test-suite-{p.name[len('test-all-'):]}.tcl").exists()
                  or "file=" in p.read_text(errors="replace"))


def reason(why: str) -> str:
    """A failing test's reason, shortened to what groups tests together."""
    why = why.removeprefix("dumbbell: error: ")
    why = re.sub(r"_o\d+", "_o*", why)
    return why[:140] if why else "output differs from ns-2's"


def ns2_column(page: Path) -> dict[str, tuple[int, int]]:
    """The real ns-2's passes per suite (passed, tests) in a page this tool
    wrote with --ns2."""
    col = {}
    for m in re.finditer(r"^\| (\S+) \| \d+/\d+ \| (\d+)/(\d+) \|", page.read_text(), re.M):
        col[m.group(1)] = (int(m.group(2)), int(m.group(3)))
    return col


def earlier_oracle(page: Path) -> str:
    """The ns-2 command named in such a page."""
    m = re.search(r"the real ns-2 2\.35 \(`([^`]+)`\)", page.read_text())
    return m.group(1) if m else "ns"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-j", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--timeout", type=float, default=120.0)
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "conformance.md")
    ap.add_argument("--ns2", default=None, help="also run the real ns-2 (e.g. /usr/bin/ns) for a column of its own")
    ap.add_argument("--ns2-from", type=Path, default=None,
                    help="take the real ns-2's column from a page this tool wrote with --ns2 (ns-2 does not change"
                         " between runs; a suite whose test count differs there is run with --ns2's command if given,"
                         " else left blank)")
    ap.add_argument("suites", nargs="*")
    a = ap.parse_args(argv)
    earlier = ns2_column(a.ns2_from) if a.ns2_from else {}
    oracle_name = a.ns2 or (earlier and earlier_oracle(a.ns2_from))
    if not (rs.EXAMPLES / "test").is_dir():
        print(f"no ns-2 example tree at {rs.EXAMPLES} (apt-get install ns2-examples)", file=sys.stderr)
        return 2
    names = a.suites or suites()
    rows = []
    reasons: collections.Counter = collections.Counter()
    failing: dict[str, list[tuple[str, str]]] = {}
    total_pass = total = 0
    total_oracle = [0]
    with cf.ThreadPoolExecutor(a.j) as pool:
        for suite in names:
            try:
                file, directory, tests = rs.suite_info(suite)
            except (OSError, AttributeError):
                continue
            results = list(pool.map(lambda t: rs.run_test_why(rs.DEFAULT_NS, suite, file, directory, t, a.timeout),
                                    tests))
            counted = [(t, v, w) for t, v, w in results if v not in ("SKIP", "NOREF")]
            if not counted:
                continue
            passed = sum(v == "PASS" for _, v, _ in counted)
            total_pass += passed
            total += len(counted)
            oracle = None
            if suite in earlier and earlier[suite][1] == len(counted):
                oracle = earlier[suite][0]
                total_oracle[0] += oracle
            elif a.ns2:
                names_counted = [t for t, _, _ in counted]
                oracle = sum(v == "PASS" for _, v in pool.map(
                    lambda t: rs.run_test([a.ns2], suite, file, directory, t, a.timeout), names_counted))
                total_oracle[0] += oracle
            rows.append((suite, passed, len(counted), oracle))
            bad = [(t, reason(w) if v != "TIMEOUT" else "timeout") for t, v, w in counted if v != "PASS"]
            if bad:
                failing[suite] = bad
                reasons.update(r for _, r in bad)
            print(f"{suite} {passed}/{len(counted)}", flush=True)
    expected = {s for s in rs.EXPECTED}
    cases = json.loads((ROOT / "tests" / "ns2" / "cases.json").read_text())
    fixtures = len(list((ROOT / "tests" / "random" / "fixtures").glob("*")))
    today = datetime.date.today().isoformat()
    out = [
        "# Conformance with ns-2 2.35",
        "",
        f"Generated on {today} by `python3 tools/conformance.py` (do not edit by hand): every test of every",
        "validation suite of ns-2 2.35 (Debian's ns2-examples) run under `dumbbell run`, its output compared",
        "byte for byte with ns-2's reference output, as ns-2's own test drivers compare it.",
        "",
        f"**{total_pass} of {total} tests pass** ({100 * total_pass / max(total, 1):.0f}%) in {len(rows)} suites"
        + (f"; the real ns-2 2.35 (`{oracle_name}`), run the same way, passes {total_oracle[0]}." if oracle_name else
           " (run with `--ns2 /usr/bin/ns` for the real ns-2's own figures: it does not pass every test of its"
           " own suites either)."),
        "",
        "Beside the suites, `make test` holds Dumbbell to:",
        f"* {len(cases)} ns-2 scenarios of its own (`tests/ns2`), every output file and stdout byte for byte"
        " against what the real ns-2 wrote;",
        f"* {fixtures} stored random scenarios (`tests/random`) likewise, and `tests/random/check.py` compares"
        " fresh ones against ns-2 on demand;",
        f"* the suites marked below as held (`tests/suites/run_suites.py`'s EXPECTED: {len(expected)} suites),"
        " which must keep passing.",
        "",
        "## Suites",
        "",
        "| suite | Dumbbell passes | ns-2 passes | held by make test |",
        "|---|---|---|---|",
    ]
    for suite, p, n, o in rows:
        out.append(f"| {suite} | {p}/{n} | {'' if o is None else f'{o}/{n}'} | {'yes' if suite in expected else ''} |")
    out += ["", "## Why tests fail, by reason", "", "| tests | reason (the first line Dumbbell prints) |", "|---|---|"]
    for r, n in reasons.most_common():
        out.append(f"| {n} | {r.replace('|', '/')} |")
    out += ["", "## Failing tests", ""]
    for suite, bad in failing.items():
        out.append(f"* **{suite}**: " + "; ".join(f"{t} ({r})" for t, r in bad[:40])
                   + (f"; and {len(bad) - 40} more" if len(bad) > 40 else ""))
    out += ["", "Deliberate differences from ns-2 (where ns-2 crashes or runs on with nonsense, Dumbbell stops",
            "with an error) are listed in docs/reliability.md; none of them is exercised by a suite test that",
            "passes under ns-2.", ""]
    a.out.write_text("\n".join(out))
    print(f"{total_pass}/{total}; wrote {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
