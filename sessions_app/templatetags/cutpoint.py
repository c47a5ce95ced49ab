"""Template helpers for the dashboard. Nothing here marks model text safe except `markdown`,
which escapes first (see presenters.markdown)."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

from django import template
from django.core.serializers.json import DjangoJSONEncoder
from django.http import QueryDict
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from sessions_app.compaction.vocabulary import LiveKind
from sessions_app.presenters.content import pretty_json
from sessions_app.presenters.markdown import render_markdown
from sessions_app.presenters.numbers import tokens_text
from sessions_app.templatetags.readable import readable_key

register = template.Library()


@register.filter
def tokens(value: Any) -> str:
    """12,345 → "12,345"; large values stay exact (these are debugging numbers)."""
    return tokens_text(value)


@register.filter
def ktokens(value: Any) -> str:
    """Compact form: 950, 12.3k, 1.2M."""
    try:
        n = int(value)
    except (TypeError, ValueError, OverflowError):
        return "—"
    if abs(n) < 1000:
        return str(n)
    if abs(n) < 1_000_000:
        return f"{n / 1000:.1f}k".replace(".0k", "k")
    return f"{n / 1_000_000:.2f}M"


@register.filter
def percent(value: Any, total: Any) -> float:
    try:
        t = float(total)
        return round(min(100.0, max(0.0, 100.0 * float(value) / t)), 2) if t else 0.0
    except (TypeError, ValueError, OverflowError):
        return 0.0


@register.filter
def markdown(value: Any) -> SafeString:
    return render_markdown(str(value or ""))


@register.filter
def jsonpretty(value: Any) -> str:
    return pretty_json(value)


@register.filter
def short(value: Any, n: int = 8) -> str:
    """A node key as lists show it (`readable.readable_key`: uuids by their distinct end)."""
    return readable_key(value, n)


@register.filter
def duration(value: Any) -> str:
    if not isinstance(value, timedelta):
        return "—"
    s = value.total_seconds()
    if s < 1:
        return f"{s * 1000:.0f} ms"
    if s < 60:
        return f"{s:.1f} s"
    m, sec = divmod(int(s), 60)
    if m < 60:
        return f"{m} min {sec:02d} s"
    h, m = divmod(m, 60)
    return f"{h} h {m:02d} min"


@register.simple_tag
def live_kinds() -> str:
    """The live-update kinds the page's script acts on, as JSON for a `data-live-kinds` attribute
    (cutpoint.js reads them from the page; the vocabulary defines them once)."""
    return json.dumps(
        {"fresh_stream": LiveKind.COMPACT_STARTED, "snapshot": LiveKind.SNAPSHOT, "resync": LiveKind.RESYNC}
    )


@register.simple_tag(takes_context=True)
def query(context: dict[str, Any], **changes: Any) -> str:
    """The current query string with some parameters changed (None/"" removes them)."""
    request = context.get("request")
    params = request.GET.copy() if request is not None else QueryDict(mutable=True)
    for k, v in changes.items():
        if v is None or v == "":
            params.pop(k, None)
        else:
            params[k] = str(v)
    encoded = params.urlencode()
    return f"?{encoded}" if encoded else "?"


@register.filter
def figure_script(value: Any, element_id: str) -> SafeString:
    """`json_script`, character for character (tests/web/test_figure_script.py), for the plotly
    figures: Django's escapes `<`, `>` and `&` with `str.translate`, a mapping look-up per
    character, which was the largest single cost of the charts panel's hundreds of kilobytes
    (issue 35); three replaces write the same escapes."""
    text = (
        json.dumps(value, cls=DjangoJSONEncoder)
        .replace("<", "\\u003C")
        .replace(">", "\\u003E")
        .replace("&", "\\u0026")
    )
    return format_html('<script id="{}" type="application/json">{}</script>', element_id, mark_safe(text))
