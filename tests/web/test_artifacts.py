"""The artifact viewer: size-capped, escaped text with its metadata, a download that can never
render as a page, clear pages for files that are gone, and the links that lead to it (the node
panel of a tool result, the compaction page)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from sessions_app import store
from sessions_app.models import Artifact, Node, Session
from sessions_app.runtime.artifacts import store_artifact
from sessions_app.views.artifacts import VIEW_BYTES, download_type
from tests.web.builders import XSS, XSS_ESCAPED, Built, add_turns, build_session, compact
from tests.web.conftest import HX

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

LINE = "line {i:06d}: pytest collected 1,204 items / 3 failed / elapsed 12.4s\n"


@pytest.fixture(autouse=True)
def artifact_root(settings: Any, tmp_path: Path) -> Path:
    root = tmp_path / "artifacts"
    settings.ARTIFACT_ROOT = root
    return root


def big_text(min_bytes: int) -> str:
    lines, size, i = [XSS + "\n"], len(XSS) + 1, 0
    while size < min_bytes:
        line = LINE.format(i=i)
        lines.append(line)
        size += len(line)
        i += 1
    lines.append("THE LAST LINE\n")
    return "".join(lines)


def tool_result_with_artifact(session: Session, text: str, *, attach: bool = True) -> tuple[Node, Artifact]:
    """A bash call and its result, the result's full text stored as an artifact the way the
    runtime stores one (runtime/artifacts.py): the node data names it."""
    parent = Node.objects.get(pk=session.active_node_id).key if session.active_node_id else None
    call = store.append(
        session,
        parent,
        kind="message",
        role="assistant",
        content=[{"type": "tool_call", "id": "call_big", "name": "bash", "arguments": {"command": "pytest"}}],
        usage={"input": 900, "output": 20},
        stop_reason="tool_use",
    )
    artifact = store_artifact(session.pk, text, "text/plain", "bash result: many lines")
    ref = {"id": artifact.pk, "path": artifact.path, "size": artifact.size, "sha256": artifact.sha256}
    result = store.append(
        session,
        call.key,
        kind="message",
        role="tool_result",
        content=[{"type": "text", "text": f"head … tail\n[artifact {artifact.pk}: {artifact.path}]"}],
        data={
            "tool_call_id": "call_big",
            "tool_name": "bash",
            "is_error": False,
            "details": {"artifact": ref},
        },
    )
    if attach:
        Artifact.objects.filter(pk=artifact.pk).update(node=result)
    session.refresh_from_db()
    artifact.refresh_from_db()
    return result, artifact


def url(artifact: Artifact, **query: str) -> str:
    base = reverse("sessions_app:artifact_detail", args=[artifact.pk])
    return base + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def test_the_viewer_shows_the_start_escaped_with_metadata(viewer_client: Client, session: Session) -> None:
    text = big_text(VIEW_BYTES + 50_000)
    node, artifact = tool_result_with_artifact(session, text)
    response = viewer_client.get(url(artifact))
    html = response.content.decode()
    assert response.status_code == 200
    assert XSS not in html and XSS_ESCAPED in html  # model output is text, never markup
    assert LINE.format(i=0).strip() in html
    assert "THE LAST LINE" not in html  # past the cap
    assert f"The first {VIEW_BYTES:,} of {len(text.encode()):,} bytes" in html
    assert 'id="artifact-truncated"' in html
    for shown in (
        artifact.path,
        artifact.sha256,
        "text/plain",
        "bash result: many lines",
        f"{artifact.size:,} bytes",
    ):
        assert shown in html
    assert f"nodes/{node.key}/" in html  # back to the tool result
    assert len(html) < VIEW_BYTES + 40_000  # the cap holds for the page


def test_a_small_artifact_is_shown_whole(viewer_client: Client, session: Session) -> None:
    _, artifact = tool_result_with_artifact(session, "only a little output\n")
    html = viewer_client.get(url(artifact)).content.decode()
    assert "only a little output" in html and "shown whole" in html
    assert 'id="artifact-truncated"' not in html


def test_download_is_an_attachment_of_a_plain_type(viewer_client: Client, session: Session) -> None:
    text = big_text(VIEW_BYTES + 10)
    _, artifact = tool_result_with_artifact(session, text)
    response = viewer_client.get(url(artifact, download="1"))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert response["Content-Disposition"].startswith("attachment;")
    assert f"artifact-{artifact.pk}-" in response["Content-Disposition"]
    assert response["X-Content-Type-Options"] == "nosniff"
    assert "sandbox" in response["Content-Security-Policy"]
    assert b"".join(response.streaming_content).decode() == text  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("mime", "sent"),
    [
        ("text/html", "application/octet-stream"),
        ("image/svg+xml", "application/octet-stream"),
        ("application/javascript", "application/octet-stream"),
        ("text/plain", "text/plain; charset=utf-8"),
        ("application/json", "application/json"),
        ("TEXT/PLAIN; charset=latin-1", "text/plain; charset=utf-8"),
        ("", "application/octet-stream"),
    ],
)
def test_downloads_never_carry_a_renderable_type(mime: str, sent: str) -> None:
    assert download_type(mime) == sent


def test_an_html_artifact_is_shown_as_text_and_downloaded_as_bytes(
    viewer_client: Client, session: Session
) -> None:
    artifact = store_artifact(session.pk, f"<html><body>{XSS}</body></html>", "text/html")
    html = viewer_client.get(url(artifact)).content.decode()
    assert XSS not in html and XSS_ESCAPED in html
    response = viewer_client.get(url(artifact, download="1"))
    assert response["Content-Type"] == "application/octet-stream"
    assert (
        response["Content-Disposition"].startswith("attachment;")
        and ".bin" in response["Content-Disposition"]
    )


def test_binary_content_is_not_dumped_into_the_page(viewer_client: Client, session: Session) -> None:
    artifact = store_artifact(session.pk, b"\x00\x01\x02PNG" * 100, "application/octet-stream")
    response = viewer_client.get(url(artifact))
    html = response.content.decode()
    assert response.status_code == 200
    assert "not text" in html and 'id="artifact-text"' not in html
    assert 'id="artifact-download"' in html


def test_a_missing_file_gets_a_clear_page(
    viewer_client: Client, session: Session, artifact_root: Path
) -> None:
    _, artifact = tool_result_with_artifact(session, "soon gone\n")
    (artifact_root / artifact.path).unlink()
    response = viewer_client.get(url(artifact))
    html = response.content.decode()
    assert response.status_code == 404
    assert 'id="artifact-problem"' in html and "missing" in html
    assert artifact.sha256 in html  # the metadata is still shown
    assert 'id="artifact-download"' not in html
    assert viewer_client.get(url(artifact, download="1")).status_code == 404


def test_a_path_outside_the_artifact_root_is_never_opened(
    viewer_client: Client, session: Session, tmp_path: Path
) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("do not show\n")
    artifact = Artifact.objects.create(session=session, path="../secret.txt", size=12, sha256="0" * 64)
    response = viewer_client.get(url(artifact))
    html = response.content.decode()
    assert response.status_code == 404 and "do not show" not in html
    assert "outside the artifact directory" in html
    assert viewer_client.get(url(artifact, download="1")).status_code == 404


def test_unknown_artifacts_and_hidden_sessions_are_404(viewer_client: Client, session: Session) -> None:
    assert viewer_client.get(reverse("sessions_app:artifact_detail", args=[999_999])).status_code == 404
    _, artifact = tool_result_with_artifact(session, "an import in progress\n")
    Session.all_objects.filter(pk=session.pk).update(importing=True)
    assert viewer_client.get(url(artifact)).status_code == 404


def test_login_is_required(client: Client, session: Session) -> None:
    _, artifact = tool_result_with_artifact(session, "secret output\n")
    for target in (url(artifact), url(artifact, download="1")):
        response = client.get(target)
        assert response.status_code == 302 and "/login/" in response["Location"]


def test_the_node_panel_links_the_artifact_of_a_tool_result(viewer_client: Client, session: Session) -> None:
    node, artifact = tool_result_with_artifact(session, "x\n" * 10)
    panel = reverse("sessions_app:node_detail", args=[session.pk, node.key])
    html = viewer_client.get(panel, **HX).content.decode()
    assert f'href="{url(artifact)}"' in html and f'id="open-artifact-{artifact.pk}"' in html


def test_an_artifact_named_only_by_the_node_data_is_linked_too(
    viewer_client: Client, session: Session
) -> None:
    node, artifact = tool_result_with_artifact(session, "y\n" * 10, attach=False)
    assert artifact.node_id is None
    panel = reverse("sessions_app:node_detail", args=[session.pk, node.key])
    html = viewer_client.get(panel, **HX).content.decode()
    assert f'href="{url(artifact)}"' in html


def test_the_compaction_page_links_the_artifacts_it_summarized(viewer_client: Client) -> None:
    built: Built = build_session("With artifacts", turns=2, compactions=0, branch=False, xss=False)
    session = built.session
    _, artifact = tool_result_with_artifact(session, "z\n" * 50)
    add_turns(session, built, 6, start=2)
    session.refresh_from_db()
    entry = compact(session, built)
    html = viewer_client.get(reverse("sessions_app:compaction_detail", args=[entry.pk])).content.decode()
    assert f'href="{url(artifact)}"' in html
    assert 'id="compaction-artifacts"' in html
