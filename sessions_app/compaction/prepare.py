"""Plan a compaction: what gets summarized, what is kept, and what the summarizer needs to know."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

from .boundary import Boundary, find_boundary
from .budget import context_tokens
from .context import is_valid_compaction
from .convert import to_llm
from .cut import find_cut_default, find_cut_pi
from .fileops import FileOps
from .messages import BRANCH_SUMMARY, COMPACTION, CUSTOM_MESSAGE, MESSAGE, Entry
from .settings import CompactionSettings
from .stored_digest import NO_DIGESTS, Digests
from .tokens import pi_tokens
from .tree import span

_MESSAGE_KINDS = frozenset({MESSAGE, CUSTOM_MESSAGE, BRANCH_SUMMARY})


def summary_messages(entries: list[Entry]) -> list[Entry]:
    """Entries of a span that become conversation messages for the summarizer (pi's
    getMessageFromEntryForCompaction: older compactions and settings contribute nothing)."""
    return [e for e in entries if e.kind in _MESSAGE_KINDS]


@dataclass(frozen=True, slots=True)
class NothingToDo:
    """`prepare` found nothing worth a model call; `reason` is shown to the user as is.

    `plan.plan` adds `explanation`, the reason with what would let a compaction run, and
    `largest_keep`, the largest keep_recent_tokens below the current one that would (None when no
    value would, or when nobody asked)."""

    reason: str
    code: Literal["empty", "already_compacted", "fits", "no_messages", "moved"]
    explanation: str = ""
    largest_keep: int | None = None


@dataclass(frozen=True, slots=True)
class Preparation:
    """A compaction plan. Spans are path slices: summarize + turn_prefix + kept = the boundary span."""

    boundary_start: str
    first_kept: str
    is_split_turn: bool
    turn_start: str | None
    summarize: list[Entry]  # [boundary_start, turn_start or first_kept)
    turn_prefix: list[Entry]  # [turn_start, first_kept) when the turn is split
    kept: list[Entry]  # [first_kept, end of path)
    tokens_before: int
    previous_summary: str | None
    read_files: list[str]
    modified_files: list[str]
    settings: CompactionSettings
    previous_compaction_index: int  # indices are positions on the path; -1 = none
    boundary_start_index: int
    first_kept_index: int
    turn_start_index: int
    kept_tokens: int  # what the kept part weighs in the walk's own estimate
    previous_details_from_hook: bool = field(default=False)
    # The store's digests of the path's entries, by key, when it loaded them (stored_digest.py):
    # file tracking, the summarizer's transcript and the retention walk read them.
    digests: Digests = field(default_factory=dict, repr=False, compare=False)

    @property
    def summarize_messages(self) -> list[Entry]:
        return summary_messages(self.summarize)

    @property
    def turn_prefix_messages(self) -> list[Entry]:
        return summary_messages(self.turn_prefix)

    @property
    def cut(self) -> PlannedCut:
        return PlannedCut(self.boundary_start, self.first_kept, self.turn_start)

    @property
    def history_end_index(self) -> int:
        return self.turn_start_index if self.is_split_turn else self.first_kept_index


def reaches_summary(entries: Iterable[Entry]) -> bool:
    """Something in `entries` would reach the summarizer (rule K7)."""
    return any(e.kind != COMPACTION and to_llm(e) is not None for e in entries)


@dataclass(frozen=True, slots=True)
class PlannedCut:
    """Where a plan cut the path, by key: a compaction task keeps it, so a fork that runs in
    another process rebuilds exactly the plan it was given instead of searching again
    (docs/architecture.md, "A compaction's data walk")."""

    boundary_start: str
    first_kept: str
    turn_start: str | None  # set when the cut splits a turn


def prepare(
    path: list[Entry],
    settings: CompactionSettings | None = None,
    *,
    cut: PlannedCut | None = None,
    digests: Digests = NO_DIGESTS,
) -> Preparation | NothingToDo:
    """Plan a compaction of `path` (root → leaf), or say why there is nothing to do.

    With `cut`, the plan is rebuilt at that cut (a task's stored plan) without searching for one.
    `plan.plan` is the same with an operator's choice of cut and refusals explained.
    """
    settings = settings or CompactionSettings()
    return nothing_at_end(path) or prepare_at(path, settings, find_boundary(path, settings), cut, digests)


def nothing_at_end(path: list[Entry]) -> NothingToDo | None:
    """What the end of the path alone says: nothing on it, or nothing new since a compaction."""
    if not path:
        return NothingToDo("nothing to compact: the path is empty", "empty")
    if path[-1].kind == COMPACTION:
        return NothingToDo(
            "already compacted: the last entry on the path is a compaction", "already_compacted"
        )
    return None


def prepare_at(
    path: list[Entry],
    settings: CompactionSettings,
    boundary: Boundary,
    cut: PlannedCut | None,
    digests: Digests = NO_DIGESTS,
) -> Preparation | NothingToDo:
    """`prepare` on a non-empty path whose boundary the caller found: searching for the cut (the
    keep-recent walk) or locating `cut`."""
    found = search_cut(path, settings, boundary.start) if cut is None else _locate(path, cut, boundary.start)
    if isinstance(found, NothingToDo):
        return found
    return _preparation(
        path,
        settings,
        boundary.previous_compaction,
        boundary.start,
        *found,
        digests,
        edit_free_from=boundary.edit_free_from,
    )


def search_cut(
    path: list[Entry], settings: CompactionSettings, start: int
) -> tuple[int, int, bool] | NothingToDo:
    """(first kept, turn start or -1, split) from the keep-recent walk on the span from `start`."""
    n = len(path)
    keep = settings.keep_recent_tokens
    if settings.is_pi:
        cut = find_cut_pi(path, start, n, keep)
        if cut.first_kept >= n:  # boundary beyond the end: pi finds no entry to keep and gives up
            return NothingToDo("nothing to compact: no entry after the previous compaction", "empty")
        return cut.first_kept, cut.turn_start, cut.is_split_turn
    dcut = find_cut_default(path, start, n, keep)
    if dcut is None:
        span_tokens = sum(e.tokens for e in path[start:] if e.kind != COMPACTION)
        return NothingToDo(
            f"nothing to compact: the {span_tokens} tokens since the boundary fit within "
            f"keep_recent_tokens ({keep})",
            "fits",
        )
    first_kept, turn_start, split = dcut.first_kept, dcut.turn_start, dcut.is_split_turn
    # `span`: the answer is usually the span's first entry, and a slice would copy the whole span
    # (most of the path on a long session) to find it.
    if split and not reaches_summary(span(path, start, turn_start)):
        # No history before the split turn: summarize its prefix as the history itself, so
        # the previous summary is merged and one request suffices (docs/pi-compat.md).
        turn_start, split = -1, False
    if not reaches_summary(span(path, start, first_kept)):
        return NothingToDo(
            f"nothing to compact: no message before the cut point {path[first_kept].key}",
            "no_messages",
        )
    return first_kept, turn_start, split


def _locate(path: list[Entry], cut: PlannedCut, start: int) -> tuple[int, int, bool] | NothingToDo:
    """The indices of a stored cut on `path`; NothingToDo when the path no longer matches it."""
    where = {e.key: i for i, e in enumerate(path)}
    first_kept = where.get(cut.first_kept, -1)
    turn_start = where.get(cut.turn_start, -1) if cut.turn_start is not None else -1
    if (
        start >= len(path)
        or path[start].key != cut.boundary_start
        or first_kept < start
        or (cut.turn_start is not None and not start <= turn_start < first_kept)
    ):
        return NothingToDo("nothing to compact: the planned cut is no longer on this path", "moved")
    return first_kept, turn_start, cut.turn_start is not None


def _applied(path: list[Entry], settings: CompactionSettings, previous_compaction: int) -> int | None:
    """The index of the compaction that shapes the context, when the boundary's tells it (so the
    context's size is found without a second search): in default mode it is the boundary's; in
    pi mode the boundary's is the last compaction whatever it holds, the applied one if valid."""
    if not settings.is_pi or previous_compaction < 0 or is_valid_compaction(path[previous_compaction]):
        return previous_compaction
    return None


def _preparation(
    path: list[Entry],
    settings: CompactionSettings,
    previous_compaction: int,
    start: int,
    first_kept: int,
    turn_start: int,
    split: bool,
    digests: Digests = NO_DIGESTS,
    *,
    edit_free_from: int | None = None,
) -> Preparation:
    pi = settings.is_pi
    history_end = turn_start if split else first_kept
    summarize = path[start:history_end]
    turn_prefix = path[turn_start:first_kept] if split else []
    kept = path[first_kept:]

    prev = path[previous_compaction] if previous_compaction >= 0 else None
    ops = FileOps()
    from_hook = False
    previous_summary: str | None = None
    if prev is not None:
        s = prev.data.get("summary")
        previous_summary = s if isinstance(s, str) else None
        from_hook = bool(prev.data.get("from_hook"))
        if not from_hook:
            ops.add_details(prev.data.get("details"))
    ops.add_entries(summarize, digests)
    ops.add_entries(turn_prefix, digests)
    read_files, modified_files = ops.lists(utf16_order=pi)

    if pi:
        # The cut walk estimated (and cached) most of these: the cache is read inline.
        kept_tokens = 0
        for e in kept:
            if e.kind == MESSAGE:
                t = e.pi_tokens
                kept_tokens += pi_tokens(e) if t is None else t
    else:
        kept_tokens = sum(e.tokens for e in kept if e.kind != COMPACTION)

    return Preparation(
        boundary_start=path[start].key,
        first_kept=path[first_kept].key,
        is_split_turn=split,
        turn_start=path[turn_start].key if split else None,
        summarize=summarize,
        turn_prefix=turn_prefix,
        kept=kept,
        tokens_before=context_tokens(
            path,
            settings,
            applied=_applied(path, settings, previous_compaction),
            edit_free_from=edit_free_from,
        ).tokens,
        previous_summary=previous_summary,
        read_files=read_files,
        modified_files=modified_files,
        settings=settings,
        previous_compaction_index=previous_compaction,
        boundary_start_index=start,
        first_kept_index=first_kept,
        turn_start_index=turn_start if split else -1,
        kept_tokens=kept_tokens,
        previous_details_from_hook=from_hook,
        digests=digests,
    )
