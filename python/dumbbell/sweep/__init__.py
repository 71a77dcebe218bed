"""Parameter sweeps: many runs of one scenario, in parallel, cached, in one table.

A *plan* names what to run (an ns-2 script, or a Python function), the
parameters with their values (lists, ranges, linspaces; a cartesian product,
optionally with zipped groups), a number of seeds, and the metrics to keep.

    plan = Plan(script="basic2.tcl",
                args=["{delayB}", "0", "0.8", "300"],
                params={"delayB": {"start": 0, "stop": 400, "step": 1}},
                metrics={"columns": ["_", "_", "recv0", "recv1", "rttratio",
                                     "rttratio2", "actualratio", "ratio1", "ratio2"]})
    df = run_sweep(plan, out="basic2.parquet")

or, from the shell, `dumbbell sweep plan.toml` (docs/sweeps.md).

Every run is its own process in its own temporary directory.  A finished run
is stored at once in the cache (one JSON file per run, keyed by a hash of
everything the run depends on), so a sweep that is interrupted resumes where
it stopped and a repeated sweep runs nothing.  The same plan runs on a Dask
cluster with `dask="tcp://host:port"`.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import shutil
import signal
import socket
import string
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from decimal import ROUND_FLOOR, Decimal
from pathlib import Path

from .. import __version__
from .._sweep_child import child_env, load_target
from .cache import CACHE_FORMAT, Cache, build_id, cache_dir_for, partition

__all__ = ["Plan", "PlanError", "run_sweep", "summarise", "t_quantile", "plot_sweep", "load_plan", "execute",
           "cli_main"]

#: Column names a sweep's table uses itself.
RESERVED = ("seed", "status", "error", "elapsed", "key", "files")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


class PlanError(ValueError):
    """A plan that cannot run; the message names the key and what was expected."""


# ---- parameter values ------------------------------------------------------------------------------

def _is_num(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _dec(v) -> Decimal:
    # repr() is the shortest decimal that round-trips: 0.1 stays 0.1, so
    # ranges of decimal steps are exact (0, 0.1, ..., 0.3 with no 0.30000000000000004).
    return Decimal(repr(v)) if isinstance(v, float) else Decimal(v)


def expand(name: str, spec) -> list:
    """The values of one parameter.

    * a scalar: that one value;
    * a list: those values, in that order;
    * ``{start, stop, step}``: start, start+step, ... up to and including
      stop when it falls on the grid (robust to decimal steps: 0..400 step 1
      gives 401 points, 0..0.3 step 0.1 gives 4); integers if all three are;
    * ``{start, stop, num}``: num evenly spaced values from start to stop;
    * ``{start, stop, num, log = true}``: num geometrically spaced values.
    """
    where = f"params.{name}"
    if isinstance(spec, range):
        spec = list(spec)
    if hasattr(spec, "tolist") and not isinstance(spec, (str, bytes)):
        spec = spec.tolist()
    if isinstance(spec, (list, tuple)):
        if not spec:
            raise PlanError(f"{where}: empty list; give at least one value")
        for v in spec:
            _check_scalar(where, v)
        if len(set(map(_hashable, spec))) != len(spec):
            raise PlanError(f"{where}: the list has repeated values {list(spec)!r}")
        return list(spec)
    if isinstance(spec, dict):
        keys = set(spec)
        if keys == {"start", "stop", "step"}:
            return _arange(where, spec["start"], spec["stop"], spec["step"])
        if keys in ({"start", "stop", "num"}, {"start", "stop", "num", "log"}):
            return _linspace(where, spec["start"], spec["stop"], spec["num"], bool(spec.get("log", False)))
        raise PlanError(f"{where}: a range is {{start, stop, step}} or {{start, stop, num[, log]}}; got keys "
                        f"{sorted(keys)}")
    _check_scalar(where, spec)
    return [spec]


def _hashable(v):
    return (type(v).__name__, v)


def _check_scalar(where, v):
    if v is None or not isinstance(v, (bool, int, float, str)):
        raise PlanError(f"{where}: values must be numbers, strings or booleans; got {v!r}")
    if isinstance(v, float) and not math.isfinite(v):
        raise PlanError(f"{where}: value {v!r} is not finite")


def _arange(where, start, stop, step) -> list:
    for k, v in (("start", start), ("stop", stop), ("step", step)):
        if not _is_num(v) or not math.isfinite(v):
            raise PlanError(f"{where}.{k}: expected a number, got {v!r}")
    if step == 0:
        raise PlanError(f"{where}.step: must not be 0")
    s0, s1, st = _dec(start), _dec(stop), _dec(step)
    q = (s1 - s0) / st
    if q < 0:
        raise PlanError(f"{where}: empty range: step {step} goes away from stop ({start} to {stop})")
    n = int(q.to_integral_value(rounding=ROUND_FLOOR))
    if (q - n) > 1 - Decimal("1e-9"):  # stop on the grid up to rounding in the inputs
        n += 1
    if n + 1 > 10_000_000:
        raise PlanError(f"{where}: {n + 1} values; a sweep over more than 10 million is surely a mistake")
    if all(isinstance(v, int) for v in (start, stop, step)):
        return list(range(start, start + step * (n + 1), step))[: n + 1]
    return [float(s0 + i * st) for i in range(n + 1)]


def _linspace(where, start, stop, num, log) -> list:
    for k, v in (("start", start), ("stop", stop)):
        if not _is_num(v) or not math.isfinite(v):
            raise PlanError(f"{where}.{k}: expected a number, got {v!r}")
    if not isinstance(num, int) or isinstance(num, bool) or num < 1:
        raise PlanError(f"{where}.num: expected a positive integer, got {num!r}")
    if num == 1:
        return [float(start)]
    if log:
        if start <= 0 or stop <= 0:
            raise PlanError(f"{where}: log spacing needs start and stop > 0; got {start}, {stop}")
        r = math.log(stop / start)
        vals = [float(start) * math.exp(r * i / (num - 1)) for i in range(num)]
        vals[0], vals[-1] = float(start), float(stop)
    else:
        s0, s1 = _dec(start), _dec(stop)
        vals = [float(s0 + (s1 - s0) * i / (num - 1)) for i in range(num)]
    if len(set(vals)) != len(vals):
        raise PlanError(f"{where}: start == stop gives {num} equal values")
    return vals


# ---- metrics ---------------------------------------------------------------------------------------

_INT = re.compile(r"[+-]?\d+\Z")


def convert(text: str):
    """A printed value: int, else float (inf/nan too), else the string."""
    t = text.strip()
    if _INT.match(t):
        return int(t)
    try:
        return float(t)
    except ValueError:
        return t


class MetricError(Exception):
    pass


_KV = re.compile(r"(?<![\w.])([A-Za-z_][\w.]*)=(\S+)")


class Metrics:
    """What a run's table row keeps (the plan's ``metrics``).

    For ns-2 scripts, from stdout (applied when the table is built, so a
    changed spec re-reads the cached output and runs nothing):
      columns  -- names for the whitespace-separated fields of one line;
                  "_" skips a field
      line     -- which line `columns` reads: an index among the non-empty
                  lines (default -1, the last) or a regex (the last line it
                  matches)
      regex    -- a regex or a list; named groups become metrics (last match)
      keyvalue -- true: every key=value in stdout; or a list of keys to take
    and from the run's directory (runs with the run, part of the cache key):
      function -- "module:function" called in the run directory with any of
                  run_dir, params, seed, stdout; returns a dict of metrics
    For all plans:
      keep     -- only these metric columns, in this order
    """

    KEYS = ("columns", "line", "regex", "keyvalue", "function", "keep")

    def __init__(self, spec, kind: str, fixed_names: set[str]):
        spec = dict(spec or {})
        for k in spec:
            if k not in self.KEYS:
                raise PlanError(f"metrics.{k}: unknown key; expected one of {', '.join(self.KEYS)}")
        if kind == "python":
            extra = [k for k in spec if k != "keep"]
            if extra:
                raise PlanError(f"metrics.{extra[0]}: a Python function's metrics are the dict it returns; "
                                "only metrics.keep applies")
        self.columns = spec.get("columns")
        self.line = spec.get("line", -1)
        self.regexes: list[re.Pattern] = []
        self.keyvalue = spec.get("keyvalue", False)
        self.function = spec.get("function")
        self.keep = spec.get("keep")
        names: list[str] = []
        if self.columns is not None:
            if (not isinstance(self.columns, list) or not self.columns
                    or not all(isinstance(c, str) for c in self.columns)):
                raise PlanError("metrics.columns: expected a non-empty list of column names (\"_\" skips a field)")
            names += [c for c in self.columns if c not in ("_", "")]
        if "line" in spec:
            if self.columns is None:
                raise PlanError("metrics.line: only meaningful with metrics.columns")
            if isinstance(self.line, bool) or not isinstance(self.line, (int, str)):
                raise PlanError(f"metrics.line: expected a line index (-1 = last) or a regex; got {self.line!r}")
            if isinstance(self.line, str):
                try:
                    self.line = re.compile(self.line)
                except re.error as e:
                    raise PlanError(f"metrics.line: bad regex {spec['line']!r}: {e}") from None
        rx = spec.get("regex", [])
        rx = [rx] if isinstance(rx, str) else rx
        if not isinstance(rx, list) or not all(isinstance(r, str) for r in rx):
            raise PlanError("metrics.regex: expected a regex string or a list of them")
        for i, r in enumerate(rx):
            try:
                p = re.compile(r, re.MULTILINE)
            except re.error as e:
                raise PlanError(f"metrics.regex[{i}]: bad regex {r!r}: {e}") from None
            if not p.groupindex:
                raise PlanError(f"metrics.regex[{i}]: {r!r} has no named group; write (?P<name>...) for each metric")
            self.regexes.append(p)
            names += list(p.groupindex)
        if isinstance(self.keyvalue, list):
            if not all(isinstance(k, str) for k in self.keyvalue) or not self.keyvalue:
                raise PlanError("metrics.keyvalue: expected true or a non-empty list of keys")
            names += self.keyvalue
        elif not isinstance(self.keyvalue, bool):
            raise PlanError(f"metrics.keyvalue: expected true/false or a list of keys; got {self.keyvalue!r}")
        if self.function is not None and (not isinstance(self.function, str) or ":" not in self.function):
            raise PlanError(f"metrics.function: expected \"module:function\"; got {self.function!r}")
        for n in names:
            if not _NAME.match(n):
                raise PlanError(f"metrics: {n!r} is not a valid column name (letters, digits, _)")
            if n in fixed_names:
                raise PlanError(f"metrics: {n!r} is also a parameter or a column of the table; rename it")
        dup = {n for n in names if names.count(n) > 1}
        if dup:
            raise PlanError(f"metrics: {sorted(dup)[0]!r} is produced twice")
        self.static = names
        self.dynamic = kind == "python" or self.keyvalue is True or self.function is not None
        if self.keep is not None:
            if not isinstance(self.keep, list) or not all(isinstance(k, str) for k in self.keep) or not self.keep:
                raise PlanError("metrics.keep: expected a non-empty list of metric names")
            if not self.dynamic:
                unknown = [k for k in self.keep if k not in names]
                if unknown:
                    raise PlanError(f"metrics.keep: {unknown[0]!r} is not a metric of this plan "
                                    f"(metrics: {', '.join(names) or 'none'})")

    def from_stdout(self, stdout: str) -> dict:
        out: dict = {}
        if self.columns is not None:
            lines = [ln for ln in stdout.splitlines() if ln.strip()]
            if isinstance(self.line, re.Pattern):
                hits = [ln for ln in lines if self.line.search(ln)]
                if not hits:
                    raise MetricError(f"metrics.line: no stdout line matches {self.line.pattern!r}")
                ln = hits[-1]
            else:
                try:
                    ln = lines[self.line]
                except IndexError:
                    raise MetricError(f"metrics.line = {self.line}: stdout has {len(lines)} non-empty lines") from None
            fields = ln.split()
            if len(fields) != len(self.columns):
                raise MetricError(f"metrics.columns names {len(self.columns)} fields, "
                                  f"the line has {len(fields)}: {ln!r}")
            for n, f in zip(self.columns, fields):
                if n not in ("_", ""):
                    out[n] = convert(f)
        for i, p in enumerate(self.regexes):
            m = None
            for m in p.finditer(stdout):
                pass
            if m is None:
                raise MetricError(f"metrics.regex[{i}] ({p.pattern!r}) does not match stdout")
            for n, v in m.groupdict().items():
                out[n] = None if v is None else convert(v)
        if self.keyvalue:
            pairs = {k: v for k, v in _KV.findall(stdout)}
            if self.keyvalue is True:
                for k, v in pairs.items():
                    out[k] = convert(v)
            else:
                for k in self.keyvalue:
                    if k not in pairs:
                        raise MetricError(f"metrics.keyvalue: no {k}=... in stdout")
                    out[k] = convert(pairs[k])
        return out


# ---- plans -----------------------------------------------------------------------------------------

def _sha_bytes(b: bytes) -> str:
    return hashlib.sha256(b).hexdigest()


def _fields(template: str, where: str) -> list[str]:
    try:
        return [f for _, f, _, _ in string.Formatter().parse(template) if f is not None]
    except ValueError as e:
        raise PlanError(f"{where}: {e} in {template!r} (write {{{{ and }}}} for literal braces)") from None


@dataclass(frozen=True)
class Run:
    """One run of a plan: a parameter point and a seed."""
    params: dict
    seed: int
    key: str
    task: dict


class Plan:
    """A sweep: what to run, over which parameter values and seeds, keeping what.

    Exactly one of `script` (an ns-2 script; the parameters become its argv
    through `args`) or `function` (a Python callable or "module:function",
    called with the parameters as keywords, returning a dict of metrics).
    See docs/sweeps.md for every key.
    """

    KEYS = ("script", "function", "args", "env", "params", "zip", "seeds", "metrics", "inputs", "outputs",
            "timeout", "out", "cache", "plots", "python_path")

    def __init__(self, script=None, function=None, *, args=None, env=None, params=None, zip=(), seeds=1,
                 metrics=None, inputs=(), outputs=(), timeout=None, out=None, cache=None, plots=(),
                 python_path=None, base_dir=None, name=None):
        self.base_dir = Path(base_dir if base_dir is not None else os.getcwd()).resolve()
        self.name = name or (Path(script).stem if script else "sweep")
        if (script is None) == (function is None):
            raise PlanError("plan: give exactly one of `script` (an ns-2 script) or `function` (a Python callable)")
        self.kind = "tcl" if script is not None else "python"
        # parameters
        params = dict(params or {})
        if not params:
            raise PlanError("params: no parameters; a sweep needs at least one (a constant is fine)")
        self.values: dict[str, list] = {}
        for k, spec in params.items():
            if not isinstance(k, str) or not _NAME.match(k):
                raise PlanError(f"params.{k}: parameter names are identifiers (letters, digits, _)")
            if k in RESERVED:
                raise PlanError(f"params.{k}: {k!r} is a column of the table; choose another name")
            self.values[k] = expand(k, spec)
        self.param_names = list(self.values)
        self.zip_groups = self._zip(zip)
        self.seeds = self._seeds(seeds)
        self.timeout = None
        if timeout is not None:
            if not _is_num(timeout) or timeout <= 0:
                raise PlanError(f"timeout: expected seconds > 0; got {timeout!r}")
            self.timeout = float(timeout)
        self.python_path = [str(self._path(p)) for p in (python_path or [self.base_dir])]
        self.out = self._path(out) if out else None
        self.cache = self._path(cache) if cache else None
        self.inputs = [self._path(p, must_exist=True, where="inputs") for p in _strlist(inputs, "inputs")]
        self.outputs = _strlist(outputs, "outputs")
        for o in self.outputs:
            if Path(o).is_absolute() or ".." in Path(o).parts:
                raise PlanError(f"outputs: {o!r}: output files are named relative to the run directory")
        self.env = dict(env or {})
        for k, v in self.env.items():
            if not isinstance(v, (str, int, float)) or isinstance(v, bool):
                raise PlanError(f"env.{k}: expected a string; got {v!r}")
            self.env[k] = str(v)
        fixed = set(self.param_names) | set(RESERVED)
        self.metrics = Metrics(metrics, self.kind, fixed)
        if self.kind == "tcl":
            self.script = self._path(script, must_exist=True, where="script")
            if self.script.is_dir():
                raise PlanError(f"script: {self.script} is a directory")
            self.args = _strlist(args if args is not None else [f"{{{p}}}" for p in self.param_names], "args")
            self._check_templates()
            self.extract_fn = None
            if self.metrics.function:
                self.extract_fn = self._resolve(self.metrics.function, "metrics.function")
        else:
            if args is not None:
                raise PlanError("args: only for scripts; a function gets the parameters as keywords")
            self.fn = self._resolve(function, "function")
            self._check_signature()
        self.plots = [self._plot(i, p) for i, p in enumerate(plots or [])]
        self.source = None  # the plan file, if any

    # -- construction helpers

    def _path(self, p, must_exist=False, where=""):
        path = Path(p).expanduser()
        path = path if path.is_absolute() else self.base_dir / path
        if must_exist and not path.exists():
            raise PlanError(f"{where}: {path} does not exist")
        return path.resolve() if must_exist else path

    def _zip(self, groups):
        groups = [list(g) for g in (groups or [])]
        seen: set[str] = set()
        for i, g in enumerate(groups):
            if len(g) < 2 or not all(isinstance(n, str) for n in g):
                raise PlanError(f"zip[{i}]: expected a list of two or more parameter names; got {g!r}")
            for n in g:
                if n not in self.values:
                    raise PlanError(f"zip[{i}]: {n!r} is not a parameter (parameters: {', '.join(self.param_names)})")
                if n in seen:
                    raise PlanError(f"zip[{i}]: {n!r} is in more than one zip group")
                seen.add(n)
            lens = {n: len(self.values[n]) for n in g}
            if len(set(lens.values())) != 1:
                raise PlanError(f"zip[{i}]: zipped parameters need equally many values; got "
                                + ", ".join(f"{n}: {c}" for n, c in lens.items()))
        return groups

    @staticmethod
    def _seeds(seeds):
        if isinstance(seeds, bool):
            raise PlanError(f"seeds: expected a count or a list of seeds; got {seeds!r}")
        if isinstance(seeds, int):
            if seeds < 1:
                raise PlanError(f"seeds: expected at least 1; got {seeds}")
            return list(range(1, seeds + 1))
        if isinstance(seeds, (list, tuple, range)) and seeds and all(isinstance(s, int) and not isinstance(s, bool)
                                                                      for s in seeds):
            if len(set(seeds)) != len(seeds):
                raise PlanError(f"seeds: repeated seeds in {list(seeds)!r}")
            return list(seeds)
        raise PlanError(f"seeds: expected a count (seeds 1..N) or a non-empty list of integers; got {seeds!r}")

    def _check_templates(self):
        used: set[str] = set()
        allowed = set(self.param_names) | {"seed"}
        for where, tpl in [(f"args[{i}]", a) for i, a in enumerate(self.args)] + \
                          [(f"env.{k}", v) for k, v in self.env.items()]:
            for f in _fields(tpl, where):
                base = re.split(r"[.\[!:]", f, maxsplit=1)[0]
                if base == "" or base.isdigit():
                    raise PlanError(f"{where}: positional placeholder {{{f}}} in {tpl!r}; "
                                    "name a parameter, as {delayB}")
                if base not in allowed:
                    raise PlanError(f"{where}: unknown placeholder {{{base}}} in {tpl!r} "
                                    f"(parameters: {', '.join(self.param_names)}; and seed)")
                used.add(base)
        for p in self.param_names:
            if p not in used and len(self.values[p]) > 1:
                raise PlanError(f"params.{p}: {len(self.values[p])} values but neither args nor env uses {{{p}}}: "
                                "the runs would be identical")
        if len(self.seeds) > 1 and "seed" not in used:
            raise PlanError(f"seeds: {len(self.seeds)} seeds but neither args nor env uses {{seed}}: "
                            "the runs would be identical")
        # Format with the first point, so that bad format specs fail now.
        pt = {p: v[0] for p, v in self.values.items()}
        pt["seed"] = self.seeds[0]
        for where, tpl in [(f"args[{i}]", a) for i, a in enumerate(self.args)] + \
                          [(f"env.{k}", v) for k, v in self.env.items()]:
            try:
                tpl.format_map(pt)
            except (ValueError, KeyError, IndexError, AttributeError, TypeError) as e:
                raise PlanError(f"{where}: cannot format {tpl!r} with {pt}: {e}") from None

    def _resolve(self, target, where):
        """(callable, "module:qualname", file or None, source hash)."""
        if callable(target):
            fn = target
            mod_name, qual = getattr(fn, "__module__", None), getattr(fn, "__qualname__", None)
            if not mod_name or not qual or "<" in qual:
                raise PlanError(f"{where}: {fn!r} is not a module-level function; runs import it by name in "
                                "another process, so define it at the top level of a module")
            mod = sys.modules.get(mod_name)
            file = getattr(mod, "__file__", None)
            if mod_name == "__main__" and not file:
                raise PlanError(f"{where}: {qual} is defined interactively; define it in a module (a .py file)")
            name = f"{mod_name}:{qual}"
            run_file = file if mod_name == "__main__" else None
        else:
            if not isinstance(target, str) or target.count(":") != 1 or not all(target.split(":")):
                raise PlanError(f"{where}: expected a callable or \"module:function\"; got {target!r}")
            name, run_file = target, None
            try:
                fn, file = _resolve_target(target, self.python_path)
            except Exception as e:  # noqa: BLE001
                raise PlanError(f"{where}: cannot import {target!r}: {type(e).__name__}: {e} "
                                f"(searched {', '.join(self.python_path)} first)") from None
            if not callable(fn):
                raise PlanError(f"{where}: {target!r} is not callable")
        code = _sha_bytes(Path(file).read_bytes()) if file and Path(file).is_file() else name
        return {"fn": fn, "target": name, "file": run_file, "code": code}

    def _check_signature(self):
        import inspect

        try:
            sig = inspect.signature(self.fn["fn"])
        except (TypeError, ValueError):
            self.accepts = set(self.param_names) | {"seed"}
            return
        ps = sig.parameters
        if any(p.kind is p.VAR_KEYWORD for p in ps.values()):
            self.accepts = set(self.param_names) | {"seed"}
            return
        names = {n for n, p in ps.items() if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
        for p in self.param_names:
            if p not in names:
                raise PlanError(f"params.{p}: {self.fn['target']} has no parameter {p!r} "
                                f"(it takes {', '.join(names) or 'nothing'})")
        missing = [n for n, p in ps.items()
                   if p.default is p.empty and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
                   and n not in self.param_names and n != "seed"]
        if missing:
            raise PlanError(f"function: {self.fn['target']} needs {missing[0]!r}, which is not a parameter")
        if len(self.seeds) > 1 and "seed" not in names:
            raise PlanError(f"seeds: {len(self.seeds)} seeds but {self.fn['target']} takes no `seed`: "
                            "the runs would be identical")
        self.accepts = set(self.param_names) | ({"seed"} if "seed" in names else set())

    def _plot(self, i, p):
        if not isinstance(p, dict):
            raise PlanError(f"plots[{i}]: expected a table with x, y and optionally hue, path, title")
        unknown = set(p) - {"x", "y", "hue", "path", "title"}
        if unknown:
            raise PlanError(f"plots[{i}].{sorted(unknown)[0]}: unknown key; expected x, y, hue, path, title")
        if p.get("x") not in self.values:
            raise PlanError(f"plots[{i}].x: expected a parameter name; got {p.get('x')!r}")
        if p.get("hue") is not None and p["hue"] not in self.values:
            raise PlanError(f"plots[{i}].hue: expected a parameter name; got {p['hue']!r}")
        ys = p.get("y")
        ys = [ys] if isinstance(ys, str) else ys
        if not ys or not isinstance(ys, list) or not all(isinstance(y, str) for y in ys):
            raise PlanError(f"plots[{i}].y: expected a metric name or a list of them")
        if not self.metrics.dynamic:
            for y in ys:
                if y not in self.metrics.static:
                    raise PlanError(f"plots[{i}].y: {y!r} is not a metric of this plan")
        q = dict(p)
        q["y"] = ys
        if q.get("path"):
            from ..plot import _check_path

            try:
                _check_path(q["path"], "plot_sweep")
            except ValueError as e:
                raise PlanError(f"plots[{i}].path: {e}") from None
            q["path"] = self._path(q["path"])
        return q

    # -- expansion

    def points(self) -> list[dict]:
        """The parameter points, in plan order: the cartesian product over the
        parameters in the order declared (zip groups move together, at the
        place of their first parameter), values in their given order."""
        grouped = {n: g for g in self.zip_groups for n in g}
        factors, done = [], set()
        for n in self.param_names:
            if n in done:
                continue
            g = grouped.get(n, [n])
            done.update(g)
            factors.append([dict(zip(g, vals)) for vals in zip(*(self.values[m] for m in g))])
        pts = [{}]
        for f in factors:
            pts = [{**p, **q} for p in pts for q in f]
        return [{n: p[n] for n in self.param_names} for p in pts]

    def runs(self, build: str | None = None) -> list[Run]:
        """Every run (point x seed) with its task and cache key."""
        build = build or build_id()
        common = self._common()
        out = []
        for i, pt in enumerate(self.points()):
            for s in self.seeds:
                task, material = self._task(pt, s, common)
                material["build"] = build
                key = _sha_bytes(json.dumps(material, sort_keys=True, separators=(",", ":")).encode())
                task["key"] = key
                task["build"] = build
                out.append(Run(pt, s, key, task))
        return out

    def _common(self):
        """Files every run needs (read once) and their hashes."""
        files: dict[str, bytes] = {}
        paths = []
        for p in self.inputs:
            paths += sorted(q for q in p.rglob("*") if q.is_file()) if p.is_dir() else [p]
        if self.kind == "tcl":
            paths.append(self.script)
        if paths:
            root = Path(os.path.commonpath([str(p.parent) for p in paths]))
        else:
            root = self.base_dir
        hashes = {}
        for p in paths:
            rel = p.relative_to(root).as_posix()
            data = p.read_bytes()
            files[rel] = data
            hashes[rel] = _sha_bytes(data)
        cwd = self.script.parent.relative_to(root).as_posix() if self.kind == "tcl" else "."
        return {"files": files, "hashes": hashes, "cwd": cwd}

    def _task(self, pt, seed, common):
        fmt = {**pt, "seed": seed}
        env = {k: v.format_map(fmt) for k, v in self.env.items()}
        material = {"format": CACHE_FORMAT, "kind": self.kind, "inputs": common["hashes"], "env": env,
                    "params": pt, "seed": seed, "outputs": self.outputs}
        task = {"kind": self.kind, "files": common["files"], "cwd": common["cwd"], "env": env,
                "outputs": self.outputs, "timeout": self.timeout, "params": pt, "seed": seed,
                "sys_path": self.python_path + [p for p in sys.path if p and p not in self.python_path]}
        if self.kind == "tcl":
            args = [a.format_map(fmt) for a in self.args]
            material["args"] = args
            task["script"] = self.script.name
            task["args"] = args
            ex = self.extract_fn
            if ex:
                material["extract"] = {"target": ex["target"], "code": ex["code"]}
                task["extract"] = {"target": ex["target"], "file": ex["file"]}
        else:
            kwargs = {k: v for k, v in fmt.items() if k in self.accepts}
            material["function"] = {"target": self.fn["target"], "code": self.fn["code"]}
            task["call"] = {"target": self.fn["target"], "file": self.fn["file"], "kwargs": kwargs}
        return task, material

    @property
    def default_out(self):
        """Where the table goes by default: `out`, else PLAN.parquet beside a
        plan file, else nowhere (a Plan built in Python)."""
        if self.out is not None:
            return self.out
        return self.base_dir / f"{self.name}.parquet" if self.source is not None else None

    def describe(self) -> str:
        n_pts = len(self.points())
        lines = [f"plan {self.name}: {n_pts} points x {len(self.seeds)} seeds = {n_pts * len(self.seeds)} runs"]
        for p in self.param_names:
            v = self.values[p]
            shown = ", ".join(map(str, v)) if len(v) <= 6 else f"{v[0]}, {v[1]}, ..., {v[-1]}"
            lines.append(f"  {p}: {len(v)} value{'' if len(v) == 1 else 's'} ({shown})")
        if self.zip_groups:
            lines.append("  zipped: " + "; ".join(" + ".join(g) for g in self.zip_groups))
        what = (f"script {self.script}" if self.kind == "tcl" else f"function {self.fn['target']}")
        lines.append(f"  runs {what}")
        return "\n".join(lines)

    def command(self, run: Run) -> str:
        """The shell command equivalent to a run (for --dry-run and errors)."""
        import shlex

        t = run.task
        if t["kind"] == "tcl":
            env = " ".join(f"{k}={shlex.quote(v)}" for k, v in t["env"].items())
            return (env + " " if env else "") + shlex.join(["dumbbell", "run", t["script"], *t["args"]])
        return f"{t['call']['target']}(" + ", ".join(f"{k}={v!r}" for k, v in t["call"]["kwargs"].items()) + ")"


def _resolve_target(target: str, python_path: list[str]):
    """The callable "module:qualname" and its module's file, found as the
    runs will find it: `python_path` first, then sys.path, in a fresh import.
    This process is left as it was: its sys.path, and any module of that
    name it had imported (which may come from elsewhere on its path)."""
    mod_name = target.partition(":")[0]
    top = mod_name.split(".")[0]

    def ours(k):
        return k == top or k.startswith(top + ".")

    saved_path = sys.path[:]
    saved_mods = {k: m for k, m in sys.modules.items() if ours(k)}
    for k in saved_mods:
        del sys.modules[k]
    try:
        fn = load_target(target, None, python_path)
        file = getattr(sys.modules.get(mod_name), "__file__", None)
    finally:
        sys.path[:] = saved_path
        for k in [k for k in sys.modules if ours(k)]:
            del sys.modules[k]
        sys.modules.update(saved_mods)
    return fn, file


def _strlist(v, where) -> list[str]:
    if isinstance(v, str):
        v = [v]
    v = list(v or [])
    if not all(isinstance(x, (str, int, float)) and not isinstance(x, bool) for x in v):
        raise PlanError(f"{where}: expected a list of strings; got {v!r}")
    return [str(x) for x in v]


def _load_toml(path: Path) -> dict:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except tomllib.TOMLDecodeError as e:
        raise PlanError(f"{path}: not valid TOML: {e}") from None


def load_plan(path, overrides: dict | None = None) -> Plan:
    """A plan from a TOML file; relative paths in it are relative to the file.
    `overrides` replaces parameters (name -> value or range)."""
    path = Path(path)
    if not path.is_file():
        raise PlanError(f"{path}: no such plan file")
    data = _load_toml(path)
    unknown = [k for k in data if k not in Plan.KEYS]
    if unknown:
        raise PlanError(f"{path}: unknown key {unknown[0]!r}; a plan has {', '.join(Plan.KEYS)}")
    if overrides:
        params = dict(data.get("params", {}))
        for k, v in overrides.items():
            if k not in params:
                raise PlanError(f"--set {k}: the plan has no parameter {k!r} (parameters: {', '.join(params)})")
            params[k] = v
        data["params"] = params
    plots = data.pop("plots", [])
    plan = Plan(**data, plots=plots, base_dir=path.resolve().parent, name=path.stem)
    plan.source = path.resolve()
    return plan


# ---- one run (in this process, or on a Dask worker) --------------------------------------------------

_ACTIVE: dict[int, subprocess.Popen] = {}
_ACTIVE_LOCK = threading.Lock()
_CANCEL = threading.Event()


def _tail(text: str, lines=20, chars=3000) -> str:
    t = "\n".join(text.rstrip().splitlines()[-lines:])
    return t[-chars:]


def _supervise(p, wait, timeout):
    """Wait for a run (`p.pid` is its process group) with `wait(timeout)`,
    which returns the exit status or None when the time is up; kill it on
    timeout or when the sweep is cancelled.  Returns (exit code, timed out,
    cancelled)."""
    with _ACTIVE_LOCK:
        _ACTIVE[p.pid] = p
    try:
        if _CANCEL.is_set():
            _killpg(p)
        rc = wait(timeout)
        if rc is None:
            _killpg(p)
            wait(None)
            return None, True, False
        return rc, False, _CANCEL.is_set()
    finally:
        with _ACTIVE_LOCK:
            _ACTIVE.pop(p.pid, None)


def _spawn(cmd, cwd, env, out_path, err_path, timeout):
    """Run a child in its own session (Ctrl-C reaches only the sweep, which
    then kills its children).  Returns (exit code, timed out, cancelled)."""
    with open(out_path, "wb") as o, open(err_path, "ab") as e:
        p = subprocess.Popen(cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=o, stderr=e,
                             start_new_session=True)

    def wait(t):
        try:
            return p.wait(t)
        except subprocess.TimeoutExpired:
            return None

    return _supervise(p, wait, timeout)


class _Forked:
    """A run forked by a fork server, in `_ACTIVE` like a Popen (its pid is
    its process group)."""

    def __init__(self, pid):
        self.pid = pid


def _run_tcl(task, child, cwd, env, out_path, err_path, timeout):
    """An ns-2 run: forked from this thread's fork server (dumbbell._forkserver:
    the start-up is paid once per worker, not per run), else as a new
    process.  Returns (exit code, timed out, cancelled) like `_spawn`."""
    from .. import _forkserver

    cmd = child + ["tcl", task["script"], *task["args"]]
    try:
        fs = _forkserver.for_this_thread()
    except OSError:
        fs = None
    if fs is None:
        return _spawn(cmd, cwd, env, out_path, err_path, timeout)
    try:
        pid = fs.start(task["script"], task["args"], cwd, env, out_path, err_path)
        return _supervise(_Forked(pid), fs.wait, timeout)
    except _forkserver.ForkServerError as err:
        # The server itself failed (not the run): start afresh next time,
        # and run this one as its own process.
        _forkserver.drop_this_thread()
        with open(err_path, "ab") as e:
            e.write(f"dumbbell: {err}; running as a separate process\n".encode())
        return _spawn(cmd, cwd, env, out_path, err_path, timeout)


def _killpg(p):
    try:
        os.killpg(p.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _kill_active():
    with _ACTIVE_LOCK:
        procs = list(_ACTIVE.values())
    for p in procs:
        _killpg(p)


def _fail_text(rc, timed_out, timeout, stderr):
    if timed_out:
        msg = f"timed out after {timeout:g} s"
    elif rc < 0:
        try:
            msg = f"killed by signal {signal.Signals(-rc).name}"
        except ValueError:
            msg = f"killed by signal {-rc}"
    else:
        msg = f"exit code {rc}"
    t = _tail(stderr)
    return f"{msg}: {t}" if t else msg


def execute(task: dict) -> dict:
    """Run one task in a fresh temporary directory; return its record.

    Module-level so that Dask workers can import it.  Never raises for a
    failing run: the record's status says "failed" and its error why."""
    t0 = time.monotonic()
    rec = {"format": CACHE_FORMAT, "key": task["key"], "status": "failed", "error": None, "elapsed": None,
           "stdout": "", "metrics": {}, "files": [], "version": __version__, "build": build_id(),
           "host": socket.gethostname()}
    if rec["build"] != task["build"]:
        rec["error"] = (f"this worker runs Dumbbell {rec['build']}, the sweep was planned with {task['build']}; "
                        "install the same version everywhere")
        rec["transient"] = True
        return rec
    if _CANCEL.is_set():
        rec["status"], rec["transient"] = "cancelled", True
        return rec
    tmp = tempfile.mkdtemp(prefix="dumbbell-run-")
    try:
        root = Path(tmp) / "run"
        io = Path(tmp) / "io"
        io.mkdir()
        for rel, data in task["files"].items():
            p = root / rel
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_bytes(data)
        cwd = root / task["cwd"]
        cwd.mkdir(parents=True, exist_ok=True)
        env = child_env(task["env"])
        timeout = task["timeout"]
        deadline = None if timeout is None else time.monotonic() + timeout
        out_path, err_path = io / "stdout", io / "stderr"
        child = [sys.executable, "-m", "dumbbell._sweep_child"]

        def py_child(request):
            (io / "request.json").write_text(json.dumps(request))
            res = io / "result.json"
            res.unlink(missing_ok=True)
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            rc, to, cancelled = _spawn(child + ["py", str(io / "request.json"), str(res)], cwd, env,
                                       io / "py-stdout" if request["mode"] == "extract" else out_path, err_path, left)
            if cancelled:
                return None, "cancelled"
            try:
                result = json.loads(res.read_text())
            except (OSError, ValueError):
                return None, _fail_text(rc, to, timeout, err_path.read_text(errors="replace"))
            if not result["ok"]:
                return None, result["error"].rstrip()
            return result["metrics"], None

        if task["kind"] == "tcl":
            rc, to, cancelled = _run_tcl(task, child, cwd, env, out_path, err_path, timeout)
            if cancelled:
                rec["status"], rec["transient"] = "cancelled", True
                return rec
            rec["stdout"] = out_path.read_text(errors="replace")
            if rc != 0 or to:
                rec["error"] = _fail_text(rc, to, timeout, err_path.read_text(errors="replace"))
            elif task.get("extract"):
                ex = task["extract"]
                metrics, err = py_child({"mode": "extract", "target": ex["target"], "file": ex["file"],
                                         "sys_path": task["sys_path"], "params": task["params"],
                                         "seed": task["seed"], "stdout": str(out_path)})
                if err == "cancelled":
                    rec["status"], rec["transient"] = "cancelled", True
                    return rec
                if err:
                    rec["error"] = f"metrics.function {ex['target']}: {err}"
                else:
                    rec["metrics"] = metrics
        else:
            c = task["call"]
            metrics, err = py_child({"mode": "call", "target": c["target"], "file": c["file"],
                                     "sys_path": task["sys_path"], "kwargs": c["kwargs"]})
            if err == "cancelled":
                rec["status"], rec["transient"] = "cancelled", True
                return rec
            rec["stdout"] = out_path.read_text(errors="replace") if out_path.exists() else ""
            if err:
                rec["error"] = err
            else:
                rec["metrics"] = metrics
        if rec["error"] is None and task["outputs"]:
            found, missing = _collect(cwd, task["outputs"])
            if missing:
                rec["error"] = f"declared output {missing!r} was not written"
            else:
                rec["files"] = sorted(found)
                stage = task.get("stage")
                if stage:  # local: move the files next to the cache, the sweep renames the directory
                    Path(stage).mkdir(parents=True, exist_ok=True)
                    staged = tempfile.mkdtemp(prefix=".staging-", dir=stage)
                    for rel in found:
                        dst = Path(staged) / rel
                        dst.parent.mkdir(parents=True, exist_ok=True)
                        shutil.move(str(cwd / rel), dst)
                    rec["_staged"] = staged
                else:  # Dask: the bytes travel back to the client
                    rec["_blobs"] = {rel: (cwd / rel).read_bytes() for rel in found}
        if rec["error"] is None:
            rec["status"] = "ok"
        return rec
    finally:
        rec["elapsed"] = round(time.monotonic() - t0, 6)
        rec["finished"] = time.strftime("%Y-%m-%dT%H:%M:%S")
        shutil.rmtree(tmp, ignore_errors=True)


