"""`pip install` as a user does it (issue 21): a clone of the repository
into a fresh venv gives a working `dumbbell` with its documentation, and the
README's Python example runs there; an sdist carries what its own wheel
build needs.

These compile the engine (a release build with whole-program optimisation):
about 2 to 3 minutes on two cores the first time.  They build into
target/pip-test, kept between runs, so a second run takes seconds; they are
marked `slow` (`pytest -m "not slow"` leaves them out).  DUMBBELL_PGO=0: the
profile-guided pip build is tools/build/dumbbell_build.py's, tested for its
choices in test_build_backend.py, not compiled twice here.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TARGET = ROOT / "target" / "pip-test"

pytestmark = pytest.mark.slow


def readme_python_example() -> str:
    """The README's Python example (its first ```python block)."""
    m = re.search(r"```python\n(.*?)```", (ROOT / "README.md").read_text(), re.S)
    assert m, "README.md has no ```python block"
    return "\n".join(line[2:] if line.startswith("  ") else line for line in m.group(1).splitlines())


def run(cmd, **kw) -> subprocess.CompletedProcess:
    r = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, **kw)
    assert r.returncode == 0, f"{' '.join(map(str, cmd))}: exit {r.returncode}\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
    return r


def build_env() -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "PYTHON", "DUMBBELL_"))}
    env.update(DUMBBELL_PGO="0", CARGO_TARGET_DIR=str(TARGET), PIP_DISABLE_PIP_VERSION_CHECK="1")
    return env


@pytest.fixture(scope="module")
def clone(tmp_path_factory):
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    d = tmp_path_factory.mktemp("clone") / "dumbbell"
    run(["git", "clone", "--quiet", "--no-hardlinks", ROOT, d])
    return d


@pytest.fixture(scope="module")
def venv(clone, tmp_path_factory):
    v = tmp_path_factory.mktemp("venv") / "v"
    run([sys.executable, "-m", "venv", v])
    run([v / "bin" / "python", "-m", "pip", "install", "--quiet", clone], env=build_env(), timeout=1800)
    return v


def test_pip_install_of_a_clone_gives_a_working_dumbbell_with_its_docs(venv, tmp_path):
    exe = venv / "bin" / "dumbbell"
    assert os.access(exe, os.X_OK)
    cargo = re.search(r'^version = "(.*)"', (ROOT / "Cargo.toml").read_text(), re.M).group(1)
    assert run([exe, "--version"]).stdout == f"dumbbell {cargo}\n"
    # the docs are installed with the package, and --help names them there
    site = Path(run([venv / "bin" / "python", "-c", "import dumbbell, os; print(os.path.dirname(dumbbell.__file__))"],
                    cwd=tmp_path).stdout.strip())
    assert str(site).startswith(str(venv))
    installed = sorted(p.name for p in (site / "docs").glob("*.md"))
    assert installed == sorted(p.name for p in (ROOT / "docs").glob("*.md"))
    help_text = run([exe, "run", "--help"], cwd=tmp_path).stdout
    assert str(site / "docs" / "reliability.md") in help_text
    # a script runs
    (tmp_path / "s.tcl").write_text('set ns [new Simulator]\n$ns at 1.0 {puts "at [$ns now]"; exit 0}\n$ns run\n')
    assert run([exe, "run", "s.tcl"], cwd=tmp_path).stdout == "at 1\n"


def test_the_readme_python_example_runs_in_the_fresh_venv(venv, tmp_path):
    (tmp_path / "example.py").write_text(readme_python_example())
    out = run([venv / "bin" / "python", "example.py"], cwd=tmp_path, timeout=300).stdout
    # the columns the README's comment promises, with basic1's values
    header = next(line for line in out.splitlines() if "ack" in line and "maxseq" in line)
    assert "goodput_pkts" in header
    row = next(line for line in out.splitlines() if re.search(r"\b808\b", line) and re.search(r"\b829\b", line))
    assert row
    assert (tmp_path / "basic1-cwnd.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def sdist(clone, tmp_path_factory):
    maturin = Path(sys.executable).with_name("maturin")
    if not maturin.exists():
        pytest.skip("no maturin beside this Python (make setup)")
    out = tmp_path_factory.mktemp("sdist")
    run([maturin, "sdist", "--out", out], cwd=clone, env=build_env())
    (path,) = out.glob("dumbbell-*.tar.gz")
    return path


def test_an_sdist_has_what_its_wheel_build_needs(sdist):
    with tarfile.open(sdist) as tf:
        names = {n.split("/", 1)[1] for n in tf.getnames() if "/" in n}
        script = tf.getmember(next(n for n in tf.getnames() if n.endswith("dumbbell.data/scripts/dumbbell")))
    for need in ("pyproject.toml", "tools/build/dumbbell_build.py", "tools/pgo.py", "docs/python-api.md",
                 "benches/dumbbell-ns2.tcl", "tests/ns2/cases.json", "tests/ns2/scripts/basic1.tcl"):
        assert need in names, need
    # the training set of the profile-guided build is all there
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import pgo
    finally:
        sys.path.pop(0)
    for script_path, _ in pgo.training():
        assert str(script_path.relative_to(ROOT)) in names, script_path
    assert script.mode & 0o111 == 0  # maturin stores it 0644: the backend sets the x bit in the wheel


def test_a_wheel_built_from_the_sdist_is_abi3_with_docs_and_an_executable_script(sdist, tmp_path):
    import zipfile

    run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", tmp_path, sdist], env=build_env(),
        timeout=1800)
    (whl,) = tmp_path.glob("dumbbell-*.whl")
    assert "-abi3-" in whl.name
    with zipfile.ZipFile(whl) as z:
        names = z.namelist()
        assert {f"dumbbell/docs/{p.name}" for p in (ROOT / "docs").glob("*.md")} <= set(names)
        script = z.getinfo(next(n for n in names if n.endswith(".data/scripts/dumbbell")))
        assert (script.external_attr >> 16) & 0o111
        record = z.read(next(n for n in names if n.endswith(".dist-info/RECORD"))).decode()
        assert "dumbbell/docs/python-api.md,sha256=" in record
