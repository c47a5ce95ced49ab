"""Bring one watched session file's session up to date with the file (issue 33, `cutpoint watch`).

- Only complete lines are read: a last line still being written waits for its newline.
- A new file is imported as any file is (`importers.import_file`, bulk), then recorded in
  `WatchedFile`. Should the process die in between, the next start finds the session by the path
  its import metadata names and adopts it.
- A known file that only grew is read from a line a little before its stored position
  (watch/resume.py): the nodes of the new lines the session does not hold yet are appended
  (`store.import_appends.append_imported`), with the events of the new lines, and
  `WatchedFile.position` and `resume` move in the same transaction: killed at any moment, a
  restart finds either all or nothing, and the keys make a second reading add nothing twice.
- Any other change (and a resumed reading that cannot stand on its own) reads the file whole and
  appends the nodes whose keys the session does not hold yet, under the same transaction.
- A file rewritten in place (pi rewrites v1/v2 files as v3, with new ids), truncated or replaced:
  its nodes are matched to the stored ones in order by what they hold (kind, role, content), so
  the same messages under new ids are recognized, and only what is really new is appended.
- Claude Code writes one assistant message as several lines and Codex reports a call's usage on a
  later line: a trailing assistant node waits until the file has been quiet for
  `CUTPOINT_WATCH_SETTLE_SECONDS`, so it is stored whole.
- A file that cannot be read is reported once and left alone until it changes.
"""

from __future__ import annotations

import hashlib
import logging
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.db import transaction

from sessions_app import conf
from sessions_app.compaction.messages import ASSISTANT, MESSAGE
from sessions_app.compaction.vocabulary import WatchOutcome as Outcome
from sessions_app.importers import ImportFailed, import_file
from sessions_app.importers.reparse import Parsed, parse
from sessions_app.models import Agent, Event, Node, Session, WatchedFile
from sessions_app.store.bulk_import import ImportNode
from sessions_app.store.errors import StoreError
from sessions_app.store.import_appends import append_imported
from sessions_app.watch import resume

log = logging.getLogger(__name__)
HEAD_BYTES = 4096


@dataclass(frozen=True, slots=True)
class Result:
    outcome: Outcome
    session_id: int | None = None
    added: int = 0
    held: bool = False  # a node waits: sync again after the settle time
    error: str = ""


@dataclass(frozen=True, slots=True)
class _Snapshot:
    data: bytes  # complete lines only
    size: int
    inode: int
    mtime_ns: int
    head: str
    sub: int  # the size of the sub-agent transcripts in `size`


def _read(path: Path) -> _Snapshot | None:
    try:
        with path.open("rb") as fh:
            st = os.fstat(fh.fileno())
            raw = fh.read()
    except FileNotFoundError:
        return None
    end = raw.rfind(b"\n") + 1
    data = raw[:end]
    # Claude Code's sub-agent transcripts are read with the file: a change to one is a change to
    # it (a failure is retried, a settling tail waits) though the file itself did not change.
    sub_size, sub_mtime = resume.subagents(path)
    size, mtime = st.st_size + sub_size, max(st.st_mtime_ns, sub_mtime)
    return _Snapshot(data, size, st.st_ino, mtime, _ends(data, len(data)), sub_size)


def _ends(data: bytes, upto: int) -> str:
    """A hash of the first and last 4 KiB of `data[:upto]`: the same for a file that only grew
    past `upto` since, different (almost surely) for one rewritten or truncated."""
    part = data[:upto]
    return hashlib.sha256(part[:HEAD_BYTES] + b"\0" + part[-HEAD_BYTES:]).hexdigest()


def _settled(snap: _Snapshot | resume.Tail, settle: float | None) -> bool:
    if settle is None:
        settle = float(conf.get("CUTPOINT_WATCH_SETTLE_SECONDS"))
    return (time.time_ns() - snap.mtime_ns) / 1e9 >= settle


def _fingerprint(kind: str, role: str | None, content: Any) -> tuple[str, str, str]:
    import orjson

    return kind, role or "", orjson.dumps(content, option=orjson.OPT_SORT_KEYS).decode()


