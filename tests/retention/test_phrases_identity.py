"""The fast readers of phrases.py, tool_outcomes.py and audit.py give exactly what the plain ones
gave (issue 17): lower-cased keyword patterns instead of re.I, substring tests before searches,
one reading per sentence, a 4-character index of a long visible text.

The plain implementations are kept here, and only here, as the references.
"""

from __future__ import annotations

import re
import sys
from typing import Any, Final

from hypothesis import given, settings
from hypothesis import strategies as st

from sessions_app.compaction.messages import TOOL_RESULT, Entry
from sessions_app.retention import paths, phrases, user_values
from sessions_app.retention.audit import _GRAM_AFTER, _GRAM_TEXT, Visible
from sessions_app.retention.tool_outcomes import artifact_refs, exit_code

# --- the references (the code before issue 17) ------------------------------------------------

_CONSTRAINT = re.compile(
    r"\b(?:must(?:n't| not)?|never|always|do not|don't|dont|can't|cannot|should(?:n't| not)?|"
    r"prefer|avoid|make sure|keep (?:it|the|everything|all|this|using|to|them|compat)|"
    r"stick (?:to|with)|only use|no more than|at most|at least|without (?:adding|using|changing|touching|"
    r"asking)|stay(?:s)? (?:on|with|under|within|compatible)|compatible with|not allowed|no new|"
    r"you (?:can|may) (?:now )?(?:push|use|go|add|drop|remove|change|skip)|no longer|is fine to|"
    r"feel free to|it's ok(?:ay)? to|ok to|"
    r"(?:stays?|remains?|leave (?:it|them|this|that)) (?:exactly )?(?:as (?:it is|is|they are)|unchanged|"
    r"the same))\b",
    re.I,
)
# Round two (docs/retention.md): a polite request in question form and an exclaimed "no X!" are rules.
_POLITE = re.compile(
    r"(?:^|: )(?:(?:and|but|so|also),? )?(?:can|could|would) (?:we|you|it|they|the|this|that|our)\b", re.I
)
_EXCLAIMED = re.compile(
    r"(?:^|[,;:]\s*)no (?!one\b|idea\b|problem\b|worries\b|need\b|way\b|longer\b|matter\b|doubt\b)\w.*!\s*$",
    re.I,
)
_QUOTED = re.compile(r"'[^'\s][^']{0,60}'|\"[^\"]{1,60}\"|`[^`]{1,80}`")
_QUESTION = re.compile(r"\?\s*$|^(?:why|what|how|when|where|which|who|is|are|does|do|can|could)\b", re.I)
_REVERSAL = re.compile(
    r"\b(?:you (?:can|may) (?:now )?|no longer|forget (?:about )?|ignore (?:what|my)|scratch that|"
    r"never mind|it's ok(?:ay)? (?:now )?to|ok to|is fine (?:now)?|feel free to|drop the|lift(?:ed)? the|"
    r"not needed any ?more|don't need to .* any ?more|actually(?=,)|after all)\b",
    re.I,
)
_REQUEST = re.compile(
    r"^(?:(?:please|now|next|then|also|and|so|finally|later|afterwards|after that|once [^,]{1,60},|"
    r"when [^,]{1,60},)[ ,]+)*"
    r"(?:add|fix|implement|write|create|update|remove|delete|rename|refactor|make|run|change|move|build|"
    r"set up|setup|deploy|document|test|check|investigate|look|find|replace|split|merge|bump|upgrade|"
    r"install|configure|port|migrate|clean|optimi[sz]e|review|explain|show|generate|extend|support|"
    r"handle|wire|hook up|commit|push|open|prepare|draft|release|tag|publish|benchmark|profile|measure)\b"
    r"|\b(?:can you|could you|would you|can we|could we|i (?:also )?want|i'd (?:also )?like|"
    r"i (?:also )?need|let's|"
    r"we need to|we should|please|"
    r"should (?:also )?(?:be able to|read|support|handle|accept|write|get|have))\b",
    re.I,
)
_DEFERRED = re.compile(
    r"\b(?:later|afterwards|after that|after this|not (?:today|now|yet)|tomorrow|next time|eventually|"
    r"at some point|someday|some day|sometime|this week|next week|when you(?:'re| are) done|"
    r"once (?:that|this|it|the|you|i|we|they)|"
    r"monday|tuesday|wednesday|thursday|friday|over the weekend|"
    r"don't forget|do not forget|remember to|follow[- ]up|todo|for later|next week|before (?:we|you) "
    r"(?:ship|release|merge|finish))\b",
    re.I,
)
_DECISION = re.compile(
    r"\b(?:instead of|rather than|decided|decide to|chose|choose|choosing|going with|go with|opt(?:ed)? "
    r"for|settled on|switch(?:ed|ing)? to|prefer|i'll|i will|we'll|we will|let's|i'm going to|"
    r"i am going to|i'm using)\b",
    re.I,
)
_REASON = re.compile(
    r"(?P<word>\b(?:because|since|so that|so the|so it|so we|to avoid|to keep|in order to|as it|as the|"
    r"as this|given that|due to|which (?:keeps|avoids|means|lets|makes)|that way)\b)"
    r"|(?P<mark>\w: \w|\w — \w|\w -- \w)",
    re.I,
)
_ACTION = re.compile(
    r"\b(?:add|fix|implement|write|create|update|remove|delete|rename|refactor|document|test|bump|upgrade|"
    r"migrate|clean up|release|publish|deploy|benchmark|review|push|commit|tag|draft|prepare)\b",
    re.I,
)
_CHOICE = re.compile(
    r"\b(?:instead of|rather than|decided|chose|choose|going with|go with|opt(?:ed)? for|settled on|"
    r"switch(?:ed|ing)? to|prefer|use|using|with|on|build|parse|store|keep|make|add|write)\b",
    re.I,
)


