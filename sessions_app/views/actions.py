"""Operator actions (staff only, POST + CSRF): compact now, recovery compaction, resume automatic
compaction after the thrash guard stopped it, switch the active node, continue the session with a
prompt. The runtime does the work; these views only ask.

From the cut-point view, two more compactions: "Compact with these settings" plans one manual
compaction with the view's keep-recent, reserve and threshold (they apply to that compaction only,
nothing is saved on the session), and "Compact up to here" also fixes its first kept node. A
refusal is a notice (200; 409 while another compaction of the session is on its way) that names
the setting or the choice that would let it run.

A prompt is acknowledged only once the runtime has claimed the session for it (the user's message
is stored and a run holds the session's one agent slot); a prompt sent while another run of the
session is running is refused with 409 Conflict and a notice, and nothing is written.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.views.decorators.http import require_POST

from sessions_app import store
from sessions_app.compaction.settings import CompactionSettings
from sessions_app.compaction.vocabulary import Trigger
from sessions_app.models import Session
from sessions_app.params import Params
from sessions_app.presenters.cut import nothing_text, parse_settings
from sessions_app.presenters.header import build_header
from sessions_app.presenters.stats import session_settings, session_window
from sessions_app.runtime import background, compact_fork, compaction_guard
from sessions_app.runtime.compact_fork.job import CompactionJob
from sessions_app.runtime.compact_fork.tasks import InvalidCutPoint
from sessions_app.runtime.runs import SessionBusy
from sessions_app.selectors.sessions import refreshed
from sessions_app.views._common import HtmxHttpRequest, get_session, staff_required, wants_partial
from sessions_app.views.session import session_page

MAX_PROMPT = 50_000
MAX_INSTRUCTIONS = 5_000


def _done(
    request: HtmxHttpRequest,
    session: Session,
    level: int,
    text: str,
    *,
    refused: bool = False,
    status: int = 200,
) -> HttpResponse:
    """htmx: a flash message plus a fresh header (out of band); otherwise redirect with a message.

    Refusals say so in `X-Cutpoint-Outcome`. Most answer 200 (htmx swaps only 2xx bodies by
    default); a conflict answers `status` 409, which the page's script swaps too (cutpoint.js).
    Without htmx a 409 is the session page itself, with the notice on top."""
    if not wants_partial(request):
        messages.add_message(request, level, text)
        if status != 200:
            return session_page(request, session, status=status)
        return redirect(reverse("sessions_app:session_detail", args=[session.pk]))
    session = refreshed(session)
    context = {
        "session": session,
        "header": build_header(session),
        "can_act": True,
        "flash": [(messages.DEFAULT_TAGS.get(level, "info"), text)],
        "oob": True,
    }
    response = TemplateResponse(request, "sessions/_header.html#action_result", context, status=status)
    response["X-Cutpoint-Outcome"] = "refused" if refused else "ok"
    return response


def _start(
    request: HtmxHttpRequest,
    session: Session,
    trigger: str,
    base: CompactionSettings,
    *,
    instructions: str = "",
    settings: CompactionSettings | None = None,
    first_kept: str | None = None,
) -> HttpResponse:
    """Ask the runtime for a compaction task and start it, or say why it was refused. `base`: the
    session's settings, computed once for the request; `settings`: this compaction's, if others."""
    try:
        job = CompactionJob.request(
            session,
            trigger=trigger,
            instructions=instructions,
            settings=base,
            settings_override=settings,
            first_kept=first_kept,
        )
    except compact_fork.AlreadyPending as exc:
        return _done(
            request,
            session,
            messages.WARNING,
            f"Not started: {exc.reason}. Wait until it has finished, then compact again.",
            refused=True,
            status=409,
        )
    except compact_fork.NothingToCompact as exc:
        return _done(
            request, session, messages.INFO, f"Nothing to compact: {nothing_text(exc.reason)}", refused=True
        )
    except InvalidCutPoint as exc:
        return _done(request, session, messages.WARNING, f"Not started: {exc.reason}.", refused=True)
    except compact_fork.CompactionRefused as exc:
        return _done(request, session, messages.WARNING, f"Refused: {exc.reason}", refused=True)
    kept = job.first_kept  # read before the job starts: a run takes its plan
    job.start_in_background()
    label = "Recovery compaction" if trigger == Trigger.RECOVERY else "Compaction"
    text = f"{label} task #{job.task_id} started"
    if first_kept is not None:
        text += f", keeping everything from node {kept or first_kept} on"
    if settings is not None:
        text += (
            f" with keep-recent {settings.keep_recent_tokens:,} and reserve {settings.reserve_tokens:,}"
            " (for this compaction only: the session's settings are unchanged)"
        )
    return _done(request, session, messages.SUCCESS, f"{text}; its summary streams below.")


def _compact(request: HtmxHttpRequest, session_id: int, trigger: str) -> HttpResponse:
    session = get_session(session_id)
    form = Params(request, form=True)
    instructions = form.text("instructions", max_length=MAX_INSTRUCTIONS) if trigger == Trigger.MANUAL else ""
    settings = None
    base = session_settings(session)
    keep = form.text("keep")
    if trigger == Trigger.MANUAL and keep:  # "Compact now" with a keep-recent value of its own
        settings, refusal = _form_settings(session, base, {"keep": keep})
        if settings is None:
            return _done(request, session, messages.WARNING, refusal, refused=True)
    return _start(request, session, trigger, base, instructions=instructions, settings=settings)


def _form_settings(
    session: Session, base: CompactionSettings, values: object
) -> tuple[CompactionSettings | None, str]:
    """The settings a form asks for (`base`, the session's, where it says nothing), or why they
    cannot be used for a compaction of this session."""
    settings, _window, errors = parse_settings(values, base, session_window(session))
    if errors:
        return None, f"Not started: {'; '.join(errors)}."
    if settings.compat != base.compat:
        return None, (
            f"Not started: this session follows the {base.compat} rules (compat = {base.compat!r}) and "
            f"its compactions are checked by them; set Rules back to {base.compat} to compact."
        )
    return settings, ""


def _start_with_form(
    request: HtmxHttpRequest, session: Session, form: Params, *, first_kept: str | None = None
) -> HttpResponse:
    """A manual compaction with the cut-point view's settings from the form (for this compaction
    only), or why they cannot be used."""
    base = session_settings(session)
    settings, refusal = _form_settings(session, base, request.POST)
    if settings is None:
        return _done(request, session, messages.WARNING, refusal, refused=True)
    instructions = form.text("instructions", max_length=MAX_INSTRUCTIONS)
    return _start(
        request,
        session,
        Trigger.MANUAL,
        base,
        instructions=instructions,
        settings=settings,
        first_kept=first_kept,
    )


@require_POST
@staff_required
def compact_now(request: HtmxHttpRequest, session_id: int) -> HttpResponse:
    """Compact now; an optional `keep` (keep-recent tokens) applies to this compaction only."""
    return _compact(request, session_id, Trigger.MANUAL)


@require_POST
@staff_required
def recover(request: HtmxHttpRequest, session_id: int) -> HttpResponse:
    return _compact(request, session_id, Trigger.RECOVERY)


@require_POST
@staff_required
def resume_compaction(request: HtmxHttpRequest, session_id: int) -> HttpResponse:
    """Let automatic compaction run again after the thrash guard stopped it (docs/compaction.md, G7)."""
    session = get_session(session_id)
    if not compaction_guard.resume(session.pk, by=request.user.get_username()):
        return _done(request, session, messages.INFO, "Automatic compaction was not stopped.", refused=True)
    return _done(
        request,
        session,
        messages.SUCCESS,
        "Automatic compaction resumed: the next response over the threshold compacts again.",
    )


@require_POST
@staff_required
def compact_with_settings(request: HtmxHttpRequest, session_id: int) -> HttpResponse:
    """A manual compaction planned with the cut-point view's settings (keep, reserve, window,
    threshold, compat), for this compaction only."""
    return _start_with_form(request, get_session(session_id), Params(request, form=True))


@require_POST
@staff_required
def compact_up_to_here(request: HtmxHttpRequest, session_id: int) -> HttpResponse:
    """A manual compaction whose kept part starts at the node the operator picked (`key`), with
    the cut-point view's settings."""
    session = get_session(session_id)
    form = Params(request, form=True)
    key = form.key("key")
    if key is None:
        return _done(
            request,
            session,
            messages.WARNING,
            "Not started: pick the first node to keep (a valid cut point on the active path).",
            refused=True,
        )
    return _start_with_form(request, session, form, first_kept=key)


