"""The parameters of a plan: what they may be called and the values they take.

`expand` turns one parameter's spec (a value, a list, a range or a
linspace) into its values; `NAME` is what a parameter or metric may be
called and `RESERVED` the column names a sweep's table uses itself.
`PlanError`, the error of a plan that cannot run, is here because the
checks of every part of a plan raise it.  Relies on nothing else of the sweep.
"""

from __future__ import annotations

import math
import re
from decimal import ROUND_FLOOR, Decimal

#: Column names a sweep's table uses itself.
RESERVED = ("seed", "status", "error", "elapsed", "key", "files")
#: What a parameter or a metric may be called.
NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


class PlanError(ValueError):
    """A plan that cannot run; the message names the key and what was expected."""


def is_num(v) -> bool:
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
        if not is_num(v) or not math.isfinite(v):
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
        if not is_num(v) or not math.isfinite(v):
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
