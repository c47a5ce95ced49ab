"""OpenTelemetry GenAI spans into the store: OTLP files (`import_session --format otlp`) and the
OTLP/HTTP receiver's requests (docs/telemetry.md, "Receiving spans").

- `import_otlp(path or file)`: an OTLP/JSON file (one `ExportTraceServiceRequest` per line, as
  the OTLP file exporter writes, or one request in the whole file) or a protobuf request. Every
  conversation in it becomes a new session, written with the bulk import; all of them in one
  transaction, so a failed import writes nothing. Problems name the file, the line and the span.
- `ingest(spans, user=...)`: the receiver's side. A conversation seen before (the same
  `gen_ai.conversation.id`, else trace id) is continued in its session — appended from where
  its last request left it (the rebuild's state is kept in `Session.metadata["otlp"]`); a new one
  becomes a new session. One transaction per request.

Finding a conversation's session must stay cheap however many sessions there are. Without a
column for it (a schema change), the session registers an Event whose `type` carries a digest of
the conversation key: `Event.type` is indexed, so the lookup is one index probe.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any, Final

import orjson
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import connection, transaction

from sessions_app import store
from sessions_app.compaction.vocabulary import Source
from sessions_app.formats import jsonl
from sessions_app.formats.otel import schema
from sessions_app.formats.otel.conversations import Conversation, group
from sessions_app.formats.otel.reader import (
    NotOtlp,
    SpanProblem,
    SpanRecord,
    is_otlp_json,
    read_json_request,
    read_protobuf,
)
from sessions_app.formats.otel.rebuild import Rebuilder
from sessions_app.formats.otel.results import Built, Problem, State
from sessions_app.models import Event, Node, Session
from sessions_app.store.audits import audit_session
from sessions_app.store.import_appends import append_imported

from .errors import ImportFailed, LineProblem
from .lines import DEFAULT_MAX_LINE_BYTES, LineReader, Problems
from .writer import TITLE_MAX

FORMAT: Final = Source.OTLP.value
CONVERSATION_EVENT: Final = "otlp_conversation"  # + ":" + digest of the conversation key
_PROBLEMS_KEPT: Final = 100
_PEEK: Final = 1 << 20


@dataclass
class OtlpResult:
    """What an import or a receiver request did."""

    sessions: list[Session] = field(default_factory=list)
    created: list[int] = field(default_factory=list)
    appended: list[int] = field(default_factory=list)
    spans: int = 0  # spans read
    not_genai: int = 0  # spans without GenAI attributes, skipped
    duplicates: int = 0  # spans already imported (a retried export), skipped
    nodes: int = 0
    compactions: int = 0
    skipped: list[LineProblem] = field(default_factory=list)  # spans left out (unreadable)
    warnings: list[LineProblem] = field(default_factory=list)  # imported after a repair
    file: str = ""
    bytes: int = 0
    lines: int = 0
    seconds: float = 0.0


# --- reading a file --------------------------------------------------------------------------


@contextlib.contextmanager
def _open(
    source: str | os.PathLike[str] | IO[bytes], filename: str | None
) -> Iterator[tuple[IO[bytes], str]]:
    if isinstance(source, str | os.PathLike):
        name = filename or str(source)
        try:
            fh = Path(source).open("rb")  # noqa: SIM115 - closed by the `with` below
        except OSError as exc:
            raise ImportFailed(
                [LineProblem(name, 1, f"cannot open the file: {exc.strerror or exc}")]
            ) from exc
        with fh:
            yield fh, name
        return
    yield source, filename or str(getattr(source, "name", "") or "<upload>")


def _first_line_is_object(head: bytes) -> bool:
    line = head.split(b"\n", 1)[0].strip().removeprefix(b"\xef\xbb\xbf")
    try:
        return isinstance(orjson.loads(line), dict)
    except orjson.JSONDecodeError:
        return False


def read_spans(
    fh: IO[bytes], name: str, problems: Problems, *, max_line_bytes: int = DEFAULT_MAX_LINE_BYTES
) -> tuple[list[SpanRecord], int, int]:
    """Every readable span of an OTLP file, with the bytes and lines read. JSON lines, one JSON
    document (pretty-printed, say) or protobuf, told apart by the first bytes."""
    head = fh.read(_PEEK)
    if not head.strip():
        problems.fatal(1, "the file is empty" if not head else "the file holds only blank space")
    start = head.lstrip().removeprefix(b"\xef\xbb\xbf")[:1]
    spans: list[SpanRecord] = []
    found: list[SpanProblem] = []
    if start != b"{":
        data = head + fh.read()
        try:
            spans = read_protobuf(data, found)
        except NotOtlp as exc:
            problems.fatal(1, f"{exc}; an OTLP file is OTLP/JSON or a protobuf ExportTraceServiceRequest")
        for p in found:
            problems.bad(p.line, str(p))
        return spans, len(data), 1
    fh.seek(0)
    if not _first_line_is_object(head):  # one JSON document over several lines
        data = fh.read()
        try:
            request = jsonl.loads(data)
        except jsonl.BadJson as exc:
            problems.fatal(1, f"malformed JSON: {exc.reason}")
        if not isinstance(request, dict) or not is_otlp_json(request):
            problems.fatal(1, "not an OTLP/JSON ExportTraceServiceRequest (no resourceSpans)")
        request = jsonl.scrub(request)[0]
        spans = list(read_json_request(request, 1, found))
        for p in found:
            problems.bad(p.line, str(p))
        return spans, len(data), data.count(b"\n") + 1
    reader = LineReader(fh, name, max_line_bytes=max_line_bytes, warn=problems.warn)
    for n, obj, problem in reader:
        if problems.full:
            break
        if obj is None:
            problems.bad(n, problem or "unreadable line")
            continue
        if not is_otlp_json(obj):
            problems.bad(n, "not an OTLP/JSON ExportTraceServiceRequest (no resourceSpans)")
            continue
        spans.extend(read_json_request(obj, n, found))
        for p in found:
            problems.bad(p.line, str(p))
        found.clear()
    return spans, reader.bytes_read, reader.lines


def sniff(first_record: dict[str, Any]) -> bool:
    """Whether a file's first JSON record is OTLP/JSON (what `import_session --format auto`
    checks before the other formats)."""
    return is_otlp_json(first_record)


def sniff_file(path: str | os.PathLike[str]) -> bool:
    """Whether the file at `path` starts with an OTLP/JSON record."""
    try:
        with Path(path).open("rb") as fh:
            return sniff_head(fh.read(_PEEK))
    except OSError:
        return False


def sniff_head(head: bytes) -> bool:
    """Whether a file starting with `head` (its first bytes) is OTLP/JSON."""
    line = head.split(b"\n", 1)[0].strip().removeprefix(b"\xef\xbb\xbf")
    if line.startswith(b"{") and (b'"resourceSpans"' in head or b'"resource_spans"' in head):
        return True
    try:
        obj = orjson.loads(line)
    except orjson.JSONDecodeError:
        return False
    return isinstance(obj, dict) and is_otlp_json(obj)


# --- writing ---------------------------------------------------------------------------------


def _import_nodes(built: list[Built]) -> list[store.ImportNode]:
    out = []
    for b in built:
        comp = None
        if b.compaction is not None:
            c = b.compaction
            comp = store.ImportCompaction(
                first_kept=c.first_kept,
                summary=c.summary,
                tokens_before=c.tokens_before,
                details=c.details,
                from_hook=c.from_hook,
                reason=c.reason,
                tokens_after=c.tokens_after,
            )
        out.append(store.ImportNode(b.entry, compaction=comp))
    return out


def _metadata(conv: Conversation, rb: Rebuilder) -> dict[str, Any]:
    return {
        "conversation": conv.key,
        "conversation_id": conv.conversation_id,
        "state": rb.state.to_dict(),
        "system": (rb.system or "")[:10_000],
        "models": sorted(rb.models),
        "agents": sorted(rb.agents),
        "spans": dict(rb.counts),
    }


def _merge_counts(meta: dict[str, Any], rb: Rebuilder) -> None:
    counts: dict[str, Any] = meta["spans"] if isinstance(meta.get("spans"), dict) else {}
    meta["spans"] = {k: int(counts.get(k) or 0) + v for k, v in rb.counts.items()}
    meta["models"] = sorted(set(meta.get("models") or ()) | rb.models)
    meta["agents"] = sorted(set(meta.get("agents") or ()) | rb.agents)
    meta["state"] = rb.state.to_dict()


def _report(problems: Problems, rebuilt: Iterable[Problem]) -> None:
    for p in rebuilt:
        problems.repaired(p.line, f"{p.where}: {p.problem}", p.repair)


def _store_failed(exc: store.StoreError, built: list[Built], name: str) -> ImportFailed:
    line = next((b.line for b in built if b.entry.key == exc.key), 1)
    where = next((b.where for b in built if b.entry.key == exc.key), "")
    text = f"{where}: {exc}" if where else str(exc)
    return ImportFailed([LineProblem(name, line, text)], skippable=False)


def import_otlp(
    source: str | os.PathLike[str] | IO[bytes],
    *,
    title: str | None = None,
    skip_bad: bool = False,
    filename: str | None = None,
    max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
) -> OtlpResult:
    """Import an OTLP file: each conversation in it becomes a new session (source `otlp`).

    Without `skip_bad` any problem fails the import with ImportFailed (file, line, span,
    problem) and nothing is written; with it, unreadable spans are left out and repairable ones
    imported, both listed in the result. `title` names the sessions (numbered when the file holds
    several conversations); by default a title a span gives, else the first user message.
    """
    t0 = time.perf_counter()
    result = OtlpResult()
    with _open(source, filename) as (fh, name):
        name = jsonl.clean_text(name)
        result.file = name
        problems = Problems(name, skip_bad_lines=skip_bad)
        spans, result.bytes, result.lines = read_spans(fh, name, problems, max_line_bytes=max_line_bytes)
    result.spans = len(spans)
    conversations, result.not_genai = group(spans)
    if not conversations:
        problems.raise_if_failed()
        problems.fatal(
            result.lines,
            f"no GenAI spans in the file ({result.spans} span(s) read, {result.not_genai} without "
            "gen_ai.* attributes)",
        )
    rebuilt = []
    for conv in conversations:
        rb = Rebuilder()
        rb.feed(conv.spans)
        _report(problems, rb.problems)
        result.duplicates += rb.counts["duplicate"]
        rebuilt.append((conv, rb))
    problems.raise_if_failed()
    stem = Path(name).stem or name
    with transaction.atomic():
        for i, (conv, rb) in enumerate(rebuilt):
            if not rb.built:
                continue
            numbered = f"{title} ({i + 1})" if title and len(rebuilt) > 1 else title
            label = numbered or rb.title_or(stem)
            session = Session.all_objects.create(title=jsonl.clean_text(label)[:TITLE_MAX], source=FORMAT)
            try:
                stats = store.import_entries(session, _import_nodes(rb.built), active_key=rb.state.active)
            except store.StoreError as exc:
                raise _store_failed(exc, rb.built, name) from exc
            session.metadata = {
                "otlp": _metadata(conv, rb),
                "import": {
                    "format": FORMAT,
                    "file": name,
                    "bytes": result.bytes,
                    "lines": result.lines,
                    "nodes": stats.nodes,
                    "skipped": len(problems.skipped),
                    "warnings": len(problems.warnings),
                    "problems": [str(p) for p in (problems.skipped + problems.warnings)[:_PROBLEMS_KEPT]],
                    "imported_at": datetime.now(UTC).isoformat(),
                },
            }
            session.save(update_fields=["metadata", "updated_at"])
            result.sessions.append(session)
            result.created.append(session.pk)
            result.nodes += stats.nodes
            result.compactions += stats.compactions
    for session in result.sessions:
        if session.pk in result.created and Node.objects.filter(session=session, kind="compaction").exists():
            audit_session(session)  # derived data, after the commit (as import_file does)
    result.skipped, result.warnings = problems.skipped, problems.warnings
    result.seconds = time.perf_counter() - t0
    return result


# --- the receiver ----------------------------------------------------------------------------


def conversation_event_type(key: str) -> str:
    """The indexed `Event.type` that finds a conversation's session (58 characters)."""
    return f"{CONVERSATION_EVENT}:{hashlib.sha256(key.encode()).hexdigest()[:40]}"


