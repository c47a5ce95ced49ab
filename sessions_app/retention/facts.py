"""The facts of a span of a session: what a summary of that span must not lose.

Facts are read from the structured entries (tool calls and their arguments, tool results with
their error flag and exit status, user and assistant text), never from a rendered transcript, so
a log that merely contains the word "failed" is not an error and a sentence that mentions an
artifact is not an artifact (docs/compaction.md, "Retention audit", rule R2).

`extract_facts(span, after)` returns them in the order they occur; `after` is what follows the span
on the path (the kept tail), used to tell whether an error was fixed later and whether the last
request was still being worked on at the cut. `kinds` limits the work to some kinds of fact: the
carry-over guard needs only the user's constraints and requests, which are read from user messages
alone (docs/compaction.md, "Retention audit").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from itertools import chain, islice
from typing import Any, Final

from sessions_app.compaction.messages import (
    ASSISTANT,
    BASH_EXECUTION,
    COMPACTION,
    MESSAGE,
    TOOL_RESULT,
    USER,
    Entry,
)
from sessions_app.compaction.vocabulary import FactKind

from .digest import Said, digest
from .fact import DONE, OPEN, Fact
from .findings import FINAL, assistant_facts, reports, subagent_facts
from .phrases import (
    anchor_tokens,
    clip,
    is_deferred,
    is_reversal,
    lifts,
    line_sentences,
    message_text,
    normalize,
    path_alternatives,
    sentences,
    stems,
    text_paths,
    user_values,
)
from .shell import command_parts, core, only_reads
from .tool_outcomes import (
    artifact_refs,
    command_of,
    command_spellings,
    exit_code,
    file_args,
    is_denial,
    is_failure,
    is_shell_tool,
    is_subagent_tool,
    measured_lines,
    result_text,
    salient_line,
    tool_base,
)

# --- the walk ---------------------------------------------------------------------------------


@dataclass(slots=True)
class _Call:
    """A tool call and its result, in the order they occur."""

    entry: str
    name: str
    args: dict[str, Any]
    result: Entry | None = None
    said: str = ""  # the text of the assistant message that made the call

    @property
    def command(self) -> str | None:
        return command_of(self.args) if is_shell_tool(self.name) else None

    @property
    def target(self) -> str:
        if self.command:
            return self.command
        paths = file_args(self.args)
        if paths:
            return paths[0]
        first = next((v for v in self.args.values() if isinstance(v, str) and v.strip()), "")
        return clip(first, 120)

    @property
    def label(self) -> str:
        command = self.command
        return f"`{core(command)}`" if command else f"{self.name}({clip(self.target, 100)})"

    @property
    def modifies(self) -> bool:
        return bool(self.command) or tool_base(self.name) in (
            "write",
            "edit",
            "multiedit",
            "apply_patch",
            "str_replace",
        )


_DIGITS = re.compile(r"\d[\d,.]*")


@dataclass(slots=True)
class _Walk:
    kinds: frozenset[FactKind]
    facts: list[Fact] = field(default_factory=list)
    seen: set[tuple[FactKind, str]] = field(default_factory=set)
    shapes: dict[str, Fact] = field(default_factory=dict)  # a finding's text, digits aside -> it

    def wants(self, *kinds: FactKind) -> bool:
        return any(k in self.kinds for k in kinds)

    def add(self, fact: Fact, key: str | None = None) -> None:
        if fact.kind not in self.kinds:
            return
        k = (fact.kind, normalize(key if key is not None else fact.text))
        if k in self.seen:
            return
        self.seen.add(k)
        if fact.kind in (FactKind.FINDING, FactKind.DECISION):
            # A status said again with new numbers ("22 tests pass", later "25 tests pass") is one
            # fact, the latest (docs/retention.md, "Facts by structure").
            shape = _DIGITS.sub("#", k[1])
            if shape != k[1]:
                old = self.shapes.get(shape)
                if old is not None and old in self.facts:
                    self.facts.remove(old)
                self.shapes[shape] = fact
        self.facts.append(fact)


def _calls(entries: Iterable[Entry]) -> list[_Call]:
    """Every tool call in `entries`, with its result (matched by id, else by order), plus users'
    own shell commands (bash executions) as calls of their own."""
    calls: list[_Call] = []
    by_id: dict[str, _Call] = {}
    waiting: list[_Call] = []
    for e in entries:
        if e.kind != MESSAGE:
            continue
        if e.role == ASSISTANT:
            waiting = []
            said: str | None = None
            for b in e.content:
                if isinstance(b, dict) and b.get("type") == "tool_call":
                    args = b.get("arguments")
                    said = message_text(e) if said is None else said
                    call = _Call(
                        e.key, str(b.get("name") or ""), args if isinstance(args, dict) else {}, said=said
                    )
                    calls.append(call)
                    waiting.append(call)
                    if isinstance(b.get("id"), str):
                        by_id[b["id"]] = call
        elif e.role == TOOL_RESULT:
            call_id = e.data.get("tool_call_id")
            found = by_id.pop(call_id, None) if isinstance(call_id, str) else None
            if found is None and waiting:
                found = waiting[0]
            if found is not None and found.result is None:
                found.result = e
                if found in waiting:
                    waiting.remove(found)
        elif e.role == BASH_EXECUTION:
            calls.append(_Call(e.key, "bash", {"command": str(e.data.get("command") or "")}, e))
    return calls


def _same_target(a: _Call, b: _Call) -> bool:
    if a.command and b.command:
        return (
            a.command == b.command
            or a.command.split()[:2] == b.command.split()[:2]
            or core(a.command) in command_parts(b.command)  # `a` ran again inside `x && a`
        )
    return tool_base(a.name) == tool_base(b.name) and a.target == b.target


def _resolution(call: _Call, later: Iterable[_Call]) -> tuple[str | None, tuple[str, ...], str]:
    """The node of the first later success of the same call, what was done in between, and what
    the assistant said while doing it (the first call after the failure, and each change): the
    fix's explanation (docs/retention.md, "Errors and their fixes")."""
    between: list[str] = []
    why: list[str] = []
    first = True
    for other in later:
        if other.result is None:
            continue
        ok = not is_failure(other.result)
        if ok and _same_target(call, other):
            return other.result.key, tuple(dict.fromkeys(between))[:4], clip(" ".join(why), _WHY_CHARS)
        if first or (ok and other.modifies):
            # The narration of a fix is the point here, "Replacing it with map_or(true, …):" too.
            why += [s for s in sentences(other.said) if len(stems(s)) >= _WHY_WORDS and s not in why]
        first = False
        if ok and other.modifies:
            between.append(other.label if other.command else f"changed {clip(other.target, 100)}")
    return None, (), ""


