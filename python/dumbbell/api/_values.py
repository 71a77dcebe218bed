"""Value checking for the Python API: bandwidths, times, bound variables.
Every error is a ValueError that names the call, the parameter and the value."""

from __future__ import annotations

import functools
import math
import numbers
import re
from collections.abc import Mapping
from difflib import get_close_matches
from types import MappingProxyType

from .._engine import Engine

# ---- value checking -----------------------------------------------------------

_NUM = r"[0-9.eE+-]+"
_BW_RE = re.compile(rf"^({_NUM})([kKmMgGtTpP]?)([bB](ps)?)?$")
_TIME_RE = re.compile(rf"^({_NUM})(s|ms|us|ns|ps|sec)?$")
_BW_MULT = {"": 1.0, "k": 1e3, "m": 1e6, "g": 1e9, "t": 1e12, "p": 1e15}
_TIME_MULT = {"s": 1.0, "sec": 1.0, "ms": 1e-3, "us": 1e-6, "ns": 1e-9, "ps": 1e-12}


#: The largest run number (`Simulation(run=R)`, `WirelessSimulation(run=R)`):
#: replication R is R jumps of the default RNG to its next substream (in the
#: engine and in the exported script's Tcl loop), so a run number is a count,
#: not a free integer.  ns-2's stream has 2^51 substreams; a million
#: replications is far past any study.
MAX_RUN = 1_000_000


def _run_number(run, what: str) -> int:
    if not isinstance(run, numbers.Integral) or isinstance(run, bool) or not 0 <= run <= MAX_RUN:
        raise ValueError(f"{what}: run must be an integer in 0..{MAX_RUN}, got {run!r} (replication R costs R "
                         "substream jumps, in the engine and in ns-2's script alike)")
    return int(run)


def _run_lines(run: int) -> list[str]:
    """The script's lines for replication `run`, after `$defaultRNG seed`:
    `run` x `$defaultRNG next-substream` (tools/rng.cc
    `RNG::reset_next_substream`; the ns-2 manual's RNG chapter), none for 0."""
    if not run:
        return []
    return [f"for {{set rep 0}} {{$rep < {run}}} {{incr rep}} {{$defaultRNG next-substream}}"]


def _is_number(v) -> bool:
    return isinstance(v, numbers.Real) and not isinstance(v, bool)


def _num_str(v) -> str:
    """A Python number as Tcl text that parses back to the same double."""
    if isinstance(v, numbers.Integral):
        return str(int(v))
    return repr(float(v))


def _float_prefix(s: str) -> float | None:
    try:
        x = float(s)
    except ValueError:
        return None
    return x if math.isfinite(x) else None


def _parse_bandwidth(value, what: str = "bandwidth") -> tuple[str, float]:
    """Check a bandwidth: a number in bits/s or an ns-2 string such as
    ``"10Mb"``, ``"800Kb"``, ``"1.5Mbps"``, ``"2MB"`` (bytes/s).  Returns the
    Tcl text and the value in bits/s."""
    if _is_number(value):
        x = float(value)
        if not math.isfinite(x) or x <= 0:
            raise ValueError(f"{what} must be a positive number of bits/s, got {value!r}")
        return _num_str(value), x
    if isinstance(value, str):
        m = _BW_RE.match(value.strip())
        x = _float_prefix(m.group(1)) if m else None
        if m is not None and x is not None:
            mult = _BW_MULT[m.group(2).lower()]
            if m.group(2) and m.group(3) and m.group(3)[0] == "B":
                mult *= 8
            if x > 0:
                return value.strip(), x * mult
            raise ValueError(f"{what} must be positive, got {value!r}")
    raise ValueError(
        f"{what} must be a positive number of bits/s or a string such as '10Mb', '800Kb' or '1.5Mbps', got {value!r}"
    )


