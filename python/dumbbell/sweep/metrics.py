"""What a run's row of the table keeps: the plan's `metrics` spec.

`Metrics` checks the spec and reads the metrics of an ns-2 run from its
stdout (`from_stdout`, applied when the table is built); `convert` turns a
printed value into a number where it is one.  Not to be confused with
dumbbell.metrics, the trace metrics a `metrics.function` may call.  Relies
on params (PlanError, NAME).
"""

from __future__ import annotations

import re

from .params import NAME, PlanError

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
            if not NAME.match(n):
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
