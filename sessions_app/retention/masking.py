"""Observation masking: a summary that is the span itself, with each tool output reduced to
one line (docs/compaction.md, "Summarizers", rule U6).

The span's user and assistant messages are kept as they were; each tool result becomes its call,
its status and its salient line (salient.py); the previous summary comes first. Over the token
budget the oldest items go first, so what is kept is always the most recent part, whole. No
model is asked. Lindenbauer et al. ("The Complexity Trap", JetBrains/TUM, 2025) found that
masking old tool outputs this way solved as many SWE-bench Verified tasks as summarizing them
with a model, at about half the cost.

Commands are bounded like the extractive summary's (issue 30, Build item 3: at most
MAX_COMMANDS lines quote a command): a run of shell commands that only read and succeeded becomes
one line naming their programs (what they found is in the assistant's words that follow), and
past the bound the older, successful commands are named by their program alone; a failure and
the latest run of a command keep their command line longest (docs/retention.md, "Masking").

Pure: the plan in, the payload out.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from sessions_app.compaction.exit_status import exit_code
from sessions_app.compaction.fileops import format_file_lists
from sessions_app.compaction.messages import (
    ASSISTANT,
    BASH_EXECUTION,
    BRANCH_SUMMARY,
    MESSAGE,
    TOOL_RESULT,
    USER,
    Entry,
)
from sessions_app.compaction.prepare import Preparation
from sessions_app.compaction.sections import strip_file_lists
from sessions_app.compaction.summary import (
    TARGET_PREFIX_TOKENS,
    TARGET_SUMMARY_TOKENS,
    assemble_summary,
    history_max_tokens,
    make_payload,
    turn_prefix_max_tokens,
)
from sessions_app.compaction.text import block_text
from sessions_app.compaction.tokens import count_text
from sessions_app.compaction.validate import CompactionPayload

from .extractive import MAX_COMMANDS, SUMMARY_TOKENS
from .salient import error_line, outcome_line
from .shell import core, only_reads

HEADING: Final = "## Masked History"
_CALL_CHARS: Final = 200
_NOTE_CHARS: Final = 600  # other entries of the span (a branch summary, an extension's message)
# Budgets below these floors are not met: a summary needs room to say anything at all.
MIN_HISTORY_TOKENS: Final = 200
MIN_PREFIX_TOKENS: Final = 100


@dataclass(frozen=True, slots=True)
class Item:
    """One piece of the span: a message, a masked tool result, or a block of the previous summary."""

    text: str


def items(
    entries: Sequence[Entry],
    previous_summary: str | None = None,
    *,
    commands: int | None = None,
    also_ran: Sequence[Entry] = (),
) -> list[Item]:
    """The span as items, oldest first: the previous summary's blocks, then each message; at most
    `commands` lines (MAX_COMMANDS by default) quote a shell command (`bound_commands`), counting
    the words that quote one run here or in `also_ran` (the rest of the plan's path)."""
    out: list[Item] = []
    if previous_summary:
        previous = strip_file_lists(previous_summary)
        if previous.startswith(HEADING):
            previous = previous[len(HEADING) :].lstrip("\n")
        out.extend(Item(block.strip()) for block in previous.split("\n\n") if block.strip())
    calls = _calls(entries)
    answered = {e.data.get("tool_call_id") for e in entries if e.role == TOOL_RESULT}
    for e in entries:
        if e.kind == BRANCH_SUMMARY:
            text = str(e.data.get("summary") or "")
            if text.strip():
                out.append(Item(f"[Branch summary]: {_clip(text.strip(), _NOTE_CHARS)}"))
        elif e.kind != MESSAGE:
            text = block_text(e)
            if text.strip():
                out.append(Item(f"[Note]: {_clip(text.strip(), _NOTE_CHARS)}"))
        elif e.role == USER:
            text = block_text(e)
            if text.strip():
                out.append(Item(f"[User]: {text}"))
        elif e.role == ASSISTANT:
            out.extend(_assistant(e, answered))
        elif e.role == TOOL_RESULT:
            out.append(Item(_masked_result(e, calls)))
        elif e.role == BASH_EXECUTION:
            out.append(Item(_masked_bash(e)))
        else:
            text = block_text(e)
            if text.strip():
                out.append(Item(f"[Note]: {_clip(text.strip(), _NOTE_CHARS)}"))
    out = _collapse_reads(out)
    # The words of the user and the assistant stay as they were, so the lines of theirs that quote
    # a command the span ran count first; the masked results get what is left.
    ran = _ran([*entries, *also_ran]) | {
        f for item in out if (m := _shell(item)) for f in _forms_of(m["cmd"].rstrip("…"))
    }
    said = _prose_command_lines(out, ran)
    if said:
        said += _UNSEEN  # words that quote commands may quote some this span did not run
    return bound_commands(out, max(0, (MAX_COMMANDS if commands is None else commands) - said))


def _ran(entries: Sequence[Entry]) -> set[str]:
    """How the span's shell commands may be quoted: each one's first line and its core."""
    ran: set[str] = set()
    for e in entries:
        if e.kind == MESSAGE and e.role == BASH_EXECUTION:
            commands = [str(e.data.get("command") or "")]
        elif e.kind == MESSAGE and e.role == ASSISTANT:
            commands = [c for b in e.content if b.get("type") == "tool_call" and (c := _command(b))]
        else:
            continue
        for c in commands:
            first = c.strip().splitlines()[0].strip() if c.strip() else ""
            bare = _CD.sub("", core(first))
            ran.update(f for f in (first, core(first), bare) if len(f) >= _QUOTED_CHARS)
    return ran


def _forms_of(command: str) -> set[str]:
    return {f for f in (command, _CD.sub("", command)) if len(f) >= _QUOTED_CHARS}


_CD = re.compile(r"^(?:cd\s+\S+\s*(?:&&|;)\s*)+")  # `cd DIR &&`: the command is what follows

_UNSEEN: Final = 1
_QUOTED_CHARS: Final = 6  # a shorter command ("ls") would be found in any prose


def _prose_command_lines(kept: Sequence[Item], ran: set[str]) -> int:
    """Lines of the kept words that quote a command: one `ran` names, or a line of a shell code
    block (a command written down to run later is a command line all the same)."""
    count = 0
    for item in kept:
        if _shell(item) is not None:
            continue
        shell_block = False
        for line in item.text.splitlines():
            fence = _FENCE.match(line)
            if fence:
                shell_block = not shell_block and fence["lang"] in _SHELL_LANGS
                continue
            stripped = line.strip()
            if (shell_block and stripped and not stripped.startswith("#")) or any(c in line for c in ran):
                count += 1
    return count


_FENCE = re.compile(r"^\s*```\s*(?P<lang>\w*)")
_SHELL_LANGS: Final = frozenset({"bash", "sh", "shell", "console", "zsh", "fish"})


def command_lines(kept: Sequence[Item], entries: Sequence[Entry]) -> int:
    """Lines of `kept` that quote a command: masked results, and words that quote one `entries` ran."""
    return quoted_commands(kept) + _prose_command_lines(kept, _ran(entries))


# A masked shell result: `[Tool]: bash `cmd` → ok, exit 0: line` or `[User ran]: `cmd` → …`.
_SHELL_ITEM = re.compile(
    r"^\[(?P<who>Tool|User ran)\]: (?:(?P<tool>\S+) )?`(?P<cmd>[^`\n]*)` → (?P<status>\w+)"
)


def _shell(item: Item) -> re.Match[str] | None:
    return _SHELL_ITEM.match(item.text)


def _program(command: str) -> str:
    words = command.replace("&&", " ").split()
    skip = {"cd", "sudo", "env", "time"}
    # After `cd DIR &&` the program is what runs in DIR.
    for i, w in enumerate(words):
        if w in skip or (i and words[i - 1] == "cd") or "=" in w:
            continue
        return w.rsplit("/", 1)[-1][:20]
    return words[0][:20] if words else "sh"


def _quiet_read(item: Item) -> bool:
    """A shell command that only read and succeeded, whose output holds no error line: what it
    showed is what the assistant says next, so the command itself adds nothing to a handoff."""
    m = _shell(item)
    if m is None or m["status"] != "ok":
        return False
    line = item.text.split(" → ", 1)[1] if " → " in item.text else ""
    return only_reads(m["cmd"].rstrip("…")) and error_line(line) is None


def _collapse_reads(out: list[Item]) -> list[Item]:
    """Each run of quiet reads (see `_quiet_read`) with nothing but the assistant's own calls
    between them becomes one line that names their programs and how many ran."""
    merged: list[Item] = []
    run: list[str] = []

    def flush() -> None:
        if not run:
            return
        counts = Counter(run)
        names = ", ".join(f"{p} ×{n}" if n > 1 else p for p, n in counts.most_common())
        merged.append(
            Item(f"{_READS_LINE} {len(run)} read-only command{'s' if len(run) > 1 else ''} → ok ({names})")
        )
        run.clear()

    for item in out:
        m = _shell(item)
        if m is not None and _quiet_read(item):
            run.append(_program(m["cmd"]))
            continue
        flush()
        merged.append(item)
    flush()
    return merged


_READS_LINE: Final = "[Tool]:"


PREFIX_COMMANDS: Final = 3  # of MAX_COMMANDS, at most this many lines in a split turn's prefix


def quoted_commands(kept: Sequence[Item]) -> int:
    return sum(1 for item in kept if _shell(item) is not None)


def bound_commands(kept: list[Item], limit: int = MAX_COMMANDS) -> list[Item]:
    """At most `limit` items quote a shell command. A command run again keeps only its
    latest run; then failures before successes, newer before older. The others name their program
    alone, their status and line kept (what they did is still there, the command is not)."""
    quoted = [(i, m) for i, item in enumerate(kept) if (m := _shell(item)) is not None]
    latest: dict[str, int] = {}
    for i, m in quoted:
        latest[core(m["cmd"])] = i  # the same command whatever filter trimmed its output
    ranked = sorted(
        (i for i, m in quoted if latest[core(m["cmd"])] == i),
        key=lambda i: (kept[i].text.split(" → ", 1)[1].startswith("ok"), -i),
    )
    keep = set(ranked[:limit])
    out = list(kept)
    for i, m in quoted:
        if i not in keep:
            start, end = m.span("cmd")
            text = kept[i].text
            out[i] = Item(f"{text[: start - 1]}{_program(m['cmd'])} (command left out){text[end + 1 :]}")
    return out


@dataclass(frozen=True, slots=True)
class Fitted:
    """What `fit` kept: the text, how many of the oldest items it left out, and whether the one
    item left (the newest) was cut short because not even it fitted alone."""

    text: str
    dropped: int
    cut: bool


def fit(kept: Sequence[Item], budget: int) -> Fitted:
    """The items under the heading, the oldest dropped until the text fits `budget` tokens (o200k,
    as the stored estimates count). Never longer than the budget: when not even the newest item
    fits alone, its beginning is kept (and when not even the heading fits, the heading's)."""
    # Count from the newest back, and only as far as the budget reaches: a span of 20,000
    # messages is never counted whole. Counts of joined text are not exactly the sum of the
    # parts', so the joined text is checked and the cut moved until it is exact.
    used = count_text(render(kept, len(kept)))
    start = len(kept)
    while start > 0:
        size = count_text(kept[start - 1].text) + 1  # + the blank line between items
        if used + size > budget:
            break
        used += size
        start -= 1
    text = render(kept, start)
    while count_text(text) > budget and start < len(kept):
        start += 1
        text = render(kept, start)
    while start > 0:
        wider = render(kept, start - 1)
        if count_text(wider) > budget:
            break
        start -= 1
        text = wider
    if start:
        # Keeping every item also drops the "left out" note, so all of them can fit where one
        # fewer did not. Try it when the old items together weigh no more than the budget (the
        # walk stops as soon as they do, so a long span is never counted whole).
        weight = 0
        for item in kept[:start]:
            weight += count_text(item.text)
            if weight > budget:
                break
        else:
            whole = render(kept, 0)
            if count_text(whole) <= budget:
                text, start = whole, 0
    if start < len(kept) or (not kept and count_text(text) <= budget):
        return Fitted(text, start, False)
    start = max(len(kept) - 1, 0)  # not even the newest item fits alone: keep its beginning
    return Fitted(_cut_to(render(kept, start), budget), start, True)


def masking_texts(prep: Preparation) -> tuple[str | None, str | None]:
    """(history, turn prefix) texts for `assemble_summary`; a part the plan does not need is None."""
    settings = prep.settings
    split = prep.is_split_turn and bool(prep.turn_prefix_messages)
    wants_history = not (split and not prep.summarize_messages)
    # The words kept may quote a command run anywhere on the path so far (the kept tail included).
    ran = [*prep.summarize, *prep.turn_prefix, *prep.kept]
    prefix_items = items(prep.turn_prefix, commands=PREFIX_COMMANDS, also_ran=ran) if split else []
    used = command_lines(prefix_items, ran)
    history_items: list[Item] = []
    if wants_history:
        history_items = items(
            prep.summarize, prep.previous_summary, commands=MAX_COMMANDS - used, also_ran=ran
        )
        over = used + command_lines(history_items, ran) - MAX_COMMANDS
        if over > 0 and prefix_items:
            # The history's own words took more than was left: the prefix's masked results give way.
            prefix_items = items(prep.turn_prefix, commands=max(0, used - over), also_ran=ran)
    prefix = fit(prefix_items, prefix_budget(settings.reserve_tokens)).text if split else None
    history: str | None = None
    if wants_history:
        # The whole summary, prefix and file lists included, stays within the bound the extractive
        # summary keeps (docs/retention.md, "Budget"): the history gets what they leave.
        rest = (
            SUMMARY_TOKENS
            - count_text(prefix or "")
            - count_text(format_file_lists(prep.read_files, prep.modified_files))
        )
        budget = min(
            history_budget(settings.reserve_tokens, pi=settings.is_pi), max(rest, MIN_HISTORY_TOKENS)
        )
        history = fit(history_items, budget).text
    return history, prefix


def compact_masking(prep: Preparation) -> CompactionPayload:
    """The compaction payload of `prep` with a masked-history summary (file lists appended, M7)."""
    history, prefix = masking_texts(prep)
    return make_payload(prep, assemble_summary(history, prefix, prep))


def history_budget(reserve_tokens: int, *, pi: bool = False) -> int:
    """The history part's token budget: the bounds a model's summary has (rule M8)."""
    return max(min(TARGET_SUMMARY_TOKENS, history_max_tokens(reserve_tokens, pi=pi)), MIN_HISTORY_TOKENS)


def prefix_budget(reserve_tokens: int) -> int:
    return max(min(TARGET_PREFIX_TOKENS, turn_prefix_max_tokens(reserve_tokens)), MIN_PREFIX_TOKENS)


# --- rendering ---------------------------------------------------------------------------------


def render(kept: Sequence[Item], start: int) -> str:
    """The heading, a note of how many old items were left out, and the rest of the items."""
    head = HEADING
    if start:
        head += f"\n\n({start} older item{'s' if start != 1 else ''} left out for the budget.)"
    return "\n\n".join([head, *(i.text for i in kept[start:])])


def _cut_to(text: str, budget: int) -> str:
    """The longest prefix of `text`, on a character boundary, that fits `budget` tokens."""
    lo, hi = 0, len(text)
    while lo < hi:  # the longest prefix length whose count fits
        mid = (lo + hi + 1) // 2
        if count_text(text[:mid]) <= budget:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo]