def _collect(cwd: Path, patterns):
    found, missing = [], None
    for pat in patterns:
        if any(c in pat for c in "*?["):
            found += [p.relative_to(cwd).as_posix() for p in sorted(cwd.glob(pat)) if p.is_file()]
        elif (cwd / pat).is_file():
            found.append(pat)
        elif missing is None:
            missing = pat
    return sorted(set(found)), missing


def _safe_execute(task):
    try:
        return execute(task)
    except Exception as e:  # noqa: BLE001 - a bug or a full disk, not the run's fault
        import traceback

        return {"format": CACHE_FORMAT, "key": task["key"], "status": "failed", "transient": True,
                "error": "internal error: " + "".join(traceback.format_exception_only(type(e), e)).strip(),
                "elapsed": None, "stdout": "", "metrics": {}, "files": []}


# ---- progress ---------------------------------------------------------------------------------------

def _hms(s: float) -> str:
    s = int(round(s))
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"


class Progress:
    """A one-line progress bar on stderr: done/total, rate, ETA, cached and
    failed counts.  Redrawn in place on a terminal (at most 10 times a
    second); elsewhere (a log file, CI) one line every 30 s."""

    def __init__(self, total: int, cached: int, enabled: bool = True, stream=None):
        self.stream = stream or sys.stderr
        self.enabled = enabled
        self.tty = enabled and getattr(self.stream, "isatty", lambda: False)()
        self.total, self.cached = total, cached
        self.done = cached
        self.ran = 0
        self.failed = 0
        self.t0 = time.monotonic()
        self.last = 0.0
        self.width = 0
        self.draw(force=True)

    def update(self, failed: bool):
        self.done += 1
        self.ran += 1
        self.failed += bool(failed)
        self.draw()

    def line(self) -> str:
        el = time.monotonic() - self.t0
        pct = 100.0 * self.done / self.total if self.total else 100.0
        bar_n = 24
        fill = int(bar_n * self.done / self.total) if self.total else bar_n
        rate = self.ran / el if el > 0 and self.ran else 0.0
        left = self.total - self.done
        eta = _hms(left / rate) if rate > 0 else "?"
        extra = [f"{self.cached} cached"] if self.cached else []
        if self.failed:
            extra.append(f"{self.failed} failed")
        tail = f" ({', '.join(extra)})" if extra else ""
        speed = f"{rate:.2f} runs/s  " if self.ran else ""
        return (f"sweep {self.done}/{self.total} {pct:3.0f}% |{'#' * fill}{'.' * (bar_n - fill)}| "
                f"{speed}elapsed {_hms(el)}  ETA {eta if left else '0:00:00'}{tail}")

    def draw(self, force=False):
        if not self.enabled:
            return
        now = time.monotonic()
        if self.tty:
            if force or now - self.last >= 0.1 or self.done == self.total:
                s = self.line()
                self.stream.write("\r" + s + " " * max(0, self.width - len(s)))
                self.width = len(s)
                self.stream.flush()
                self.last = now
        elif force or now - self.last >= 30 or self.done == self.total:
            self.stream.write(self.line() + "\n")
            self.stream.flush()
            self.last = now

    def close(self):
        if self.enabled:
            if self.tty:
                self.draw(force=True)
                self.stream.write("\n")
            elif self.last and self.done != self.total:
                self.stream.write(self.line() + "\n")
            self.stream.flush()


