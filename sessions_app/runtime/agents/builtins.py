"""The definitions that ship with Cutpoint, including the hidden `default_compact_agent`.

A hidden built-in is runtime-internal: only the runtime resolves it, always to this code, and no
other source may define its name (docs/compaction.md, "The compact fork").
"""

from __future__ import annotations

from typing import Final

from sessions_app.compaction.vocabulary import AgentRole
from sessions_app.runtime.agents.definition import AgentDefinition
from sessions_app.runtime.tools.names import ALL_TOOL_NAMES, READ_ONLY_TOOLS

COMPACT_AGENT: Final = "default_compact_agent"

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
        role=AgentRole.MAIN,
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
        role=AgentRole.SUB,
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
        role=AgentRole.SUB,
        mode="plan",
        source="builtin",
    ),
    AgentDefinition(
        name=COMPACT_AGENT,
        description="Runtime-internal summarizer used by the compact fork.",
        instructions=COMPACT_INSTRUCTIONS,
        tools=(),
        role=AgentRole.FORK,
        mode="compact",
        source="builtin",
        hidden=True,
    ),
)
BUILTIN_BY_NAME: Final = {d.name: d for d in BUILTINS}
HIDDEN_NAMES: Final = frozenset(d.name for d in BUILTINS if d.hidden)
VISIBLE_BUILTINS: Final = {d.name: d for d in BUILTINS if not d.hidden}
