"""API tokens page (staff only): a staff user lists their tokens, creates one (the secret is shown
once, in the response to the POST that created it) and revokes one. Creating and revoking are POST
+ CSRF; htmx gets the tokens partial back, a plain form post the whole page. The tokens
authenticate machine clients such as the OTLP receiver (docs/telemetry.md, "Receiving spans").
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.views.decorators.http import require_http_methods, require_POST

from sessions_app.params import Params
from sessions_app.store.api_tokens import NAME_MAX, create_token, revoke_token, tokens_of
from sessions_app.views._common import HtmxHttpRequest, staff_required, wants_partial


def _user(request: HtmxHttpRequest) -> User:
    user = request.user
    if not isinstance(user, User):  # staff_required let only a signed-in user through
        raise PermissionDenied("sign in first")
    return user


def _page(request: HtmxHttpRequest, extra: dict[str, Any] | None = None, status: int = 200) -> HttpResponse:
    context: dict[str, Any] = {"tokens": tokens_of(_user(request)), "name_max": NAME_MAX, **(extra or {})}
    template = "sessions/tokens.html#tokens" if wants_partial(request) else "sessions/tokens.html"
    return TemplateResponse(request, template, context, status=status)


@require_http_methods(["GET", "POST"])
@staff_required
def api_tokens(request: HtmxHttpRequest) -> HttpResponse:
    """GET lists the user's tokens; POST (`name`) creates one and shows its secret this once."""
    if request.method != "POST":
        return _page(request)
    name = Params(request, form=True).text("name", max_length=NAME_MAX + 1)
    try:
        new = create_token(_user(request), name)
    except ValueError as exc:
        return _page(request, {"error": str(exc).capitalize() + ".", "name": name}, status=400)
    return _page(request, {"new_token": new.token, "new_secret": new.secret})


@require_POST
@staff_required
def revoke_api_token(request: HtmxHttpRequest, token_id: int) -> HttpResponse:
    token = revoke_token(token_id, user=_user(request))
    if token is None:
        return _page(request, {"error": "No such token."}, status=404)
    if wants_partial(request):
        return _page(request, {"revoked": token})
    messages.success(request, f"Token {token.name!r} revoked.")
    return redirect("sessions_app:api_tokens")
