"""The login backends: django-axes' (refuses locked-out logins) and Django's ModelBackend (checks
the password), each reading the user that every request loads by one statement compiled once per
process.

Every page loads the logged-in user by the id its login session holds (`AuthenticationMiddleware`
→ `get_user` of the backend the session names). ModelBackend builds and compiles an ORM query for
it each time, about a fifth of the CPU a cached session page costs a server process; the same SQL
compiled once (sessions_app/selectors/compiled.py) costs the round trip and little else (issue
35, docs/architecture.md "Serving under load"). What `get_user` accepts is ModelBackend's: the
user with that id, only while `user_can_authenticate` (an active user). Logins, lockouts and
permissions are axes' and ModelBackend's, unchanged.

A login session names the backend that logged it in, and Django loads its user only while the
settings list that name: sessions made before these backends (named `axes.backends.AxesBackend`
or `django.contrib.auth.backends.ModelBackend`) log in again once.
"""

from __future__ import annotations

from typing import Any

from axes.backends import AxesBackend as AxesModelBackend
from django.contrib.auth import backends, get_user_model

from sessions_app.selectors.compiled import CompiledQuery

_USER_BY_ID: CompiledQuery[Any] = CompiledQuery(lambda pk: get_user_model()._default_manager.filter(pk=pk))


class CompiledUserRead(backends.ModelBackend):
    def get_user(self, user_id: Any) -> Any:
        if type(user_id) is not int:  # another user model's key: ModelBackend's own read
            return super().get_user(user_id)
        user = _USER_BY_ID.first(user_id)
        return user if user is not None and self.user_can_authenticate(user) else None


class AxesBackend(CompiledUserRead, AxesModelBackend):
    """axes' backend: `authenticate` refuses a locked-out login (and otherwise leaves it to the
    next backend)."""


class ModelBackend(CompiledUserRead):
    """Django's: `authenticate` checks the password."""
