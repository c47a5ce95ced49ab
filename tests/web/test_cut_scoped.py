"""The cut-point panel plans from the compaction-scoped path (the latest compaction's first kept
node to the leaf, `store.context_path_entries`), which gives the same plan as the whole path, and
renders a bounded number of rows whatever the path's length: the rows around the cut, the end of
the path, and counts for what is folded. The caps are lowered here so the sessions stay small."""

from __future__ import annotations

import re
from dataclasses import fields
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from sessions_app import store
from sessions_app.compaction import CompactionSettings, Preparation
from sessions_app.models import Session
from sessions_app.presenters import cut as cut_module
from sessions_app.presenters.cut import CutView, cut_view, path_offset
from tests.web.builders import Built, build_chain, build_session, compact
from tests.web.conftest import HX

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

PREP_INDICES = ("previous_compaction_index", "boundary_start_index", "first_kept_index", "turn_start_index")
PREP_LISTS = ("summarize", "turn_prefix", "kept")


def _keys(entries: list[Any]) -> list[str]:
    return [e.key for e in entries]


def _prep(p: Preparation | None, offset: int) -> dict[str, Any] | None:
    """A plan in whole-path terms: its indices shifted by `offset`, its spans as keys (an entry's
    `parent` is blank at the start of a slice, so the entries themselves are not compared)."""
    if p is None:
        return None
    out: dict[str, Any] = {}
    for f in fields(p):
        value = getattr(p, f.name)
        if f.name in PREP_INDICES:
            out[f.name] = value + offset if value >= 0 else value
        elif f.name in PREP_LISTS:
            out[f.name] = _keys(value)
        else:
            out[f.name] = value
    return out


def _view(v: CutView, offset: int = 0) -> dict[str, Any]:
    out = {f.name: getattr(v, f.name) for f in fields(v) if f.name != "prep"}
    out["prep"] = _prep(v.prep, offset)
    return out


def _both(session: Session, settings: CompactionSettings, window: int = 4000) -> tuple[CutView, CutView, int]:
    session.refresh_from_db()
    whole = store.path_entries(session)
    scoped = store.context_path_entries(session)
    offset = path_offset(session, scoped)
    assert _keys(whole[offset:]) == _keys(scoped)  # the slice is the whole path's tail
    return cut_view(whole, settings, window), cut_view(scoped, settings, window, offset), offset


def _sessions() -> list[tuple[str, Built]]:
    ended = build_session("ends with a compaction", turns=6, compactions=1, branch=False)
    compact(ended.session, ended)
    return [
        ("never compacted", build_session("none", turns=8, compactions=0, branch=False)),
        ("one compaction", build_session("one", turns=8, compactions=1)),
        ("three compactions", build_session("three", turns=16, compactions=3)),
        ("ends with a compaction", ended),
    ]


def test_the_scoped_path_gives_the_same_view_as_the_whole_path(db: None) -> None:
    split = 0
    offsets = set()
    for name, built in _sessions():
        for keep in (0, 60, 150, 250, 100_000):
            for compat in ("default", "pi"):
                settings = CompactionSettings(keep_recent_tokens=keep, reserve_tokens=600, compat=compat)
                whole, scoped, offset = _both(built.session, settings)
                assert _view(scoped, offset) == _view(whole), (name, keep, compat)
                offsets.add(offset)
                split += bool(whole.prep and whole.prep.is_split_turn)
    assert split > 0, "a split turn was among the cases"
    assert 0 in offsets and len(offsets) > 2, "sessions with and without a compaction were compared"


def test_the_panel_reads_positions_of_the_whole_path(viewer_client: Client, db: None) -> None:
    built = build_session("positions", turns=16, compactions=3)
    s = built.session
    whole = store.path_entries(s)
    html = viewer_client.get(reverse("sessions_app:session_panel", args=[s.pk, "cut"]), **HX).content.decode()
    assert f"({len(whole):,} on path, from #" in html
    cut_key = re.search(
        r'<tr class="is-cut[^"]*"><td class="num muted">(\d+)</td>.*?nodes/([^/]+)/', html, re.S
    )
    assert cut_key, "a cut is drawn"
    assert whole[int(cut_key.group(1))].key == cut_key.group(2)