def old_is_constraint(sentence: str) -> bool:
    if _EXCLAIMED.search(sentence.strip()):
        return True
    return bool(_CONSTRAINT.search(sentence)) and (
        bool(_POLITE.search(sentence.strip())) or not _QUESTION.search(sentence)
    )


# Round 5 (docs/retention.md): an aside of several words does not defer the sentence.
_ASIDE = re.compile(r"\((?:[^()\s]+\s+){3,}[^()]*\)")


def old_is_deferred(sentence: str) -> bool:
    return bool(_DEFERRED.search(_ASIDE.sub(" ", _QUOTED.sub(" ", sentence))))


def old_is_request(sentence: str) -> bool:
    s = sentence.strip()
    return bool(_REQUEST.search(s)) or (old_is_deferred(s) and bool(_ACTION.search(s)))


def old_is_reversal(sentence: str) -> bool:
    return bool(_REVERSAL.search(sentence))


def old_is_decision(sentence: str) -> bool:
    if sentence.rstrip().endswith("?"):
        return False
    decision = _DECISION.search(sentence)
    if decision is None or not _CHOICE.search(sentence):
        return False
    return any(m.group("word") or m.start() > decision.start() for m in _REASON.finditer(sentence))


_VALUE_PATTERNS: Final = (
    re.compile(r"\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+=[^\s,;]+"),
    re.compile(r"\$?\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b"),
    re.compile(r"\b(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1?\]|[\w-]+(?:\.[\w-]+)+):\d{2,5}\b"),
    re.compile(r"\bport\s*(?:number\s*)?(?:is\s*|=\s*|:\s*|to\s*|of\s*)?\d{2,5}\b", re.I),
    re.compile(
        r"\b(?:python|node|django|postgres(?:ql)?|redis|go|rust|java|ruby|php|npm|pip|version|release|"
        r"tag|v)\s*[=:~^><]*\s*v?\d+(?:\.\d+)+\w*",
        re.I,
    ),
    re.compile(r"(?<![\w.])v?\d+\.\d+\.\d+(?:[-+][\w.]+)?(?![\w.])"),
    re.compile(r"(?<![\w./-])[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+(?![\w/-])"),
    re.compile(r"(?<![\w./-])[a-z][a-z0-9]*(?:-[A-Za-z0-9]*[A-Z0-9][A-Za-z0-9]*)+(?![\w/-])"),
    re.compile(r"(?<![\w@/.:-])~?/[\w.-]+(?:/[\w.-]+)+"),
    re.compile(r"\bhttps?://[^\s)>\]\"'`]+"),
    re.compile(
        r"\b(?:branch|table|database|schema|bucket|queue|topic|namespace|service|image|user(?:name)?|"
        r"account|project|package|module|class|function|endpoint|route|prefix|label|named|called|"
        r"title|region|host|domain)\s+(?:(?:is\s+)?(?:called|named)\s+)?[`'\"]?([A-Za-z0-9][\w./:@-]{1,60})[`'\"]?",
        re.I,
    ),
    re.compile(r"`([^`\n]{2,80})`"),
    re.compile(r"(?:^|[\s(=:])\"([^\"\n]{2,60})\""),
)
_NAME_STOP: Final = frozenset({"the", "a", "an", "it", "this", "that", "is", "to", "in", "for", "and", "of"})


