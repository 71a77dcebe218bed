"""A fork server for the ns-2 runs of a sweep.

Starting a run as a new process costs Python's start-up, the imports and
loading our OTcl and ns-2 library into a fresh Tcl interpreter -- about 40 ms,
which is most of the time of a short simulation (Dordal's basic2 at 300 s
simulates in ~20 ms).  A fork server does that once: it loads everything,
then forks one child per run from that pristine state.  The child is exactly
what `dumbbell run SCRIPT ARGS` would have been at the moment it sources the
script (same library state, same RNG streams, same engine), so its output is
byte-identical; only the start-up is shared.

    python -m dumbbell._forkserver          (started by dumbbell.sweep)

Protocol, one JSON object per line: the client writes a request
{"script", "args", "cwd", "env", "stdout", "stderr"}; the server forks and
answers {"pid": N} at once, then {"status": S} when the child has ended (S as
`os.waitstatus_to_exitcode`: the exit code, or minus the signal number).
One request at a time.  The child starts its own session (so the sweep can
kill it with its process group) and dies with the server; the server dies
with the process that started it (PR_SET_PDEATHSIG, Linux).
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import threading

from ._sweep_child import child_env, die_with_parent, set_pdeathsig


def _child(runner, req: dict) -> int:
    """In the forked child: become the run, as `dumbbell run` would."""
    os.setsid()
    set_pdeathsig()         # dies with the server
    os.chdir(req["cwd"])
    env = {str(k): str(v) for k, v in req["env"].items()}
    # Tcl's env array and the C environment, kept in step by Tcl's own
    # traces: drop what the run must not see, then set what it must.
    tcl = runner.tcl
    tcl.call("set", "::dumbbell_env_keep", tcl.call("list", *env))
    tcl.eval("foreach k [array names ::env] {\n"
             "    if {[lsearch -exact $::dumbbell_env_keep $k] < 0} { unset ::env($k) }\n"
             "}\n"
             "unset ::dumbbell_env_keep")
    for k, v in env.items():
        tcl.call("set", f"::env({k})", v)
    os.environ.clear()
    os.environ.update(env)
    fin = os.open(os.devnull, os.O_RDONLY)
    fout = os.open(req["stdout"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    ferr = os.open(req["stderr"], os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    for fd, target in ((fin, 0), (fout, 1), (ferr, 2)):
        os.dup2(fd, target)
        os.close(fd)
    runner.set_args(req["script"], list(req["args"]))
    code = runner.run()
    sys.stdout.flush()
    sys.stderr.flush()
    return code


def _readline(fd: int, buf: bytearray) -> bytes | None:
    while b"\n" not in buf:
        chunk = os.read(fd, 65536)
        if not chunk:
            return None
        buf += chunk
    i = buf.index(b"\n")
    line = bytes(buf[:i])
    del buf[: i + 1]
    return line


def serve() -> int:
    """The server's loop (requests on fd 0, answers on fd 1)."""
    die_with_parent()
    from .ns2.runner import Ns2Runner

    runner = Ns2Runner("", [], own_tcl=True)  # the interpreter `dumbbell run` uses
    out = os.fdopen(os.dup(1), "wb", buffering=0)
    buf = bytearray()
    while True:
        line = _readline(0, buf)
        if line is None:
            return 0
        req = json.loads(line)
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                out.close()
                code = _child(runner, req)
            except BaseException as err:  # noqa: BLE001 - reported in the run's stderr
                try:
                    os.write(2, f"dumbbell: fork server: {type(err).__name__}: {err}\n".encode())
                except OSError:
                    pass
            finally:
                os._exit(code & 0xFF)
        out.write(json.dumps({"pid": pid}).encode() + b"\n")
        _, status = os.waitpid(pid, 0)
        out.write(json.dumps({"status": os.waitstatus_to_exitcode(status)}).encode() + b"\n")


class ForkServerError(RuntimeError):
    """The fork server could not run the request (it died, or never started)."""


class ForkServer:
    """The client side: one server process, one run at a time (a sweep's
    worker thread owns one)."""

    def __init__(self, env: dict | None = None):
        self._err = tempfile.TemporaryFile()
        self.proc = subprocess.Popen([sys.executable, "-m", "dumbbell._forkserver"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=self._err, env=child_env(env), start_new_session=True)
        self._buf = bytearray()
        self.pid: int | None = None   # the running child, if any

    def _answer(self, timeout: float | None):
        fd = self.proc.stdout.fileno()
        if b"\n" not in self._buf:
            r, _, _ = select.select([fd], [], [], timeout)
            if not r:
                return "timeout"
        line = _readline(fd, self._buf)
        if line is None:
            self._err.seek(0)
            tail = self._err.read()[-2000:].decode(errors="replace")
            raise ForkServerError(f"the fork server died (exit {self.proc.poll()}): {tail}".rstrip())
        return json.loads(line)

    def start(self, script: str, args, cwd, env: dict, stdout, stderr) -> int:
        """Fork a run; returns its pid (its process group id too)."""
        req = {"script": str(script), "args": [str(a) for a in args], "cwd": str(cwd), "env": env,
               "stdout": str(stdout), "stderr": str(stderr)}
        try:
            self.proc.stdin.write(json.dumps(req).encode() + b"\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as err:
            raise ForkServerError(f"the fork server is gone: {err}") from None
        a = self._answer(None)
        self.pid = a["pid"]
        return self.pid

    def wait(self, timeout: float | None = None):
        """The run's exit status (as `os.waitstatus_to_exitcode`), or None
        if it is still running after `timeout` seconds."""
        a = self._answer(timeout)
        if a == "timeout":
            return None
        self.pid = None
        return a["status"]

    def close(self) -> None:
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self._err.close()


_local = threading.local()


def for_this_thread() -> ForkServer | None:
    """This thread's fork server, started on first use; None where fork is
    not available or DUMBBELL_SWEEP_FORK=0."""
    if os.environ.get("DUMBBELL_SWEEP_FORK", "1") == "0" or not hasattr(os, "fork"):
        return None
    fs = getattr(_local, "server", None)
    if fs is None or fs.proc.poll() is not None:
        fs = ForkServer()
        _local.server = fs
    return fs


def drop_this_thread() -> None:
    fs = getattr(_local, "server", None)
    if fs is not None:
        _local.server = None
        try:
            fs.proc.kill()
        except OSError:
            pass
        fs.close()


if __name__ == "__main__":
    sys.exit(serve())