# ---- running a sweep ------------------------------------------------------------------------------

def default_jobs() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


class SweepInterrupted(KeyboardInterrupt):
    """Ctrl-C (or SIGTERM) during a sweep: the children are killed, finished
    runs are in the cache; running the same sweep again resumes."""


class SweepReport:
    """What the last `run_sweep` did (also printed by the command line)."""

    def __init__(self):
        self.total = self.cached = self.ran = self.failed = 0
        self.wall = 0.0
        self.jobs = 0
        self.failures: list[str] = []

    def __repr__(self):
        return (f"SweepReport(total={self.total}, cached={self.cached}, ran={self.ran}, failed={self.failed}, "
                f"wall={self.wall:.2f})")


#: The report of the most recent run_sweep in this process.
last_report = SweepReport()


def _as_plan(plan) -> Plan:
    if isinstance(plan, Plan):
        return plan
    if isinstance(plan, (str, os.PathLike)):
        return load_plan(plan)
    if isinstance(plan, dict):
        return Plan(**plan)
    raise TypeError(f"run_sweep: expected a Plan, a plan file or a dict; got {type(plan).__name__}")


def run_sweep(plan, out=None, *, jobs: int | None = None, cache_dir=None, dask=None, progress: bool = True,
              retry_failed: bool = False):
    """Run every run of `plan` not already in the cache; return the table.

    plan         -- a Plan, a path to a TOML plan, or a dict of Plan's keywords
    out          -- write the table here (.parquet, or .csv); default the
                    plan's `out`, else PLAN.parquet beside a plan file; a
                    Plan built in Python without `out` writes nothing
    jobs         -- parallel runs (default: all cores available to us)
    cache_dir    -- the cache directory (default the plan's `cache`, else
                    .dumbbell-cache beside the plan); False for no cache
    dask         -- a Dask scheduler address ("tcp://host:port") or a
                    distributed.Client: runs go to its workers
    progress     -- a progress bar on stderr
    retry_failed -- run again the runs whose failure is in the cache

    Rows are in plan order (see Plan.points), then seed: the table does not
    depend on the order runs finish in, nor on what came from the cache.
    Ctrl-C raises SweepInterrupted after killing the running children.
    """
    global last_report
    plan = _as_plan(plan)
    t0 = time.monotonic()
    rep = SweepReport()
    last_report = rep
    cache = Cache(cache_dir_for(plan, cache_dir) or None)
    runs = plan.runs()
    records, todo = partition(runs, cache, retry_failed)
    pending = {r.key: r.task for r in todo}
    rep.total, rep.cached = len(runs), len(records)
    jobs = max(1, int(jobs or default_jobs()))
    rep.jobs = jobs
    bar = Progress(len(records) + len(pending), len(records), enabled=progress)

    def done(rec):
        staged, blobs = rec.pop("_staged", None), rec.pop("_blobs", None)
        transient = rec.pop("transient", False)
        if rec["status"] == "cancelled":
            if staged:
                shutil.rmtree(staged, ignore_errors=True)
            return
        if not transient:
            cache.put(rec, staged=staged, blobs=blobs)
        elif staged:
            shutil.rmtree(staged, ignore_errors=True)
        records[rec["key"]] = rec
        rep.ran += 1
        bar.update(rec["status"] != "ok")

    for t in pending.values():
        t["stage"] = str(cache.root / "files") if (cache.root and t["outputs"] and dask is None) else None
    try:
        if pending:
            if dask is not None:
                _run_dask(list(pending.values()), dask, done)
            else:
                _run_local(list(pending.values()), jobs, done)
    except KeyboardInterrupt:
        bar.close()
        rep.wall = time.monotonic() - t0
        raise SweepInterrupted(f"interrupted: {len(records)} of {len(pending) + rep.cached} runs finished and "
                               "cached; run the same sweep again to resume") from None
    bar.close()
    df = _assemble(plan, runs, records, cache)
    rep.failed = int((df["status"] != "ok").sum())
    rep.failures = _failure_lines(plan, df)
    out = Path(out) if out else plan.default_out
    if out is not None:
        write_table(df, out)
        _plots(plan, df, out)
    rep.wall = time.monotonic() - t0
    return df