def old_user_values(text: str) -> list[str]:
    out: dict[str, None] = {}
    taken: list[tuple[int, int]] = []
    for pattern in _VALUE_PATTERNS:
        for m in pattern.finditer(text):
            group = m.lastindex or 0
            value = (m.group(group) if group else m.group(0)).strip().rstrip(".,;:")
            start, end = (m.start(group), m.end(group)) if group else (m.start(), m.end())
            if len(value) < 2 or value.lower() in _NAME_STOP:
                continue
            if (
                group
                and pattern.pattern.startswith(r"\b(?:branch")
                and not re.search(r"[\d_./:@-]|[a-z][A-Z]", value)
            ):
                continue
            if any(s <= start and end <= e for s, e in taken):
                continue
            taken.append((start, end))
            out.setdefault(value, None)
    return list(out)


def old_text_paths(text: str) -> list[str]:
    out: dict[str, None] = {}
    for m in paths._TEXT_PATH.finditer(text):
        p = m.group(0).rstrip(".")
        if "://" in text[max(0, m.start() - 8) : m.start() + 3] or re.fullmatch(r"[\d./]+", p):
            continue
        if paths.looks_like_path(p) and p.strip("/").count("/") + p.count(".") > 0:
            out.setdefault(p, None)
    return list(out)


_BLOCK_START = re.compile(r"^\s*(?:[-*•>|#]|\d+[.)]\s|```)")
_LINE_END = re.compile(r"[.!?:;]\s*$")


def old_sentences(text: str) -> list[str]:
    lines: list[str] = []
    joinable = False
    fenced = False
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("```"):
            fenced = not fenced
            joinable = False
            continue
        if fenced or phrases._CODE_LINE.match(line):
            joinable = False
            continue
        if not stripped:
            joinable = False
            continue
        if joinable and lines and not _BLOCK_START.match(line):
            lines[-1] += " " + stripped
        else:
            lines.append(stripped)
        joinable = not _LINE_END.search(stripped)
    out = []
    for line in lines:
        for raw in phrases._SENTENCE.split(line):
            s = phrases._BULLET.sub("", raw).strip()
            if len(s) >= 3:
                out.append(s)
    return out


_EXIT = re.compile(
    r"\[exit code (-?\d+)\]|\b(?:exit code|exit status|exited with (?:code|status)|process exited with code)"
    r"\s*:?\s*(-?\d+)",
    re.I,
)
_SAVED_TO = re.compile(
    r"\b(?:full output|output) (?:was )?(?:saved|written|stored) (?:to|in|at):?\s+(\S+)", re.I
)
_ARTIFACT = re.compile(r"\[artifact (\d+): ([^,\]\s]+)")


def old_exit_code_of_text(text: str) -> int | None:
    for m in reversed(list(_EXIT.finditer(text[-2000:]))):
        return int(m.group(1) or m.group(2))
    return None


# --- generated text ---------------------------------------------------------------------------