def _parse_time(value, what: str = "delay") -> tuple[str, float]:
    """Check a time: a number of seconds or an ns-2 string such as
    ``"10ms"``, ``"5us"``, ``"0.5"``.  Returns the Tcl text and seconds."""
    if _is_number(value):
        x = float(value)
        if not math.isfinite(x) or x < 0:
            raise ValueError(f"{what} must be a non-negative number of seconds, got {value!r}")
        return _num_str(value), x
    if isinstance(value, str):
        m = _TIME_RE.match(value.strip())
        x = _float_prefix(m.group(1)) if m else None
        if m is not None and x is not None:
            if x >= 0:
                return value.strip(), x * _TIME_MULT[m.group(2) or "s"]
            raise ValueError(f"{what} must not be negative, got {value!r}")
    raise ValueError(f"{what} must be a non-negative number of seconds or a string such as '10ms' or '2us', got {value!r}")


@functools.cache
def _bound_vars(kind: str) -> Mapping[str, str]:
    """The bound variables of engine class `kind` and their types (read
    only: one mapping per class, shared by every call)."""
    return MappingProxyType(dict(Engine.bound_vars(kind) or []))


@functools.cache
def _traceable_vars(kind: str) -> frozenset[str]:
    """The traced variables (TracedInt, TracedDouble) of `kind`."""
    return frozenset(n for n, t in _bound_vars(kind).items() if t.startswith("traced-"))


def _var_name(name: str, kind: str, bound: dict[str, str], what: str) -> str:
    """`windowInit` or `windowInit_` -> `windowInit_`, checked against the
    bound variables of `kind`."""
    for cand in (name, name + "_"):
        if cand in bound:
            return cand
    close = get_close_matches(name if name.endswith("_") else name + "_", list(bound), n=3)
    hint = f"; did you mean {', '.join(c.rstrip('_') for c in close)}?" if close else ""
    raise ValueError(f"{what}: unknown parameter {name!r} for {kind}{hint}")


# The valid range of the API's parameters, by class (a prefix of the engine
# class) and ns-2 variable: (low, low included, high, high included, special
# values also allowed).  An ns-2 script may set any value ns-2 accepts (the
# ns-2 layer refuses only what crashes ns-2); the API, which is Dumbbell's
# own, refuses values that cannot give a meaningful run.  docs/reliability.md
# lists them.
_INF = math.inf
_RANGES: dict[tuple[str, str], tuple[float, bool, float, bool, tuple[float, ...]]] = {
    ("Agent/TCP", "window_"): (0, False, 2**31 - 1, True, ()),
    ("Agent/TCP", "packetSize_"): (0, False, 2**28, True, ()),
    ("Agent/TCP", "windowInit_"): (0, False, 2**31 - 1, True, ()),
    ("Agent/TCP", "maxcwnd_"): (0, True, 2**31 - 1, True, ()),
    ("Agent/TCP", "overhead_"): (0, True, _INF, False, ()),
    ("Agent/TCP", "tcpTick_"): (0, False, _INF, False, ()),
    ("Agent/TCP", "maxburst_"): (0, True, _INF, False, ()),
    ("Agent/TCP", "minrto_"): (0, True, _INF, False, ()),
    ("Agent/TCP", "maxrto_"): (0, False, _INF, False, ()),
    ("Agent/TCPSink", "interval_"): (0, False, _INF, False, ()),
    ("Agent/UDP", "packetSize_"): (0, False, 2**28, True, ()),
    ("Queue", "limit_"): (0, True, 2**31 - 1, True, ()),
    ("Queue", "mean_pktsize_"): (0, False, 2**28, True, ()),
    # 0, -1 and -2 ask RED to choose the weight itself (red.cc initialize_params)
    ("Queue/RED", "q_weight_"): (0, False, 1, True, (0, -1, -2)),
    ("Queue/RED", "thresh_"): (0, True, _INF, False, ()),
    ("Queue/RED", "maxthresh_"): (0, True, _INF, False, ()),
    ("Queue/RED", "linterm_"): (0, False, _INF, False, ()),
    ("Queue/RED", "mark_p_"): (0, True, 1, True, ()),
    ("Queue/RED", "interval_"): (0, False, _INF, False, ()),
    ("Queue/JoBS", "mean_pkt_size_"): (0, False, 2**28, True, ()),
    ("Queue/JoBS", "adc_resolution_type_"): (0, True, 1, True, ()),
    ("Queue/RED/PD", "P_testFRp_"): (0, True, 1, True, (-1,)),
    ("Queue/RED/PD", "unresponsive_penalty_"): (0, False, _INF, False, ()),
    ("Application/Traffic", "packetSize_"): (0, False, 2**28, True, ()),
    ("Application/Traffic", "burst_time_"): (0, False, _INF, False, ()),
    ("Application/Traffic", "idle_time_"): (0, True, _INF, False, ()),
    ("Application/Traffic/Pareto", "shape_"): (0, False, _INF, False, ()),
    ("Application/Traffic/CBR", "interval_"): (0, False, _INF, False, ()),
    ("Application/Telnet", "interval_"): (0, True, _INF, False, ()),
}


