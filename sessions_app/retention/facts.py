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
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import replace
from functools import partial
from itertools import chain, islice
from typing import Final

from sessions_app.compaction.messages import (
    ASSISTANT,
    COMPACTION,
    MESSAGE,
    USER,
    Entry,
)
from sessions_app.compaction.vocabulary import FactKind

from .digest import NO_DIGESTS, Digests, digest
from .fact import DONE, OPEN, Fact
from .findings import FINAL, MIDWAY, assistant_facts, reports, subagent_facts
from .message_facts import ResultParts, stored_parts, stored_results
from .paths import path_alternatives, scratch_path
from .phrases import (
    anchor_tokens,
    clip,
    message_text,
    normalize,
    sentences,
    stems,
    stems_once,
)
from .shell import changes, command_parts, core, housekeeping, one_off, only_reads, run_key
from .tool_outcomes import (
    CHANGING_TOOLS,
    artifact_refs,
    changed_files,
    command_spellings,
    comparison_result,
    exit_code,
    is_denial,
    is_failure,
    is_subagent_tool,
    measured_lines,
    result_text,
    salient_line,
    tool_base,
)
from .tool_values import relied_values
from .user_facts import asked_question, restated, user_facts
from .walk import Call, Walk, calls_of, resolution
from .written_files import gist, written_files

ALL_KINDS: Final = frozenset(FactKind)
_CALL_KINDS: Final = (FactKind.DENIED, FactKind.COMMAND, FactKind.ERROR, FactKind.SUBAGENT, FactKind.ARTIFACT)


@stems_once()  # the walk reads some texts twice, far apart on a long span (phrases.stems_once)
def extract_facts(
    span: Sequence[Entry],
    after: Sequence[Entry] = (),
    *,
    kinds: frozenset[FactKind] = ALL_KINDS,
    digests: Digests = NO_DIGESTS,
    finished_requests: bool = True,
) -> list[Fact]:
    """The facts of `span`, in order; `after` (the kept tail) only informs errors and requests.
    Only facts of `kinds` are looked for (the same ones, found the same way, as with all kinds).
    `digests`: the store's, beside the entries it loaded (digest.py). Without `finished_requests`,
    a finished turn's requests are left out (carry_over.py: the guard's open ones)."""
    # A user's value or file is left out when a request or rule quotes it (`_said_once`): those
    # are looked for too, then, so that the same ones are found as with all kinds.
    # A failed run's command is said by its error (`_said_once`): errors are looked for too.
    wanted = kinds | _CARRIERS if kinds & _CARRIED else kinds
    walk = Walk(wanted | {FactKind.ERROR} if FactKind.COMMAND in kinds else wanted, finished_requests)
    _conversation_facts(walk, span, after, digests)
    # The span's calls are paired with their results once, for their own facts and for the values.
    span_calls: list[Call] | None = None
    if walk.wants(*_CALL_KINDS):
        span_calls = calls_of(span)
        _all_call_facts(walk, span_calls, after, digests)
    if walk.wants(FactKind.VALUE):
        for value in relied_values(span, after, span_calls):
            walk.add(value)
    # In span order. Only the nodes that gave a fact are looked up: a long span has few.
    nodes = {f.node for f in walk.facts}
    order = {e.key: i for i, e in enumerate(span) if e.key in nodes}
    walk.facts.sort(key=lambda f: order.get(f.node, len(span)))
    _said_once(walk)
    _answered(walk, span)
    if any(f.kind == FactKind.REQUEST and f.detail == OPEN for f in walk.facts):
        _finished_later(walk, span, after)
    facts = restated(walk.facts, [*span, *after], walk.known) if walk.wants(FactKind.REQUEST) else walk.facts
    return facts if walk.kinds == kinds else [f for f in facts if f.kind in kinds]


_CARRIED: Final = frozenset({FactKind.VALUE, FactKind.FILE})
_CARRIERS: Final = frozenset({FactKind.REQUEST, FactKind.CONSTRAINT})


def _said_once(walk: Walk) -> None:
    """A value or a file the user named in a sentence that a request or a rule of the same message
    quotes is said by that fact: one statement, one fact (docs/retention.md, "Facts by structure").
    Tools' values and files the assistant described come from other nodes and stay."""
    quoted: dict[str, list[str]] = {}
    errors: dict[str, list[Fact]] = {}
    for f in walk.facts:
        if f.kind in _CARRIERS:
            quoted.setdefault(f.node, []).append(f.text)
        elif f.kind == FactKind.ERROR and f.command:
            errors.setdefault(f.command, []).append(f)
    if quoted or errors:
        walk.facts[:] = [
            f
            for f in walk.facts
            if not (f.kind in _CARRIED and any(f.text in text for text in quoted.get(f.node, ())))
            and not (f.kind == FactKind.COMMAND and _told_by_errors(f, errors.get(f.text, ())))
        ]


