"""The dashboard's ASGI app with a slower offline provider, so a browser can watch a summary stream.

Used only by the browser tests (daphne tests.browser.asgi_slow:application).
"""

from __future__ import annotations

import os
from typing import Any

from dashboard.asgi import application  # noqa: F401  (sets Django up first)
from sessions_app.llm import offline

_DELAY = float(os.environ.get("CUTPOINT_TEST_CHUNK_DELAY", "0.06"))
_init = offline.OfflineProvider.__init__


def _slow_init(self: offline.OfflineProvider, *args: Any, **kwargs: Any) -> None:
    kwargs.setdefault("chunk_delay", _DELAY)
    _init(self, *args, **kwargs)


offline.OfflineProvider.__init__ = _slow_init  # type: ignore[method-assign]
