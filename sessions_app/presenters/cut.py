"""The cut-point view: the engine's `plan` of the active path with chosen settings, drawn to scale.

The span since the boundary becomes token-proportional segments on a 0–1000 axis; the engine's
plan colours them (summarized / split-turn prefix / kept). Nothing is written here: the view's
settings (keep-recent, reserve, window, threshold) are what its "Compact with these settings"
and "Compact up to here" actions send (sessions_app/views/actions.py).

The view needs only the path from the latest compaction's first kept node to the leaf (what a
context build reads, `store.context_path_entries`): `prepare` never looks further back. `offset`
says where that slice starts on the whole path, so positions read the same either way. What it
renders is capped whatever the path's length: the segments and ticks by the axis' resolution, the
rows by the constants below, with counts for what is folded.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sessions_app.compaction import (
    CompactionSettings,
    Entry,
    NothingToDo,
    Preparation,
    is_cut_point,
    resolve_threshold,
    should_compact,
)
from sessions_app.compaction import plan as planning
from sessions_app.compaction.messages import COMPACTION
from sessions_app.compaction.stored_digest import NO_DIGESTS, Digests
from sessions_app.compaction.tokens import pi_tokens
from sessions_app.presenters.content import preview
from sessions_app.selectors import nodes
from sessions_app.store import load_bodies

if TYPE_CHECKING:
    from sessions_app.models import Session

AXIS = 1000.0
NEAR = 6  # entries listed on each side of the cut
TAIL = 4  # the path's last entries, listed after the rows around the cut (the kept tail's end)
MAX_TICKS = 500  # cut-point ticks on the axis at most (closer ones are merged)
SUMMARIZE_HEAD = 25  # entries listed from the start of the summarized span …
SUMMARIZE_TAIL = 10  # … and from its end
PREFIX_ROWS = 40  # entries listed of a split turn's prefix
FILES_SHOWN = 50  # read / modified files listed, each


@dataclass(frozen=True, slots=True)
class Segment:
    x: float
    w: float
    region: str  # summarize | prefix | kept | previous (before the boundary: not drawn)
    keys: str  # first key (… last key) for the tooltip
    tokens: int
    count: int


@dataclass(frozen=True, slots=True)
class Tick:
    x: float
    key: str
    from_end: int  # tokens kept if the cut were here
    can_cut: bool  # something before it would be summarized: "Compact up to here" may pick it


@dataclass(frozen=True, slots=True)
class NearRow:
    index: int
    key: str
    label: str
    tokens: int
    from_end: int  # tokens from this entry to the end of the path
    cut_point: bool
    region: str
    is_cut: bool
    is_turn_start: bool
    preview: str
    can_cut: bool = False  # a valid first kept node for "Compact up to here"


@dataclass(slots=True)
class CutView:
    settings: CompactionSettings
    window: int
    threshold: int
    tokens_before: int
    would_trigger: bool
    path_length: int
    boundary_index: int
    span_tokens: int
    threshold_source: str = ""  # where the threshold comes from, in words
    threshold_input: str = ""  # the threshold as the form shows it ("" = derived from the window)
    segments: list[Segment] = field(default_factory=list)
    ticks: list[Tick] = field(default_factory=list)  # valid cut points
    keep_x: float = 0.0  # where keep_recent_tokens, counted from the end, begins
    cut_x: float | None = None
    turn_x: float | None = None
    nothing: str | None = None
    prep: Preparation | None = None
    near: list[NearRow] = field(default_factory=list)
    summarize_tokens: int = 0
    prefix_tokens: int = 0
    kept_tokens: int = 0
    summarize_preview: list[tuple[str, str, int, str]] = field(default_factory=list)
    summarize_hidden: int = 0
    summarize_fold_at: int = 0  # the listed entry before which the hidden ones are counted
    prefix_preview: list[tuple[str, str, int, str]] = field(default_factory=list)
    prefix_hidden: int = 0
    near_folded: int = 0  # entries between the rows around the cut and `tail`
    tail: list[NearRow] = field(default_factory=list)  # the last entries of the path
    read_files: list[str] = field(default_factory=list)  # the plan's, at most FILES_SHOWN
    read_hidden: int = 0
    modified_files: list[str] = field(default_factory=list)
    modified_hidden: int = 0

    @property
    def keep_w(self) -> float:
        return AXIS - self.keep_x

    @property
    def threshold_above_window(self) -> bool:
        return self.threshold >= self.window

    @property
    def over_window(self) -> bool:
        return self.tokens_before > self.window


def threshold_input(settings: CompactionSettings) -> str:
    """An explicit threshold as the form's field shows it: tokens, or a percentage."""
    if settings.threshold_tokens is not None:
        return str(settings.threshold_tokens)
    if settings.threshold_percent is not None:
        return f"{settings.threshold_percent:g}%"
    return ""


