"""The analysis layer lives in `dumbbell.analysis`; its modules keep their
public paths (`dumbbell.metrics`, ...) as the very same module objects, so
state, monkeypatching and `isinstance` agree whichever path a script used."""

from __future__ import annotations

import importlib

import pytest

NAMES = ["results", "metrics", "plot", "trace", "nstrace", "metrics_cli"]


@pytest.mark.parametrize("name", NAMES)
def test_the_public_path_is_the_analysis_module(name):
    old = importlib.import_module(f"dumbbell.{name}")
    new = importlib.import_module(f"dumbbell.analysis.{name}")
    assert old is new
    assert new.__name__ == f"dumbbell.analysis.{name}"


def test_attribute_access_and_top_level_names_agree():
    import dumbbell
    from dumbbell.analysis.results import Result

    assert dumbbell.metrics is importlib.import_module("dumbbell.analysis.metrics")
    assert dumbbell.Result is Result
