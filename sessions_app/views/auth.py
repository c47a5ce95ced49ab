"""Login throttling hooks for django-axes (dashboard/settings.py, AXES_*).

- `locked_out`: the login page when a username + address pair is locked out — the same page, with
  the lockout and how long it lasts instead of the form's usual error.
- `client_address`: the address axes records. REMOTE_ADDR is whatever the server put there (with
  `--proxy-headers`, daphne copies it from X-Forwarded-For unchecked); a value that is not an IP
  address would fail the database write (a 500 on PostgreSQL), so it counts as no address.
"""

from __future__ import annotations

import ipaddress
import logging
from typing import Any

from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from sessions_app.params import Params

STATUS = 429  # Too Many Requests
log = logging.getLogger(__name__)


def client_address(request: HttpRequest) -> str | None:
    raw = str(request.META.get("REMOTE_ADDR") or "").strip()
    try:
        return str(ipaddress.ip_address(raw))
    except ValueError:
        if raw:
            log.warning("login attempt from an address that is not one: %r", raw[:60])
        return None


def lockout_minutes() -> int:
    cooloff = settings.AXES_COOLOFF_TIME
    return max(1, round(cooloff.total_seconds() / 60)) if cooloff else 0


def locked_out(
    request: HttpRequest, original_response: HttpResponse | None = None, credentials: Any = None
) -> HttpResponse:
    params = Params(request, form=True)
    form = AuthenticationForm(request, initial={"username": params.text("username", max_length=150)})
    context = {
        "form": form,
        "next": params.text("next"),
        "locked_out": True,
        "lockout_minutes": lockout_minutes(),
        "failure_limit": settings.AXES_FAILURE_LIMIT,
    }
    return render(request, "registration/login.html", context, status=STATUS)