def threshold_source(settings: CompactionSettings) -> str:
    """Which rule of docs/compaction.md (T3) gives the threshold, in words."""
    if settings.threshold_tokens is not None:
        return "typed in (wins over the window)"
    if settings.threshold_percent is not None:
        return f"{settings.threshold_percent:g}% of the window"
    if settings.is_pi:
        return "window − reserve"
    return "window − max(15% of the window, reserve)"


def nothing_text(explanation: str) -> str:
    """Why there is nothing to compact, once: without the "nothing to compact" that the page or
    the notice already says, capitalized."""
    text = explanation.removeprefix("nothing to compact: ").removeprefix("already compacted: ").strip()
    return text[:1].upper() + text[1:] if text else explanation


def _label(e: Entry) -> str:
    return (e.role or "") if e.kind == "message" else e.kind


def _weight(e: Entry, pi: bool) -> int:
    if e.kind == COMPACTION:
        return 0
    return pi_tokens(e) if pi else e.tokens


def _plan_rows(entries: list[Entry], pi: bool) -> list[tuple[str, str, int, str]]:
    return [
        (e.key, _label(e), _weight(e, pi), preview(e.kind, e.role, e.content, e.data, 120)) for e in entries
    ]


@dataclass(frozen=True, slots=True)
class _Scale:
    """The span since the boundary laid on the axis: each entry's weight, drawn width and left
    edge, the tokens from it to the end, and where the plan cuts it (indices into `span`)."""

    span: list[Entry]
    weights: list[int]
    widths: list[float]  # weights with a floor, so an entry of 0 tokens stays visible/clickable
    scale: float  # axis units per width unit
    xs: list[float]  # the left edge of each entry on the axis
    suffix: list[int]  # tokens from each entry to the end of the path
    fk: int  # first kept (0 with nothing to compact: the whole span is kept)
    ts: int  # the split turn's start, -1 when the turn is not split
    pickable: list[bool]  # "Compact up to here" may pick it as the first kept node

    def region(self, i: int) -> str:
        if i >= self.fk:
            return "kept"
        if self.ts >= 0 and i >= self.ts:
            return "prefix"
        return "summarize"


def cut_view(
    path: list[Entry],
    settings: CompactionSettings,
    window: int,
    offset: int = 0,
    digests: Digests | None = None,
) -> CutView:
    """The plan for `path` (the whole active path, or its tail from the latest compaction's first
    kept node: the same plan) drawn to scale. `offset`: the position of `path[0]` on the whole
    path, so that positions and lengths are those of the whole path. `digests`: the store's,
    beside a path it loaded (`store.context_path_with_digests`): the plan reads the summarized
    span's file calls from them instead of every entry's content."""
    result = planning.plan(path, settings, digests=digests or NO_DIGESTS)
    prep = result if isinstance(result, Preparation) else None
    tokens_before, start = _before(path, settings, prep)
    view = CutView(
        settings=settings,
        window=window,
        threshold=resolve_threshold(window, settings),
        tokens_before=tokens_before,
        would_trigger=should_compact(tokens_before, window, settings),
        path_length=offset + len(path),
        boundary_index=offset + start,
        span_tokens=0,
        threshold_source=threshold_source(settings),
        threshold_input=threshold_input(settings),
        prep=prep,
        nothing=nothing_text(result.explanation) if isinstance(result, NothingToDo) else None,
    )
    span = path[start:]
    weights = [_weight(e, settings.is_pi) for e in span]
    view.span_tokens = sum(weights)
    if not span:
        return view
    scale = _lay_out(path, start, weights, prep)
    # The entries listed below the bar, their bodies read in one query (a path the store loaded
    # reads a body when used: store/stored_entries.py); the rest are drawn from stored figures.
    load_bodies(_listed(prep, scale))
    view.segments = _segments(scale)
    view.ticks = _ticks(scale)
    view.keep_x = _keep_x(scale, settings.keep_recent_tokens)
    if prep is not None:
        _show_plan(view, prep, scale, settings.is_pi)
    else:
        view.kept_tokens = view.span_tokens
    _list_rows(view, scale, offset + start)
    return view


def _before(path: list[Entry], settings: CompactionSettings, prep: Preparation | None) -> tuple[int, int]:
    """(the context's tokens before compacting, the boundary's index in `path`): the plan's, or
    counted afresh when there is nothing to compact."""
    if prep is not None:
        return prep.tokens_before, prep.boundary_start_index
    from sessions_app.compaction import context_tokens
    from sessions_app.compaction.boundary import find_boundary

    return context_tokens(path, settings).tokens, find_boundary(path, settings).start if path else 0