_WHY_CHARS: Final = 300
_WHY_WORDS: Final = 3  # content words of a sentence that explains a fix


ALL_KINDS: Final = frozenset(FactKind)
_CALL_KINDS: Final = (FactKind.DENIED, FactKind.COMMAND, FactKind.ERROR, FactKind.SUBAGENT, FactKind.ARTIFACT)


def extract_facts(
    span: Sequence[Entry], after: Sequence[Entry] = (), *, kinds: frozenset[FactKind] = ALL_KINDS
) -> list[Fact]:
    """The facts of `span`, in order; `after` (the kept tail) only informs errors and requests.
    Only facts of `kinds` are looked for (the same ones, found the same way, as with all kinds)."""
    walk = _Walk(kinds)
    _conversation_facts(walk, span, after)
    if walk.wants(*_CALL_KINDS):
        _all_call_facts(walk, span, after)
    # In span order. Only the nodes that gave a fact are looked up: a long span has few.
    nodes = {f.node for f in walk.facts}
    order = {e.key: i for i, e in enumerate(span) if e.key in nodes}
    walk.facts.sort(key=lambda f: order.get(f.node, len(span)))
    if any(f.kind == FactKind.REQUEST and f.detail == OPEN for f in walk.facts):
        _finished_later(walk, span, after)
    return walk.facts


def _finished_later(walk: _Walk, span: Sequence[Entry], after: Sequence[Entry]) -> None:
    """A request still open when asked (deferred, or the turn going on) is done when a later
    answer of the assistant reports it: an answer's paragraph that names what the request names
    (its exact tokens) and shares most of its words (docs/retention.md, "Next Steps")."""
    where = {e.key: i for i, e in enumerate([*span, *after])}
    answers = [(where.get(f.node, -1), f.text) for f in assistant_facts([*span, *after]) if f.detail == FINAL]
    for i, f in enumerate(walk.facts):
        if f.kind != FactKind.REQUEST or f.detail != OPEN or not is_deferred(f.text):
            continue  # the request of the turn going on at the cut is the work in progress
        at = where.get(f.node, len(where))
        if any(j > at and reports(text, f.text) for j, text in answers):
            walk.facts[i] = replace(f, detail=DONE)


