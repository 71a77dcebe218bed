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


def doc_path(name: str) -> str:
    """Where the installed documentation page `name` (e.g. "sweeps.md")
    is: in the package (`pip install`), else in the clone it was built from
    (`make build`).  The wording stays `docs/NAME` if neither has it."""
    import os

    here = os.path.dirname(os.path.abspath(__file__))
    for d in (os.path.join(here, "docs"), os.path.join(here, os.pardir, os.pardir, "docs")):
        p = os.path.normpath(os.path.join(d, name))
        if os.path.isfile(p) or (not name and os.path.isdir(p)):
            return p
    return f"docs/{name}"


def _version() -> str:
    from ._engine import __version__

    return f"dumbbell {__version__}"


RUN_USAGE = """usage: dumbbell run [--safe] [--pcap DIR [--pcap-snaplen N]] [--max-events N] [--max-wall SECONDS] SCRIPT.tcl [ARGS...]

Runs an ns-2 script as ns-2 2.35's `ns` does: the same trace files, output
and exit status.  Arguments after the script go to it (argv), options or not.

  --safe                run a script you do not trust: no programs (exec, open |...),
                        no sockets, no libraries, no env; files read only in the
                        script's directory and the current one, written only in
                        the current one ({reliability})
  --pcap DIR            also write the packets of every traced link (trace-all,
                        trace-queue, namtrace-all) as pcap files in DIR, one per
                        link end: DIR/A-B.pcap is what node A sends to and
                        receives from node B, with IPv4/TCP/UDP headers made from
                        the packets (node n is 10.0.0.0+n+1; {outputs})
  --pcap-snaplen N      keep only the first N bytes of each packet (1 to 65535,
                        as tcpdump -s; 80 keeps every header; default: all)
  --max-events N        stop the run after N events (checked every 20 ms)
  --max-wall SECONDS    stop the run after SECONDS of wall-clock time
                        (either limit: what was written is kept, exit status 124)

Ctrl-C stops a run at once, keeps what was written, exit status 130.
An error in the script is reported as FILE:LINE and the command there;
DUMBBELL_DEBUG=1 adds Tcl's whole traceback."""


def _run_usage() -> str:
    return RUN_USAGE.format(reliability=doc_path("reliability.md"), outputs=doc_path("outputs.md"))


def _run_command(args: list[str]) -> int:
    """`dumbbell run`: its own options come before the script; everything
    after the script is the script's."""
    limits = {"--max-events": None, "--max-wall": None}
    safe = False
    pcap = None
    snaplen = None
    i = 0
    while i < len(args) and args[i].startswith("-"):
        opt, _, val = args[i].partition("=")
        if opt in ("-h", "--help"):
            print(_run_usage())
            return 0
        if opt == "--safe" and not val:
            safe = True
            i += 1
            continue
        if opt in ("--pcap", "--pcap-snaplen"):
            if not val:
                if i + 1 >= len(args):
                    what = "a directory" if opt == "--pcap" else "a number of bytes"
                    sys.stderr.write(f"dumbbell run: {opt} needs {what}\n")
                    return 2
                i += 1
                val = args[i]
            if opt == "--pcap":
                pcap = val
            else:
                snaplen = int(val) if val.isdigit() else 0
                if not 1 <= snaplen <= 65535:
                    sys.stderr.write(f"dumbbell run: --pcap-snaplen expects 1 to 65535 bytes, got {val!r}\n")
                    return 2
            i += 1
            continue
        if opt not in limits:
            sys.stderr.write(f"dumbbell run: unknown option {opt!r}\n{_run_usage()}\n")
            return 2
        if not val:
            if i + 1 >= len(args):
                sys.stderr.write(f"dumbbell run: {opt} needs a value\n")
                return 2
            i += 1
            val = args[i]
        try:
            x = int(val) if opt == "--max-events" else float(val)
            if not (x > 0 and x < float("inf")):
                raise ValueError
        except ValueError:
            what = "a positive integer" if opt == "--max-events" else "a positive number of seconds"
            sys.stderr.write(f"dumbbell run: {opt} expects {what}, got {val!r}\n")
            return 2
        limits[opt] = x
        i += 1
    if i >= len(args):
        sys.stderr.write(_run_usage() + "\n")
        return 2
    if snaplen is not None and pcap is None:
        sys.stderr.write("dumbbell run: --pcap-snaplen needs --pcap DIR\n")
        return 2
    from .ns2.runner import run_script_and_exit

    return run_script_and_exit(args[i], args[i + 1:], max_events=limits["--max-events"], max_wall=limits["--max-wall"],
                               safe=safe, pcap=pcap, pcap_snaplen=snaplen or 65535)


