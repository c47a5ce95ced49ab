"""The summarizer requests for a preparation, and how their answers become the compaction's summary.

The runtime sends each request through a provider (the two of a split turn concurrently), then
calls `assemble_summary` with the texts and `make_payload` to get what the store validates.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from .fileops import format_file_lists
from .prepare import Preparation
from .prompts import (
    DEFAULT_SECTIONS,
    PI_SECTIONS,
    SYSTEM_PROMPT,
    initial_prompt,
    turn_prefix_prompt,
    update_prompt,
    with_focus,
)
from .sections import strip_file_lists
from .serialize import PART_SEPARATOR, serialize_entries, transcript_parts
from .validate import CompactionPayload

MAX_SUMMARY_TOKENS = 16384
# What the prompts ask for: well under the cap, so the summary leaves room for the kept tail
# (docs/compaction.md, rule M8).
TARGET_SUMMARY_TOKENS = 3000
TARGET_PREFIX_TOKENS = 1000
SPLIT_DIVIDER = "\n\n---\n\n**Turn Context (split turn):**\n\n"
NO_PRIOR_HISTORY = "No prior history."  # pi's placeholder (compat="pi" only; docs/pi-compat.md, quirk P6)


@dataclass(frozen=True, slots=True)
class SummaryRequest:
    purpose: Literal["history", "turn_prefix"]
    system: str
    prompt: str  # the single user message
    max_tokens: int
    # Where the span's transcript sits in `prompt` (start, end), when it was joined from the
    # entries' stored digests: the fork then records the prompt by reference (digest.py).
    span: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class SummaryRequests:
    history: SummaryRequest | None
    turn_prefix: SummaryRequest | None

    @property
    def all(self) -> list[SummaryRequest]:
        return [r for r in (self.history, self.turn_prefix) if r is not None]


def history_max_tokens(reserve_tokens: int, *, pi: bool = False) -> int:
    cap = math.floor(0.8 * reserve_tokens)
    return cap if pi else min(cap, MAX_SUMMARY_TOKENS)


def turn_prefix_max_tokens(reserve_tokens: int) -> int:
    return math.floor(0.5 * reserve_tokens)


_OPEN = "<conversation>\n"
_CLOSE = "\n</conversation>\n\n"


def _conversation(text: str) -> str:
    return f"{_OPEN}{text}{_CLOSE}"


def _separated(parts: list[str]) -> list[str]:
    """`parts` with `PART_SEPARATOR` between them: their join, still in pieces."""
    if len(parts) < 2:
        return parts
    out = [PART_SEPARATOR] * (2 * len(parts) - 1)
    out[::2] = parts
    return out


def _uses_prefix(prep: Preparation) -> bool:
    return prep.is_split_turn and bool(prep.turn_prefix_messages)


def build_requests(prep: Preparation, custom_instructions: str | None = None) -> SummaryRequests:
    """The complete summarizer request(s): system prompt, user prompt, max_tokens.

    pi mode asks for a history summary even when nothing is summarized (quirks P3, P5) unless the
    turn is split, where an empty history is replaced by a placeholder (quirk P6; docs/pi-compat.md).
    """
    settings = prep.settings
    pi = settings.is_pi
    sections = PI_SECTIONS if pi else DEFAULT_SECTIONS
    split = _uses_prefix(prep)

    history: SummaryRequest | None = None
    if not (split and not prep.summarize_messages):
        max_tokens = history_max_tokens(settings.reserve_tokens, pi=pi)
        target = min(TARGET_SUMMARY_TOKENS, max_tokens)
        # The prompt is joined once from the span's parts: a long span's transcript is megabytes,
        # and each intermediate string would copy it again.
        if pi:
            parts, stored = [serialize_entries(prep.summarize, pi=True)], False
        else:
            parts, stored = transcript_parts(prep.summarize, prep.digests)
        pieces = [_OPEN, *_separated(parts), _CLOSE]
        length = sum(map(len, pieces)) - len(_OPEN) - len(_CLOSE)
        span = (len(_OPEN), len(_OPEN) + length) if stored and length else None
        if prep.previous_summary:
            # The file lists are appended again after this summary; the model need not copy them.
            previous = prep.previous_summary if pi else strip_file_lists(prep.previous_summary)
            pieces.append(f"<previous-summary>\n{previous}\n</previous-summary>\n\n")
            instructions = update_prompt(sections, target, split_turn=split)
        else:
            instructions = initial_prompt(sections, target)
        pieces.append(with_focus(instructions, custom_instructions))
        history = SummaryRequest("history", SYSTEM_PROMPT, "".join(pieces), max_tokens, span)

    prefix: SummaryRequest | None = None
    if split:
        target = min(TARGET_PREFIX_TOKENS, turn_prefix_max_tokens(settings.reserve_tokens))
        turn = serialize_entries(prep.turn_prefix, pi=pi, digests=prep.digests)
        text = _conversation(turn) + turn_prefix_prompt(target)
        if not pi:
            text = with_focus(text, custom_instructions)
        prefix = SummaryRequest(
            "turn_prefix", SYSTEM_PROMPT, text, turn_prefix_max_tokens(settings.reserve_tokens)
        )
    return SummaryRequests(history, prefix)


def assemble_summary(history_text: str | None, prefix_text: str | None, prep: Preparation) -> str:
    """Join the summarizer's answers and append the file lists (docs/compaction.md, rule M7).

    `history_text` may be None only when no history request was built (split turn without
    history in pi mode); `prefix_text` is required exactly when a turn-prefix request was built.
    """
    split = _uses_prefix(prep)
    if split and prefix_text is None:
        raise ValueError("this preparation splits a turn: the turn-prefix summary is required")
    if history_text is None:
        if not (split and not prep.summarize_messages):
            raise ValueError("the history summary is required for this preparation")
        history_text = NO_PRIOR_HISTORY if prep.settings.is_pi else (prep.previous_summary or "")
    summary = f"{history_text}{SPLIT_DIVIDER}{prefix_text}" if split else history_text
    return summary + format_file_lists(prep.read_files, prep.modified_files)


def make_payload(prep: Preparation, summary: str, *, from_hook: bool = False) -> CompactionPayload:
    return CompactionPayload(
        summary=summary,
        first_kept=prep.first_kept,
        tokens_before=prep.tokens_before,
        details={"read_files": list(prep.read_files), "modified_files": list(prep.modified_files)},
        from_hook=from_hook,
    )