def _calls(entries: Sequence[Entry]) -> dict[str, dict[str, Any]]:
    """Tool calls of the span's assistant messages by id."""
    out: dict[str, dict[str, Any]] = {}
    for e in entries:
        if e.kind == MESSAGE and e.role == ASSISTANT:
            for b in e.content:
                if b.get("type") == "tool_call" and isinstance(b.get("id"), str):
                    out[b["id"]] = b
    return out


def _assistant(e: Entry, answered: set[Any]) -> list[Item]:
    """The assistant's text as it was; its calls are shown with their results, and only those
    still unanswered in the span here."""
    lines = []
    text = block_text(e).strip()
    if text:
        lines.append(f"[Assistant]: {text}")
    for b in e.content:
        if b.get("type") == "tool_call" and b.get("id") not in answered:
            lines.append(f"[Assistant called]: {_call_text(b)} (no result in this span)")
    return [Item("\n".join(lines))] if lines else []


def _masked_result(e: Entry, calls: dict[str, dict[str, Any]]) -> str:
    call = calls.get(str(e.data.get("tool_call_id")))
    name = str(e.data.get("tool_name") or "tool")
    what = _call_text(call) if call is not None else name
    code = exit_code(e)
    status = "failed" if e.data.get("is_error") or (code is not None and code != 0) else "ok"
    if code is not None:
        status += f", exit {code}"
    line = outcome_line(block_text(e)) or "(no output)"
    return f"[Tool]: {what} → {status}: {line}"


