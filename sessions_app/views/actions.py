"""Operator actions (staff only, POST + CSRF): compact now, recovery compaction, switch the active
node, continue the session with a prompt. The runtime does the work; these views only ask."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.views.decorators.http import require_POST

from sessions_app import store
from sessions_app.compaction.vocabulary import Trigger
from sessions_app.models import Session
from sessions_app.presenters.header import build_header
from sessions_app.runtime import background, compact_fork
from sessions_app.views._common import HtmxHttpRequest, get_session, staff_required, wants_partial

MAX_PROMPT = 50_000
MAX_INSTRUCTIONS = 5_000


def _done(
    request: HtmxHttpRequest, session: Session, level: int, text: str, *, refused: bool = False
) -> HttpResponse:
    """htmx: a flash message plus a fresh header (out of band); otherwise redirect with a message.

    Refusals answer 200 to htmx (htmx does not swap 4xx bodies) and say so in `X-Cutpoint-Outcome`."""
    if not wants_partial(request):
        messages.add_message(request, level, text)
        return redirect(reverse("sessions_app:session_detail", args=[session.pk]))
    session.refresh_from_db()
    context = {
        "session": session,
        "header": build_header(session),
        "can_act": True,
        "flash": [(messages.DEFAULT_TAGS.get(level, "info"), text)],
        "oob": True,
    }
    response = TemplateResponse(request, "sessions/_header.html#action_result", context)
    response["X-Cutpoint-Outcome"] = "refused" if refused else "ok"
    return response


def _compact(request: HtmxHttpRequest, session_id: int, trigger: str) -> HttpResponse:
    session = get_session(session_id)
    instructions = (
        request.POST.get("instructions", "").strip()[:MAX_INSTRUCTIONS] if trigger == Trigger.MANUAL else ""
    )
    try:
        task = compact_fork.request_compaction(session, trigger=trigger, instructions=instructions)
    except compact_fork.AlreadyPending as exc:
        return _done(request, session, messages.WARNING, f"Not started: {exc.reason}.", refused=True)
    except compact_fork.NothingToCompact as exc:
        return _done(
            request, session, messages.INFO, f"Nothing to compact: {_strip(exc.reason)}", refused=True
        )
    except compact_fork.CompactionRefused as exc:
        return _done(request, session, messages.WARNING, f"Refused: {exc.reason}", refused=True)
    compact_fork.start_in_background(task.pk)
    label = "Recovery compaction" if trigger == Trigger.RECOVERY else "Compaction"
    return _done(
        request, session, messages.SUCCESS, f"{label} task #{task.pk} started; its summary streams below."
    )


def _strip(reason: str) -> str:
    text = reason.removeprefix("nothing to compact: ").strip()
    return text[:1].upper() + text[1:] if text else reason


@require_POST
@staff_required
def compact_now(request: HtmxHttpRequest, session_id: int) -> HttpResponse:
    return _compact(request, session_id, Trigger.MANUAL)


@require_POST
@staff_required
def recover(request: HtmxHttpRequest, session_id: int) -> HttpResponse:
    return _compact(request, session_id, Trigger.RECOVERY)


@require_POST
@staff_required
def switch_node(request: HtmxHttpRequest, session_id: int) -> HttpResponse:
    session = get_session(session_id)
    key = request.POST.get("key", "").strip()
    try:
        store.switch_active_node(session, key)
    except store.StoreError as exc:
        return _done(request, session, messages.ERROR, f"Cannot switch: {exc}", refused=True)
    # The store's active_node_switched signal publishes the live update.
    return _done(request, session, messages.SUCCESS, f"Active node is now {key}. Nothing else changed.")


@require_POST
@staff_required
def send_prompt(request: HtmxHttpRequest, session_id: int) -> HttpResponse:
    session = get_session(session_id)
    prompt = request.POST.get("prompt", "").strip()
    if not prompt:
        return _done(request, session, messages.WARNING, "Write a prompt first.", refused=True)
    if len(prompt) > MAX_PROMPT:
        return _done(
            request,
            session,
            messages.WARNING,
            f"The prompt is longer than {MAX_PROMPT:,} characters.",
            refused=True,
        )
    background.start_prompt(session.pk, prompt)
    return _done(request, session, messages.SUCCESS, "Prompt sent; the agent continues in the background.")