def _answered(walk: Walk, span: Sequence[Entry]) -> None:
    """A finding (not a decision) said between tool calls whose every exact name (identifier,
    number, path) the turn's answer names again is said by the answer, which carries the outcome:
    one statement, one fact (docs/retention.md, "Facts by structure"). The turn going on at the cut
    has no answer yet and keeps them all, and so does a finding naming what the answer does not."""
    midway = {f.node for f in walk.facts if f.kind == FactKind.FINDING and f.detail == MIDWAY}
    if not midway:
        return
    answers: dict[str, list[str]] = {}
    for f in walk.facts:
        if f.kind in _SAID and f.detail == FINAL:
            answers.setdefault(f.node, []).append(f.text)
    turn_of: dict[str, int] = {}
    said: dict[int, str] = {}  # what the answers of each turn say
    turn = 0
    for e in span:
        if e.kind == MESSAGE and e.role == USER:
            turn += 1
        elif e.key in midway:
            turn_of[e.key] = turn
        elif e.key in answers:
            said[turn] = said.get(turn, "") + " " + " ".join(answers[e.key])
    walk.facts[:] = [
        f
        for f in walk.facts
        if not (
            f.kind == FactKind.FINDING
            and f.detail == MIDWAY
            and _repeats(said.get(turn_of.get(f.node, -1), ""), f)
        )
    ]


def _repeats(answer: str, finding: Fact) -> bool:
    """The turn's answer names everything exact that the finding named."""
    names = finding.anchors
    return bool(answer) and bool(names) and all(any(a in answer for a in group) for group in names)


_SAID: Final = frozenset({FactKind.FINDING, FactKind.DECISION})


def _told_by_errors(command: Fact, errors: Sequence[Fact]) -> bool:
    """A command that failed in the span is said by its errors (the salient line, the command,
    and once it passes, the fix; the summary's command line is made from them) when they agree
    with its latest status: the last one open while it still fails, all fixed once it passes."""
    if not errors or not (command.failed or FAILED_BEFORE in command.detail):
        return False
    if command.failed:
        # Round 5: its last run failed, so its error (the command, the exit status and the
        # salient line) says it, whether or not a longer line that runs it passed since.
        return True
    return all(e.resolved_by is not None for e in errors)


def _finished_later(walk: Walk, span: Sequence[Entry], after: Sequence[Entry]) -> None:
    """A request still open when asked (deferred, or the turn going on) is done when a later
    answer of the assistant reports it: an answer's paragraph that names what the request names
    (its exact tokens) and shares most of its words (docs/retention.md, "Next Steps")."""
    where = {e.key: i for i, e in enumerate([*span, *after])}
    answers = [(where.get(f.node, -1), f.text) for f in assistant_facts([*span, *after]) if f.detail == FINAL]
    for i, f in enumerate(walk.facts):
        if f.kind != FactKind.REQUEST or f.detail != OPEN or not f.deferred:
            continue  # the request of the turn going on at the cut is the work in progress
        at = where.get(f.node, len(where))
        if any(j > at and reports(text, f.text) for j, text in answers):
            walk.facts[i] = replace(f, detail=DONE)


def _all_call_facts(walk: Walk, span_calls: list[Call], after: Sequence[Entry], stored: Digests) -> None:
    later_calls = calls_of(after)
    checks = _rechecks(span_calls) if walk.wants(FactKind.COMMAND) else set()
    # What the results' own parts say (message_facts.py): whether each failed is known from then
    # on in the walk (once.py), and its denial and references are not read again.
    results = stored_results(span_calls, stored) if stored else {}
    for i, call in enumerate(span_calls):
        # The calls after this one, walked only for a failure (a copy per call would be quadratic).
        later = chain(islice(span_calls, i + 1, None), later_calls)
        _call_facts(walk, call, later, checks, results.get(id(call.result)) if results else None)


def _rechecks(calls: Sequence[Call]) -> set[str]:
    """The commands run again after the project changed since their last run (round 6): a line
    that neither changes nor reads like a build yet is re-run once files have changed is how the
    work is checked (a type checker, a linter), whatever its name. One walk, in order."""
    changed_since: dict[str, bool] = {}  # command core -> the project changed since its last run
    out: set[str] = set()
    for call in calls:
        command = call.command
        if command is None:
            if tool_base(call.name) in CHANGING_TOOLS:
                changed_since = dict.fromkeys(changed_since, True)
            continue
        if changes(command):
            changed_since = dict.fromkeys(changed_since, True)
            continue
        if only_reads(command) or one_off(command) or not housekeeping(command):
            continue
        key = normalize(core(command))
        if changed_since.get(key):
            out.add(key)
        changed_since[key] = False
    return out


