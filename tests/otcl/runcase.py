"""Run OTcl case scripts under the pure-Tcl OTcl implementation.

Used by test_otcl_cases.py; can also be run by hand:
    python3 tests/otcl/runcase.py tests/otcl/cases/01_class_basic.tcl
prints the case's standard output.
"""
import os
import sys
import tkinter

HERE = os.path.dirname(os.path.abspath(__file__))
TCLDIR = os.path.normpath(
    os.path.join(HERE, "..", "..", "python", "dumbbell", "ns2", "tcl"))

# Collect everything the script writes to stdout (puts without a channel or
# with stdout) in a Tcl variable; other channels are left alone.
CAPTURE = r"""
namespace eval ::casecap { variable out "" }
rename puts ::casecap::realputs
proc puts args {
    set nl 1
    if {[lindex $args 0] eq "-nonewline"} {
        set nl 0
        set args [lrange $args 1 end]
    }
    if {[llength $args] == 1} {
        set chan stdout
        set s [lindex $args 0]
    } elseif {[llength $args] == 2} {
        lassign $args chan s
    } else {
        return -code error {wrong # args: should be "puts ?-nonewline? ?channelId? string"}
    }
    if {$chan eq "stdout"} {
        append ::casecap::out $s
        if {$nl} { append ::casecap::out \n }
        return
    }
    if {$nl} {
        ::casecap::realputs $chan $s
    } else {
        ::casecap::realputs -nonewline $chan $s
    }
}
"""


def new_interp(with_tclobject=True):
    tcl = tkinter.Tcl()
    tcl.eval(CAPTURE)
    tcl.eval("source {%s}" % os.path.join(TCLDIR, "otcl.tcl"))
    if with_tclobject:
        tcl.eval("source {%s}" % os.path.join(TCLDIR, "tclobject.tcl"))
    return tcl


def run_case(path):
    """Return (stdout text, error message or None)."""
    tcl = new_interp()
    err = None
    try:
        tcl.eval("source {%s}" % path)
    except tkinter.TclError as e:
        err = "%s\n%s" % (e, tcl.eval("set ::errorInfo"))
    out = tcl.eval("set ::casecap::out")
    return out, err


if __name__ == "__main__":
    for p in sys.argv[1:]:
        out, err = run_case(p)
        sys.stdout.write(out)
        if err:
            sys.stderr.write("ERROR: " + err + "\n")
            sys.exit(1)
