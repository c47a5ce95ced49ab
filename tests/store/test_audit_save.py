"""An audit is stored as orjson writes it (store/audits.py, `save_audit`), on SQLite and (via
`make test`) PostgreSQL: what is read back is what the JSON field's own encoder would have
stored, whatever the text holds, and what orjson cannot write alike still goes through the field."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sessions_app import store
from sessions_app.compaction.settings import CompactionSettings
from sessions_app.compaction.validate import CompactionPayload
from sessions_app.models import CompactionEntry, Session
from sessions_app.store.audits import save_audit

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def _compaction() -> CompactionEntry:
    session = Session.objects.create(title="audit save")
    first = store.append(session, None, kind="message", role="user", content=[{"type": "text", "text": "a"}])
    kept = store.append(
        session, first.key, kind="message", role="user", content=[{"type": "text", "text": "b"}]
    )
    payload = CompactionPayload(summary="## Goal\na", first_kept=kept.key, tokens_before=10)
    entry = store.append_compaction(
        session, kept.key, payload, reason="threshold", settings=CompactionSettings()
    )
    return CompactionEntry.objects.get(node__key=entry.node.key)


def _read_back(pk: int) -> tuple[Any, float | None]:
    row = CompactionEntry.objects.values_list("audit", "retention").get(pk=pk)
    return row[0], row[1]


# Text a database stores alike (no NUL, no lone surrogate): any other character, the escapes
# JSON needs and non-ASCII among them.
_text = st.text(st.characters(exclude_categories=["Cs"], exclude_characters="\x00"), max_size=40)
_fact = st.fixed_dictionaries(
    {"kind": st.sampled_from(["request", "file", "value"]), "text": _text, "kept": st.booleans()},
    optional={
        "detail": _text,
        "where": st.sampled_from(["summary", "kept", None]),
        "weight": st.integers(0, 3),
    },
)
_audits = st.fixed_dictionaries(
    {
        "version": st.integers(1, 20),
        "kept": st.integers(0, 50),
        "total": st.integers(0, 50),
        "weighted": st.floats(0, 1, allow_nan=False),
        "facts": st.lists(_fact, max_size=6),
    },
    optional={"before": st.fixed_dictionaries({"kept": st.integers(0, 5), "note": _text})},
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(audit=_audits)
def test_what_is_read_back_is_what_the_field_would_have_stored(audit: dict[str, Any]) -> None:
    compaction = _compaction()
    save_audit(compaction, audit)
    stored, retention = _read_back(compaction.pk)
    assert stored == json.loads(json.dumps(audit))
    total = audit["total"]
    assert retention == (pytest.approx(audit["kept"] / total) if total else None)
    assert compaction.audit is audit


def test_an_audit_orjson_refuses_goes_through_the_field() -> None:
    """Integer keys and integers past 64 bits: orjson refuses them, the standard library writes them."""
    compaction = _compaction()
    audit = {"version": 1, "kept": 1, "total": 2, "facts": [], "sizes": {1: "one"}, "big": 2**70}
    save_audit(compaction, audit)
    assert _read_back(compaction.pk)[0] == {**audit, "sizes": {"1": "one"}}


def test_a_nul_in_the_text_is_stored_as_before() -> None:
    """A NUL is no text `json_text` writes: the field writes it as it did before this path
    existed (SQLite keeps it; PostgreSQL refuses it, and the compaction keeps no audit)."""
    from django.db import DatabaseError, connection, transaction

    compaction = _compaction()
    audit = {"version": 1, "kept": 0, "total": 1, "facts": [{"kind": "value", "text": "a\x00b"}]}
    if connection.vendor == "sqlite":
        save_audit(compaction, audit)
        assert _read_back(compaction.pk)[0] == audit
    else:
        with pytest.raises(DatabaseError), transaction.atomic():
            save_audit(compaction, audit)
        assert _read_back(compaction.pk) == (None, None)


def test_a_plain_audit_is_written_by_orjson_not_by_the_field() -> None:
    """The fast path is the one taken for an audit as the auditor writes it (else the checks
    above would pass with the field writing everything)."""
    from sessions_app.store.audits import _as_json

    audit = {"version": 2, "kept": 1, "total": 1, "facts": [{"kind": "file", "text": "ünïcode \u2028"}]}
    assert not isinstance(_as_json(audit), dict)
    assert isinstance(_as_json({"facts": [{"kind": "value", "text": "a\x00b"}]}), dict)
