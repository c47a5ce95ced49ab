"""Agent definitions: who an agent is (instructions), what it may use (tools), how it runs (role, mode).

Four sources, highest precedence first (for visible definitions):

    code     register_agent_definition(...) at import/startup time
    project  <project dir>/.cutpoint/agents/*.toml|*.md
    user     settings.CUTPOINT_USER_AGENTS_DIR (default ~/.cutpoint/agents)/*.toml|*.md
    builtin  BUILTINS below

Hidden built-ins (`default_compact_agent`, seed R16–R21) are runtime-internal: they are absent from
`list_agent_definitions`, resolve only with `internal=True`, always to the built-in, and any other
source that defines the same name is refused with a `DefinitionError`, kept in `refused_overrides()`
and recorded as a `definition_refused` event. A malformed file never breaks a listing: it is skipped,
logged, kept in `definition_errors()` and recorded as a `definition_invalid` event.

File formats
------------
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
"""

from __future__ import annotations

import logging
import re
import threading
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Final, Literal

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from sessions_app.models import Event
from sessions_app.runtime.policy import (
    ALL_TOOLS_WILDCARD,
    MODES,
    ROLES,
    PermissionRule,
    PolicyError,
    parse_rules,
)
from sessions_app.runtime.tools.names import ALL_TOOL_NAMES, READ_ONLY_TOOLS

logger = logging.getLogger(__name__)

Source = Literal["builtin", "user", "project", "code"]
SOURCES: Final[tuple[Source, ...]] = ("code", "project", "user", "builtin")  # precedence order
COMPACT_AGENT: Final = "default_compact_agent"
PROJECT_AGENTS_SUBDIR: Final = Path(".cutpoint") / "agents"
DEFAULT_USER_AGENTS_DIR: Final = Path("~/.cutpoint/agents")
_NAME_RE: Final = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$")


class DefinitionError(ValueError):
    """A definition is invalid, unknown, or may not be used/overridden."""


class UnknownDefinitionError(DefinitionError):
    pass


@dataclass(frozen=True, slots=True)
class AgentDefinition:
    name: str
    description: str
    instructions: str
    tools: tuple[str, ...] = ()
    role: str = "main"
    mode: str = "default"
    model_profile: str | None = None  # None: the caller's profile (compact: compact → main)
    source: Source = "code"
    hidden: bool = False
    path: str | None = None
    permission_rules: tuple[PermissionRule, ...] = ()

    def origin(self) -> str:
        return f"{self.source} definition" + (f" {self.path}" if self.path else "")


# ------------------------------------------------------------------------------------------
# Built-ins
# ------------------------------------------------------------------------------------------

COMPACT_INSTRUCTIONS: Final = """\
You are a context summarizer for a coding agent. You are given a conversation between a user and \
an assistant, and you write the checkpoint another assistant will resume from.

You are not a participant in that conversation. Do not answer its questions, do not continue its \
work, do not call tools, and do not address the user. Read what happened and report it.

Write a concise, factual, structured summary that keeps everything needed to continue: the goal, \
the user's constraints and preferences, what is done, in progress and blocked, the decisions made \
and why, the next steps, exact identifiers (file paths, function names, commands, error messages, \
artifact references), the files read and changed, and notable tool failures, denied tool calls and \
sub-agent results. Prefer exact names over paraphrase. Leave out pleasantries and anything that no \
longer matters."""

BUILTINS: Final[tuple[AgentDefinition, ...]] = (
    AgentDefinition(
        name="default",
        description="General agent working in the session workspace with every normal tool.",
        instructions=(
            "You are a careful software agent working in a project workspace. Read before you "
            "change, make the smallest change that solves the problem, and check your work "
            "(run the tests or the command that proves it). Say plainly what you did and what "
            "is left."
        ),
        tools=ALL_TOOL_NAMES,
        role="main",
        mode="default",
        source="builtin",
    ),
    AgentDefinition(
        name="coder",
        description="Sub-agent that implements one well-defined change with the file and bash tools.",
        instructions=(
            "You implement one focused change in the workspace. Read the relevant files, edit "
            "them, run the checks, and finish with a short report: files changed, checks run and "
            "their result, anything you could not do."
        ),
        tools=("read", "write", "edit", "bash"),
        role="sub",
        mode="default",
        source="builtin",
    ),
    AgentDefinition(
        name="planner",
        description="Read-only sub-agent that studies the workspace and proposes a plan.",
        instructions=(
            "You investigate and plan; you do not change anything. Read what you need, then "
            "return a numbered plan in which every step has a check that shows it is done."
        ),
        tools=tuple(sorted(READ_ONLY_TOOLS)),
        role="sub",
        mode="plan",
        source="builtin",
    ),
    AgentDefinition(
        name=COMPACT_AGENT,
        description="Runtime-internal summarizer used by the compact fork.",
        instructions=COMPACT_INSTRUCTIONS,
        tools=(),
        role="fork",
        mode="compact",
        source="builtin",
        hidden=True,
    ),
)
_BUILTIN_BY_NAME: Final = {d.name: d for d in BUILTINS}
HIDDEN_NAMES: Final = frozenset(d.name for d in BUILTINS if d.hidden)


