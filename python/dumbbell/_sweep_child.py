"""The process a sweep starts for each run (see dumbbell.sweep.worker).

    python -m dumbbell._sweep_child tcl [--safe] [--max-events N] [--max-wall S] [--] SCRIPT [ARGS...]
        runs an ns-2 script exactly as `dumbbell run [OPTIONS] SCRIPT ARGS...`
        does (the options, when given, end with `--`);
    python -m dumbbell._sweep_child py REQUEST.json RESULT.json
        calls a Python function (a sweep's function, or a metrics function on
        a finished run's directory) and writes its dict as JSON.

The child asks Linux to kill it when the sweep that started it dies, so that
a sweep killed with SIGKILL leaves no simulations running.  This module is
kept small: it is imported once per run.
"""

from __future__ import annotations

import os
import sys

#: Starts the error of a function run that a run limit stopped
#: (RunLimitExceeded): the sweep records it as "stopped", not "failed".
LIMIT_MARK = "\x00limit\x00"


def child_env(extra: dict | None = None) -> dict:
    """The environment of a process the sweep starts: ours, `extra`, the
    sweep's pid (for `die_with_parent`) and a PYTHONPATH that finds this
    Dumbbell first."""
    pkg_parent = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    pythonpath = [pkg_parent] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    return {**os.environ, **(extra or {}), "DUMBBELL_SWEEP_PARENT": str(os.getpid()),
            "PYTHONPATH": os.pathsep.join(pythonpath)}


def set_pdeathsig() -> bool:
    """Ask Linux to SIGKILL this process when its parent (thread) ends
    (PR_SET_PDEATHSIG); False where that is not available."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes
        import signal

        ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGKILL), 0, 0, 0)
        return True
    except Exception:  # noqa: BLE001 - best effort
        return False


def die_with_parent() -> None:
    """`set_pdeathsig` for a process the sweep started.  The sweep's pid is
    in the environment: if the sweep already died before the request took
    effect, exit at once."""
    parent = os.environ.get("DUMBBELL_SWEEP_PARENT")
    if parent and set_pdeathsig() and os.getppid() != int(parent):
        os._exit(137)


def load_target(target: str, file: str | None = None, sys_path=()):
    """The callable named "module:qualname"; `file` imports the module from
    that file instead (a function defined in a script run as __main__)."""
    import importlib
    import importlib.util

    for p in reversed(list(sys_path)):
        if p not in sys.path:
            sys.path.insert(0, p)
    mod_name, _, qual = target.partition(":")
    if file:
        spec = importlib.util.spec_from_file_location("__dumbbell_sweep_main__", file)
        mod = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = mod
        spec.loader.exec_module(mod)
    else:
        mod = importlib.import_module(mod_name)
    obj = mod
    for part in qual.split("."):
        obj = getattr(obj, part)
    return obj


def call_with(fn, available: dict):
    """Call `fn` with the entries of `available` its signature names (all of
    them if it takes **kwargs)."""
    import inspect

    sig = inspect.signature(fn)
    if any(p.kind is p.VAR_KEYWORD for p in sig.parameters.values()):
        return fn(**available)
    return fn(**{k: v for k, v in available.items() if k in sig.parameters})


def plain(name: str, value):
    """A metric value as JSON-able scalar: numpy scalars become Python ones."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    item = getattr(value, "item", None)
    if callable(item):
        try:
            v = item()
        except (TypeError, ValueError):
            v = value
        if v is None or isinstance(v, (bool, int, float, str)):
            return v
    raise TypeError(f"metric {name!r} is a {type(value).__name__}, not a number, string, bool or None")


def _py(request: str, result: str) -> int:
    import json
    import traceback
    from pathlib import Path

    req = json.loads(Path(request).read_text())
    try:
        fn = load_target(req["target"], req.get("file"), req.get("sys_path", ()))
        available = dict(req.get("kwargs", {}))
        if req["mode"] == "extract":
            available = {"run_dir": Path.cwd(), "params": req["params"], "seed": req["seed"],
                         "stdout": Path(req["stdout"]).read_text(errors="replace")}
        out = fn(**available) if req["mode"] == "call" else call_with(fn, available)
        if not hasattr(out, "items"):
            raise TypeError(f"{req['target']} returned {type(out).__name__}, not a dict of metrics")
        metrics = {str(k): plain(str(k), v) for k, v in out.items()}
        Path(result).write_text(json.dumps({"ok": True, "metrics": metrics}))
        return 0
    except BaseException as err:  # noqa: BLE001 - reported to the sweep
        text = "".join(traceback.format_exception(type(err), err, err.__traceback__))
        if type(err).__name__ == "RunLimitExceeded":
            text = f"{LIMIT_MARK}stopped: {err}"
        Path(result).write_text(json.dumps({"ok": False, "error": text}))
        return 1


def _tcl_options(argv: list[str]) -> tuple[dict, list[str]]:
    """The run options before `--` (written by the sweep itself, so not
    checked again), and the script with its argv."""
    if "--" not in argv or argv[0] not in ("--safe", "--max-events", "--max-wall", "--"):
        return {}, argv
    i = argv.index("--")
    opts: dict = {}
    words = iter(argv[:i])
    for w in words:
        if w == "--safe":
            opts["safe"] = True
        elif w == "--max-events":
            opts["max_events"] = int(next(words))
        elif w == "--max-wall":
            opts["max_wall"] = float(next(words))
    return opts, argv[i + 1:]


def main(argv: list[str]) -> int:
    die_with_parent()
    if argv and argv[0] == "tcl" and len(argv) >= 2:
        from .ns2.runner import run_script

        opts, rest = _tcl_options(argv[1:])
        return run_script(rest[0], rest[1:], **opts)
    if len(argv) == 3 and argv[0] == "py":
        return _py(argv[1], argv[2])
    sys.stderr.write("usage: python -m dumbbell._sweep_child (tcl SCRIPT [ARGS...] | py REQUEST RESULT)\n")
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
