"""Serialises hand-written labels (each fact typed by a person in labels_src.py) to labels.json.
Nothing here derives a fact, an anchor or a probe."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def fact(fid: str, kind: str, imp: str, source: str, text: str, probes: list[str],
         status: str | None = None, synthesis: bool = False) -> dict[str, Any]:
    f: dict[str, Any] = {"id": fid, "kind": kind, "source": source, "importance": imp}
    if status:
        f["status"] = status
    f["text"] = text
    f["probe"] = {"all": probes}
    if synthesis:
        f["synthesis"] = True
    return f


def dump(
    folder: Path, meta: dict[str, Any], compactions: list[tuple[str, int]], facts: list[dict[str, Any]]
) -> None:
    out = dict(meta)
    out["compactions"] = [{"at": a, "keep_recent_tokens": k} for a, k in compactions]
    out["facts"] = facts
    text = json.dumps(out, indent=1, ensure_ascii=False) + "\n"
    (folder / "labels.json").write_text(text, encoding="utf-8")