def _all_call_facts(walk: _Walk, span: Sequence[Entry], after: Sequence[Entry]) -> None:
    span_calls = _calls(span)
    later_calls = _calls(after)
    for i, call in enumerate(span_calls):
        # The calls after this one, walked only for a failure (a copy per call would be quadratic).
        _call_facts(walk, call, chain(islice(span_calls, i + 1, None), later_calls))


def _conversation_facts(walk: _Walk, span: Sequence[Entry], after: Sequence[Entry]) -> None:
    # A user message is read through its digest (its sentences that read as constraints or
    # requests, stored when it was written; digest.py), its text only when a kind needs more.
    # An assistant's text is read only when its kinds of fact are wanted.
    assistants = walk.wants(FactKind.DECISION, FactKind.FINDING, FactKind.FILE)
    user_text = walk.wants(FactKind.VALUE, FactKind.FILE)
    user_entries = [e for e in span if e.kind == MESSAGE and e.role == USER]
    digests = {id(e): digest(e) for e in user_entries}
    users = [e for e in user_entries if digests[id(e)].spoke]
    # The last request is open at the cut when its turn goes on after it (a split turn, or the
    # kept tail starts inside it) or when nothing at all was kept.
    first_after = next((e for e in after if e.kind != COMPACTION), None)
    last_open = bool(users) and (
        first_after is None or not (first_after.kind == MESSAGE and first_after.role == USER)
    )
    constraints: dict[str, Fact] = {}  # by normalized text: one per wording, in order
    question = ""  # the assistant's last message when it asked the user something
    for e in span:
        if e.kind != MESSAGE:
            continue
        if e.role == USER:
            d = digests[id(e)]
            if not d.spoke:
                continue
            is_last = last_open and e is users[-1]
            # Else the message holds nothing wanted (a finished turn's request needs its text).
            if d.said or is_last or user_text or walk.wants(FactKind.REQUEST):
                _user_facts(walk, e, d.said, is_last, constraints, user_text, question)
            question = ""
            continue
        if e.role == ASSISTANT and walk.wants(FactKind.REQUEST):
            question = asked_question(e)
        if e.role == ASSISTANT and assistants:
            if walk.wants(FactKind.DECISION, FactKind.FINDING):
                for fact in assistant_facts((e,)):
                    walk.add(fact)
            # A file is a fact when a tool changed it and the assistant said what of it; every
            # file read or changed is listed by the plan's file lists (docs/retention.md, "Files").
            for call in e.content:
                if isinstance(call, dict) and call.get("type") == "tool_call" and _changes(call):
                    for path in file_args(call.get("arguments")):
                        said = _described(path, e, span)
                        if said:
                            fact = Fact(FactKind.FILE, path, e.key, (path_alternatives(path),), detail=said)
                            walk.add(fact)
    for c in constraints.values():
        if c.detail != "reversed":
            walk.add(c)


_CHANGING_TOOLS: Final = frozenset({"write", "edit", "multiedit", "apply_patch", "str_replace", "create"})


def _changes(call: dict[str, Any]) -> bool:
    return tool_base(str(call.get("name") or "")) in _CHANGING_TOOLS


def _described(path: str, at: Entry, span: Sequence[Entry]) -> str:
    """What the assistant said of a changed file: its sentences naming the file, from the message
    that changed it to the end of that turn (the turn's answer usually says what changed)."""
    name = path.rstrip("/").rsplit("/", 1)[-1]
    found: list[str] = []
    started = False
    for e in span:
        if e is at:
            started = True
        if not started or e.kind != MESSAGE:
            continue
        if e.role == USER:
            break
        if e.role == ASSISTANT:
            found += [s for s in sentences(message_text(e)) if name in s and len(stems(s)) >= 3]
    return clip(" ".join(dict.fromkeys(found)), 300)


