"""Request and response guards that every page gets, whatever its view does.

- `RejectBadInputMiddleware`: a request whose path, query string or form carries a NUL character
  or an unpaired UTF-16 surrogate is answered 400 before any view (or the database) sees it.
  PostgreSQL refuses NUL in text (a `DataError`, so a 500), and neither can be encoded back out.
  A cookie carrying one (`sessionid="\\000…"` decodes to NULs) is dropped instead: the session
  middleware would look it up in the database, and a browser stuck with such a cookie should still
  reach the login page.
- `SurrogateSafeTemplatesMiddleware`: stored text can hold an unpaired surrogate (SQLite keeps
  whatever a JSON escape such as "\\ud800" decoded to); a page quoting it could not be encoded as
  UTF-8 and would fail with a 500. Rendered templates get such code points replaced by U+FFFD.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable
from typing import Any

from django.core.exceptions import BadRequest
from django.http import HttpRequest, HttpResponse
from django.template.response import SimpleTemplateResponse

log = logging.getLogger(__name__)

# NUL, or a surrogate code point (paired surrogates never occur in a Python str: they are one
# astral character there, so any surrogate left is an unpaired one).
_BAD_CHARS = re.compile("[\x00\ud800-\udfff]")
_SURROGATES = re.compile("[\ud800-\udfff]")
REPLACEMENT = "\ufffd"


class BadInput(BadRequest):
    """A request parameter that cannot be used. Its text is shown on the 400 page, so it names the
    parameter and the problem, never the value."""


def has_bad_chars(text: str) -> bool:
    return _BAD_CHARS.search(text) is not None


def scrub_surrogates(text: str) -> str:
    """`text` with every unpaired surrogate replaced by U+FFFD, so it encodes as UTF-8."""
    return _SURROGATES.sub(REPLACEMENT, text)


def _bad_field(items: Iterable[tuple[str, list[Any]]]) -> str | None:
    for key, values in items:
        if has_bad_chars(key):
            return "a parameter name"
        for value in values:
            if isinstance(value, str) and has_bad_chars(value):
                return f"the parameter {key[:40]!r}"
    return None


class RejectBadInputMiddleware:
    """400 for a NUL or an unpaired surrogate anywhere in the path, the query string or the form.

    The form is parsed here (as the CSRF middleware would anyway), with the upload handlers from
    the settings, so a file upload is streamed to disk exactly as the view would have it."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        bad_cookies = [name for name, value in request.COOKIES.items() if has_bad_chars(name + value)]
        if bad_cookies:
            log.warning("ignored %d cookie(s) holding a NUL or an unpaired surrogate", len(bad_cookies))
            request.COOKIES = {k: v for k, v in request.COOKIES.items() if k not in bad_cookies}
        where = None
        if has_bad_chars(request.path_info):
            where = "the address"
        else:
            where = _bad_field(request.GET.lists())
            if where is None and request.method == "POST":
                where = _bad_field(request.POST.lists())
        if where is not None:
            log.warning(
                "refused %s %s: %s contains a NUL or an unpaired surrogate",
                request.method,
                scrub_surrogates(request.path_info).replace("\x00", "\\x00"),
                where,
            )
            raise BadInput(f"The request was refused: {where} contains a character that is not allowed.")
        return self.get_response(request)


class _ScrubbedTemplate:
    """A resolved template whose output has unpaired surrogates replaced."""

    def __init__(self, template: Any) -> None:
        self.template = template

    def render(self, context: Any = None, request: HttpRequest | None = None) -> str:
        return scrub_surrogates(self.template.render(context, request))


class SurrogateSafeTemplatesMiddleware:
    """Every TemplateResponse renders through `_ScrubbedTemplate` (its post-render callbacks and
    everything else about the response unchanged)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_template_response(
        self, request: HttpRequest, response: SimpleTemplateResponse
    ) -> SimpleTemplateResponse:
        if not isinstance(response.template_name, _ScrubbedTemplate):
            response.template_name = _ScrubbedTemplate(response.resolve_template(response.template_name))
        return response