def _adopt(path: Path, watched: WatchedFile) -> WatchedFile:
    """A file whose import was started (its row has no session yet) may have been imported all
    the same, the process killed before the row was updated: find that session by the path its
    import metadata names. Only rows left pending are looked up, so a scan costs no search."""
    session = (
        Session.objects.filter(metadata__import__file=str(path), metadata__import__watched=True)
        .order_by("-id")
        .first()
    )
    if session is not None:
        fmt = str(session.metadata["import"].get("format", ""))
        WatchedFile.objects.filter(pk=watched.pk).update(session=session, format=fmt, position=0, held=True)
        watched.refresh_from_db()
    return watched


def sync_file(path: Path, *, settle: float | None = None) -> Result:
    """See the module docstring. `settle`: how long the file must have been quiet for a trailing
    assistant node to be stored (default CUTPOINT_WATCH_SETTLE_SECONDS; 0: a one-off pass)."""
    path = Path(path)
    watched = WatchedFile.objects.filter(path=str(path)).first()
    if watched is not None and watched.session_id is not None and not watched.error:
        tail = resume.read_tail(path, watched)
        if tail is not None:
            done = _append_tail(path, tail, watched, settle)
            if done is not None:
                return done
    snap = _read(path)
    if watched is not None and watched.session_id is None and not watched.error:
        watched = _adopt(path, watched)
    if snap is None:
        return Result(Outcome.GONE, watched.session_id if watched else None)
    unchanged_since = watched is not None and (watched.size, watched.mtime_ns) == (snap.size, snap.mtime_ns)
    if watched is not None and watched.error and unchanged_since:
        return Result(Outcome.SKIPPED, watched.session_id, error=watched.error)
    if not snap.data:
        return Result(Outcome.WAITING)
    if watched is None or watched.session_id is None:
        return _import_new(path, snap, watched, settle)
    if (
        not watched.held
        and not watched.error
        and watched.position == len(snap.data)
        and watched.size == snap.size  # sub-agent transcripts included
        and watched.head == snap.head
        and watched.inode == snap.inode
    ):
        return Result(Outcome.UNCHANGED, watched.session_id)
    return _append(path, snap, watched, settle)


def _fail(path: Path, snap: _Snapshot, watched: WatchedFile | None, exc: Exception) -> Result:
    message = str(exc)[:2000]
    fields = {"error": message, "size": snap.size, "mtime_ns": snap.mtime_ns}
    if watched is None:
        watched = WatchedFile.objects.create(path=str(path), **fields)
    else:
        WatchedFile.objects.filter(pk=watched.pk).update(**fields)
    log.warning("watch: %s cannot be read, skipped until it changes: %s", path, message)
    return Result(Outcome.FAILED, watched.session_id, error=message)


def _import_new(path: Path, snap: _Snapshot, watched: WatchedFile | None, settle: float | None) -> Result:
    if not _settled(snap, settle):
        return Result(Outcome.WAITING, held=True)
    import io

    if watched is None:  # marks the import as started (see _adopt)
        watched = WatchedFile.objects.create(path=str(path))
    buf = io.BytesIO(snap.data)
    try:
        result = import_file(buf, filename=str(path), path_beside=path)
    except ImportFailed as exc:
        return _fail(path, snap, watched, exc)
    session = result.session
    meta = dict(session.metadata)
    meta["import"] = {**meta.get("import", {}), "watched": True}
    Session.all_objects.filter(pk=session.pk).update(metadata=meta)
    fields = {
        "session": session,
        "format": result.format,
        "position": len(snap.data),
        "head": snap.head,
        "inode": snap.inode,
        "size": snap.size,
        "mtime_ns": snap.mtime_ns,
        "held": False,
        "error": "",
        "resume": resume.state_after(
            snap.data, 0, 1, {}, None, snap.data.count(b"\n"), result.carry, snap.sub
        ),
    }
    WatchedFile.objects.filter(pk=watched.pk).update(**fields)
    return Result(Outcome.IMPORTED, session.pk, added=result.node_count)


