"""The engine package names its functions lazily (sessions_app/compaction/__init__.py, PEP 562):
the lists it keeps for readers, mypy and the lazy lookup name the same things."""

from __future__ import annotations

import importlib

import sessions_app.compaction as compaction


def test_every_exported_name_is_looked_up_in_the_module_that_defines_it() -> None:
    where = compaction._WHERE
    assert sorted(compaction.__all__) == sorted(where)
    for name, module in where.items():
        defined = getattr(importlib.import_module(f"sessions_app.compaction.{module}"), name)
        assert getattr(compaction, name) is defined, name


def test_a_submodule_named_like_its_function_leaves_the_function_on_the_package() -> None:
    importlib.import_module("sessions_app.compaction.prepare")
    from sessions_app.compaction import prepare

    assert callable(prepare) and prepare.__module__ == "sessions_app.compaction.prepare"
