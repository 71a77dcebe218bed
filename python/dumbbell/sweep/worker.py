"""One run: `execute(task)` in a fresh temporary directory, and its children.

An ns-2 script is forked from this thread's fork server (dumbbell._forkserver),
else started as `python -m dumbbell._sweep_child`, as are Python functions
and metrics functions.  Every child is in its own session, supervised for
its timeout and killed with its process group when the sweep is cancelled
(`CANCEL`, `kill_active`).  Relies on cache (CACHE_FORMAT and the build id of
the record), dumbbell._sweep_child and dumbbell._forkserver.

It is not called execute.py: the package re-exports the function
`execute`, which would shadow a submodule of that name.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from .. import __version__
from .._sweep_child import LIMIT_MARK, child_env
from .cache import CACHE_FORMAT, build_id, run_limits
from .plan import run_flags

#: How `dumbbell run` says a limit (--max-events, --max-wall) stopped it
#: (exit status 124, as timeout(1)).
STOPPED = "dumbbell: stopped: the run passed its limit"

_ACTIVE: dict[int, subprocess.Popen] = {}
_ACTIVE_LOCK = threading.Lock()
#: Set while the local pool cancels a sweep: a run not yet started returns
#: "cancelled" at once, a child started now is killed at once (`kill_active`
#: kills those already running).
CANCEL = threading.Event()


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
        if CANCEL.is_set():
            _killpg(p)
        rc = wait(timeout)
        if rc is None:
            _killpg(p)
            wait(None)
            return None, True, False
        return rc, False, CANCEL.is_set()
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

    opts = task.get("run_options") or {}
    flags = [*run_flags(opts), "--"] if opts else []
    cmd = child + ["tcl", *flags, task["script"], *task["args"]]
    try:
        fs = _forkserver.for_this_thread()
    except OSError:
        fs = None
    if fs is None:
        return _spawn(cmd, cwd, env, out_path, err_path, timeout)
    try:
        pid = fs.start(task["script"], task["args"], cwd, env, out_path, err_path, opts)
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


def kill_active():
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
    if CANCEL.is_set():
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
            stderr = err_path.read_text(errors="replace") if rc or to else ""
            if rc == 124 and STOPPED in stderr:
                # stopped by the plan's max_events or max_wall: a result
                # of its own, not a crash (what it wrote is kept)
                rec["status"] = "stopped"
                rec["limits"] = run_limits(task)  # (cache.partition compares them)
                rec["error"] = stderr[stderr.index(STOPPED) + len("dumbbell: "):].strip().splitlines()[0]
                return rec
            if rc != 0 or to:
                rec["error"] = _fail_text(rc, to, timeout, stderr)
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
            if err and err.startswith(LIMIT_MARK):
                # the function's own Simulation.run(max_events=, max_wall=)
                rec["status"], rec["error"] = "stopped", err[len(LIMIT_MARK):]
                return rec
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
