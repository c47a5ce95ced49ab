"""Artifacts (docs/compaction.md, rule S1): big results go to content-addressed files; the message
keeps a preview + ref."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest

from sessions_app import store
from sessions_app.models import Artifact, Session
from sessions_app.runtime.artifacts import (
    ArtifactError,
    attach_artifact,
    preview,
    shrink_result,
    store_artifact,
)
from sessions_app.runtime.tools.base import ToolContext, ToolResult

pytestmark = pytest.mark.django_db


def big_text(lines: int = 2000) -> str:
    return "".join(f"line {i:05d} " + "x" * 40 + "\n" for i in range(lines))


def test_store_artifact_writes_content_addressed_file(artifact_root: Path, session: Session) -> None:
    artifact = store_artifact(session.pk, "hello artifact", "text/plain", "greeting")
    digest = hashlib.sha256(b"hello artifact").hexdigest()
    assert artifact.path == f"{session.pk}/{digest}.txt"
    on_disk = artifact_root / artifact.path
    assert on_disk.read_bytes() == b"hello artifact"
    assert (artifact.size, artifact.sha256, artifact.mime, artifact.summary) == (
        14,
        digest,
        "text/plain",
        "greeting",
    )
    # No temporary files left behind by the atomic write.
    assert sorted(p.name for p in on_disk.parent.iterdir()) == [on_disk.name]
    again = store_artifact(session.pk, b"hello artifact", "text/plain", "again")
    assert again.pk != artifact.pk and again.path == artifact.path


def test_json_and_unknown_mime_extensions(artifact_root: Path, session: Session) -> None:
    assert store_artifact(session.pk, "{}", "application/json").path.endswith(".json")
    assert store_artifact(session.pk, b"\x00", "application/x-made-up").path.endswith(".bin")


def test_large_result_becomes_artifact_whose_sha_matches(
    artifact_root: Path, ctx: ToolContext, settings: Any
) -> None:
    text = big_text()
    original = ToolResult.ok(text, {"exit_code": 0})
    shrunk = shrink_result(original, ctx, 8000, tool_name="bash")

    assert shrunk.artifact_id is not None  # the oversized result was moved to an artifact
    artifact = Artifact.objects.get(pk=shrunk.artifact_id)
    file_bytes = (artifact_root / artifact.path).read_bytes()
    assert file_bytes == text.encode()
    assert hashlib.sha256(file_bytes).hexdigest() == artifact.sha256 == shrunk.details["artifact"]["sha256"]
    assert shrunk.details["artifact"] == {
        "id": artifact.pk,
        "path": artifact.path,
        "size": len(text.encode()),
        "sha256": artifact.sha256,
    }
    assert shrunk.details["exit_code"] == 0  # the tool's own details survive
    body = shrunk.text
    assert len(body) < 8000 // 2
    assert body.startswith("line 00000") and "line 01999" in body  # head and tail
    assert "lines omitted" in body
    assert (
        f"[artifact {artifact.pk}: {artifact.path}, {artifact.size} bytes, sha256 {artifact.sha256[:12]}]"
        in body
    )
    assert "bash result" in artifact.summary and "2000 lines" in artifact.summary


def test_small_result_is_untouched(artifact_root: Path, ctx: ToolContext) -> None:
    result = ToolResult.ok("short")
    assert shrink_result(result, ctx, 8000) is result
    assert not Artifact.objects.exists()


def test_limit_comes_from_settings(artifact_root: Path, ctx: ToolContext, settings: Any) -> None:
    settings.CUTPOINT_ARTIFACT_LIMIT = 50
    assert shrink_result(ToolResult.ok("y" * 51), ctx).artifact_id is not None
    assert shrink_result(ToolResult.ok("y" * 50), ctx).artifact_id is None


def test_single_huge_line_preview_is_clipped(artifact_root: Path, ctx: ToolContext) -> None:
    shrunk = shrink_result(ToolResult.ok("z" * 100_000), ctx, 8000)
    assert len(shrunk.text) < 1000 and shrunk.artifact_id is not None


def test_preview_counts_omitted_lines() -> None:
    text = "\n".join(str(i) for i in range(100))
    shown, omitted = preview(text, 10_000)
    assert omitted == 100 - 24
    assert shown.splitlines()[0] == "0" and shown.splitlines()[-1] == "99"


def test_attach_artifact_sets_node(artifact_root: Path, session: Session) -> None:
    artifact = store_artifact(session.pk, "data")
    node = store.append(session, None, kind="message", role="user", content=[{"type": "text", "text": "hi"}])
    attach_artifact(artifact.pk, node.pk)
    artifact.refresh_from_db()
    assert artifact.node_id == node.pk
    with pytest.raises(ArtifactError, match="no artifact"):
        attach_artifact(artifact.pk + 1000, node.pk)
