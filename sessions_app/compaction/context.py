"""What the model receives for a path (docs/compaction.md, rules C1–C4; pi's buildSessionContext +
convertToLlm).

With a compaction on the path: its summary, then the path from its `first_kept` up to it, then
everything after it. Only the last valid compaction counts; older ones inside the kept range are
skipped like any other non-message entry.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import islice

from .convert import to_llm
from .deferred import DEFERRED_ROLES, DeferredMessage, deferred_role
from .edits import apply_edits, has_edit
from .messages import (
    ASSISTANT,
    BRANCH_SUMMARY,
    COMPACTION,
    CONTEXT_EDIT,
    CUSTOM_MESSAGE,
    MESSAGE,
    MODEL_CHANGE,
    THINKING_LEVEL_CHANGE,
    Entry,
    LlmMessage,
)
from .tokens import pi_tokens
from .tree import span


def is_valid_compaction(entry: Entry) -> bool:
    summary = entry.data.get("summary")
    return entry.kind == COMPACTION and isinstance(summary, str) and summary != ""


def applied_compaction_index(path: list[Entry]) -> int:
    """Index of the compaction that shapes the context (the last valid one), or -1."""
    for i in range(len(path) - 1, -1, -1):
        e = path[i]
        if e.kind == COMPACTION and is_valid_compaction(e):
            return i
    return -1


def kept_start_index(path: list[Entry], compaction_index: int) -> int:
    """Index of the compaction's `first_kept` before it on the path, or -1 (then nothing is kept)."""
    first_kept = path[compaction_index].data.get("first_kept")
    for i in range(compaction_index - 1, -1, -1):  # keys are unique on a path; the cut is near
        if path[i].key == first_kept:
            return i
    return -1


def reaches_model(entry: Entry) -> bool:
    """Entries that become a message in pi's context list (excluded bash executions included:
    pi counts them and drops them only when converting for the provider)."""
    kind = entry.kind
    if kind in (MESSAGE, CUSTOM_MESSAGE):
        return True
    return kind == BRANCH_SUMMARY and bool(entry.data.get("summary"))


_ALWAYS_REACH = frozenset({MESSAGE, CUSTOM_MESSAGE})


@dataclass(frozen=True, slots=True)
class ContextLayout:
    entries: list[Entry]  # summary (compaction entry) first, then kept, then new entries
    compaction_index: int  # on the path; -1 without compaction
    kept_start: int  # on the path; -1 if nothing before the compaction is kept
    after_pos: int  # position in `entries` of the first entry after the compaction


def context_layout(path: list[Entry]) -> ContextLayout:
    c, k, before = _before_compaction(path)
    always = _ALWAYS_REACH
    entries = before + [
        e for e in path[c + 1 :] if e.kind in always or (e.kind == BRANCH_SUMMARY and e.data.get("summary"))
    ]  # reaches_model inlined: one call per entry of the path cost a third of building a context
    return ContextLayout(entries, c, k, len(before))


def _before_compaction(path: list[Entry], applied: int | None = None) -> tuple[int, int, list[Entry]]:
    """The applied compaction's index and its kept start's (both -1 when there is none), and the
    part of the context from before it: the compaction entry and the kept tail that reaches the
    model ([] without one). `applied`: the applied compaction's index when the caller knows it."""
    c = applied_compaction_index(path) if applied is None else applied
    if c < 0:
        return c, -1, []
    k = kept_start_index(path, c)
    before = [path[c]]
    if k >= 0:
        always = _ALWAYS_REACH  # reaches_model inlined, as in context_layout
        before += [
            e
            for e in span(path, k, c)
            if e.kind in always or (e.kind == BRANCH_SUMMARY and e.data.get("summary"))
        ]
    return c, k, before


def context_before(path: list[Entry], applied: int | None = None) -> tuple[int, list[Entry]]:
    """`context_layout` without copying what comes after the compaction: its index (-1 for none)
    and the entries before it. The rest of the context is what reaches the model of `path` after
    that index; a walk from the end reads it in place (budget.context_tokens). `applied`: that
    index when the caller knows it (`applied_compaction_index`)."""
    c, _, before = _before_compaction(path, applied)
    return c, before


def context_entries(path: list[Entry]) -> list[Entry]:
    """The entries the model sees, with the path's context edits applied (rule E3)."""
    return apply_edits(context_layout(path).entries, path)


