"""The charts keep the complete groups of calls they drew, in the process's cache and in the
database (store/call_groups.py, issue 35), and draw from them: on random sessions, at random group
sizes, what a view draws from kept groups — in the process that kept them, in a fresh process
(an empty cache), after the session grew — is what it draws aggregating every call afresh."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.core.cache import cache
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sessions_app import store
from sessions_app.compaction.messages import Entry, Usage
from sessions_app.models import CallGroups, Node, Session
from sessions_app.presenters.charts import CallSeries, load_calls
from sessions_app.presenters.charts import calls as chart_calls

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

Call = tuple[int, int, str, bool]  # input tokens, output tokens, stop reason, with usage

calls = st.tuples(
    st.integers(min_value=0, max_value=50_000),
    st.integers(min_value=0, max_value=900),
    st.sampled_from(["stop", "tool_use", "error", "aborted", ""]),
    st.booleans(),
)


def _entries(session: Session, drawn: list[Call], start: int) -> Iterator[Entry]:
    active = session.active_node_id
    parent = Node.objects.filter(pk=active).values_list("key", flat=True).first() if active else None
    for i, (tokens, out, stop, with_usage) in enumerate(drawn, start=start):
        user = Entry(f"u{i}", parent, "message", "user", [{"type": "text", "text": f"step {i}"}])
        reply = Entry(
            f"a{i}",
            user.key,
            "message",
            "assistant",
            [{"type": "text", "text": f"done {i}"}],
            {"request": {"threshold": 1000 + i, "window": 9000}} if i % 3 else {},
            usage=Usage(input=tokens, output=out, cache_read=i % 7) if with_usage else None,
            stop_reason=stop or None,
        )
        yield user
        yield reply
        parent = reply.key


def _append(session: Session, drawn: list[Call], start: int) -> None:
    """More calls after the session's active node, the way the runtime appends them."""
    for e in _entries(session, drawn, start):
        store.append(
            session,
            e.parent,
            kind=e.kind,
            role=e.role,
            content=e.content,
            data=e.data,
            usage=e.usage.to_dict() if e.usage else None,
            stop_reason=e.stop_reason,
            key=e.key,
        )
        session.refresh_from_db()


def afresh(session: Session, limit: int) -> CallSeries:
    """The series aggregated from every call: nothing kept anywhere, and nothing left kept."""
    cache.clear()
    CallGroups.objects.filter(session=session).delete()
    series = load_calls(session, limit)
    cache.clear()
    CallGroups.objects.filter(session=session).delete()
    return series


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    first=st.lists(calls, min_size=1, max_size=60),
    more=st.lists(calls, max_size=25),
    limit=st.integers(min_value=1, max_value=12),
)
def test_kept_groups_draw_what_the_calls_draw(
    first: list[Call], more: list[Call], limit: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = Session.objects.create(title="kept", context_window=9000)
    store.import_entries(session, _entries(session, first, 0))
    session.refresh_from_db()
    expected = afresh(session, limit)

    kept_now = load_calls(session, limit)  # keeps the complete groups
    assert kept_now == expected
    complete = expected.calls // expected.per
    row = CallGroups.objects.filter(session=session, per=expected.per).first()
    assert (row is not None and row.groups == complete) is (complete > 0)

    # Another process: its cache is empty, the database holds the groups; no group it holds is
    # aggregated again (the grouping statement starts after them).
    cache.clear()
    seen: list[int] = []
    real = chart_calls._group_rows

    def spy(session_id: int, per: int, start: int) -> list[tuple[object, ...]]:
        seen.append(start)
        return real(session_id, per, start)

    monkeypatch.setattr(chart_calls, "_group_rows", spy)
    assert load_calls(session, limit) == expected
    assert seen == [complete]
    monkeypatch.undo()

    _append(session, more, len(first))
    grown = load_calls(session, limit)
    assert grown == afresh(session, limit)
    assert grown.calls == len(first) + len(more)


def test_groups_kept_in_another_format_are_replaced(db: None) -> None:
    session = Session.objects.create(title="old format", context_window=9000)
    store.import_entries(session, _entries(session, [(100 + i, 5, "stop", True) for i in range(9)], 0))
    session.refresh_from_db()
    expected = afresh(session, 2)  # groups of 5: one complete
    CallGroups.objects.create(session=session, per=5, groups=1, points='{"fields": ["n"], "points": [[1]]}')
    assert load_calls(session, 2) == expected
    row = CallGroups.objects.get(session=session, per=5)
    assert row.groups == 1 and '"first"' in row.points