def asked_question(e: Entry) -> str:
    """The text of an assistant message that ends by asking the user something, else ""."""
    text = message_text(e).strip()
    return text if text.endswith("?") else ""


def in_reply(text: str, question: str) -> str:
    """A short answer ("yeah, do it all") means what the question it answers asked: the two
    together (docs/retention.md, "Facts by structure")."""
    if not question or len(text.strip()) > _REPLY_CHARS:
        return text
    return f"{text.strip()} (in reply to: {clip(question, _QUESTION_CHARS)})"


_REPLY_CHARS: Final = 80
_QUESTION_CHARS: Final = 300


def _user_facts(
    walk: _Walk,
    e: Entry,
    said: Sequence[Said],
    is_last: bool,
    constraints: dict[str, Fact],
    with_text: bool,
    question: str = "",
) -> None:
    """`said`: the message's sentences that read as a constraint or a request (the others add
    no constraint or request); its text is read only for the last request and for `with_text`."""
    key = e.key
    requests: list[str] = []
    lines = line_sentences(message_text(e)) if len(said) > 1 or not is_last else []
    for item in _joined_constraints(said, lines):
        s, reading = item.text, item.reading
        deferred_request = reading.deferred and reading.request
        if reading.constraint and not deferred_request:
            fact = Fact(FactKind.CONSTRAINT, clip(s, _JOINED_CHARS + 100), key, anchor_tokens(s), stems(s))
            if is_reversal(s):
                _reverse(constraints, fact)
            constraints.setdefault(normalize(fact.text), fact)
        elif reading.request and is_reversal(s):
            # A request can lift an earlier rule too ("they are fine with the breaking change after
            # all, so change `parse_line`"), when it names what the rule named.
            _reverse(constraints, Fact(FactKind.REQUEST, s, key, anchor_tokens(s)), named=True)
        if reading.request and (reading.deferred or is_last):
            requests.append(s)
    text = message_text(e) if is_last or with_text else ""
    if is_last and not requests and not any(item.reading.constraint for item in said):
        requests = [in_reply(clip(text, 400), question)]  # the turn's request, whatever its wording
    for r in requests:
        if _CONTINUES.match(r) and not anchor_tokens(r) and not text_paths(r):
            # "We will fix both parsers together later" names nothing and goes on from the
            # sentence before it, which says what; an imperative ("Later: add X") stands alone.
            r = _with_previous(r, lines or line_sentences(message_text(e)))
        walk.add(
            Fact(FactKind.REQUEST, clip(r, _JOINED_CHARS + 300), key, anchor_tokens(r), stems(r), detail=OPEN)
        )
    if not is_last:
        # A finished turn's request: what the user asked, done since (its own fact, so a summary
        # can say it was done; docs/retention.md, "Facts by structure").
        asked = {item.text for item in said}
        done = [
            _with_next(item.text, lines, asked)
            for item in said
            if item.reading.request and not item.reading.deferred
        ]
        if not done and not said:
            done = [in_reply(t, question) for t in _statement(text or message_text(e))]
        for r in done:
            walk.add(
                Fact(FactKind.REQUEST, clip(r, _JOINED_CHARS), key, anchor_tokens(r), stems(r), detail=DONE)
            )
    if walk.wants(FactKind.ERROR) and with_text and _TRACE.search(text):
        # The user pasted a failure (a stack trace, a traceback): its salient line is an error.
        line = salient_line(text)
        if line:
            walk.add(Fact(FactKind.ERROR, line, key, anchor_tokens(line)[:3], stems(line), detail=REPORTED))
    if walk.wants(FactKind.VALUE):
        values = user_values(text)
        given = sentences(text) if values else []
        for value in values:
            walk.add(Fact(FactKind.VALUE, value, key, ((value,),), detail=_context(given, value)))
    if walk.wants(FactKind.FILE):
        for path in text_paths(text):  # a file the user names is one they care about
            walk.add(Fact(FactKind.FILE, path, key, (path_alternatives(path),)))


_JOINED_CHARS: Final = 400  # a user's sentence with the one that explains it, up to about this


