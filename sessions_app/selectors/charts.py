"""What the token charts read of a session's compactions: the entries in write order with, found
in SQL on indexed columns, the calls written before each, the threshold recorded at the last of
them, the summary's length and the stored audit's version and counts (JSON lookups, never the
facts); thinned in SQL to every k-th past a limit (docs/architecture.md, "Reading without the
whole history"). The calls' own reads stay with the chart that groups them
(presenters/charts/calls.py)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from django.db import connection
from django.db.models import F, OuterRef, Q, Subquery, Window
from django.db.models.expressions import RawSQL
from django.db.models.fields.json import KeyTransform
from django.db.models.functions import Length, Mod, RowNumber

from sessions_app.models import CompactionEntry, Node


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
    # Which are drawn, from a narrow statement first: the lookups below then run for those only,
    # not for every compaction of the session (issue 35: most of the charts' time at 1.5M nodes).
    numbered = mine.annotate(generation=Window(RowNumber(), order_by=F("node__seq").asc()))
    if every > 1:  # thinned in SQL: no more rows than are drawn reach Python
        numbered = numbered.annotate(nth=Mod(F("generation") - 1, every)).filter(
            Q(nth=0) | Q(generation=total)
        )
    generations = dict(numbered.values_list("pk", "generation"))
    before = Node.objects.filter(
        session_id=OuterRef("session_id"),
        seq__lt=OuterRef("node__seq"),
        kind="message",
        role="assistant",
    ).order_by("-seq")
    query = (
        CompactionEntry.objects.filter(pk__in=list(generations))
        .select_related("node")
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
            **_audit_counts(),
        )
    )
    entries: list[Any] = list(query)
    for e in entries:
        e.generation = generations[e.pk]
        if connection.vendor == "sqlite":
            found = json.loads(e.audit_counts) if e.audit_counts is not None else [None] * 4
            e.audit_version, e.audit_kept, e.audit_total, e.audit_by_kind = found
    return ChartCompactionRows(entries, total, every)


_AUDIT_KEYS = ("version", "kept", "total", "by_kind")


def _audit_counts() -> dict[str, Any]:
    """The stored audit's version and counts (JSON lookups in SQL, never the facts). SQLite parses
    the audit once for all four (`json_extract` of several paths gives an array), where a lookup
    per key parsed it twice per key."""
    if connection.vendor == "sqlite":
        paths = ", ".join(f"'$.{k}'" for k in _AUDIT_KEYS)  # our own names, not input
        q = connection.ops.quote_name
        column = f"{q(CompactionEntry._meta.db_table)}.{q('audit')}"
        return {"audit_counts": RawSQL(f"json_extract({column}, {paths})", ())}
    return {f"audit_{k}": KeyTransform(k, "audit") for k in _AUDIT_KEYS}
