"""The ``dumbbell`` command line."""

# No `from __future__ import annotations` on the `dumbbell run` path: importing
# __future__ costs each run ~0.2 ms, and these annotations are valid as they
# are on Python >= 3.10.
import sys


def _cmd_run(args) -> int:
    from .ns2.runner import run_script_and_exit

    return run_script_and_exit(args.script, args.args)


def _cmd_demo(args) -> int:
    from .demo import main as demo_main

    return demo_main()


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    # `dumbbell run script.tcl args...` must pass every argument through to
    # the script, including ones that look like options.
    if argv and argv[0] == "run":
        if len(argv) < 2 or argv[1] in ("-h", "--help"):
            print("usage: dumbbell run SCRIPT.tcl [ARGS...]  (runs an ns-2 script like `ns`)")
            return 0 if len(argv) >= 2 else 2
        from .ns2.runner import run_script_and_exit

        return run_script_and_exit(argv[1], argv[2:])
    if argv and argv[0] == "sweep":  # the sweep parses its own options (dumbbell sweep --help)
        from .sweep import cli_main

        return cli_main(argv[1:])
    import argparse  # not needed (nor paid for) by `dumbbell run`

    p = argparse.ArgumentParser(prog="dumbbell", description="Packet-level network simulator with ns-2 compatibility")
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="run an ns-2 script (like `ns script.tcl args`)")
    r.add_argument("script")
    r.add_argument("args", nargs=argparse.REMAINDER)
    r.set_defaults(fn=_cmd_run)
    sub.add_parser("sweep", help="run a parameter sweep from a TOML plan (see `dumbbell sweep --help`)")
    d = sub.add_parser("demo", help="run the bundled basic1 example, print a summary and plot cwnd")
    d.set_defaults(fn=_cmd_demo)
    from .analysis.metrics_cli import add_commands as _add_metrics_commands

    _add_metrics_commands(sub)  # `dumbbell plot`, `dumbbell metrics`
    a = p.parse_args(argv)
    return a.fn(a)


if __name__ == "__main__":
    sys.exit(main())
