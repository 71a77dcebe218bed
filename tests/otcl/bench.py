"""Micro-benchmark for otcl.tcl / tclobject.tcl under tkinter's Tcl.

Not a test: prints per-call costs.  Run: python3 tests/otcl/bench.py
"""
import os
import tkinter

HERE = os.path.dirname(os.path.abspath(__file__))
TCLDIR = os.path.join(HERE, "..", "..", "python", "dumbbell", "ns2", "tcl")


def main():
    tcl = tkinter.Tcl()
    print("Tcl", tcl.eval("info patchlevel"))
    tcl.eval("source {%s}" % os.path.join(TCLDIR, "otcl.tcl"))
    tcl.eval("source {%s}" % os.path.join(TCLDIR, "tclobject.tcl"))
    tcl.eval("source {%s}" % os.path.join(HERE, "bench.tcl"))


if __name__ == "__main__":
    main()