def _run_local(tasks, jobs, done):
    from concurrent.futures import ThreadPoolExecutor, as_completed

    from .. import _forkserver

    _CANCEL.clear()
    ex = ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="dumbbell-sweep")
    futs, handed = [], set()
    try:
        futs = [ex.submit(_safe_execute, t) for t in tasks]
        for f in as_completed(futs):
            handed.add(f)
            done(f.result())
    except BaseException:
        _CANCEL.set()
        ex.shutdown(wait=False, cancel_futures=True)
        _kill_active()
        ex.shutdown(wait=True)
        _CANCEL.clear()
        # Runs that finished before they were killed are stored (the killed
        # ones come back "cancelled", which `done` does not store).
        for f in futs:
            if f not in handed and f.done() and not f.cancelled() and f.exception() is None:
                done(f.result())
        raise
    finally:
        _forkserver.close_all()
    ex.shutdown()


def _execute_with_files(task: dict, files: dict) -> dict:
    """`execute` on a Dask worker, the plan's files given apart."""
    return execute({**task, "files": files})


def _run_dask(tasks, address, done):
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise RuntimeError("dask: the `distributed` package is not installed; pip install 'dumbbell[dask]'") from None
    own = not isinstance(address, Client)
    client = Client(address, timeout="30s") if own else address
    futs = []
    try:
        by_key = {}
        # The files every run of a plan needs (script, inputs) are one dict
        # shared by its tasks: sent to the cluster once, not with each task,
        # as one object under a key hashed from its content.  (Scattering the
        # dict itself would make its file names cluster-wide keys: another
        # sweep's "run.tcl" on the same cluster would be taken for ours.)
        shared: dict[int, object] = {}
        for t in tasks:
            files = t["files"]
            if id(files) not in shared:
                shared[id(files)] = client.scatter([files], broadcast=True, hash=True)[0] if files else {}
            light = {k: v for k, v in t.items() if k != "files"}
            f = client.submit(_execute_with_files, light, shared[id(files)], key=f"dumbbell-run-{t['key']}",
                              pure=False, retries=0)
            futs.append(f)
            by_key[f.key] = t
        for f in as_completed(futs):
            try:
                rec = f.result()
            except Exception as e:  # noqa: BLE001 - a lost worker, not the run's fault
                t = by_key[f.key]
                rec = {"format": CACHE_FORMAT, "key": t["key"], "status": "failed", "transient": True,
                       "error": f"dask: {type(e).__name__}: {e}", "elapsed": None, "stdout": "", "metrics": {},
                       "files": []}
            done(rec)
    except BaseException:
        if futs:
            try:
                client.cancel(futs)
            except Exception:  # noqa: BLE001
                pass
        raise
    finally:
        if own:
            client.close()