def _range_of(kind: str | None, var: str):
    if kind is None:
        return None
    best = None
    for (prefix, v), r in _RANGES.items():
        if v == var and (kind == prefix or kind.startswith(prefix + "/")):
            if best is None or len(prefix) > len(best[0]):
                best = (prefix, r)
    return best[1] if best else None


def _range_text(r) -> str:
    lo, lo_in, hi, hi_in, special = r
    left = f"{'>=' if lo_in else '>'} {lo:.10g}"
    right = "" if hi == _INF else f" and {'<=' if hi_in else '<'} {hi:.10g}"
    extra = f" (or {', '.join(f'{s:g}' for s in special)})" if special else ""
    return left + right + extra


def _var_value(var: str, typ: str, value, what: str, label: str | None = None, kind: str | None = None) -> str:
    """A Python value as the Tcl text of bound variable `var` of type `typ`
    (`label`: the name the user gave it), within its range if `kind` (the
    engine class) declares one in `_RANGES`."""
    label = label or var
    bad = f"{what}: bad value {value!r} for {label}"
    if typ == "bool":
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, numbers.Integral):
            return str(int(value))
        if isinstance(value, str) and value in ("true", "false", "0", "1"):
            return value
        raise ValueError(f"{bad}: expected True or False")
    if typ in ("bandwidth", "time"):
        parse = _parse_bandwidth if typ == "bandwidth" else _parse_time
        text, x = parse(value, f"{what}: {label}")
        _check_range(kind, var, x, bad, label)
        return text
    if isinstance(value, bool):
        raise ValueError(f"{bad}: expected a number")
    if isinstance(value, str):
        x = _float_prefix(value.strip())
        if x is None:
            raise ValueError(f"{bad}: expected a number")
        text = value.strip()
    elif _is_number(value):
        x = float(value)
        if not math.isfinite(x):
            raise ValueError(f"{bad}: expected a finite number")
        text = _num_str(value)
    else:
        raise ValueError(f"{bad}: expected a number")
    if typ in ("int", "traced-int"):
        if x != int(x):
            raise ValueError(f"{bad}: expected an integer")
        if not isinstance(value, numbers.Integral):
            text = str(int(x))
        if abs(x) >= 2**31:
            raise ValueError(f"{bad}: out of range for a 32-bit integer")
    _check_range(kind, var, x, bad, label)
    return text


def _check_range(kind: str | None, var: str, x: float, bad: str, label: str) -> None:
    r = _range_of(kind, var)
    if r is not None:
        lo, lo_in, hi, hi_in, special = r
        ok = (x > lo or (lo_in and x == lo)) and (x < hi or (hi_in and x == hi))
        if not ok and x not in special:
            raise ValueError(f"{bad}: {label} must be {_range_text(r)}")


