"""What the assistant concluded: the findings, decisions and values of its own words
(docs/retention.md, "Facts by structure").

The place decides, not keywords: the last message of a turn (an assistant message without tool
calls, which hands the turn back to the user) and the answer of a sub-agent carry the outcome of
the work, so each of their sentences that says something is a fact. A message written between
tool calls mostly narrates the next call; from those, only sentences that name something exact
(a number, an identifier, a path) are kept, and sentences that merely announce the next step
("Let me look at …:") are left out. Keyword patterns only rank: a sentence that reads as a
decision with its reason becomes a decision, the others findings.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Final

from sessions_app.compaction.messages import ASSISTANT, MESSAGE, Entry
from sessions_app.compaction.vocabulary import FactKind

from .fact import Fact
from .paths import text_paths
from .phrases import anchor_tokens, block_sentences, clip, is_decision, line_sentences, stems
from .shell import only_reads
from .tool_outcomes import CHANGING_TOOLS, command_of, is_shell_tool, tool_base

FINAL: Final = "turn's answer"  # detail of a fact from a turn's last message
MIDWAY: Final = "between tool calls"
SUBAGENT: Final = "sub-agent's answer"
MIN_WORDS: Final = 3  # content words a sentence of a turn's answer needs to say something
MIDWAY_WORDS: Final = 5  # between tool calls a sentence must say more ("Continuing with x.py from line 9")
_ANNOUNCE = re.compile(
    r"^(?:let me|let's|i'll|i will|i'm going to|now (?:let me|i'll)|next,? (?:i'll|let me)|"
    r"first,? (?:let me|i'll)|okay|ok|great|perfect|good|alright)\b",
    re.I,
)


_HEADING = re.compile(r"#{1,6} ")


def _has_calls(e: Entry) -> bool:
    return any(isinstance(b, dict) and b.get("type") == "tool_call" for b in e.content)


def _acts(call: dict[str, object]) -> bool:
    """The call changes or runs something: an edit or write tool, or a command that does more than
    read."""
    name = str(call.get("name") or "")
    if is_shell_tool(name):
        command = command_of(call.get("arguments"))
        return command is not None and bool(command.strip()) and not only_reads(command)
    return tool_base(name) in CHANGING_TOOLS


def only_looks(e: Entry) -> bool:
    """Every call of the message only reads (a file read, a search, a command that only reads):
    its words are thinking aloud while looking around, not a finding (docs/retention.md, "Round 7")."""
    calls = [b for b in e.content if isinstance(b, dict) and b.get("type") == "tool_call"]
    return bool(calls) and not any(_acts(b) for b in calls)


def _text(e: Entry) -> str:
    parts = [b.get("text") for b in e.content if isinstance(b, dict) and b.get("type") == "text"]
    return "\n".join(p for p in parts if isinstance(p, str))


def exact(sentence: str) -> bool:
    """The sentence names something exact: a number, an identifier, a quoted name or a path."""
    return bool(anchor_tokens(sentence)) or bool(text_paths(sentence)) or bool(re.search(r"\d", sentence))


def says_something(sentence: str) -> bool:
    s = sentence.strip()
    return len(stems(s)) >= MIN_WORDS and not s.endswith(":") and not _ANNOUNCE.match(s)


def sentence_facts(
    text: str, node: str, detail: str, *, all_sentences: bool, paragraphs: bool | None = None
) -> Iterator[Fact]:
    """The facts of one text: the sentences that name something exact (a number, an identifier, a
    path), each with the sentences of its paragraph that follow it and name nothing exact ("Raising
    it fixes the slowness." goes on the sentence that named what "it" is); between tool calls
    (`all_sentences` false) a sentence must also say more. A vague sentence that opens its
    paragraph says nothing a colleague could act on and is left out, unless it is a decision or,
    in an answer, a long sentence (round 8, `FULL_WORDS`)."""
    blocks = all_sentences and paragraphs is not False
    for line in block_sentences(text) if blocks else line_sentences(text):
        if _HEADING.match(line[0]):
            continue  # a heading names a part of the answer; its paragraphs say what it holds
        current: list[str] = []
        decision = False
        for s in line:
            said = says_something(s) and not s.rstrip().endswith("?")
            if blocks and not said and not is_decision(s):
                continue  # within a block (a list's short items, a lead-in) the others go on
            # An answer's paragraph (a turn's or a sub-agent's) is one fact. `exact` is read last:
            # a sentence that opens no paragraph is read once for it below, not twice (issue 35).
            joins = all_sentences if paragraphs is None else paragraphs
            if current and said and len(" ".join(current)) < _JOINED_CHARS and (joins or not exact(s)):
                current.append(s)
                decision = decision or is_decision(s)
                continue
            if current:
                yield _fact(current, node, detail, decision)
                current = []
            decision = is_decision(s)
            # The cheap tests first: `exact` is read only for a sentence they leave in (issue 35).
            if not decision and (
                not said
                or (not all_sentences and len(stems(s)) < MIDWAY_WORDS)
                or not (exact(s) or _full(s, all_sentences))
            ):
                continue
            current = [s]
        if current:
            yield _fact(current, node, detail, decision)


# Round 8: a sentence of a turn's answer with this many content words says something a colleague
# can act on even when it names nothing exact ("the flusher does Snapshot, write, Reset in three
# steps, so every Add between them is wiped"): it opens a fact like an exact one.
FULL_WORDS: Final = 12


def _full(sentence: str, answer: bool) -> bool:
    return answer and len(stems(sentence)) >= FULL_WORDS


_JOINED_CHARS: Final = 400  # a paragraph's sentences joined to one fact up to about this length


def _fact(said: list[str], node: str, detail: str, decision: bool) -> Fact:
    text = " ".join(said)
    kind = FactKind.DECISION if decision else FactKind.FINDING
    return Fact(
        kind, clip(text, _JOINED_CHARS + 200), node, anchor_tokens(text)[:3], stems(text), detail=detail
    )


def assistant_facts(span: Sequence[Entry]) -> Iterator[Fact]:
    """Findings and decisions of the assistant messages of `span`."""
    for e in span:
        if e.kind != MESSAGE or e.role != ASSISTANT:
            continue
        text = _text(e)
        if not text.strip():
            continue
        final = not _has_calls(e)
        looks = not final and only_looks(e)
        if looks and not any(is_decision(s) for line in line_sentences(text) for s in line):
            continue  # a decision needs a sentence that reads as one (issue 35: no other is read)
        found = sentence_facts(text, e.key, FINAL if final else MIDWAY, all_sentences=final)
        if looks:
            # Round 7: between calls that only look, a sentence is a finding only when it is a
            # decision (a choice with its reason); the rest is the assistant thinking aloud.
            found = (f for f in found if f.kind == FactKind.DECISION)
        yield from found


def subagent_facts(text: str, node: str, label: str) -> Iterator[Fact]:
    """What a sub-agent found: every sentence of its answer that names something exact, else its
    first sentences."""
    found = list(sentence_facts(text, node, f"{SUBAGENT} ({label})", all_sentences=True))
    if not found:
        found = list(sentence_facts(text, node, f"{SUBAGENT} ({label})", all_sentences=True))[:2]
    yield from found


_SUFFIX = re.compile(r"(?:ing|ed|es|s)$")
REPORTED_SHARE: Final = 0.5  # of the request's words an answer must repeat to report it


def _roots(text: str) -> set[str]:
    return {_SUFFIX.sub("", w)[:5] for w in stems(text) if w.isalpha()}


def reports(answer: str, request: str) -> bool:
    """`answer` reports `request` done: it names at least half of what the request names exactly
    (its identifiers, numbers, paths) and repeats most of its words ("add a 'Later' section to
    docs/search.md" is reported by "Added a 'Later' section to docs/search.md with …")."""
    anchors = [*anchor_tokens(request), *((p,) for p in text_paths(request))]
    named = sum(1 for group in anchors if any(a in answer for a in group))
    if not named or 2 * named < len(anchors):
        return False  # without names in common two sentences are too easily alike
    wanted = _roots(request)
    return bool(wanted) and len(wanted & _roots(answer)) >= REPORTED_SHARE * len(wanted)