def _conversation_facts(walk: Walk, span: Sequence[Entry], after: Sequence[Entry], stored: Digests) -> None:
    # A user message is read through its digest (its sentences that read as constraints or
    # requests, stored when it was written; digest.py), its text only when a kind needs more.
    # An assistant's text is read only when its kinds of fact are wanted.
    assistants = walk.wants(FactKind.DECISION, FactKind.FINDING, FactKind.FILE)
    user_text = walk.wants(FactKind.VALUE, FactKind.FILE)
    user_entries = [e for e in span if e.kind == MESSAGE and e.role == USER]
    digests = {id(e): digest(e, stored) for e in user_entries}
    users = [e for e in user_entries if digests[id(e)].spoke]
    # The last request is open at the cut when its turn goes on after it (a split turn, or the
    # kept tail starts inside it) or when nothing at all was kept.
    first_after = next((e for e in after if e.kind != COMPACTION), None)
    last_open = bool(users) and (
        first_after is None or not (first_after.kind == MESSAGE and first_after.role == USER)
    )
    constraints: dict[str, Fact] = {}  # by normalized text: one per wording, in order
    # The assistant's last message before the user's: asked_question of it is read only for a
    # user message that is read (most of a long span's assistants ask nothing anyone reads).
    asker: Entry | None = None
    finished = walk.finished_requests and walk.wants(FactKind.REQUEST)
    for at, e in enumerate(span):
        if e.kind != MESSAGE:
            continue
        if e.role == USER:
            d = digests[id(e)]
            if not d.spoke:
                continue
            is_last = last_open and e is users[-1]
            # Else the message holds nothing wanted (a finished turn's request needs its text).
            if d.said or is_last or user_text or finished:
                question = _question(asker if walk.wants(FactKind.REQUEST) else None)
                found = stored_parts(d, e)
                if found is not None:
                    walk.known[e.key] = found[0]
                parts = None if is_last or found is None else found[1]
                user_facts(walk, e, d.said, is_last, constraints, user_text, question, parts)
            asker = None
            continue
        if e.role == ASSISTANT:
            asker = e
        if e.role == ASSISTANT and assistants:
            found = stored_parts(stored.get(e.key), e) if stored else None
            if found is not None:
                walk.known[e.key], touches = found[0]
            if walk.wants(FactKind.DECISION, FactKind.FINDING):
                for fact in assistant_facts((e,)) if found is None else (f for _, f in found[1]):
                    walk.add(fact)
            if found is not None and not touches:
                continue  # its tool calls change no file and write none (as stored beside it)
            # A file is a fact when a tool changed it and the assistant said what of it, or a
            # tool wrote it whole and its gist says what it is (its opening doc line or the names
            # it defines; written_files.py). Round 8 undid round 7's "names alone are too little":
            # a file created is labelled as one (docs/retention.md, "Round 8").
            wrote = {path: gist(content) for path, content in written_files(e)}
            changed = changed_files(e)
            # The words the change was made with ("Rewriting the cache as a plain `Map`, with
            # expiry on read:") say what changed and why when nothing names the file.
            narration = _narration(e) if changed else ""
            for path in dict.fromkeys(p for p in [*changed, *wrote] if not scratch_path(p)):
                told = _described(path, at, span) or narration
                said = "; ".join(x for x in (told, wrote.get(path, "")) if x)
                if said:
                    fact = Fact(FactKind.FILE, path, e.key, (path_alternatives(path),), detail=said)
                    walk.add(fact)
    for c in constraints.values():
        if c.detail != "reversed":
            walk.add(c)


def _question(asker: Entry | None) -> Callable[[], str]:
    """What `asker` (the assistant's message before a user's) asked, read only when wanted: most
    of a long span's user messages are no short answer."""
    return str if asker is None else partial(asked_question, asker)


_NARRATION_WORDS: Final = 4  # content words the text of an edit's message needs to say what changed


def _narration(e: Entry) -> str:
    """The text of the assistant message that made a change, when it says something."""
    text = " ".join(sentences(message_text(e)))
    return clip(text, 300) if len(stems(text)) >= _NARRATION_WORDS else ""


def _described(path: str, at: int, span: Sequence[Entry]) -> str:
    """What the assistant said of a changed file: its sentences naming the file, from the message
    that changed it (`span[at]`) to the end of that turn (the turn's answer usually says what
    changed). Walked from `at`, not from the span's start: a span of many edits was quadratic."""
    name = path.rstrip("/").rsplit("/", 1)[-1]
    found: list[str] = []
    for j in range(at, len(span)):
        e = span[j]
        if e.kind != MESSAGE:
            continue
        if e.role == USER:
            break
        if e.role == ASSISTANT:
            found += [s for s in sentences(message_text(e)) if name in s and len(stems(s)) >= 3]
    return clip(" ".join(dict.fromkeys(found)), 300)


