"""The run cache, and the build id that is part of every run's key.

`build_id` hashes Dumbbell's version, the engine library and every Python
and Tcl file of the dumbbell package (this one included).  `Cache` stores one
JSON record per finished run (and its kept output files) under the key that
`dumbbell.sweep.plan` computes; `partition` splits a plan's runs into those the
cache has and those still to do.  Relies on nothing else of the sweep.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import threading
import time
from pathlib import Path

from .. import __version__

#: Bumped when the cache record or the key material changes meaning.
CACHE_FORMAT = 1

_BUILD: str | None = None
_BUILD_LOCK = threading.Lock()


def build_id() -> str:
    """Dumbbell's version and a hash of what produces results: the engine
    library and every Python and Tcl file of the dumbbell package, this
    sweep package included (the ns-2 layer, the API, the metrics a
    `metrics.function` may call, the fork server)."""
    global _BUILD
    with _BUILD_LOCK:
        if _BUILD is None:
            from .. import _engine

            pkg = Path(__file__).resolve().parent.parent  # dumbbell/, not dumbbell/sweep/
            h = hashlib.sha256(__version__.encode())
            files = sorted(pkg.rglob("*"))
            engine = Path(_engine.__file__).resolve()
            if not engine.is_relative_to(pkg):
                files.insert(0, engine)
            for f in files:
                if f.is_file() and f.suffix in (".so", ".pyd", ".py", ".tcl") and "__pycache__" not in f.parts:
                    h.update(f.relative_to(pkg).as_posix().encode() if f.is_relative_to(pkg) else f.name.encode())
                    h.update(f.read_bytes())
            _BUILD = f"{__version__}+{h.hexdigest()[:16]}"
        return _BUILD


class Cache:
    """One JSON file per finished run, ``runs/ab/abcdef....json``; kept output
    files under ``files/<key>/``.  Written atomically (a temporary file, then
    a rename), so a killed sweep leaves only whole records."""

    def __init__(self, root, create: bool = True):
        """`create`: make the directory and tidy it (False only reads, as
        the dry run does)."""
        self.root = Path(root) if root else None
        if self.root and create:
            (self.root / "runs").mkdir(parents=True, exist_ok=True)
            (self.root / "files").mkdir(exist_ok=True)
            # files of runs whose sweep was killed before it stored them
            for st in (self.root / "files").glob(".staging-*"):
                try:
                    if time.time() - st.stat().st_mtime > 86400:
                        shutil.rmtree(st, ignore_errors=True)
                except OSError:
                    pass
            tag = self.root / "CACHEDIR.TAG"
            if not tag.exists():
                tag.write_text("Signature: 8a477f597d28d172789f06886806bc55\n"
                               "# Dumbbell sweep cache (docs/sweeps.md); safe to delete.\n")

    def _rec(self, key):
        return self.root / "runs" / key[:2] / f"{key}.json"

    def files_dir(self, key):
        return self.root / "files" / key if self.root else None

    def get(self, key):
        if not self.root:
            return None
        try:
            rec = json.loads(self._rec(key).read_text())
        except (OSError, ValueError):
            return None
        if rec.get("format") != CACHE_FORMAT or rec.get("key") != key:
            return None
        if rec.get("files") and not self.files_dir(key).is_dir():
            return None
        return rec

    def put(self, rec, staged=None, blobs=None):
        if not self.root:
            if staged:
                shutil.rmtree(staged, ignore_errors=True)
            return
        key = rec["key"]
        if staged or blobs:
            final = self.files_dir(key)
            if staged is None:
                staged = tempfile.mkdtemp(prefix=".staging-", dir=self.root / "files")
                for name, data in blobs.items():
                    p = Path(staged) / name
                    p.parent.mkdir(parents=True, exist_ok=True)
                    p.write_bytes(data)
            # A run's outputs are deterministic: if another sweep sharing
            # this cache stored them first, keep theirs.
            try:
                os.replace(staged, final)
            except OSError:
                if not final.is_dir():
                    raise
                shutil.rmtree(staged, ignore_errors=True)
        path = self._rec(key)
        path.parent.mkdir(exist_ok=True)
        tmp = path.with_name(f".{key}.{os.getpid()}.{threading.get_ident()}.tmp")
        tmp.write_text(json.dumps(rec, separators=(",", ":")))
        os.replace(tmp, path)


def cache_dir_for(plan, cache_dir):
    """The cache directory: as given (False: none), else the plan's, else
    .dumbbell-cache beside the plan."""
    if cache_dir is None:
        return plan.cache or plan.base_dir / ".dumbbell-cache"
    return cache_dir


def run_limits(task) -> dict:
    """The run limits of a script run (`max_events`, `max_wall`), which are
    not part of its key: they cannot change a run that finishes, and a run
    they stopped records them."""
    o = task.get("run_options") or {}
    return {"max_events": o.get("max_events"), "max_wall": o.get("max_wall")}


def partition(runs, cache, retry_failed):
    """The records of the runs the cache has (failed ones too, unless they
    are to be retried), and the runs still to do, in plan order.  Every run
    of a plan has its own key (points and seeds are distinct)."""
    records, todo = {}, []
    for r in runs:
        rec = cache.get(r.key)
        if rec is not None and rec["status"] == "stopped" and rec.get("limits", run_limits(r.task)) != run_limits(r.task):
            rec = None  # stopped by other limits than the plan's now: run again
        if rec is not None and (rec["status"] == "ok" or not retry_failed):
            records[r.key] = rec
        else:
            todo.append(r)
    return records, todo
