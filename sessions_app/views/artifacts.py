"""The artifact viewer: a large tool result stored as a file (docs/compaction.md, rule S1).

`artifacts/<id>/` shows the artifact's metadata and the start of its text (at most `VIEW_BYTES`,
escaped by the template like any model text); `?download=1` sends the whole file as an
attachment. The download's content type comes from a short allowlist of plain types (never
HTML, SVG or script, whatever `Artifact.mime` says), with `nosniff` and a sandboxing CSP, so a
stored file can never run in the dashboard's origin. A file that is missing, unreadable or whose
recorded path leads outside the artifact root gets an explanatory page (404), not an error.
Access is that of the other pages: logged in (the middleware), and the artifact's session must
be visible (not an import still in progress).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Final

from django.http import FileResponse, Http404, HttpRequest
from django.http.response import HttpResponseBase
from django.template.response import TemplateResponse

from sessions_app.models import Artifact, Node, Session
from sessions_app.runtime.artifacts import artifact_root
from sessions_app.selectors.artifacts import artifact_by_id
from sessions_app.selectors.sessions import session_by_id
from sessions_app.views._common import found

VIEW_BYTES: Final = 256 * 1024
# Content types a download may carry as they are; anything else is sent as opaque bytes.
_PLAIN_TYPES: Final = {
    "text/plain": "text/plain; charset=utf-8",
    "text/markdown": "text/markdown; charset=utf-8",
    "text/csv": "text/csv; charset=utf-8",
    "application/json": "application/json",
}
_OPAQUE: Final = "application/octet-stream"
_TEXT_MIMES: Final = frozenset({"text/plain", "text/markdown", "text/csv", "application/json"})


@dataclass(slots=True)
class ArtifactView:
    artifact: Artifact
    session: Session
    node: Node | None
    text: str | None = None  # the start of the file, decoded (None: not shown)
    shown_bytes: int = 0
    file_bytes: int | None = None  # size on disk (None: no readable file)
    problem: str = ""  # why the content cannot be shown

    @property
    def truncated(self) -> bool:
        return self.file_bytes is not None and self.shown_bytes < self.file_bytes

    @property
    def size_differs(self) -> bool:
        return self.file_bytes is not None and self.file_bytes != self.artifact.size


def artifact_file(artifact: Artifact) -> Path | None:
    """The artifact's file, if its recorded path stays inside the artifact root; else None."""
    root = artifact_root().resolve()
    try:
        target = (root / artifact.path).resolve()
    except (OSError, RuntimeError, ValueError):  # a symlink loop, a NUL in the path
        return None
    return target if target.is_relative_to(root) and target != root else None


def download_type(mime: str) -> str:
    """The Content-Type a download is sent with: a known plain type, else opaque bytes."""
    return _PLAIN_TYPES.get((mime or "").split(";", 1)[0].strip().lower(), _OPAQUE)


def _looks_binary(head: bytes) -> bool:
    return b"\x00" in head


def _read(view: ArtifactView, path: Path | None) -> None:
    if path is None:
        view.problem = "Its recorded path leads outside the artifact directory, so it is not opened."
        return
    try:
        with path.open("rb") as fh:
            view.file_bytes = path.stat().st_size
            head = fh.read(VIEW_BYTES)
    except FileNotFoundError:
        view.problem = (
            "The file is missing from the artifact directory (deleted, or the data directory was "
            "moved). The metadata above is all that is left."
        )
        return
    except IsADirectoryError:
        view.problem = "Its recorded path names a directory, not a file."
        return
    except OSError as exc:
        view.problem = f"The file cannot be read: {exc.strerror or exc}."
        return
    mime = (view.artifact.mime or "").split(";", 1)[0].strip().lower()
    if (mime and mime not in _TEXT_MIMES and not mime.startswith("text/")) or _looks_binary(head):
        view.problem = "This artifact is not text; download it to look at it."
        view.shown_bytes = 0
        return
    view.text = head.decode("utf-8", errors="replace")
    view.shown_bytes = len(head)


def artifact_detail(request: HttpRequest, artifact_id: int) -> HttpResponseBase:
    artifact = found(artifact_by_id(artifact_id), "Artifact")
    session = session_by_id(artifact.session_id)
    if session is None:  # an import still in progress, or gone
        raise Http404("No such artifact.")
    path = artifact_file(artifact)
    if request.GET.get("download") == "1":
        return _download(artifact, path)
    view = ArtifactView(artifact, session, artifact.node)
    _read(view, path)
    status = 404 if view.file_bytes is None else 200
    return TemplateResponse(
        request, "sessions/artifact_detail.html", {"session": session, "av": view}, status=status
    )


def _download(artifact: Artifact, path: Path | None) -> FileResponse:
    if path is None:
        raise Http404("The artifact's path is outside the artifact directory.")
    try:
        fh = path.open("rb")
    except OSError as exc:
        raise Http404("The artifact's file is missing or unreadable.") from exc
    content_type = download_type(artifact.mime)
    suffix = path.suffix if content_type != _OPAQUE else ".bin"
    name = f"artifact-{artifact.pk}-{artifact.sha256[:12] or 'file'}{suffix}"
    response = FileResponse(fh, as_attachment=True, filename=name, content_type=content_type)
    response["X-Content-Type-Options"] = "nosniff"
    response["Content-Security-Policy"] = "sandbox; default-src 'none'"
    return response
