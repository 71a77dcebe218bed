"""tools/pgo.py (the profile-guided build's training): without the tools it
needs, it leaves an empty profile and the build goes on without one."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_without_llvm_profdata_the_profile_is_empty(tmp_path):
    # A toolchain whose sysroot has no llvm-profdata, and no rustup to add it.
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    sysroot = tmp_path / "sysroot"
    (sysroot / "lib" / "rustlib" / "x86_64-unknown-linux-gnu" / "bin").mkdir(parents=True)
    rustc = bin_dir / "rustc"
    rustc.write_text(f"#!/bin/sh\ncase \"$1\" in\n  --print) echo {sysroot} ;;\n"
                     "  -vV) echo 'rustc 1.0.0'; echo 'host: x86_64-unknown-linux-gnu' ;;\nesac\n")
    rustc.chmod(0o755)
    out = tmp_path / "p" / "dumbbell.profdata"
    out.parent.mkdir()
    out.write_bytes(b"stale profile")
    r = subprocess.run([sys.executable, str(ROOT / "tools" / "pgo.py"), str(out)], capture_output=True, text=True,
                       env={**os.environ, "PATH": str(bin_dir)}, timeout=60)
    assert r.returncode == 0, r.stderr
    assert "no llvm-profdata: building without a profile" in r.stderr
    assert out.read_bytes() == b""


def test_usage():
    r = subprocess.run([sys.executable, str(ROOT / "tools" / "pgo.py")], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "tools/pgo.py OUT.profdata" in r.stderr
