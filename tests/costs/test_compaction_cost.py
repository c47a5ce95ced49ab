"""A compaction's net cost (docs/costs.md, "Per compaction") against figures worked out by hand.

Rates (Claude Sonnet 4, per million tokens): $3 input, $15 output, $0.30 cache read, $3.75 cache
write. The compaction takes the context from 100,000 tokens to 20,000 (80,000 dropped); its summary
call read 100,000 uncached tokens and wrote 2,000: 0.30 + 0.03 = $0.33. Three calls follow:

| call | input | cache read | cache write | output | cost | without the compaction |
|---|---|---|---|---|---|---|
| 1 | 50 | 3,000 | 20,000 | 400 | 150+900+75,000+6,000 = $0.08205 | reads 103,000, writes 0: $0.03705 |
| 2 | 30 | 23,000 | 600 | 300 | 90+6,900+2,250+4,500 = $0.01374 | reads 103,000: $0.03774 |
| 3 | 30 | 23,000 | 600 | 300 | $0.01374 | $0.03774 |

The calls cost $0.10953 against $0.11253 without it: the cache effect is -$0.003 (re-caching the
20,000 tokens cost more than two calls' savings, the third call tips it), and the net cost is
$0.33 - $0.003 = $0.327."""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal

import pytest

from sessions_app import store
from sessions_app.llm.cache_effect import FollowingCall, compaction_cost
from sessions_app.llm.prices import CallUsage
from sessions_app.models import Agent, Call, Node, Run, Session
from sessions_app.selectors import costs
from tests.web.builders import Built, add_turns, compact

MODEL = "claude-sonnet-4-20250514"
AT = datetime(2025, 11, 3, 9, 0, tzinfo=UTC)
FOLLOWING = [
    CallUsage(50, 400, 3000, 20_000),
    CallUsage(30, 300, 23_000, 600),
    CallUsage(30, 300, 23_000, 600),
]


def nanos(usd: str) -> int:
    return int(Decimal(usd) * 1_000_000_000)


def test_net_cost_by_hand() -> None:
    following = [FollowingCall("anthropic", MODEL, u, AT) for u in FOLLOWING]
    cost = compaction_cost(nanos("0.33"), 100_000, 20_000, following)
    assert cost.dropped == 80_000 and cost.recached == 20_000 and cost.calls == 3
    assert cost.actual == nanos("0.10953")
    assert cost.counterfactual == nanos("0.11253")
    assert cost.effect == -nanos("0.003")
    assert cost.net == nanos("0.327")


def test_two_calls_after_it_the_compaction_has_cost_money() -> None:
    following = [FollowingCall("anthropic", MODEL, u, AT) for u in FOLLOWING[:2]]
    cost = compaction_cost(nanos("0.33"), 100_000, 20_000, following)
    assert cost.effect == nanos("0.021")  # 0.08205 + 0.01374 - 0.03705 - 0.03774
    assert cost.net == nanos("0.351")


def test_an_unpriced_call_makes_the_effect_unknown() -> None:
    following = [
        FollowingCall("anthropic", MODEL, FOLLOWING[0], AT),
        FollowingCall("acme", "x", FOLLOWING[1]),
    ]
    cost = compaction_cost(nanos("0.33"), 100_000, 20_000, following)
    assert cost.effect is None and cost.net is None and cost.unpriced == 1


def test_unknown_summary_keeps_the_effect_but_not_the_net() -> None:
    following = [FollowingCall("anthropic", MODEL, u, AT) for u in FOLLOWING]
    cost = compaction_cost(None, 100_000, 20_000, following)
    assert cost.effect == -nanos("0.003") and cost.net is None


@pytest.mark.django_db
@pytest.mark.postgres
def test_net_cost_on_a_scripted_session(session: Session) -> None:
    """The same figures through the store (calls priced as they are appended) and the selector."""
    built = Built(session)
    add_turns(session, built, 4)
    entry = compact(session, built)
    agent = Agent.objects.create(session=session, definition_name="compact", role="fork", hidden=True)
    run = Run.objects.create(
        agent=agent, session=session, model=MODEL, input_tokens=100_000, output_tokens=2000
    )
    entry.tokens_before, entry.tokens_after, entry.fork_run = 100_000, 20_000, run
    entry.save(update_fields=["tokens_before", "tokens_after", "fork_run"])
    session.refresh_from_db()
    parent: Node | int | None = session.active_node_id
    for i, u in enumerate(FOLLOWING):
        node = store.append(
            session, parent, kind="message", role="user", content=[{"type": "text", "text": f"q{i}"}]
        )
        node = store.append(
            session,
            node,
            kind="message",
            role="assistant",
            content=[{"type": "text", "text": f"a{i}"}],
            usage={
                "input": u.input,
                "output": u.output,
                "cache_read": u.cache_read,
                "cache_write": u.cache_write,
            },
            data={"provider": "anthropic", "model": MODEL},
            timestamp=AT,
        )
        parent = node
    [row] = costs.compaction_costs(session.pk)
    assert row.entry.pk == entry.pk
    assert row.cost.summary == nanos("0.33")
    assert row.cost.calls == 3
    assert row.cost.net == nanos("0.327")
    # The calls before the compaction are the builder's offline ones: stored as unknown, not 0.
    session.refresh_from_db()
    offline = Call.objects.filter(session=session, provider="offline")
    assert offline.exists() and not offline.filter(cost__isnull=False).exists()
    assert session.unpriced_calls == offline.count()
    assert session.cost == nanos("0.10953")
