"""Plans: what a sweep runs, over which values and seeds, keeping what.

`Plan` checks a plan and expands it into `Run`s, each with the task dict
that `execute` needs and the cache key hashed over everything the run
depends on; `load_plan` reads a plan from a TOML file.  Relies on params
(parameter values), metrics (the metrics spec), cache (CACHE_FORMAT and the
build id in each key) and dumbbell._sweep_child (to import a function as the
runs will).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import string
import sys
from dataclasses import dataclass
from pathlib import Path

from .._sweep_child import load_target
from .cache import CACHE_FORMAT, build_id
from .metrics import Metrics
from .params import NAME, RESERVED, PlanError, expand, is_num


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
    See docs/sweeps.md for every key.  `seeds` are labels 1..N: as ns-2 seeds
    they are correlated (seeds 1 and 2 by 0.5), so a function makes
    replication `seed` of one seed, ``Simulation(seed=1, run=seed - 1)``.
    """

    KEYS = ("script", "function", "args", "env", "params", "zip", "seeds", "metrics", "inputs", "outputs",
            "timeout", "safe", "max_events", "max_wall", "out", "cache", "plots", "python_path")

    def __init__(self, script=None, function=None, *, args=None, env=None, params=None, zip=(), seeds=1,
                 metrics=None, inputs=(), outputs=(), timeout=None, safe=False, max_events=None, max_wall=None,
                 out=None, cache=None, plots=(), python_path=None, base_dir=None, name=None):
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
            if not isinstance(k, str) or not NAME.match(k):
                raise PlanError(f"params.{k}: parameter names are identifiers (letters, digits, _)")
            if k in RESERVED:
                raise PlanError(f"params.{k}: {k!r} is a column of the table; choose another name")
            self.values[k] = expand(k, spec)
        self.param_names = list(self.values)
        self.zip_groups = self._zip(zip)
        self.seeds = self._seeds(seeds)
        self.timeout = None
        if timeout is not None:
            if not is_num(timeout) or timeout <= 0:
                raise PlanError(f"timeout: expected seconds > 0; got {timeout!r}")
            self.timeout = float(timeout)
        self.run_options = self._run_options(safe, max_events, max_wall)
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

    def _run_options(self, safe, max_events, max_wall) -> dict:
        """`dumbbell run --safe --max-events N --max-wall S` for every run of
        a script plan: only those given (so a plan without them keeps its
        cache keys)."""
        opts: dict = {}
        if not isinstance(safe, bool):
            raise PlanError(f"safe: expected true or false; got {safe!r}")
        if safe:
            opts["safe"] = True
        if max_events is not None:
            if isinstance(max_events, bool) or not isinstance(max_events, int) or max_events < 1:
                raise PlanError(f"max_events: expected a whole number of events >= 1; got {max_events!r}")
            opts["max_events"] = max_events
        if max_wall is not None:
            if not is_num(max_wall) or not 0 < max_wall < float("inf"):
                raise PlanError(f"max_wall: expected seconds > 0; got {max_wall!r}")
            opts["max_wall"] = float(max_wall)
        if opts and self.kind != "tcl":
            k = next(iter(opts))
            raise PlanError(f"{k}: only for scripts (dumbbell run --{k.replace('_', '-')}); a function passes "
                            "max_events= and max_wall= to Simulation.run itself, and a run it stops is "
                            "recorded as stopped")
        return opts

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
            raise PlanError(f"plots[{i}]: expected a table with x, y and optionally hue, path, title, xlabel, ylabel")
        unknown = set(p) - {"x", "y", "hue", "path", "title", "xlabel", "ylabel"}
        if unknown:
            raise PlanError(f"plots[{i}].{sorted(unknown)[0]}: unknown key; expected x, y, hue, path, title, xlabel, "
                            "ylabel")
        for k in ("title", "xlabel", "ylabel"):
            if p.get(k) is not None and not isinstance(p[k], str):
                raise PlanError(f"plots[{i}].{k}: expected a string; got {p[k]!r}")
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
            from ..analysis.plot import _check_path

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
            task["run_options"] = self.run_options
            if self.run_options.get("safe"):
                # --safe can change the outcome (a refused exec); the limits
                # cannot change a finished run (partition compares them for
                # a stopped one)
                material["safe"] = True
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
        from .._words import count

        lines = [f"plan {self.name}: {count(n_pts, 'point')} x {count(len(self.seeds), 'seed')} = "
                 f"{count(n_pts * len(self.seeds), 'run')}"]
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
            return (env + " " if env else "") + shlex.join(["dumbbell", "run", *run_flags(t.get("run_options", {})),
                                                             t["script"], *t["args"]])
        return f"{t['call']['target']}(" + ", ".join(f"{k}={v!r}" for k, v in t["call"]["kwargs"].items()) + ")"


def run_flags(opts: dict) -> list[str]:
    """A run's options as `dumbbell run`'s flags."""
    flags = ["--safe"] if opts.get("safe") else []
    for k in ("max_events", "max_wall"):
        if opts.get(k) is not None:
            flags += ["--" + k.replace("_", "-"), str(opts[k])]
    return flags


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
