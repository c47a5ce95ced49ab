"""A query compiled once per process (selectors/compiled.py) reads what its queryset reads: every
field and annotation equal, the manager's filter kept, a missing row None."""

from __future__ import annotations

from typing import Any

import pytest
from django.db.models import Exists, OuterRef

from sessions_app.models import CompactionTask, Session
from sessions_app.selectors.compiled import ARG, CompiledQuery
from sessions_app.selectors.sessions import session_with_compacting
from tests.web.builders import build_session

pytestmark = pytest.mark.django_db


def _orm(session_id: int) -> Session | None:
    """The queryset the compiled query replaced, run the ORM's way."""
    statuses = CompactionTask.ACTIVE_STATUSES
    active = CompactionTask.objects.filter(session_id=OuterRef("pk"), status__in=statuses)
    return Session.objects.filter(pk=session_id).annotate(compacting_now=Exists(active)).first()


def _fields(session: Session | None) -> dict[str, Any] | None:
    if session is None:
        return None
    return {k: v for k, v in vars(session).items() if k != "_state"}


def test_the_compiled_session_read_equals_the_querysets():
    session = build_session().session
    Session.objects.filter(pk=session.pk).update(
        metadata={"compaction": {"keep": 3}, "parent_session": 7, "text": "naïve ✓ 😀"}
    )
    read = session_with_compacting(session.pk)
    assert read is not None and vars(read)["compacting_now"] is False
    assert _fields(read) == _fields(_orm(session.pk))
    assert type(read.updated_at) is type(session.updated_at) and read.updated_at.tzinfo is not None

    CompactionTask.objects.create(session=session, trigger="manual", reason="manual", status="running")
    read = session_with_compacting(session.pk)
    assert read is not None and vars(read)["compacting_now"] is True
    assert _fields(read) == _fields(_orm(session.pk))


def test_a_session_being_imported_or_missing_is_none_as_before():
    session = build_session(compactions=0).session
    Session.all_objects.filter(pk=session.pk).update(importing=True)
    assert session_with_compacting(session.pk) is None and _orm(session.pk) is None
    assert session_with_compacting(session.pk + 10_000) is None


def test_each_call_reads_its_own_session(django_assert_num_queries):
    first = build_session(compactions=0).session
    second = build_session(compactions=0).session
    session_with_compacting(first.pk)  # compiled by now
    with django_assert_num_queries(2):
        a = session_with_compacting(first.pk)
        b = session_with_compacting(second.pk)
    assert a is not None and b is not None and (a.pk, b.pk) == (first.pk, second.pk)
    assert a.title == first.title and b.title == second.title


@pytest.mark.parametrize("times", [0, 2])
def test_the_argument_must_appear_exactly_once(times):
    def build(value: int):
        qs = Session.objects.all()
        for _ in range(times):
            qs = qs.filter(pk__in=[value, 1])
        return qs

    with pytest.raises(ValueError, match=f"not {times} times"):
        CompiledQuery(build).first(1)
    assert ARG < 0  # never a primary key
