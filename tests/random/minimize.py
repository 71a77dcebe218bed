#!/usr/bin/env python3
"""Shrink a script on which ns-2 and Dumbbell disagree (delta debugging).

    python3 tests/random/minimize.py SCRIPT.tcl [-o min.tcl]
    python3 tests/random/minimize.py --seed 123 [--stress] [--dynamics] [--vegas] [-o min.tcl]

Removes lines (then single lines again, until nothing more can go) while
the reduced script still shows the same kind of difference as the original:
ns-2 exits with the same code as on the original, and the first output that
differed (exit code, stdout or a named file) still differs.  Comment lines
are dropped first.  The result usually needs a final hand edit (shorter end
time, fewer values); check it with `check_one` below or check.py.

Options: --ns PATH, --dumbbell CMD (as in check.py), --timeout seconds per
run (default 20 times the original run, at least 10), -o output file
(default: <script>.min.tcl).  Standard library only.
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import check  # noqa: E402
import gen  # noqa: E402


def check_one(text, ns, dumbbell, timeout=60):
    """Run both simulators on text; return (ns result, dumbbell result, diffs)."""
    with tempfile.TemporaryDirectory(prefix="dbmin-") as tmp:
        res = {}
        for k, cmd in (("ns", [ns]), ("db", dumbbell)):
            d = os.path.join(tmp, k)
            os.makedirs(d)
            with open(os.path.join(d, check.SCRIPT), "w", newline="\n") as f:
                f.write(text)
            res[k] = check.run(cmd, d, timeout)
    return res["ns"], res["db"], check.compare(res["ns"], res["db"])


def channel(diff: str) -> str:
    """Which output a difference is about: 'exit code', 'stdout' or a file name."""
    if diff.startswith("exit code"):
        return "exit code"
    return diff.split(" ")[0].rstrip(":")


def main(argv=None):
    p = argparse.ArgumentParser(description="Minimise a script on which ns-2 and Dumbbell differ.")
    p.add_argument("script", nargs="?")
    p.add_argument("--seed", type=int)
    p.add_argument("--stress", action="store_true", help="with --seed: the gen.py --stress script")
    p.add_argument("--dynamics", action="store_true", help="with --seed: the gen.py --dynamics script")
    p.add_argument("--traffic", action="store_true", help="with --seed: the gen.py --traffic script")
    p.add_argument("--vegas", action="store_true", help="with --seed: the gen.py --vegas script")
    p.add_argument("-o", "--output")
    p.add_argument("--ns", default=os.environ.get("NS", "/usr/bin/ns"))
    p.add_argument("--dumbbell", type=shlex.split, default=None)
    p.add_argument("--timeout", type=float, default=None,
                   help="seconds per run (default: 20 times the original's, at least 10)")
    a = p.parse_args(argv)
    dumbbell = a.dumbbell or check.default_dumbbell()
    if a.seed is not None:
        text = gen.build(a.seed, a.stress, a.dynamics, a.traffic, a.vegas)[0]
        out = a.output or "seed%d%s%s%s%s.min.tcl" % (a.seed, "s" if a.stress else "", "d" if a.dynamics else "",
                                                      "t" if a.traffic else "", "v" if a.vegas else "")
    elif a.script:
        with open(a.script) as f:
            text = f.read()
        out = a.output or os.path.splitext(a.script)[0] + ".min.tcl"
    else:
        p.error("give a script or --seed")
    if not shutil.which(a.ns):
        sys.exit("ns-2 not found: %s" % a.ns)

    ns0, db0, diffs = check_one(text, a.ns, dumbbell)
    if not diffs:
        sys.exit("no difference on the original script")
    # a reduced script may never end (its finish is gone): stop runs much
    # longer than the original's
    timeout = a.timeout or max(10.0, 20 * max(ns0["secs"], db0["secs"]))
    want_rc, want_ch = ns0["rc"], channel(diffs[0])
    print("original: ns-2 exit %s, first difference in %s" % (want_rc, want_ch))
    runs = [0]

    def interesting(lines):
        runs[0] += 1
        t = "\n".join(lines) + "\n"
        nsr, _, d = check_one(t, a.ns, dumbbell, timeout)
        return nsr["rc"] == want_rc and any(channel(x) == want_ch for x in d)

    lines = [l for l in text.split("\n") if l.strip() and not l.lstrip().startswith("#")]
    if not interesting(lines):
        lines = text.rstrip("\n").split("\n")
    # ddmin over lines
    n = 2
    while len(lines) >= 2:
        chunk = max(1, len(lines) // n)
        removed = False
        for start in range(0, len(lines), chunk):
            cand = lines[:start] + lines[start + chunk:]
            if cand and interesting(cand):
                lines = cand
                n = max(n - 1, 2)
                removed = True
                print("  %d lines (%d runs)" % (len(lines), runs[0]), flush=True)
                break
        if not removed:
            if chunk == 1:
                break
            n = min(len(lines), n * 2)
    result = "\n".join(lines) + "\n"
    with open(out, "w") as f:
        f.write(result)
    _, _, d = check_one(result, a.ns, dumbbell, timeout)
    print("wrote %s (%d lines, %d runs); first difference:\n  %s" % (out, len(lines), runs[0], d[0] if d else "NONE"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