# ------------------------------------------------------------------------------------------
# In-process state: code registrations and the record of refused / invalid definitions
# ------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RefusedOverride:
    name: str
    source: Source
    path: str | None
    message: str
    at: str  # ISO timestamp


@dataclass(frozen=True, slots=True)
class InvalidDefinition:
    source: Source
    path: str
    message: str
    at: str


_lock = threading.Lock()
_registered: dict[str, AgentDefinition] = {}
_refused: list[RefusedOverride] = []
_invalid: list[InvalidDefinition] = []
# Directory scans repeat on every listing; a file's problem is recorded once per file version.
_seen_file_problems: set[tuple[str, int, int, str]] = set()


def refused_overrides() -> list[RefusedOverride]:
    with _lock:
        return list(_refused)


def definition_errors() -> list[InvalidDefinition]:
    with _lock:
        return list(_invalid)


def clear_runtime_state() -> None:
    """Forget code registrations and recorded problems (tests, reloads)."""
    with _lock:
        _registered.clear()
        _refused.clear()
        _invalid.clear()
        _seen_file_problems.clear()


def _record_event(event_type: str, payload: dict[str, Any], session_id: int | None) -> None:
    # Best effort: the refusal itself is what matters; a missing table or a read-only connection
    # must not turn a definition listing into a crash. The savepoint keeps a caller's
    # transaction usable if the insert fails.
    try:
        with transaction.atomic():
            Event.objects.create(session_id=session_id, type=event_type, payload=payload)
    except Exception:
        logger.warning("could not record %s event: %s", event_type, payload, exc_info=True)


def _file_key(path: Path, kind: str) -> tuple[str, int, int, str] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return (str(path), st.st_mtime_ns, st.st_size, kind)


def _first_time(key: tuple[str, int, int, str] | None) -> bool:
    with _lock:
        if key is None:
            return True
        if key in _seen_file_problems:
            return False
        _seen_file_problems.add(key)
        return True


def _refuse(name: str, source: Source, path: str | None, session_id: int | None) -> DefinitionError:
    where = f" ({path})" if path else ""
    message = (
        f"agent definition {name!r} from the {source} source{where} was refused: {name!r} is a "
        "runtime-internal definition and cannot be overridden"
    )
    if source == "code" or _first_time(_file_key(Path(path or ""), f"refused:{name}")):
        entry = RefusedOverride(name, source, path, message, timezone.now().isoformat())
        with _lock:
            _refused.append(entry)
        logger.warning("%s", message)
        _record_event(
            "definition_refused",
            {"name": name, "source": source, "path": path, "message": message},
            session_id,
        )
    return DefinitionError(message)


def _invalid_file(source: Source, path: Path, error: DefinitionError, session_id: int | None) -> None:
    if not _first_time(_file_key(path, "invalid")):
        return
    entry = InvalidDefinition(source, str(path), str(error), timezone.now().isoformat())
    with _lock:
        _invalid.append(entry)
    logger.warning("skipping agent definition file: %s", error)
    payload = {"source": source, "path": str(path), "message": str(error)}
    _record_event("definition_invalid", payload, session_id)


# ------------------------------------------------------------------------------------------
# Validation
# ------------------------------------------------------------------------------------------

_FIELDS: Final = frozenset(
    {"name", "description", "instructions", "tools", "role", "mode", "model_profile", "permissions"}
)


def _check(defn: AgentDefinition, where: str) -> AgentDefinition:
    """Raise DefinitionError (prefixed with `where`) unless `defn` is well-formed."""
    problems: list[str] = []
    if not _NAME_RE.match(defn.name):
        problems.append(f"name {defn.name!r} must be 1-100 letters, digits, '_', '.' or '-'")
    if defn.role not in ROLES:
        problems.append(f"role {defn.role!r} is not one of {', '.join(ROLES)}")
    if defn.mode not in MODES:
        problems.append(f"mode {defn.mode!r} is not one of {', '.join(MODES)}")
    unknown = [t for t in defn.tools if t not in ALL_TOOL_NAMES and t != ALL_TOOLS_WILDCARD]
    if unknown:
        problems.append(f"unknown tools {unknown}; known tools: {', '.join(ALL_TOOL_NAMES)}")
    if problems:
        raise DefinitionError(f"{where}: " + "; ".join(problems))
    return defn