# Pieces of every kind the readers look for, spelled in several cases, and the three letters that
# re.I pairs with ASCII letters differently from str.lower().
_WORDS: Final = (
    "must never always don't dont can't cannot shouldn't prefer avoid keep stick only without stay stays "
    "compatible allowed you can may now push use go add drop remove change skip longer fine feel free "
    "it's ok okay forget ignore scratch mind lift lifted needed anymore any more actually please next "
    "then also and so finally later afterwards once when fix implement write create update rename run "
    "build deploy test check merge bump port migrate clean optimise optimize review would could i i'd "
    "like want need let's we should be able read tomorrow eventually someday sometime week time todo "
    "follow-up follow up remember before ship release instead rather than decided chose choose choosing "
    "going with opt opted for settled switch switched switching i'll will we'll i'm using because since "
    "that the it to avoid in order as given due which keeps means way why what how is are does do on "
    "parse store make branch table named called user username host domain class function title"
)
_PIECES: Final = [
    *_WORDS.split(),
    "MUST", "Never", "DON'T", "Keep it", "Please", "TODO", "Later", "I'll", "Instead Of", "Because",
    "port 8080", "PORT=5432", "localhost:8000", "127.0.0.1:5432", "[::1]:9000", "api.example.com:443",
    "python 3.11", "Django>=5.2", "v1.2.3", "1.2.3-rc.1", "version 2.0", "DATABASE_URL=postgres://x/y",
    "$HOME_DIR", "API_KEY", "user_events", "feature-X2", "build-2024", "~/src/app.py", "/etc/hosts",
    "./a/b.py", "../c.md", "src/x.ts", "README.md", "https://example.com/a?b=1", "http://x.io/p",
    "branch feature/x", "table user_events", "named Bob", "called `svc-1`", "`make test`", "`x`",
    '"quoted value"', "'single'", "exit code 1", "[exit code 2]", "Exit status: 3", "exited with code 4",
    "EXIT CODE -1", "process exited with code 5", "full output saved to /tmp/x.log",
    "Output was written in out.txt", "[artifact 3: out.txt]", "def foo():", "```", "- ", "* ", "1. ",
    "# ", "> ", "İ", "ı", "ſ", "K", "Kı", "muſt", "İs", "é", "Σ", "ß", "—", " — ", " -- ", ": ",
]  # fmt: skip
_GLUE: Final = ["", " ", " ", " ", ". ", "? ", "! ", "; ", ", ", ":", "\n", "\n\n", "\t", "(", ")", "-", "/"]

texts = st.lists(
    st.tuples(st.sampled_from(_PIECES) | st.text(max_size=4), st.sampled_from(_GLUE)), max_size=30
).map(lambda parts: "".join(a + b for a, b in parts))


@settings(max_examples=600, deadline=None)
@given(texts)
def test_sentence_readers_match_the_references(text: str) -> None:
    said = phrases.sentences(text)
    assert said == old_sentences(text)
    for s in [*said, text, f"  {text}  "]:
        reading = phrases.read(s)
        assert reading.constraint == phrases.is_constraint(s) == old_is_constraint(s)
        assert reading.request == phrases.is_request(s) == old_is_request(s)
        assert reading.deferred == phrases.is_deferred(s) == old_is_deferred(s)
        assert phrases.is_reversal(s) == old_is_reversal(s)
        assert phrases.is_decision(s) == old_is_decision(s)


@settings(max_examples=600, deadline=None)
@given(texts)
def test_values_and_paths_match_the_references(text: str) -> None:
    assert user_values.user_values(text) == old_user_values(text)
    assert paths.text_paths(text) == old_text_paths(text)


def _tool_result(text: str, data: dict[str, Any] | None = None) -> Entry:
    return Entry("r", "a", "message", TOOL_RESULT, [{"type": "text", "text": text}], data or {})


@settings(max_examples=300, deadline=None)
@given(texts, st.integers(0, 2100))
def test_exit_codes_and_saved_outputs_match_the_references(text: str, pad: int) -> None:
    text = "x" * pad + text  # the status is read from the last 2,000 characters only
    assert exit_code(_tool_result(text)) == old_exit_code_of_text(text)
    saved = [m.group(1).rstrip(".,)") for m in _SAVED_TO.finditer(text)]
    # One reference per path: a path an `[artifact N: path]` marker names is referenced by it.
    named = {m.group(2) for m in _ARTIFACT.finditer(text)}
    found = [ref for ref, _ in artifact_refs(_tool_result(text)) if ref.startswith("full output in ")]
    assert found == [f"full output in {p}" for p in dict.fromkeys(saved) if p not in named]


def test_an_exit_status_in_the_fields_wins_without_reading_the_text() -> None:
    assert exit_code(_tool_result("[exit code 2]", {"exit_code": 0})) == 0
    assert exit_code(_tool_result("done", {"details": {"exitCode": 3}})) == 3
    assert exit_code(_tool_result("no status here")) is None


