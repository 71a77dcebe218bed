"""tools/build/dumbbell_build.py, pip's build backend, without compiling:
the wheel it finishes (docs added, RECORD right, the script executable),
DUMBBELL_PGO's values, and tools/pgo.py leaving the toolchain alone when
the pip build only uses what is there."""

from __future__ import annotations

import base64
import hashlib
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytest.importorskip("maturin")
sys.path.insert(0, str(ROOT / "tools" / "build"))
import dumbbell_build as bb  # noqa: E402

sys.path.pop(0)


def make_wheel(path: Path) -> None:
    files = {"dumbbell/__init__.py": b"x = 1\n", "dumbbell-0.1.0.data/scripts/dumbbell": b"#!python\nprint()\n"}
    with zipfile.ZipFile(path, "w") as z:
        rec = []
        for name, data in files.items():
            info = zipfile.ZipInfo(name)
            info.external_attr = 0o100644 << 16
            z.writestr(info, data)
            rec.append(bb._record_line(name, data))
        z.writestr("dumbbell-0.1.0.dist-info/RECORD", "\n".join(rec + ["dumbbell-0.1.0.dist-info/RECORD,,"]) + "\n")


def test_finish_wheel_adds_the_docs_and_makes_the_script_executable(tmp_path):
    whl = tmp_path / "dumbbell-0.1.0-cp310-abi3-linux_x86_64.whl"
    make_wheel(whl)
    assert bb.finish_wheel(whl, ROOT / "docs") == len(list((ROOT / "docs").glob("*.md")))
    with zipfile.ZipFile(whl) as z:
        names = z.namelist()
        page = (ROOT / "docs" / "metrics.md").read_bytes()
        assert z.read("dumbbell/docs/metrics.md") == page
        script = z.getinfo("dumbbell-0.1.0.data/scripts/dumbbell")
        assert (script.external_attr >> 16) & 0o777 == 0o755
        record = dict(line.split(",", 1) for line in z.read("dumbbell-0.1.0.dist-info/RECORD").decode().splitlines())
        # every file is in RECORD with its hash and size (pip checks them)
        assert set(record) == set(names)
        for name in names:
            if name.endswith("RECORD"):
                assert record[name] == ","
                continue
            data = z.read(name)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            assert record[name] == f"sha256={digest},{len(data)}", name
    # finishing twice changes nothing (the docs are not added twice)
    before = whl.read_bytes()
    bb.finish_wheel(whl, ROOT / "docs")
    with zipfile.ZipFile(whl) as z:
        assert len(z.namelist()) == len(set(z.namelist()))
    assert len(whl.read_bytes()) == len(before)


@pytest.mark.parametrize("value,mode", [(None, "auto"), ("", "auto"), ("auto", "auto"), ("0", "0"), ("1", "1")])
def test_pgo_modes(monkeypatch, value, mode):
    if value is None:
        monkeypatch.delenv("DUMBBELL_PGO", raising=False)
    else:
        monkeypatch.setenv("DUMBBELL_PGO", value)
    assert bb.pgo_mode() == mode


def test_a_bad_pgo_mode_is_refused(monkeypatch):
    monkeypatch.setenv("DUMBBELL_PGO", "yes")
    with pytest.raises(SystemExit, match="DUMBBELL_PGO must be auto, 0 or 1, got 'yes'"):
        bb.pgo_mode()


def test_auto_mode_does_not_add_llvm_tools(tmp_path):
    # A toolchain without llvm-profdata, with a rustup that records calls:
    # pip's default (DUMBBELL_PGO_NO_RUSTUP, set by the backend for auto)
    # leaves it alone and builds without a profile; make's pgo.py adds it.
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    sysroot = tmp_path / "sysroot"
    (sysroot / "lib" / "rustlib" / "x86_64-unknown-linux-gnu" / "bin").mkdir(parents=True)
    (bin_dir / "rustc").write_text(f"#!/bin/sh\ncase \"$1\" in\n  --print) echo {sysroot} ;;\n"
                                   "  -vV) echo 'rustc 1.0.0'; echo 'host: x86_64-unknown-linux-gnu' ;;\nesac\n")
    calls = tmp_path / "rustup-calls"
    (bin_dir / "rustup").write_text(f"#!/bin/sh\necho \"$@\" >> {calls}\n")
    for f in ("rustc", "rustup"):
        (bin_dir / f).chmod(0o755)
    out = tmp_path / "p.profdata"
    env = {**os.environ, "PATH": str(bin_dir), "DUMBBELL_PGO_NO_RUSTUP": "1"}
    r = subprocess.run([sys.executable, str(ROOT / "tools" / "pgo.py"), str(out)], capture_output=True, text=True,
                       env=env, timeout=60)
    assert r.returncode == 0 and "no llvm-profdata: building without a profile" in r.stderr
    assert not calls.exists() and out.read_bytes() == b""
    del env["DUMBBELL_PGO_NO_RUSTUP"]
    subprocess.run([sys.executable, str(ROOT / "tools" / "pgo.py"), str(out)], capture_output=True, text=True,
                   env=env, timeout=60)
    assert calls.read_text() == "component add llvm-tools\n"
