"""bench/retention.py and the corpus checker while the held-out split is away (bench/retention_corpus/
README.md, "Keeping dev and test apart"): with test/ absent or empty they measure dev and say that
test has no sessions. One small dev session stands in for the corpus."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "bench"
SESSION = "c-iniq-hardening"


def load(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def corpus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.syspath_prepend(str(BENCH))
    import _retention_replay as replay

    here = tmp_path / "corpus"
    (here / "dev").mkdir(parents=True)
    (here / "check.py").symlink_to(replay.CORPUS / "check.py")
    (here / "dev" / SESSION).symlink_to(replay.CORPUS / "dev" / SESSION)
    monkeypatch.setattr(replay, "CORPUS", here)
    return here


@pytest.mark.parametrize("test_dir", ["absent", "empty"])
def test_the_bench_measures_dev_and_says_test_has_no_sessions(
    corpus: Path, test_dir: str, capsys: pytest.CaptureFixture[str]
) -> None:
    if test_dir == "empty":
        (corpus / "test").mkdir()
    bench = load(BENCH / "retention.py", "bench_retention_under_test")
    assert bench.main([]) == 0
    out = capsys.readouterr().out
    assert f"\n{SESSION[:28]}" in out and "TOTAL dev" in out
    assert "test: no sessions" in out
    assert bench.main(["--split", "test"]) == 0
    assert "test: no sessions" in capsys.readouterr().out


def test_the_checker_checks_dev_alone_and_says_test_has_no_sessions(
    corpus: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    checker = load(corpus / "check.py", "retention_corpus_check_under_test")
    monkeypatch.setattr(checker, "HERE", corpus)
    assert checker.main([]) == 0
    out = capsys.readouterr().out
    assert "test: no sessions" in out and f"ok   dev/{SESSION}:" in out
