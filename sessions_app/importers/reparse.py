"""Read a session file's nodes without keeping anything (`cutpoint watch`, sessions_app/watch/).

The format importers write as they read: the session's agents (Claude Code's sub-agents among
them) and the Event rows of records that are not nodes. To see what a file holds now, the importer
runs against a scratch session inside a savepoint that is rolled back: the nodes come back as
plain data, with the agents they belong to described (name, role, metadata) so the caller can
find or create the same agents in the real session.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.db import transaction

from sessions_app.formats import detect_format
from sessions_app.models import Agent, Event, Session
from sessions_app.store.bulk_import import ImportNode

from .file_lists import with_file_lists
from .lines import LineReader, Problems


@dataclass(frozen=True, slots=True)
class AgentSpec:
    definition_name: str
    role: str
    metadata: dict[str, Any]
    parent: int | None  # the scratch id of its parent agent


@dataclass(frozen=True, slots=True)
class EventSpec:  # an Event row the importer wrote for a record that is no node
    agent: int | None  # scratch agent id
    type: str
    payload: Any
    timestamp: Any


@dataclass
class Parsed:
    format: str
    nodes: list[ImportNode]
    agents: dict[int, AgentSpec] = field(default_factory=dict)  # scratch agent id -> what it is
    events: list[EventSpec] = field(default_factory=list)
    lines: dict[str, int] = field(default_factory=dict)  # node key -> its line in the file
    carry: dict[str, Any] = field(default_factory=dict)  # the importer's `carry()` at the end


def parse(
    data: bytes,
    name: str,
    *,
    format: str = "auto",
    path: Path | None = None,
    resume_line: int | None = None,
    trust_parents: bool = False,
    carry: dict[str, Any] | None = None,
) -> Parsed:
    """The nodes `data` (whole lines of a session file) holds. Raises ImportFailed as an import
    would; writes nothing.

    `resume_line`: `data` is the file's first line followed by the file's lines from that line
    number on (a growing file read from near where it was left, sessions_app/watch/resume.py);
    `trust_parents`: a parent not read is taken to be stored already (the store refuses the node
    if it is not), so nodes are not held back waiting for it."""
    from . import _IMPORTERS  # the registry lives with import_file

    problems = Problems(name, skip_bad_lines=False)
    reader = LineReader(io.BytesIO(data), name, total_bytes=len(data), warn=problems.warn)
    first = next(iter(reader), None)
    if first is None:
        problems.fatal(1, "the file has no records")
    n, obj, problem = first
    fmt = format
    first_record = None
    if obj is None:
        if fmt not in ("claude", "codex"):
            problems.fatal(n, f"{problem} (the first record must be readable to tell the format)")
        reader.push_back(first)
    else:
        first_record = (n, obj)
    if obj is not None and fmt == "auto":
        detected = detect_format(obj)
        if detected is None:
            problems.fatal(n, "cannot tell the format of the first record")
        fmt = detected
    if resume_line is not None:
        reader.lines = resume_line - 1  # the next line read is numbered as in the file
    importer = _IMPORTERS[fmt](reader, problems)
    importer.path = path
    try:
        with transaction.atomic():
            scratch = Session.all_objects.create(title="", source=fmt, importing=True)
            importer.start(scratch, first_record)
            if trust_parents:
                importer.order.seen = _AllSeen()
            if carry:
                importer.carry_on(carry)
            nodes = importer.nodes()
            if not importer.compactions_list_files:
                nodes = with_file_lists(nodes)
            result = list(nodes)
            agents = {
                a.pk: AgentSpec(a.definition_name, a.role, dict(a.metadata or {}), a.parent_id)
                for a in Agent.objects.filter(session=scratch)
            }
            events = [
                EventSpec(agent, type_, payload, ts)
                for agent, type_, payload, ts in Event.objects.filter(session=scratch)
                .order_by("id")
                .values_list("agent_id", "type", "payload", "timestamp")
            ]
            raise _Discard(Parsed(fmt, result, agents, events, dict(importer.lines), importer.carry()))
    except _Discard as done:
        return done.parsed


class _Discard(Exception):  # raised to leave the atomic block, so that it rolls back
    def __init__(self, parsed: Parsed) -> None:
        super().__init__("discard")
        self.parsed = parsed


class _AllSeen(set[str]):
    """Every key counts as released: a resumed reading starts after its parents."""

    def __contains__(self, key: object) -> bool:
        return True