# ---- the table --------------------------------------------------------------------------------------

def _series(name, values):
    import polars as pl

    present = [v for v in values if v is not None]
    if present and all(isinstance(v, bool) for v in present):
        dtype = pl.Boolean
    elif present and all(isinstance(v, int) and not isinstance(v, bool) for v in present):
        dtype = pl.Int64
    elif present and all(_is_num(v) for v in present):
        dtype = pl.Float64
        values = [None if v is None else float(v) for v in values]
    elif not present:
        dtype = pl.Float64
    else:
        dtype = pl.String
        values = [None if v is None else str(v) for v in values]
    return pl.Series(name, values, dtype=dtype)


def _assemble(plan: Plan, runs: list[Run], records: dict, cache: Cache):
    import polars as pl

    fixed = set(plan.param_names) | set(RESERVED)
    rows_metrics, status, error, elapsed = [], [], [], []
    names: list[str] = list(plan.metrics.static)
    for r in runs:
        rec = records.get(r.key)
        m: dict = {}
        err = None
        if rec is None:
            err = "not run"
        elif rec["status"] != "ok":
            err = rec.get("error") or "failed"
        else:
            try:
                m = plan.metrics.from_stdout(rec.get("stdout", "")) if plan.kind == "tcl" else {}
                for k, v in (rec.get("metrics") or {}).items():
                    if k in m:
                        raise MetricError(f"metric {k!r} comes both from stdout and from metrics.function")
                    m[k] = v
                bad = [k for k in m if k in fixed]
                if bad:
                    raise MetricError(f"metric {bad[0]!r} has the name of a parameter or of a table column; "
                                      "rename it (or use metrics.keyvalue = [keys])")
            except MetricError as e:
                err, m = f"metrics: {e}", {}
        for k in m:
            if k not in names:
                names.append(k)
        rows_metrics.append(m)
        status.append("ok" if err is None else "failed")
        error.append(err)
        elapsed.append(rec.get("elapsed") if rec else None)
    keep = plan.metrics.keep or names
    cols = [_series(p, [r.params[p] for r in runs]) for p in plan.param_names]
    cols.append(pl.Series("seed", [r.seed for r in runs], dtype=pl.Int64))
    cols += [_series(n, [m.get(n) for m in rows_metrics]) for n in keep]
    cols += [pl.Series("status", status, dtype=pl.String), pl.Series("error", error, dtype=pl.String),
             pl.Series("elapsed", elapsed, dtype=pl.Float64),
             pl.Series("key", [r.key for r in runs], dtype=pl.String)]
    if plan.outputs:
        kept = [str(cache.files_dir(r.key)) if (cache.root and records.get(r.key, {}).get("files")) else None
                for r in runs]
        cols.append(pl.Series("files", kept, dtype=pl.String))
    return pl.DataFrame(cols)


