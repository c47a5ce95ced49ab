"""pi's token estimate and file tracking read from an unconverted pi line (formats/pi/estimate.py,
issue 35) give exactly what the engine computes on the converted entry, on random messages of
every role with blocks of every type and values of the wrong type; where the raw read gives up
(None) the caller converts, so only the non-None answers have to agree."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from sessions_app.compaction.fileops import FileOps
from sessions_app.compaction.tokens import estimate_entry_pi
from sessions_app.formats.pi import reader as pi_reader

from .pi_lines import HEADER_V1, jsonl

_ANY = st.one_of(st.none(), st.integers(-5, 5), st.text(max_size=12), st.booleans())
_TEXT = st.text(max_size=40)  # any code point, astral ones included (UTF-16 lengths differ)
_PATH = st.sampled_from(["/a.py", "src/b.ts", "", "/w/ü.md"])
_TOOL = st.sampled_from(["read", "write", "edit", "bash", "ls", "Read", "apply_patch"])


def _block() -> st.SearchStrategy[Any]:
    return st.one_of(
        st.builds(lambda t: {"type": "text", "text": t}, st.one_of(_TEXT, _ANY)),
        st.builds(lambda t: {"type": "thinking", "thinking": t}, st.one_of(_TEXT, _ANY)),
        st.builds(
            lambda n, p, k: {"type": "toolCall", "id": "c", "name": n, "arguments": {k: p}},
            st.one_of(_TOOL, _ANY),
            st.one_of(_PATH, _ANY),
            st.sampled_from(["path", "file_path", "command"]),
        ),
        st.just({"type": "image", "data": "AAAA", "mimeType": "image/png"}),
        st.builds(lambda t: {"type": t}, st.sampled_from(["tool_call", "audio", "redacted"])),
        _ANY,
    )


_CONTENT = st.one_of(_TEXT, st.lists(_block(), max_size=5), _ANY)
_ROLE = st.sampled_from(["user", "assistant", "toolResult", "custom", "hookMessage", "bashExecution"])


def _line(role: str, content: Any) -> dict[str, Any]:
    message: dict[str, Any] = {"role": role, "content": content}
    if role == "toolResult":
        message.update(toolCallId="c", toolName="read", isError=False)
    return {"type": "message", "timestamp": "2025-01-01T00:00:01Z", "message": message}


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(_ROLE, _CONTENT), min_size=1, max_size=6))
def test_raw_estimate_and_tool_calls_match_the_converted_entry(lines: list[tuple[str, Any]]) -> None:
    text = jsonl(HEADER_V1, *(_line(r, c) for r, c in lines))
    lazy = pi_reader.parse(text).entries
    eager = pi_reader.parse(text, lazy=False).entries
    assert len(lazy) == len(eager)
    answered = 0
    for raw, full in zip(lazy, eager, strict=True):
        tokens = getattr(raw, "raw_pi_tokens", lambda: None)()
        if tokens is not None:
            answered += 1
            assert tokens == estimate_entry_pi(full), (raw.role, full.content)
    fresh = pi_reader.parse(text).entries
    from_raw, from_converted = FileOps(), FileOps()
    from_raw.add_entries(fresh)
    from_converted.add_entries(eager)
    assert from_raw.lists() == from_converted.lists()
    assert from_raw == from_converted
    # The raw reading is really exercised: a plain user string always has an answer.
    if any(r == "user" and isinstance(c, str) for r, c in lines):
        assert answered > 0
