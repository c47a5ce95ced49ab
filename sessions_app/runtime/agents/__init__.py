"""Agent definitions: who an agent is (instructions), what it may use (tools), how it runs (role, mode).

Four sources, highest precedence first (for visible definitions):

    code     register_agent_definition(...) at import/startup time
    project  <project dir>/.cutpoint/agents/*.toml|*.md
    user     settings.CUTPOINT_USER_AGENTS_DIR (default ~/.cutpoint/agents)/*.toml|*.md
    builtin  `builtins.BUILTINS`

Hidden built-ins (`default_compact_agent`) are runtime-internal: they are absent from
`list_agent_definitions`, resolve only with `internal=True`, always to the built-in, and any other
source that defines the same name is refused (docs/compaction.md, "The compact fork").

Modules: `definition` (the dataclass and its checks), `builtins`, `files` (file formats and
cached directory scans) and `registry` (registration, resolution, the debug listing). Callers use
this package's names.
"""

from sessions_app.runtime.agents.builtins import BUILTINS, COMPACT_AGENT, COMPACT_INSTRUCTIONS, HIDDEN_NAMES
from sessions_app.runtime.agents.definition import (
    SOURCES,
    AgentDefinition,
    DefinitionError,
    DefinitionSource,
    UnknownDefinitionError,
    definition_from_mapping,
)
from sessions_app.runtime.agents.files import (
    file_reads,
    parse_definition_file,
    parse_front_matter,
    project_agents_dir,
    user_agents_dir,
)
from sessions_app.runtime.agents.registry import (
    DebugRow,
    InvalidDefinition,
    RefusedOverride,
    clear_runtime_state,
    definition_errors,
    describe,
    list_agent_definitions,
    list_all_definitions_for_debug,
    refused_overrides,
    register_agent_definition,
    resolve_definition,
    unregister_agent_definition,
)

__all__ = [
    "BUILTINS",
    "COMPACT_AGENT",
    "COMPACT_INSTRUCTIONS",
    "HIDDEN_NAMES",
    "SOURCES",
    "AgentDefinition",
    "DebugRow",
    "DefinitionError",
    "DefinitionSource",
    "InvalidDefinition",
    "RefusedOverride",
    "UnknownDefinitionError",
    "clear_runtime_state",
    "definition_errors",
    "definition_from_mapping",
    "describe",
    "file_reads",
    "list_agent_definitions",
    "list_all_definitions_for_debug",
    "parse_definition_file",
    "parse_front_matter",
    "project_agents_dir",
    "refused_overrides",
    "register_agent_definition",
    "resolve_definition",
    "unregister_agent_definition",
    "user_agents_dir",
]