def _joined_constraints(said: Sequence[Said], lines: list[list[str]]) -> list[Said]:
    """A rule asked as a question and the statement right after it in its paragraph that reads as
    a constraint too are one constraint: the rule and its reason ("Could the JSON stay as it is?
    The extension parses it and I don't want a new release of it."). Rules stated one after the
    other stay apart."""
    if len(said) < 2 or not lines:
        return list(said)
    place = {s: (i, j) for i, line in enumerate(lines) for j, s in enumerate(line)}
    out: list[Said] = []
    last: tuple[int, int] | None = None  # where the last sentence of out[-1] stands
    for item in said:
        here = place.get(item.text)
        prev = out[-1] if out else None
        if (
            prev is not None
            and here is not None
            and last is not None
            and prev.reading.constraint
            and prev.text.rstrip().endswith("?")
            and item.reading.constraint
            and not item.reading.request
            and not item.text.rstrip().endswith("?")
            and here == (last[0], last[1] + 1)
            and len(prev.text) + len(item.text) < _JOINED_CHARS
        ):
            out[-1] = Said(f"{prev.text} {item.text}", prev.reading)
        else:
            out.append(item)
        last = here
    return out


def _with_next(sentence: str, lines: list[list[str]], said: set[str]) -> str:
    """A request with the sentence that follows it in its paragraph ("Could we weight the title
    more? I'd guess ten to one."), unless that one is a request or constraint of its own."""
    for line in lines:
        if sentence in line:
            i = line.index(sentence)
            after = line[i + 1] if i + 1 < len(line) else ""
            if after and after not in said and len(sentence) + len(after) < _JOINED_CHARS:
                return f"{sentence} {after}"
    return sentence


# A pasted trace: a JavaScript/Java stack frame, a Python traceback's header or frame.
_TRACE = re.compile(
    r"^\s+at \S+ \(?\S+:\d+(?::\d+)?\)?\s*$|^Traceback \(most recent call last\)|"
    r"^\s+File \"[^\"]+\", line \d+",
    re.M,
)
REPORTED: Final = "reported by the user"  # the detail of an error the user pasted


_CONTINUES = re.compile(r"(?:we|i|it|this|that|they|these|those|then|so)\b", re.I)


def _with_previous(sentence: str, lines: list[list[str]]) -> str:
    """A sentence with the one before it in its paragraph, when the two fit _JOINED_CHARS."""
    for line in lines:
        if sentence in line:
            i = line.index(sentence)
            if i > 0 and len(line[i - 1]) + len(sentence) < _JOINED_CHARS:
                return f"{line[i - 1]} {sentence}"
    return sentence


def _statement(text: str) -> list[str]:
    """What a message that reads as neither request nor constraint asked for: its first statement
    that says something ("our themes need explicit tokens for X"), never a question or pasted
    output (a message that long is mostly output)."""
    if len(text) > _ASKED_CHARS:
        return []
    said = [s for s in sentences(text) if len(stems(s)) >= 3 and not s.rstrip().endswith("?")]
    return said[:1]


_ASKED_CHARS: Final = 600


def _context(said: list[str], value: str) -> str:
    for s in said:
        if value in s:
            return clip(s, 200)
    return ""


def _reverse(constraints: dict[str, Fact], reversal: Fact, *, named: bool = False) -> None:
    """Mark the earlier constraints a reversal lifts; with `named`, only those naming one of the
    exact things (identifiers, numbers, paths) the reversal names."""
    names = {a for group in reversal.anchors for a in group}
    for i, old in constraints.items():
        if named and not names & {a for group in old.anchors for a in group}:
            continue
        if old.detail != "reversed" and lifts(reversal.text, old.text):
            constraints[i] = Fact(old.kind, old.text, old.node, old.anchors, old.words, detail="reversed")


