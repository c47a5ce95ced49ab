"""Imported sessions are priced as they are imported, each call from the usage its file reports
(the rates are worked out by hand here from the raw records, not from our own mapping)."""

from __future__ import annotations

import json
import re
from collections import Counter
from decimal import Decimal
from pathlib import Path

import pytest

from sessions_app.importers import import_file
from sessions_app.models import Call, Session
from sessions_app.selectors import costs
from tests.importers.helpers import DATA

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]


def per_million(tokens: int, usd: str) -> Decimal:
    return tokens * Decimal(usd) / 1_000_000


def nanos(usd: Decimal) -> int:
    return int((usd * 1_000_000_000).to_integral_value())


def test_codex_rollout_priced_with_cached_input(tmp_path: Path) -> None:
    """OpenAI's input_tokens include the cached ones; GPT-4o: $2.50 input, $1.25 cached, $10 output."""
    text = re.sub(
        r'"model": "gpt-5[.0-9]*-codex"', '"model": "gpt-4o"', (DATA / "codex_rollout.jsonl").read_text()
    )
    path = tmp_path / "rollout.jsonl"
    path.write_text(text)
    expected = []
    for line in text.splitlines():
        rec = json.loads(line)
        p = rec["payload"]
        if rec["type"] == "event_msg" and p.get("type") == "token_count" and p.get("info"):
            last = p["info"]["last_token_usage"]
            cached = last["cached_input_tokens"]
            expected.append(
                nanos(
                    per_million(last["input_tokens"] - cached, "2.50")
                    + per_million(cached, "1.25")
                    + per_million(last["output_tokens"], "10")
                )
            )
    session = import_file(path).session
    calls = Call.objects.filter(session=session)
    priced = [c for c in calls.values_list("cost", flat=True) if c is not None]
    # Each call is priced from the token_count after it; the token_counts of a compaction's own
    # call (no assistant node) are not calls, so the calls' prices are a part of the list.
    assert len(priced) == calls.filter(has_usage=True).count() > 5
    assert not Counter(priced) - Counter(expected)
    session.refresh_from_db()
    assert session.cost == sum(priced)
    assert session.project == "/home/dev/inventory"
    assert all(s.key == "gpt-4o" for s in costs.by_model(session.pk) if s.calls - s.unpriced)


# Dollars per million: input, output, cache read, cache write (Anthropic's price table).
CLAUDE_RATES = {
    "claude-sonnet-4-5": ("3", "15", "0.30", "3.75"),
    "claude-haiku-4-5": ("1", "5", "0.10", "1.25"),
}


def test_claude_transcript_priced_with_cache_write_and_read() -> None:
    path = DATA / "claude_session.jsonl"
    expected = []
    for line in path.read_text().splitlines():
        rec = json.loads(line)
        msg = rec.get("message")
        if rec.get("type") == "assistant" and isinstance(msg, dict) and isinstance(msg.get("usage"), dict):
            u = msg["usage"]
            i, o, r, w = CLAUDE_RATES[msg["model"].rsplit("-", 1)[0]]
            expected.append(
                nanos(
                    per_million(u["input_tokens"], i)
                    + per_million(u.get("cache_read_input_tokens", 0), r)
                    + per_million(u.get("cache_creation_input_tokens", 0), w)
                    + per_million(u["output_tokens"], o)
                )
            )
    session = import_file(path).session
    session.refresh_from_db()
    calls = Call.objects.filter(session=session)
    assert calls.filter(cost__isnull=True).count() == session.unpriced_calls
    assert session.cost == sum(c for c in calls.values_list("cost", flat=True) if c is not None)
    # Every priced call's cost is one of the file's hand-priced usages (the importer merges the
    # streamed parts of one message into one call, so the counts need not match line for line).
    assert set(calls.exclude(cost=None).values_list("cost", flat=True)) <= set(expected)
    assert session.cost > 0
    assert session.project == "/home/dev/shop"
    assert all(
        c.startswith("genai-prices ") for c in calls.exclude(cost=None).values_list("price_source", flat=True)
    )


def test_a_model_without_a_price_is_unknown_in_every_sum(tmp_path: Path) -> None:
    text = re.sub(
        r'"model": "gpt-5[.0-9]*-codex"',
        '"model": "acme-brain-9"',
        (DATA / "codex_rollout.jsonl").read_text(),
    )
    text = text.replace('"model_provider": "openai"', '"model_provider": "acme"')
    path = tmp_path / "rollout.jsonl"
    path.write_text(text)
    session = import_file(path).session
    session.refresh_from_db()
    assert session.cost == 0 and session.unpriced_calls == session.call_count > 0
    total = costs.total(session)
    assert not total.known
    [day] = costs.by_day(session.pk)
    assert not day.known and day.unpriced == day.calls


def test_reprice_command_restores_the_stored_prices(tmp_path: Path) -> None:
    """Stored prices changed behind the list's back (an older list) come back with `reprice`."""
    from io import StringIO

    from django.core.management import call_command

    session = import_file(DATA / "claude_session.jsonl").session
    session.refresh_from_db()
    before = (
        session.cost,
        session.unpriced_calls,
        list(Call.objects.filter(session=session).order_by("n").values_list("cost")),
    )
    Call.objects.filter(session=session).update(cost=1)
    Session.objects.filter(pk=session.pk).update(cost=5, unpriced_calls=0)
    out = StringIO()
    call_command("reprice", str(session.pk), stdout=out)
    session.refresh_from_db()
    after = (
        session.cost,
        session.unpriced_calls,
        list(Call.objects.filter(session=session).order_by("n").values_list("cost")),
    )
    assert after == before
    assert "Priced 1 session(s) with genai-prices" in out.getvalue()


def test_codex_compaction_summary_call_is_priced(tmp_path: Path) -> None:
    """Codex writes the summary call's token count right before its `compacted` record; no call
    claims it, so it is the compaction's own cost. GPT-4o, the fixture's three compactions: line 56
    reports 8,460 input and 420 output tokens: 8460*2.50 + 420*10 = $0.02535; line 74, 3,760 and
    380: 3760*2.50 + 380*10 = $0.0132; line 83, 2,300 input of which 2,048 cached and 150 output:
    252*2.50 + 2048*1.25 + 150*10 = $0.00469."""
    text = (DATA / "codex_rollout.jsonl").read_text()
    text = re.sub(r'"model": "gpt-5[.0-9]*-codex"', '"model": "gpt-4o"', text)
    path = tmp_path / "rollout.jsonl"
    path.write_text(text)
    session = import_file(path).session
    rows = costs.compaction_costs(session.pk)
    want = [nanos(Decimal(usd)) for usd in ("0.02535", "0.0132", "0.00469")]
    assert [r.cost.summary for r in rows] == want
    assert all(r.summary_source.startswith("genai-prices ") for r in rows)