def _agents(session: Session, parsed: Parsed) -> dict[int, int]:
    """Scratch agent id -> the real session's agent with the same name, role and metadata."""
    mapping: dict[int, int] = {}
    existing = list(Agent.objects.filter(session=session))
    for scratch_id in sorted(parsed.agents):
        spec = parsed.agents[scratch_id]
        found = next(
            (
                a
                for a in existing
                if a.definition_name == spec.definition_name
                and a.role == spec.role
                and a.metadata == spec.metadata
            ),
            None,
        )
        if found is None:
            parent = mapping.get(spec.parent) if spec.parent is not None else None
            found = Agent.objects.create(
                session=session,
                parent_id=parent,
                definition_name=spec.definition_name,
                role=spec.role,
                metadata=spec.metadata,
            )
            existing.append(found)
        mapping[scratch_id] = found.pk
    return mapping


def _new_nodes(session: Session, parsed: Parsed) -> list[ImportNode]:
    """The parsed nodes the session does not hold, parents renamed to the stored keys they match.

    Stored nodes the file no longer names by their key (a file rewritten with new ids: pi's
    v1 -> v3 migration) are matched to the file's unknown nodes in order, by what they hold; only
    then is stored content read, and only theirs."""
    keys = set(Node.objects.filter(session=session).values_list("key", flat=True))
    named = {item.entry.key for item in parsed.nodes}
    unnamed = keys - named
    rename: dict[str, str] = {}
    if unnamed and not named <= keys:
        queue: dict[tuple[str, str, str], list[str]] = {}
        rows = (
            Node.objects.filter(session=session, key__in=unnamed)
            .order_by("seq")
            .values_list("key", "kind", "role", "content")
        )
        for key, kind, role, content in rows:
            queue.setdefault(_fingerprint(kind, role, content), []).append(key)
        for item in parsed.nodes:
            e = item.entry
            if e.key in keys:
                continue
            candidates = queue.get(_fingerprint(e.kind, e.role, e.content))
            if candidates:
                rename[e.key] = candidates.pop(0)
    new = []
    for item in parsed.nodes:
        e = item.entry
        if e.key in keys or e.key in rename:
            continue
        if e.parent is not None and e.parent in rename:
            e.parent = rename[e.parent]
        new.append(item)
    return new


def _append(path: Path, snap: _Snapshot, watched: WatchedFile, settle: float | None) -> Result:
    assert watched.session_id is not None  # sync_file imports a file without a session instead
    session = Session.all_objects.get(pk=watched.session_id)
    try:
        parsed = parse(snap.data, str(path), format=watched.format or "auto", path=path)
    except ImportFailed as exc:
        return _fail(path, snap, watched, exc)
    nodes = parsed.nodes
    last_key = nodes[-1].entry.key if nodes else None
    held = _holds(nodes, snap, settle)
    if held:
        nodes = nodes[:-1]  # it may still grow (module docstring)
    parsed.nodes = nodes
    done = snap.data.count(b"\n")
    if held and last_key is not None:
        done = parsed.lines.get(last_key, done + 1) - 1
    state = resume.state_after(snap.data, 0, 1, parsed.lines, last_key, done, parsed.carry, snap.sub)
    added = 0
    try:
        with transaction.atomic():
            new = _new_nodes(session, parsed)
            if new:
                agents = _agents(session, parsed)
                for item in new:
                    item.agent_id = agents.get(item.agent_id) if item.agent_id is not None else None
                added = append_imported(session, new).nodes
            WatchedFile.objects.filter(pk=watched.pk).update(
                position=len(snap.data),
                head=snap.head,
                inode=snap.inode,
                size=snap.size,
                mtime_ns=snap.mtime_ns,
                held=held,
                error="",
                format=parsed.format,
                resume=state,
            )
            if added:
                _publish(session, new[-1].entry.key)
    except StoreError as exc:
        return _fail(path, snap, watched, exc)
    outcome = Outcome.APPENDED if added else Outcome.UNCHANGED
    return Result(outcome, session.pk, added=added, held=held)


def _holds(nodes: list[ImportNode], snap: _Snapshot | resume.Tail, settle: float | None) -> bool:
    """A trailing assistant node waits for the file to settle (module docstring)."""
    return bool(
        nodes
        and nodes[-1].entry.kind == MESSAGE
        and nodes[-1].entry.role == ASSISTANT
        and not _settled(snap, settle)
    )


