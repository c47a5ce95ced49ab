"""`cutpoint serve --watch` in Chromium: a line appended to a watched session file shows up as a new
node on the open session page within 2 s of being written (issue 33)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User

from sessions_app.watch.sync import sync_file
from tests.browser.conftest import serve_daphne, shot
from tests.databases import live_database_url

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "browser-pw-123"


def pi_line(i: int, parent: str | None, text: str) -> str:
    entry = {
        "type": "message",
        "id": f"{i:08x}",
        "parentId": parent,
        "timestamp": f"2025-12-09T00:00:{i:02d}.000Z",
        "message": {"role": "user", "content": [{"type": "text", "text": text}], "timestamp": i},
    }
    return json.dumps(entry) + "\n"


def test_appended_line_appears_on_the_open_page(page: Any, tmp_path: Path) -> None:
    folder = tmp_path / "sessions"
    folder.mkdir()
    path = folder / "live.jsonl"
    header = {
        "type": "session",
        "version": 3,
        "id": "s",
        "timestamp": "2025-12-09T00:00:00.000Z",
        "cwd": "/w",
    }
    path.write_text(json.dumps(header) + "\n" + pi_line(1, None, "first") + pi_line(2, "00000001", "second"))
    session_id = sync_file(path, settle=0).session_id  # already imported: the server adopts it
    User.objects.create_user("op", password=PASSWORD, is_staff=True)
    env = {"CUTPOINT_WATCH_FOLDERS": str(folder), "CUTPOINT_WATCH_SETTLE_SECONDS": "0.2"}
    with serve_daphne(env, live_database_url(), "daphne-watch.log") as url:
        page.goto(url + "/login/")
        page.fill("input[name=username]", "op")
        page.fill("input[name=password]", PASSWORD)
        page.click("button[type=submit]")
        page.wait_for_selector("h1:has-text('Sessions')")
        page.goto(f"{url}/sessions/{session_id}/")
        page.wait_for_selector("#tree .tn[data-key='00000002']")
        page.wait_for_selector("#conn[data-state='open']", timeout=10_000)
        with path.open("a") as fh:
            fh.write(pi_line(3, "00000002", "written while the page is open"))
        written = time.monotonic()
        page.wait_for_selector("#tree .tn[data-key='00000003']", timeout=5_000)
        seen = time.monotonic() - written
        shot(page, "watch-live-node")
        assert seen <= 2.0, f"the new node took {seen:.2f} s to appear"