def _masked_bash(e: Entry) -> str:
    command = _clip(str(e.data.get("command") or ""), _CALL_CHARS)
    code = e.data.get("exit_code")
    failed = bool(e.data.get("cancelled")) or (isinstance(code, int) and code != 0)
    status = "cancelled" if e.data.get("cancelled") else ("failed" if failed else "ok")
    if isinstance(code, int) and not isinstance(code, bool):
        status += f", exit {code}"
    line = outcome_line(str(e.data.get("output") or "")) or "(no output)"
    return f"[User ran]: `{command}` → {status}: {line}"


def _command(call: dict[str, Any]) -> str:
    """The shell command a call runs ("" for another tool): `command`/`cmd`, a string or an argv
    (`["bash", "-lc", "…"]` runs its last item)."""
    args = call.get("arguments")
    if not isinstance(args, dict):
        return ""
    command = args.get("command", args.get("cmd"))
    if isinstance(command, list) and all(isinstance(c, str) for c in command):
        command = command[-1] if len(command) == 3 and command[1] in ("-c", "-lc") else " ".join(command)
    return command.strip() if isinstance(command, str) else ""


def _call_text(call: dict[str, Any]) -> str:
    """A call as `name(argument=value, ...)`, a shell command as name `command`, clipped."""
    name = str(call.get("name") or "tool")
    args = call.get("arguments")
    if not isinstance(args, dict):
        return name
    command = _command(call)
    if command:
        return f"{name} `{_clip(command.strip(), _CALL_CHARS)}`"
    parts = []
    for key, value in args.items():
        shown = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        parts.append(f"{key}={_clip(shown, 60)}")
    return _clip(f"{name}({', '.join(parts)})", _CALL_CHARS)


def _clip(text: str, limit: int) -> str:
    text = " ".join(text.split()) if "\n" in text else text
    return text if len(text) <= limit else text[: limit - 1] + "…"
