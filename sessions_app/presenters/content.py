"""Readable views of node content blocks: one-line previews for lists, block lists for details.

Everything returned here is plain text; templates escape it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

PREVIEW_CHARS = 110


def _one_line(text: str, limit: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def _blocks(content: Any) -> list[dict[str, Any]]:
    return [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []


def preview(kind: str, role: str | None, content: Any, data: Any, limit: int = PREVIEW_CHARS) -> str:
    """One line that says what a node is about."""
    d = data if isinstance(data, dict) else {}
    if kind == "compaction":
        return _one_line(str(d.get("summary") or "(empty summary)"), limit)
    if kind == "branch_summary":
        return _one_line(str(d.get("summary") or "(branch summary)"), limit)
    if kind == "model_change":
        return f"model → {d.get('provider') or ''}/{d.get('model_id') or ''}".replace("→ /", "→ ")
    if kind == "thinking_level_change":
        return f"thinking level → {d.get('thinking_level')}"
    if kind == "label":
        return f"label {d.get('label')!s} on {d.get('target')!s}"
    if kind == "session_info":
        return f"session name: {d.get('name')}"
    if role == "bash_execution":
        return _one_line(f"$ {d.get('command') or ''}", limit)
    texts: list[str] = []
    calls: list[str] = []
    for block in _blocks(content):
        t = block.get("type")
        if t == "text" and block.get("text"):
            texts.append(str(block["text"]))
        elif t == "tool_call":
            calls.append(str(block.get("name") or "tool"))
        elif t == "image":
            texts.append("[image]")
    text = " ".join(texts)
    if role == "tool_result":
        name = d.get("tool_name") or "tool"
        prefix = f"{name} ✗ " if d.get("is_error") else f"{name} → "
        return _one_line(prefix + (text or "(no output)"), limit)
    if calls:
        call_text = "calls " + ", ".join(calls)
        return _one_line(f"{text} · {call_text}" if text else call_text, limit)
    if not text and kind == "custom":
        return _one_line(str(d.get("custom_type") or "custom entry"), limit)
    return _one_line(text, limit) if text else "(no text)"


@dataclass(frozen=True, slots=True)
class BlockView:
    type: str  # text | thinking | tool_call | image | other
    text: str = ""
    name: str = ""
    call_id: str = ""


def pretty_json(value: Any) -> str:
    try:
        return json.dumps(value, indent=2, ensure_ascii=False, sort_keys=True, default=str)
    except (TypeError, ValueError):
        return repr(value)


def block_views(content: Any) -> list[BlockView]:
    views: list[BlockView] = []
    for block in _blocks(content):
        t = str(block.get("type") or "other")
        if t == "text":
            views.append(BlockView("text", str(block.get("text") or "")))
        elif t == "thinking":
            views.append(BlockView("thinking", str(block.get("thinking") or "")))
        elif t == "tool_call":
            args = block.get("arguments") or {}
            # A patch (Codex's apply_patch: {"patch": text}) reads as the patch, not as a JSON string.
            patch = args.get("patch") if isinstance(args, dict) and len(args) == 1 else None
            views.append(
                BlockView(
                    "tool_call",
                    patch if isinstance(patch, str) else pretty_json(args),
                    str(block.get("name") or ""),
                    str(block.get("id") or ""),
                )
            )
        elif t == "image":
            views.append(BlockView("image", str(block.get("mime_type") or "image")))
        else:
            views.append(BlockView("other", pretty_json(block), t))
    return views
