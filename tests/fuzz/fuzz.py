"""A mutation fuzzer over the corpus scripts (tests/ns2/scripts).

Each mutant is an ns-2 script with one to three small changes: a number
made extreme (0, -1, NaN, Inf, 1e999, +-2^31, a huge or tiny value), a
line deleted or repeated, two words swapped, a word replaced by another
of the script, a unit or class name garbled, the text cut short, a stray
character inserted.  Each runs under `dumbbell run --max-wall` in a
directory of its own, with an address-space limit.  A failure is what
must never happen whatever the script: a signal (a crash, or memory
beyond the limit), an engine panic (exit status 70), a Python traceback,
or a run that outlives its wall-clock limit by far.  Errors with a clear
message are the right answer to most mutants and are counted, not failed.

    python tests/fuzz/fuzz.py -n 1000 --seed 1          # prints the tally
    python tests/fuzz/fuzz.py -n 100000 --seed 7 --keep tests/fuzz/found

The same seed gives the same mutants.  `--keep DIR` saves each failing
mutant with its output.

Each mutant is forked from a fork server (dumbbell._forkserver, the sweep's:
the interpreter and the ns-2 library loaded once per job, the child exactly
what `dumbbell run` is when it sources the script), which halves the cost of
a mutant; `--no-fork` starts each as its own `python -m dumbbell.cli run`.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "ns2" / "scripts"

EXTREMES = ["0", "-1", "-0", "NaN", "Inf", "-Inf", "1e999", "-1e999", "2147483647", "2147483648", "-2147483649",
            "4294967296", "1e-320", "1e18", "0.0000001", "99999999999", "0x7fffffff", "1.5", "-0.5"]
UNITS = ["Mb", "Kb", "Gb", "ms", "us", "s", "Xb", "parsecs", "", "MB", "ns"]
JUNK = ["{", "}", "[", "]", "\"", "$", ";", "\\", "#", "\n", "\x00", "é"]
NUM = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?:e-?\d+)?")
WORD = re.compile(r"[A-Za-z_][\w/]*")


def _lines(text: str) -> list[str]:
    return text.split("\n")


def mutate(text: str, rng: random.Random) -> tuple[str, str]:
    """One mutation of `text`: (the new text, what was done)."""
    kind = rng.choice(["number", "number", "number", "unit", "delete", "repeat", "swap", "word", "class", "cut",
                       "junk"])
    lines = _lines(text)
    if kind in ("number", "unit"):
        hits = list(NUM.finditer(text))
        if hits:
            m = rng.choice(hits)
            new = rng.choice(EXTREMES) if kind == "number" else m.group(0) + rng.choice(UNITS)
            return text[:m.start()] + new + text[m.end():], f"{kind} {m.group(0)!r}->{new!r} at {m.start()}"
    if kind == "delete" and len(lines) > 1:
        i = rng.randrange(len(lines))
        return "\n".join(lines[:i] + lines[i + 1:]), f"delete line {i + 1}"
    if kind == "repeat":
        i = rng.randrange(len(lines))
        return "\n".join(lines[:i + 1] + lines[i:]), f"repeat line {i + 1}"
    if kind in ("swap", "word", "class"):
        hits = list(WORD.finditer(text))
        if len(hits) > 1:
            a = rng.choice(hits)
            if kind == "swap":
                b = rng.choice(hits)
                x, y = sorted([a, b], key=lambda m: m.start())
                if x.end() <= y.start():
                    return (text[:x.start()] + y.group(0) + text[x.end():y.start()] + x.group(0) + text[y.end():],
                            f"swap {x.group(0)!r} {y.group(0)!r}")
            elif kind == "word":
                b = rng.choice(hits).group(0)
                return text[:a.start()] + b + text[a.end():], f"word {a.group(0)!r}->{b!r}"
            else:
                cls = [m for m in hits if "/" in m.group(0)]
                if cls:
                    a = rng.choice(cls)
                    parts = a.group(0).split("/")
                    parts[rng.randrange(len(parts))] = rng.choice(["Bogus", "TCP", "RED", "", "Sack1", "DropTail"])
                    new = "/".join(parts)
                    return text[:a.start()] + new + text[a.end():], f"class {a.group(0)!r}->{new!r}"
    if kind == "cut" and text:
        i = rng.randrange(len(text))
        return text[:i], f"cut at {i}"
    i = rng.randrange(len(text) + 1)
    j = rng.choice(JUNK)
    return text[:i] + j + text[i:], f"junk {j!r} at {i}"


@dataclass
class Outcome:
    name: str
    what: str
    code: int
    verdict: str  # "ok", "error", "limit", or a failure: "signal", "panic", "traceback", "hang"
    stderr: str


FAILURES = ("signal", "panic", "traceback", "hang")


def _limit_memory(mb: int):
    def f():
        resource.setrlimit(resource.RLIMIT_AS, (mb << 20, mb << 20))
        os.setsid()
    return f


def _verdict(code: int, err: str) -> str:
    if code < 0:
        return "signal"
    if code == 70 or "internal error" in err:
        return "panic"
    # (a Python exception that reaches the fork server's child is reported
    # there in one line instead of a traceback: the same failure)
    if "Traceback (most recent call last)" in err or "dumbbell: fork server:" in err:
        return "traceback"
    if code == 124:
        return "limit"
    return "ok" if code == 0 else "error"


def run_mutant(script: Path, text: str, what: str, args: list[str], wall: float, mem_mb: int,
               fork: bool = False) -> Outcome:
    with tempfile.TemporaryDirectory(prefix="dbfuzz") as d:
        p = Path(d) / script.name
        p.write_text(text, errors="replace")
        if fork:
            o = _run_forked(p, what, args, wall, mem_mb)
            if o is not None:
                return o
        cmd = [sys.executable, "-m", "dumbbell.cli", "run", "--max-wall", str(wall), p.name, *args]
        env = {**os.environ, "PYTHONPATH": str(ROOT / "python")}
        t0 = time.monotonic()
        try:
            r = subprocess.run(cmd, cwd=d, capture_output=True, timeout=wall + 20, env=env,
                               preexec_fn=_limit_memory(mem_mb), stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            return Outcome(script.name, what, -1, "hang", f"still running {time.monotonic() - t0:.0f} s after start")
        err = r.stderr.decode("utf-8", "replace")
        return Outcome(script.name, what, r.returncode, _verdict(r.returncode, err), err[-2000:])


def _run_forked(p: Path, what: str, args: list[str], wall: float, mem_mb: int) -> Outcome | None:
    """The mutant at `p` forked from this thread's fork server; None if
    the server itself failed (the caller then runs it as a process)."""
    import signal

    from dumbbell import _forkserver

    fs = _forkserver.for_this_thread()
    if fs is None:
        return None
    d = p.parent
    env = {**os.environ, "PYTHONPATH": str(ROOT / "python")}
    t0 = time.monotonic()
    try:
        pid = fs.start(p.name, args, d, env, d / "stdout", d / "stderr",
                       {"max_wall": wall, "max_memory_mb": mem_mb})
        code = fs.wait(wall + 20)
        if code is None:
            try:
                os.killpg(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            fs.wait()
            return Outcome(p.name, what, -1, "hang", f"still running {time.monotonic() - t0:.0f} s after start")
    except _forkserver.ForkServerError:
        _forkserver.drop_this_thread()
        return None
    err = (d / "stderr").read_bytes().decode("utf-8", "replace")
    return Outcome(p.name, what, code, _verdict(code, err), err[-2000:])


def corpus() -> list[tuple[Path, str, list[str]]]:
    """The scripts and the arguments the corpus runs them with."""
    import json

    args: dict[str, list[str]] = {}
    for c in json.loads((ROOT / "tests" / "ns2" / "cases.json").read_text()):
        args.setdefault(c["script"], c["args"])
    return [(p, p.read_text(), args.get(p.name, [])) for p in sorted(CORPUS.glob("*.tcl"))]


def mutants(n: int, seed: int):
    rng = random.Random(seed)
    scripts = corpus()
    for i in range(n):
        path, text, args = scripts[rng.randrange(len(scripts))]
        what = []
        for _ in range(rng.choice([1, 1, 2, 3])):
            text, w = mutate(text, rng)
            what.append(w)
        yield path, text, f"#{i}: " + "; ".join(what), args


def fuzz(n: int, seed: int, jobs: int = 2, wall: float = 2.0, mem_mb: int = 2048, budget: float | None = None,
         keep: Path | None = None, fork: bool = True) -> tuple[Counter, list[Outcome], int]:
    """Run `n` mutants (fewer if `budget` seconds run out); returns the
    tally of verdicts, the failures, and how many ran."""
    tally: Counter = Counter()
    failures: list[Outcome] = []
    t0 = time.monotonic()
    ran = 0
    if fork:
        sys.path.insert(0, str(ROOT / "python"))
    ex = ThreadPoolExecutor(jobs)
    try:
        pending = []
        it = mutants(n, seed)
        for path, text, what, args in it:
            if budget is not None and time.monotonic() - t0 > budget:
                break
            pending.append((text, ex.submit(run_mutant, path, text, what, args, wall, mem_mb, fork)))
            if len(pending) >= 4 * jobs:
                text0, f = pending.pop(0)
                _account(f.result(), text0, tally, failures, keep)
                ran += 1
        for text0, f in pending:
            _account(f.result(), text0, tally, failures, keep)
            ran += 1
    finally:
        ex.shutdown()
        if fork:
            from dumbbell import _forkserver
            _forkserver.close_all()
    return tally, failures, ran


def _account(o: Outcome, text: str, tally: Counter, failures: list[Outcome], keep: Path | None) -> None:
    tally[o.verdict] += 1
    if o.verdict in FAILURES:
        failures.append(o)
        if keep is not None:
            keep.mkdir(parents=True, exist_ok=True)
            stem = f"{o.verdict}-{Path(o.name).stem}-{abs(hash(o.what)) % 10**8}"
            (keep / f"{stem}.tcl").write_text(f"# {o.what}\n" + text, errors="replace")
            (keep / f"{stem}.err").write_text(o.stderr)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", type=int, default=1000, help="mutants to run")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--wall", type=float, default=2.0, help="each mutant's --max-wall (s)")
    ap.add_argument("--mem", type=int, default=2048, help="each mutant's address-space limit (MB)")
    ap.add_argument("--budget", type=float, default=None, help="stop starting mutants after this many seconds")
    ap.add_argument("--keep", type=Path, default=None, help="save failing mutants here")
    ap.add_argument("--no-fork", dest="fork", action="store_false",
                    help="start each mutant as its own process instead of forking it from a fork server")
    a = ap.parse_args(argv)
    t0 = time.monotonic()
    tally, failures, ran = fuzz(a.n, a.seed, a.jobs, a.wall, a.mem, a.budget, a.keep, a.fork)
    took = time.monotonic() - t0
    print(f"{ran} mutants (seed {a.seed}) in {took:.0f} s: " + ", ".join(f"{k} {v}" for k, v in sorted(tally.items())))
    for o in failures[:20]:
        print(f"FAIL {o.verdict}: {o.name} {o.what} (exit {o.code})\n  " + o.stderr.strip()[-400:].replace("\n", "\n  "))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
