"""The extractive summarizer: a summary built from the span's facts, with no model.

Used when no model is configured, when a session chooses `compaction.strategy = "extractive"`,
and as the recorded fallback when the model call fails after its retries (docs/compaction.md,
"Summarizers"). It is a pure function of the plan: every line comes from a fact of the right kind
(facts.py) or from the previous summary, merged section by section, the turn-context block
included; nothing is guessed from keywords in rendered text.

The result is bounded: when it would exceed its token budget, the least useful items go first
(successful commands, files only mentioned, finished work), never constraints or open requests.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from sessions_app.compaction import sections as S
from sessions_app.compaction.fileops import format_file_lists
from sessions_app.compaction.messages import ASSISTANT, MESSAGE, USER, Entry
from sessions_app.compaction.prepare import Preparation
from sessions_app.compaction.prompts import DEFAULT_SECTIONS, PI_SECTIONS, TURN_PREFIX_SECTIONS
from sessions_app.compaction.summary import (
    assemble_summary,
    history_max_tokens,
    make_payload,
    turn_prefix_max_tokens,
)
from sessions_app.compaction.tokens import count_text
from sessions_app.compaction.validate import CompactionPayload
from sessions_app.compaction.vocabulary import FactKind

from .fact import Fact
from .facts import FAILED_BEFORE, FIXED_BY, MEASURED
from .facts import extract_facts as _extract
from .findings import FINAL, reports
from .phrases import (
    anchor_tokens,
    clip,
    is_constraint,
    is_reversal,
    lifts,
    message_text,
    normalize,
    sentences,
    stems,
)
from .shell import core, only_reads
from .summary_items import ASKED, COMMAND, COMMANDS, CONTEXT, KEEP, LOOKUP, MENTION, SEEN, WORK, Items
from .tool_outcomes import command_of, is_shell_tool
from .tool_values import RELIED
from .user_facts import REPORTED, asked_question, in_reply

SUMMARY_TOKENS: Final = 3800  # the whole summary at most (issue 30: 4,000), prefix and file lists in
MIN_HISTORY_TOKENS: Final = 1500  # however long the file lists are
PREFIX_TARGET_TOKENS: Final = 600
_USER_CHARS: Final = 500  # a finished turn's request in the user's words (user_facts._SAID_CHARS)
_FINDING_CHARS: Final = 500  # a finding is a paragraph of the assistant's answer (findings.py)
_SUBAGENT_CHARS: Final = 700  # a sub-agent's paragraph in full (findings.py clips it at 600)
_REQUEST_CHARS: Final = 600  # the request of a split turn, in full as far as it goes


MAX_COMMANDS: Final = 10
# How to build, run or test a project: worth keeping even when it passed.
_HOW_TO = re.compile(
    r"\b(?:test|tests|pytest|unittest|tox|nox|jest|vitest|mocha|cargo|go (?:test|build|run|vet)|make|cmake|"
    r"ctest|npm (?:test|run)|pnpm|yarn|tsc|mypy|ruff|flake8|pylint|eslint|clippy|build|gradle|mvn|"
    r"dotnet|bazel|just|uv run|poetry run|python -m|bench)\b"
)
_SLASH = re.compile(r"^\s*/\S+\s*$")
PREFIX_COMMANDS: Final = 3  # of the MAX_COMMANDS, at most this many in a split turn's prefix
# A tool's raw lines, below the conclusions drawn from them, in this span and a merged one alike.
_MEASURED: Final = "Measured: "
_PRINTED: Final = "Tool printed: "


def _users(entries: Sequence[Entry]) -> list[Entry]:
    return [e for e in entries if e.kind == MESSAGE and e.role == USER and message_text(e).strip()]


def _of(facts: Sequence[Fact], kind: FactKind) -> list[Fact]:
    return [f for f in facts if f.kind == kind]


def _overlaps(a: str, b: str, share: float = 0.6) -> bool:
    wa, wb = stems(a), stems(b)
    return bool(wa) and len(wa & wb) >= share * len(wa)


def _named(text: str) -> bool:
    """The text names something exact (an identifier, a number, a path): trimmed after vaguer text."""
    return bool(anchor_tokens(text)) or any(ch.isdigit() for ch in text) or "/" in text


def _error_line(f: Fact) -> str:
    """An error's salient line and, once fixed, its fix: what the assistant said of it, else the
    files changed in between. The command it came from is not repeated (the command lines list
    it with its latest status, and they are capped at MAX_COMMANDS: docs/retention.md)."""
    source, _, why = f.detail.partition(f"; {FIXED_BY}")
    shown = "" if "`" in source else f" ({source})"
    if f.resolved_by is not None:
        changed = [x for x in f.fix if not x.startswith("`")][:3]
        if why:
            fix = f" (fix: {clip(why, 200)})"
        elif changed:
            fix = f" (fixed by: {', '.join(clip(x, 80) for x in changed)})"
        else:
            fix = " (fixed later)"
        return f"Fixed: {f.text}{shown}{fix}"
    return f"{f.text}{shown}"


def _command_line(f: Fact) -> str:
    # A non-zero status that is an answer (a diff that differs) reads as one, not as a failure.
    answered = f.exit_code and not f.failed
    status = f"exit {f.exit_code}" if f.exit_code is not None and not answered else f.detail.split(";")[0]
    before = f"; {FAILED_BEFORE}" if FAILED_BEFORE in f.detail else ""
    return f"Ran `{f.text}` ({status}{before})"


def _run_of(error: Fact) -> Fact:
    """The run an error of a shell command came from, as a command fact: failing while the error
    is open, passing after failing once it is fixed."""
    if error.resolved_by is None:
        status = f"exit {error.exit_code}" if error.exit_code is not None else "failed"
        return Fact(
            FactKind.COMMAND, error.command, error.node, exit_code=error.exit_code, failed=True, detail=status
        )
    return Fact(FactKind.COMMAND, error.command, error.node, detail=f"ok; {FAILED_BEFORE}")


def _latest_run(items: Items, commands: str, f: Fact) -> str:
    """The command line of `f`, which replaces the previous summary's line for the same command:
    the latest status counts, and one that failed before and passes now says so (as a rerun in
    one span does; docs/retention.md, "Commands")."""
    line = _command_line(f)
    lead = f"Ran `{f.text}` ("
    earlier = [old for old in items.get(commands) if old.startswith(lead)]
    if not f.failed and FAILED_BEFORE not in line and any(_FAILING.search(o) for o in earlier):
        line = f"{line[:-1]}; {FAILED_BEFORE})"
    if any(old != line for old in earlier):
        items.remove(commands, lambda old: old == line or not old.startswith(lead))
    return line


_FAILING = re.compile(r"\((?:exit [1-9]\d*|exit -\d+|failed|no result)\)$")


def _command_rank(line: str) -> int:
    """Which command lines a summary keeps first (docs/retention.md, "Commands"): what still
    fails, then what failed and passed later (how an error was fixed), then how to build, run or
    test the project, then other changes."""
    if _FAILING.search(line):
        return 0
    if FAILED_BEFORE in line:
        return 1
    return 2 if _HOW_TO.search(line.removeprefix("Ran `").split("`")[0]) else 3


def _quoting(items: Items) -> int:
    """Items outside the command lines that quote one of those commands (a user's sentence
    naming a command, a finding): they count against MAX_COMMANDS as well."""
    if not items.commands:
        return 0
    return items.quoting()


def _chosen_commands(lines: list[str], n: int) -> list[str]:
    """The `n` command lines to show, by rank and then the latest first, in their order."""
    ranked = sorted(range(len(lines)), key=lambda i: (_command_rank(lines[i]), -i))[:n]
    return [lines[i] for i in sorted(ranked)]


def _fact_items(
    items: Items,
    facts: list[Fact],
    *,
    tools: str,
    files: str,
    critical: str,
    done: str,
    blocked: str,
    state: str,
    commands: str,
) -> None:
    """File the facts of one span under the sections they belong to."""
    values: dict[str, list[str]] = {}
    for f in facts:
        kind = f.kind
        if kind == FactKind.CONSTRAINT:
            items.add(S.CONSTRAINTS, f.text, KEEP, _FINDING_CHARS)  # a rule with its reason
        elif kind == FactKind.DECISION:
            items.add(S.DECISIONS, f.text, CONTEXT)
        elif kind == FactKind.FINDING:
            # A turn's answer says where the work stands; a sentence between tool calls is a
            # finding on the way, trimmed before it (docs/retention.md, "Summaries").
            rank = WORK if f.detail == FINAL and _named(f.text) else MENTION
            items.add(state, f.text, rank, _FINDING_CHARS)
        elif kind == FactKind.ERROR and f.detail == REPORTED:
            items.add(critical, f"User reported: {f.text}", CONTEXT)
        elif kind == FactKind.ERROR:
            items.add(done if f.resolved_by is not None else blocked, _error_line(f), CONTEXT)
            if f.command:
                # The failed run's command line, made from its error (facts.py, `_said_once`).
                items.ran(f.command)
                line = _latest_run(items, commands, _run_of(f))
                items.add(commands, line, CONTEXT)
        elif kind == FactKind.COMMAND:
            items.ran(f.text)
            # Commands only when they failed, changed something or build/run/test the project.
            if f.failed or not only_reads(f.text):
                line = _latest_run(items, commands, f)
                items.add(commands, line, CONTEXT if f.failed or _HOW_TO.search(f.text) else COMMAND)
        elif kind == FactKind.VALUE and f.detail.startswith(MEASURED):
            # A run's measurement; its command is in the command lines (not quoted again).
            items.add(critical, f"{_MEASURED}{f.text}", SEEN)
        elif kind == FactKind.VALUE and f.detail.startswith(RELIED):
            # A tool's value the assistant relied on: below what the user gave (tool_values.py).
            items.add(critical, f"{_PRINTED}{f.text}", SEEN)
        elif kind == FactKind.VALUE:
            values.setdefault(f.detail, []).append(f.text)
        elif kind == FactKind.DENIED:
            items.add(tools, f"Denied: {f.text}", CONTEXT)
        elif kind == FactKind.SUBAGENT:
            items.add(
                tools, f"Sub-agent {f.detail.removeprefix('from ')}: {f.text}", CONTEXT, _SUBAGENT_CHARS
            )
        elif kind == FactKind.ARTIFACT:
            items.add(files, f"Stored output: {f.text}", CONTEXT)
    # A value is given in the user's own sentence, which holds it verbatim; one item per sentence.
    for context, given in values.items():
        shown = ", ".join(f"`{v}`" for v in given if v not in context)
        line = f"User gave: {clip(context, 200)}" if context else ""
        if shown:
            line = f"{line} ({shown})" if line else f"User gave: {shown}"
        # Values outside the user's prose (pasted output, code) go before the ones they wrote.
        items.add(critical, line, CONTEXT if context and not _pasted(context) else MENTION)


_STACK_FRAME = re.compile(r"\bat \S+ \(\S+:\d+(?::\d+)?\)|[─│┌┐└┘━]{3}|^\s*\S+:\d+\s")


def _pasted(sentence: str) -> bool:
    """A sentence that is pasted output, not prose: stack frames, box drawing, a file:line dump."""
    return _STACK_FRAME.search(sentence) is not None


_CARRIED_CONSTRAINT = "User constraint: "


def _previous_priority(kind: str, item: str) -> int:
    """How an item of the previous summary ranks for trimming, from the way U2 wrote it."""
    if kind in (S.GOAL, S.CONSTRAINTS, S.NEXT):
        return KEEP
    if kind == S.STATE:
        return WORK if _named(item) else MENTION
    if item.startswith("User asked: "):
        return ASKED
    if item.startswith((_MEASURED, _PRINTED)):
        return SEEN
    if item.startswith(("Mentioned: ", "(earlier turn) ", "File: ")):
        return MENTION
    if item.startswith("Ran `") and item.endswith(("(exit 0)", "(ok)")):
        return LOOKUP if only_reads(item.removeprefix("Ran `")) else COMMAND
    if kind in (S.DONE, S.CRITICAL) and not item.startswith(
        ("Fixed: ", "Resolved later: ", "User gave: ", "Ran `")
    ):
        return WORK
    return CONTEXT


def _merge_previous(items: Items, previous: S.ParsedSummary, has_new_turns: bool) -> None:
    """Every section of the previous summary, the turn-context block and loose text included."""
    for kind in (
        S.GOAL,
        S.CONSTRAINTS,
        S.NEXT,
        S.DONE,
        S.BLOCKED,
        S.STATE,
        S.DECISIONS,
        S.CRITICAL,
        S.FILES,
        S.TOOLS,
    ):
        for item in previous.items(kind):
            if item.startswith("Ran `"):
                items.ran(item.removeprefix("Ran `").rsplit("` (", 1)[0])
                # A command line of the previous summary: kept only as it would be now.
                if not only_reads(item.removeprefix("Ran `")):
                    items.add(COMMANDS, item, _previous_priority(kind, item))
                continue
            items.add(kind, item, _previous_priority(kind, item), _SUBAGENT_CHARS)  # as written
    # The split turn of the previous compaction is history now: its request is done once a newer
    # request exists, otherwise still the work in progress; its constraints join the others.
    turn_target = S.DONE if has_new_turns else S.IN_PROGRESS
    items.extend(
        turn_target, [f"(earlier turn) {clip(r, 200)}" for r in previous.items(S.ORIGINAL_REQUEST)], MENTION
    )
    for item in previous.items(S.EARLY_PROGRESS):
        items.add(S.DONE, item, _previous_priority(S.DONE, item))
    for item in previous.items(S.SUFFIX_CONTEXT):
        if item.startswith(_CARRIED_CONSTRAINT):
            items.add(S.CONSTRAINTS, item.removeprefix(_CARRIED_CONSTRAINT), KEEP)
        elif item.startswith("Ran `"):
            items.add(COMMANDS, item, _previous_priority(S.CRITICAL, item))
        elif not item.startswith("File: "):  # the file lists carry those
            items.add(S.CRITICAL, item, _previous_priority(S.CRITICAL, item))
    # The requests in progress then are the user's words, finished now or still going on.
    items.extend(S.DONE if has_new_turns else S.IN_PROGRESS, previous.items(S.IN_PROGRESS), ASKED)
    items.extend(S.CRITICAL, previous.loose, WORK)


def _history_items(prep: Preparation, instructions: str | None) -> Items:
    span = prep.summarize
    facts = _extract(span, [*prep.turn_prefix, *prep.kept], digests=prep.digests)
    users = _users(span)
    items = Items()
    previous = S.parse_summary(prep.previous_summary)
    _merge_previous(items, previous, has_new_turns=bool(users))
    for entry in (*prep.turn_prefix, *prep.kept):  # what the summary may quote from later on
        for b in entry.content if entry.kind == MESSAGE else ():
            if isinstance(b, dict) and b.get("type") == "tool_call" and is_shell_tool(str(b.get("name"))):
                command = command_of(b.get("arguments"))
                if command:
                    items.ran(core(command))
    pi = prep.settings.is_pi
    tools = S.CRITICAL if pi else S.TOOLS
    files = S.CRITICAL if pi else S.FILES
    # The goal is the first message that says something: a lone slash command ("/mode") is not.
    goal = next((u for u in users if not _SLASH.match(message_text(u))), None)
    if not items.get(S.GOAL) and goal is not None:
        items.add(S.GOAL, clip(message_text(goal), 300), KEEP)
    if instructions and instructions.strip():
        items.add(S.CRITICAL, f"Focus requested for this summary: {instructions.strip()}", KEEP)

    # Constraints the user lifted in this span leave the list (docs/compaction.md, rule U3).
    lifted = [c.text for c in _of(facts, FactKind.CONSTRAINT) if is_reversal(c.text)]
    # A request that lifts a rule names what the rule named (facts.py, `_reverse`).
    named = [
        (r.text, {a for g in r.anchors for a in g})
        for r in _of(facts, FactKind.REQUEST)
        if is_reversal(r.text)
    ]
    items.remove(
        S.CONSTRAINTS,
        lambda old: (
            not any(lifts(r, old) for r in lifted)
            and not any(lifts(r, old) and any(n in old for n in names) for r, names in named)
        ),
    )
    # Blockers resolved in this span move to Done.
    resolved = [f for f in _of(facts, FactKind.ERROR) if f.resolved_by is not None]
    passed = [f"`{f.text}`" for f in _of(facts, FactKind.COMMAND) if not f.failed]
    passed += [f"`{f.command}`" for f in resolved if f.command]
    blocked = items.get(S.BLOCKED)
    items.remove(S.BLOCKED, lambda _: False)
    for old in blocked:
        if any(_overlaps(old, f.text) for f in resolved) or any(p in old for p in passed):
            items.add(S.DONE, f"Resolved later: {old}", WORK)
        else:
            items.add(S.BLOCKED, old, CONTEXT)

    _fact_items(
        items,
        facts,
        tools=tools,
        files=files,
        critical=S.CRITICAL,
        done=S.DONE,
        blocked=S.BLOCKED,
        state=S.STATE,
        commands=COMMANDS,
    )
    # Finished requests are listed below, in the user's words; the open ones are the work to do.
    requests = [r for r in _of(facts, FactKind.REQUEST) if r.is_open_request]
    # Next steps of the previous summary that an answer of this span reports done are done.
    answers = [f.text for f in facts if f.kind in (FactKind.FINDING, FactKind.DECISION) and f.detail == FINAL]
    steps = items.get(S.NEXT)
    items.remove(S.NEXT, lambda step: not any(reports(a, step) for a in answers))
    for step in steps:
        if step not in items.get(S.NEXT):
            items.add(S.DONE, f"User asked: {step}", WORK)
    goal_words = normalize(" ".join(items.get(S.GOAL)))
    for r in requests:
        if r.deferred and _in_goal(r.text, goal_words):
            continue  # Round 7: the session's goal, shown as the Goal, is the work, not a step for later
        items.add(S.NEXT if r.deferred else S.IN_PROGRESS, r.text, KEEP)
    # Finished turns: what the user asked, in their words (constraints are listed on their own).
    # A finished request is said in the request's own sentences (its fact), not the whole message:
    # pasted output and side remarks stay out.
    open_nodes = {r.node for r in requests if not r.deferred}
    done: dict[str, list[str]] = {}
    for r in _of(facts, FactKind.REQUEST):
        if not r.is_open_request:
            done.setdefault(r.node, []).append(r.text)
    goal_text = " ".join(items.get(S.GOAL))
    for u in users:
        if u.key not in open_nodes and u.key in done:
            # The goal's message is the Goal as far as it goes; what it asked beyond that is listed.
            said = [x for x in sentences(" ".join(done[u.key])) if x.rstrip("…") not in goal_text]
            asked = _asked(" ".join(said))
            if asked:
                items.add(S.DONE, f"User asked: {asked}", ASKED, _USER_CHARS)
    # Listed: a listed path, or a tail of one after a "/" (sets: a long span lists thousands).
    listed = {*prep.read_files, *prep.modified_files}
    tails = {p[i + 1 :] for p in listed for i, c in enumerate(p) if c == "/"}
    for f in _of(facts, FactKind.FILE):
        if f.text not in listed and f.text.lstrip("./~") not in tails:
            items.add(files, f"Mentioned: {f.text}", MENTION)
    # A value the user gave in a sentence the summary already quotes (a rule, a request) is said
    # once: the line that repeats the sentence goes (one statement, one line; issue 30 item 3).
    quoted = [
        normalize(i) for k in (S.GOAL, S.CONSTRAINTS, S.DONE, S.IN_PROGRESS, S.NEXT) for i in items.get(k)
    ]
    items.remove(S.CRITICAL, lambda item: not _said_already(item, quoted))
    return items


_GOAL_OPENING: Final = 80  # characters of a request's start that the Goal must show to hold it


def _in_goal(request: str, goal: str) -> bool:
    """The Goal (the first message, as far as it goes) shows the request's opening: a sentence of the
    message the session set out to do. A word in it that reads as a deferral ("… goes on its rack
    position later") does not make the goal itself a step for later, and a Next Step that the Goal
    holds would stay there after the work was done (docs/retention.md, "Round 7")."""
    opening = normalize(request.rstrip("…"))[:_GOAL_OPENING].strip()
    return bool(goal) and len(opening) >= _GOAL_OPENING // 2 and opening in goal


def _said_already(item: str, quoted: list[str]) -> bool:
    if not item.startswith(_GAVE) or item.endswith("`)"):
        return False  # not a user's value, or it lists values its sentence does not hold
    sentence = normalize(item.removeprefix(_GAVE).rstrip("…")).strip(" .")
    return bool(sentence) and any(sentence in q for q in quoted)


_GAVE: Final = "User gave: "


def _asked(text: str) -> str:
    """A finished request in the user's own words (all of them, up to a bound); "" for a message
    that asks nothing and names nothing ("Nice.", "thanks")."""
    # Sentences that read as constraints are listed (or, once lifted, dropped) under Constraints.
    said = [s for s in sentences(text) if (len(stems(s)) >= 2 or anchor_tokens(s)) and not is_constraint(s)]
    return clip(" ".join(said), _USER_CHARS) if said else ""


def _prefix_items(prep: Preparation) -> Items:
    facts = _extract(prep.turn_prefix, prep.kept, digests=prep.digests)
    items = Items()
    users = _users(prep.turn_prefix)
    if users:
        # A short reply to the assistant's question means what the question asked.
        before = [e for e in prep.summarize if e.kind == MESSAGE and e.role == ASSISTANT][-1:]
        question = asked_question(before[0]) if before else ""
        items.add(S.ORIGINAL_REQUEST, in_reply(message_text(users[0]), question), KEEP, _REQUEST_CHARS)
    _fact_items(
        items,
        facts,
        tools=S.SUFFIX_CONTEXT,
        files=S.SUFFIX_CONTEXT,
        critical=S.SUFFIX_CONTEXT,
        done=S.EARLY_PROGRESS,
        blocked=S.SUFFIX_CONTEXT,
        state=S.EARLY_PROGRESS,
        commands=COMMANDS,
    )
    # Repeated here so that a merge files them with the other constraints (`_merge_previous`).
    for f in _of(facts, FactKind.CONSTRAINT):
        items.add(S.SUFFIX_CONTEXT, f"{_CARRIED_CONSTRAINT}{f.text}", KEEP)
    for f in _of(facts, FactKind.FILE):
        items.add(S.SUFFIX_CONTEXT, f"File: {f.text}", MENTION)
    return items


# --- rendering --------------------------------------------------------------------------------

_PROGRESS_PARTS: Final = (
    ("Done", S.DONE, "- [x] "),
    ("In Progress", S.IN_PROGRESS, "- [ ] "),
    ("Blocked", S.BLOCKED, "- "),
)


STATE_HEADING: Final = "State of the Work"


def with_state(layout: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    """The extractive layout: the summary prompt's sections plus "State of the Work" after Progress."""
    out: list[tuple[str, str]] = []
    for name, hint in layout:
        out.append((name, hint))
        if name == "Progress":
            out.append((STATE_HEADING, "what was changed and concluded, in the assistant's words"))
    return tuple(out)


def _render(items: Items, layout: tuple[tuple[str, str], ...], commands: int = MAX_COMMANDS) -> str:
    """The sections of `layout`; the latest `commands` command lines go with Critical Context (or,
    in a split turn's prefix, with the context for the suffix)."""
    out: list[str] = []
    for name, _hint in layout:
        kind = S.heading_kind(name)
        if name == "Progress":
            out.append("## Progress")
            for sub, sub_kind, marker in _PROGRESS_PARTS:
                out.append(f"### {sub}\n" + _lines(items.get(sub_kind), marker))
            continue
        marker = "1. " if kind == S.NEXT else "- "
        listed = items.get(kind or "")
        if kind in (S.CRITICAL, S.SUFFIX_CONTEXT) and commands > 0:
            # The latest runs of the commands worth repeating, at most MAX_COMMANDS in a summary.
            listed = [*listed, *_chosen_commands(items.get(COMMANDS), commands - _quoting(items))]
        out.append(f"## {name}\n" + _lines(listed, marker))
    return "\n\n".join(out)


def _lines(items: list[str], marker: str) -> str:
    if not items:
        return "(none)"
    if marker == "1. ":
        return "\n".join(f"{i}. {item}" for i, item in enumerate(items, 1))
    return "\n".join(marker + item for item in items)


# The most one dropped item's line can shorten the summary beyond the item's own tokens: its list
# marker ("- ", "12. "), the newline, and a token merged across either end. Any other effect of a
# drop lengthens the text ("(none)" for an emptied section, an older command line coming into view).
DROP_MARGIN: Final = 8


def _fit(items: Items, layout: tuple[tuple[str, str], ...], budget: int, commands: int) -> str:
    """Render, dropping the least useful items until the text fits `budget` tokens: the text of the
    first drop that fits, as if it were rendered after each drop. It is rendered only once the
    drops since the last render could have shortened it by the excess (each by at most its item's
    tokens and DROP_MARGIN): rendering after each drop made trimming a long span quadratic, tens of
    seconds for 20,000 nodes (issue 35)."""
    text = _render(items, layout, commands)
    excess = count_text(text) - budget
    while excess > 0:
        could_cut = 0
        dropped = False
        while could_cut < excess and (item := items.drop_next()) is not None:
            dropped = True
            could_cut += count_text(item) + DROP_MARGIN
        if not dropped:
            break
        text = _render(items, layout, commands)
        excess = count_text(text) - budget
    return text


def extractive_texts(prep: Preparation, instructions: str | None = None) -> tuple[str | None, str | None]:
    """(history, turn prefix) texts for `assemble_summary`; a part the plan does not need is None."""
    split = prep.is_split_turn and bool(prep.turn_prefix_messages)
    layout = with_state(PI_SECTIONS if prep.settings.is_pi else DEFAULT_SECTIONS)
    history: str | None = None
    prefix: str | None = None
    # The prefix's command lines count against the summary's MAX_COMMANDS.
    prefix_commands = 0
    prefix_known: set[str] = set()  # the spellings of the commands the prefix ran
    if split:
        items = _prefix_items(prep)
        prefix_known = items.commands
        prefix_commands = min(PREFIX_COMMANDS, len(items.get(COMMANDS)))
        budget = min(PREFIX_TARGET_TOKENS, turn_prefix_max_tokens(prep.settings.reserve_tokens))
        prefix = _fit(items, TURN_PREFIX_SECTIONS, max(budget, 100), prefix_commands)
    if not (split and not prep.summarize_messages):
        # What the prefix and the file lists leave of the summary's bound goes to the history.
        rest = (
            SUMMARY_TOKENS
            - count_text(prefix or "")
            - count_text(format_file_lists(prep.read_files, prep.modified_files))
        )
        target = max(MIN_HISTORY_TOKENS, rest)
        budget = min(target, history_max_tokens(prep.settings.reserve_tokens, pi=prep.settings.is_pi))
        items = _history_items(prep, instructions)
        # Every line of the prefix that quotes a command (its command lines, the user's request
        # naming one) counts against the summary's MAX_COMMANDS.
        known = items.commands | prefix_known
        quoted = sum(1 for line in (prefix or "").splitlines() if any(c in line for c in known))
        history = _fit(items, layout, max(budget, 200), max(0, MAX_COMMANDS - max(prefix_commands, quoted)))
    return history, prefix


def compact_extractive(prep: Preparation, instructions: str | None = None) -> CompactionPayload:
    """The compaction payload of `prep` with an extractive summary."""
    history, prefix = extractive_texts(prep, instructions)
    return make_payload(prep, assemble_summary(history, prefix, prep))