def build_context(path: list[Entry]) -> list[LlmMessage]:
    """The messages a provider receives for this path, each tagged with its `source_key`.

    An entry whose payload is read lazily (a pi file's, a stored path's) becomes a message that
    reads it when first used (deferred.py): building the context decides which entries, in what
    order, with which role, and converts none of their payloads."""
    c, edited = applied_and_edit(path)
    if not edited and c > 0:
        edited = has_edit(islice(path, c))
    if edited:  # the edits' stubs replace results: the general route (rule E3)
        entries = context_entries(path)
        if c < 0:
            return _messages(entries)
        return _summary(entries[0]) + _messages(islice(entries, 1, None))
    if c < 0:
        return _messages(path)
    k = kept_start_index(path, c)
    out = _summary(path[c])
    if k >= 0:
        out += _messages(span(path, k, c))
    out += _messages(span(path, c + 1))
    return out


def _summary(compaction: Entry) -> list[LlmMessage]:
    m = to_llm(compaction)
    return [] if m is None else [m]


def applied_and_edit(path: list[Entry]) -> tuple[int, bool]:
    """`applied_compaction_index`, and whether a context edit comes after it on the path: one
    walk from the end where building a context used to take four (issue 35)."""
    edited = False
    for i in range(len(path) - 1, -1, -1):
        e = path[i]
        kind = e.kind
        if kind == COMPACTION:
            if is_valid_compaction(e):
                return i, edited
        elif kind == CONTEXT_EDIT:
            edited = True
    return -1, edited


def _messages(entries: Iterable[Entry]) -> list[LlmMessage]:
    """The messages of the entries that reach the model (`reaches_model`), in order; an entry
    read lazily becomes a message that reads its payload when first used (deferred.py)."""
    out: list[LlmMessage] = []
    append = out.append
    message_roles = _MESSAGE_ROLES
    new, cls = object.__new__, DeferredMessage
    for e in entries:
        # reaches_model, deferred_role and deferred_message inlined: opening a session builds one
        # message per kept entry, and the calls cost as much as the rest (issue 35).
        kind = e.kind
        if kind == MESSAGE:
            role = message_roles.get(e.role) if type(e) is not Entry else None
        elif kind == CUSTOM_MESSAGE:
            role = "user" if type(e) is not Entry and e.role in _CUSTOM_ROLES else None
        elif kind == BRANCH_SUMMARY:
            role = None
        else:
            continue
        if role is not None:
            m = new(cls)
            m.role, m.source_key, m._entry = role, e.key, e
            append(m)
            continue
        msg = to_llm(e)
        if msg is not None:
            append(msg)
    return out


# deferred.DEFERRED_ROLES for the message kind: (our role) -> provider role.
_MESSAGE_ROLES = {role: r for (kind, role), r in DEFERRED_ROLES.items() if kind == MESSAGE}
_CUSTOM_ROLES = frozenset(role for kind, role in DEFERRED_ROLES if kind == CUSTOM_MESSAGE)


@dataclass(frozen=True, slots=True)
class ContextItem:
    key: str
    role: str  # the provider role: "user", "assistant" or "tool_result"
    source: str  # what it came from: "compaction", "user", "bash_execution", "custom_message", ...
    tokens: int


def context_report(path: list[Entry], *, pi: bool = False) -> list[ContextItem]:
    """Per-message tokens of the built context (stored tiktoken estimates, or pi's chars/4)."""
    items: list[ContextItem] = []
    for e in context_entries(path):
        role = deferred_role(e)  # the role alone, without reading the payload, where it allows
        if role is None:
            m = to_llm(e)
            if m is None:
                continue
            role = m.role
        source = e.role if e.kind == MESSAGE and e.role else e.kind
        items.append(ContextItem(e.key, role, source, pi_tokens(e) if pi else e.tokens))
    return items


@dataclass(frozen=True, slots=True)
class PathSettings:
    """Model and thinking level in force at the leaf (pi's buildSessionContext extras)."""

    thinking_level: str
    provider: str | None
    model: str | None


def path_settings(path: list[Entry]) -> PathSettings:
    """The last thinking-level change wins ("off" by default); the model comes from the last
    model change *or assistant message*, whichever is later."""
    level = "off"
    provider: str | None = None
    model: str | None = None
    for e in path:
        kind = e.kind
        if kind == THINKING_LEVEL_CHANGE:
            level = str(e.data.get("thinking_level") or "off")
        elif kind == MODEL_CHANGE:
            provider, model = e.data.get("provider"), e.data.get("model_id")
        elif kind == MESSAGE and e.role == ASSISTANT:
            provider, model = e.data.get("provider"), e.data.get("model")
    return PathSettings(level, provider, model)
