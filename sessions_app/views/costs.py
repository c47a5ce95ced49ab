"""Cost pages (docs/costs.md): the overview (per day, model and project) and one session's costs."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse

from sessions_app.presenters.costs import overview, session_costs
from sessions_app.views._common import get_session


def cost_overview(request: HttpRequest) -> HttpResponse:
    return TemplateResponse(request, "sessions/costs.html", {"ov": overview()})


def session_cost_page(request: HttpRequest, session_id: int) -> HttpResponse:
    session = get_session(session_id)
    return TemplateResponse(request, "sessions/session_costs.html", {"sc": session_costs(session)})
