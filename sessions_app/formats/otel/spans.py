"""Span descriptions, the writer's output: plain data that `sdk.py` replays through the official
SDK (docs/telemetry.md, "Ids and times"), with their ids and times.

Ids are derived from the session's seed and the run / node keys (SHA-256), so exporting the same
session again gives the same trace and span ids, and the live exporter agrees with the file.
Times are nanoseconds since the epoch, from the nodes' ISO 8601 timestamps.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from typing import Final

AttrValue = str | bool | int | float | Sequence[str] | Sequence[int] | Sequence[float] | Sequence[bool]


class SpanKind(StrEnum):
    """The span kinds the writer uses (`sdk.py` maps them to the SDK's)."""

    INTERNAL = "internal"  # in-process work: the agent, its tools, a compaction
    CLIENT = "client"  # a call to a model provider


@dataclass(slots=True)
class SpanSpec:
    """One span to start and end: its ids and parent, name, kind, times and attributes."""

    trace_id: int  # 128 bits
    span_id: int  # 64 bits
    parent_id: int | None
    name: str
    kind: SpanKind
    start_ns: int
    end_ns: int
    attributes: dict[str, AttrValue]
    error: str | None = None  # set: the span's status is ERROR with this description


@dataclass(slots=True)
class TraceSpec:
    """One trace: its spans, root first."""

    trace_id: int
    spans: list[SpanSpec]  # the root first


# --- ids and times ---------------------------------------------------------------------------


def _hash_id(seed: str, *parts_: object, bits: int) -> int:
    digest = hashlib.sha256("/".join([seed, *map(str, parts_)]).encode()).digest()
    value = int.from_bytes(digest[: bits // 8], "big")
    return value or 1  # an all-zero id is invalid in OTLP


def trace_id(seed: str, *parts_: object) -> int:
    return _hash_id(seed, *parts_, bits=128)


def span_id(seed: str, *parts_: object) -> int:
    return _hash_id(seed, *parts_, bits=64)


_EPOCH: Final = datetime(1970, 1, 1, tzinfo=UTC)


def to_ns(iso: str | None) -> int | None:
    """Nanoseconds since the epoch of an ISO 8601 time (naive = UTC), None when absent or unreadable."""
    if not iso:
        return None
    try:
        dt = datetime.fromisoformat(iso)
    except ValueError:
        return None
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=UTC)
    delta = dt - _EPOCH
    return (delta.days * 86_400 + delta.seconds) * 1_000_000_000 + delta.microseconds * 1000