def _near_rows(html: str) -> list[str]:
    m = re.search(r'<table class="near-table">.*?<tbody>(.*?)</tbody>', html, re.S)
    assert m, "the rows around the cut are listed"
    return re.findall(r"<tr[ >].*?</tr>", m.group(1), re.S)


def test_a_long_never_compacted_path_renders_capped_rows(
    staff_client: Client, db: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cut_module, "NEAR", 2)
    monkeypatch.setattr(cut_module, "TAIL", 3)
    monkeypatch.setattr(cut_module, "SUMMARIZE_HEAD", 3)
    monkeypatch.setattr(cut_module, "SUMMARIZE_TAIL", 2)
    monkeypatch.setattr(cut_module, "MAX_TICKS", 20)
    s = build_chain(240, title="never compacted")
    url = reverse("sessions_app:session_panel", args=[s.pk, "cut"])
    html = staff_client.get(url, {"keep": "400"}, **HX).content.decode()
    view = cut_view(store.path_entries(s), CompactionSettings(keep_recent_tokens=400), 4000)
    assert view.prep is not None
    rows = _near_rows(html)
    listed = [r for r in rows if "near-gap" not in r]
    assert len(listed) == 2 * 2 + 1 + 3  # around the cut, then the end of the path
    folded = len(view.prep.kept) - 2 - 1 - 3  # kept entries after the rows around the cut
    assert view.near_folded == folded > 0
    assert f"… {folded:,} more entries to the end of the path" in html
    assert s.active_node is not None and f"nodes/{s.active_node.key}/" in listed[-1]  # the path's end
    # The summarized span: its first and last entries, and a count for the rest.
    summarized = len(view.prep.summarize)
    assert summarized > 5
    plan = re.search(r'<ol class="plan-list">(.*?)</ol>', html, re.S)
    assert plan and plan.group(1).count("<li>") == 5
    assert f"… {summarized - 5} more …" in plan.group(1)
    # Cut-point ticks: at most one per 1/MAX_TICKS of the axis (and one hit area each for staff).
    ticks = html.count('class="tick"')
    assert 0 < ticks <= 21 and html.count('class="tick-hit"') <= ticks


def test_a_split_turns_prefix_and_the_files_are_capped_with_counts(
    viewer_client: Client, db: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cut_module, "PREFIX_ROWS", 1)
    monkeypatch.setattr(cut_module, "FILES_SHOWN", 2)
    built = build_session("files", turns=12, compactions=0, branch=False)
    s = built.session
    # keep 100 cuts inside a turn (user, assistant with a tool call, tool result, assistant): the
    # split turn's prefix has more entries than PREFIX_ROWS, and the turns read five files.
    settings = CompactionSettings(keep_recent_tokens=100, reserve_tokens=600)
    view = cut_view(store.context_path_entries(s), settings, 4000)
    assert view.prep is not None and view.prep.is_split_turn
    prefix = len(view.prep.turn_prefix)
    assert prefix > 1 and view.prefix_hidden == prefix - 1 and len(view.prefix_preview) == 1
    read = view.prep.read_files
    assert len(read) > 2 and view.read_files == read[:2] and view.read_hidden == len(read) - 2
    html = viewer_client.get(
        reverse("sessions_app:session_panel", args=[s.pk, "cut"]), {"keep": "100"}, **HX
    ).content.decode()
    files = re.search(r'<ul class="plain mono small" id="cut-read-files">(.*?)</ul>', html, re.S)
    assert files and files.group(1).count("<li>") == 2
    assert f"… {len(read) - 2} more" in files.group(1)
    assert f"… {prefix - 1} more …" in html
