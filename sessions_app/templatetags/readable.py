"""Readable forms of the identifiers and times the dashboard shows everywhere: node keys,
millisecond timestamps and latencies. Display only: nothing stored changes.

Node keys are kept as their source wrote them. Cutpoint's own are 16 hex digits and pi's 8, so
their first characters tell them apart; Claude Code's are uuids, and transcripts whose uuids share
their first groups (`00000000-0000-4000-8000-000000000002`, …) would all read `00000000-0` when
cut from the left. A uuid is therefore shown by its last 8 hex digits (where uuids differ), with
any `#<n>` suffix the importer added (docs: importers/claude.py); the full key stays in links and
in the node panel.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any, Final

from django import template
from django.utils import timezone

register = template.Library()

_UUID: Final = re.compile(
    r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}([0-9a-fA-F]{8})(#\d+)?"
)
KEY_WIDTH: Final = 10


def readable_key(key: Any, width: int = KEY_WIDTH) -> str:
    """A node key short enough for a list and still distinct: a uuid as `…` plus its last 8 hex
    digits (and its `#<n>` suffix), anything else cut to `width` characters."""
    text = str(key or "")
    m = _UUID.fullmatch(text)
    if m is not None:
        return f"…{m.group(1)}{m.group(2) or ''}"
    return text if len(text) <= width else text[:width]


@register.filter
def nodekey(value: Any, width: int = KEY_WIDTH) -> str:
    """`{{ key|nodekey }}`: see `readable_key`."""
    return readable_key(value, width)


@register.filter
def mstime(value: Any, with_date: str = "") -> str:
    """A time to the millisecond in the current time zone: `09:00:03.104`, or with any argument
    (`|mstime:"date"`) `2025-11-03 09:00:03.104`. Not a datetime: "—"."""
    if not isinstance(value, datetime):
        return "—"
    local = timezone.localtime(value) if timezone.is_aware(value) else value
    ms = local.microsecond // 1000
    clock = f"{local:%H:%M:%S}.{ms:03d}"
    return f"{local:%Y-%m-%d} {clock}" if with_date else clock


@register.filter
def millis(value: Any) -> str:
    """A duration in milliseconds, readable: `850 ms`, `12.4 s`, `3 min 05 s`. Not a number: "—"."""
    try:
        ms = float(value)
    except (TypeError, ValueError, OverflowError):
        return "—"
    if ms != ms or ms < 0:  # NaN or negative: nothing sensible to show
        return "—"
    if ms < 1000:
        return f"{ms:.0f} ms"
    s = ms / 1000
    if s < 60:
        return f"{s:.2f} s" if s < 10 else f"{s:.1f} s"
    m, sec = divmod(int(s), 60)
    return f"{m} min {sec:02d} s"
