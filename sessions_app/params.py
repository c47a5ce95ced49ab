"""Typed request parameters. Every value a view (or a panel) reads from the query string or a form
goes through here, so nothing a client sends reaches the database, int() or a template unchecked.

    p = Params(request)                 # the query string; Params(request, form=True): the POST form
    q = p.text("q")                     # "" when absent; at most MAX_TEXT characters
    page = p.page()                     # 1 unless a sane positive whole number was given
    node = p.key("node")                # a node key, or None
    state = p.choice("state", {"compacting", "compacted", "fresh"})

A value that cannot be used is ignored (the default is used: an empty filter, the first page, no
focus node) and logged as a warning. A NUL or an unpaired surrogate is never ignored: it raises
`BadInput`, which answers 400 (RejectBadInputMiddleware normally refuses such a request first).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Collection

from django.http import HttpRequest, QueryDict

from sessions_app.middleware import BadInput, has_bad_chars
from sessions_app.models import Node

log = logging.getLogger(__name__)

MAX_TEXT = 1000  # a search box or a title filter never needs more
MAX_KEY = Node._meta.get_field("key").max_length or 64  # a longer value cannot name a node
MAX_ID = 2**63 - 1  # BigAutoField
MAX_PAGE = 1_000_000
# ASCII only: str.isdigit() also accepts "²" and other digits that int() refuses.
_INTEGER = re.compile(r"[+-]?[0-9]{1,19}")


def parse_id(raw: str | None) -> int | None:
    """A database id written as plain ASCII digits (1 … 2**63-1), else None."""
    if raw is None or not _INTEGER.fullmatch(raw) or raw[0] in "+-":
        return None
    value = int(raw)
    return value if 1 <= value <= MAX_ID else None


class Params:
    def __init__(self, request: HttpRequest, *, form: bool = False) -> None:
        self.data: QueryDict = request.POST if form else request.GET
        self.path = request.path

    def _ignored(self, name: str, why: str) -> None:
        log.warning("%s: ignored the parameter %r: %s", self.path, name[:40], why)

    def text(self, name: str, default: str = "", *, max_length: int = MAX_TEXT, strip: bool = True) -> str:
        raw = self.data.get(name)
        if raw is None:
            return default
        if has_bad_chars(raw):
            log.warning("%s: refused the parameter %r: NUL or unpaired surrogate", self.path, name[:40])
            raise BadInput(f"The parameter {name[:40]!r} contains a character that is not allowed.")
        value = raw.strip() if strip else raw
        if len(value) > max_length:
            self._ignored(name, f"longer than {max_length} characters; cut to that length")
            value = value[:max_length]
        return value

    def choice(self, name: str, allowed: Collection[str], default: str = "") -> str:
        value = self.text(name, default)
        if value != default and value not in allowed:
            self._ignored(name, "not one of the accepted values")
            return default
        return value

    def integer(
        self, name: str, default: int | None = None, *, lo: int | None = None, hi: int | None = None
    ) -> int | None:
        raw = self.text(name).replace(",", "").replace("_", "")
        if not raw:
            return default
        if not _INTEGER.fullmatch(raw):
            self._ignored(name, "not a whole number")
            return default
        value = int(raw)
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            self._ignored(name, f"out of range ({lo} … {hi})")
            return default
        return value

    def page(self, name: str = "page") -> int:
        return self.integer(name, 1, lo=1, hi=MAX_PAGE) or 1

    def object_id(self, name: str) -> int | None:
        raw = self.text(name)
        if not raw:
            return None
        value = parse_id(raw)
        if value is None:
            self._ignored(name, "not an id")
        return value

    def key(self, name: str) -> str | None:
        """A node key: None when absent, empty or too long to be one (then nothing matches)."""
        raw = self.text(name, max_length=MAX_KEY + 1)
        if len(raw) > MAX_KEY:
            self._ignored(name, "too long for a node key")
            return None
        return raw or None

    def flag(self, name: str) -> bool:
        """Checkbox-style switches: on only for "1"."""
        return self.text(name) == "1"
