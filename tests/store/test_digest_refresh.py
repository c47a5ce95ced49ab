"""`store.refresh_digests` and `manage.py refresh_digests` (store/digest_refresh.py): rows written
before the facts were stored, or with a digest or facts of another version, get exactly the
columns an append or an import would write today; current rows are left alone; an audit reads
the same before and after. On SQLite and (via `make test`) PostgreSQL."""

from __future__ import annotations

from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sessions_app import store
from sessions_app.compaction.messages import Entry
from sessions_app.models import Node, Session
from sessions_app.retention.digest import DIGEST_VERSION
from sessions_app.retention.fact import AUDIT_VERSION
from sessions_app.store.digest_refresh import refresh_digests

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

DERIVED = ("transcript", "readings", "file_calls", "facts", "digest_version")
SAID = st.sampled_from(
    [
        "Never push to main. Please fix src/app.py and keep port 8080.",
        "Later, not today: add a CHANGELOG entry.",
        "yes",
        "You can push to main now. Set DATABASE_URL=postgres://db/x first.",
        "I'll use a queue in worker.py because it is simpler.",
        "Error: ModuleNotFoundError: No module named 'yaml'",
        "",
    ]
)


def _text(t: str) -> list[dict[str, Any]]:
    return [{"type": "text", "text": t}]


def _columns(session: Session) -> dict[str, tuple[Any, ...]]:
    return {n.key: tuple(getattr(n, c) for c in DERIVED) for n in Node.objects.filter(session=session)}


def _forget(session: Session, seed: int) -> None:
    """Make rows out of date the ways an upgrade leaves them, picked by `seed`."""
    nodes = Node.objects.filter(session=session)
    ways: list[dict[str, Any]] = [
        {"facts": None},  # written before migration 0020
        {"facts": [AUDIT_VERSION - 1, 0]},  # facts of an older audit
        {"digest_version": DIGEST_VERSION - 1},  # a stale digest
        {"digest_version": None, "transcript": None, "readings": None, "file_calls": None, "facts": None},
    ]
    for i, pk in enumerate(nodes.order_by("seq").values_list("pk", flat=True)):
        nodes.filter(pk=pk).update(**ways[(i + seed) % len(ways)])


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(said=st.lists(st.tuples(SAID, SAID, st.booleans()), min_size=1, max_size=5), seed=st.integers(0, 3))
def test_a_refresh_writes_what_an_append_writes(said: list[tuple[str, str, bool]], seed: int) -> None:
    session = Session.objects.create(title="refresh")
    parent: str | None = None
    for i, (user, assistant, failed) in enumerate(said):
        parent = store.append(session, parent, kind="message", role="user", content=_text(user)).key
        call = {"type": "tool_call", "id": f"c{i}", "name": "edit", "arguments": {"path": f"src/m{i}.py"}}
        content = [*_text(assistant), call]
        parent = store.append(session, parent, kind="message", role="assistant", content=content).key
        data = {"tool_call_id": f"c{i}", "tool_name": "edit", "is_error": failed}
        parent = store.append(
            session, parent, kind="message", role="tool_result", content=_text(assistant), data=data
        ).key
    written = _columns(session)
    _forget(session, seed)
    assert _columns(session) != written
    result = refresh_digests([session.pk])
    assert _columns(session) == written
    assert result.rewritten > 0
    again = refresh_digests([session.pk])
    assert again.rewritten == 0  # nothing left behind


def test_an_imported_session_is_refreshed_to_what_its_import_wrote() -> None:
    session = Session.objects.create(title="imported")
    entries = [
        Entry("u1", None, "message", "user", _text("You must keep the API stable. Add a flag.")),
        Entry("a1", "u1", "message", "assistant", _text("I'll add it to cli.py because flags live there.")),
        Entry("r1", "a1", "message", "tool_result", _text("done"), {"tool_call_id": "x", "is_error": True}),
    ]
    store.import_entries(session, entries)
    written = _columns(session)
    _forget(session, 0)
    refresh_digests()
    assert _columns(session) == written


def test_only_the_sessions_named_are_refreshed() -> None:
    a, b = Session.objects.create(title="a"), Session.objects.create(title="b")
    for s in (a, b):
        store.append(s, None, kind="message", role="user", content=_text("Never push to main."))
    Node.objects.update(facts=None)
    refresh_digests([a.pk])
    assert Node.objects.get(session=a).facts is not None
    assert Node.objects.get(session=b).facts is None


def test_the_command_reports_progress_and_refuses_unknown_sessions() -> None:
    session = Session.objects.create(title="cmd")
    parent = None
    for i in range(5):
        parent = store.append(
            session, parent, kind="message", role="user", content=_text(f"Keep port {8000 + i}.")
        ).key
    Node.objects.update(facts=None)
    out, err = StringIO(), StringIO()
    call_command("refresh_digests", str(session.pk), "--batch", "2", stdout=out, stderr=err)
    assert out.getvalue().strip() == "Checked 5 row(s); rewrote 5."
    assert err.getvalue().splitlines() == [
        "checked 2 of 5 rows",
        "checked 4 of 5 rows",
        "checked 5 of 5 rows",
    ]
    assert Node.objects.filter(facts__isnull=True).count() == 0
    with pytest.raises(CommandError, match="no session with id 999999"):
        call_command("refresh_digests", "999999", stdout=StringIO(), stderr=StringIO())
    with pytest.raises(CommandError, match="--batch must be at least 1"):
        call_command("refresh_digests", "--batch", "0", stdout=StringIO(), stderr=StringIO())
