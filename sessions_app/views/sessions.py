"""Session pages."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse

from sessions_app.models import Session


def session_list(request: HttpRequest) -> HttpResponse:
    query = request.GET.get("q", "").strip()
    sessions = Session.objects.annotate(
        node_count=Count("nodes", distinct=True),
        compaction_count=Count("nodes", filter=Q(nodes__kind="compaction"), distinct=True),
    ).order_by("-updated_at", "-id")
    if query:
        sessions = sessions.filter(title__icontains=query)
    page = Paginator(sessions, 50).get_page(request.GET.get("page"))
    return TemplateResponse(request, "sessions/session_list.html", {"page": page, "query": query})
