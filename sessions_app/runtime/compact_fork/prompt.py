"""The fork's prompt as its `compact_started` event records it, and that prompt read back.

The run and compaction pages show the exact prompt a fork was given. Most of a long prompt is the
summarized span's transcript, and when it was joined from the nodes' stored digests those parts
are on the nodes already (retention/digest.py): the event then records the text around them and
the span's first and last node, not a second copy of megabytes (issue 17). Reading it back joins
the same stored parts, so the text is the one sent.
"""

from __future__ import annotations

from typing import Any, Final

from sessions_app import store
from sessions_app.compaction.prepare import Preparation
from sessions_app.compaction.summary import SummaryRequest
from sessions_app.models import Session

SPAN_KEY: Final = "prompt_span"  # of a compact_started event's payload
PROMPT_FIELDS: Final = ("system", "prompt", "turn_prefix_prompt")


def record(request: SummaryRequest | None, prep: Preparation) -> dict[str, Any]:
    """The payload fields for the history request's prompt: the text, or the text around a span
    joined from stored digests and where that span is."""
    if request is None:
        return {"prompt": ""}
    if request.span is None or not prep.summarize:
        return {"prompt": request.prompt}
    start, end = request.span
    return {
        "prompt": "",
        SPAN_KEY: {
            "first": prep.summarize[0].key,
            "last": prep.summarize[-1].key,
            "before": request.prompt[:start],
            "after": request.prompt[end:],
            "chars": len(request.prompt),
        },
    }


def recorded(payload: dict[str, Any], session_id: int) -> dict[str, Any]:
    """A compact_started payload with its prompt as text (`prompt_note` says when it could not
    be read back whole)."""
    span = payload.get(SPAN_KEY)
    if not isinstance(span, dict):
        return payload
    out = {k: v for k, v in payload.items() if k != SPAN_KEY}
    first, last = span.get("first"), span.get("last")
    joined = (
        store.span_transcript(Session(pk=session_id), first, last)
        if isinstance(first, str) and isinstance(last, str)
        else None
    )
    if joined is None:
        out["prompt"] = ""
        out["prompt_note"] = "The prompt's transcript could not be read back from the session's nodes."
        return out
    text = f"{span.get('before', '')}{joined}{span.get('after', '')}"
    out["prompt"] = text
    if len(text) != span.get("chars"):
        out["prompt_note"] = (
            f"Read back from the nodes, the prompt has {len(text):,} characters; "
            f"{span.get('chars')} were sent."
        )
    return out


def shortened(payload: dict[str, Any]) -> dict[str, Any]:
    """The payload for an events list: each prompt replaced by its length (the page shows it once)."""
    chars = {k: len(v) for k, v in payload.items() if k in PROMPT_FIELDS and isinstance(v, str) and v}
    span = payload.get(SPAN_KEY)
    if isinstance(span, dict) and isinstance(span.get("chars"), int):
        chars["prompt"] = span["chars"]
    return {
        k: f"({chars[k]:,} characters: see Prompt)" if k in chars else v
        for k, v in payload.items()
        if k != SPAN_KEY
    }