def find_session(key: str) -> Session | None:
    """The session a conversation key was received into, if any (one index probe)."""
    event = (
        Event.objects.filter(type=conversation_event_type(key), session__isnull=False)
        .select_related("session")
        .order_by("-id")
        .first()
    )
    if event is None or event.session is None or event.payload.get("conversation") != key:
        return None
    return event.session


def _lock(key: str) -> None:
    """Two requests of one new conversation must not both create a session. SQLite's write
    transactions are IMMEDIATE here (dashboard/settings.py), so they are serial already;
    PostgreSQL takes an advisory lock on the key until the transaction ends."""
    if connection.vendor == "postgresql":
        number = int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big", signed=True)
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [number])


def _candidate_keys(conv: Conversation, state: State) -> set[str]:
    """Keys of the session this request's spans could name or collide with, to look up."""
    keys: set[str] = {k for _, k in state.history}
    keys.update(k for k in (state.active, state.base) if k)
    for span in conv.spans:
        a = span.attributes
        keys.add(span.span_id)
        for name in (schema.NODE_PARENT, schema.COMPACTION_NODE, schema.COMPACTION_FIRST_KEPT_NODE):
            key = a.text(name)
            if key is not None:
                keys.add(key)
        keys.update(a.texts(schema.NODE_KEYS) or ())
    return keys


