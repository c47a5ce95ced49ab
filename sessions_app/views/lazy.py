"""A view named by its dotted path in the URL configuration and imported on its first request.

Every management command runs Django's URL checks, which import the URL configuration; with the
views imported there, `manage.py check` (or `compact`, `import_session`, …) would import every
presenter, the runtime, plotly and OpenTelemetry before doing anything (issue 35: 2.5 s). A server
process imports them all before it accepts a connection (dashboard/warmup.py), so no request pays
for it either. Only for sync function views: the handler asks whether a view is a coroutine
function before calling it, and this wrapper is not one.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import Any

from django.http import HttpRequest, HttpResponseBase

View = Callable[..., HttpResponseBase]


class LazyView:
    def __init__(self, dotted: str) -> None:
        module, _, name = dotted.rpartition(".")
        if not module:
            raise ValueError(f"{dotted!r} is not a dotted path to a view")
        self._module = module
        self._name = name
        self._view: View | None = None
        # What Django's resolver reads to name the view (URLPattern.lookup_str) without importing it.
        self.__module__ = module
        self.__name__ = self.__qualname__ = name

    def resolve(self) -> View:
        if self._view is None:
            view = getattr(import_module(self._module), self._name)
            if not callable(view):
                raise TypeError(f"{self._module}.{self._name} is not a view")
            self._view = view
        return self._view

    def __call__(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        return self.resolve()(request, *args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        # The view's decorators leave flags on it that middleware reads (`login_required`,
        # `csrf_exempt`, …): answer them from the view. Dunders and `view_class` (class-based views,
        # which this is not for) stay unanswered so that introspection does not import the view.
        if name.startswith("__") or name == "view_class":
            raise AttributeError(name)
        return getattr(self.resolve(), name)

    def __repr__(self) -> str:
        return f"<LazyView {self._module}.{self._name}>"
