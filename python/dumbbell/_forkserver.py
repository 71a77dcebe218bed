"""A fork server for the ns-2 runs of a sweep.

Starting a run as a new process costs Python's start-up, the imports and
loading our OTcl and ns-2 library into a fresh Tcl interpreter -- about 40 ms,
which is most of the time of a short simulation (Dordal's basic2 at 300 s
simulates in ~20 ms).  A fork server does that once: it loads everything,
then forks one child per run from that pristine state.  The child is exactly
what `dumbbell run SCRIPT ARGS` would have been at the moment it sources the
script (same library state, same RNG streams, same engine), so its output is
byte-identical; only the start-up is shared.

    python -m dumbbell._forkserver REPLY_FD   (started by dumbbell.sweep.worker)

Protocol, one JSON object per line: the client writes a request
{"script", "args", "cwd", "env", "stdout", "stderr", "options"} on the server's stdin;
the server forks and answers {"pid": N} at once, then {"status": S} when the
child has ended (S as `os.waitstatus_to_exitcode`: the exit code, or minus
the signal number), on a pipe of its own.  One request at a time.  The child
is put in its own process group (so the sweep can kill it with it) before
its pid is answered, and dies with the server; the server dies with the
process that started it (PR_SET_PDEATHSIG, Linux).
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
    os.setpgid(0, 0)        # its own process group (the server sets it too: no race)
    set_pdeathsig()         # dies with the server
    # Output first, so that anything that goes wrong is in the run's stderr.
    fin = os.open(os.devnull, os.O_RDONLY)
    fout = os.open(req["stdout"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    ferr = os.open(req["stderr"], os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    for fd, target in ((fin, 0), (fout, 1), (ferr, 2)):
        os.dup2(fd, target)
        os.close(fd)
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
    runner.set_args(req["script"], list(req["args"]))
    opts = req.get("options") or {}
    if opts.get("max_memory_mb"):
        # an address-space limit for this run alone (the fuzzer's: a run
        # past it fails its allocation, as under `ulimit -v`)
        import resource
        lim = int(opts["max_memory_mb"]) << 20
        resource.setrlimit(resource.RLIMIT_AS, (lim, lim))
    runner.safe = bool(opts.get("safe"))
    runner.set_limits(opts.get("max_events"), opts.get("max_wall"))
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


def serve(reply_fd: int) -> int:
    """The server's loop: requests on fd 0, answers on `reply_fd` (a pipe of
    its own, so that nothing else printed on stdout can disturb them)."""
    die_with_parent()
    from .ns2.runner import Ns2Runner

    runner = Ns2Runner("", [], own_tcl=True)  # the interpreter `dumbbell run` uses
    out = os.fdopen(reply_fd, "wb", buffering=0)
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
        try:
            os.setpgid(pid, pid)
        except OSError:     # the child got there first, or has already exited
            pass
        out.write(json.dumps({"pid": pid}).encode() + b"\n")
        _, status = os.waitpid(pid, 0)
        out.write(json.dumps({"status": os.waitstatus_to_exitcode(status)}).encode() + b"\n")


class ForkServerError(RuntimeError):
    """The fork server could not run the request (it died, never started, or
    answered something else than its protocol)."""


class ForkServer:
    """The client side: one server process, one run at a time (a sweep's
    worker thread owns one)."""

    def __init__(self):
        self._err = tempfile.TemporaryFile()
        r, w = os.pipe()
        try:
            self.proc = subprocess.Popen([sys.executable, "-m", "dumbbell._forkserver", str(w)],
                                         stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=self._err,
                                         env=child_env(), start_new_session=True, pass_fds=(w,))
        finally:
            os.close(w)
        self._replies = r
        self._buf = bytearray()
        self.served = 0          # runs started through this server

    def _answer(self, timeout: float | None, field: str):
        if b"\n" not in self._buf:
            ready, _, _ = select.select([self._replies], [], [], timeout)
            if not ready:
                return None
        line = _readline(self._replies, self._buf)
        if line is None:
            self._err.seek(0)
            tail = self._err.read()[-2000:].decode(errors="replace")
            raise ForkServerError(f"the fork server died (exit {self.proc.poll()}): {tail}".rstrip())
        try:
            return json.loads(line)[field]
        except (ValueError, KeyError, TypeError):
            raise ForkServerError(f"the fork server answered {line[:200]!r}, not its {field}") from None

    def start(self, script: str, args, cwd, env: dict, stdout, stderr, options: dict | None = None) -> int:
        """Fork a run; returns its pid (its process group id too).  `options`:
        `safe`, `max_events`, `max_wall`, as `dumbbell run`'s, and
        `max_memory_mb`, the run's address-space limit."""
        req = {"script": str(script), "args": [str(a) for a in args], "cwd": str(cwd), "env": env,
               "stdout": str(stdout), "stderr": str(stderr), "options": options or {}}
        try:
            self.proc.stdin.write(json.dumps(req).encode() + b"\n")
            self.proc.stdin.flush()
        except OSError as err:
            raise ForkServerError(f"the fork server is gone: {err}") from None
        pid = self._answer(None, "pid")
        self.served += 1
        return pid

    def wait(self, timeout: float | None = None):
        """The run's exit status (as `os.waitstatus_to_exitcode`), or None
        if it is still running after `timeout` seconds."""
        return self._answer(timeout, "status")

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
        os.close(self._replies)
        self._err.close()


_local = threading.local()
_servers: list[ForkServer] = []
_servers_lock = threading.Lock()


def for_this_thread() -> ForkServer | None:
    """This thread's fork server, started on first use; None where fork is
    not available, with DUMBBELL_SWEEP_FORK=0, or after two of this thread's
    servers failed before running anything (they would go on failing)."""
    if os.environ.get("DUMBBELL_SWEEP_FORK", "1") == "0" or not hasattr(os, "fork"):
        return None
    if getattr(_local, "failures", 0) >= 2:
        return None
    fs = getattr(_local, "server", None)
    if fs is None or fs.proc.poll() is not None:
        if fs is not None:
            drop_this_thread()
        fs = ForkServer()
        _local.server = fs
        with _servers_lock:
            _servers.append(fs)
    return fs


def drop_this_thread() -> None:
    """After a failure of this thread's server: stop it (a new one starts next
    time; see `for_this_thread`)."""
    fs = getattr(_local, "server", None)
    if fs is None:
        return
    _local.server = None
    if fs.served == 0:
        _local.failures = getattr(_local, "failures", 0) + 1
    with _servers_lock:
        if fs in _servers:
            _servers.remove(fs)
    try:
        fs.proc.kill()
    except OSError:
        pass
    fs.close()


def close_all() -> None:
    """Stop every fork server (the end of a sweep)."""
    with _servers_lock:
        servers, _servers[:] = list(_servers), []
    for fs in servers:
        fs.close()


if __name__ == "__main__":
    sys.exit(serve(int(sys.argv[1])))
