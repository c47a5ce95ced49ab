"""File tracking's one-pass walk and the path's `span` (issue 35) give what the code they replaced
gave: on random spans of plain and other entries, with and without digests, `add_entries` records
the files the two-comprehension version (copied verbatim below) records; `span` yields what
`islice` yields."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import islice
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sessions_app.compaction.fileops import FILE_TOOLS, FileOps
from sessions_app.compaction.messages import ASSISTANT, MESSAGE, Block, Entry
from sessions_app.compaction.stored_digest import NO_DIGESTS, Digest, Digests
from sessions_app.compaction.tree import span

PROPS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


class Other(Entry):
    """An entry of another type than the plain one (as a lazy entry is): looked at one by one."""

    __slots__ = ()


_PLAIN = frozenset({Entry})


def _yes() -> bool:
    return True


def _no_blocks() -> None:
    return None


def add_entries_before(self: FileOps, entries: Iterable[Entry], digests: Digests = NO_DIGESTS) -> None:
    """`FileOps.add_entries` at b0d795f, verbatim."""
    assistants = [e for e in entries if e.role == ASSISTANT and e.kind == MESSAGE]
    if not digests and set(map(type, assistants)) <= _PLAIN:
        self._add_blocks([b for e in assistants for b in e.content if b.get("type") == "tool_call"])
        return
    calls = [
        b
        for e in assistants
        if type(e) is Entry and not (digests and e.key in digests)
        for b in e.content
        if b.get("type") == "tool_call"
    ]
    others = [e for e in assistants if type(e) is not Entry or (digests and e.key in digests)]
    for e in others:
        d = digests.get(e.key) if digests else None
        if d is not None:
            self.add_calls(d.file_calls)
            continue
        blocks: list[Block] | None = None
        if type(e) is not Entry:
            if not getattr(e, "may_call_file_tools", _yes)():
                continue
            blocks = getattr(e, "raw_tool_calls", _no_blocks)()
        if blocks is None:
            calls.extend(b for b in e.content if b.get("type") == "tool_call")
        else:
            calls.extend(blocks)
    self._add_blocks(calls)


_paths = st.sampled_from(["/a", "/b", "./c.py", "", "/d e"])
_arguments = st.one_of(
    st.fixed_dictionaries({}, optional={"path": _paths, "file_path": _paths, "notebook_path": _paths}),
    st.fixed_dictionaries({"command": st.sampled_from(["cat /a", "sed -i s/x/y/ /b", "ls", "echo hi > /c"])}),
    st.fixed_dictionaries(
        {"patch": st.just("*** Begin Patch\n*** Update File: /p\n@@\n-a\n+b\n*** End Patch")}
    ),
    st.just("not a dict"),
)
_blocks = st.one_of(
    st.fixed_dictionaries(
        {
            "type": st.just("tool_call"),
            "id": st.just("c"),
            "name": st.one_of(st.sampled_from([*FILE_TOOLS, "bash", "grep"]), st.just(7)),
            "arguments": _arguments,
        }
    ),
    st.fixed_dictionaries({"type": st.sampled_from(["text", "thinking"]), "text": st.just("x")}),
)


@st.composite
def spans(draw: st.DrawFn) -> tuple[list[Entry], dict[str, Digest]]:
    entries: list[Entry] = []
    for i in range(draw(st.integers(0, 12))):
        cls = draw(st.sampled_from([Entry, Entry, Other]))
        kind, role = draw(
            st.sampled_from(
                [(MESSAGE, ASSISTANT), (MESSAGE, ASSISTANT), (MESSAGE, "user"), ("custom_message", ASSISTANT)]
            )
        )
        content: list[Block] = draw(st.lists(_blocks, max_size=3))
        entries.append(cls(f"k{i}", None, kind, role, content))
    keys = [e.key for e in entries]
    calls = st.lists(st.tuples(st.sampled_from(["read", "write", "edit"]), _paths), max_size=2)
    chosen = draw(st.lists(st.sampled_from(keys), unique=True)) if keys else []
    digests = {k: Digest("", False, (), tuple(draw(calls))) for k in chosen}
    return entries, digests


@PROPS
@given(spans(), st.booleans())
def test_one_pass_records_what_the_two_comprehensions_recorded(
    case: tuple[list[Entry], dict[str, Digest]], with_digests: bool
) -> None:
    entries, digests = case
    given_digests: Digests = digests if with_digests else NO_DIGESTS
    before, after = FileOps(), FileOps()
    add_entries_before(before, entries, given_digests)
    after.add_entries(iter(entries), given_digests)  # any iterable, read once
    assert (after.read, after.written, after.edited) == (before.read, before.written, before.edited)


@PROPS
@given(st.lists(st.integers(), max_size=20), st.integers(0, 25), st.one_of(st.none(), st.integers(0, 25)))
def test_span_yields_what_islice_yields(values: list[Any], start: int, stop: int | None) -> None:
    assert list(span(values, start, stop)) == list(islice(values, start, stop))