def _append_tail(path: Path, tail: resume.Tail, watched: WatchedFile, settle: float | None) -> Result | None:
    """Append what a file that only grew added (watch/resume.py). None: read it whole instead
    (its tail does not read on its own, or a node it names a parent that is not stored)."""
    assert watched.session_id is not None
    if tail.position == watched.position and not watched.held:  # no new complete line
        if tail.size != watched.size:
            WatchedFile.objects.filter(pk=watched.pk).update(size=tail.size, mtime_ns=tail.mtime_ns)
        return Result(Outcome.UNCHANGED, watched.session_id)
    session = Session.all_objects.get(pk=watched.session_id)
    name, fmt = str(path), watched.format
    carry = watched.resume.get("carry") or {}

    def parsed_to(end: int) -> Parsed:
        """The tail's lines up to `end`, read by the importer resumed where the file stood."""
        return parse(
            tail.data[:end], name, format=fmt, resume_line=tail.resume_line, trust_parents=True, carry=carry
        )

    try:
        parsed = parsed_to(tail.end)
    except ImportFailed:
        return None
    done = int(watched.resume.get("done", 0))
    last_key = parsed.nodes[-1].entry.key if parsed.nodes else None
    # Nodes of lines stored already are skipped, and so are those a fresh importer state made up
    # from the re-read lines (a Codex model "change" at the first turn context it sees).
    nodes = [n for n in parsed.nodes if parsed.lines.get(n.entry.key, done + 1) > done]
    held = _holds(nodes, tail, settle)
    if held:
        nodes = nodes[:-1]
    stored = set(
        Node.objects.filter(session=session, key__in=[n.entry.key for n in nodes]).values_list(
            "key", flat=True
        )
    )
    new = [n for n in nodes if n.entry.key not in stored]
    events = parsed.events
    if events and tail.old_end > tail.lines_from:
        try:  # the events of the lines read before: the same importer, stopped at the old position
            before = parsed_to(tail.old_end)
        except ImportFailed:
            return None
        events = events[len(before.events) :]
    new_done = tail.last_line
    if held and last_key is not None:
        new_done = parsed.lines.get(last_key, new_done + 1) - 1
    state = resume.state_after(
        tail.lines,
        tail.offset,
        tail.line,
        parsed.lines,
        last_key,
        new_done,
        parsed.carry,
        int(watched.resume.get("sub", 0)),
    )
    added = 0
    try:
        with transaction.atomic():
            agents = _agents(session, parsed) if new or events else {}
            if new:
                for item in new:
                    item.agent_id = agents.get(item.agent_id) if item.agent_id is not None else None
                added = append_imported(session, new).nodes
            if events:
                Event.objects.bulk_create(
                    Event(
                        session=session,
                        agent_id=agents.get(e.agent) if e.agent is not None else None,
                        type=e.type,
                        payload=e.payload,
                        timestamp=e.timestamp,
                    )
                    for e in events
                )
            WatchedFile.objects.filter(pk=watched.pk).update(
                position=tail.position,
                head=tail.head,
                inode=tail.inode,
                size=tail.size,
                mtime_ns=tail.mtime_ns,
                held=held,
                error="",
                resume=state,
            )
            if added:
                _publish(session, new[-1].entry.key)
    except StoreError:
        return None  # a parent the re-read lines did not reach: the whole file decides
    outcome = Outcome.APPENDED if added else Outcome.UNCHANGED
    return Result(outcome, session.pk, added=added, held=held)


def _publish(session: Session, key: str) -> None:
    """Open pages of the session refresh (runtime/live.py), once the nodes are committed."""
    from sessions_app.compaction.vocabulary import LiveKind
    from sessions_app.runtime import live

    if not live.reaches_browsers():
        return
    node = Node.objects.filter(session=session, key=key).select_related("parent").first()
    if node is not None:
        parent_key = node.parent.key if node.parent else None
        live.publish_on_commit(session.pk, LiveKind.NODE_APPENDED, live.node_appended(node, parent_key))
