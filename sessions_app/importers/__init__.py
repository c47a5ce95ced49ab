"""Import pi, Claude Code and Codex CLI session files into the store.

One entry point for the `import_session` command and the dashboard's upload form:

    result = import_file("session.jsonl")                       # a path
    result = import_file(request.FILES["file"], filename=...)   # or any binary file object

The file is read line by line and written with bulk inserts in one transaction. Without
`skip_bad_lines` any problem fails the import with `ImportFailed` (file, line, problem) and
nothing is written; with it, unreadable lines are skipped, repairable ones are repaired, and
both are listed in the result. Which is which:

- **Unreadable lines** (skipped): malformed JSON, invalid UTF-8, longer than `max_line_bytes`,
  nested more than `formats.jsonl.MAX_DEPTH` levels, holding NaN, Infinity or a number no double
  holds (`1e400`), not an object; a pi entry without a type, a duplicate id, an id longer than the
  key column.
- **Repairable lines** (imported after the repair, which the warning names): a field of the
  wrong type (read as null or ""), a usage count that is not a whole number from 0 to
  `formats.fields.MAX_TOKENS` (the usage is left out, never read as 0), a stop reason longer than
  the column (left out), a pi compaction whose first kept entry is not an ancestor of it
  (missing, later, on another branch: it keeps nothing from before it, which is how pi reads
  such a file), a parent that is not in the file (the entry becomes a root), unknown types and
  roles (kept as opaque custom entries); in a Codex rollout, a field of the wrong type.
- **Always a warning, never an error**: lone surrogates and NUL characters, which SQLite and
  PostgreSQL do not store alike, are replaced by U+FFFD as the line is read; a bad timestamp (the
  previous one is used); a session name longer than the title column (cut); in a Codex rollout,
  unknown record and item types (kept as custom nodes: Codex adds types often), a call whose
  output never comes and an output whose call is not in the file.
- **Fatal whatever the mode**: an empty file, an unreadable first record (except for formats
  claude and codex, where it is a bad line like any other), a first line that is not a pi header
  (format pi), a pi header whose `version` is not an integer from 1 to 3, a first record that is
  not a Codex rollout record (format codex).

The store refuses the same values on both databases (`store.bulk_import`), so what SQLite
accepts PostgreSQL accepts too.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from django.db import transaction

from sessions_app import store
from sessions_app.formats import detect_format
from sessions_app.formats.jsonl import clean_text
from sessions_app.models import Session
from sessions_app.store.audits import audit_session
from sessions_app.store.bulk_import import chunked_import, discard_session, import_commit_seconds
from sessions_app.store.sqlite import deferred_checkpoint

from .claude import ClaudeImporter
from .codex import CodexImporter
from .errors import ImportFailed, LineProblem
from .file_lists import with_file_lists
from .lines import DEFAULT_MAX_LINE_BYTES, LineReader, Problems, Progress
from .pi import PiImporter
from .runs import ImportRuns
from .writer import TITLE_MAX, FormatImporter, parse_timestamp

__all__ = [
    "DEFAULT_MAX_LINE_BYTES",
    "FORMATS",
    "ImportFailed",
    "ImportResult",
    "LineProblem",
    "detect_format",
    "import_file",
]

FORMATS = ("auto", "pi", "claude", "codex")
_IMPORTERS: dict[str, type[FormatImporter]] = {
    "pi": PiImporter,
    "claude": ClaudeImporter,
    "codex": CodexImporter,
}
_PROBLEMS_KEPT = 100  # listed in Session.metadata for the dashboard; the result has them all


@dataclass
class ImportResult:
    session: Session
    node_count: int
    compactions: int
    skipped: list[LineProblem] = field(default_factory=list)  # lines not imported
    warnings: list[LineProblem] = field(default_factory=list)  # imported after a repair, or notes
    format: str = ""
    file: str = ""
    lines: int = 0
    bytes: int = 0
    events: int = 0  # Event rows for records that are not nodes (Claude Code and Codex metadata)
    agents: int = 0
    runs: int = 0  # the turns written as runs (importers/runs.py)
    carry: dict[str, Any] = field(default_factory=dict)  # FormatImporter.carry (`cutpoint watch`)
    seconds: float = 0.0


def project_dir(metadata: dict[str, Any]) -> str:
    """The directory an imported session's agent worked in, as the file records it (Claude Code
    and Codex: `cwd`; pi: its header's `cwd`); "" when it gives none."""
    cwd = metadata.get("cwd")
    header = metadata.get("header")
    if not isinstance(cwd, str) and isinstance(header, dict):
        cwd = header.get("cwd")
    return cwd[:1000] if isinstance(cwd, str) else ""


@contextlib.contextmanager
def _open(
    source: str | os.PathLike[str] | IO[bytes], filename: str | None
) -> Iterator[tuple[IO[bytes], str, int | None]]:
    if isinstance(source, str | os.PathLike):
        path = Path(source)
        name = filename or str(source)
        try:
            fh = path.open("rb")
        except OSError as exc:
            raise ImportFailed(
                [LineProblem(name, 1, f"cannot open the file: {exc.strerror or exc}")]
            ) from exc
        with fh:
            yield fh, name, os.fstat(fh.fileno()).st_size
        return
    name = filename or str(getattr(source, "name", "") or "<upload>")
    size = getattr(source, "size", None)
    yield source, name, size if isinstance(size, int) else None


