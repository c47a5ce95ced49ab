"""Recompute a compaction's retention audit (staff only, POST + CSRF).

The audit is derived data (sessions_app/store/audits.py): recomputing it writes nothing but the
audit and retention columns of that one CompactionEntry. htmx gets the page's audit partial back;
a plain form post is redirected to the compaction page.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.views.decorators.http import require_POST

from sessions_app.presenters.audit import audit_view
from sessions_app.selectors.compactions import compaction_by_id
from sessions_app.views._common import HtmxHttpRequest, found, staff_required, wants_partial


@require_POST
@staff_required
def recompute_audit(request: HtmxHttpRequest, compaction_id: int) -> HttpResponse:
    entry = found(compaction_by_id(compaction_id), "CompactionEntry")
    av = audit_view(entry, refresh=True)
    if wants_partial(request):
        context = {"session": entry.node.session, "av": av, "can_act": True}
        return TemplateResponse(request, "sessions/compaction_detail.html#audit", context)
    if av.available:
        messages.success(request, f"Audit recomputed: {av.scores.label if av.scores else ''} facts kept.")
    else:
        messages.error(request, "The audit could not be recomputed; see the server log.")
    return redirect("sessions_app:compaction_detail", compaction_id=entry.pk)
