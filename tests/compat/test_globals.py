"""The ns-2 library leaves no global variable a script could meet that
ns-2 2.35's does not leave too: a library loop's variable left at global
level (`k`, `v`, `m`, `cls`) broke any script using that name for an array
(`set k($i) ...`: "variable isn't array"), where ns-2 runs it."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from tclrun import run

NS = shutil.which("ns")

# `puts [lsort [info globals]]` under /usr/bin/ns (Debian's ns2 2.35) with no
# other line in the script.
NS2_GLOBALS = set(
    "MAXSEQ PERL TCLSH allhdrs alpha argc argv argv0 auto_path defaultRNG env errorCode errorInfo "
    "lmsPacketSize lsize opt prot protolist ptype pvals rlm_param rtglibRNG tcl_interactive tcl_library "
    "tcl_patchLevel tcl_pkgPath tcl_platform tcl_precision tcl_rcFileName tcl_version".split()
)
# Tcl's own, in the interpreter Dumbbell embeds (Python's tkinter)
OURS = {"_tkinter_skip_tk_init", "auto_index"}
SCRIPT = "puts [lsort [info globals]]\n"


def test_the_library_leaves_no_global_that_ns2s_does_not(tmp_path: Path):
    r = run(tmp_path, SCRIPT)
    assert r.returncode == 0, r.stderr
    assert set(r.stdout.split()) - NS2_GLOBALS - OURS == set()


def test_a_script_may_use_k_v_m_cls_as_arrays(tmp_path: Path):
    r = run(tmp_path, "foreach n {k v m cls i} { set ${n}(0) 1 }\nputs ok\n")
    assert r.returncode == 0, r.stderr
    assert r.stdout == "ok\n"


@pytest.mark.skipif(NS is None, reason="needs the real ns-2 (ns)")
def test_ns2s_globals_are_the_recorded_ones(tmp_path: Path):
    (tmp_path / "s.tcl").write_text(SCRIPT)
    r = subprocess.run([NS, "s.tcl"], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert set(r.stdout.split()) == NS2_GLOBALS