def _call_facts(walk: _Walk, call: _Call, later: Iterable[_Call]) -> None:
    result = call.result
    if result is not None and is_denial(result):
        said = result_text(result)
        reason = clip(said.split("Reason:", 1)[1] if "Reason:" in said else said, 200)
        walk.add(
            Fact(
                FactKind.DENIED,
                f"{call.label} was denied: {reason}",
                result.key,
                ((clip(call.target, 80),),),
                stems(call.target) | {"denied"},
            ),
            key=f"{call.name}:{call.target}",
        )
        return
    command = call.command
    failed = False
    if command:
        code = exit_code(result) if result is not None else None
        failed = result is not None and is_failure(result) and not _no_match(command, result)
    if command and (failed or not only_reads(command)):
        # A command that only looked and succeeded is no fact: what it found is in the
        # assistant's words (docs/retention.md, "Commands").
        status = (
            "no result"
            if result is None
            else (f"exit {code}" if code is not None else ("failed" if failed else "ok"))
        )
        _add_command(
            walk,
            Fact(
                FactKind.COMMAND,
                core(command),
                call.entry,
                (command_spellings(core(command)),),
                detail=status,
                exit_code=code,
                failed=failed,
            ),
        )
    if result is None:
        return
    text = result_text(result)
    if is_failure(result) and not _no_match(command, result):
        line = salient_line(text) or "(no output)"
        resolved_by, fix, why = _resolution(call, later)
        walk.add(
            Fact(
                FactKind.ERROR,
                line,
                result.key,
                anchor_tokens(line)[:3],
                stems(line),
                detail=f"from {call.label}" + (f"; {FIXED_BY}{why}" if why else ""),
                resolved_by=resolved_by,
                fix=fix,
            )
        )
    elif command and not only_reads(command):
        # What a run measured (a benchmark's timings, a size) is a value of its own.
        for line in measured_lines(text):
            walk.add(
                Fact(
                    FactKind.VALUE,
                    line,
                    result.key,
                    anchor_tokens(line)[:3],
                    detail=f"{MEASURED}{call.label}",
                )
            )
    elif is_subagent_tool(call.name) and text.strip():
        for found in subagent_facts(text, result.key, call.label):
            walk.add(replace(found, kind=FactKind.SUBAGENT))
    for ref, anchors in artifact_refs(result):
        walk.add(Fact(FactKind.ARTIFACT, f"{ref} ({call.label})", result.key, (anchors,)), key=ref)


_SEARCH = re.compile(r"^(?:cd\s+\S+\s*(?:&&|;)\s*)*(?:grep|rg|egrep|fgrep|ag|ack|git grep)\b")


def _no_match(command: str | None, result: Entry) -> bool:
    """A search that found nothing: grep and its kin exit 1 for "no match", which is an answer,
    not an error (exit 2 and above are errors)."""
    return command is not None and _SEARCH.match(command) is not None and exit_code(result) == 1


FAILED_BEFORE: Final = "failed before"
FIXED_BY: Final = "fixed by: "  # in an error's detail, what the assistant said of its fix
MEASURED: Final = "measured by "  # the detail of a value read from a command's output


def _supersede(walk: _Walk, fact: Fact) -> Fact | None:
    """A command line that passed and runs every part of earlier ones (`a && b` after `a`)
    replaces them, where the first of them stood (a rerun keeps its first place too): their
    latest status is this one's. None when nothing was replaced."""
    parts = set(command_parts(fact.text))
    failed_before = False
    first: int | None = None
    kept: list[Fact] = []
    for old in walk.facts:
        if old.kind == FactKind.COMMAND and set(command_parts(old.text)) <= parts:
            failed_before = failed_before or old.failed or FAILED_BEFORE in old.detail
            if first is None:
                first = len(kept)
                fact = replace(fact, node=old.node)
            continue
        kept.append(old)
    if first is None:
        return None
    detail = f"{fact.detail}; {FAILED_BEFORE}" if failed_before else fact.detail
    kept.insert(first, replace(fact, detail=detail))
    walk.facts[:] = kept
    return kept[first]


def _add_command(walk: _Walk, fact: Fact) -> None:
    """One fact per distinct command; a rerun updates its status (the latest run counts)."""
    if fact.kind not in walk.kinds:
        return
    key = (FactKind.COMMAND, normalize(fact.text))
    if key not in walk.seen:
        walk.seen.add(key)
        if fact.failed or _supersede(walk, fact) is None:
            walk.facts.append(fact)
        return
    for i, old in enumerate(walk.facts):
        if old.kind == FactKind.COMMAND and normalize(old.text) == key[1]:
            # A command that failed and passed later says how its error was fixed: kept in view.
            detail = fact.detail
            if not fact.failed and (old.failed or FAILED_BEFORE in old.detail):
                detail = f"{fact.detail}; {FAILED_BEFORE}"
            walk.facts[i] = Fact(
                old.kind,
                old.text,
                old.node,
                old.anchors,
                detail=detail,
                exit_code=fact.exit_code,
                failed=fact.failed,
            )
            return