def write_table(df, out) -> None:
    """Write atomically: .csv as CSV, anything else as Parquet."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f".{out.name}.{os.getpid()}.tmp")
    if out.suffix.lower() == ".csv":
        df.write_csv(tmp)
    else:
        df.write_parquet(tmp)
    os.replace(tmp, out)


def _failure_lines(plan, df, limit=10) -> list[str]:
    bad = df.filter(df["status"] != "ok")
    lines = []
    for row in bad.head(limit).iter_rows(named=True):
        what = " ".join(f"{p}={row[p]}" for p in plan.param_names) + f" seed={row['seed']}"
        first = (row["error"] or "").strip().splitlines()
        lines.append(f"{what}: {first[0] if first else 'failed'}" + (" ..." if len(first) > 1 else ""))
    return lines


def _plots(plan, df, out: Path):
    for p in plan.plots:
        path = p.get("path") or out.with_name(f"{out.stem}-{'-'.join(p['y'])}-vs-{p['x']}.png")
        try:
            fig = plot_sweep(df, p["x"], p["y"], hue=p.get("hue"), path=path, title=p.get("title"))
            from ..plot import _plt

            _plt().close(fig)
        except (ValueError, KeyError) as e:
            sys.stderr.write(f"sweep: plot {p['y']} vs {p['x']} not drawn: {e}\n")


# ---- statistics over seeds ------------------------------------------------------------------------

def _betacf(a, b, x):
    """Continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 100000):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-16:
            break
    return h


