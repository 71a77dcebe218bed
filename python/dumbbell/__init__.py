"""Dumbbell: a packet-level network simulator for congestion-control and
queue-management research, with a Rust engine and ns-2 script compatibility.

    dumbbell run script.tcl [args]     # run an ns-2 script unchanged
    import dumbbell                    # build experiments in Python
"""

from ._engine import Engine, RunLimitExceeded, __version__  # noqa: F401

__all__ = ["Engine", "run_tcl", "__version__",
           "Simulation", "Node", "Link", "Flow", "RateFlow", "Source", "ErrorModel", "Result", "SimulationError", "read_trace",
           "read_vartrace", "read_trace_all", "RunLimitExceeded", "animate", "WirelessSimulation", "read_wireless_trace"]

# The Python API (dumbbell.api, dumbbell.analysis) and the trace readers are
# imported on first use, so that `dumbbell run` does not pay for polars.
_API = {"Simulation": "api", "Node": "api", "Link": "api", "Flow": "api", "RateFlow": "api", "Source": "api",
        "ErrorModel": "api",
        "SimulationError": "api",
        "Result": "analysis.results", "read_trace": "analysis.trace", "read_vartrace": "analysis.trace",
        "read_trace_all": "analysis.trace", "animate": "anim", "WirelessSimulation": "api",
        "read_wireless_trace": "analysis.wtrace"}


# Submodules reachable as attributes (`dumbbell.metrics.jain(...)`), imported on first use.
_SUBMODULES = ("metrics", "plot", "sweep", "nstrace", "trace", "results", "api", "analysis")


def __getattr__(name):
    if name in _SUBMODULES:
        import importlib

        return importlib.import_module(f".{name}", __name__)
    mod = _API.get(name)
    if mod is None:
        raise AttributeError(f"module 'dumbbell' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f".{mod}", __name__), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_API) | set(_SUBMODULES))


def run_tcl(script, argv=(), cwd=None):
    """Run an ns-2 script in this process; returns its exit code (the
    script's `exit` ends the run, not the process).

    Output files are written as the script asks; stdout is the process's.
    """
    from .ns2.runner import run_script

    return run_script(script, list(argv), cwd=cwd, exit_process=False)