def _call_facts(
    walk: Walk,
    call: Call,
    later: Iterable[Call],
    checks: Collection[str] = (),
    known: ResultParts | None = None,
) -> None:
    """`known`: what the result's stored part says of it (message_facts.py), else read from it."""
    result = call.result
    if result is not None and (is_denial(result) if known is None else known.denied):
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
    checked = command is not None and normalize(core(command)) in checks
    if command and (
        failed or not (only_reads(command) or one_off(command) or (housekeeping(command) and not checked))
    ):
        # A command that only looked and succeeded is no fact: what it found is in the
        # assistant's words; nor is one that neither changed anything nor built, ran or tested
        # (docs/retention.md, "Commands", round 5).
        status = (
            "no result"
            if result is None
            else (f"exit {code}" if code is not None else ("failed" if failed else "ok"))
        )
        if code and not failed and result is not None:
            status = f"exit {code}: {_answer(result)}"  # a diff that differs, a search that found none
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
    if is_failure(result) and not _no_match(command, result):
        text = result_text(result)
        line = salient_line(text) or "(no output)"
        resolved_by, fix, why = resolution(call, later)
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
                exit_code=exit_code(result) if command else None,
                command=core(command) if command else "",
            )
        )
    elif command and not only_reads(command):
        # What a run measured (a benchmark's timings, a size) is a value of its own.
        for line in measured_lines(result_text(result)):
            walk.add(
                Fact(
                    FactKind.VALUE,
                    line,
                    result.key,
                    anchor_tokens(line)[:3],
                    detail=f"{MEASURED}{call.label}",
                )
            )
    elif is_subagent_tool(call.name) and (text := result_text(result)).strip():
        for found in subagent_facts(text, result.key, call.label):
            walk.add(replace(found, kind=FactKind.SUBAGENT))
    for ref, anchors in artifact_refs(result) if known is None else known.refs:
        walk.add(Fact(FactKind.ARTIFACT, f"{ref} ({call.label})", result.key, (anchors,)), key=ref)


_SEARCH = re.compile(r"^(?:cd\s+\S+\s*(?:&&|;)\s*)*(?:grep|rg|egrep|fgrep|ag|ack|git grep)\b")


def _no_match(command: str | None, result: Entry) -> bool:
    """A search that found nothing or a compare that found differences: exit 1 is the answer of
    grep and its kin, and of any tool whose output is only a diff or a count (diff, cmp, a
    pipeline ending in `grep -c`), not an error (exit 2 and above are errors; pass 2 of round 6)."""
    if command is None or exit_code(result) != 1:
        return False
    return _SEARCH.match(command) is not None or bool(comparison_result(result_text(result)))


def _answer(result: Entry) -> str:
    """What a non-zero status that is no failure (`_no_match`) answered, for the command's line."""
    return comparison_result(result_text(result)) or "no match"


FAILED_BEFORE: Final = "failed before"
FIXED_BY: Final = "fixed by: "  # in an error's detail, what the assistant said of its fix
MEASURED: Final = "measured by "  # the detail of a value read from a command's output


def _supersede(walk: Walk, fact: Fact) -> Fact | None:
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


def _plain_run(fact: Fact) -> bool:
    return not fact.failed and FAILED_BEFORE not in fact.detail and not changes(fact.text)


def _rerun(walk: Walk, fact: Fact) -> None:
    """A passing run that changed nothing is how its program is run now: earlier passing runs of
    the same program with other subcommands, flags, filters or targets (`forge test`, then
    `forge test --gas-report`; round 7: `dune build`, then `dune test`) are said by it, the
    latest check made with that program (docs/retention.md, "Round 7", pass 2). Runs that
    failed, failed before or changed something stay: they say how an error went or what changed."""
    if not _plain_run(fact):
        return
    programs = _programs(fact.text)
    walk.facts[:] = [
        old
        for old in walk.facts
        if not (old.kind == FactKind.COMMAND and _plain_run(old) and programs & _programs(old.text))
    ]


def _programs(command: str) -> set[str]:
    """The programs a build/run/test line runs (shell.run_key's first word of each part)."""
    return {key[0] for key in run_key(command) if key}


def _add_command(walk: Walk, fact: Fact) -> None:
    """One fact per distinct command; a rerun updates its status (the latest run counts)."""
    if fact.kind not in walk.kinds:
        return
    key = (FactKind.COMMAND, normalize(fact.text))
    if key not in walk.seen:
        walk.seen.add(key)
        if not fact.failed:
            _rerun(walk, fact)
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