def _betainc(a, b, x):
    """Regularized incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    ln_front = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    front = math.exp(ln_front)
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def _t_tail(t, df):
    """P(T > t) for t >= 0, Student's t with df degrees of freedom."""
    return 0.5 * _betainc(df / 2.0, 0.5, df / (df + t * t))


def t_quantile(p: float, df: float) -> float:
    """The p-quantile of Student's t distribution with df degrees of freedom
    (exact to about 1e-12: closed forms for df 1 and 2, otherwise the
    incomplete beta function inverted by bisection)."""
    if not 0.0 < p < 1.0:
        raise ValueError(f"p must be in (0, 1); got {p}")
    if not df > 0:
        raise ValueError(f"df must be > 0; got {df}")
    if p == 0.5:
        return 0.0
    if p < 0.5:
        return -t_quantile(1.0 - p, df)
    if df == 1:
        return math.tan(math.pi * (p - 0.5))
    if df == 2:
        return (2.0 * p - 1.0) / math.sqrt(2.0 * p * (1.0 - p))
    q = 1.0 - p
    lo, hi = 0.0, 1.0
    while _t_tail(hi, df) > q:
        lo, hi = hi, hi * 2.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if _t_tail(mid, df) > q:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 4e-16 * hi:
            break
    return 0.5 * (lo + hi)


def _param_columns(df) -> list[str]:
    """A sweep table's parameter columns: those before `seed`."""
    cols = df.columns
    if "seed" not in cols:
        raise ValueError("not a sweep table: no `seed` column (pass by=[...] explicitly)")
    return cols[: cols.index("seed")]


def summarise(df, metrics, by=None, level: float = 0.95):
    """Mean over seeds with a Student-t confidence interval.

    df      -- a sweep table (only rows with status "ok" count)
    metrics -- a metric name or a list of them
    by      -- the grouping columns (default: every parameter column)
    level   -- the confidence level of the interval

    One row per group, in order of first appearance, with for each metric m:
    m_n (values, nulls excluded), m_mean, m_std (sample, n-1), m_ci_lo and
    m_ci_hi (mean -/+ t_{(1+level)/2, n-1} std/sqrt(n); null when n < 2).
    """
    import polars as pl

    metrics = [metrics] if isinstance(metrics, str) else list(metrics)
    by = _param_columns(df) if by is None else ([by] if isinstance(by, str) else list(by))
    for c in by + metrics:
        if c not in df.columns:
            raise ValueError(f"summarise: no column {c!r} (columns: {', '.join(df.columns)})")
    if not 0 < level < 1:
        raise ValueError(f"summarise: level must be in (0, 1); got {level}")
    d = df.filter(pl.col("status") == "ok") if "status" in df.columns else df
    aggs = []
    for m in metrics:
        aggs += [pl.col(m).count().alias(f"{m}_n"), pl.col(m).mean().alias(f"{m}_mean"),
                 pl.col(m).std(ddof=1).alias(f"{m}_std")]
    g = d.group_by(by, maintain_order=True).agg(aggs)
    p = 0.5 + level / 2.0
    for m in metrics:
        ns = g[f"{m}_n"].to_list()
        tq = {n: t_quantile(p, n - 1) for n in set(ns) if n and n > 1}
        half = [None if (n is None or n < 2 or s is None) else tq[n] * s / math.sqrt(n)
                for n, s in zip(ns, g[f"{m}_std"].to_list())]
        h = pl.lit(pl.Series("h", half, dtype=pl.Float64))
        g = g.with_columns((pl.col(f"{m}_mean") - h).alias(f"{m}_ci_lo"), (pl.col(f"{m}_mean") + h).alias(f"{m}_ci_hi"))
    return g


