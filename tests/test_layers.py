"""The engine's core knows nothing of ns-2, Tcl or Python: no ns-2 class or
bound-variable name, no Tcl call and no ns-2 text format appears in it.
Those belong to the ns-2 layer (crates/engine/src/ns2/), which is built on
the core and may use anything of it; the core may not use the layer."""

from __future__ import annotations

import re
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "crates" / "engine" / "src"
LAYER = SRC / "ns2"


def core_files() -> list[Path]:
    return sorted(p for p in SRC.rglob("*.rs") if LAYER not in p.parents)


_LITERALS = re.compile(r'r#*"[^"]*"#*|"(?:\\.|[^"\\])*"|b?\'(?:\\.|[^\'\\])\'')


def code_of(path: Path) -> list[tuple[int, str]]:
    """The lines of `path` outside comments and `#[cfg(test)]` items (tests
    may drive the core through the ns-2 layer), with their numbers."""
    out: list[tuple[int, str]] = []
    depth, skip_below, pending_test = 0, None, False
    for n, line in enumerate(path.read_text().splitlines(), 1):
        code = line.split("//")[0] if '"' not in line else line
        s = line.strip()
        if s.startswith("//"):
            continue
        bare = _LITERALS.sub('""', code)
        if s.startswith("#[cfg(test)]"):
            pending_test = True
            continue
        if pending_test and skip_below is None and "{" in bare:
            skip_below = depth
        pending_test = pending_test and "{" not in bare and not s.endswith(";")
        if skip_below is None:
            out.append((n, code))
        depth += bare.count("{") - bare.count("}")
        if skip_below is not None and depth <= skip_below:
            skip_below = None
    return out


def ns2_class_names() -> set[str]:
    text = (LAYER / "registry.rs").read_text()
    return set(re.findall(r'Class \{ name: "([^"]+)"', text))


def test_the_layer_lists_its_classes():
    assert len(ns2_class_names()) > 60


def test_no_ns2_class_names_in_the_core():
    classes = ns2_class_names() | {"Agent/TCP", "Queue/DropTail", "Queue/RED"}
    found = []
    for f in core_files():
        for n, line in code_of(f):
            for lit in re.findall(r'"([^"\\]*)"', line):
                if lit in classes or re.search(r"\b(Agent|Queue|Application|RandomVariable|ErrorModel|Classifier|SnoopQueue|QueueMonitor|Trace)/", lit):
                    found.append(f"{f.relative_to(SRC)}:{n}: {lit}")
    assert not found, "ns-2 class names in the core:\n" + "\n".join(found)


def test_no_bound_variable_names_in_the_core():
    """ns-2's bound variables are named `thing_`: none in the core's strings
    (names, messages, formats alike)."""
    found = []
    for f in core_files():
        for n, line in code_of(f):
            for lit in re.findall(r'"((?:\\.|[^"\\])*)"', line):
                for name in re.findall(r"\b[A-Za-z][A-Za-z0-9]*_(?![A-Za-z0-9_])", lit):
                    found.append(f"{f.relative_to(SRC)}:{n}: {name} in \"{lit}\"")
    assert not found, "bound-variable names in the core:\n" + "\n".join(found)


def test_no_tcl_and_no_ns2_formats_in_the_core():
    banned = {
        "::dumbbell": "a Tcl procedure of the ns-2 library",
        "call_tcl": "a Tcl call",
        "crate::ns2": "the ns-2 layer (the core may not use it)",
        "iface::": "the ns-2 layer's object surface",
        "push_g(": "ns-2's printf formats",
        "push_f(": "ns-2's printf formats",
        "format_g(": "ns-2's printf formats",
        "pyo3": "Python",
    }
    found = []
    for f in core_files():
        for n, line in code_of(f):
            for needle, what in banned.items():
                if needle in line:
                    found.append(f"{f.relative_to(SRC)}:{n}: {what}: {line.strip()}")
    assert not found, "\n".join(found)
