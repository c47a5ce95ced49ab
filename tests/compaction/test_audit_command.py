"""`manage.py audit`: the retention audit of a session's compactions, as a report or one JSON
object; clear errors for unknown sessions and compaction keys."""

from __future__ import annotations

import json
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from sessions_app.demo_data import PI_SESSIONS_DIR
from sessions_app.importers import import_file
from sessions_app.models import CompactionEntry, Session
from sessions_app.retention.audit import AUDIT_VERSION
from tests.web.test_compaction_audit import KEPT, LOST, build_planted

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

COMPACTION_KEYS = {"key", "kept", "total", "retention", "summarizer", "by_kind", "facts"}
FACT_KEYS = {"kind", "text", "node", "kept", "where", "detail"}


def run(*args: Any) -> str:
    out = StringIO()
    call_command("audit", *args, stdout=out)
    return out.getvalue()


def run_json(*args: Any) -> dict[str, Any]:
    out = run(*args, "--json")
    parsed: dict[str, Any] = json.loads(out)  # exactly one JSON object, nothing else
    return parsed


def test_json_lists_every_compaction_with_its_facts(db: None) -> None:
    p = build_planted()
    data = run_json(str(p.session.pk))
    assert set(data) == {"session", "compactions"} and data["session"] == p.session.pk
    [c] = data["compactions"]
    assert set(c) == COMPACTION_KEYS
    assert c["key"] == p.entry.node.key and c["summarizer"] == "claude-test-model"
    assert (c["kept"], c["total"]) == (sum(f["kept"] for f in c["facts"]), len(c["facts"]))
    assert c["retention"] == pytest.approx(c["kept"] / c["total"])
    assert c["by_kind"]["constraint"] == {"kept": 1, "total": 3}
    facts = {f["text"]: f for f in c["facts"]}
    assert all(set(f) == FACT_KEYS for f in c["facts"])
    assert facts[LOST]["kept"] is False and facts[LOST]["node"] == p.constraint_node
    assert facts[KEPT]["kept"] is True and facts[KEPT]["where"] == "summary"
    # Reading stored the audit and the retention on the entry.
    entry = CompactionEntry.objects.get(pk=p.entry.pk)
    assert entry.retention == pytest.approx(c["retention"]) and entry.audit is not None


def test_json_carries_before_when_stored(db: None) -> None:
    p = build_planted()
    audit = run_json(str(p.session.pk))["compactions"][0]
    stored = CompactionEntry.objects.get(pk=p.entry.pk).audit
    assert stored is not None
    before = {**stored, "kept": 0, "facts": [{**f, "kept": False, "where": None} for f in stored["facts"]]}
    CompactionEntry.objects.filter(pk=p.entry.pk).update(audit={**stored, "before": before})
    c = run_json(str(p.session.pk))["compactions"][0]
    assert set(c) == COMPACTION_KEYS | {"before"}
    assert c["before"]["kept"] == 0 and c["before"]["total"] == audit["total"]
    assert all(f["kept"] is False for f in c["before"]["facts"])


def test_report_shows_scores_and_lost_facts(db: None) -> None:
    # 5 facts: the finished "Rename the settings loader." counts too; what the rules' sentences
    # name is no fact of its own (one statement, one fact: docs/retention.md).
    p = build_planted()
    out = run(str(p.session.pk))
    assert f"session {p.session.pk} 'Planted constraints': 1 compaction" in out
    assert f"compaction {p.entry.node.key} (manual; summarizer: claude-test-model): kept 1/5 (20%)" in out
    assert "user constraints" in out and "1/3 (33%)" in out
    assert "lost (4):" in out
    assert f"[user constraints] {LOST} · node {p.constraint_node}" in out
    assert KEPT not in out  # kept facts are not listed


def test_one_compaction_by_key_and_refresh(db: None) -> None:
    p = build_planted()
    fake = {"version": AUDIT_VERSION, "kept": 0, "total": 0, "by_kind": {}, "span": {}, "facts": []}
    CompactionEntry.objects.filter(pk=p.entry.pk).update(audit=fake, retention=None)
    stale = run_json(str(p.session.pk), "--compaction", p.entry.node.key)
    assert stale["compactions"][0]["total"] == 0  # the stored audit, as stored
    fresh = run_json(str(p.session.pk), "--compaction", p.entry.node.key, "--refresh")
    assert fresh["compactions"][0]["total"] == 5
    assert CompactionEntry.objects.get(pk=p.entry.pk).retention == pytest.approx(1 / 5)
    CompactionEntry.objects.filter(pk=p.entry.pk).update(audit=fake, retention=None)
    assert run_json(str(p.session.pk), "--refresh")["compactions"][0]["total"] == 5


def test_imported_pi_session_has_facts(db: None) -> None:
    session = import_file(PI_SESSIONS_DIR / "before-compaction.jsonl").session
    data = run_json(str(session.pk))
    keys = list(
        CompactionEntry.objects.filter(node__session=session)
        .order_by("node__seq")
        .values_list("node__key", flat=True)
    )
    assert [c["key"] for c in data["compactions"]] == keys and len(keys) == 2
    for c in data["compactions"]:
        assert c["total"] > 0 and len(c["facts"]) == c["total"]
        assert c["summarizer"] == ""  # unknown: pi does not record who wrote the summary
    assert "summarizer: unknown (imported)" in run(str(session.pk))


def test_session_without_compactions(db: None) -> None:
    s = Session.objects.create(title="empty")
    assert run_json(str(s.pk)) == {"session": s.pk, "compactions": []}
    assert run(str(s.pk)).strip() == f"session {s.pk} 'empty': 0 compactions"


def test_unknown_session_and_key_are_clear_errors(db: None) -> None:
    with pytest.raises(CommandError, match="no session with id 999999"):
        run("999999")
    p = build_planted()
    with pytest.raises(CommandError, match=f"session {p.session.pk} has no compaction with node key 'nope'"):
        run(str(p.session.pk), "--compaction", "nope", "--json")
    with pytest.raises(CommandError, match="invalid int value"):
        run("abc")
