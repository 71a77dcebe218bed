"""Load ns-2.35's own Tcl library on top of otcl.tcl/tclobject.tcl.

Needs the ns-2 sources (default /work/debsrc/ns-2.35, or $NS2_SRC); skipped
when they are not there.  The engine is a stub (tests/otcl/nslib_stub.tcl),
so this checks the OTcl layer on ~1700 real methods, not simulation.
"""
import os
import re
import shutil

import pytest

from runcase import new_interp

HERE = os.path.dirname(os.path.abspath(__file__))
NS2 = os.environ.get("NS2_SRC", "/work/debsrc/ns-2.35")

pytestmark = pytest.mark.skipif(
    not os.path.exists(os.path.join(NS2, "tcl", "lib", "ns-lib.tcl")),
    reason="ns-2 sources not available")


def engine_classes():
    pat = re.compile(r'(?:TclClass|PacketHeaderClass)\s*\(\s*"([^"]+)"')
    names = set()
    for root, _, files in os.walk(NS2):
        for f in files:
            if f.endswith((".cc", ".h")):
                with open(os.path.join(root, f), encoding="latin-1") as fh:
                    names.update(pat.findall(fh.read()))
    return sorted(names)


def tcl2cxx_copy(dst):
    """Copy ns-2's tcl/ tree, preprocessed the way tcl2c++ embeds it
    (comment lines and leading blanks dropped)."""
    def ignore(d, names):
        return [n for n in names
                if os.path.isfile(os.path.join(d, n))
                and not n.endswith((".tcl", ".tcl.in"))]
    shutil.copytree(os.path.join(NS2, "tcl"), dst, ignore=ignore)
    for root, _, files in os.walk(dst):
        for f in files:
            if f.endswith(".tcl") or f == "ns-autoconf.tcl.in":
                p = os.path.join(root, f)
                with open(p, encoding="latin-1") as fh:
                    lines = fh.read().split("\n")
                out = []
                for line in lines:
                    s = line.lstrip(" \t\f")
                    if s.startswith("#") and not s.startswith("#define"):
                        continue
                    out.append(s)
                text = "\n".join(out)
                if f == "ns-autoconf.tcl.in":
                    text = re.sub(r"@[A-Za-z_]*@", "", text)
                    p = os.path.join(root, "ns-autoconf.tcl")
                with open(p, "w", encoding="latin-1") as fh:
                    fh.write(text)


def test_load_ns_library_and_build_topology(tmp_path):
    lib = tmp_path / "tcl"
    tcl2cxx_copy(str(lib))
    t = new_interp()
    t.eval("namespace eval ::stub {}")
    t.eval("set ::stub::classes {%s}" % " ".join(engine_classes()))
    t.eval("source {%s}" % os.path.join(HERE, "nslib_stub.tcl"))
    t.eval("cd {%s}" % (lib / "lib"))
    t.eval("source ns-lib.tcl")
    assert int(t.eval("llength [Class info instances]")) > 600
    # methods compiled with the inline instvar form
    n = int(t.eval("llength [info procs ::otcl::*]"))
    assert n > 1500
    t.eval("""
        set ns [new Simulator]
        set n0 [$ns node]
        set n1 [$ns node]
        $ns duplex-link $n0 $n1 1Mb 10ms DropTail
    """)
    assert t.eval("$ns info class") == "Simulator"
    assert t.eval("$n0 info class") == "Node"
    assert t.eval("[$ns link $n0 $n1] info class") == "SimpleLink"
    assert t.eval("TclObject is-class Agent/TCP/FullTcp") == "1"
