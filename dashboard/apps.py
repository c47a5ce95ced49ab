"""App configurations the project picks instead of a package's default."""

from __future__ import annotations

from django.apps import AppConfig


class DaphneConfig(AppConfig):
    """daphne's app (it provides `runserver` on daphne) without what its own configuration does
    when the app registry loads: import daphne's server, Twisted and its reactor, in every
    management command (issue 35: a quarter of `manage.py check`). `runserver`, `serve` and
    `python -m daphne` import the server themselves before anything else touches Twisted.

    Its own ready() also registers a check that daphne comes before staticfiles in
    INSTALLED_APPS; that order is kept (dashboard/settings.py) and tested instead.
    """

    name = "daphne"
    label = "daphne"
    verbose_name = "Daphne"
