"""Event and live-update types are spelled once, in the vocabulary (issue 31): the page hands the
script the kinds it acts on, and no source file outside the vocabulary spells a type itself."""

from __future__ import annotations

import html as html_lib
import json
import re
from pathlib import Path

from django.test import Client
from django.urls import reverse

from sessions_app.compaction.vocabulary import EventType, LiveKind
from tests.web.conftest import Built

ROOT = Path(__file__).resolve().parents[2]
# Words that are also a model field's or a parameter's name ("active_node", "run", "task", "hook")
# are left out of the search: a quoted one is not necessarily a type.
SPELLED = sorted({t.value for t in [*EventType, *LiveKind] if "_" in t.value} - {LiveKind.ACTIVE_NODE.value})


def test_the_page_names_the_live_kinds_its_script_acts_on(staff_client: Client, built: Built) -> None:
    text = staff_client.get(reverse("sessions_app:session_detail", args=[built.session.pk])).content.decode()
    found = re.search(r'data-live-kinds="([^"]*)"', text)
    assert found, text[:500]
    kinds = json.loads(html_lib.unescape(found.group(1)))
    assert kinds == {
        "fresh_stream": LiveKind.COMPACT_STARTED,
        "snapshot": LiveKind.SNAPSHOT,
        "resync": LiveKind.RESYNC,
    }


def test_no_source_outside_the_vocabulary_spells_an_event_or_live_type() -> None:
    sources = [
        p
        for p in [*(ROOT / "sessions_app").rglob("*.py"), *(ROOT / "templates").rglob("*.html")]
        if "migrations" not in p.parts and p.name != "vocabulary.py"
    ]
    sources.append(ROOT / "static" / "cutpoint" / "cutpoint.js")
    spelled = [
        f"{p.relative_to(ROOT)}: {value}"
        for p in sources
        for value in SPELLED
        if re.search(rf"[\"']{value}[\"']", p.read_text(encoding="utf-8"))
    ]
    assert spelled == []
