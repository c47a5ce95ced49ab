"""Artifacts (docs/compaction.md, rule S1): large tool results live in files; the message keeps a
preview and a reference.

Files are content-addressed: `ARTIFACT_ROOT/<session_id>/<sha256>.<ext>`, written atomically, so the
same output stored twice is one file (and two `Artifact` rows, one per tool result).
`Artifact.path` is relative to `ARTIFACT_ROOT`.
"""

from __future__ import annotations

import hashlib
import mimetypes
import os
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Final

from django.conf import settings

from sessions_app import conf
from sessions_app.models import Artifact
from sessions_app.runtime.tools.base import ToolContext, ToolResult

PREVIEW_LINES: Final = 12  # head and tail each
PREVIEW_LINE_CHARS: Final = 300
_EXTENSIONS: Final = {"text/plain": "txt", "application/json": "json", "text/markdown": "md"}


class ArtifactError(Exception):
    pass


def artifact_root() -> Path:
    return Path(settings.ARTIFACT_ROOT)


def _extension(mime: str) -> str:
    if mime in _EXTENSIONS:
        return _EXTENSIONS[mime]
    guessed = mimetypes.guess_extension(mime, strict=False)
    return guessed.lstrip(".") if guessed else "bin"


def _atomic_write(target: Path, data: bytes) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".tmp-", suffix=".part")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def store_artifact(
    session_id: int,
    content: str | bytes,
    mime: str = "text/plain",
    summary: str = "",
    node_id: int | None = None,
) -> Artifact:
    """Write `content` under the artifact root and record it."""
    data = content.encode("utf-8") if isinstance(content, str) else content
    digest = hashlib.sha256(data).hexdigest()
    relative = Path(str(session_id)) / f"{digest}.{_extension(mime)}"
    target = artifact_root() / relative
    # Same name ⇒ same bytes (content addressing), so an existing complete file is reused.
    if not (target.is_file() and target.stat().st_size == len(data)):
        _atomic_write(target, data)
    return Artifact.objects.create(
        session_id=session_id,
        node_id=node_id,
        path=relative.as_posix(),
        size=len(data),
        sha256=digest,
        mime=mime,
        summary=summary,
    )


def attach_artifact(artifact_id: int, node_id: int) -> None:
    """Point an artifact at the tool-result node that references it (after the node is written)."""
    if not Artifact.objects.filter(pk=artifact_id).update(node_id=node_id):
        raise ArtifactError(f"no artifact with id {artifact_id}")


def _clip(line: str) -> str:
    return line if len(line) <= PREVIEW_LINE_CHARS else line[:PREVIEW_LINE_CHARS] + " …"


def _take(lines: list[str], budget: int) -> list[str]:
    taken: list[str] = []
    used = 0
    for line in lines:
        clipped = _clip(line)
        if taken and used + len(clipped) > budget:
            break
        taken.append(clipped)
        used += len(clipped) + 1
    return taken


def preview(text: str, budget: int) -> tuple[str, int]:
    """Head and tail lines of `text` within about `budget` characters; returns (preview, lines left out)."""
    lines = text.splitlines()
    head = _take(lines[:PREVIEW_LINES], budget // 2)
    rest = lines[len(head) :]
    tail = list(reversed(_take(list(reversed(rest[-PREVIEW_LINES:])), budget // 2)))
    omitted = len(lines) - len(head) - len(tail)
    middle = [f"[... {omitted} lines omitted ...]"] if omitted else []
    return "\n".join([*head, *middle, *tail]), omitted


def reference_line(artifact: Artifact) -> str:
    return f"[artifact {artifact.pk}: {artifact.path}, {artifact.size} bytes, sha256 {artifact.sha256[:12]}]"


def shrink_result(
    result: ToolResult, ctx: ToolContext, limit_chars: int | None = None, *, tool_name: str = ""
) -> ToolResult:
    """Store an oversized text result as an artifact and return a preview that references it.

    Non-text blocks (images) are kept as they are; only the text is measured and moved.
    """
    if limit_chars is None:
        limit_chars = conf.get("CUTPOINT_ARTIFACT_LIMIT")
    limit = int(limit_chars)
    text = result.text
    if len(text) <= limit:
        return result
    name = tool_name or ctx.tool_name or "tool"
    line_count = len(text.splitlines())
    first = next((ln.strip() for ln in text.splitlines() if ln.strip()), "")[:120]
    summary = f"{name} result: {line_count} lines, {len(text)} characters; starts: {first}"
    artifact = store_artifact(ctx.session_id, text, "text/plain", summary)
    shown, _ = preview(text, max(limit // 4, 400))
    body = (
        f"{shown}\n\n"
        f"[This {name} result was {len(text)} characters ({line_count} lines); the full text is stored "
        "as an artifact and only the head and tail are shown here.]\n"
        f"{reference_line(artifact)}"
    )
    others = [b for b in result.content if b.get("type") != "text"]
    info = {"id": artifact.pk, "path": artifact.path, "size": artifact.size, "sha256": artifact.sha256}
    return replace(
        result,
        content=[{"type": "text", "text": body}, *others],
        details={**result.details, "artifact": info},
        artifact_id=artifact.pk,
    )