def main(argv: list[str] | None = None) -> int:
    try:
        return _main(argv)
    except BrokenPipeError:
        # `dumbbell ... | head`: the reader has gone; say nothing more
        # (Python would report the pipe again when it flushes at exit).
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def _main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    # `dumbbell run script.tcl args...` must pass every argument through to
    # the script, including ones that look like options.
    if argv and argv[0] == "run":
        return _run_command(argv[1:])
    if argv and argv[0] == "sweep":  # the sweep parses its own options (dumbbell sweep --help)
        from .sweep import cli_main

        return cli_main(argv[1:])
    if argv and argv[0] in ("-V", "--version"):
        print(_version())
        return 0
    p = build_parser()
    if not argv:  # bare `dumbbell`: what it can do, not a complaint about an argument
        p.print_help(sys.stderr)
        return 2
    a = p.parse_args(argv)
    return a.fn(a)


def help_formatter():
    """argparse's formatter, wrapping without breaking a path at its
    hyphens (the help texts name installed files)."""
    import argparse
    import textwrap

    class Formatter(argparse.HelpFormatter):
        def _wrap(self, text, width):
            return textwrap.wrap(" ".join(text.split()), width, break_on_hyphens=False, break_long_words=False)

        def _split_lines(self, text, width):
            return self._wrap(text, width)

        def _fill_text(self, text, width, indent):
            return "\n".join(indent + line for line in self._wrap(text, width - len(indent)))

    return Formatter


def build_parser():
    """The `dumbbell` parser (every command but `run` and `sweep` parses
    with it; those two parse their own arguments and are listed here for
    `dumbbell --help`)."""
    import argparse  # not needed (nor paid for) by `dumbbell run`

    p = argparse.ArgumentParser(
        prog="dumbbell", description="Packet-level network simulator with ns-2 compatibility.",
        formatter_class=help_formatter(),
        epilog=f"`dumbbell COMMAND --help` describes a command.  Documentation: {doc_path('')}")
    p.add_argument("-V", "--version", action="version", version=_version(), help="print the version and exit")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", title="commands", required=True)
    r = sub.add_parser("run", formatter_class=help_formatter(), help="run an ns-2 script (like `ns script.tcl args`; see `dumbbell run --help`)")
    r.add_argument("script", help="the ns-2 script")
    r.add_argument("args", nargs=argparse.REMAINDER, help="the script's arguments (its argv)")
    r.set_defaults(fn=_cmd_run)
    sub.add_parser("sweep", help="run a parameter sweep from a TOML plan (see `dumbbell sweep --help`)")
    d = sub.add_parser("demo", formatter_class=help_formatter(), help="run the bundled basic1 example, print a summary and plot cwnd",
                       description="Run basic1.tcl (Dordal 31.2) unchanged in ./demo-output, print its figures "
                                   "beside the book's and write demo-output/basic1-cwnd.png.")
    d.set_defaults(fn=_cmd_demo)
    from .analysis.metrics_cli import add_commands as _add_metrics_commands

    _add_metrics_commands(sub)  # `dumbbell plot`, `dumbbell metrics`
    from .anim import add_command as _add_animate_command

    _add_animate_command(sub)  # `dumbbell animate`
    from .analysis.convert import add_command as _add_convert_command

    _add_convert_command(sub)  # `dumbbell convert`
    return p


if __name__ == "__main__":
    sys.exit(main())
