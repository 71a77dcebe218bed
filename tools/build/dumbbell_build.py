"""The build backend of `pip install .` (PEP 517; pyproject.toml's
`build-backend`): maturin's, with three additions.

1. **Profile-guided build.**  Before maturin compiles the wheel, tools/pgo.py
   builds an instrumented engine, runs its training set and merges the
   profile; the wheel is then compiled with `-Cprofile-use` (as `make build`
   does).  `DUMBBELL_PGO` chooses:
     - unset or `auto`: profile-guided when the toolchain already has
       `llvm-profdata` (rustup's `llvm-tools` component); otherwise a plain
       release build, and a note says so (nothing is installed into the
       toolchain behind the user's back);
     - `1`: profile-guided, adding `llvm-tools` with rustup if needed (as
       `make build` does); a plain build if even that fails;
     - `0`: a plain release build (half the compile time).
   The profile changes how the compiler lays out code, never what it
   computes (docs/architecture.md, Build).
2. **Progress.**  pip shows nothing of a backend's output without `-v`
   (only "Building wheel for dumbbell (pyproject.toml) ..." and its spinner),
   so the phases and a line every 30 s are written to the terminal
   (/dev/tty) when there is one, and to stderr (what `pip -v` shows).
3. **Documentation in the wheel.**  docs/*.md go into the package as
   dumbbell/docs/ (`dumbbell --help` names them there), and the `dumbbell`
   script is marked executable in the wheel (maturin's sdist stores it
   0644, so a wheel built from the sdist would install it without its x
   bit).

Every other hook is maturin's own.
"""

from __future__ import annotations

import base64
import hashlib
import os
import subprocess
import sys
import threading
import time
import zipfile
from pathlib import Path

import maturin
from maturin import (  # noqa: F401  (hooks passed through unchanged)
    build_sdist,
    get_requires_for_build_sdist,
    get_requires_for_build_wheel,
    prepare_metadata_for_build_wheel,
)

for _hook in ("build_editable", "get_requires_for_build_editable", "prepare_metadata_for_build_editable"):
    if hasattr(maturin, _hook):
        globals()[_hook] = getattr(maturin, _hook)

ROOT = Path(__file__).resolve().parents[2]


def say(msg: str) -> None:
    """A progress line the user sees although pip captures our output."""
    line = f"dumbbell build: {msg}\n"
    try:
        with open("/dev/tty", "w") as tty:
            tty.write("\n" + line)
    except OSError:
        pass
    sys.stderr.write(line)
    sys.stderr.flush()


class Ticker:
    """`say`s the elapsed time every `every` seconds while a phase runs."""

    def __init__(self, what: str, every: float = 30.0):
        self.what, self.every, self.t0 = what, every, time.monotonic()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        while not self.stop.wait(self.every):
            s = int(time.monotonic() - self.t0)
            say(f"... {self.what}: {s // 60} min {s % 60:02d} s so far")

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join()


def pgo_mode() -> str:
    mode = os.environ.get("DUMBBELL_PGO", "auto").strip().lower() or "auto"
    if mode not in ("auto", "0", "1"):
        raise SystemExit(f"dumbbell build: DUMBBELL_PGO must be auto, 0 or 1, got {mode!r}")
    return mode


def profile(mode: str) -> Path | None:
    """The training profile (tools/pgo.py), or None for a plain build."""
    out = ROOT / "target" / "pgo" / "pip.profdata"
    env = dict(os.environ)
    if mode == "auto":
        env["DUMBBELL_PGO_NO_RUSTUP"] = "1"  # use llvm-profdata only if it is there
    say("profile-guided build (DUMBBELL_PGO=0 skips it, about half the time): an instrumented engine "
        "first, then its training runs")
    with Ticker("instrumented build and training"):
        p = subprocess.Popen([sys.executable, str(ROOT / "tools" / "pgo.py"), str(out)], cwd=ROOT, env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        for line in p.stdout:  # its notes as they come ("pgo: instrumented build", ...)
            say(line.rstrip())
        code = p.wait()
    if code != 0 or not out.is_file() or out.stat().st_size == 0:
        say("no profile: a plain release build" + (" (DUMBBELL_PGO=1 lets it add rustup's llvm-tools)"
                                                   if mode == "auto" else ""))
        return None
    return out


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def finish_wheel(path: Path, docs: Path) -> int:
    """Add docs/*.md as dumbbell/docs/ to the wheel at `path`, make its
    scripts executable and rewrite its RECORD.  Returns the docs added."""
    tmp = path.with_suffix(".tmp")
    pages = sorted(docs.glob("*.md")) if docs.is_dir() else []
    with zipfile.ZipFile(path) as zin, zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as zout:
        record_name = next(n for n in zin.namelist() if n.endswith(".dist-info/RECORD"))
        records = []
        for info in zin.infolist():
            if info.filename == record_name or info.filename.startswith("dumbbell/docs/"):
                continue
            data = zin.read(info)
            if ".data/scripts/" in info.filename:
                info.external_attr = (0o100755 << 16) | (info.external_attr & 0xFFFF)
            zout.writestr(info, data)
            records.append(_record_line(info.filename, data))
        for page in pages:
            name = f"dumbbell/docs/{page.name}"
            data = page.read_bytes()
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.external_attr = 0o100644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            zout.writestr(info, data)
            records.append(_record_line(name, data))
        records.append(f"{record_name},,")
        zout.writestr(zin.getinfo(record_name), "\n".join(records) + "\n")
    tmp.replace(path)
    return len(pages)


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    mode = pgo_mode()
    prof = profile(mode) if mode != "0" else None
    old = os.environ.get("RUSTFLAGS")
    if prof is not None:
        os.environ["RUSTFLAGS"] = f"{old or ''} -Cprofile-use={prof}".strip()
    how = "profile-guided" if prof is not None else "plain (DUMBBELL_PGO=0)" if mode == "0" else "plain"
    say(f"compiling the engine ({how} release build, Rust with whole-program optimisation): about 2 minutes "
        "on 2 cores, more on one")
    t0 = time.monotonic()
    try:
        with Ticker("compiling the engine"):
            name = maturin.build_wheel(wheel_directory, config_settings, metadata_directory)
    finally:
        if prof is not None:
            if old is None:
                os.environ.pop("RUSTFLAGS", None)
            else:
                os.environ["RUSTFLAGS"] = old
    n = finish_wheel(Path(wheel_directory) / name, ROOT / "docs")
    say(f"built {name} in {time.monotonic() - t0:.0f} s ({how}; {n} documentation pages in dumbbell/docs)")
    return name
