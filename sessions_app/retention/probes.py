"""Probe questions: a model, reading only what the agent sees after a compaction, answers one
question per fact of the span, and each answer is graded against the fact (docs/compaction.md,
"Retention audit", rule R7).

The lexical audit (audit.py) asks whether a fact's words are still visible; a probe asks whether
the fact can still be *used*, which is what an agent continuing from the summary needs. This is
the probe-based evaluation Factory described for its compaction work: a question whose answer
the compacted context must supply, then a grade of the answer.

A question must not give its answer away. Each fact is turned into a fill-in-the-blank: its most
specific piece (a quoted string, a path, a command, a number, an identifier) is blanked out and
the model is asked for it, or for UNKNOWN. Grading is then a comparison, not a second model call.
A fact with no such piece is asked as a yes/no question about the fact, graded from the yes or
no; that leaks the fact, so it counts for less (a "yes" there is only `kept` when the model also
quotes a line of the context that holds the fact's words).

Pure: facts and context in, a prompt out; the model's text in, verdicts out.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

Verdict = Literal["kept", "lost", "unsure"]
VERDICTS: Final[tuple[Verdict, ...]] = ("kept", "lost", "unsure")
PROBE_VERSION: Final = 1
MAX_PROBES: Final = 40  # facts asked about per compaction: one request of bounded size
MAX_CONTEXT_CHARS: Final = 150_000  # about 40,000 tokens of context; the middle is cut beyond it
BLANK: Final = "____"
UNKNOWN: Final = "UNKNOWN"

SYSTEM: Final = (
    "You check what an AI coding agent can still recall after its conversation was compacted. "
    "You are given the agent's context as it is now and numbered questions. Answer each question "
    "from that context alone, never from general knowledge or guesses. Reply with JSON only."
)


class ProbeFormatError(ValueError):
    """The model's reply is not in the format asked for; the message says how."""


@dataclass(frozen=True, slots=True)
class Probe:
    """One question about one fact. `expected` is the blanked piece (None for a yes/no question)."""

    number: int  # from 1, as the prompt numbers it
    kind: str
    fact: str
    question: str
    expected: str | None


@dataclass(frozen=True, slots=True)
class Graded:
    probe: Probe
    answer: str
    verdict: Verdict

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.probe.kind,
            "text": self.probe.fact,
            "question": self.probe.question,
            "expected": self.probe.expected,
            "answer": self.answer,
            "verdict": self.verdict,
        }


# --- questions ---------------------------------------------------------------------------------

# The pieces worth blanking, most specific first. Each pattern's group 1 is the piece.
_PIECES: Final = (
    re.compile(r"`([^`\n]{2,120})`"),  # code spans
    re.compile(r"\"([^\"\n]{2,120})\""),  # double-quoted strings
    re.compile(
        r"(?<![\w/.])((?:[\w.-]+/)+[\w.-]*\w|[\w-]+\.(?:py|js|ts|tsx|go|rs|c|h|cpp|java|rb|md|json|toml|"
        r"yaml|yml|ini|cfg|txt|sh|sql|html|css))(?![\w/])"
    ),  # paths
    re.compile(r"(?<![\w.])([A-Z][A-Z0-9]*_[A-Z0-9_]+)(?![\w])"),  # env-var style names
    re.compile(r"(?<![\w.])(\d+(?:\.\d+)+|\d{2,})(?![\w.])"),  # versions and numbers
    re.compile(r"(?<![\w.])([a-z]+_[a-z0-9_]+|[a-z]+[A-Z]\w+)(?![\w])"),  # snake_case, camelCase
)
_KIND_LEAD: Final = {
    "constraint": "a rule the user set",
    "request": "something the user asked for",
    "error": "an error that came up",
    "decision": "a decision that was made",
    "value": "a value the user gave",
    "command": "a command that was run",
    "path": "a file the session worked with",
}


def blank(fact: str) -> tuple[str, str] | None:
    """(the fact with its most specific piece blanked, that piece), or None when it has none."""
    for pattern in _PIECES:
        m = pattern.search(fact)
        if m is not None:
            piece = m.group(1)
            return fact.replace(piece, BLANK), piece  # every occurrence: the question must not tell
    return None


def probes(facts: Sequence[tuple[str, str]], limit: int = MAX_PROBES) -> list[Probe]:
    """One probe per (kind, text) fact, at most `limit`, numbered from 1."""
    out: list[Probe] = []
    for kind, text in facts[:limit]:
        lead = _KIND_LEAD.get(kind, "something from the session")
        text = " ".join(text.split())
        cloze = blank(text) if kind != "path" else (f"the file {BLANK}", text)
        if cloze is not None:
            masked, piece = cloze
            question = f"This is {lead}: «{masked}». What goes in place of {BLANK}? Give it exactly."
            out.append(Probe(len(out) + 1, kind, text, question, piece))
        else:
            question = f"Does the context tell you this ({lead}): «{text}»? Answer yes or no."
            out.append(Probe(len(out) + 1, kind, text, question, None))
    return out


