"""Chunked SQLite imports (docs/architecture.md, "Imports"): the rows are committed every
CUTPOINT_IMPORT_COMMIT_SECONDS into a session hidden until the import commits, and a failed import
removes what its chunks committed. PostgreSQL imports in one transaction and needs none of this."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from sessions_app import store
from sessions_app.importers import ImportFailed, import_file
from sessions_app.models import Node, Session
from sessions_app.o200k import encoding, fast_counter
from sessions_app.store.bulk_import import discard_abandoned_imports
from tests.compaction.fixtures import BEFORE as PI_FILE
from tests.importers.helpers import row_counts, snapshot

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def every_batch(settings: Any) -> None:
    settings.CUTPOINT_IMPORT_COMMIT_SECONDS = 1e-9  # commit after every batch
    # The tokenizer loads on first use; loaded here, the first batch is written while the file is
    # still being read, as in a running server.
    encoding()
    fast_counter()


def committed_nodes() -> int:
    """Nodes another connection can see, i.e. committed ones."""
    db = sqlite3.connect(str(connection.settings_dict["NAME"]))
    try:
        return int(db.execute("SELECT COUNT(*) FROM sessions_app_node").fetchone()[0])
    finally:
        db.close()


def test_a_chunked_import_commits_as_it_goes_into_a_hidden_session(every_batch: None) -> None:
    assert connection.vendor == "sqlite"
    seen: list[tuple[int, int, int]] = []

    def progress(done: int, total: int | None, lines: int) -> None:
        seen.append(
            (committed_nodes(), Session.objects.count(), Session.all_objects.filter(importing=True).count())
        )

    result = import_file(PI_FILE, progress=progress, progress_every=64 * 1024)
    assert any(n > 0 for n, _, _ in seen)  # other connections saw rows before the end
    assert all(visible == 0 and hidden == 1 for _, visible, hidden in seen)  # hidden meanwhile
    session = Session.objects.get(pk=result.session.pk)  # visible once committed
    assert not session.importing and result.node_count == Node.objects.filter(session=session).count()


def test_chunked_and_single_transaction_imports_give_the_same_session(
    every_batch: None, settings: Any
) -> None:
    chunked = import_file(PI_FILE).session
    settings.CUTPOINT_IMPORT_COMMIT_SECONDS = 0  # one transaction
    whole = import_file(PI_FILE).session
    assert snapshot(Session.objects.get(pk=chunked.pk)) == snapshot(Session.objects.get(pk=whole.pk))


def test_a_failed_chunked_import_leaves_the_store_as_it_was(every_batch: None, tmp_path: Path) -> None:
    before = row_counts()
    lines = PI_FILE.read_text(encoding="utf-8").splitlines()
    broken = tmp_path / "broken.jsonl"
    broken.write_text("\n".join([*lines, "{not json"]) + "\n", encoding="utf-8")
    with pytest.raises(ImportFailed, match=r"broken\.jsonl, line \d+"):
        import_file(broken)
    assert row_counts() == before and Session.all_objects.count() == 0


def test_other_sessions_are_written_while_an_import_runs(every_batch: None) -> None:
    other = Session.objects.create(title="other")
    appended: list[str] = []
    failures: list[BaseException] = []
    chunk_seen = threading.Event()

    def writer() -> None:
        try:
            chunk_seen.wait()
            node = store.append(
                other, None, kind="message", role="user", content=[{"type": "text", "text": "hi"}]
            )
            appended.append(node.key)
        except BaseException as exc:  # reported below
            failures.append(exc)
        finally:
            connection.close()

    thread = threading.Thread(target=writer)
    thread.start()

    def progress(done: int, total: int | None, lines: int) -> None:
        if committed_nodes() > 0:
            chunk_seen.set()

    import_file(PI_FILE, progress=progress, progress_every=64 * 1024)
    chunk_seen.set()
    thread.join()
    assert not failures and len(appended) == 1
    assert Node.objects.filter(session=other).count() == 1


def test_the_sweeper_removes_an_import_whose_process_died() -> None:
    orphan = Session.all_objects.create(title="half", importing=True)
    Session.all_objects.filter(pk=orphan.pk).update(updated_at=orphan.updated_at.replace(year=2000))
    fresh = Session.all_objects.create(title="running", importing=True)
    assert discard_abandoned_imports() == [orphan.pk]
    assert list(Session.all_objects.values_list("pk", flat=True)) == [fresh.pk]


def test_a_failed_chunked_codex_import_leaves_no_run_or_event(every_batch: None, tmp_path: Path) -> None:
    """Runs and events of the turns already read go with the chunks (issue 32: imported turns are
    runs, written as the file is read)."""
    from tests.importers.codex_rollout import write_rollout

    path = tmp_path / "rollout.jsonl"
    write_rollout(path, turns=200)
    with path.open("a", encoding="utf-8") as fh:
        fh.write("{not json\n")
    before = row_counts()
    with pytest.raises(ImportFailed, match=r"rollout\.jsonl, line \d+"):
        import_file(path)
    assert row_counts() == before and Session.all_objects.count() == 0