def _lay_out(path: list[Entry], start: int, weights: list[int], prep: Preparation | None) -> _Scale:
    total = sum(weights)
    floor = total / AXIS * 0.6 if total else 1.0
    widths = [max(w, floor) for w in weights]
    scale = AXIS / sum(widths)
    xs: list[float] = []
    x = 0.0
    for w in widths:
        xs.append(x)
        x += w * scale
    suffix = [0] * len(weights)
    from_end = 0
    for idx in range(len(weights) - 1, -1, -1):
        from_end += weights[idx]
        suffix[idx] = from_end
    return _Scale(
        span=path[start:],
        weights=weights,
        widths=widths,
        scale=scale,
        xs=xs,
        suffix=suffix,
        fk=prep.first_kept_index - start if prep else 0,
        ts=prep.turn_start_index - start if prep and prep.is_split_turn else -1,
        pickable=planning.pickable(path, start),
    )


def _segments(s: _Scale) -> list[Segment]:
    """Neighbours of one region merged until a segment is at least ~1.5 units wide."""
    segs: list[Segment] = []
    n = len(s.span)
    i = 0
    while i < n:
        r = s.region(i)
        j = i
        w = 0.0
        tok = 0
        while j < n and s.region(j) == r and (j == i or w < 1.5):
            w += s.widths[j] * s.scale
            tok += s.weights[j]
            j += 1
        keys = s.span[i].key if j - i == 1 else f"{s.span[i].key} … {s.span[j - 1].key}"
        segs.append(Segment(round(s.xs[i], 2), round(w, 2), r, keys, tok, j - i))
        i = j
    return segs


def _ticks(s: _Scale) -> list[Tick]:
    """The valid cut points, one tick per 1/MAX_TICKS of the axis at most."""
    ticks: list[Tick] = []
    seen: set[int] = set()
    for idx, e in enumerate(s.span):
        if is_cut_point(e):
            px = round(s.xs[idx] * MAX_TICKS / AXIS)
            if px not in seen:
                seen.add(px)
                ticks.append(Tick(round(s.xs[idx], 2), e.key, s.suffix[idx], s.pickable[idx]))
    return ticks


def _keep_x(s: _Scale, keep: int) -> float:
    """Where on the axis the last `keep` tokens begin (walking from the end)."""
    acc = 0
    for idx in range(len(s.span) - 1, -1, -1):
        acc += s.weights[idx]
        if acc >= keep:
            frac = (acc - keep) / s.weights[idx] if s.weights[idx] else 0.0
            return round(s.xs[idx] + s.widths[idx] * s.scale * frac, 2)
    return 0.0


def _show_plan(view: CutView, prep: Preparation, s: _Scale, pi: bool) -> None:
    """The plan's cut on the axis, its token split and the entries and files it summarizes."""
    fk, ts, weights = s.fk, s.ts, s.weights
    view.cut_x = round(s.xs[fk], 2)
    view.turn_x = round(s.xs[ts], 2) if ts >= 0 else None
    view.summarize_tokens = sum(weights[: ts if ts >= 0 else fk])
    view.prefix_tokens = sum(weights[ts:fk]) if ts >= 0 else 0
    view.kept_tokens = sum(weights[fk:])
    summarized = prep.summarize
    if _folds(summarized):
        view.summarize_hidden = len(summarized) - SUMMARIZE_HEAD - SUMMARIZE_TAIL
        view.summarize_fold_at = SUMMARIZE_HEAD
        rows = _plan_rows(summarized[:SUMMARIZE_HEAD], pi) + _plan_rows(summarized[-SUMMARIZE_TAIL:], pi)
    else:
        rows = _plan_rows(summarized, pi)
    view.summarize_preview = rows
    view.prefix_preview = _plan_rows(prep.turn_prefix[:PREFIX_ROWS], pi)
    view.prefix_hidden = max(0, len(prep.turn_prefix) - PREFIX_ROWS)
    view.read_files = list(prep.read_files[:FILES_SHOWN])
    view.read_hidden = max(0, len(prep.read_files) - FILES_SHOWN)
    view.modified_files = list(prep.modified_files[:FILES_SHOWN])
    view.modified_hidden = max(0, len(prep.modified_files) - FILES_SHOWN)


def _list_rows(view: CutView, s: _Scale, first_index: int) -> None:
    """The entries around the cut (or the end, when nothing would be cut), then the path's last
    entries, with a count for what lies between. `first_index`: `span[0]`'s on the whole path."""

    def row(idx: int) -> NearRow:
        e = s.span[idx]
        return NearRow(
            index=first_index + idx,
            key=e.key,
            label=_label(e),
            tokens=s.weights[idx],
            from_end=s.suffix[idx],
            cut_point=is_cut_point(e),
            region=s.region(idx),
            is_cut=view.prep is not None and idx == s.fk,
            is_turn_start=idx == s.ts,
            preview=preview(e.kind, e.role, e.content, e.data, 90),
            can_cut=s.pickable[idx],
        )

    near, tail = _row_ranges(s, view.prep is not None)
    view.near = [row(idx) for idx in near]
    view.near_folded = tail.start - near.stop
    view.tail = [row(idx) for idx in tail]


