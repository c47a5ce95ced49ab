"""What the token charts read of a session's compactions: the entries in write order with, found
in SQL on indexed columns, the calls written before each, the threshold recorded at the last of
them, the summary's length and the stored audit's version and counts (JSON lookups, never the
facts); thinned in SQL to every k-th past a limit (docs/architecture.md, "Reading without the
whole history"). The calls' own reads stay with the chart that groups them
(presenters/charts/calls.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import F, OuterRef, Q, Subquery, Window
from django.db.models.fields.json import KeyTransform
from django.db.models.functions import Length, Mod, RowNumber

from sessions_app.models import CallGroups, CompactionEntry, Node


@dataclass(frozen=True, slots=True)
class ChartCompactionRows:
    # Each with `calls_before`, `threshold_then`, `summary_chars`, `audit_version`, `audit_kept`,
    # `audit_total`, `audit_by_kind` and `generation` annotated; its node's key, seq, time and
    # estimate; not the summary. (Any: the stubs type a list of annotated rows as the bare model.)
    entries: list[Any]
    total: int  # the session's compactions
    every: int  # every k-th is among `entries` (and the last): 1 for all


def chart_compactions(session_id: int, limit: int) -> ChartCompactionRows:
    """The session's compactions as the charts draw them, at most about `limit` of them."""
    # The session's entries by their own session column (an index lookup): a join filtered on the
    # node's session leads SQLite to walk every node of the session.
    mine = CompactionEntry.objects.filter(session_id=session_id)
    total = mine.count()
    every = -(-total // limit) if total else 1
    before = Node.objects.filter(
        session_id=OuterRef("session_id"),
        seq__lt=OuterRef("node__seq"),
        kind="message",
        role="assistant",
    ).order_by("-seq")
    query = (
        mine.select_related("node")
        .order_by("node__seq")
        .only(
            "id",
            "tokens_before",
            "tokens_after",
            "reason",
            "summarizer",
            "node__key",
            "node__seq",
            "node__timestamp",
            "node__token_estimate",
        )
        .annotate(
            calls_before=Subquery(before.values("call__n")[:1]),
            threshold_then=Subquery(before.values("call__threshold")[:1]),
            summary_chars=Length("summary"),
            audit_version=KeyTransform("version", "audit"),
            audit_kept=KeyTransform("kept", "audit"),
            audit_total=KeyTransform("total", "audit"),
            audit_by_kind=KeyTransform("by_kind", "audit"),
            generation=Window(RowNumber(), order_by=F("node__seq").asc()),
        )
    )
    if every > 1:  # thinned in SQL: no more rows than are drawn reach Python
        query = query.annotate(nth=Mod(F("generation") - 1, every)).filter(Q(nth=0) | Q(generation=total))
    return ChartCompactionRows(list(query), total, every)


def kept_call_groups(session_id: int, per: int) -> str | None:
    """The complete groups of `per` calls the charts kept for the session (store/call_groups.py),
    as text; None when none are kept."""
    return CallGroups.objects.filter(session_id=session_id, per=per).values_list("points", flat=True).first()
