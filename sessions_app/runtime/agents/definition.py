"""What an agent definition is, and the checks a definition from any source has to pass."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal

from sessions_app.compaction.vocabulary import AgentRole
from sessions_app.runtime.policy import (
    ALL_TOOLS_WILDCARD,
    MODES,
    ROLES,
    PermissionRule,
    PolicyError,
    parse_rules,
)
from sessions_app.runtime.tools.names import ALL_TOOL_NAMES

DefinitionSource = Literal["builtin", "user", "project", "code"]
SOURCES: Final[tuple[DefinitionSource, ...]] = ("code", "project", "user", "builtin")  # precedence order
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
    role: str = AgentRole.MAIN
    mode: str = "default"
    model_profile: str | None = None  # None: the caller's profile (compact: compact → main)
    source: DefinitionSource = "code"
    hidden: bool = False
    path: str | None = None
    permission_rules: tuple[PermissionRule, ...] = ()

    def origin(self) -> str:
        return f"{self.source} definition" + (f" {self.path}" if self.path else "")

    def system_prompt(self, workspace: Path) -> str:
        """The system prompt of a call: the instructions and the workspace. (The loop sends it; the
        dashboard and the telemetry export show it as part of what the model sees.)"""
        return (
            f"{self.instructions.strip()}\n\n"
            f"Your workspace directory is {workspace}. File tools take paths relative to it."
        )


_FIELDS: Final = frozenset(
    {"name", "description", "instructions", "tools", "role", "mode", "model_profile", "permissions"}
)


def check_definition(defn: AgentDefinition, where: str) -> AgentDefinition:
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
    data: Mapping[str, Any],
    *,
    source: DefinitionSource,
    path: Path | None,
    default_name: str | None = None,
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
        role=_string(data, "role", where, AgentRole.MAIN) or AgentRole.MAIN,
        mode=_string(data, "mode", where, "default") or "default",
        model_profile=_string(data, "model_profile", where),
        source=source,
        path=str(path) if path else None,
        permission_rules=rules,
    )
    return check_definition(defn, where)
