"""Where the runs of a sweep run: a local pool of threads, or a Dask cluster.

`run_local` and `run_dask` call `execute` for each task and hand every
record to `done` as it comes; on Ctrl-C the local pool cancels and kills
the runs in flight.  `default_jobs` is the local pool's size.  Relies on
worker (execute, CANCEL, kill_active), cache (CACHE_FORMAT) and
dumbbell._forkserver (the pool's fork servers are stopped at the end).
"""

from __future__ import annotations

import os

from .cache import CACHE_FORMAT
from .worker import CANCEL, execute, kill_active


def default_jobs() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def _safe_execute(task):
    try:
        return execute(task)
    except Exception as e:  # noqa: BLE001 - a bug or a full disk, not the run's fault
        import traceback

        return {"format": CACHE_FORMAT, "key": task["key"], "status": "failed", "transient": True,
                "error": "internal error: " + "".join(traceback.format_exception_only(type(e), e)).strip(),
                "elapsed": None, "stdout": "", "metrics": {}, "files": []}


def run_local(tasks, jobs, done):
    from concurrent.futures import ThreadPoolExecutor, as_completed

    from .. import _forkserver

    CANCEL.clear()
    ex = ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="dumbbell-sweep")
    futs, handed = [], set()
    try:
        futs = [ex.submit(_safe_execute, t) for t in tasks]
        for f in as_completed(futs):
            handed.add(f)
            done(f.result())
    except BaseException:
        CANCEL.set()
        ex.shutdown(wait=False, cancel_futures=True)
        kill_active()
        ex.shutdown(wait=True)
        CANCEL.clear()
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


def run_dask(tasks, address, done):
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