def plot_sweep(df, x: str, y, hue: str | None = None, path=None, *, level: float = 0.95, title: str | None = None,
               ax=None, logx: bool = False, logy: bool = False):
    """A metric against a parameter: the mean over seeds as a line, its
    confidence interval as a band (none with one seed); one line per value of
    `hue` and per metric when `y` is a list.  Every other parameter must be
    constant (filter the table first); saves to `path` (PNG/PDF/SVG by
    extension) when given; returns the figure."""
    from ..plot import _check_path, _finish, _plt

    _check_path(path, "plot_sweep")
    plt = _plt()
    ys = [y] if isinstance(y, str) else list(y)
    for c in [x] + ys + ([hue] if hue else []):
        if c not in df.columns:
            raise ValueError(f"plot_sweep: no column {c!r} (columns: {', '.join(df.columns)})")
    params = _param_columns(df) if "seed" in df.columns else []
    varying = [c for c in params if c not in (x, hue) and df[c].n_unique() > 1]
    if varying:
        raise ValueError(f"plot_sweep: {varying[0]!r} varies ({df[varying[0]].n_unique()} values) but is neither x "
                         f"nor hue; filter the table to one value or pass hue={varying[0]!r}")
    by = [x] + ([hue] if hue else [])
    s = summarise(df, ys, by=by, level=level).sort(by)
    if ax is None:
        fig, ax = plt.subplots(figsize=(7, 3.5), dpi=120)
    else:
        fig = ax.figure
    groups = s.partition_by(hue, maintain_order=True) if hue else [s]
    lines = 0
    for g in groups:
        for m in ys:
            label_parts = ([m] if len(ys) > 1 else []) + ([f"{hue}={g[hue][0]}"] if hue else [])
            xs = g[x].to_numpy()
            mean = g[f"{m}_mean"].to_numpy()
            (ln,) = ax.plot(xs, mean, lw=1.0, label=", ".join(label_parts) or m)
            lo, hi = g[f"{m}_ci_lo"], g[f"{m}_ci_hi"]
            if lo.null_count() < len(lo):
                ax.fill_between(xs, lo.fill_null(float("nan")).to_numpy(), hi.fill_null(float("nan")).to_numpy(),
                                color=ln.get_color(), alpha=0.2, lw=0)
            lines += 1
    ax.set_xlabel(x)
    ax.set_ylabel(ys[0] if len(ys) == 1 else "value")
    if logx:
        ax.set_xscale("log")
    if logy:
        ax.set_yscale("log")
    n_seeds = int(s[f"{ys[0]}_n"].max() or 0) if len(s) else 0
    if title is None and n_seeds > 1:
        title = f"mean over {n_seeds} seeds, {level:.0%} confidence band"
    if title:
        ax.set_title(title, fontsize=9)
    return _finish(fig, ax, path, None, legend=lines > 1)


# ---- the command line ------------------------------------------------------------------------------

def _parse_set(items) -> dict:
    out = {}
    for it in items or []:
        name, eq, value = it.partition("=")
        if not eq or not _NAME.match(name.strip()):
            raise PlanError(f"--set {it!r}: expected NAME=VALUE (a TOML value, e.g. 20, [1, 2] or "
                            "{start = 0, stop = 10, step = 1})")
        try:
            if sys.version_info >= (3, 11):
                import tomllib
            else:  # pragma: no cover
                import tomli as tomllib
            v = tomllib.loads(f"v = {value}")["v"]
        except Exception:  # noqa: BLE001 - a bare word is a string
            v = value
        out[name.strip()] = v
    return out


def cli_main(argv: list[str]) -> int:
    """`dumbbell sweep PLAN.toml [options]`."""
    import argparse

    ap = argparse.ArgumentParser(prog="dumbbell sweep",
                                 description="Run a parameter sweep (docs/sweeps.md): in parallel, each run cached, "
                                             "resumable; results in one table.")
    ap.add_argument("plan", help="the plan (TOML)")
    ap.add_argument("-j", "--jobs", type=int, default=None, help="parallel runs (default: all cores)")
    ap.add_argument("-o", "--out", default=None, help="the table (.parquet or .csv; default: the plan's `out`, "
                                                      "else PLAN.parquet beside the plan)")
    ap.add_argument("--cache", default=None, help="cache directory (default: the plan's `cache`, else "
                                                  ".dumbbell-cache beside the plan)")
    ap.add_argument("--no-cache", action="store_true", help="run everything, store nothing")
    ap.add_argument("--dask", metavar="ADDR", default=None, help="run on a Dask cluster (tcp://host:port)")
    ap.add_argument("--retry-failed", action="store_true", help="run again the runs the cache records as failed")
    ap.add_argument("--no-progress", action="store_true", help="no progress bar")
    ap.add_argument("--dry-run", action="store_true", help="show the plan and what would run; run nothing")
    ap.add_argument("--set", action="append", metavar="NAME=VALUE", help="override a parameter (TOML value)")
    a = ap.parse_args(argv)
    try:
        plan = load_plan(a.plan, _parse_set(a.set))
    except PlanError as e:
        sys.stderr.write(f"dumbbell sweep: {e}\n")
        return 2
    out = Path(a.out) if a.out else plan.default_out
    cache_dir = False if a.no_cache else (a.cache or None)
    if a.dry_run:
        return _dry_run(plan, cache_dir, a.retry_failed, out)

    def term(signum, frame):
        raise KeyboardInterrupt

    old = signal.signal(signal.SIGTERM, term)
    try:
        df = run_sweep(plan, out, jobs=a.jobs, cache_dir=cache_dir, dask=a.dask, progress=not a.no_progress,
                       retry_failed=a.retry_failed)
    except SweepInterrupted as e:
        sys.stderr.write(f"\ndumbbell sweep: {e}\n")
        return 130
    except (PlanError, RuntimeError, OSError) as e:
        sys.stderr.write(f"dumbbell sweep: {e}\n")
        return 2
    finally:
        signal.signal(signal.SIGTERM, old)
    r = last_report
    where = f"on {a.dask}" if a.dask else f"{r.jobs} jobs"
    sys.stderr.write(f"sweep {plan.name}: {r.total} runs, {r.total - r.failed} ok, {r.failed} failed; "
                     f"{r.ran} run now, {r.cached} from the cache; {r.wall:.1f} s ({where})\n"
                     f"table: {out} ({len(df)} rows x {len(df.columns)} columns)\n")
    for ln in r.failures:
        sys.stderr.write(f"  failed: {ln}\n")
    if r.failed > len(r.failures):
        sys.stderr.write(f"  ... and {r.failed - len(r.failures)} more (see the table's error column)\n")
    if r.failed:
        sys.stderr.write("  (failures are cached; --retry-failed runs them again)\n")
    return 1 if r.failed else 0


def _dry_run(plan, cache_dir, retry_failed, out) -> int:
    cache_dir = cache_dir_for(plan, cache_dir)
    cache = Cache(cache_dir or None, create=False)
    records, todo = partition(plan.runs(), cache, retry_failed)
    cached = len(records)
    failed = sum(rec["status"] != "ok" for rec in records.values())
    print(plan.describe())
    print(f"  cache {cache_dir or '(none)'}: {cached} runs done ({failed} failed), {len(todo)} to run")
    print(f"  table {out}")
    for r in todo[:5]:
        print(f"  would run: {plan.command(r)}")
    if len(todo) > 5:
        print(f"  ... and {len(todo) - 5} more")
    return 0
