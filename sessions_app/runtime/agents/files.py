"""Definition files: the front-matter and TOML parsers, and cached scans of the agent directories.

TOML (`*.toml`)::

    name = "reviewer"              # optional, defaults to the file stem
    description = "Reviews diffs"
    instructions = "You review ..."
    tools = ["read", "bash"]       # or ["*"] for every tool
    role = "sub"                   # main | orchestrator | sub | worker | fork
    mode = "plan"                  # default | plan | compact
    model_profile = "main"         # optional
    [[permissions]]                # optional, see policy.py
    action = "deny"
    tool = "bash"
    argument = "command"
    pattern = "git push*"

Markdown (`*.md`): a front-matter block of `key: value` lines between `---` lines (lists as
`[a, b]`, as `a, b`, or as following `- item` lines), then the instructions as the body. Permission
rules need TOML.

Every resolve and listing looks at the user and project directories, so `scan_directory` keeps
what it parsed: a directory is listed again only when its mtime changes (a file was added, removed
or renamed), and a file is read again only when its (mtime, size) changes. A stamp younger than
`SETTLE_NS` at the time it was taken is not trusted, because a second write within the
filesystem's timestamp granularity would leave it unchanged; such entries are checked afresh until
they have settled.
"""

from __future__ import annotations

import logging
import re
import threading
import time
import tomllib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from sessions_app import conf
from sessions_app.runtime.agents.definition import (
    AgentDefinition,
    DefinitionError,
    DefinitionSource,
    definition_from_mapping,
)

logger = logging.getLogger(__name__)

PROJECT_AGENTS_SUBDIR: Final = Path(".cutpoint") / "agents"
DEFINITION_SUFFIXES: Final = (".toml", ".md")
# Coarser than any timestamp granularity we expect (FAT's is 2 s; ext4 and tmpfs follow the
# kernel's clock tick).
SETTLE_NS: Final = 2_000_000_000
MAX_CACHED_DIRS: Final = 256  # one per project directory seen; the oldest are forgotten first


def user_agents_dir() -> Path:
    configured = conf.get("CUTPOINT_USER_AGENTS_DIR") or conf.DEFAULTS["CUTPOINT_USER_AGENTS_DIR"]
    return Path(configured).expanduser()


def project_agents_dir(project_dir: Path | str) -> Path:
    return Path(project_dir) / PROJECT_AGENTS_SUBDIR


# ------------------------------------------------------------------------------------------
# Parsing
# ------------------------------------------------------------------------------------------

_KEY_LINE: Final = re.compile(r"^([A-Za-z_][A-Za-z0-9_-]*)\s*:(?:\s+(.*))?$")
_ITEM_LINE: Final = re.compile(r"^\s*-\s+(.*)$")


def _scalar(raw: str) -> str:
    raw = raw.strip()
    if len(raw) >= 2 and raw[0] == raw[-1] and raw[0] in "'\"":
        return raw[1:-1]
    return raw


def parse_front_matter(text: str, where: str) -> tuple[dict[str, Any], str]:
    """Split a Markdown file into its front-matter mapping and its body.

    Deliberately small: `key: value`, `key: [a, b]`, and `key:` followed by `- item` lines.
    Anything else is an error that names the line, rather than a silent misreading.
    """
    lines = text.lstrip("\ufeff").splitlines()
    if not lines or lines[0].strip() != "---":
        raise DefinitionError(f"{where}: a Markdown definition must start with a '---' front-matter line")
    try:
        end = next(i for i in range(1, len(lines)) if lines[i].strip() == "---")
    except StopIteration:
        raise DefinitionError(
            f"{where}: the front matter opened on line 1 is never closed by '---'"
        ) from None
    data: dict[str, Any] = {}
    list_key: str | None = None
    bare_keys: set[str] = set()  # `key:` with nothing after it: a list if items follow
    for number, line in enumerate(lines[1:end], start=2):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        item = _ITEM_LINE.match(line)
        if item and list_key is not None:
            data[list_key].append(_scalar(item.group(1)))
            continue
        match = _KEY_LINE.match(line)
        if not match:
            raise DefinitionError(f"{where}: line {number}: expected 'key: value', got {line.strip()!r}")
        key, value = match.group(1), (match.group(2) or "").strip()
        if key in data:
            raise DefinitionError(f"{where}: line {number}: {key!r} is given twice")
        list_key = None
        if not value:
            data[key] = []
            list_key = key
            bare_keys.add(key)
        elif value.startswith("["):
            if not value.endswith("]"):
                raise DefinitionError(f"{where}: line {number}: list for {key!r} is not closed with ']'")
            inner = value[1:-1].strip()
            data[key] = [_scalar(part) for part in inner.split(",")] if inner else []
        elif value[0] in "|>":
            raise DefinitionError(
                f"{where}: line {number}: block scalars ('|', '>') are not supported; put long "
                "text in the body"
            )
        else:
            data[key] = _scalar(value)
    # A bare `key:` that never got items is an empty string, not an empty list.
    for key in bare_keys:
        if not data[key]:
            data[key] = ""
    body = "\n".join(lines[end + 1 :]).strip()
    return data, body