def import_file(
    source: str | os.PathLike[str] | IO[bytes],
    *,
    format: str = "auto",
    title: str | None = None,
    skip_bad_lines: bool = False,
    filename: str | None = None,
    max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
    progress: Progress | None = None,
    progress_every: int = 8 * 1024 * 1024,
    files_beside: bool | None = None,
    path_beside: Path | None = None,
) -> ImportResult:
    """Import one session file (a path or a binary file object) as a new session.

    `format` is "pi", "claude", "codex" or "auto" (decided by the first non-blank line). `title` defaults
    to what the file names (pi: its session_info name), else the file name. `filename` names the
    file in messages and the default title (uploads). Lines longer than `max_line_bytes` are bad
    lines. `progress(bytes_read, total_bytes, lines)` is called every `progress_every` bytes.
    `files_beside`: also read the files a format keeps next to the session file (Claude Code's
    `<session>/subagents/`); by default only for a path imported under its own name, never for
    an upload (which may arrive as a temporary file, with `filename` naming the original).
    """
    if format not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}, not {format!r}")
    t0 = time.perf_counter()
    with _open(source, filename) as (fh, name, size):
        name = clean_text(name)  # a file name from an undecodable path: shown and stored
        problems = Problems(name, skip_bad_lines=skip_bad_lines)
        reader = LineReader(
            fh,
            name,
            max_line_bytes=max_line_bytes,
            total_bytes=size,
            progress=progress,
            progress_every=progress_every,
            warn=problems.warn,
        )
        first = next(iter(reader), None)
        if first is None:
            if reader.bytes_read == 0:
                problems.fatal(1, "the file is empty (0 bytes)")
            problems.fatal(1, f"the file has no records ({reader.lines} blank line(s))")
        n, obj, problem = first
        fmt = format
        first_record: tuple[int, dict[str, Any]] | None = None
        if obj is None:
            if fmt not in ("claude", "codex"):
                problems.fatal(n, f"{problem} (the first record must be readable to tell the format)")
            reader.push_back(first)  # a bad line like any other
        else:
            first_record = (n, obj)
        if obj is not None and fmt == "auto":
            detected = detect_format(obj)
            if detected is None:
                problems.fatal(
                    n,
                    "cannot tell the format: the first record is not a pi session header, a "
                    "Claude Code record or a Codex rollout record (pass the format explicitly)",
                )
            fmt = detected
        importer = _IMPORTERS[fmt](reader, problems)
        if files_beside is None:
            files_beside = isinstance(source, str | os.PathLike) and filename is None
        if files_beside and isinstance(source, str | os.PathLike):
            importer.path = Path(source)
        elif path_beside is not None:  # read from a copy, but the files beside it are at this path
            importer.path = path_beside
        title = clean_text(title) if title else title
        chunked = chunked_import()
        created: Session | None = None
        try:
            # SQLite commits a big import in chunks into a hidden session, so writers to other
            # sessions are not held up; elsewhere it is one transaction (docs/architecture.md).
            with deferred_checkpoint(), contextlib.nullcontext() if chunked else transaction.atomic():
                session = created = Session.all_objects.create(
                    title=(title or "")[:TITLE_MAX], source=fmt, importing=chunked
                )
                importer.start(session, first_record)
                nodes = importer.nodes()
                if not importer.compactions_list_files:
                    nodes = with_file_lists(nodes)
                runs = ImportRuns(session)
                nodes = runs.with_runs(nodes)
                try:
                    stats = store.import_entries(
                        session,
                        nodes,
                        active_key=importer.active_key,
                        commit_seconds=import_commit_seconds() if chunked else None,
                    )
                except store.StoreError as exc:  # what the store refuses (the checks above come first)
                    line = importer.lines.get(exc.key or "", reader.lines)
                    raise ImportFailed([LineProblem(name, line, str(exc))], skippable=False) from exc
                run_count = runs.finish()
                session.title = (title or importer.title or Path(name).stem or name)[:TITLE_MAX]
                session.metadata = {
                    "import": {
                        "format": fmt,
                        "file": name,
                        "bytes": reader.bytes_read,
                        "lines": reader.lines,
                        "nodes": stats.nodes,
                        "skipped": len(problems.skipped),
                        "warnings": len(problems.warnings),
                        "problems": [str(p) for p in (problems.skipped + problems.warnings)[:_PROBLEMS_KEPT]],
                        "imported_at": datetime.now(UTC).isoformat(),
                        **importer.metadata,
                    }
                }
                session.project = project_dir(importer.metadata)
                session.importing = False
                session.save(update_fields=["title", "metadata", "project", "importing", "updated_at"])
                if importer.last_activity is not None:
                    # The session's own last activity, not the import time (auto_now skipped).
                    session.updated_at = parse_timestamp(importer.last_activity)
                    Session.all_objects.filter(pk=session.pk).update(updated_at=session.updated_at)
        except BaseException:
            if chunked and created is not None:
                discard_session(created.pk)  # what the chunks committed goes again
            raise
    if stats.compactions:
        # The file's own compactions are audited like native ones, after the import committed:
        # an audit is derived data and never fails the import (store/audits.py).
        audit_session(session)
    return ImportResult(
        session=session,
        node_count=stats.nodes,
        compactions=stats.compactions,
        skipped=problems.skipped,
        warnings=problems.warnings,
        format=fmt,
        file=name,
        lines=reader.lines,
        bytes=reader.bytes_read,
        events=importer.events,
        agents=importer.agents,
        runs=run_count,
        seconds=time.perf_counter() - t0,
        carry=importer.carry(),
    )
