"""The sessions list, and importing a session file."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import forms
from django.contrib import messages
from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from sessions_app import importers
from sessions_app.compaction.vocabulary import Source
from sessions_app.importers.errors import ImportFailed
from sessions_app.importers.otlp import import_otlp, sniff_head
from sessions_app.models import CompactionTask, Session, SourceChoices
from sessions_app.params import Params
from sessions_app.presenters.audit import retention_label, retention_level
from sessions_app.presenters.costs import session_cost_label
from sessions_app.presenters.stats import context_stats
from sessions_app.selectors import grouping
from sessions_app.selectors.compactions import active_task
from sessions_app.selectors.sessions import sessions_queryset
from sessions_app.views._common import HtmxHttpRequest, staff_required, wants_partial
from sessions_app.views.uploads import upload_refusal

PAGE_SIZE = 25
SOURCES = [("", "All sources"), *SourceChoices.choices]
STATES = [
    ("", "Any state"),
    ("compacting", "Compacting now"),
    ("compacted", "Has compactions"),
    ("fresh", "Never compacted"),
]
# Every format the import form takes, for the page's texts (so they cannot lag behind the form).
_IMPORTABLE = [s.label for s in Source if s is not Source.NATIVE]
IMPORT_SOURCES = ", ".join(_IMPORTABLE[:-1]) + " or " + _IMPORTABLE[-1]
SOURCE_VALUES = frozenset(value for value, _ in SOURCES if value)
STATE_VALUES = frozenset(value for value, _ in STATES if value)


class ImportForm(forms.Form):
    file = forms.FileField(label="Session file (JSONL or OTLP JSON)")
    format = forms.ChoiceField(
        choices=[("auto", "Detect"), *((s, s.label) for s in Source if s is not Source.NATIVE)],
        initial="auto",
    )
    title = forms.CharField(max_length=300, required=False)
    skip_bad_lines = forms.BooleanField(required=False, label="Skip lines that do not parse")


def _row(s: Session, task: CompactionTask | None) -> dict[str, Any]:
    worst = getattr(s, "worst_retention", None)
    return {
        "session": s,
        "stats": context_stats(s),
        "task": task,
        "worst": worst,
        "worst_label": retention_label(worst),
        "worst_level": retention_level(worst),
        "cost": session_cost_label(s),
    }


@dataclass(frozen=True, slots=True)
class ListQuery:
    """What the list shows: the filters, the order and the grouping (selectors/grouping.py)."""

    query: str = ""
    source: str = ""
    state: str = ""
    sort: str = ""
    group: str = ""
    project: str = ""

    @classmethod
    def of(cls, params: Params) -> ListQuery:
        return cls(
            query=params.text("q"),
            source=params.choice("source", SOURCE_VALUES),
            state=params.choice("state", STATE_VALUES),
            sort=params.choice("sort", grouping.SORT_VALUES),
            group=params.choice("group", grouping.GROUP_VALUES),
            project=params.text("project", max_length=1000),
        )


def _list_context(q: ListQuery, page_number: int) -> dict[str, Any]:
    """The list's page of rows and its filters; a session being compacted shows its task."""
    listed = grouping.arrange(
        sessions_queryset(q.query, q.source, q.state), sort=q.sort, group=q.group, project=q.project
    )
    page = Paginator(listed, PAGE_SIZE).get_page(page_number)
    rows = [_row(s, active_task(s.pk) if getattr(s, "compacting", False) else None) for s in page.object_list]
    return {
        "page": page,
        "rows": rows,
        "query": q.query,
        "source": q.source,
        "state": q.state,
        "sources": SOURCES,
        "states": STATES,
        "sort": q.sort,
        "group": q.group,
        "project": q.project,
        "sorts": grouping.SORTS,
        "groups": grouping.GROUPS,
        "projects": grouping.projects(),
    }


def session_list(request: HtmxHttpRequest) -> HttpResponse:
    params = Params(request)
    context = _list_context(ListQuery.of(params), params.page())
    context.update(
        {
            "form": ImportForm(),
            "import_sources": IMPORT_SOURCES,
            # /import/?... or a reload of the import form's address lands here with the form open.
            "open_import": "import" in request.GET,
        }
    )
    template = (
        "sessions/session_list.html#results" if wants_partial(request) else "sessions/session_list.html"
    )
    return TemplateResponse(request, template, context)


def _import_upload(upload: Any, data: dict[str, Any]) -> tuple[Session, str, list[Any]]:
    """Import an uploaded file as `manage.py import_session` would: OTLP spans through their own
    importer (a file may hold several conversations), every other format through `import_file`.
    Returns the session to open, a one-line summary and the problems to list."""
    temporary_path = getattr(upload, "temporary_file_path", None)
    source = temporary_path() if temporary_path is not None else upload
    fmt = data["format"]
    if fmt == Source.OTLP or (fmt == "auto" and sniff_head(_head(upload))):
        otlp = import_otlp(
            source, title=data["title"] or None, skip_bad=data["skip_bad_lines"], filename=upload.name
        )
        first = otlp.sessions[0]
        return (
            first,
            f"Imported {len(otlp.sessions)} conversation(s), {otlp.nodes} nodes, from {otlp.spans} spans"
            + (f"; {otlp.not_genai} span(s) without GenAI attributes skipped" if otlp.not_genai else "")
            + ".",
            [*otlp.skipped, *otlp.warnings],
        )
    result = importers.import_file(
        source,
        format=fmt,
        title=data["title"] or None,
        skip_bad_lines=data["skip_bad_lines"],
        filename=upload.name,
    )
    return (
        result.session,
        f"Imported {result.node_count} nodes and {result.compactions} compactions"
        + (f"; skipped {len(result.skipped)} bad line(s)" if result.skipped else "")
        + ".",
        [*result.skipped, *result.warnings],
    )


def _head(upload: Any) -> bytes:
    """The first bytes of an upload, leaving it at its start."""
    upload.seek(0)
    head = bytes(upload.read(1 << 16))
    upload.seek(0)
    return head


@require_http_methods(["GET", "POST"])
@staff_required
def session_import(request: HtmxHttpRequest) -> HttpResponse:
    """GET (a reload or a bookmark of the form's address) opens the list with the form open.
    The upload arrives as a temporary file (sessions_app/views/uploads.py) and is imported from
    that file by path, the way `manage.py import_session` reads one: no copy of it is ever in memory."""
    if request.method == "GET":
        return redirect(reverse("sessions_app:session_list") + "?import=1")
    form = ImportForm(request.POST, request.FILES)
    error = ""
    status = 400
    refusal = upload_refusal(request)
    if refusal is not None:
        # The upload was stopped at the limit: whatever the parser saw of the form is not worth checking.
        form = ImportForm()
        error = refusal.message
        status = 413
    elif form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            session, summary, problems = _import_upload(upload, form.cleaned_data)
        except ImportFailed as exc:
            error = f"Import failed: {exc}"
        else:
            messages.success(request, summary)
            for problem in problems[:10]:
                messages.warning(request, str(problem))
            response = redirect("sessions_app:session_detail", session_id=session.pk)
            if wants_partial(request):
                resp = HttpResponse(status=204)
                resp["HX-Redirect"] = response["Location"]
                return resp
            return response
        finally:
            upload.close()  # a temporary upload file is deleted when closed
    context = {"form": form, "import_error": error, "open_import": True, "import_sources": IMPORT_SOURCES}
    if wants_partial(request):
        return TemplateResponse(request, "sessions/session_list.html#import", context)
    context.update(_list_context(ListQuery(), 1))
    return TemplateResponse(request, "sessions/session_list.html", context, status=status)
