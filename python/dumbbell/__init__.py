"""Dumbbell: a packet-level network simulator for congestion-control and
queue-management research, with a Rust engine and ns-2 script compatibility.

    dumbbell run script.tcl [args]     # run an ns-2 script unchanged
    import dumbbell                    # build experiments in Python
"""

from ._engine import Engine, __version__  # noqa: F401

__all__ = ["Engine", "run_tcl", "__version__"]


def run_tcl(script, argv=(), cwd=None):
    """Run an ns-2 script in this process; returns its exit code.

    Output files are written as the script asks; stdout is the process's.
    """
    from .ns2.runner import run_script

    return run_script(script, list(argv), cwd=cwd)
