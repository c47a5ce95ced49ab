"""Agent definitions: sources, precedence, file formats, and the runtime-internal compact agent."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from sessions_app.models import Event, Session
from sessions_app.runtime import agents as d
from sessions_app.runtime.agents import (
    COMPACT_AGENT,
    AgentDefinition,
    DefinitionError,
    UnknownDefinitionError,
    file_reads,
    list_agent_definitions,
    list_all_definitions_for_debug,
    parse_front_matter,
    refused_overrides,
    register_agent_definition,
    resolve_definition,
)

pytestmark = pytest.mark.django_db

Dirs = tuple[Path, Path]


def project_agents(project: Path) -> Path:
    return project / ".cutpoint" / "agents"


def names(defs: list[AgentDefinition]) -> list[str]:
    return [x.name for x in defs]


COMPACT_OVERRIDE_TOML = (
    'name = "default_compact_agent"\ndescription = "mine"\ninstructions = "continue the chat"\n'
)


# ------------------------------------------------------------------------------------------
# The hidden built-in
# ------------------------------------------------------------------------------------------


def test_builtins_listed_but_compact_agent_hidden(agents_dirs: Dirs) -> None:
    listed = names(list_agent_definitions())
    assert "default" in listed
    assert COMPACT_AGENT not in listed
    default = resolve_definition("default")
    assert (default.role, default.mode, default.source) == ("main", "default", "builtin")
    assert "agent.fork_agent" in default.tools


def test_compact_agent_resolves_only_internally_and_has_no_tools(agents_dirs: Dirs) -> None:
    with pytest.raises(DefinitionError, match="runtime-internal"):
        resolve_definition(COMPACT_AGENT)
    compact = resolve_definition(COMPACT_AGENT, internal=True)
    assert compact.hidden and compact.source == "builtin"
    assert (compact.role, compact.mode, compact.tools) == ("fork", "compact", ())
    assert "not" in compact.instructions.lower() and "continue" in compact.instructions.lower()


@pytest.mark.parametrize("source", ["user", "project"])
def test_file_override_of_compact_agent_is_refused(agents_dirs: Dirs, source: str) -> None:
    user, project = agents_dirs
    directory = user if source == "user" else project_agents(project)
    path = directory / "compact.toml"
    path.write_text(COMPACT_OVERRIDE_TOML)

    listed = names(list_agent_definitions(project))
    assert COMPACT_AGENT not in listed
    # Even the internal resolution ignores the file: it is always the built-in.
    resolved = resolve_definition(COMPACT_AGENT, project, internal=True)
    assert resolved.source == "builtin" and resolved.instructions == d.COMPACT_INSTRUCTIONS

    refused = refused_overrides()
    assert [(r.name, r.source, r.path) for r in refused] == [(COMPACT_AGENT, source, str(path))]
    assert "runtime-internal" in refused[0].message and "cannot be overridden" in refused[0].message
    assert str(path) in refused[0].message
    events = list(Event.objects.filter(type="definition_refused"))
    assert len(events) == 1  # two scans above, one record per file version
    assert events[0].session_id is None
    assert events[0].payload["path"] == str(path) and events[0].payload["source"] == source


def test_markdown_override_of_compact_agent_is_refused(agents_dirs: Dirs) -> None:
    user, _ = agents_dirs
    (user / "sneaky.md").write_text("---\nname: default_compact_agent\n---\nKeep chatting.\n")
    assert COMPACT_AGENT not in names(list_agent_definitions())
    assert [r.source for r in refused_overrides()] == ["user"]


def test_code_registration_of_compact_agent_is_refused(agents_dirs: Dirs, session: Session) -> None:
    attempt = AgentDefinition(COMPACT_AGENT, "x", "answer the user instead", tools=("bash",))
    with pytest.raises(DefinitionError, match="runtime-internal definition and cannot be overridden"):
        register_agent_definition(attempt, session_id=session.pk)
    assert resolve_definition(COMPACT_AGENT, internal=True).tools == ()
    assert [r.source for r in refused_overrides()] == ["code"]
    event = Event.objects.get(type="definition_refused")
    assert event.session_id == session.pk
    assert event.payload["source"] == "code"


def test_debug_listing_shows_hidden_builtin_and_refused_attempts(agents_dirs: Dirs) -> None:
    user, project = agents_dirs
    (user / "c.toml").write_text(COMPACT_OVERRIDE_TOML)
    (user / "default.toml").write_text(
        'description = "user default"\ninstructions = "hi"\ntools = ["read"]\n'
    )
    rows = list_all_definitions_for_debug(project)
    by_status = {(r.name, r.status) for r in rows}
    assert (COMPACT_AGENT, "hidden") in by_status
    assert (COMPACT_AGENT, "refused") in by_status
    assert ("default", "active") in by_status and ("default", "shadowed") in by_status
    shadowed = next(r for r in rows if r.status == "shadowed")
    assert shadowed.source == "builtin" and shadowed.shadowed_by == "user"


# ------------------------------------------------------------------------------------------
# Precedence
# ------------------------------------------------------------------------------------------


def test_precedence_code_over_project_over_user_over_builtin(agents_dirs: Dirs) -> None:
    user, project = agents_dirs
    assert resolve_definition("coder", project).source == "builtin"
    (user / "coder.toml").write_text('description = "user coder"\ntools = ["read"]\nrole = "sub"\n')
    assert resolve_definition("coder", project).description == "user coder"
    (project_agents(project) / "coder.md").write_text("---\ndescription: project coder\n---\nbody\n")
    assert resolve_definition("coder", project).source == "project"
    # Without a project dir the project layer does not exist.
    assert resolve_definition("coder").source == "user"
    register_agent_definition(AgentDefinition("coder", "code coder", "x", tools=("bash",), role="sub"))
    winner = resolve_definition("coder", project)
    assert (winner.source, winner.description) == ("code", "code coder")
    listed = [x for x in list_agent_definitions(project) if x.name == "coder"]
    assert len(listed) == 1 and listed[0].source == "code"


def test_unknown_definition_names_the_choices(agents_dirs: Dirs) -> None:
    with pytest.raises(UnknownDefinitionError, match=r"unknown agent definition 'nope'.*default"):
        resolve_definition("nope")


# ------------------------------------------------------------------------------------------
# File formats
# ------------------------------------------------------------------------------------------


def test_toml_definition_with_permissions(agents_dirs: Dirs) -> None:
    _, project = agents_dirs
    (project_agents(project) / "reviewer.toml").write_text(
        """
