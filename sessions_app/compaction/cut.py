"""Where the kept part of the path begins: valid cut points, the keep-recent walk, split turns.

Indices are positions in the path list; the span examined is [start, end).
"""

from __future__ import annotations

from dataclasses import dataclass

from .messages import (
    ASSISTANT,
    BASH_EXECUTION,
    BRANCH_SUMMARY,
    COMPACTION,
    CUSTOM,
    CUSTOM_MESSAGE,
    CUSTOM_ROLE,
    LABEL,
    MESSAGE,
    MODEL_CHANGE,
    SESSION_INFO,
    THINKING_LEVEL_CHANGE,
    USER,
    Entry,
)
from .tokens import pi_tokens

_CUT_ROLES = frozenset({USER, ASSISTANT, BASH_EXECUTION, CUSTOM_ROLE})
_TURN_START_ROLES = frozenset({USER, BASH_EXECUTION})
_USER_LIKE_KINDS = frozenset({CUSTOM_MESSAGE, BRANCH_SUMMARY})
# Entries the model never sees; they travel with the message that follows them.
PULLABLE_KINDS = frozenset({MODEL_CHANGE, THINKING_LEVEL_CHANGE, LABEL, CUSTOM, SESSION_INFO})


def is_cut_point(e: Entry) -> bool:
    """The kept part may start here. Never at a tool result: it must stay with its call."""
    if e.kind == MESSAGE:
        return e.role in _CUT_ROLES
    return e.kind in _USER_LIKE_KINDS


def is_turn_start(e: Entry) -> bool:
    """An entry that opens a turn: the user (or something speaking for them) says something."""
    if e.kind == MESSAGE:
        return e.role in _TURN_START_ROLES
    return e.kind in _USER_LIKE_KINDS


@dataclass(frozen=True, slots=True)
class Cut:
    first_kept: int
    turn_start: int  # -1 unless the cut splits a turn
    is_split_turn: bool
    anchor: int  # the cut point itself, before preceding settings/label entries were pulled in
    crossed: int  # where the walk reached keep_recent_tokens; -1 if it never did


def find_turn_start(path: list[Entry], index: int, start: int) -> int:
    for i in range(index, start - 1, -1):
        if is_turn_start(path[i]):
            return i
    return -1


def find_cut_pi(path: list[Entry], start: int, end: int, keep: int) -> Cut:
    """pi 0.73.1 `findCutPoint`, quirks included (docs/pi-compat.md, quirks P2–P4)."""
    first_cut = -1
    for i in range(start, end):
        if is_cut_point(path[i]):
            first_cut = i
            break
    if first_cut < 0:
        return Cut(start, -1, False, start, -1)
    cut = first_cut
    acc = 0
    crossed = -1
    for i in range(end - 1, start - 1, -1):
        e = path[i]
        if e.kind != MESSAGE:  # quirk P2: custom_message / branch_summary weigh nothing here
            continue
        t = e.pi_tokens  # pi_tokens' cache read here: most calls of a repeated walk hit it
        acc += pi_tokens(e) if t is None else t
        if acc >= keep:
            crossed = i
            # Snap towards newer; none after i (trailing tool results) keeps cutPoints[0] (quirk P3).
            for c in range(i, end):
                if is_cut_point(path[c]):
                    cut = c
                    break
            break
    anchor = cut
    while cut > start and path[cut - 1].kind not in (MESSAGE, COMPACTION):
        cut -= 1
    head = path[cut]
    if head.kind == MESSAGE and head.role == USER:
        return Cut(cut, -1, False, anchor, crossed)
    # Quirk P4: a pulled-in settings entry makes the head a non-user entry, so this scan runs.
    turn_start = find_turn_start(path, cut, start)
    return Cut(cut, turn_start, turn_start != -1, anchor, crossed)


def find_cut_default(path: list[Entry], start: int, end: int, keep: int) -> Cut | None:
    """Keep at least `keep` tokens of the newest context; None when the whole span fits.

    Differences from pi (docs/pi-compat.md): every entry that reaches the model counts (quirk P2);
    the budget crossing snaps back to the nearest cut point at or before it, so the kept part
    really holds `keep` tokens and a crossing inside trailing tool results keeps their call
    (quirk P3); a settings/label entry pulled in front of a user message does not make the turn
    split (quirk P4).
    """
    acc = 0
    crossed = -1
    for i in range(end - 1, start - 1, -1):
        e = path[i]
        if e.kind != COMPACTION:  # an older summary inside the span never reaches the model again
            acc += e.tokens
        if acc >= keep:
            crossed = i
            break
    if crossed < 0:
        return None
    anchor = crossed
    while anchor >= start and not is_cut_point(path[anchor]):
        anchor -= 1
    if anchor < start:
        # Only tool results / settings before the crossing: the first later cut point is all we have.
        anchor = crossed + 1
        while anchor < end and not is_cut_point(path[anchor]):
            anchor += 1
        if anchor >= end:
            return None
    cut = anchor
    while cut > start and path[cut - 1].kind in PULLABLE_KINDS:
        cut -= 1
    if is_turn_start(path[anchor]):
        return Cut(cut, -1, False, anchor, crossed)
    turn_start = find_turn_start(path, anchor - 1, start)
    return Cut(cut, turn_start, turn_start != -1, anchor, crossed)
