"""Matching words in the node table's JSON columns as they are stored: a case-insensitive
substring of the column's JSON text, in both the plain and the `\\u`-escaped spelling (a read
helper shared by the `recall_memory` tool and the dashboard's search, so both match alike)."""

from __future__ import annotations

import json
from functools import reduce
from operator import or_

from django.db.models import Q


def json_escaped(term: str) -> str:
    # Node content is stored with json.dumps' default ASCII escaping, so "压缩" is "\u538b\u7f29"
    # in the column's text on SQLite; search both spellings.
    return json.dumps(term)[1:-1]


def term_filter(field: str, terms: list[str], json_text: bool) -> Q:
    """Any of `terms` in `field` (with `json_text`, in either spelling of non-ASCII)."""
    parts = []
    for term in terms:
        parts.append(Q(**{f"{field}__icontains": term}))
        escaped = json_escaped(term)
        if json_text and escaped != term:
            parts.append(Q(**{f"{field}__icontains": escaped}))
    return reduce(or_, parts)
