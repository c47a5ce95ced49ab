"""Compaction, run and agent-definition pages."""

from __future__ import annotations

from pathlib import Path

from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse

from sessions_app.models import Run, Session
from sessions_app.params import Params
from sessions_app.presenters.audit import audit_view
from sessions_app.presenters.compaction import compaction_view
from sessions_app.presenters.run import run_view
from sessions_app.runtime import agents as definitions
from sessions_app.runtime.tools.names import BASH
from sessions_app.runtime.tools.sandbox import sandbox_description
from sessions_app.runtime.tools.workspace import workspace_path
from sessions_app.selectors.compactions import compaction_by_id
from sessions_app.selectors.runs import definition_problems, run_by_id
from sessions_app.selectors.sessions import session_by_id
from sessions_app.views._common import found


def compaction_detail(request: HttpRequest, compaction_id: int) -> HttpResponse:
    entry = found(compaction_by_id(compaction_id), "CompactionEntry")
    context = {
        "session": entry.node.session,
        "cv": compaction_view(entry),
        "av": audit_view(entry),
        "can_act": request.user.is_staff,
    }
    return TemplateResponse(request, "sessions/compaction_detail.html", context)


def agent_tools(run: Run) -> str:
    """What the run's agent could call: its definition's tools (and how bash runs, when bash is one
    of them), so a compact fork, which has none, does not claim a sandboxed bash (issue 32)."""
    name = run.agent.definition_name
    try:
        definition = definitions.resolve_definition(
            name, _project_dir(run.session), internal=True, session_id=run.session_id
        )
    except definitions.DefinitionError:
        return f"not known here: the definition {name!r} is not one of this server's"
    if not definition.tools:
        return "none (the definition gives it no tools)"
    tools = ", ".join(definition.tools)
    return f"{tools} · {sandbox_description()}" if BASH in definition.tools else tools


def run_detail(request: HttpRequest, run_id: int) -> HttpResponse:
    run = found(run_by_id(run_id), "Run")
    context = {"session": run.session, "rv": run_view(run), "agent_tools": agent_tools(run)}
    return TemplateResponse(request, "sessions/run_detail.html", context)


def _project_dir(session: Session | None) -> Path | None:
    if session is None:
        return None
    path = workspace_path(session.pk, session.workspace)
    return path if path.is_dir() else None


def agent_definitions(request: HttpRequest) -> HttpResponse:
    session_id = Params(request).object_id("session")
    session = session_by_id(session_id) if session_id is not None else None
    project = _project_dir(session)
    visible = definitions.list_agent_definitions(project)
    debug = [r for r in definitions.list_all_definitions_for_debug(project) if r.status != "active"]
    refused_events = definition_problems(50)
    context = {
        "definitions": visible,
        "debug_rows": debug,
        "refused_events": refused_events,
        "for_session": session,
        "project_dir": project,
        "user_dir": definitions.user_agents_dir(),
        "bash_sandbox": sandbox_description(),
    }
    return TemplateResponse(request, "sessions/definitions.html", context)