def prompt(asked: Sequence[Probe], context: str) -> str:
    """The one user message asking every probe about `context`."""
    if len(context) > MAX_CONTEXT_CHARS:
        half = MAX_CONTEXT_CHARS // 2
        context = context[:half] + "\n\n[... the middle of the context is left out ...]\n\n" + context[-half:]
    questions = "\n".join(f"{p.number}. {p.question}" for p in asked)
    return (
        f"<context>\n{context}\n</context>\n\n"
        f"<questions>\n{questions}\n</questions>\n\n"
        "Answer every question from the context above alone. Reply with a JSON array and nothing "
        'else, one object per question in order: {"n": <question number>, "answer": "<answer>", '
        '"quote": "<the line of the context the answer comes from, or an empty string>"}. '
        f'When the context does not say, the answer is "{UNKNOWN}". Yes/no questions are answered '
        '"yes" or "no".'
    )


# --- answers -----------------------------------------------------------------------------------

_FENCE: Final = re.compile(r"^```(?:json)?\s*\n(.*)\n```$", re.S)


def parse(reply: str, asked: Sequence[Probe]) -> dict[int, tuple[str, str]]:
    """{question number: (answer, quote)} from the model's reply. The reply must be one JSON array
    of objects with an integer `n` and a string `answer` (a Markdown code fence around it is
    allowed); anything else raises ProbeFormatError. Questions it does not answer are missing."""
    text = reply.strip()
    fenced = _FENCE.match(text)
    if fenced is not None:
        text = fenced.group(1).strip()
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ProbeFormatError(f"the reply is not JSON ({exc.msg} at character {exc.pos})") from None
    if not isinstance(data, list):
        raise ProbeFormatError(f"the reply is a JSON {type(data).__name__}, not an array")
    numbers = {p.number for p in asked}
    out: dict[int, tuple[str, str]] = {}
    for i, item in enumerate(data):
        if not isinstance(item, dict):
            raise ProbeFormatError(f"item {i} of the reply is not an object")
        n, answer, quote = item.get("n"), item.get("answer"), item.get("quote", "")
        if not isinstance(n, int) or isinstance(n, bool) or n not in numbers:
            raise ProbeFormatError(f"item {i} of the reply names no question asked (n = {n!r})")
        if not isinstance(answer, str):
            raise ProbeFormatError(f"item {i} of the reply has no string answer")
        if n in out:
            raise ProbeFormatError(f"question {n} is answered twice")
        out[n] = (answer, quote if isinstance(quote, str) else "")
    if not out and asked:
        raise ProbeFormatError("the reply answers no question")
    return out


def grade(probe: Probe, answer: str, quote: str, context: str) -> Verdict:
    """kept: the answer is the blanked piece (or a yes backed by a quote from the context that
    holds the fact's words); lost: UNKNOWN, a no, or an answer sharing nothing with the piece;
    unsure: an answer that shares some of it (a paraphrase, or a different value)."""
    said = _norm(answer)
    if said in ("", _norm(UNKNOWN)):
        return "lost"
    if probe.expected is None:
        if said in ("no", "no."):
            return "lost"
        if said not in ("yes", "yes."):
            return "unsure"
        quoted = _norm(quote)
        words = _words(probe.fact)
        if quoted and quoted in _norm(context) and words and len(words & _words(quote)) * 2 >= len(words):
            return "kept"
        return "unsure"
    expected = _norm(probe.expected)
    if expected == said or expected in said:
        return "kept"
    shared = _words(probe.expected) & _words(answer)
    return "unsure" if shared else "lost"


def graded(asked: Sequence[Probe], answers: dict[int, tuple[str, str]], context: str) -> list[Graded]:
    out = []
    for p in asked:
        if p.number in answers:
            answer, quote = answers[p.number]
            out.append(Graded(p, answer, grade(p, answer, quote, context)))
        else:
            out.append(Graded(p, "", "unsure"))  # left unanswered: no verdict either way
    return out


def summary(results: Sequence[Graded], lexical: dict[tuple[str, str], bool], model: str) -> dict[str, Any]:
    """The stored form of a probe check: counts per verdict, how many facts the probe and the
    lexical audit disagree on (a fact graded unsure disagrees with neither), and each fact."""
    counts: dict[str, int] = {v: sum(1 for r in results if r.verdict == v) for v in VERDICTS}
    disagreements = 0
    for r in results:
        word_kept = lexical.get((r.probe.kind, r.probe.fact))
        if word_kept is not None and r.verdict != "unsure" and word_kept != (r.verdict == "kept"):
            disagreements += 1
    return {
        "version": PROBE_VERSION,
        "status": "ok",
        "model": model,
        **counts,
        "total": len(results),
        "disagreements": disagreements,
        "facts": [r.to_dict() for r in results],
    }


def failed(error: str, model: str) -> dict[str, Any]:
    """The stored form of a probe check that could not be done."""
    return {
        "version": PROBE_VERSION,
        "status": "failed",
        "model": model,
        "error": f"probe check failed: {error}",
    }


def _norm(text: str) -> str:
    return " ".join(text.strip().strip("`\"'«»").split()).casefold().rstrip(".")


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"\w+", text.casefold()) if len(w) > 2}