name = "reviewer"
description = "Reviews diffs"
instructions = '''
Look closely.
'''
tools = ["read", "bash"]
role = "sub"
mode = "plan"
model_profile = "compact"

[[permissions]]
action = "deny"
tool = "bash"
argument = "command"
pattern = "git push*"
reason = "reviewers do not push"
"""
    )
    defn = resolve_definition("reviewer", project)
    assert defn.tools == ("read", "bash")
    assert (defn.role, defn.mode, defn.model_profile) == ("sub", "plan", "compact")
    assert defn.instructions == "Look closely."
    assert defn.path == str(project_agents(project) / "reviewer.toml")
    (rule,) = defn.permission_rules
    assert (rule.action, rule.tool, rule.argument, rule.pattern) == ("deny", "bash", "command", "git push*")


def test_markdown_front_matter_lists_and_body(agents_dirs: Dirs) -> None:
    user, _ = agents_dirs
    (user / "scribe.md").write_text(
        "---\n"
        "description: 'Writes docs: carefully'\n"
        "tools:\n"
        "  - read\n"
        "  - write\n"
        "role: worker\n"
        "---\n"
        "# Scribe\n\nWrite the docs.\n"
    )
    (user / "lister.md").write_text('---\ntools: [read, "bash"]\n---\nList things.\n')
    (user / "claude-style.md").write_text("---\nname: claude-style\ntools: read, edit\n---\nEdit.\n")
    scribe = resolve_definition("scribe")  # name defaults to the file stem
    assert scribe.description == "Writes docs: carefully"
    assert scribe.tools == ("read", "write") and scribe.role == "worker"
    assert scribe.instructions == "# Scribe\n\nWrite the docs."
    assert resolve_definition("lister").tools == ("read", "bash")
    assert resolve_definition("claude-style").tools == ("read", "edit")


@pytest.mark.parametrize(
    ("filename", "text", "problem"),
    [
        ("broken.toml", 'name = "x\n', "invalid TOML"),
        ("badrole.toml", 'role = "boss"\n', "role 'boss' is not one of"),
        ("badtool.toml", 'tools = ["reed"]\n', "unknown tools \\['reed'\\]"),
        ("typo.toml", 'tool = ["read"]\n', "unknown keys tool"),
        ("hidden.toml", "hidden = true\n", "'hidden' is reserved"),
        ("nofm.md", "just text\n", "must start with a '---'"),
        ("open.md", "---\nname: x\n", "never closed"),
        ("badline.md", "---\nthis is not a pair\n---\n", "line 2: expected 'key: value'"),
        ("twice.md", "---\nrole: sub\nrole: main\n---\n", "line 3: 'role' is given twice"),
        ("block.md", "---\ndescription: >\n---\n", "block scalars"),
        ("unclosed.md", "---\ntools: [read, bash\n---\n", "not closed with ']'"),
    ],
)
def test_malformed_file_is_skipped_with_clear_error(
    agents_dirs: Dirs, filename: str, text: str, problem: str
) -> None:
    user, _ = agents_dirs
    path = user / filename
    path.write_text(text)
    (user / "good.toml").write_text('description = "fine"\n')

    listed = names(list_agent_definitions())  # does not raise
    assert "good" in listed and path.stem not in listed
    (error,) = d.definition_errors()
    assert error.path == str(path)
    assert str(path) in error.message
    with pytest.raises(DefinitionError, match=problem):
        d.parse_definition_file(path, "user")
    event = Event.objects.get(type="definition_invalid")
    assert event.payload["path"] == str(path)


def test_duplicate_name_in_one_directory_keeps_first_and_reports_second(agents_dirs: Dirs) -> None:
    user, _ = agents_dirs
    (user / "a.toml").write_text('name = "twin"\ndescription = "first"\n')
    (user / "b.md").write_text("---\nname: twin\ndescription: second\n---\n")
    assert resolve_definition("twin").description == "first"
    (error,) = d.definition_errors()
    assert "already defined by" in error.message and error.path.endswith("b.md")


def test_front_matter_parser_directly() -> None:
    data, body = parse_front_matter("---\n# comment\na: 1\nb: []\nc:\n---\nbody\n", "f.md")
    assert data == {"a": "1", "b": [], "c": ""}
    assert body == "body"


def test_registered_definition_is_validated(agents_dirs: Dirs) -> None:
    with pytest.raises(DefinitionError, match="mode 'turbo'"):
        register_agent_definition(AgentDefinition("fast", "x", "y", mode="turbo"))
    assert "fast" not in names(list_agent_definitions())


# ------------------------------------------------------------------------------------------
# Cached directory scans
# ------------------------------------------------------------------------------------------


def date_back(*paths: Path, seconds: float) -> None:
    """Give `paths` an mtime `seconds` ago: old enough for the scan cache to trust it."""
    when = time.time() - seconds
    for path in paths:
        os.utime(path, (when, when))


def test_unchanged_files_are_not_read_again(agents_dirs: Dirs) -> None:
    user, project = agents_dirs
    coder = user / "coder.toml"
    coder.write_text('description = "user coder"\nrole = "sub"\n')
    reviewer = project_agents(project) / "reviewer.md"
    reviewer.write_text("---\ndescription: reviews\n---\nReview.\n")
    date_back(coder, reviewer, user, project_agents(project), seconds=60)

    assert resolve_definition("coder", project).description == "user coder"
    assert (file_reads(coder), file_reads(reviewer)) == (1, 1)
    reads = file_reads()
    resolve_definition("coder", project)
    resolve_definition("reviewer", project)
    list_agent_definitions(project)
    list_all_definitions_for_debug(project)
    assert file_reads() == reads

    # An edit gives the file a new mtime: that file, and only that one, is read again.
    coder.write_text('description = "edited coder"\nrole = "sub"\n')
    date_back(coder, seconds=30)
    assert resolve_definition("coder", project).description == "edited coder"
    assert (file_reads(coder), file_reads(reviewer)) == (2, 1)

    # Adding or removing a file changes the directory's mtime, so the directory is listed again.
    (user / "scribe.toml").write_text('description = "new"\n')
    assert "scribe" in names(list_agent_definitions(project))
    coder.unlink()
    assert resolve_definition("coder", project).source == "builtin"


def test_a_file_written_moments_ago_is_checked_again_until_its_stamp_settles(agents_dirs: Dirs) -> None:
    user, _ = agents_dirs
    path = user / "fresh.toml"
    path.write_text('description = "one"\n')
    assert resolve_definition("fresh").description == "one"
    # A second write within one timestamp tick leaves (mtime, size) as they were.
    before = path.stat()
    path.write_text('description = "two"\n')
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert resolve_definition("fresh").description == "two"


def test_invalid_file_is_reported_once_while_unchanged(agents_dirs: Dirs) -> None:
    user, _ = agents_dirs
    path = user / "broken.toml"
    path.write_text('name = "x\n')
    date_back(path, user, seconds=60)
    for _ in range(3):
        list_agent_definitions()
    assert file_reads(path) == 1
    assert [e.path for e in d.definition_errors()] == [str(path)]
    assert Event.objects.filter(type="definition_invalid").count() == 1