def _row_ranges(s: _Scale, planned: bool) -> tuple[range, range]:
    """The indices into `span` of the rows around the cut (or the end, when nothing would be
    cut) and of the path's last entries after them."""
    n = len(s.span)
    centre = s.fk if planned else n - 1
    near_end = min(n, centre + NEAR + 1)
    return range(max(0, centre - NEAR), near_end), range(max(near_end, n - TAIL), n)


def _folds(summarized: list[Entry]) -> bool:
    return len(summarized) > SUMMARIZE_HEAD + SUMMARIZE_TAIL


def _listed(prep: Preparation | None, s: _Scale) -> list[Entry]:
    """The entries whose content the view shows (a preview each): the rows and the plan's lists."""
    near, tail = _row_ranges(s, prep is not None)
    listed = [s.span[i] for i in (*near, *tail)]
    if prep is not None:
        summarized = prep.summarize
        if _folds(summarized):
            listed += summarized[:SUMMARIZE_HEAD] + summarized[-SUMMARIZE_TAIL:]
        else:
            listed += summarized
        listed += prep.turn_prefix[:PREFIX_ROWS]
    return listed


def path_offset(session: Session, path: list[Entry]) -> int:
    """Where `path[0]` stands on the session's whole path: its depth (a root has depth 0)."""
    if not path:
        return 0
    return nodes.node_depth(session.pk, path[0].key) or 0


def parse_settings(
    params: Any, base: CompactionSettings, window: int
) -> tuple[CompactionSettings, int, list[str]]:
    """Settings from the view's form (keep, reserve, window, threshold, compat), GET or POST; bad
    values are reported and ignored (the session's are used instead).

    `threshold` is a token count or a percentage of the window ("75%"); an empty field derives the
    threshold from the window (docs/compaction.md, rule T3); without the field the session's own
    threshold is used."""
    errors: list[str] = []

    def number(name: str, default: int, lo: int, hi: int) -> int:
        raw = str(params.get(name, "") or "").strip().replace(",", "").replace("_", "")
        if not raw:
            return default
        try:
            value = int(raw)
        except ValueError:
            errors.append(f"{name} must be a whole number")
            return default
        if not lo <= value <= hi:
            errors.append(f"{name} must be between {lo:,} and {hi:,}")
            return default
        return value

    keep = number("keep", base.keep_recent_tokens, 0, 10_000_000)
    reserve = number("reserve", base.reserve_tokens, 0, 10_000_000)
    win = number("window", window, 1000, 100_000_000)
    compat = str(params.get("compat") or base.compat)
    if compat not in ("default", "pi"):
        errors.append("compat must be default or pi")
        compat = base.compat
    threshold_tokens, threshold_percent = base.threshold_tokens, base.threshold_percent
    if "threshold" in params:
        threshold_tokens, threshold_percent = _threshold(params.get("threshold"), base, errors)
    settings = CompactionSettings(
        enabled=base.enabled,
        reserve_tokens=reserve,
        keep_recent_tokens=keep,
        threshold_tokens=threshold_tokens,
        threshold_percent=threshold_percent,
        compat=compat,  # type: ignore[arg-type]
        strategy=base.strategy,
        carry_over=base.carry_over,
    )
    return settings, win, errors


def _threshold(value: Any, base: CompactionSettings, errors: list[str]) -> tuple[int | None, float | None]:
    """(threshold_tokens, threshold_percent) from the form's threshold field."""
    raw = str(value or "").strip().replace(",", "").replace("_", "").replace(" ", "")
    if not raw:
        return None, None
    if raw.endswith("%"):
        try:
            percent = float(raw[:-1])
        except ValueError:
            percent = -1.0
        if not 0 < percent <= 100:  # also refuses nan and inf
            errors.append("threshold must be a percentage above 0% and at most 100%")
            return base.threshold_tokens, base.threshold_percent
        return None, percent
    try:
        tokens = int(raw)
    except ValueError:
        errors.append("threshold must be a whole number of tokens or a percentage such as 80%")
        return base.threshold_tokens, base.threshold_percent
    if not 1 <= tokens <= 100_000_000:
        errors.append("threshold must be between 1 and 100,000,000 tokens")
        return base.threshold_tokens, base.threshold_percent
    return tokens, None
