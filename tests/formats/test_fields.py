"""Reading fields both formats share: content blocks with and without issue reporting."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from sessions_app.formats.fields import Issues, content_blocks
from sessions_app.formats.pi.schema import block_from_pi

_VALUE = st.none() | st.booleans() | st.integers() | st.text(max_size=5)
# pi content blocks of every type, with fields missing, of the wrong type or unknown, and
# items that are no object at all.
_BLOCK = st.fixed_dictionaries(
    {"type": st.sampled_from(["text", "toolCall", "thinking", "image", "other"])},
    optional={
        "text": _VALUE,
        "id": _VALUE,
        "name": _VALUE,
        "arguments": st.dictionaries(st.text(max_size=3), _VALUE, max_size=2) | _VALUE,
        "thinking": _VALUE,
        "thinkingSignature": _VALUE,
        "mimeType": _VALUE,
        "data": _VALUE,
        "partialJson": _VALUE,
    },
)
_CONTENT = st.lists(_BLOCK | _VALUE, max_size=5) | _VALUE


@given(_CONTENT)
@settings(max_examples=300, deadline=None)
def test_content_reads_the_same_whether_issues_are_wanted_or_not(content: Any) -> None:
    issues: Issues = []
    reported = content_blocks(content, block_from_pi, issues, "message.content")
    assert content_blocks(content, block_from_pi, None, "message.content") == reported
    # An item that is no object is left out, and reported only when issues are wanted.
    if isinstance(content, list):
        dropped = sum(not isinstance(b, dict) for b in content)
        assert len(reported) == len(content) - dropped
        assert sum("not an object" in i.problem for i in issues) == dropped


def test_a_tool_call_in_pi_s_own_shape_is_renamed_without_extras() -> None:
    call = {"type": "toolCall", "id": "c1", "name": "read", "arguments": {"path": "/a"}}
    renamed = {"type": "tool_call", "id": "c1", "name": "read", "arguments": {"path": "/a"}}
    assert block_from_pi(call) == renamed
    odd = {"type": "toolCall", "id": 7, "name": "read", "arguments": {}}  # four keys, one of the wrong type
    issues: Issues = []
    assert block_from_pi(odd, issues)["id"] is None and issues
    extra = {"type": "toolCall", "id": "c", "name": "n", "partialJson": "{"}  # no arguments: kept aside
    assert block_from_pi(extra) == {
        "type": "tool_call",
        "id": "c",
        "name": "n",
        "arguments": None,
        "extra": {"partialJson": "{"},
    }
