"""The mutation fuzzer in CI: 1,000 mutants of the corpus scripts (fixed
seeds, so a failure reproduces: `python tests/fuzz/fuzz.py -n 1000 --seed
SEED --keep DIR`), none of which may crash, panic, print a traceback or
hang.  Larger campaigns run from the command line (docs/reliability.md)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import fuzz  # noqa: E402


def test_mutations_change_the_script_and_repeat_for_a_seed():
    text = (fuzz.CORPUS / "simplex.tcl").read_text()
    a = [fuzz.mutate(text, random.Random(s)) for s in range(50)]
    b = [fuzz.mutate(text, random.Random(s)) for s in range(50)]
    assert a == b
    assert sum(t != text for t, _ in a) >= 45
    kinds = {w.split()[0] for _, w in a}
    assert {"number", "delete", "junk"} <= kinds, kinds


def test_a_crash_is_a_failure(tmp_path):
    # the fuzzer's own judgement: a script that kills its process is a signal
    o = fuzz.run_mutant(tmp_path / "k.tcl", "exec kill -SEGV [pid]\n", "kill", [], 2.0, 2048)
    assert o.verdict == "signal", o


def test_a_crash_is_a_failure_when_forked(tmp_path):
    # the same from the fork server; a run past its address-space limit
    # (set in the child alone) gets a clear error, and the server goes on
    o = fuzz.run_mutant(tmp_path / "k.tcl", "exec kill -SEGV [pid]\n", "kill", [], 2.0, 2048, fork=True)
    assert o.verdict == "signal", o
    o = fuzz.run_mutant(tmp_path / "m.tcl", "puts [string repeat x 900000000]\n", "big", [], 5.0, 600, fork=True)
    assert o.verdict == "error" and o.code == 1 and "out of memory" in o.stderr, o
    o = fuzz.run_mutant(tmp_path / "ok.tcl", "puts hello\n", "ok", [], 2.0, 2048, fork=True)
    assert o.verdict == "ok", o


def test_forked_mutants_end_as_their_own_processes_do():
    # the fork server's child is `dumbbell run` at the moment it sources the
    # script: same exit code, same verdict, same error text
    # (a run stopped by its wall-clock limit says where the limit met it: at
    # which simulated time, with how many events dispatched when that was in
    # the engine rather than in Tcl code, or in the middle of an event: all
    # of which depends on the machine's load)
    import re

    def same(o):
        where = r"( \(\d+ events dispatched\))?( at simulated time \S+| in the middle of an event that runs without end);"
        return o.code, o.verdict, re.sub(where, " WHERE;", o.stderr)

    for path, text, what, args in fuzz.mutants(24, seed=424242):
        a = fuzz.run_mutant(path, text, what, args, 2.0, 2048, fork=False)
        b = fuzz.run_mutant(path, text, what, args, 2.0, 2048, fork=True)
        assert same(a) == same(b), (what, a, b)


def test_a_thousand_mutants_fail_nothing():
    tally, failures, ran = fuzz.fuzz(1000, seed=20261128, jobs=2, wall=1.0, mem_mb=2048, budget=600)
    report = ", ".join(f"{k} {v}" for k, v in sorted(tally.items()))
    assert ran >= 1000, f"only {ran} mutants in the time budget ({report})"
    assert not failures, f"{report}\n" + "\n".join(f"{o.verdict}: {o.name} {o.what}\n{o.stderr[-600:]}"
                                                     for o in failures[:5])