@settings(max_examples=40, deadline=None)
@given(
    st.lists(texts, min_size=1, max_size=8),
    st.lists(texts, min_size=1, max_size=40),
    st.lists(st.text(max_size=3), max_size=40),
)
def test_a_long_visible_text_answers_like_a_substring_search(
    lines: list[str], needles: list[str], short: list[str]
) -> None:
    # Long once normalized: a line's runs of white space shrink to one space (phrases.normalize).
    while sum(len(phrases.normalize(line)) for line in lines) < _GRAM_TEXT:
        lines = [*lines, *lines, "padding line"]
    visible = Visible(lines)
    text = visible.text
    for i in range(_GRAM_AFTER + 1):  # distinct: each needle is searched once
        visible.contains(f"\x00{i}")
    # Pieces of the text itself (found) and generated ones (mostly not), past the point where
    # the 4-character index is built.
    probes = [text[i : i + n] for i in range(0, len(text), max(1, len(text) // 150)) for n in (3, 4, 9)]
    probes += [phrases.normalize(n) for n in needles] * (_GRAM_AFTER // len(needles) + 1)
    # Shorter than a piece: answered from the pieces' starts and the text's last characters.
    probes += [*short, "", text[-1:], text[-2:], text[-3:], text[-3:-1], text[:1], text[:2]]
    probes += [text[i : i + n] for i in range(0, len(text), max(1, len(text) // 50)) for n in (1, 2)]
    assert len(probes) > _GRAM_AFTER
    assert [visible.contains(p) for p in probes] == [p in text for p in probes]
    assert visible._grams is not None  # the pieces answered


@settings(max_examples=25, deadline=None)
@given(st.lists(texts, min_size=1, max_size=8), st.lists(texts, min_size=1, max_size=20))
def test_a_text_told_of_many_facts_collects_its_pieces_at_once(lines: list[str], needles: list[str]) -> None:
    """Told that more facts than the plain searches will be looked for, a long text collects
    its pieces at the first search, and answers as a substring search from the first needle."""
    while sum(len(phrases.normalize(line)) for line in lines) < _GRAM_TEXT:
        lines = [*lines, *lines, "padding line"]
    few = Visible(lines, facts=_GRAM_AFTER)
    few.contains("\x00first")
    assert few._grams is None  # as many facts as plain searches: those come first
    visible = Visible(lines, facts=_GRAM_AFTER + 1)
    text = visible.text
    assert visible.contains("\x00first") is False
    assert visible._grams is not None
    probes = [phrases.normalize(n) for n in needles]
    probes += [text[i : i + n] for i in range(0, len(text), max(1, len(text) // 60)) for n in (2, 4, 9)]
    assert [visible.contains(p) for p in probes] == [p in text for p in probes]


def test_only_three_letters_read_differently_lower_cased_than_with_re_i() -> None:
    """What `phrases.folded` relies on, checked on this Python's Unicode tables: outside İ, ı and
    ſ, lower-casing keeps the length, pairs a character with the ASCII letters re.I pairs it with,
    and keeps every character class the keyword patterns use."""
    unsafe = "\u0130\u0131\u017f"
    chars = "".join(chr(c) for c in range(sys.maxunicode + 1) if not 0xD800 <= c < 0xE000)
    changed = [c for c in chars if len(c.lower()) != 1]
    assert changed == ["\u0130"]
    mismatched: set[str] = set()
    for letter in "abcdefghijklmnopqrstuvwxyz":
        by_re = {m.group() for m in re.finditer(letter, chars, re.I)}
        by_lower = {c for c in chars if c.lower() == letter}
        mismatched |= by_re ^ by_lower
    assert mismatched == set(unsafe)
    safe = "".join(c for c in chars if c not in unsafe)
    low = safe.lower()
    for atom in (r"\w", r"\s", r"\d", r"[^,]", r"[a-z]", r"[A-Za-z0-9]", r"[\w./:@-]", r"[=:~^><]"):
        positions = [m.start() for m in re.finditer(atom, safe, re.I)]
        assert positions == [m.start() for m in re.finditer(atom, low)], atom


def test_each_keyword_pattern_has_its_leads() -> None:
    """The substring pre-tests are on (a pattern of another form gets none and is always searched)."""
    for pattern in (
        phrases._CONSTRAINT,
        phrases._REVERSAL,
        phrases._REQUEST_PHRASE,
        phrases._DEFERRED,
        phrases._DECISION,
        phrases._ACTION,
        phrases._CHOICE,
    ):
        assert pattern.leads, pattern.plain.pattern
        assert all(lead == lead.lower() for lead in pattern.leads)
    assert "stay" in (phrases._CONSTRAINT.leads or ()) and "actually" in (phrases._REVERSAL.leads or ())
    assert phrases._REASON.leads is None and phrases._REQUEST_OPENING.leads is None
