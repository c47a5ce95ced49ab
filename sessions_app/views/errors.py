"""The 400 page (dashboard/urls.py, handler400). Django's own views serve 403, 404 and 500 from
templates/403.html, 404.html and 500.html; this one adds the reason when Cutpoint refused the
request itself (`BadInput`: its text names the parameter, never the value)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.template import loader

from sessions_app.middleware import BadInput


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    # Rendered without the request, as Django renders its own 400 page: a request this broken may
    # have skipped the session and authentication middleware.
    reason = str(exception) if isinstance(exception, BadInput) else ""
    return HttpResponseBadRequest(loader.get_template("400.html").render({"reason": reason}))