# How often each definition file was read, so tests (and anyone wondering) can see the cache work.
_reads: Counter[str] = Counter()


def file_reads(path: Path | str | None = None) -> int:
    """Reads of definition files since the process started: of `path`, or of all of them."""
    return _reads[str(path)] if path is not None else sum(_reads.values())


def parse_definition_file(path: Path, source: DefinitionSource) -> AgentDefinition:
    """One definition from a `.toml` or `.md` file; DefinitionError names the file and the problem."""
    _reads[str(path)] += 1
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise DefinitionError(f"{path}: cannot be read: {exc}") from None
    if path.suffix == ".toml":
        try:
            data: dict[str, Any] = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise DefinitionError(f"{path}: invalid TOML: {exc}") from None
    elif path.suffix == ".md":
        data, body = parse_front_matter(text, str(path))
        if "permissions" in data:
            raise DefinitionError(f"{path}: permission rules are only supported in TOML definitions")
        if "instructions" in data:
            raise DefinitionError(f"{path}: the instructions of a Markdown definition are its body")
        data["instructions"] = body
    else:
        raise DefinitionError(f"{path}: unsupported definition file type {path.suffix!r}")
    return definition_from_mapping(data, source=source, path=path, default_name=path.stem)


# ------------------------------------------------------------------------------------------
# Cached directory scans
# ------------------------------------------------------------------------------------------

Stamp = tuple[int, int]  # (st_mtime_ns, st_size)


@dataclass(frozen=True, slots=True)
class ScannedFile:
    """One definition file of a directory: what parsing it gave, for the file version `stamp`."""

    path: Path
    stamp: Stamp
    result: AgentDefinition | DefinitionError


@dataclass(frozen=True, slots=True)
class _DirEntry:
    mtime_ns: int
    checked_ns: int  # wall clock just before the directory was listed
    files: tuple[Path, ...]


@dataclass(frozen=True, slots=True)
class _FileEntry:
    stamp: Stamp
    checked_ns: int  # wall clock just before the file was read
    result: AgentDefinition | DefinitionError


_cache_lock = threading.Lock()
_dirs: dict[tuple[Path, DefinitionSource], _DirEntry] = {}
_files: dict[tuple[Path, DefinitionSource], _FileEntry] = {}


def _settled(mtime_ns: int, checked_ns: int) -> bool:
    return mtime_ns < checked_ns - SETTLE_NS


def clear_scan_cache() -> None:
    with _cache_lock:
        _dirs.clear()
        _files.clear()


def _forget_dir(key: tuple[Path, DefinitionSource]) -> None:
    entry = _dirs.pop(key, None)
    if entry is not None:
        for path in entry.files:
            _files.pop((path, key[1]), None)


def _list(directory: Path) -> tuple[Path, ...]:
    return tuple(sorted(p for p in directory.iterdir() if p.suffix in DEFINITION_SUFFIXES and p.is_file()))


def scan_directory(directory: Path, source: DefinitionSource) -> list[ScannedFile]:
    """Every definition file of `directory` in name order, parsed; unchanged files are not re-read.

    A missing directory has no files; an unreadable one is logged and has none either.
    """
    key = (directory, source)
    with _cache_lock:
        now = time.time_ns()
        cached = _dirs.get(key)
        try:
            mtime_ns = directory.stat().st_mtime_ns
            if cached is not None and cached.mtime_ns == mtime_ns and _settled(mtime_ns, cached.checked_ns):
                dir_entry = cached
            else:
                dir_entry = _DirEntry(mtime_ns, now, _list(directory))
        except FileNotFoundError:
            _forget_dir(key)
            return []
        except OSError as exc:  # unreadable directory: report it, list the other sources
            logger.warning("cannot list agent definitions in %s: %s", directory, exc)
            _forget_dir(key)
            return []
        scanned: list[ScannedFile] = []
        for path in dir_entry.files:
            try:
                st = path.stat()
            except OSError:  # removed since the listing; the directory's next mtime will say so
                continue
            stamp = (st.st_mtime_ns, st.st_size)
            entry = _files.get((path, source))
            if entry is None or entry.stamp != stamp or not _settled(stamp[0], entry.checked_ns):
                try:
                    result: AgentDefinition | DefinitionError = parse_definition_file(path, source)
                except DefinitionError as exc:
                    result = exc
                entry = _FileEntry(stamp, now, result)
            _files[(path, source)] = entry
            scanned.append(ScannedFile(path, stamp, entry.result))
        if cached is not None and dir_entry is not cached:
            for gone in set(cached.files) - set(dir_entry.files):
                _files.pop((gone, source), None)
        _dirs.pop(key, None)  # re-inserted last: the most recently used directory is evicted last
        _dirs[key] = dir_entry
        while len(_dirs) > MAX_CACHED_DIRS:
            _forget_dir(next(iter(_dirs)))
        return scanned
