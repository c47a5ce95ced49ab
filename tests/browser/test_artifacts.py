"""In Chromium: open a large tool result's artifact from its node in the session tree, read the
start of it (escaped, capped), download it, and come back. Screenshots go to test-artifacts/."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User

from sessions_app.models import Artifact, Session
from sessions_app.views.artifacts import VIEW_BYTES
from tests.browser.conftest import ARTIFACTS, shot
from tests.web.builders import XSS, build_session
from tests.web.test_artifacts import big_text, tool_result_with_artifact

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "browser-pw-789"
USER = "artifact-reader"  # not staff: reading artifacts is a read


@pytest.fixture
def stored() -> Iterator[tuple[Session, str, Artifact, str]]:
    """A session whose last tool result stored its output as an artifact (in the data directory
    the server reads: settings.ARTIFACT_ROOT); the file goes again afterwards."""
    session = build_session("Artifact viewer (browser)", turns=2, compactions=0, branch=False).session
    text = big_text(VIEW_BYTES + 20_000)
    node, artifact = tool_result_with_artifact(session, text)
    path = Path(settings.ARTIFACT_ROOT) / artifact.path
    try:
        yield session, node.key, artifact, text
    finally:
        path.unlink(missing_ok=True)


def _login(page: Any, url: str) -> None:
    User.objects.create_user(USER, password=PASSWORD)
    page.goto(url + "/login/")
    page.fill("input[name=username]", USER)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_selector("h1:has-text('Sessions')")


def test_the_artifact_viewer_opens_from_a_tool_result_node(
    live_url: str, page: Any, stored: tuple[Session, str, Artifact, str], tmp_path: Path
) -> None:
    session, key, artifact, text = stored
    _login(page, live_url)
    page.goto(f"{live_url}/sessions/{session.pk}/")
    page.wait_for_selector("#tree")

    # The tool result in the tree; its node panel offers the artifact.
    page.click(f"#tree .tn[data-key='{key}'] > .tn-row")
    link = f"#node-panel #open-artifact-{artifact.pk}"
    page.wait_for_selector(link)
    assert f"/artifacts/{artifact.pk}/" in (page.get_attribute(link, "href") or "")
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator("#node-panel").screenshot(path=str(ARTIFACTS / "artifacts-01-node-panel.png"))

    page.click(link)
    page.wait_for_selector("#artifact-text")
    assert page.url.endswith(f"/artifacts/{artifact.pk}/")
    shown = page.inner_text("#artifact-text")
    assert shown.startswith(XSS)  # the script tag is text on the page, not markup
    assert page.locator("#artifact-text script, #artifact-text img").count() == 0
    assert "THE LAST LINE" not in shown  # capped at VIEW_BYTES
    assert page.locator("#artifact-truncated").is_visible()
    meta = page.inner_text("#artifact-meta")
    assert artifact.sha256 in meta and artifact.path in meta
    shot(page, "artifacts-02-viewer")

    # The download is the whole file, as an attachment.
    with page.expect_download() as info:
        page.click("#artifact-download")
    download = info.value
    assert download.suggested_filename.startswith(f"artifact-{artifact.pk}-")
    saved = tmp_path / download.suggested_filename
    download.save_as(str(saved))
    assert saved.read_text(encoding="utf-8") == text

    # Back to the node it came from.
    page.click(f"nav.crumbs a[href$='/nodes/{key}/']")
    page.wait_for_selector(f"#node-panel [data-key='{key}']")
