"""Costs (docs/costs.md): the stored call prices summed per session, run, model, day and project,
and each compaction's net cost over the calls that followed it.

A sum comes with the number of calls it left out for want of a price (`unpriced`), so the pages
can say "unknown" or "at least" instead of showing a total that silently counts them as free.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from django.db.models import Count, IntegerField, Max, Q, QuerySet, Sum, Value
from django.db.models.functions import Coalesce, TruncDate

from sessions_app.llm.cache_effect import CompactionCost, FollowingCall, compaction_cost
from sessions_app.llm.prices import CallUsage, price_call
from sessions_app.models import Call, CompactionEntry, Session


@dataclass(frozen=True, slots=True)
class CostSum:
    key: Any  # what the calls are grouped by (a model, a day, a run id, a project)
    nanos: int  # the priced calls' total
    calls: int
    unpriced: int  # calls without a price, left out of `nanos`

    @property
    def known(self) -> bool:
        """At least one call has a price (else the sum is "unknown", not 0)."""
        return self.unpriced < self.calls


def _sums(qs: QuerySet[Call], group: str, order: str = "") -> list[CostSum]:
    rows = (
        qs.order_by()
        .values(group)
        .annotate(
            nanos=Coalesce(Sum("cost"), Value(0), output_field=IntegerField()),
            calls=Count("pk"),
            unpriced=Count("pk", filter=Q(cost__isnull=True)),
        )
        .order_by(order or group)
    )
    return [CostSum(r[group], int(r["nanos"]), r["calls"], r["unpriced"]) for r in rows]


def by_model(session_id: int | None = None) -> list[CostSum]:
    qs = Call.objects.all() if session_id is None else Call.objects.filter(session_id=session_id)
    return _sums(qs, "model", "-nanos")


def by_run(session_id: int) -> list[CostSum]:
    return _sums(Call.objects.filter(session_id=session_id), "node__run_id")


def by_day(session_id: int | None = None, *, days: int | None = None) -> list[CostSum]:
    """Per calendar day (UTC) of the calls, oldest first; `days`: only the latest that many."""
    qs = Call.objects.all() if session_id is None else Call.objects.filter(session_id=session_id)
    sums = _sums(qs.annotate(day=TruncDate("timestamp")), "day")
    return sums[-days:] if days else sums


def by_project(limit: int = 100) -> list[CostSum]:
    """Per project (the session's working directory), dearest first, from the session totals."""
    rows = (
        Session.objects.order_by()
        .values("project")
        .annotate(
            nanos=Coalesce(Sum("cost"), Value(0), output_field=IntegerField()),
            call_total=Coalesce(Sum("call_count"), Value(0), output_field=IntegerField()),
            unpriced=Coalesce(Sum("unpriced_calls"), Value(0), output_field=IntegerField()),
            sessions=Count("pk"),
        )
        .order_by("-nanos", "project")[:limit]
    )
    return [CostSum(r["project"], int(r["nanos"]), int(r["call_total"]), int(r["unpriced"])) for r in rows]


def total(session: Session) -> CostSum:
    return CostSum(session.pk, session.cost, session.call_count, session.unpriced_calls)


def call_price(node_id: int) -> tuple[int | None, str] | None:
    """The stored price of the call a node is (cost, source); None when the node is no call."""
    row = Call.objects.filter(node_id=node_id).values_list("cost", "price_source").first()
    return (row[0], row[1]) if row else None


def latest_day() -> date | None:
    found = Call.objects.aggregate(last=Max("timestamp"))["last"]
    return found.date() if found else None


# --- per compaction -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CompactionCostRow:
    entry: CompactionEntry
    cost: CompactionCost
    summary_source: str  # where the summary call's price came from, or why there is none


def _summary_price(entry: CompactionEntry) -> tuple[int | None, str]:
    run = entry.fork_run
    if run is None:
        recorded = entry.node.data.get("summary_call") if isinstance(entry.node.data, dict) else None
        if isinstance(recorded, dict):  # a Codex rollout's compaction: its call's token count
            usage = CallUsage(
                *(int(recorded.get(k) or 0) for k in ("input", "output", "cache_read", "cache_write"))
            )
            provider, model = str(recorded.get("provider") or ""), str(recorded.get("model") or "")
            price = price_call(provider, model, usage, entry.node.timestamp)
            return price.nanos, price.source
        return None, "the summary call is not recorded (imported compaction)"
    if not run.model:
        return None, "no model call (a hook or the extractive summarizer wrote the summary)"
    usage = CallUsage(run.input_tokens, run.output_tokens, run.cache_read_tokens, run.cache_write_tokens)
    price = price_call("", run.model, usage, run.started_at)
    return price.nanos, price.source


_USAGE = ("input", "output", "cache_read", "cache_write")


def compaction_costs(session_id: int, limit: int = 50) -> list[CompactionCostRow]:
    """The newest `limit` compactions of the session, oldest first, each with its cost over the
    calls between it and the next compaction (or the end of the session)."""
    entries = list(
        CompactionEntry.objects.filter(session_id=session_id)
        .select_related("node", "fork_run")
        .order_by("-node__seq")[:limit]
    )
    entries.reverse()
    if not entries:
        return []
    later = list(
        CompactionEntry.objects.filter(session_id=session_id, node__seq__gt=entries[-1].node.seq)
        .order_by("node__seq")
        .values_list("node__seq", flat=True)[:1]
    )
    bounds: list[int | None] = [e.node.seq for e in entries]
    bounds.append(later[0] if later else None)
    calls = (
        Call.objects.filter(session_id=session_id, seq__gt=bounds[0])
        .order_by("seq")
        .values_list("seq", "provider", "model", "has_usage", *_USAGE, "timestamp")
    )
    if bounds[-1] is not None:
        calls = calls.filter(seq__lt=bounds[-1])
    following: list[list[FollowingCall]] = [[] for _ in entries]
    i = 0
    for seq, provider, model, has_usage, inp, out, cr, cw, at in calls.iterator(chunk_size=2000):
        while i + 1 < len(entries) and seq > bounds[i + 1]:
            i += 1
        usage = CallUsage(inp, out, cr, cw) if has_usage else None
        following[i].append(FollowingCall(provider, model, usage, at))
    rows = []
    for entry, after in zip(entries, following, strict=True):
        summary, source = _summary_price(entry)
        cost = compaction_cost(summary, entry.tokens_before, entry.tokens_after, after)
        rows.append(CompactionCostRow(entry, cost, source))
    return rows
