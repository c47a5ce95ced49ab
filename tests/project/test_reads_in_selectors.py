"""Reads in selectors (docs/architecture.md, "Which layer may import which"): presenters and views
ask `sessions_app/selectors/` for rows; they build no query and call no manager of their own.

Read from the source (AST), so a new ORM call in a presenter or a view fails here before review.
Presenters may name the models for typing only (under `if TYPE_CHECKING:`); views may import them
(a form's choices, a type), but query them only through selectors. The charts' bulk loaders
(`presenters/charts/`) are exempt for now: they are still being moved.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "sessions_app"
EXEMPT = (APP / "presenters" / "charts",)

MANAGERS = frozenset({"objects", "all_objects", "_default_manager", "_base_manager"})
ORM_CALLS = frozenset({"get_object_or_404", "get_list_or_404", "refresh_from_db"})
DB_NAMES = frozenset({"models", "connection", "connections", "transaction"})  # not its errors
MODELS = "sessions_app.models"


def _name(node: ast.expr) -> str:
    return node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""


def _type_checking_lines(tree: ast.Module) -> set[int]:
    """Lines inside `if TYPE_CHECKING:` blocks (imports there never run)."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and _name(node.test) == "TYPE_CHECKING":
            for child in node.body:
                lines.update(range(child.lineno, (child.end_lineno or child.lineno) + 1))
    return lines


def orm_uses(source: str, *, models_at_run_time: bool) -> list[str]:
    """What in `source` reads the database by itself: a manager (`Model.objects`), a shortcut
    that queries (`get_object_or_404`, `refresh_from_db`), an import of what builds or runs
    queries (`django.db.models`, `connection`, `transaction`); and, unless `models_at_run_time`,
    an import of the models outside TYPE_CHECKING."""
    tree = ast.parse(source)
    typing_only = _type_checking_lines(tree)
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in MANAGERS:
            found.append(f"line {node.lineno}: .{node.attr}")
        elif isinstance(node, ast.Call):
            name = _name(node.func)
            if name in ORM_CALLS:
                found.append(f"line {node.lineno}: {name}()")
        elif isinstance(node, ast.ImportFrom | ast.Import):
            modules = (
                [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else [alias.name for alias in node.names]
            )
            if isinstance(node, ast.ImportFrom) and node.module == "sessions_app":
                modules = [f"sessions_app.{alias.name}" for alias in node.names]
            if isinstance(node, ast.ImportFrom) and node.module == "django.db":
                modules = [f"django.db.{alias.name}" for alias in node.names]
            for module in modules:
                if module.startswith("django.db.") and module.split(".")[2] in DB_NAMES:
                    found.append(f"line {node.lineno}: import {module}")
                elif module == MODELS and not models_at_run_time and node.lineno not in typing_only:
                    found.append(f"line {node.lineno}: import {module} at run time")
    return found


def _modules(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.py") if not any(p.is_relative_to(e) for e in EXEMPT))


@pytest.mark.parametrize(
    ("folder", "models_at_run_time"),
    [("presenters", False), ("views", True)],
)
def test_presenters_and_views_read_only_through_selectors(folder: str, models_at_run_time: bool) -> None:
    modules = _modules(APP / folder)
    assert len(modules) >= 10  # the folder was found and read
    offenders = {
        str(path.relative_to(ROOT)): uses
        for path in modules
        if (uses := orm_uses(path.read_text(encoding="utf-8"), models_at_run_time=models_at_run_time))
    }
    assert offenders == {}


@pytest.mark.parametrize(
    "source",
    [
        "from sessions_app.models import Node\n",
        "import sessions_app.models\n",
        "from sessions_app import models\n",
        "def f(s):\n    return Node.objects.filter(session=s)\n",
        "def f(s):\n    return Session.all_objects.first()\n",
        "def f(s):\n    s.refresh_from_db()\n",
        "def f(i):\n    return get_object_or_404(Node, pk=i)\n",
        "from django.db.models import Q\n",
        "from django.db import connection\n",
        "import django.db.models\n",
    ],
)
def test_the_check_finds_each_kind_of_direct_read(source: str) -> None:
    assert orm_uses(source, models_at_run_time=False)


def test_the_check_lets_through_model_types_and_selectors() -> None:
    source = (
        "from typing import TYPE_CHECKING\n"
        "from sessions_app.selectors import nodes\n"
        "if TYPE_CHECKING:\n"
        "    from sessions_app.models import Node\n"
        "def f(node: Node) -> int:\n"
        "    return nodes.child_count(node.pk)\n"
    )
    assert orm_uses(source, models_at_run_time=False) == []
    assert orm_uses("from django.db import DatabaseError\n", models_at_run_time=False) == []
    # A view may import a model (a form's choices); it still may not query it.
    assert orm_uses("from sessions_app.models import SourceChoices\n", models_at_run_time=True) == []
    assert orm_uses("x = SourceChoices.objects\n", models_at_run_time=True)
