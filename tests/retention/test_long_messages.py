"""A long message keeps every sentence that says something, in the user's words, over as many
request facts as it takes (retention/user_facts.py); a piece of it is not "restated"."""

from __future__ import annotations

from sessions_app.compaction.vocabulary import FactKind
from sessions_app.retention.facts import extract_facts
from sessions_app.retention.user_facts import TAKEN_AS
from tests.compaction.builders import Chain

LONG = (
    "Good morning. I'd like the nightly export in the billing module to be more robust, because "
    "whenever the warehouse API has a bad minute we lose the whole night's run and the finance team "
    "sees yesterday's numbers until the next evening, which happened three times in October. What I "
    "have in mind is retries with exponential backoff for 429 and 5xx, honouring Retry-After when "
    "the API sends it, and a circuit breaker per warehouse so that a warehouse that is really down "
    "is not hammered. Could we keep the public Exporter interface as it is? Two other services "
    "implement it. And is it possible to do this without pulling in a new library such as "
    "failsafe? Our dependency review takes weeks at the moment."
)


def test_every_sentence_of_a_long_paragraph_is_kept_somewhere() -> None:
    c = Chain()
    c.user(LONG)
    c.assistant("Retries, Retry-After and a breaker per warehouse are in `RetryingExporter`.")
    c.user("thanks")
    said = " ".join(
        f.text for f in extract_facts(c.entries) if f.kind in (FactKind.REQUEST, FactKind.CONSTRAINT)
    )
    for words in (
        "exponential backoff for 429 and 5xx",
        "circuit breaker per warehouse",
        "failsafe",
        "weeks",
    ):
        assert words in said, words
    pieces = [f for f in extract_facts(c.entries) if f.kind == FactKind.REQUEST and "weeks" in f.text]
    assert pieces and all(TAKEN_AS not in f.detail for f in pieces)


def test_the_turn_going_on_keeps_its_request_beside_a_rule() -> None:
    c = Chain()
    c.user("split core.py")
    c.assistant("Done: core.py only re-exports.")
    c.user(
        "cli.py still imports from core? point it at the new modules. and the report output must "
        "stay byte-identical, the accountant diffs the monthly files"
    )
    c.assistant(None, calls=(("r", "read", {"path": "cli.py"}),))
    c.tool_result("r", "from tallyho.core import load_rules")
    facts = extract_facts(c.entries[:-2], c.entries[-2:])  # the turn goes on at the cut
    opened = [f.text for f in facts if f.kind == FactKind.REQUEST and f.is_open_request]
    assert any("point it at the new modules" in t for t in opened)
    assert any("byte-identical" in f.text for f in facts if f.kind == FactKind.CONSTRAINT)
