"""The front end as a new user meets it (issue 21's "rough edges"): help
for every command and option, the version, errors without Tcl's internals,
no warning where a script does what the docs say, pipes that close early,
counted nouns, and the metrics' names."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT / "python")}
ENV.pop("DUMBBELL_DEBUG", None)


def dumbbell(*args, cwd=None, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "dumbbell.cli", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=120, env=ENV, **kw)


def test_version_comes_from_the_workspace_version():
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    cargo = tomllib.loads((ROOT / "Cargo.toml").read_text())["workspace"]["package"]["version"]
    for flag in ("--version", "-V"):
        r = dumbbell(flag)
        assert (r.returncode, r.stdout) == (0, f"dumbbell {cargo}\n"), r.stderr
    import dumbbell as db

    assert db.__version__ == cargo


def test_bare_dumbbell_lists_the_commands_without_internal_names():
    r = dumbbell()
    assert r.returncode == 2
    assert "cmd" not in r.stderr.split()  # argparse's "required: cmd" named our variable
    assert "the following arguments are required" not in r.stderr
    for c in ("run", "sweep", "demo", "plot", "metrics"):
        assert re.search(rf"^\s+{c}\s+\S", r.stderr, re.M), (c, r.stderr)


def test_every_command_and_option_has_a_help_text():
    import argparse

    from dumbbell.cli import build_parser

    def check(parser, where):
        for a in parser._actions:
            if isinstance(a, argparse._SubParsersAction):
                for name, sp in a.choices.items():
                    helps = {c.dest: c.help for c in a._choices_actions}
                    assert helps.get(name), f"{where} {name}: no help text"
                    check(sp, f"{where} {name}")
            elif not isinstance(a, (argparse._HelpAction, argparse._VersionAction)):
                assert a.help and a.help.strip(), f"{where}: {a.option_strings or a.dest} has no help text"

    check(build_parser(), "dumbbell")
    # the commands that parse their own arguments
    r = dumbbell("run", "--help")
    assert r.returncode == 0 and len(r.stdout.splitlines()) > 5
    for opt in ("--safe", "--max-events", "--max-wall"):
        assert re.search(rf"^\s+{opt}\b.*\S", r.stdout, re.M), opt
    r = dumbbell("sweep", "--help")
    assert r.returncode == 0
    for opt in ("--jobs", "--out", "--cache", "--no-cache", "--dask", "--retry-failed", "--no-progress",
                "--dry-run", "--set"):
        assert opt in r.stdout


def test_help_texts_point_at_docs_that_exist():
    # `--help` names the installed documentation (or the clone's), never a
    # docs/ path relative to wherever the user happens to be.
    for args in (["run", "--help"], ["sweep", "--help"], ["metrics", "--help"], ["--help"]):
        out = dumbbell(*args).stdout
        paths = re.findall(r"(/\S*docs/[\w-]*\.md|/\S*docs/?)(?=[)\s.,]|$)", out.replace("\n", " "))
        assert paths, (args, out)
        for p in paths:
            assert Path(p.rstrip(".,)")).exists(), (args, p)


def test_run_of_a_missing_script_is_one_line(tmp_path):
    r = dumbbell("run", "nonexist.tcl", cwd=tmp_path)
    assert r.returncode == 1
    assert r.stderr == 'dumbbell: error: couldn\'t read file "nonexist.tcl": no such file or directory\n'


def test_unsupported_class_in_a_loop_is_reported_at_its_own_line(tmp_path):
    (tmp_path / "s.tcl").write_text("set ns [new Simulator]\nforeach i {1 2} {\n    set n($i) [$ns node]\n"
                                    "    set a [new Agent/TCP/Asym]\n}\n$ns run\n")
    r = dumbbell("run", "s.tcl", cwd=tmp_path)
    assert r.returncode == 1
    assert r.stderr.splitlines() == ["dumbbell: error: class Agent/TCP/Asym is not supported by Dumbbell yet",
                                     "  at s.tcl:4: new Agent/TCP/Asym"]


NEWECN = ROOT / "examples" / "seed000" / "newecn_1flow.tcl"


def test_new_ecn_as_the_docs_say_runs_without_a_warning(tmp_path):
    # docs/ns2-layer.md: windowOption_ 8 with newecn_ true (the sink's
    # windowOptionS_ 8 too, as the example does): no HighSpeed to warn about.
    r = subprocess.run([sys.executable, "-m", "dumbbell.cli", "run", str(NEWECN), "newecn", "2"], cwd=tmp_path,
                       capture_output=True, text=True, timeout=120, env=ENV)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("RESULT mode=newecn")
    assert r.stderr == ""
    # The paper's scripts unchanged (no newecn_): windowOption_ 8 would be
    # HighSpeed in ns-2 2.35, and that is worth the one warning.
    text = NEWECN.read_text()
    assert "; Agent/TCP set newecn_ true\n" in text
    (tmp_path / "paper.tcl").write_text(text.replace("; Agent/TCP set newecn_ true\n", "\n")
                                        .replace("[file dirname [info script]] ..", f"{{{NEWECN.parent.parent}}}"))
    r = dumbbell("run", "paper.tcl", "newecn", "2", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stderr.count("windowOptionS_ 8") == 1 and "means New-ECN" in r.stderr


def test_demo_into_a_pipe_that_closes_early(tmp_path):
    # `dumbbell demo | head -1`: the reader is gone before the summary is
    # written (head exits after its line; here the pipe is closed at once)
    p = subprocess.Popen([sys.executable, "-m", "dumbbell.cli", "demo"], cwd=tmp_path, env=ENV,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    p.stdout.close()
    err = p.stderr.read().decode()
    assert p.wait(timeout=120) == 0
    assert "Traceback" not in err and "BrokenPipe" not in err, err


def test_the_readme_python_example_prints_what_its_comment_promises(tmp_path):
    import re

    m = re.search(r"```python\n(.*?)```", (ROOT / "README.md").read_text(), re.S)
    code = "\n".join(line[2:] if line.startswith("  ") else line for line in m.group(1).splitlines())
    promised = re.search(r"print\(res\.flows.*#\s*(.*)", code).group(1)
    (tmp_path / "example.py").write_text(code)
    r = subprocess.run([sys.executable, "example.py"], cwd=tmp_path, capture_output=True, text=True, timeout=120,
                       env=ENV)
    assert r.returncode == 0, r.stderr
    # every column the frame prints is shown (polars elides columns of wide
    # frames as "…"), and the values the comment names are in it
    assert "…" not in r.stdout
    for col in ("ack", "maxseq", "goodput_pkts"):
        assert re.search(rf"\b{col}\b", r.stdout), col
    for value in re.findall(r"\d+", promised):
        assert re.search(rf"\b{value}\b", r.stdout), value
    assert (tmp_path / "basic1-cwnd.png").is_file()


def test_an_error_in_a_callback_proc_names_its_line(tmp_path):
    (tmp_path / "s.tcl").write_text('set ns [new Simulator]\nproc finish {} {\n    global ns\n    set x [expr {1/0}]\n}\n'
                                    '$ns at 1.5 "finish"\n$ns run\n')
    r = dumbbell("run", "s.tcl", cwd=tmp_path)
    assert r.returncode == 1
    assert r.stderr.splitlines() == ["dumbbell: error: divide by zero", "  in the Tcl callback run at time 1.5: finish",
                                     "  at s.tcl:4: expr {1/0}"]