@require_POST
@staff_required
def switch_node(request: HtmxHttpRequest, session_id: int) -> HttpResponse:
    session = get_session(session_id)
    key = Params(request, form=True).key("key") or ""
    try:
        store.switch_active_node(session, key)
    except store.StoreError as exc:
        return _done(request, session, messages.ERROR, f"Cannot switch: {exc}", refused=True)
    # The store's active_node_switched signal publishes the live update.
    return _done(request, session, messages.SUCCESS, f"Active node is now {key}. Nothing else changed.")


@require_POST
@staff_required
def undo_compaction(request: HtmxHttpRequest, session_id: int) -> HttpResponse:
    """ "Continue from before this compaction" (docs/compaction.md, S9): the active node moves to the
    compaction's parent; nothing else changes. The notice offers to compact again from there."""
    session = get_session(session_id)
    key = Params(request, form=True).key("key") or ""
    try:
        parent = store.switch_before_compaction(session, key)
    except store.StoreError as exc:
        return _done(request, session, messages.ERROR, f"Cannot continue from before it: {exc}", refused=True)
    text = (
        f"Active node is now {parent.key}, just before compaction {key}, which stays in the tree on "
        "its branch. A new prompt continues from here on a new branch; to compact again with other "
        "settings, use the Cut point tab or Compact now with a keep-recent value."
    )
    if wants_partial(request):
        return _done(request, session, messages.SUCCESS, text)
    messages.success(request, text)
    return redirect(reverse("sessions_app:session_panel", args=[session.pk, "cut"]))


@require_POST
@staff_required
def send_prompt(request: HtmxHttpRequest, session_id: int) -> HttpResponse:
    session = get_session(session_id)
    prompt = Params(request, form=True).text("prompt", max_length=MAX_PROMPT + 1)
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
    try:
        claimed = background.start_prompt(session.pk, prompt)
    except SessionBusy as busy:
        running = f"run #{busy.run_id}" if busy.run_id is not None else "another run"
        return _done(
            request,
            session,
            messages.WARNING,
            f"Not sent: the agent is still answering ({running}). "
            "Wait until it has finished, then send your prompt again.",
            refused=True,
            status=409,
        )
    return _done(
        request,
        session,
        messages.SUCCESS,
        f"Prompt sent (run #{claimed.run_id}); the agent continues in the background.",
    )
