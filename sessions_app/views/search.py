"""Search across sessions: node text, tool names and arguments (file paths), tool results and
compaction summaries, each hit linked to its node. The query itself is
sessions_app.presenters.search (bounded, paged by node id)."""

from __future__ import annotations

from urllib.parse import urlencode

from django.http import HttpResponse
from django.template.response import TemplateResponse
from django.urls import reverse
from django_htmx.http import HttpResponseClientRedirect

from sessions_app.params import Params
from sessions_app.presenters.search import MIN_QUERY, PAGE_SIZE, SCAN_LIMIT, search
from sessions_app.views._common import HtmxHttpRequest, wants_partial

RESULTS_ID = "search-results"  # the element the page's own form and pager swap


def search_page(request: HtmxHttpRequest) -> HttpResponse:
    params = Params(request)
    query = params.text("q")
    before = params.object_id("before")
    if wants_partial(request) and request.htmx.target != RESULTS_ID:
        # The session list's "Search contents" button submits its filter form here through htmx,
        # which would swap this page's results into that list: open the page instead.
        url = reverse("sessions_app:search") + (f"?{urlencode({'q': query})}" if query else "")
        return HttpResponseClientRedirect(url)
    result = search(query, before=before) if query else None
    context = {
        "query": query,
        "result": result,
        "before": before,
        "min_query": MIN_QUERY,
        "page_size": PAGE_SIZE,
        "scan_limit": SCAN_LIMIT,
    }
    template = "sessions/search.html#results" if wants_partial(request) else "sessions/search.html"
    return TemplateResponse(request, template, context)
