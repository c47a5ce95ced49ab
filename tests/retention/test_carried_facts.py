"""The carry-over guard's facts (retention/carry_over.py, docs/compaction.md rule R6): the user's
constraints and open requests, found without a finished turn's requests, and exactly those the
full walk of the carried kinds finds."""

from __future__ import annotations

from sessions_app.compaction.messages import Entry
from sessions_app.compaction.vocabulary import FactKind
from sessions_app.retention.carry_over import CARRIED, carried_facts
from sessions_app.retention.fact import Fact
from sessions_app.retention.facts import extract_facts
from tests.compaction.builders import Chain


def full_walk(span: list[Entry], kept: list[Entry]) -> list[Fact]:
    """What the guard looked for before issue 35: every fact of the carried kinds, finished
    requests left out afterwards."""
    facts = extract_facts(span, kept, kinds=CARRIED)
    return [f for f in facts if f.kind != FactKind.REQUEST or f.is_open_request]


def turn(c: Chain, said: str, answer: str = "Done: the change is in.") -> None:
    c.user(said)
    c.assistant(None, calls=((f"r{len(c.entries)}", "read", {"path": "src/app.py"}),))
    c.tool_result(f"r{len(c.entries) - 1}", "def main(): pass")
    c.assistant(answer)


def test_finished_requests_are_not_looked_for_and_the_rest_is_the_full_walks() -> None:
    c = Chain()
    turn(c, "Rename `parse_line` to `read_line` everywhere. Never touch the migrations folder.")
    turn(c, "Now add a test for empty input. Tomorrow, not today: write the upgrade guide.")
    turn(c, "Make the CLI print the version with --version.")
    c.user("Port the exporter to the new `Writer` API.")
    c.assistant("Starting with the writer.", calls=(("w1", "read", {"path": "src/export.py"}),))
    span, kept = c.entries[:-1], c.entries[-1:]  # the turn going on at the cut is split
    found = carried_facts(span, kept)
    assert found == full_walk(span, kept)
    texts = {f.text for f in found}
    assert "Never touch the migrations folder." in texts
    assert any("write the upgrade guide" in t for t in texts)  # deferred: open
    assert any("Writer" in t for t in texts)  # the turn going on at the cut: open
    assert not any("--version" in t for t in texts)  # finished
    assert all(f.is_open_request for f in found if f.kind == FactKind.REQUEST)


def test_a_finished_twin_of_an_open_request_stands_for_it_as_in_the_full_walk() -> None:
    # The same words asked twice: the first turn's request is finished and found first, and one
    # fact per wording leaves the open one out of the full walk. The guard gives the same.
    c = Chain()
    turn(c, "Port the exporter to the new Writer API.")
    c.user("Port the exporter to the new Writer API.")
    c.assistant("Again, then.", calls=(("w1", "read", {"path": "src/export.py"}),))
    span, kept = c.entries[:-1], c.entries[-1:]
    open_only = extract_facts(span, kept, kinds=CARRIED, finished_requests=False)
    assert any(f.kind == FactKind.REQUEST for f in open_only)  # without the twin check: carried
    assert carried_facts(span, kept) == full_walk(span, kept)
    assert not any(f.kind == FactKind.REQUEST for f in carried_facts(span, kept))
