"""Message content: Codex's content items (input_text, output_text, input_image) as blocks, the
context messages Codex injects as user, developer or system messages, and a session title from the
user's first prompt."""

from __future__ import annotations

from typing import Any, Final

from sessions_app.compaction.messages import Block

from ..fields import Issues, at, content_blocks, note, rest, text
from ..jsonl import describe

TITLE_FROM_PROMPT_CHARS: Final = 100
_CONTEXT_TAGS: Final = (
    ("<environment_context>", "codex.environment_context"),
    ("<user_instructions>", "codex.instructions"),
    ("# AGENTS.md instructions for ", "codex.instructions"),
    ("<user_shell_command>", "codex.user_shell_command"),
    ("<turn_aborted>", "codex.turn_aborted"),
)
INSTRUCTIONS: Final = "codex.instructions"
TURN_ABORTED: Final = "codex.turn_aborted"
USER_REQUEST_MARK: Final = "## My request for Codex:"  # older Codex put instructions before it


def _image(url: Any, where: str, issues: Issues | None) -> Block:
    if isinstance(url, str) and url.startswith("data:") and ";base64," in url[:100]:
        head, data = url.split(",", 1)
        return {"type": "image", "mime_type": head[5:].split(";", 1)[0] or None, "data": data}
    if url is not None and not isinstance(url, str):
        note(issues, f"{where} is {describe(url)}, not a string", "the image is recorded without data")
    return {"type": "image", "mime_type": None, "data": None, "extra": {"image_url": url}}


def _content_item(b: dict[str, Any], issues: Issues | None, where: str) -> Block:
    t = b.get("type")
    if t in ("input_text", "output_text", "text"):  # input or output follows from the role
        out: Block = {"type": "text", "text": text(b.get("text"), at(where, "text"), issues)}
        unnamed = rest(b, frozenset({"type", "text"}))
    elif t == "input_image":
        out = _image(b.get("image_url"), at(where, "image_url"), issues)
        unnamed = rest(b, frozenset({"type", "image_url"}))
    else:
        return b  # refusals and types this reader does not know: kept as they are
    if unnamed:
        out.setdefault("extra", {}).update(unnamed)
    return out


def blocks(content: Any, issues: Issues | None = None, where: str = "payload.content") -> list[Block]:
    return content_blocks(content, _content_item, issues, where)


def text_of(blocks_: list[Block]) -> str:
    return "\n".join(str(b.get("text") or "") for b in blocks_ if b.get("type") == "text")


def context_type(role: str, first_text: str) -> str | None:
    """The custom type of a message Codex injects as context, or None for the user's own words."""
    if role in ("developer", "system"):
        return INSTRUCTIONS
    head = first_text.lstrip()[:64]
    for tag, custom_type in _CONTEXT_TAGS:
        if head.startswith(tag):
            return custom_type
    return None


def prompt_title(words: str) -> str | None:
    """The first line of the user's prompt (after older Codex's instruction preamble), shortened."""
    if USER_REQUEST_MARK in words:
        words = words.split(USER_REQUEST_MARK, 1)[1]
    line = next((ln.strip() for ln in words.splitlines() if ln.strip()), "")
    if not line:
        return None
    if len(line) <= TITLE_FROM_PROMPT_CHARS:
        return line
    cut = line[:TITLE_FROM_PROMPT_CHARS].rsplit(" ", 1)[0] or line[:TITLE_FROM_PROMPT_CHARS]
    return cut.rstrip(" ,.;:") + "…"
