"""bench/_pi.py, the node process that runs pi's own code for bench/engine.py: when pi never
answers (once, node spun at full CPU for 15 minutes on one request) or dies, the bench gets a
clear `PiError` within the bounded wait and the node process is gone, instead of hanging."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"


@pytest.fixture
def pi_module(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    assert shutil.which("node"), "node runs pi in bench/engine.py"
    monkeypatch.syspath_prepend(str(BENCH))
    import _pi

    monkeypatch.setattr(_pi, "ANSWER_TIMEOUT_S", 1.0)
    return _pi


def fake_package(root: Path, session_manager: str) -> Path:
    """A package laid out like pi's, whose session manager module is `session_manager`."""
    core = root / "pkg" / "dist" / "core"
    (core / "compaction").mkdir(parents=True)
    (core / "session-manager.js").write_text(session_manager)
    (core / "compaction" / "compaction.js").write_text("export const prepareCompaction = () => undefined;\n")
    (core / "compaction" / "utils.js").write_text("export const computeFileLists = () => ({});\n")
    return root / "pkg"


def test_a_pi_that_never_answers_ends_in_a_clear_error(pi_module: ModuleType, tmp_path: Path) -> None:
    package = fake_package(tmp_path, "for (;;) {}\n")  # spins at import, as the stuck run did
    pi = pi_module.Pi(package, 20_000, tmp_path)
    with pytest.raises(pi_module.PiError, match=r"no answer within 1 s on .*session\.jsonl"):
        pi.run(tmp_path / "session.jsonl", 1)
    assert pi.proc.poll() is not None  # node was stopped, not left spinning


def test_a_pi_that_dies_ends_in_its_own_words(pi_module: ModuleType, tmp_path: Path) -> None:
    package = fake_package(tmp_path, 'throw new Error("broken pi install");\n')
    pi = pi_module.Pi(package, 20_000, tmp_path)
    with pytest.raises(pi_module.PiError, match="broken pi install"):
        pi.run(tmp_path / "session.jsonl", 1)
    assert pi.proc.poll() is not None


def test_an_answer_comes_back_whole(pi_module: ModuleType, tmp_path: Path) -> None:
    manager = "export class SessionManager { getBranch() { return [1, 2, 3]; } buildSessionContext() {} }\n"
    pi = pi_module.Pi(fake_package(tmp_path, manager), 20_000, tmp_path)
    try:
        answer = pi.run(tmp_path / "session.jsonl", 2)
    finally:
        pi.close()
    assert answer["entries"] == 3
    assert len(answer["load"]) == 2
    assert answer["plan"] == {"nothing": "prepareCompaction returned undefined"}
    assert sys.modules["_pi"] is pi_module
