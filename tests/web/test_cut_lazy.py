"""The cut panel reads the path as a compaction does (issue 35): stored figures and digests, the
bodies only of the entries it lists. On random sessions (tool calls that read and change files,
compactions, side branches, nodes without a stored digest) and random settings, that view is the
view planned from the path read whole (`store.context_path_entries`, what the panel read before),
and the panel serves it: its bar marks are the ones the template drew for that view."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sessions_app import store
from sessions_app.compaction import CompactionSettings
from sessions_app.compaction.messages import Entry, Usage
from sessions_app.models import Node, Session
from sessions_app.presenters.cut import CutView, cut_view, path_offset
from tests.web.conftest import HX
from tests.web.test_cut_marks import template_marks

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

SENTENCE = "parse the input keep the API stable add tests for unicode then update the changelog"
WORDS = SENTENCE.split(" ")


@st.composite
def sessions(draw: st.DrawFn) -> list[Entry]:
    """Turns of user → assistant (tool calls on files, usage) → tool results → assistant, with
    compactions keeping a recent user message and side branches off the main line."""
    out: list[Entry] = []
    parent: str | None = None
    users: list[str] = []
    n = 0

    def key(prefix: str) -> str:
        nonlocal n
        n += 1
        return f"{prefix}{n}"

    for t in range(draw(st.integers(min_value=1, max_value=14))):
        words = draw(st.integers(min_value=1, max_value=60))
        text = " ".join(WORDS[(t + i) % len(WORDS)] for i in range(words))
        user = Entry(key("u"), parent, "message", "user", [{"type": "text", "text": text}])
        out.append(user)
        users.append(user.key)
        parent = user.key
        calls = draw(
            st.lists(
                st.tuples(st.sampled_from(["read", "write", "edit", "bash"]), st.integers(0, 5)), max_size=3
            )
        )
        blocks = [
            {"type": "tool_call", "id": f"t{t}-{i}", "name": name, "arguments": {"path": f"src/m{p}.py"}}
            for i, (name, p) in enumerate(calls)
        ]
        reply = Entry(
            key("a"),
            parent,
            "message",
            "assistant",
            blocks or [{"type": "text", "text": text}],
            usage=Usage(input=draw(st.integers(0, 5000)), output=draw(st.integers(0, 300))),
            stop_reason="tool_use" if blocks else "stop",
        )
        out.append(reply)
        parent = reply.key
        for i, (name, _) in enumerate(calls):
            result = Entry(
                key("r"),
                parent,
                "message",
                "tool_result",
                [{"type": "text", "text": text * draw(st.integers(1, 4))}],
                {"tool_call_id": f"t{t}-{i}", "tool_name": name, "is_error": False},
            )
            out.append(result)
            parent = result.key
        if blocks:
            done = Entry(
                key("a"),
                parent,
                "message",
                "assistant",
                [{"type": "text", "text": "done"}],
                usage=Usage(input=draw(st.integers(0, 5000)), output=10),
                stop_reason="stop",
            )
            out.append(done)
            parent = done.key
        if draw(st.booleans()) and t % 3 == 1:  # a side branch off this turn's user message
            b = Entry(key("b"), user.key, "message", "user", [{"type": "text", "text": "another way?"}])
            out.append(b)
        if len(users) > 1 and draw(st.integers(0, 3)) == 0:
            first_kept = users[-draw(st.integers(1, min(2, len(users))))]
            c = Entry(
                key("c"),
                parent,
                "compaction",
                data={
                    "summary": "## Goal\nsteps\n",
                    "first_kept": first_kept,
                    "tokens_before": 9000,
                    "details": {},
                },
            )
            out.append(c)
            parent = c.key
            users = []  # the next compaction keeps a message written after this one
    return out


def _view(v: CutView) -> dict[str, Any]:
    """A view's fields, its plan by the keys of its spans (entries of two loads are compared by
    what they are, not by the objects)."""
    out = {f.name: getattr(v, f.name) for f in fields(v) if f.name != "prep"}
    p = v.prep
    if p is not None:
        out["prep"] = {
            f.name: [e.key for e in value]
            if isinstance(value := getattr(p, f.name), list) and value and isinstance(value[0], Entry)
            else value
            for f in fields(p)
            if f.name != "digests"
        }
    return out


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    entries=sessions(),
    keep=st.integers(min_value=0, max_value=3000),
    reserve=st.integers(min_value=0, max_value=2000),
    compat=st.sampled_from(["default", "pi"]),
    undigested=st.integers(min_value=0, max_value=3),
)
def test_the_lazy_view_is_the_view_of_the_whole_path(
    staff_client: Client, entries: list[Entry], keep: int, reserve: int, compat: str, undigested: int
) -> None:
    session = Session.objects.create(title="random", context_window=8000)
    store.import_entries(session, entries)
    # Nodes written before digests existed read their bodies when loaded (stored_entries.py).
    old = list(Node.objects.filter(session=session).order_by("seq").values_list("pk", flat=True)[::4])
    Node.objects.filter(pk__in=old[:undigested]).update(digest_version=None)
    session.refresh_from_db()
    s = CompactionSettings(keep_recent_tokens=keep, reserve_tokens=reserve, compat=compat)  # type: ignore[arg-type]

    whole = store.context_path_entries(session)
    before = cut_view(whole, s, 8000, offset=path_offset(session, whole))
    loaded = store.context_path_with_digests(session)
    after = cut_view(
        loaded.entries, s, 8000, offset=path_offset(session, loaded.entries), digests=loaded.digests
    )
    assert _view(after) == _view(before)

    url = reverse("sessions_app:session_panel", args=[session.pk, "cut"])
    params = {"keep": str(keep), "reserve": str(reserve), "window": "8000", "compat": compat}
    html = staff_client.get(url, params, **HX).content.decode()
    # The bar's three lines of marks, as the template drew them for the view of the whole path.
    expected = template_marks(before.segments, before.ticks, True).replace("\n", "\n        ")
    assert (expected in html) is bool(before.segments)
    assert ('class="seg ' in html) is bool(before.segments)
