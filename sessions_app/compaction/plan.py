"""Plan a compaction: the one place that decides where a compaction cuts (docs/compaction.md,
rules K1–K7), for every caller — a threshold crossed, a recovery, an operator's "Compact now" or
"Compact up to here", a retry of a stored task.

`plan(path, settings)` searches for the cut with the keep-recent walk; `first_kept` takes an
operator's chosen first kept node instead (refused with `InvalidCut` when it cannot be one);
`cut` rebuilds a task's stored cut. The boundary is found once per plan. When there is nothing
to do, the `NothingToDo` says why in words an operator can act on and which keep-recent value
would let a compaction run.
"""

from __future__ import annotations

from dataclasses import replace

from .boundary import Boundary, find_boundary
from .cut import PULLABLE_KINDS, find_turn_start, is_cut_point, is_turn_start
from .messages import COMPACTION, MESSAGE, Entry
from .prepare import (
    NothingToDo,
    PlannedCut,
    Preparation,
    nothing_at_end,
    prepare_at,
    reaches_summary,
    search_cut,
)
from .settings import CompactionSettings
from .stored_digest import NO_DIGESTS, Digests
from .tokens import pi_tokens
from .validate import first_kept_problems


class InvalidCut(ValueError):
    """The node an operator picked cannot be the first kept node; `reason` says why.
    `off_path`: it is not in the span a new compaction may summarize at all."""

    def __init__(self, reason: str, *, off_path: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.off_path = off_path


def plan(
    path: list[Entry],
    settings: CompactionSettings | None = None,
    first_kept: str | None = None,
    *,
    cut: PlannedCut | None = None,
    digests: Digests = NO_DIGESTS,
) -> Preparation | NothingToDo:
    """Plan a compaction of `path` (root → leaf): where it cuts and what it summarizes, or why
    there is nothing to do (explained). Raises InvalidCut for a `first_kept` that cannot be one.
    `digests`: the store's, beside the path it loaded (the plan keeps them for the summarizer)."""
    settings = settings or CompactionSettings()
    boundary = find_boundary(path, settings)
    if first_kept is not None:
        cut = chosen_cut(path, settings, boundary, first_kept)
    result = nothing_at_end(path) or prepare_at(path, settings, boundary, cut, digests)
    if isinstance(result, NothingToDo):
        return _explained(path, settings, boundary, result)
    return result


# --- an operator's cut ----------------------------------------------------------------------------


def cut_point_problem(path: list[Entry], settings: CompactionSettings, boundary: Boundary, index: int) -> str:
    """Why `path[index]` cannot be the first kept node of a compaction of `path` ("" = it can).

    Checked like a payload's `first_kept` (rule V1), and more strictly: it must be a valid cut
    point (K3) after the boundary start (K6) with something before it that reaches the summarizer
    (K7)."""
    entry = path[index]
    problems = [
        p.removeprefix("first_kept: ")
        for p in first_kept_problems(path, entry.key, settings, start=boundary.start)
    ]
    if problems:
        if not is_cut_point(entry):
            problems.append("the kept part starts at a user, assistant, bash or custom message (rule K3)")
        return "; ".join(problems)
    if not is_cut_point(entry):
        what = entry.role if entry.kind == MESSAGE else entry.kind
        return (
            f"{entry.key!r} is a {what} node, which is not a valid cut point (rule K3): the kept part "
            "starts at a user, assistant, bash or custom message"
        )
    if not reaches_summary(path[boundary.start : index]):
        return (
            f"nothing before {entry.key!r} would reach the summarizer: it is at the start of the "
            "stretch a new compaction may summarize; pick a later node"
        )
    return ""


def chosen_cut(path: list[Entry], settings: CompactionSettings, boundary: Boundary, key: str) -> PlannedCut:
    """The cut when an operator picks node `key` as the first kept node. Settings entries right
    before it come along into the kept part (rule K4), and a node in the middle of a turn splits
    it (K5). Raises InvalidCut with a reason an operator can act on."""
    index = next((i for i, e in enumerate(path) if e.key == key), -1)
    if index < 0:
        raise InvalidCut(
            f"node {key!r} is not in the part of the active path a new compaction may summarize: it "
            "is on another branch or was already summarized by an earlier compaction",
            off_path=True,
        )
    problem = cut_point_problem(path, settings, boundary, index)
    if problem:
        raise InvalidCut(f"node {key!r} cannot be the first kept node: {problem}")
    start = boundary.start
    first = index
    while first > start and path[first - 1].kind in PULLABLE_KINDS:
        first -= 1
    turn_start = -1
    if not is_turn_start(path[index]):
        found = find_turn_start(path, index - 1, start)
        # Nothing before the turn reaches the summarizer: the prefix is the history (rule K5).
        if found != -1 and reaches_summary(path[start:found]):
            turn_start = found
    return PlannedCut(path[start].key, path[first].key, path[turn_start].key if turn_start >= 0 else None)


def pickable(path: list[Entry], start: int) -> list[bool]:
    """For each entry of the span `path[start:]`, whether an operator may pick it as the first
    kept node (what `cut_point_problem` accepts, found in one pass for a whole view): a valid cut
    point (K3) with something before it in the span that reaches the summarizer (K7). Nothing may
    be picked on a path that ends with a compaction: there is nothing new to summarize."""
    span = path[start:]
    if not span or span[-1].kind == COMPACTION:
        return [False] * len(span)
    first = next((i for i, e in enumerate(span) if reaches_summary([e])), len(span))
    return [first < i and is_cut_point(e) for i, e in enumerate(span)]


# --- nothing to do, said with what would help -----------------------------------------------------


def largest_keep(path: list[Entry], settings: CompactionSettings, boundary: Boundary) -> int | None:
    """The largest keep_recent_tokens below the current one with which the keep-recent walk finds
    something to summarize, or None when no value does (it only helps to keep less)."""
    start = boundary.start

    def plans(keep: int) -> bool:
        return not isinstance(
            search_cut(path, replace(settings, keep_recent_tokens=keep), start), NothingToDo
        )

    if start >= len(path) or not plans(0):
        return None
    lo, hi = 0, settings.keep_recent_tokens  # plans(lo); the current value does not
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if plans(mid):
            lo = mid
        else:
            hi = mid
    return lo


def _explained(
    path: list[Entry], settings: CompactionSettings, boundary: Boundary, nothing: NothingToDo
) -> NothingToDo:
    """The engine's "nothing to do", said with the setting that would allow a compaction."""
    keep = settings.keep_recent_tokens
    if nothing.code == "already_compacted":
        return replace(
            nothing,
            explanation=(
                "already compacted: the last node on the active path is already a compaction, so "
                "there is nothing new to summarize; no setting changes that — continue the session first"
            ),
        )
    if nothing.code not in ("fits", "no_messages"):
        return replace(nothing, explanation=nothing.reason)
    if nothing.code == "fits":
        span = sum(
            (pi_tokens(e) if settings.is_pi else e.tokens)
            for e in path[boundary.start :]
            if e.kind != COMPACTION
        )
        since = "since the last compaction" if boundary.previous_compaction >= 0 else "on the active path"
        said = f"the {span:,} tokens {since} fit within keep_recent_tokens ({keep:,})"
    else:
        said = (
            f"{nothing.reason.removeprefix('nothing to compact: ')}: keep_recent_tokens ({keep:,}) "
            "keeps everything that would be summarized"
        )
    lower = largest_keep(path, settings, boundary)
    if lower is None:
        helps = (
            "no keep-recent value helps: there is no message before the newest valid cut point "
            "to summarize yet"
        )
    else:
        helps = f"lower keep-recent to {lower:,} or less to compact"
    return replace(nothing, explanation=f"nothing to compact: {said}; {helps}", largest_keep=lower)