class IngestFailed(Exception):
    """The request's spans could not be stored; nothing was written."""


def ingest(spans: list[SpanRecord], *, user: AbstractBaseUser | AnonymousUser | None = None) -> OtlpResult:
    """Store a receiver request's spans: continue known conversations, start new ones. One
    transaction: on IngestFailed nothing was written."""
    t0 = time.perf_counter()
    result = OtlpResult(spans=len(spans))
    conversations, result.not_genai = group(spans)
    who = str(user.get_username()) if user is not None and user.is_authenticated else ""
    with transaction.atomic():
        for conv in conversations:
            _lock(conv.key)
            session = find_session(conv.key)
            if session is None:
                _new_session(conv, who, result)
            else:
                _continue(session, conv, result)
    result.seconds = time.perf_counter() - t0
    return result


def _problems_of(rb: Rebuilder, result: OtlpResult) -> None:
    result.warnings.extend(
        LineProblem("request", p.line, f"{p.where}: {p.problem}; {p.repair}") for p in rb.problems
    )
    result.duplicates += rb.counts["duplicate"]


def _new_session(conv: Conversation, who: str, result: OtlpResult) -> None:
    rb = Rebuilder()
    rb.feed(conv.spans)
    _problems_of(rb, result)
    if not rb.built:
        return  # spans that make no node (an agent span alone): nothing to keep yet
    default = f"OpenTelemetry {conv.conversation_id or conv.key.removeprefix('trace:')[:16]}"
    session = Session.all_objects.create(
        title=jsonl.clean_text(rb.title_or(default))[:TITLE_MAX], source=FORMAT
    )
    try:
        stats = store.import_entries(session, _import_nodes(rb.built), active_key=rb.state.active)
    except store.StoreError as exc:
        raise IngestFailed(str(exc)) from exc
    meta = _metadata(conv, rb)
    meta["received_by"] = who
    meta["received_at"] = datetime.now(UTC).isoformat()
    session.metadata = {"otlp": meta}
    session.save(update_fields=["metadata", "updated_at"])
    Event.objects.create(
        session=session,
        type=conversation_event_type(conv.key),
        payload={"conversation": conv.key, "received_by": who},
    )
    result.sessions.append(session)
    result.created.append(session.pk)
    result.nodes += stats.nodes
    result.compactions += stats.compactions


