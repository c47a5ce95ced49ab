"""What the extractive summarizer keeps of the scripted long session, and what the audit says
about it (docs/compaction.md, rules U2–U4 and R1–R3). `bench/retention.py` prints the figures."""

from __future__ import annotations

from functools import cache

from sessions_app.compaction.budget import context_tokens
from sessions_app.compaction.tokens import count_text
from sessions_app.compaction.vocabulary import FactKind
from sessions_app.retention.audit import audit_at
from sessions_app.retention.extractive import compact_extractive
from sessions_app.retention.fact import Fact
from tests.compaction.long_session import SETTINGS, WINDOW, Planted, Played, entry_text, norm, play


@cache
def played() -> Played:
    return play(compact_extractive)


def test_planted_facts_survive_every_compaction() -> None:
    p = played()
    assert len(p.compactions) >= 2 and any(plan.is_split_turn for plan in p.plans)
    assert any(plan.previous_summary for plan in p.plans)
    kept = [f for f in p.planted if p.retained(f)]
    assert len(kept) >= 0.9 * len(p.planted)
    assert all(p.retained(f) for f in p.planted if f.kind == "file")
    assert not any(p.retained(f) for f in p.reversed)  # a lifted constraint is not repeated


def test_summaries_and_the_context_after_them_stay_small() -> None:
    p = played()
    for index in p.compactions:
        assert count_text(p.path[index].data["summary"]) <= 4000
        assert context_tokens(p.path[: index + 1], SETTINGS).tokens <= 0.25 * WINDOW


def test_the_audit_lists_the_planted_facts_and_labels_them_right() -> None:
    p = played()
    listed = right = total = 0
    for index in p.compactions:
        audit = audit_at(p.path, index)
        entry = p.path[index]
        first_kept = next(i for i, e in enumerate(p.path) if e.key == entry.data["first_kept"])
        start = next(i for i, e in enumerate(p.path) if e.key == audit.span_start)
        span = {e.key for e in p.path[start:first_kept]}
        visible = norm(
            entry.data["summary"] + "\n" + "\n".join(entry_text(e) for e in p.path[first_kept:index])
        )
        for fact in (f for f in p.planted if f.node in span):
            total += 1
            match = next(
                (c for c in audit.facts if _lists(c.fact, fact)),
                None,
            )
            if match is not None:
                listed += 1
                right += match.kept == (norm(fact.probe) in visible)
    assert total >= 40
    assert listed >= 0.9 * total and right >= 0.9 * listed


def _lists(found: Fact, planted: Planted) -> bool:
    """A planted fact is listed by an audit fact of its kind; a value or a file the user named is
    listed by the request or rule of the same message that quotes it, and a command that failed by
    its error (one statement, one fact: docs/retention.md, "Facts by structure")."""
    if planted.kind == "command" and found.kind == FactKind.ERROR:
        return norm(planted.probe) in norm(found.command)  # a failed run is said by its error
    if norm(planted.probe) not in norm(found.text):
        return False
    if found.kind == planted.kind:
        return True
    carriers = (FactKind.REQUEST, FactKind.CONSTRAINT)
    return planted.kind in ("value", "file") and found.kind in carriers and found.node == planted.node
