"""The fork's prompt as compact_started records it (runtime/compact_fork/prompt.py): by reference
to the nodes' stored transcripts when it was joined from them, else as text; read back exactly."""

from __future__ import annotations

from typing import Any

import pytest

from sessions_app import store
from sessions_app.compaction.prepare import Preparation, prepare
from sessions_app.compaction.settings import CompactionSettings
from sessions_app.compaction.summary import build_requests
from sessions_app.models import Node, Session
from sessions_app.runtime.compact_fork import prompt as fork_prompt

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def _session(n: int = 24) -> Session:
    session = Session.objects.create(title="prompt")
    parent: str | None = None
    for i in range(n):
        role = "user" if i % 2 == 0 else "assistant"
        text = f"{role} {i}: keep the </conversation> tag literal & <b>escaped</b> " * 3
        parent = store.append(
            session, parent, kind="message", role=role, content=[{"type": "text", "text": text}]
        ).key
    session.refresh_from_db()
    return session


def _plan(session: Session, **settings: Any) -> Preparation:
    path, digests = store.context_path_with_digests(session)
    prep = prepare(path, CompactionSettings(keep_recent_tokens=40, **settings), digests=digests)
    assert isinstance(prep, Preparation)
    return prep


def test_a_prompt_joined_from_stored_transcripts_is_recorded_by_reference_and_read_back_whole() -> None:
    session = _session()
    prep = _plan(session)
    history = build_requests(prep, "focus on tags").history
    assert history is not None and history.span is not None
    payload = fork_prompt.record(history, prep)
    span = payload["prompt_span"]
    assert payload["prompt"] == "" and (span["first"], span["last"]) == (
        prep.summarize[0].key,
        prep.summarize[-1].key,
    )
    assert len(span["before"]) + len(span["after"]) < len(history.prompt) // 2
    assert fork_prompt.recorded(payload, session.pk)["prompt"] == history.prompt
    shown = fork_prompt.shortened({"type": "x", **payload})
    assert (
        shown["prompt"] == f"({len(history.prompt):,} characters: see Prompt)" and "prompt_span" not in shown
    )


def test_pi_mode_and_rows_without_digests_record_the_text() -> None:
    session = _session()
    pi = _plan(session, compat="pi")
    history = build_requests(pi).history
    assert history is not None and history.span is None
    assert fork_prompt.record(history, pi) == {"prompt": history.prompt}
    Node.objects.filter(session=session, seq=1).update(digest_version=None)
    old = _plan(session)
    assert old.summarize[1].key not in old.digests and old.summarize[2].key in old.digests
    history = build_requests(old).history
    assert history is not None and fork_prompt.record(history, old) == {"prompt": history.prompt}


def test_a_span_that_cannot_be_read_back_says_so() -> None:
    session = _session()
    prep = _plan(session)
    payload = fork_prompt.record(build_requests(prep).history, prep)
    Node.objects.filter(session=session, key=prep.summarize[2].key).update(transcript=None)
    gone = fork_prompt.recorded(payload, session.pk)
    assert gone["prompt"] == "" and "could not be read back" in gone["prompt_note"]
    Node.objects.filter(session=session, key=prep.summarize[2].key).update(transcript="changed")
    changed = fork_prompt.recorded(payload, session.pk)
    assert "changed" in changed["prompt"] and "were sent" in changed["prompt_note"]