def _continue(session: Session, conv: Conversation, result: OtlpResult) -> None:
    session = Session.all_objects.select_for_update().get(pk=session.pk)
    meta = session.metadata.get("otlp") if isinstance(session.metadata.get("otlp"), dict) else {}
    state = State.from_dict(meta.get("state"))
    candidates = _candidate_keys(conv, state)
    known = set(Node.objects.filter(session_id=session.pk, key__in=candidates).values_list("key", flat=True))
    rb = Rebuilder(state, known)
    rb.feed(conv.spans)
    _problems_of(rb, result)
    if rb.built:
        try:
            stats = append_imported(session, _import_nodes(rb.built))
        except store.StoreError as exc:
            raise IngestFailed(str(exc)) from exc
        result.nodes += stats.nodes
        result.compactions += stats.compactions
    _merge_counts(meta, rb)
    session.metadata = {**session.metadata, "otlp": meta}
    session.save(update_fields=["metadata", "updated_at"])
    result.sessions.append(session)
    result.appended.append(session.pk)


def benchmark_import(source: str | os.PathLike[str]) -> dict[str, float]:
    """Import an OTLP file and measure it (for bench scripts): seconds, MB/s and spans/s over the
    whole import (reading, rebuilding, writing)."""
    result = import_otlp(source)
    seconds = max(result.seconds, 1e-9)
    return {
        "seconds": seconds,
        "bytes": float(result.bytes),
        "spans": float(result.spans),
        "nodes": float(result.nodes),
        "mb_per_s": result.bytes / seconds / 1e6,
        "spans_per_s": result.spans / seconds,
    }