def _string(data: Mapping[str, Any], key: str, where: str, default: str | None = None) -> str | None:
    value = data.get(key, default)
    if value is not None and not isinstance(value, str):
        raise DefinitionError(f"{where}: {key!r} must be a string, got {type(value).__name__}")
    return value


def _tools(value: Any, where: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):  # "read, bash" (Claude Code's agent files write tools this way)
        value = [part.strip() for part in value.split(",") if part.strip()]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise DefinitionError(f"{where}: 'tools' must be a list of tool names")
    return tuple(dict.fromkeys(value))


def definition_from_mapping(
    data: Mapping[str, Any], *, source: Source, path: Path | None, default_name: str | None = None
) -> AgentDefinition:
    """Build and validate a definition from parsed TOML / front matter."""
    where = str(path) if path else f"{source} definition"
    unknown = sorted(set(data) - _FIELDS)
    if unknown:
        if "hidden" in unknown:
            raise DefinitionError(f"{where}: 'hidden' is reserved for runtime built-ins")
        raise DefinitionError(
            f"{where}: unknown keys {', '.join(unknown)}; allowed: {', '.join(sorted(_FIELDS))}"
        )
    name = _string(data, "name", where, default_name)
    if not name:
        raise DefinitionError(f"{where}: 'name' is missing")
    try:
        rules = parse_rules(data.get("permissions"), f"{where} [permissions]")
    except PolicyError as exc:
        raise DefinitionError(f"{where}: {exc}") from None
    defn = AgentDefinition(
        name=name,
        description=_string(data, "description", where, "") or "",
        instructions=(_string(data, "instructions", where, "") or "").strip(),
        tools=_tools(data.get("tools"), where),
        role=_string(data, "role", where, "main") or "main",
        mode=_string(data, "mode", where, "default") or "default",
        model_profile=_string(data, "model_profile", where),
        source=source,
        path=str(path) if path else None,
        permission_rules=rules,
    )
    return _check(defn, where)


# ------------------------------------------------------------------------------------------
# File parsing
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


def parse_definition_file(path: Path, source: Source) -> AgentDefinition:
    """One definition from a `.toml` or `.md` file; DefinitionError names the file and the problem."""
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
# Sources
# ------------------------------------------------------------------------------------------


def user_agents_dir() -> Path:
    configured = getattr(settings, "CUTPOINT_USER_AGENTS_DIR", None)
    return Path(configured or DEFAULT_USER_AGENTS_DIR).expanduser()


def project_agents_dir(project_dir: Path | str) -> Path:
    return Path(project_dir) / PROJECT_AGENTS_SUBDIR


def _load_dir(directory: Path, source: Source, session_id: int | None) -> dict[str, AgentDefinition]:
    """Valid, non-refused definitions of one directory, by name (first file in name order wins)."""
    found: dict[str, AgentDefinition] = {}
    try:
        files = sorted(p for p in directory.iterdir() if p.suffix in (".toml", ".md") and p.is_file())
    except FileNotFoundError:
        return found
    except OSError as exc:  # unreadable directory: report it, list the other sources
        logger.warning("cannot list agent definitions in %s: %s", directory, exc)
        return found
    for path in files:
        try:
            defn = parse_definition_file(path, source)
            if defn.name in found:
                raise DefinitionError(
                    f"{path}: name {defn.name!r} is already defined by {found[defn.name].path}"
                )
        except DefinitionError as exc:
            _invalid_file(source, path, exc, session_id)
            continue
        if defn.name in HIDDEN_NAMES:
            _refuse(defn.name, source, str(path), session_id)
            continue
        found[defn.name] = defn
    return found


Layers = dict[Source, dict[str, AgentDefinition]]


def _layers(project_dir: Path | str | None, session_id: int | None) -> Layers:
    with _lock:
        code = dict(_registered)
    return {
        "code": code,
        "project": _load_dir(project_agents_dir(project_dir), "project", session_id) if project_dir else {},
        "user": _load_dir(user_agents_dir(), "user", session_id),
        "builtin": {d.name: d for d in BUILTINS if not d.hidden},
    }


# ------------------------------------------------------------------------------------------
# Public API
# ------------------------------------------------------------------------------------------


def register_agent_definition(defn: AgentDefinition, *, session_id: int | None = None) -> AgentDefinition:
    """Register a definition from code (highest precedence). Hidden built-in names are refused."""
    if defn.name in HIDDEN_NAMES:
        raise _refuse(defn.name, "code", defn.path, session_id)
    stored = _check(replace(defn, source="code", hidden=False), f"code definition {defn.name!r}")
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
        return _BUILTIN_BY_NAME[name]
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
    source: Source
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
    winner: dict[str, Source] = {}
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
