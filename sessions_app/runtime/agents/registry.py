"""The agent-definition registry: code registrations, resolution by precedence, and the record of
refused and invalid definitions.

Sources, highest precedence first: code registrations, the project directory, the user
directory, the built-ins. A hidden built-in resolves only for the runtime and always to the
built-in; any other source that defines its name is refused, kept in `refused_overrides()` and
recorded as a `definition_refused` event. A malformed file never breaks a listing: it is skipped,
logged, kept in `definition_errors()` and recorded as a `definition_invalid` event. Each problem of
a file is recorded once per file version.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal

from django.db import transaction
from django.utils import timezone

from sessions_app.compaction.vocabulary import EventType
from sessions_app.models import Event
from sessions_app.runtime.agents.builtins import BUILTIN_BY_NAME, BUILTINS, HIDDEN_NAMES, VISIBLE_BUILTINS
from sessions_app.runtime.agents.definition import (
    SOURCES,
    AgentDefinition,
    DefinitionError,
    DefinitionSource,
    UnknownDefinitionError,
    check_definition,
)
from sessions_app.runtime.agents.files import (
    Stamp,
    clear_scan_cache,
    project_agents_dir,
    scan_directory,
    user_agents_dir,
)

logger = logging.getLogger(__name__)


# ------------------------------------------------------------------------------------------
# In-process state: code registrations and the record of refused / invalid definitions
# ------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RefusedOverride:
    name: str
    source: DefinitionSource
    path: str | None
    message: str
    at: str  # ISO timestamp


@dataclass(frozen=True, slots=True)
class InvalidDefinition:
    source: DefinitionSource
    path: str
    message: str
    at: str


_lock = threading.Lock()
_registered: dict[str, AgentDefinition] = {}
_refused: list[RefusedOverride] = []
_invalid: list[InvalidDefinition] = []
# A file's problem is recorded once per file version: (path, mtime_ns, size, kind of problem).
_seen_file_problems: set[tuple[str, int, int, str]] = set()


def refused_overrides() -> list[RefusedOverride]:
    with _lock:
        return list(_refused)


def definition_errors() -> list[InvalidDefinition]:
    with _lock:
        return list(_invalid)


def clear_runtime_state() -> None:
    """Forget code registrations, recorded problems and cached scans (tests, reloads)."""
    with _lock:
        _registered.clear()
        _refused.clear()
        _invalid.clear()
        _seen_file_problems.clear()
    clear_scan_cache()


def _record_event(event_type: str, payload: dict[str, Any], session_id: int | None) -> None:
    # Best effort: the refusal itself is what matters; a missing table or a read-only connection
    # must not turn a definition listing into a crash. The savepoint keeps a caller's
    # transaction usable if the insert fails.
    try:
        with transaction.atomic():
            Event.objects.create(session_id=session_id, type=event_type, payload=payload)
    except Exception:
        logger.warning("could not record %s event: %s", event_type, payload, exc_info=True)


def _first_time(path: Path, stamp: Stamp, kind: str) -> bool:
    key = (str(path), stamp[0], stamp[1], kind)
    with _lock:
        if key in _seen_file_problems:
            return False
        _seen_file_problems.add(key)
        return True


def _refuse(
    name: str,
    source: DefinitionSource,
    path: str | None,
    session_id: int | None,
    stamp: Stamp | None = None,
) -> DefinitionError:
    """Record (once per file version; every time for code) and return the refusal of `name`."""
    where = f" ({path})" if path else ""
    message = (
        f"agent definition {name!r} from the {source} source{where} was refused: {name!r} is a "
        "runtime-internal definition and cannot be overridden"
    )
    if path is None or stamp is None or _first_time(Path(path), stamp, f"refused:{name}"):
        entry = RefusedOverride(name, source, path, message, timezone.now().isoformat())
        with _lock:
            _refused.append(entry)
        logger.warning("%s", message)
        _record_event(
            EventType.DEFINITION_REFUSED,
            {"name": name, "source": source, "path": path, "message": message},
            session_id,
        )
    return DefinitionError(message)


def _invalid_file(
    source: DefinitionSource, path: Path, stamp: Stamp, error: DefinitionError, session_id: int | None
) -> None:
    if not _first_time(path, stamp, "invalid"):
        return
    entry = InvalidDefinition(source, str(path), str(error), timezone.now().isoformat())
    with _lock:
        _invalid.append(entry)
    logger.warning("skipping agent definition file: %s", error)
    payload = {"source": source, "path": str(path), "message": str(error)}
    _record_event(EventType.DEFINITION_INVALID, payload, session_id)


# ------------------------------------------------------------------------------------------
# Layers
# ------------------------------------------------------------------------------------------


def _load_dir(
    directory: Path, source: DefinitionSource, session_id: int | None
) -> dict[str, AgentDefinition]:
    """Valid, non-refused definitions of one directory, by name (first file in name order wins)."""
    found: dict[str, AgentDefinition] = {}
    for scanned in scan_directory(directory, source):
        defn, path = scanned.result, scanned.path
        if isinstance(defn, AgentDefinition) and defn.name in found:
            first = found[defn.name].path
            defn = DefinitionError(f"{path}: name {defn.name!r} is already defined by {first}")
        if isinstance(defn, DefinitionError):
            _invalid_file(source, path, scanned.stamp, defn, session_id)
        elif defn.name in HIDDEN_NAMES:
            _refuse(defn.name, source, str(path), session_id, scanned.stamp)
        else:
            found[defn.name] = defn
    return found


Layers = dict[DefinitionSource, dict[str, AgentDefinition]]


def _layers(project_dir: Path | str | None, session_id: int | None) -> Layers:
    with _lock:
        code = dict(_registered)
    return {
        "code": code,
        "project": _load_dir(project_agents_dir(project_dir), "project", session_id) if project_dir else {},
        "user": _load_dir(user_agents_dir(), "user", session_id),
        "builtin": dict(VISIBLE_BUILTINS),
    }


# ------------------------------------------------------------------------------------------
# Public API
# ------------------------------------------------------------------------------------------


def register_agent_definition(defn: AgentDefinition, *, session_id: int | None = None) -> AgentDefinition:
    """Register a definition from code (highest precedence). Hidden built-in names are refused."""
    if defn.name in HIDDEN_NAMES:
        raise _refuse(defn.name, "code", defn.path, session_id)
    stored = check_definition(replace(defn, source="code", hidden=False), f"code definition {defn.name!r}")
    with _lock:
        _registered[stored.name] = stored
    return stored


def unregister_agent_definition(name: str) -> bool:
    with _lock:
        return _registered.pop(name, None) is not None


def list_agent_definitions(
    project_dir: Path | str | None = None, *, session_id: int | None = None
) -> list[AgentDefinition]:
    """The visible definitions after precedence, sorted by name. Hidden built-ins never appear."""
    layers = _layers(project_dir, session_id)
    merged: dict[str, AgentDefinition] = {}
    for source in reversed(SOURCES):  # builtin first, so higher-precedence sources overwrite
        merged.update(layers[source])
    return sorted(merged.values(), key=lambda d: d.name)


def resolve_definition(
    name: str,
    project_dir: Path | str | None = None,
    *,
    internal: bool = False,
    session_id: int | None = None,
) -> AgentDefinition:
    """The definition `name` resolves to.

    Hidden built-ins resolve only for the runtime itself (`internal=True`), and always to the
    built-in: no other source is even consulted, so an override cannot take effect.
    """
    if name in HIDDEN_NAMES:
        if not internal:
            raise DefinitionError(
                f"agent definition {name!r} is runtime-internal; it can only be used by the runtime"
            )
        return BUILTIN_BY_NAME[name]
    layers = _layers(project_dir, session_id)
    for source in SOURCES:
        if name in layers[source]:
            return layers[source][name]
    visible = sorted({n for layer in layers.values() for n in layer})
    raise UnknownDefinitionError(f"unknown agent definition {name!r}; available: {', '.join(visible)}")


@dataclass(frozen=True, slots=True)
class DebugRow:
    """One line of the inspect/debug listing."""

    name: str
    source: DefinitionSource
    status: Literal["active", "hidden", "shadowed", "refused", "invalid"]
    path: str | None = None
    definition: AgentDefinition | None = None
    message: str = ""
    shadowed_by: str | None = None


def list_all_definitions_for_debug(
    project_dir: Path | str | None = None, *, session_id: int | None = None
) -> list[DebugRow]:
    """Everything: active, hidden built-ins, shadowed lower-precedence ones, refused and invalid."""
    layers = _layers(project_dir, session_id)
    rows: list[DebugRow] = []
    winner: dict[str, DefinitionSource] = {}
    for source in SOURCES:
        for name, defn in sorted(layers[source].items()):
            if name in winner:
                rows.append(DebugRow(name, source, "shadowed", defn.path, defn, shadowed_by=winner[name]))
            else:
                winner[name] = source
                rows.append(DebugRow(name, source, "active", defn.path, defn))
    for defn in BUILTINS:
        if defn.hidden:
            rows.append(DebugRow(defn.name, "builtin", "hidden", None, defn, "runtime-internal"))
    seen: set[tuple[str, str, str | None]] = set()
    for refused in refused_overrides():
        key = (refused.name, refused.source, refused.path)
        if key not in seen:
            seen.add(key)
            rows.append(
                DebugRow(refused.name, refused.source, "refused", refused.path, message=refused.message)
            )
    for bad in definition_errors():
        rows.append(DebugRow(Path(bad.path).stem, bad.source, "invalid", bad.path, message=bad.message))
    return rows


def describe(definitions: Iterable[AgentDefinition]) -> list[dict[str, str]]:
    """name / description / role rows, as `agent.list_agent_definitions` reports them."""
    return [{"name": d.name, "description": d.description, "role": d.role} for d in definitions]
